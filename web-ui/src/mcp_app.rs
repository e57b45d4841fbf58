//! MCP Apps (the `io.modelcontextprotocol/ui` extension, stable 2026-01-26): a tool whose
//! `_meta.ui.resourceUri` names a `ui://` resource is shown, after it answered, as that
//! resource's HTML page (the "View") in a sandboxed frame, which talks JSON-RPC with the app
//! over `postMessage`.
//!
//! This module is the host's side of that conversation with no browser in it: which tools
//! have a View, the HTML and the Content-Security-Policy it is shown with, and a [`Bridge`]
//! that turns each message of the View into what to do ([`Action`]): answer it, call a tool
//! or read a resource on the server for it, resize its frame, show what it said. The
//! component (`components::app_view`) does the I/O.
//!
//! How the View is isolated (a decision, see the README): the specification asks web hosts
//! for a "sandbox proxy" page on a second origin that loads the View. This client has no
//! server and so no second origin of its own; the View is instead loaded as a `data:`
//! document in an `<iframe sandbox="allow-scripts allow-forms">`. Without `allow-same-origin`
//! its origin is opaque: it cannot reach this page, its storage or its cookies, and the
//! `data:` document does not inherit this page's policy. (A View too large for a URL is
//! given as `srcdoc`, with the same sandbox; it inherits the page's policy, if any.) The policy the specification asks
//! for is put into the document itself, as its first `<meta http-equiv>`, ahead of anything
//! of the server's.

use base64::Engine;
use client_browser::client_core::types::{ContentBlock, KnownContent, ResourceContents, Tool};
use serde_json::{json, Map, Value};

/// The extension's identifier, declared in the client's capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of a View's HTML.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The version of the View protocol this host speaks.
pub const PROTOCOL_VERSION: &str = "2026-01-26";
/// The largest View accepted, in bytes of HTML.
pub const MAX_HTML: usize = 4 << 20;
/// The most requests of a View the host works on at once; more are refused.
pub const MAX_IN_FLIGHT: usize = 16;
/// The tallest a View's frame is made, in CSS pixels, whatever height it asks for.
pub const MAX_HEIGHT: f64 = 3000.0;
/// The most messages of a View taken in one second; more are dropped (a View that floods
/// the page with messages would otherwise keep it busy).
pub const MAX_MESSAGES_PER_SECOND: u32 = 200;
/// The id of the host's `ui/resource-teardown` request (the only request it sends a View).
const TEARDOWN_ID: &str = "host-teardown";
/// How long a View is given to answer `ui/resource-teardown` before it goes anyway, in ms.
pub const TEARDOWN_WAIT_MS: u32 = 3_000;
/// The most files one `ui/download-file` offers.
pub const MAX_DOWNLOADS: usize = 16;

/// What the client declares for the extension (`capabilities.extensions[EXTENSION]`).
pub fn capability() -> Value {
    json!({ "mimeTypes": [MIME_TYPE] })
}

fn ui_meta(tool: &Tool) -> Option<&Map<String, Value>> {
    tool.meta.as_ref()?.get("ui")?.as_object()
}

/// The `ui://` resource that shows `tool`'s results, if it has one: `_meta.ui.resourceUri`,
/// or the older flat `_meta["ui/resourceUri"]`.
pub fn resource_uri(tool: &Tool) -> Option<&str> {
    let nested = ui_meta(tool).and_then(|ui| ui.get("resourceUri"));
    let flat = tool.meta.as_ref().and_then(|m| m.get("ui/resourceUri"));
    nested
        .or(flat)
        .and_then(Value::as_str)
        .filter(|uri| uri.starts_with("ui://"))
}

/// Whether a View may call `tool` (its `_meta.ui.visibility` includes `"app"`, or says
/// nothing).
pub fn callable_by_view(tool: &Tool) -> bool {
    match ui_meta(tool).and_then(|ui| ui.get("visibility")) {
        Some(Value::Array(who)) => who.iter().any(|w| w == "app"),
        _ => true,
    }
}

/// Whether `tool` is meant for Views only (`visibility: ["app"]`): the list marks it.
pub fn for_views_only(tool: &Tool) -> bool {
    matches!(
        ui_meta(tool).and_then(|ui| ui.get("visibility")),
        Some(Value::Array(who)) if !who.iter().any(|w| w == "model")
    )
}

/// A View's settings (`csp`, `prefersBorder`, …) in a `_meta`: its `ui` object. The
/// contents read are asked first; SDKs that declare them when registering the resource put
/// them on its `resources/list` entry, which the host then asks (the extension says so).
pub fn ui_of(meta: Option<&Map<String, Value>>) -> Option<&Value> {
    meta?.get("ui").filter(|ui| ui.is_object())
}

/// Why a View cannot be shown.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewError {
    /// The resource read answered no contents.
    NoContents,
    /// The contents are not a View's HTML.
    NotAView(String),
    /// The contents are neither text nor base64.
    Undecodable,
    /// Over [`MAX_HTML`].
    TooLarge(usize),
}

impl core::fmt::Display for ViewError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ViewError::NoContents => write!(f, "the server read the app's resource as empty"),
            ViewError::NotAView(mime) => write!(
                f,
                "the app's resource is not an MCP App (its type is {mime:?}, not {MIME_TYPE:?})"
            ),
            ViewError::Undecodable => write!(
                f,
                "the app's resource is neither text nor base64 of UTF-8 HTML"
            ),
            ViewError::TooLarge(n) => write!(
                f,
                "the app's page is {} KB, over the {} KB this client shows",
                n / 1024,
                MAX_HTML / 1024
            ),
        }
    }
}

/// Whether `mime` is [`MIME_TYPE`] (case and spaces around `;` aside).
fn is_view_type(mime: &str) -> bool {
    let normal: String = mime
        .split(';')
        .map(|p| p.trim().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(";");
    normal == MIME_TYPE
}

/// The View's HTML in a resource's contents (`text`, or `blob` as base64 of UTF-8).
pub fn html_of(contents: &ResourceContents) -> Result<String, ViewError> {
    let mime = contents.mime_type.as_deref().unwrap_or("");
    if !is_view_type(mime) {
        return Err(ViewError::NotAView(mime.to_string()));
    }
    let html = match (&contents.text, &contents.blob) {
        (Some(text), _) => text.clone(),
        (None, Some(blob)) => {
            if blob.len() / 4 * 3 > MAX_HTML {
                return Err(ViewError::TooLarge(blob.len() / 4 * 3));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob.trim())
                .map_err(|_| ViewError::Undecodable)?;
            String::from_utf8(bytes).map_err(|_| ViewError::Undecodable)?
        }
        (None, None) => return Err(ViewError::Undecodable),
    };
    if html.len() > MAX_HTML {
        return Err(ViewError::TooLarge(html.len()));
    }
    Ok(html)
}

/// Whether `source` may stand in a policy as a declared origin: a scheme (`http`, `https`,
/// `ws`, `wss`), a host (letters, digits, `-`, `.`, a leading `*.`) and an optional port.
/// Anything else (quotes, `;`, spaces, keywords, paths) could change the policy's meaning
/// and is left out.
fn is_origin(source: &str) -> bool {
    let Some((scheme, rest)) = source.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return false;
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (rest, None),
    };
    let host = host.strip_prefix("*.").unwrap_or(host);
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && port
            .is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The declared origins under `key` of a View's `csp`, the valid ones only.
fn declared<'a>(csp: Option<&'a Value>, key: &str) -> Vec<&'a str> {
    csp.and_then(|c| c.get(key))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .filter(|s| is_origin(s))
                .collect()
        })
        .unwrap_or_default()
}

/// The origins of a View's `csp` that this host lets through (each list filtered by
/// [`is_origin`]), as the `hostCapabilities.sandbox.csp` it is told.
pub fn approved_csp(csp: Option<&Value>) -> Value {
    let mut out = Map::new();
    for key in [
        "connectDomains",
        "resourceDomains",
        "frameDomains",
        "baseUriDomains",
    ] {
        let list = declared(csp, key);
        if !list.is_empty() {
            out.insert(key.into(), json!(list));
        }
    }
    Value::Object(out)
}

/// `directive` allowing `base` and the origins `extra`, or `fallback` when there are none
/// of either.
fn directive(name: &str, base: &str, extra: &[&str], fallback: &str) -> String {
    let mut d = String::from(name);
    for s in base.split_whitespace().chain(extra.iter().copied()) {
        d.push(' ');
        d.push_str(s);
    }
    if base.is_empty() && extra.is_empty() {
        d.push(' ');
        d.push_str(fallback);
    }
    d
}

/// The Content-Security-Policy a View is shown with: the specification's restrictive
/// default, widened only by the origins its resource declares in `_meta.ui.csp`
/// (`connectDomains`, `resourceDomains`, `frameDomains`, `baseUriDomains`), plus no plugins
/// and no form posting anywhere.
pub fn content_security_policy(csp: Option<&Value>) -> String {
    let connect = declared(csp, "connectDomains");
    let resources = declared(csp, "resourceDomains");
    let frames = declared(csp, "frameDomains");
    let bases = declared(csp, "baseUriDomains");
    [
        "default-src 'none'".to_string(),
        directive("script-src", "'self' 'unsafe-inline'", &resources, ""),
        directive("style-src", "'self' 'unsafe-inline'", &resources, ""),
        directive("img-src", "'self' data:", &resources, ""),
        directive("media-src", "'self' data:", &resources, ""),
        directive("font-src", "'self' data:", &resources, ""),
        directive("connect-src", "", &connect, "'none'"),
        directive("frame-src", "", &frames, "'none'"),
        directive("base-uri", "", &bases, "'self'"),
        "object-src 'none'".to_string(),
        "form-action 'none'".to_string(),
    ]
    .join("; ")
}

/// `html` with `policy` as its first element: a `<meta http-equiv="Content-Security-Policy">`
/// put after the doctype (so the page keeps its standards mode) and before anything else,
/// so that it rules every script and style of the page.
pub fn with_policy(html: &str, policy: &str) -> String {
    let meta = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        policy.replace('&', "&amp;").replace('"', "&quot;")
    );
    let body = html.trim_start_matches('\u{feff}');
    let lead = body.len() - body.trim_start().len();
    let rest = &body[lead..];
    let at = if rest.len() >= 9 && rest[..9].eq_ignore_ascii_case("<!doctype") {
        match rest.find('>') {
            Some(end) => lead + end + 1,
            None => 0,
        }
    } else {
        0
    };
    let mut out = String::with_capacity(body.len() + meta.len());
    out.push_str(&body[..at]);
    out.push_str(&meta);
    out.push_str(&body[at..]);
    out
}

/// The longest URL a frame is given: Chromium refuses longer ones (2 MiB) and loads
/// `about:blank#blocked` instead.
pub const MAX_URL: usize = 2 << 20;

/// How a View's frame gets its document.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameSource {
    /// A `data:` URL (`src`): its document does not inherit the page's policy.
    Url(String),
    /// The document itself (`srcdoc`), for a View too large for a URL: it inherits the
    /// page's policy (if the page has one) besides its own.
    Document(String),
}

/// Where a View's frame loads `document` from: a `data:` URL when it fits in [`MAX_URL`],
/// else `srcdoc`.
pub fn frame_source(document: String) -> FrameSource {
    const PREFIX: &str = "data:text/html;charset=utf-8;base64,";
    if PREFIX.len() + document.len().div_ceil(3) * 4 > MAX_URL {
        return FrameSource::Document(document);
    }
    FrameSource::Url(format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::STANDARD.encode(document)
    ))
}

/// What the host knows of where the View is shown, for its `hostContext`.
#[derive(Debug, Clone, PartialEq)]
pub struct Surroundings {
    /// `"light"` or `"dark"`.
    pub theme: &'static str,
    /// The browser's language (BCP 47).
    pub locale: String,
    /// The browser's time zone (IANA).
    pub time_zone: String,
    /// The frame's width in CSS pixels.
    pub width: f64,
}

/// A View's message budget: [`MAX_MESSAGES_PER_SECOND`] in each second.
#[derive(Debug, Clone, Default)]
pub struct MessageBudget {
    second_started_ms: f64,
    taken: u32,
    dropped_before: bool,
}

/// What [`MessageBudget::take`] decides for one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Within the budget: handle it.
    Take,
    /// Over the budget, the first message dropped for this View: drop it and say so once.
    DropFirst,
    /// Over the budget: drop it.
    Drop,
}

impl MessageBudget {
    /// Counts a message arriving at `now_ms` (milliseconds, any monotonic origin).
    pub fn take(&mut self, now_ms: f64) -> Budget {
        // A new second (or a clock that went back, or no number at all).
        if !(0.0..1000.0).contains(&(now_ms - self.second_started_ms)) {
            self.second_started_ms = now_ms;
            self.taken = 0;
        }
        if self.taken < MAX_MESSAGES_PER_SECOND {
            self.taken += 1;
            return Budget::Take;
        }
        if self.dropped_before {
            Budget::Drop
        } else {
            self.dropped_before = true;
            Budget::DropFirst
        }
    }
}

/// Something a View said, shown beside it.
#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    /// A log message (`notifications/message`): its level and data as text.
    Log(String, String),
    /// A message for the conversation (`ui/message`): its text.
    Message(String),
    /// Context for the model (`ui/update-model-context`): as text.
    Context(String),
    /// A web page it asks to open (`ui/open-link`).
    Link(String),
    /// A tool it called through the host, and whether the call was allowed.
    Called(String, bool),
    /// It asked to be closed (`ui/notifications/request-teardown`).
    Teardown,
    /// Files it offers to download (`ui/download-file`): embedded resources and resource
    /// links, saved only when the person chooses to.
    Download(Vec<ContentBlock>),
}

/// What the host does for one message of a View.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Post this message to the View.
    Post(Value),
    /// The View answered the host's `ui/resource-teardown`: it may go now.
    TornDown,
    /// Call a tool on the server; answer request `id` with [`Bridge::answer`].
    CallTool {
        /// The View's request id.
        id: Value,
        /// The tool.
        name: String,
        /// Its arguments.
        arguments: Value,
    },
    /// Read a resource on the server; answer request `id` with [`Bridge::answer`].
    ReadResource {
        /// The View's request id.
        id: Value,
        /// The resource.
        uri: String,
    },
    /// Make the frame this tall (CSS pixels, already bounded).
    Resize(f64),
    /// Show the View full screen (`true`) or inline.
    FullScreen(bool),
    /// Show what the View said.
    Show(Said),
}

/// How the call behind a View ended, once it has.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// Its result (a `CallToolResult` as the server sent it).
    Result(Value),
    /// It was cancelled or failed: why, in words.
    Cancelled(String),
}

/// The host's side of one View's conversation.
#[derive(Debug, Clone)]
pub struct Bridge {
    tool: Tool,
    arguments: Value,
    ending: Option<Ending>,
    told_ending: bool,
    theme: Option<&'static str>,
    fullscreen: bool,
    view_modes: Vec<String>,
    teardown_sent: bool,
    csp: Value,
    initialized: bool,
    in_flight: usize,
}

/// A JSON-RPC error answer.
fn error(id: &Value, code: i64, message: impl Into<String>) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message.into() } })
}

/// A JSON-RPC result answer.
fn answer(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// The text of content blocks (`text` blocks joined; others named by their type).
fn text_of(content: Option<&Value>) -> String {
    content
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .map(|b| match b.get("text").and_then(Value::as_str) {
                    Some(t) => t.to_string(),
                    None => format!(
                        "[{}]",
                        b.get("type").and_then(Value::as_str).unwrap_or("content")
                    ),
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// The files of a `ui/download-file`: every item an embedded resource or a resource link,
/// 1 to [`MAX_DOWNLOADS`] of them; `None` otherwise.
fn files_of(contents: Option<&Value>) -> Option<Vec<ContentBlock>> {
    let items = contents?.as_array()?;
    if items.is_empty() || items.len() > MAX_DOWNLOADS {
        return None;
    }
    items
        .iter()
        .map(
            |item| match serde_json::from_value::<ContentBlock>(item.clone()) {
                Ok(
                    b @ ContentBlock::Known(
                        KnownContent::Resource(_) | KnownContent::ResourceLink(_),
                    ),
                ) => Some(b),
                _ => None,
            },
        )
        .collect()
}

impl Bridge {
    /// The bridge for the View of a call of `tool` with `arguments` (under way, or ended:
    /// see [`Bridge::end`]), shown with the origins `csp` let through (see
    /// [`approved_csp`]).
    pub fn new(tool: Tool, arguments: Value, csp: Value) -> Self {
        Bridge {
            tool,
            arguments,
            ending: None,
            told_ending: false,
            theme: None,
            fullscreen: false,
            view_modes: Vec::new(),
            teardown_sent: false,
            csp,
            initialized: false,
            in_flight: 0,
        }
    }

    /// Whether the View said it is ready (`ui/notifications/initialized`).
    pub fn initialized(&self) -> bool {
        self.initialized
    }

    /// The call ended: the View is told (`ui/notifications/tool-result`, or
    /// `ui/notifications/tool-cancelled`) now if it is ready, else once it says it is. A
    /// call ends once: a second ending is ignored.
    pub fn end(&mut self, ending: Ending) -> Vec<Action> {
        if self.ending.is_some() {
            return Vec::new();
        }
        self.ending = Some(ending);
        self.tell_ending()
    }

    /// The display mode the View is in.
    fn mode(&self) -> &'static str {
        if self.fullscreen {
            "fullscreen"
        } else {
            "inline"
        }
    }

    /// Shows the View full screen or inline, and tells a ready View
    /// (`host-context-changed`). Used for the View's own requests and for the person's
    /// "Exit full screen".
    pub fn set_fullscreen(&mut self, full: bool) -> Vec<Action> {
        if full == self.fullscreen {
            return Vec::new();
        }
        self.fullscreen = full;
        let mut out = vec![Action::FullScreen(full)];
        if self.initialized {
            out.push(Action::Post(json!({
                "jsonrpc": "2.0",
                "method": "ui/notifications/host-context-changed",
                "params": { "displayMode": self.mode() },
            })));
        }
        out
    }

    /// The colours around the View became `theme` (`"light"` or `"dark"`): a ready View
    /// that was told otherwise is told (`ui/notifications/host-context-changed`).
    pub fn theme_changed(&mut self, theme: &'static str) -> Vec<Action> {
        if !self.initialized || self.theme == Some(theme) {
            return Vec::new();
        }
        self.theme = Some(theme);
        vec![Action::Post(json!({
            "jsonrpc": "2.0",
            "method": "ui/notifications/host-context-changed",
            "params": { "theme": theme },
        }))]
    }

    /// The View is about to go (`reason`): the `ui/resource-teardown` request to post, once,
    /// to a View that is ready; `None` when there is nobody to ask (it may go at once).
    pub fn teardown(&mut self, reason: &str) -> Option<Value> {
        if !self.initialized || self.teardown_sent {
            return None;
        }
        self.teardown_sent = true;
        Some(json!({
            "jsonrpc": "2.0",
            "id": TEARDOWN_ID,
            "method": "ui/resource-teardown",
            "params": { "reason": reason },
        }))
    }

    /// The ending, posted once, and only to a View that is ready.
    fn tell_ending(&mut self) -> Vec<Action> {
        if !self.initialized || self.told_ending {
            return Vec::new();
        }
        let message = match &self.ending {
            Some(Ending::Result(result)) => json!({
                "jsonrpc": "2.0",
                "method": "ui/notifications/tool-result",
                "params": result,
            }),
            Some(Ending::Cancelled(reason)) => json!({
                "jsonrpc": "2.0",
                "method": "ui/notifications/tool-cancelled",
                "params": { "reason": reason },
            }),
            None => return Vec::new(),
        };
        self.told_ending = true;
        vec![Action::Post(message)]
    }

    /// What to do for `message`, posted by the View. `tools` is the server's tool list as
    /// last listed (a View may call only those that allow it); `around` fills the
    /// `hostContext`. Anything that is not JSON-RPC 2.0 is ignored, as is a request whose
    /// id is neither a string nor a number (it could not be answered).
    pub fn on_message(
        &mut self,
        message: &Value,
        tools: &[Tool],
        around: &Surroundings,
    ) -> Vec<Action> {
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Vec::new();
        }
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            // An answer: the one request this host sends a View is its teardown.
            let teardown = message.get("id").and_then(Value::as_str) == Some(TEARDOWN_ID);
            let answered = message.get("result").is_some() || message.get("error").is_some();
            return if teardown && answered && self.teardown_sent {
                vec![Action::TornDown]
            } else {
                Vec::new()
            };
        };
        let params = message.get("params");
        match message.get("id") {
            None => self.on_notification(method, params),
            Some(id @ (Value::String(_) | Value::Number(_))) => {
                self.on_request(id, method, params, tools, around)
            }
            Some(_) => Vec::new(),
        }
    }

    fn on_notification(&mut self, method: &str, params: Option<&Value>) -> Vec<Action> {
        let param = |k: &str| params.and_then(|p| p.get(k));
        match method {
            "ui/notifications/initialized" if !self.initialized => {
                self.initialized = true;
                let mut out = vec![Action::Post(json!({
                    "jsonrpc": "2.0",
                    "method": "ui/notifications/tool-input",
                    "params": { "arguments": self.arguments },
                }))];
                out.extend(self.tell_ending());
                out
            }
            "ui/notifications/size-changed" => param("height")
                .and_then(Value::as_f64)
                .filter(|h| h.is_finite())
                .map(|h| vec![Action::Resize(h.clamp(0.0, MAX_HEIGHT).ceil())])
                .unwrap_or_default(),
            "notifications/message" => {
                let level = param("level").and_then(Value::as_str).unwrap_or("info");
                let data = match param("data") {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                };
                vec![Action::Show(Said::Log(level.to_string(), data))]
            }
            "ui/notifications/request-teardown" => vec![Action::Show(Said::Teardown)],
            _ => Vec::new(),
        }
    }

    fn on_request(
        &mut self,
        id: &Value,
        method: &str,
        params: Option<&Value>,
        tools: &[Tool],
        around: &Surroundings,
    ) -> Vec<Action> {
        let param = |k: &str| params.and_then(|p| p.get(k));
        match method {
            "ui/initialize" => {
                self.theme = Some(around.theme);
                self.view_modes = params
                    .and_then(|p| p.pointer("/appCapabilities/availableDisplayModes"))
                    .and_then(Value::as_array)
                    .map(|m| m.iter().filter_map(Value::as_str).map(String::from).collect())
                    .unwrap_or_default();
                vec![Action::Post(answer(id, self.initialize_result(around)))]
            }
            "ping" => vec![Action::Post(answer(id, json!({})))],
            "ui/request-display-mode" => {
                // Inline, or full screen for a View that declared it can be; anything else
                // leaves the mode as it is.
                let wanted = match param("mode").and_then(Value::as_str) {
                    Some("fullscreen") if self.view_modes.iter().any(|m| m == "fullscreen") => {
                        Some(true)
                    }
                    Some("inline") => Some(false),
                    _ => None,
                };
                let mut out = Vec::new();
                if let Some(full) = wanted.filter(|f| *f != self.fullscreen) {
                    out = self.set_fullscreen(full);
                }
                out.push(Action::Post(answer(id, json!({ "mode": self.mode() }))));
                out
            }
            "ui/open-link" => match param("url").and_then(Value::as_str) {
                Some(url) if url.starts_with("https://") || url.starts_with("http://") => vec![
                    Action::Show(Said::Link(url.to_string())),
                    Action::Post(answer(id, json!({}))),
                ],
                Some(_) => vec![Action::Post(answer(id, json!({ "isError": true })))],
                None => vec![Action::Post(error(id, -32602, "ui/open-link needs a url"))],
            },
            "ui/message" => vec![
                Action::Show(Said::Message(text_of(param("content")))),
                Action::Post(answer(id, json!({}))),
            ],
            "ui/update-model-context" => {
                let mut text = text_of(param("content"));
                if let Some(s) = param("structuredContent") {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&s.to_string());
                }
                vec![
                    Action::Show(Said::Context(text)),
                    Action::Post(answer(id, json!({}))),
                ]
            }
            "ui/download-file" => match files_of(param("contents")) {
                Some(files) => vec![
                    Action::Show(Said::Download(files)),
                    Action::Post(answer(id, json!({}))),
                ],
                None => vec![Action::Post(error(
                    id,
                    -32602,
                    format!("ui/download-file needs 1 to {MAX_DOWNLOADS} embedded resources or resource links"),
                ))],
            },
            "tools/call" => self.call_tool(id, params, tools),
            "resources/read" => match param("uri").and_then(Value::as_str) {
                Some(uri) => self.admit(id).unwrap_or_else(|| {
                    vec![Action::ReadResource {
                        id: id.clone(),
                        uri: uri.to_string(),
                    }]
                }),
                None => vec![Action::Post(error(
                    id,
                    -32602,
                    "resources/read needs a uri",
                ))],
            },
            _ => vec![Action::Post(error(
                id,
                -32601,
                format!("this host does not offer {method:?} to apps"),
            ))],
        }
    }

    /// The refusal of one more request while [`MAX_IN_FLIGHT`] are under way, or `None`
    /// (counted in).
    fn admit(&mut self, id: &Value) -> Option<Vec<Action>> {
        if self.in_flight >= MAX_IN_FLIGHT {
            return Some(vec![Action::Post(error(
                id,
                -32603,
                format!("the app has {MAX_IN_FLIGHT} requests under way already"),
            ))]);
        }
        self.in_flight += 1;
        None
    }

    fn call_tool(&mut self, id: &Value, params: Option<&Value>, tools: &[Tool]) -> Vec<Action> {
        let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str) else {
            return vec![Action::Post(error(
                id,
                -32602,
                "tools/call needs a tool name",
            ))];
        };
        let arguments = params
            .and_then(|p| p.get("arguments"))
            .cloned()
            .unwrap_or_else(|| json!({}));
        if !arguments.is_object() {
            return vec![Action::Post(error(
                id,
                -32602,
                "tool arguments must be an object",
            ))];
        }
        if tools.iter().any(|t| t.name == name && !callable_by_view(t)) {
            return vec![
                Action::Show(Said::Called(name.to_string(), false)),
                Action::Post(error(
                    id,
                    -32600,
                    format!(
                        "the tool {name:?} is not for apps (its visibility leaves out \"app\")"
                    ),
                )),
            ];
        }
        if let Some(refused) = self.admit(id) {
            return refused;
        }
        vec![
            Action::Show(Said::Called(name.to_string(), true)),
            Action::CallTool {
                id: id.clone(),
                name: name.to_string(),
                arguments,
            },
        ]
    }

    /// The answer to the View's request `id` that the host made on the server: its result,
    /// or an error (code, message).
    pub fn answer(&mut self, id: &Value, outcome: Result<Value, (i64, String)>) -> Value {
        self.in_flight = self.in_flight.saturating_sub(1);
        match outcome {
            Ok(result) => answer(id, result),
            Err((code, message)) => error(id, code, message),
        }
    }

    fn initialize_result(&self, around: &Surroundings) -> Value {
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "hostInfo": { "name": "mcp-browser-client", "version": env!("CARGO_PKG_VERSION") },
            "hostCapabilities": {
                "openLinks": {},
                "downloadFile": {},
                "serverTools": {},
                "serverResources": {},
                "logging": {},
                "message": { "text": {} },
                "updateModelContext": { "text": {}, "structuredContent": {} },
                "sandbox": { "permissions": {}, "csp": self.csp },
            },
            "hostContext": {
                "toolInfo": { "tool": self.tool },
                "theme": around.theme,
                "displayMode": self.mode(),
                "availableDisplayModes": ["inline", "fullscreen"],
                "containerDimensions": { "width": around.width, "maxHeight": MAX_HEIGHT },
                "locale": around.locale,
                "timeZone": around.time_zone,
                "platform": "web",
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(v: Value) -> Tool {
        serde_json::from_value(v).expect("a tool")
    }

    fn around() -> Surroundings {
        Surroundings {
            theme: "dark",
            locale: "en-GB".into(),
            time_zone: "Europe/Paris".into(),
            width: 640.0,
        }
    }

    fn get_time() -> Tool {
        tool(
            json!({"name": "get-time", "inputSchema": {"type": "object"},
            "_meta": {"ui": {"resourceUri": "ui://get-time/app.html"}}}),
        )
    }

    fn bridge() -> Bridge {
        let mut b = Bridge::new(get_time(), json!({"zone": "UTC"}), json!({}));
        b.end(Ending::Result(
            json!({"content": [{"type": "text", "text": "12:00"}]}),
        ));
        b
    }

    fn ready() -> Value {
        json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"})
    }

    fn request(id: Value, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    #[test]
    fn tools_name_their_view_nested_or_flat_and_only_ui_uris() {
        assert_eq!(resource_uri(&get_time()), Some("ui://get-time/app.html"));
        let flat =
            tool(json!({"name": "a", "inputSchema": {}, "_meta": {"ui/resourceUri": "ui://a"}}));
        assert_eq!(resource_uri(&flat), Some("ui://a"));
        let web = tool(
            json!({"name": "a", "inputSchema": {}, "_meta": {"ui": {"resourceUri": "https://x"}}}),
        );
        assert_eq!(resource_uri(&web), None);
        assert_eq!(
            resource_uri(&tool(json!({"name": "a", "inputSchema": {}}))),
            None
        );
    }

    #[test]
    fn visibility_decides_who_may_call() {
        let with = |v: Value| {
            tool(json!({"name": "a", "inputSchema": {}, "_meta": {"ui": {"visibility": v}}}))
        };
        assert!(callable_by_view(&get_time()) && !for_views_only(&get_time()));
        assert!(callable_by_view(&with(json!(["app"]))) && for_views_only(&with(json!(["app"]))));
        assert!(!callable_by_view(&with(json!(["model"]))));
        assert!(!for_views_only(&with(json!(["model", "app"]))));
    }

    #[test]
    fn html_comes_from_text_or_base64_of_the_right_type_only() {
        let contents =
            |v: Value| -> ResourceContents { serde_json::from_value(v).expect("contents") };
        let text = contents(
            json!({"uri": "ui://a", "mimeType": "text/html; profile=mcp-app", "text": "<p>hi"}),
        );
        assert_eq!(html_of(&text).as_deref(), Ok("<p>hi"));
        let blob = contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "blob": "PHA+aMOp"}));
        assert_eq!(html_of(&blob).as_deref(), Ok("<p>hé"));
        let plain = contents(json!({"uri": "ui://a", "mimeType": "text/html", "text": "<p>"}));
        assert_eq!(
            html_of(&plain),
            Err(ViewError::NotAView("text/html".into()))
        );
        let broken = contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "blob": "%%%"}));
        assert_eq!(html_of(&broken), Err(ViewError::Undecodable));
        let huge = contents(
            json!({"uri": "ui://a", "mimeType": MIME_TYPE, "text": "x".repeat(MAX_HTML + 1)}),
        );
        assert!(matches!(html_of(&huge), Err(ViewError::TooLarge(_))));
    }

    #[test]
    fn the_policy_is_the_restrictive_default_widened_only_by_valid_origins() {
        let default = content_security_policy(None);
        assert!(default.starts_with("default-src 'none'; script-src 'self' 'unsafe-inline';"));
        assert!(default.contains("connect-src 'none'") && default.contains("frame-src 'none'"));
        assert!(default.contains("base-uri 'self'") && default.contains("object-src 'none'"));
        let csp = json!({
            "connectDomains": ["https://api.example.com", "https://x.com; script-src *", "*", "'unsafe-eval'"],
            "resourceDomains": ["https://*.cdn.example:8443", "javascript:alert(1)"],
        });
        let policy = content_security_policy(Some(&csp));
        assert!(
            policy.contains("connect-src https://api.example.com;"),
            "{policy}"
        );
        assert!(
            policy.contains("script-src 'self' 'unsafe-inline' https://*.cdn.example:8443;"),
            "{policy}"
        );
        assert!(
            !policy.contains("unsafe-eval")
                && !policy.contains("javascript")
                && !policy.contains(" *;")
        );
        assert_eq!(
            approved_csp(Some(&csp)),
            json!({"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://*.cdn.example:8443"]})
        );
    }

    #[test]
    fn the_policy_goes_first_after_the_doctype() {
        let p = "default-src 'none'";
        let meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">";
        assert_eq!(
            with_policy("\u{feff} <!DOCTYPE html>\n<html><script>x</script>", p),
            format!(" <!DOCTYPE html>{meta}\n<html><script>x</script>")
        );
        assert_eq!(
            with_policy("<script>x</script>", p),
            format!("{meta}<script>x</script>")
        );
        // A quote in the policy cannot end the attribute.
        assert!(with_policy("", "a\"b").contains("content=\"a&quot;b\""));
        assert_eq!(
            frame_source("<p>é".into()),
            FrameSource::Url("data:text/html;charset=utf-8;base64,PHA+w6k=".into())
        );
        // Over what a URL may hold: the document itself.
        let big = "x".repeat(MAX_URL / 4 * 3);
        assert_eq!(frame_source(big.clone()), FrameSource::Document(big));
        let fits = "x".repeat(MAX_URL / 4 * 3 - 48);
        assert!(matches!(frame_source(fits), FrameSource::Url(u) if u.len() <= MAX_URL));
    }

    #[test]
    fn initialize_then_input_and_result_once_the_view_is_ready() {
        let mut b = bridge();
        let out = b.on_message(
            &request(
                json!(1),
                "ui/initialize",
                json!({"protocolVersion": "2026-01-26"}),
            ),
            &[],
            &around(),
        );
        let [Action::Post(reply)] = out.as_slice() else {
            panic!("{out:?}")
        };
        assert_eq!(reply["id"], 1);
        assert_eq!(reply["result"]["protocolVersion"], PROTOCOL_VERSION);
        assert_eq!(
            reply["result"]["hostContext"]["toolInfo"]["tool"]["name"],
            "get-time"
        );
        assert_eq!(reply["result"]["hostContext"]["theme"], "dark");
        assert!(reply["result"]["hostCapabilities"]["serverTools"].is_object());
        assert!(!b.initialized());
        let out = b.on_message(&ready(), &[], &around());
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            matches!(&out[0], Action::Post(m) if m["method"] == "ui/notifications/tool-input" && m["params"]["arguments"]["zone"] == "UTC")
        );
        assert!(
            matches!(&out[1], Action::Post(m) if m["method"] == "ui/notifications/tool-result" && m["params"]["content"][0]["text"] == "12:00")
        );
        // Said twice, sent once.
        assert!(b.on_message(&ready(), &[], &around()).is_empty());
    }

    #[test]
    fn tool_calls_go_to_the_server_unless_the_tool_is_not_for_apps() {
        let mut b = bridge();
        let hidden = tool(
            json!({"name": "secret", "inputSchema": {}, "_meta": {"ui": {"visibility": ["model"]}}}),
        );
        let tools = [get_time(), hidden];
        let out = b.on_message(
            &request(json!("a"), "tools/call", json!({"name": "get-time"})),
            &tools,
            &around(),
        );
        assert!(
            matches!(out.as_slice(), [Action::Show(Said::Called(n, true)), Action::CallTool { id, name, arguments }]
            if n == "get-time" && id == "a" && name == "get-time" && arguments == &json!({}))
        );
        let out = b.on_message(
            &request(json!(2), "tools/call", json!({"name": "secret"})),
            &tools,
            &around(),
        );
        assert!(
            matches!(&out[1], Action::Post(m) if m["error"]["code"] == -32600 && m["id"] == 2),
            "{out:?}"
        );
        let out = b.on_message(
            &request(
                json!(3),
                "tools/call",
                json!({"name": "get-time", "arguments": [1]}),
            ),
            &tools,
            &around(),
        );
        assert!(matches!(&out[0], Action::Post(m) if m["error"]["code"] == -32602));
        let reply = b.answer(&json!("a"), Ok(json!({"content": []})));
        assert_eq!(
            reply,
            json!({"jsonrpc": "2.0", "id": "a", "result": {"content": []}})
        );
        let reply = b.answer(&json!(4), Err((-32001, "timed out".into())));
        assert_eq!(
            reply["error"],
            json!({"code": -32001, "message": "timed out"})
        );
    }

    #[test]
    fn requests_in_flight_are_bounded() {
        let mut b = bridge();
        let call = |b: &mut Bridge, n: usize| {
            b.on_message(
                &request(json!(n), "resources/read", json!({"uri": "ui://x"})),
                &[],
                &around(),
            )
        };
        for n in 0..MAX_IN_FLIGHT {
            assert!(matches!(
                call(&mut b, n).as_slice(),
                [Action::ReadResource { .. }]
            ));
        }
        assert!(
            matches!(call(&mut b, 99).as_slice(), [Action::Post(m)] if m["error"]["code"] == -32603)
        );
        b.answer(&json!(0), Ok(json!({})));
        assert!(matches!(
            call(&mut b, 100).as_slice(),
            [Action::ReadResource { .. }]
        ));
    }

    #[test]
    fn links_messages_logs_and_sizes_are_shown_not_acted_on_blindly() {
        let mut b = bridge();
        let out = b.on_message(
            &request(
                json!(1),
                "ui/open-link",
                json!({"url": "https://example.com/"}),
            ),
            &[],
            &around(),
        );
        assert!(matches!(&out[0], Action::Show(Said::Link(u)) if u == "https://example.com/"));
        let out = b.on_message(
            &request(
                json!(2),
                "ui/open-link",
                json!({"url": "javascript:alert(1)"}),
            ),
            &[],
            &around(),
        );
        assert!(matches!(out.as_slice(), [Action::Post(m)] if m["result"]["isError"] == true));
        let out = b.on_message(&request(json!(3), "ui/message", json!({"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image"}]})), &[], &around());
        assert!(matches!(&out[0], Action::Show(Said::Message(t)) if t == "hi\n[image]"));
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "warning", "data": {"n": 1}}});
        assert_eq!(
            b.on_message(&log, &[], &around()),
            vec![Action::Show(Said::Log(
                "warning".into(),
                "{\"n\":1}".into()
            ))]
        );
        let size = |h: Value| json!({"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"height": h}});
        assert_eq!(
            b.on_message(&size(json!(120.2)), &[], &around()),
            vec![Action::Resize(121.0)]
        );
        assert_eq!(
            b.on_message(&size(json!(1e12)), &[], &around()),
            vec![Action::Resize(MAX_HEIGHT)]
        );
        assert!(b
            .on_message(&size(json!("tall")), &[], &around())
            .is_empty());
    }

    #[test]
    fn other_messages_are_refused_or_ignored() {
        let mut b = bridge();
        let out = b.on_message(
            &request(json!(1), "sampling/createMessage", json!({})),
            &[],
            &around(),
        );
        assert!(matches!(out.as_slice(), [Action::Post(m)] if m["error"]["code"] == -32601));
        for ignored in [
            json!("text"),
            json!({"method": "ping", "id": 1}),
            json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "method": "ui/notifications/unknown"}),
        ] {
            assert!(
                b.on_message(&ignored, &[], &around()).is_empty(),
                "{ignored}"
            );
        }
    }

    #[test]
    fn a_view_shown_while_the_call_runs_is_told_how_it_ended_once_ready() {
        // Ready before the call ends: the input at once, the result when it comes.
        let mut b = Bridge::new(get_time(), json!({}), json!({}));
        let out = b.on_message(&ready(), &[], &around());
        assert!(
            matches!(out.as_slice(), [Action::Post(m)] if m["method"] == "ui/notifications/tool-input")
        );
        let out = b.end(Ending::Cancelled("cancelled by the user".into()));
        assert!(matches!(out.as_slice(), [Action::Post(m)]
            if m["method"] == "ui/notifications/tool-cancelled" && m["params"]["reason"] == "cancelled by the user"));
        // A call ends once.
        assert!(b.end(Ending::Result(json!({"content": []}))).is_empty());
        // Ended before the View is ready: nothing is sent to it before it says it is.
        let mut b = Bridge::new(get_time(), json!({}), json!({}));
        assert!(b.end(Ending::Result(json!({"content": []}))).is_empty());
        let out = b.on_message(&ready(), &[], &around());
        assert!(
            matches!(out.as_slice(), [Action::Post(input), Action::Post(result)]
            if input["method"] == "ui/notifications/tool-input" && result["method"] == "ui/notifications/tool-result")
        );
    }

    #[test]
    fn a_ready_view_is_told_when_the_colours_change() {
        let mut b = bridge();
        // Not before it is ready.
        assert!(b.theme_changed("light").is_empty());
        b.on_message(
            &request(json!(1), "ui/initialize", json!({})),
            &[],
            &around(),
        );
        b.on_message(&ready(), &[], &around());
        // It was told "dark" when it asked.
        assert!(b.theme_changed("dark").is_empty());
        let out = b.theme_changed("light");
        assert!(matches!(out.as_slice(), [Action::Post(m)]
            if m["method"] == "ui/notifications/host-context-changed" && m["params"] == json!({"theme": "light"})));
        assert!(b.theme_changed("light").is_empty());
    }

    #[test]
    fn files_offered_are_resources_or_links_only_and_bounded() {
        let mut b = bridge();
        let file = json!({"type": "resource", "resource": {"uri": "file:///a.csv", "mimeType": "text/csv", "text": "a,b"}});
        let link = json!({"type": "resource_link", "uri": "ui://x", "name": "x"});
        let out = b.on_message(
            &request(
                json!(1),
                "ui/download-file",
                json!({"contents": [file, link]}),
            ),
            &[],
            &around(),
        );
        assert!(
            matches!(out.as_slice(), [Action::Show(Said::Download(files)), Action::Post(m)] if files.len() == 2 && m["result"] == json!({}))
        );
        let text = json!({"type": "text", "text": "not a file"});
        for contents in [
            json!([]),
            json!([text]),
            json!("x"),
            json!(vec![file; MAX_DOWNLOADS + 1]),
        ] {
            let out = b.on_message(
                &request(json!(2), "ui/download-file", json!({"contents": contents})),
                &[],
                &around(),
            );
            assert!(
                matches!(out.as_slice(), [Action::Post(m)] if m["error"]["code"] == -32602),
                "{contents}"
            );
        }
    }

    #[test]
    fn a_ready_view_is_asked_to_tear_down_once_and_its_answer_lets_it_go() {
        let mut b = Bridge::new(get_time(), json!({}), json!({}));
        // Not ready: nobody to ask.
        assert_eq!(b.teardown("called again"), None);
        b.on_message(&ready(), &[], &around());
        let ask = b.teardown("called again").expect("a request");
        assert_eq!(ask["method"], "ui/resource-teardown");
        assert_eq!(ask["params"]["reason"], "called again");
        assert_eq!(b.teardown("again"), None);
        let answered = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {}});
        assert_eq!(
            b.on_message(&answered, &[], &around()),
            vec![Action::TornDown]
        );
        // Another id is no answer to it.
        let other = json!({"jsonrpc": "2.0", "id": 5, "result": {}});
        assert!(b.on_message(&other, &[], &around()).is_empty());
    }

    #[test]
    fn a_views_settings_are_its_ui_object() {
        let meta = |v: Value| v.as_object().cloned();
        let read = meta(json!({"ui": {"prefersBorder": false}}));
        assert_eq!(ui_of(read.as_ref()), Some(&json!({"prefersBorder": false})));
        assert_eq!(ui_of(meta(json!({"ui": "x"})).as_ref()), None);
        assert_eq!(ui_of(meta(json!({"other": {}})).as_ref()), None);
        assert_eq!(ui_of(None), None);
    }

    #[test]
    fn a_view_gets_a_budget_of_messages_each_second() {
        let mut budget = MessageBudget::default();
        for _ in 0..MAX_MESSAGES_PER_SECOND {
            assert_eq!(budget.take(5_000.0), Budget::Take);
        }
        assert_eq!(budget.take(5_500.0), Budget::DropFirst);
        assert_eq!(budget.take(5_999.0), Budget::Drop);
        // A new second, a new budget; a later flood is not said again.
        assert_eq!(budget.take(6_000.0), Budget::Take);
        for _ in 1..MAX_MESSAGES_PER_SECOND {
            budget.take(6_100.0);
        }
        assert_eq!(budget.take(6_200.0), Budget::Drop);
        // A clock that goes back starts a second too.
        assert_eq!(budget.take(1.0), Budget::Take);
    }

    #[test]
    fn full_screen_only_for_a_view_that_declared_it_and_left_by_the_person() {
        let mode = |b: &mut Bridge, m: &str| {
            b.on_message(
                &request(json!(7), "ui/request-display-mode", json!({"mode": m})),
                &[],
                &around(),
            )
        };
        // A View that did not declare full screen stays inline.
        let mut b = bridge();
        b.on_message(
            &request(json!(1), "ui/initialize", json!({"appCapabilities": {}})),
            &[],
            &around(),
        );
        assert!(
            matches!(mode(&mut b, "fullscreen").as_slice(), [Action::Post(m)] if m["result"]["mode"] == "inline")
        );
        // One that did goes full screen, and is told.
        let mut b = bridge();
        b.on_message(
            &request(
                json!(1),
                "ui/initialize",
                json!({"appCapabilities": {"availableDisplayModes": ["inline", "fullscreen"]}}),
            ),
            &[],
            &around(),
        );
        b.on_message(&ready(), &[], &around());
        let out = mode(&mut b, "fullscreen");
        assert!(
            matches!(out.as_slice(), [Action::FullScreen(true), Action::Post(told), Action::Post(answer)]
            if told["params"]["displayMode"] == "fullscreen" && answer["result"]["mode"] == "fullscreen")
        );
        // Asked again: nothing changes. "pip" is not offered: the mode stays.
        assert_eq!(mode(&mut b, "fullscreen").len(), 1);
        assert!(
            matches!(mode(&mut b, "pip").as_slice(), [Action::Post(m)] if m["result"]["mode"] == "fullscreen")
        );
        // The person leaves full screen: the View is told.
        let out = b.set_fullscreen(false);
        assert!(
            matches!(out.as_slice(), [Action::FullScreen(false), Action::Post(told)] if told["params"]["displayMode"] == "inline")
        );
    }
}
