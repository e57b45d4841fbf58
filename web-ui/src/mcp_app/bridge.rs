//! The host's side of one View's conversation: each message of the View becomes what to do
//! ([`Action`]); the host's own steps (the call ended, the colours changed, full screen left,
//! the View about to go) likewise.

use client_browser::client_core::types::{ContentBlock, CreateMessageParams, KnownContent, Tool};
use serde::Deserialize;
use serde_json::{json, Value};

use super::permissions::{granted_capability, Permission};
use super::{callable_by_view, PROTOCOL_VERSION};

/// The most requests of a View the host works on at once; more are refused.
pub const MAX_IN_FLIGHT: usize = 16;
/// The tallest a View's frame is made, in CSS pixels, whatever height it asks for.
pub const MAX_HEIGHT: f64 = 3000.0;
/// The id of the host's `ui/resource-teardown` request (the only request it sends a View).
const TEARDOWN_ID: &str = "host-teardown";
/// How long a View is given to answer `ui/resource-teardown` before it goes anyway, in ms.
pub const TEARDOWN_WAIT_MS: u32 = 3_000;
/// The most files one `ui/download-file` offers.
pub const MAX_DOWNLOADS: usize = 16;

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
    /// The app's colours and fonts there, as the extension's style variables (see
    /// [`super::host_styles`]).
    pub styles: Value,
    /// Whether the device has a touch screen.
    pub touch: bool,
    /// Whether the main pointer can hover (a mouse, not a finger).
    pub hover: bool,
    /// Whether the person just acted in the View (the browser's transient user activation,
    /// with the focus in the View's frame): full screen is granted only then, as the
    /// browser's own Fullscreen API is only at a gesture.
    pub user_activated: bool,
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
    /// The View asked to be closed (`ui/notifications/request-teardown`): close it (it is
    /// asked to tear down first).
    Close,
    /// Call a tool on the server; answer request `id` with [`Bridge::answer`].
    CallTool {
        /// The View's request id.
        id: Value,
        /// The tool.
        name: String,
        /// Its arguments.
        arguments: Value,
    },
    /// Ask the server a request that only reads (a resource, or the resources, templates or
    /// prompts it lists) and answer request `id` with its answer as it came, through
    /// [`Bridge::answer`].
    Ask {
        /// The View's request id.
        id: Value,
        /// `resources/read`, `resources/list`, `resources/templates/list` or `prompts/list`.
        method: String,
        /// Its params, rebuilt from the View's (only the fields the method takes).
        params: Value,
    },
    /// Ask the person for a model reply (`sampling/createMessage`, the client has no model
    /// of its own): shown as the server's sampling requests are; answer request `id` with
    /// [`Bridge::answer`].
    Sample {
        /// The View's request id.
        id: Value,
        /// The request's params, as the View sent them (checked as a sampling request's).
        params: Box<CreateMessageParams>,
    },
    /// Make the frame this tall (CSS pixels, already bounded).
    Resize(f64),
    /// Show the View in this display mode.
    Mode(DisplayMode),
    /// Show what the View said.
    Show(Said),
}

/// How a View is shown (the extension's display modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DisplayMode {
    /// In the page, under its tool's runner.
    #[default]
    Inline,
    /// Over the whole window.
    Fullscreen,
    /// Picture-in-picture: small, in a corner of the window, shown while other tools of its
    /// server are chosen and the page scrolls.
    Pip,
}

impl DisplayMode {
    /// The mode's name in the extension's messages.
    pub fn as_str(self) -> &'static str {
        match self {
            DisplayMode::Inline => "inline",
            DisplayMode::Fullscreen => "fullscreen",
            DisplayMode::Pip => "pip",
        }
    }

    /// The mode a View asks for by `name`, if this host offers it.
    fn parse(name: &str) -> Option<Self> {
        match name {
            "inline" => Some(DisplayMode::Inline),
            "fullscreen" => Some(DisplayMode::Fullscreen),
            "pip" => Some(DisplayMode::Pip),
            _ => None,
        }
    }
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
    /// The container dimensions the View was last given.
    told_dimensions: Option<Value>,
    theme: Option<&'static str>,
    mode: DisplayMode,
    view_modes: Vec<String>,
    teardown_sent: bool,
    csp: Value,
    /// What the View's frame was allowed of what it asked for (see
    /// [`super::permissions`]).
    granted: Vec<Permission>,
    /// The JSON-RPC id the call went out with, if known (`toolInfo.id`).
    call_id: Option<Value>,
    initialized: bool,
    /// The id of the View's sampling request the person is asked, if one is open: one at a
    /// time, so that a View cannot stack questions on the page.
    sampling: Option<Value>,
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

/// The most of one text a View said (a log, a message, model context) that is kept to be
/// shown; the rest is counted, not kept (50 texts of a View's largest message would hold
/// 400 MB).
pub const MAX_SAID_TEXT: usize = 4096;

/// `text` as shown: its first [`MAX_SAID_TEXT`] bytes (cut at a character), and how much
/// was left out.
fn shown(text: String) -> String {
    let kept = crate::components::long_text::prefix(&text, MAX_SAID_TEXT);
    if kept.len() == text.len() {
        return text;
    }
    format!(
        "{kept} … ({} more bytes not shown)",
        text.len() - kept.len()
    )
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
    /// [`approved_csp`](super::approved_csp)).
    pub fn new(tool: Tool, arguments: Value, csp: Value) -> Self {
        Bridge {
            call_id: None,
            tool,
            arguments,
            ending: None,
            told_ending: false,
            told_dimensions: None,
            theme: None,
            mode: DisplayMode::Inline,
            view_modes: Vec::new(),
            teardown_sent: false,
            csp,
            granted: Vec::new(),
            initialized: false,
            sampling: None,
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
        self.mode.as_str()
    }

    /// Shows the View in `mode`, and tells a ready View (`host-context-changed`). Used for
    /// the View's own requests and for the person's "Exit full screen" and "Back inline"
    /// (and for a View taken out of picture-in-picture by another going into it).
    pub fn set_mode(&mut self, mode: DisplayMode) -> Vec<Action> {
        if mode == self.mode {
            return Vec::new();
        }
        self.mode = mode;
        let mut out = vec![Action::Mode(mode)];
        if self.initialized {
            out.push(Action::Post(json!({
                "jsonrpc": "2.0",
                "method": "ui/notifications/host-context-changed",
                "params": { "displayMode": self.mode() },
            })));
        }
        out
    }

    /// What the View's frame is allowed (its `allow` attribute), as the View is told
    /// (`hostCapabilities.sandbox.permissions`). Set before the frame loads.
    pub fn grant(&mut self, granted: Vec<Permission>) {
        self.granted = granted;
    }

    /// The JSON-RPC id the call went out with, told to the View (`toolInfo.id`).
    pub fn with_call_id(mut self, id: Option<Value>) -> Self {
        self.call_id = id;
        self
    }

    /// The container dimensions of a frame `width` by `height` CSS pixels: the width, and the
    /// height it may take (full screen: the height it has).
    fn dimensions(&self, width: f64, height: f64) -> Value {
        match self.mode {
            DisplayMode::Fullscreen => json!({ "width": width, "height": height }),
            DisplayMode::Inline | DisplayMode::Pip => {
                json!({ "width": width, "maxHeight": MAX_HEIGHT })
            }
        }
    }

    /// The View's frame is now `width` by `height` CSS pixels (the window was resized, or
    /// the View shown another way): a ready View is told its container's dimensions, when
    /// they changed (`ui/notifications/host-context-changed`). Nothing of a hidden frame
    /// (no width).
    pub fn resized(&mut self, width: f64, height: f64) -> Vec<Action> {
        if !self.initialized || width <= 0.0 {
            return Vec::new();
        }
        let dimensions = self.dimensions(width, height);
        if self.told_dimensions.as_ref() == Some(&dimensions) {
            return Vec::new();
        }
        self.told_dimensions = Some(dimensions.clone());
        vec![Action::Post(json!({
            "jsonrpc": "2.0",
            "method": "ui/notifications/host-context-changed",
            "params": { "containerDimensions": dimensions },
        }))]
    }

    /// The colours around the View became `theme` (`"light"` or `"dark"`) and `styles`: a
    /// ready View that was told otherwise is told (`ui/notifications/host-context-changed`).
    pub fn theme_changed(&mut self, theme: &'static str, styles: Value) -> Vec<Action> {
        if !self.initialized || self.theme == Some(theme) {
            return Vec::new();
        }
        self.theme = Some(theme);
        vec![Action::Post(json!({
            "jsonrpc": "2.0",
            "method": "ui/notifications/host-context-changed",
            "params": { "theme": theme, "styles": styles },
        }))]
    }

    /// The server's list of `kind` (`"tools"`, `"resources"` or `"prompts"`) changed: a ready
    /// View is told (`notifications/{kind}/list_changed`), as the extension's reference host
    /// tells its Views.
    pub fn list_changed(&self, kind: &str) -> Vec<Action> {
        if !self.initialized {
            return Vec::new();
        }
        vec![Action::Post(json!({
            "jsonrpc": "2.0",
            "method": format!("notifications/{kind}/list_changed"),
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
    /// last listed (a View may call only those that allow it); `around` gives the
    /// `hostContext`, and is asked only by the messages that need it. Anything that is not JSON-RPC 2.0 is ignored, as is a request whose
    /// id is neither a string nor a number (it could not be answered).
    pub fn on_message(
        &mut self,
        message: &Value,
        tools: &[Tool],
        around: &dyn Fn() -> Surroundings,
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
                vec![Action::Show(Said::Log(
                    level.chars().take(16).collect(),
                    shown(data),
                ))]
            }
            // Granted: it is asked to tear down, as when the person closes it.
            "ui/notifications/request-teardown" => vec![Action::Close],
            _ => Vec::new(),
        }
    }

    fn on_request(
        &mut self,
        id: &Value,
        method: &str,
        params: Option<&Value>,
        tools: &[Tool],
        around: &dyn Fn() -> Surroundings,
    ) -> Vec<Action> {
        let param = |k: &str| params.and_then(|p| p.get(k));
        match method {
            "ui/initialize" => {
                let around = around();
                self.theme = Some(around.theme);
                self.view_modes = params
                    .and_then(|p| p.pointer("/appCapabilities/availableDisplayModes"))
                    .and_then(Value::as_array)
                    .map(|m| m.iter().filter_map(Value::as_str).map(String::from).collect())
                    .unwrap_or_default();
                let dimensions = self.dimensions(around.width, 0.0);
                self.told_dimensions = Some(dimensions.clone());
                vec![Action::Post(answer(
                    id,
                    self.initialize_result(&around, dimensions),
                ))]
            }
            "ping" => vec![Action::Post(answer(id, json!({})))],
            "ui/request-display-mode" => {
                // Inline; or full screen or picture-in-picture, for a View that declared it
                // can be shown so, asked at the person's gesture in it (either covers part of
                // the page). Anything else leaves the mode as it is.
                let wanted = param("mode")
                    .and_then(Value::as_str)
                    .and_then(|name| DisplayMode::parse(name).map(|m| (name, m)))
                    .filter(|(name, mode)| {
                        *mode == DisplayMode::Inline
                            || (self.view_modes.iter().any(|m| m == name)
                                && around().user_activated)
                    })
                    .map(|(_, mode)| mode);
                let mut out = Vec::new();
                if let Some(mode) = wanted.filter(|m| *m != self.mode) {
                    out = self.set_mode(mode);
                }
                out.push(Action::Post(answer(id, json!({ "mode": self.mode() }))));
                out
            }
            "ui/open-link" => match param("url").and_then(Value::as_str) {
                // Shown whole, so that it can be checked before it is opened: a sane length only.
                Some(url)
                    if url.len() <= MAX_SAID_TEXT
                        && (url.starts_with("https://") || url.starts_with("http://")) =>
                {
                    vec![
                        Action::Show(Said::Link(url.to_string())),
                        Action::Post(answer(id, json!({}))),
                    ]
                }
                Some(_) => vec![Action::Post(answer(id, json!({ "isError": true })))],
                None => vec![Action::Post(error(id, -32602, "ui/open-link needs a url"))],
            },
            "ui/message" => vec![
                Action::Show(Said::Message(shown(text_of(param("content"))))),
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
                    Action::Show(Said::Context(shown(text))),
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
            "sampling/createMessage" => {
                match params.map(CreateMessageParams::deserialize) {
                    Some(Ok(_)) if self.sampling.is_some() => vec![Action::Post(error(
                        id,
                        -32603,
                        "the person has not answered this app's last sampling request yet",
                    ))],
                    Some(Ok(params)) => self.admit(id).unwrap_or_else(|| {
                        self.sampling = Some(id.clone());
                        vec![Action::Sample {
                            id: id.clone(),
                            params: Box::new(params),
                        }]
                    }),
                    Some(Err(e)) => vec![Action::Post(error(
                        id,
                        -32602,
                        format!("not a sampling request: {e}"),
                    ))],
                    None => vec![Action::Post(error(
                        id,
                        -32602,
                        "sampling/createMessage needs params",
                    ))],
                }
            }
            "resources/read" => match param("uri").and_then(Value::as_str) {
                Some(uri) => self.ask(id, "resources/read", json!({ "uri": uri })),
                None => vec![Action::Post(error(
                    id,
                    -32602,
                    "resources/read needs a uri",
                ))],
            },
            // Lists, a page at a time: only the cursor the View was given goes on.
            "resources/list" | "resources/templates/list" | "prompts/list" => {
                let cursor = param("cursor").and_then(Value::as_str);
                let params = cursor.map_or_else(|| json!({}), |c| json!({ "cursor": c }));
                self.ask(id, method, params)
            }
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

    /// Asks the server `method` for the View, within the bound of requests in flight.
    fn ask(&mut self, id: &Value, method: &str, params: Value) -> Vec<Action> {
        self.admit(id).unwrap_or_else(|| {
            vec![Action::Ask {
                id: id.clone(),
                method: method.to_string(),
                params,
            }]
        })
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
                Action::Show(Said::Called(shown(name.to_string()), false)),
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
            Action::Show(Said::Called(shown(name.to_string()), true)),
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
        if self.sampling.as_ref() == Some(id) {
            self.sampling = None;
        }
        match outcome {
            Ok(result) => answer(id, result),
            Err((code, message)) => error(id, code, message),
        }
    }

    fn initialize_result(&self, around: &Surroundings, dimensions: Value) -> Value {
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "hostInfo": { "name": "mcp-browser-client", "version": env!("CARGO_PKG_VERSION") },
            "hostCapabilities": {
                "openLinks": {},
                "downloadFile": {},
                // The person can answer with calls of the tools a request offers.
                "sampling": { "tools": {} },
                "serverTools": { "listChanged": true },
                "serverResources": { "listChanged": true },
                "logging": {},
                "message": { "text": {} },
                "updateModelContext": { "text": {}, "structuredContent": {} },
                "sandbox": {
                    "permissions": granted_capability(&self.granted),
                    "csp": self.csp,
                },
            },
            "hostContext": {
                "toolInfo": match &self.call_id {
                    Some(id) => json!({ "id": id, "tool": self.tool }),
                    None => json!({ "tool": self.tool }),
                },
                "theme": around.theme,
                "styles": around.styles,
                "displayMode": self.mode(),
                "availableDisplayModes": ["inline", "fullscreen", "pip"],
                "containerDimensions": dimensions,
                "locale": around.locale,
                "timeZone": around.time_zone,
                "platform": "web",
                "userAgent": concat!("mcp-browser-client/", env!("CARGO_PKG_VERSION")),
                "deviceCapabilities": { "touch": around.touch, "hover": around.hover },
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
            user_activated: true,
            styles: json!({"variables": {"--color-background-primary": "#0d1117"}}),
            touch: false,
            hover: true,
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

    /// A bridge whose View declared the display `modes` it can be shown in.
    fn declaring(modes: Value) -> Bridge {
        let mut b = bridge();
        let init = json!({"appCapabilities": {"availableDisplayModes": modes}});
        b.on_message(&request(json!(1), "ui/initialize", init), &[], &around);
        b
    }

    fn ready() -> Value {
        json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"})
    }

    fn request(id: Value, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
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
            &around,
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
        assert!(reply["result"]["hostContext"]["toolInfo"]
            .get("id")
            .is_none());
        assert_eq!(reply["result"]["hostContext"]["theme"], "dark");
        assert!(reply["result"]["hostCapabilities"]["serverTools"].is_object());
        assert!(!b.initialized());
        let out = b.on_message(&ready(), &[], &around);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            matches!(&out[0], Action::Post(m) if m["method"] == "ui/notifications/tool-input" && m["params"]["arguments"]["zone"] == "UTC")
        );
        assert!(
            matches!(&out[1], Action::Post(m) if m["method"] == "ui/notifications/tool-result" && m["params"]["content"][0]["text"] == "12:00")
        );
        // Said twice, sent once.
        assert!(b.on_message(&ready(), &[], &around).is_empty());
    }

    #[test]
    fn the_view_is_told_what_its_frame_was_granted() {
        let granted = |g: Vec<Permission>| {
            let mut b = bridge();
            b.grant(g);
            let out = b.on_message(&request(json!(1), "ui/initialize", json!({})), &[], &around);
            let [Action::Post(reply)] = out.as_slice() else {
                panic!("{out:?}")
            };
            reply["result"]["hostCapabilities"]["sandbox"]["permissions"].clone()
        };
        assert_eq!(granted(Vec::new()), json!({}));
        assert_eq!(
            granted(vec![Permission::Camera, Permission::Microphone]),
            json!({"camera": {}, "microphone": {}})
        );
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
            &around,
        );
        assert!(
            matches!(out.as_slice(), [Action::Show(Said::Called(n, true)), Action::CallTool { id, name, arguments }]
            if n == "get-time" && id == "a" && name == "get-time" && arguments == &json!({}))
        );
        let out = b.on_message(
            &request(json!(2), "tools/call", json!({"name": "secret"})),
            &tools,
            &around,
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
            &around,
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
                &around,
            )
        };
        for n in 0..MAX_IN_FLIGHT {
            assert!(matches!(
                call(&mut b, n).as_slice(),
                [Action::Ask { method, .. }] if method == "resources/read"
            ));
        }
        assert!(
            matches!(call(&mut b, 99).as_slice(), [Action::Post(m)] if m["error"]["code"] == -32603)
        );
        b.answer(&json!(0), Ok(json!({})));
        assert!(matches!(call(&mut b, 100).as_slice(), [Action::Ask { .. }]));
    }

    #[test]
    fn a_ready_view_is_told_when_the_servers_lists_change() {
        let mut b = bridge();
        assert!(
            b.list_changed("tools").is_empty(),
            "not before the View is ready"
        );
        b.on_message(&request(json!(1), "ui/initialize", json!({})), &[], &around);
        b.on_message(
            &json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}),
            &[],
            &around,
        );
        for kind in ["tools", "resources", "prompts"] {
            assert!(matches!(b.list_changed(kind).as_slice(),
                [Action::Post(m)] if m["method"] == format!("notifications/{kind}/list_changed") && m.get("id").is_none()));
        }
    }

    #[test]
    fn a_view_that_asks_to_be_closed_is_closed() {
        let mut b = bridge();
        let ask = json!({"jsonrpc": "2.0", "method": "ui/notifications/request-teardown"});
        assert_eq!(b.on_message(&ask, &[], &around), [Action::Close]);
    }

    #[test]
    fn a_sampling_request_is_put_to_the_person_when_it_is_one() {
        let mut b = bridge();
        let params = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Time?"}}], "maxTokens": 20});
        let out = b.on_message(
            &request(json!(1), "sampling/createMessage", params),
            &[],
            &around,
        );
        assert!(matches!(out.as_slice(),
            [Action::Sample { id, params }] if *id == json!(1) && params.max_tokens == 20 && params.messages.len() == 1));
        for bad in [json!({"messages": "none"}), json!({"maxTokens": 1})] {
            let out = b.on_message(
                &request(json!(2), "sampling/createMessage", bad),
                &[],
                &around,
            );
            assert!(matches!(out.as_slice(),
                [Action::Post(m)] if m["error"]["code"] == -32602 && m["error"]["message"].as_str().is_some_and(|t| t.starts_with("not a sampling request"))));
        }
        // One question at a time: another is refused until the first is answered.
        let again = json!({"messages": [], "maxTokens": 5});
        let out = b.on_message(
            &request(json!(5), "sampling/createMessage", again.clone()),
            &[],
            &around,
        );
        assert!(
            matches!(out.as_slice(), [Action::Post(m)] if m["error"]["code"] == -32603 && m["id"] == 5)
        );
        b.answer(&json!(1), Ok(json!({"role": "assistant"})));
        let out = b.on_message(
            &request(json!(6), "sampling/createMessage", again),
            &[],
            &around,
        );
        assert!(matches!(out.as_slice(), [Action::Sample { id, .. }] if *id == json!(6)));
        let out = b.on_message(
            &json!({"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage"}),
            &[],
            &around,
        );
        assert!(matches!(out.as_slice(), [Action::Post(m)] if m["error"]["code"] == -32602));
        // Declared to the View.
        let init = b.on_message(&request(json!(4), "ui/initialize", json!({})), &[], &around);
        assert!(
            matches!(init.as_slice(), [Action::Post(m)] if m["result"]["hostCapabilities"]["sampling"] == json!({"tools": {}}))
        );
    }

    #[test]
    fn lists_are_asked_of_the_server_with_only_the_cursor_given() {
        let mut b = bridge();
        let out = b.on_message(
            &request(
                json!(1),
                "resources/list",
                json!({"cursor": "p2", "_meta": {"progressToken": 9}, "extra": 1}),
            ),
            &[],
            &around,
        );
        assert_eq!(
            out,
            [Action::Ask {
                id: json!(1),
                method: "resources/list".into(),
                params: json!({"cursor": "p2"})
            }]
        );
        for method in ["resources/templates/list", "prompts/list"] {
            let out = b.on_message(
                &request(json!(2), method, json!({"cursor": 5})),
                &[],
                &around,
            );
            assert_eq!(
                out,
                [Action::Ask {
                    id: json!(2),
                    method: method.into(),
                    params: json!({})
                }]
            );
        }
        let out = b.on_message(
            &request(
                json!(3),
                "resources/read",
                json!({"uri": "ui://x", "other": 1}),
            ),
            &[],
            &around,
        );
        assert_eq!(
            out,
            [Action::Ask {
                id: json!(3),
                method: "resources/read".into(),
                params: json!({"uri": "ui://x"})
            }]
        );
        // Anything else is not offered to Views.
        for method in [
            "resources/subscribe",
            "prompts/get",
            "completion/complete",
            "elicitation/create",
        ] {
            let out = b.on_message(&request(json!(4), method, json!({})), &[], &around);
            assert!(
                matches!(out.as_slice(), [Action::Post(m)] if m["error"]["code"] == -32601),
                "{method}"
            );
        }
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
            &around,
        );
        assert!(matches!(&out[0], Action::Show(Said::Link(u)) if u == "https://example.com/"));
        let out = b.on_message(
            &request(
                json!(2),
                "ui/open-link",
                json!({"url": "javascript:alert(1)"}),
            ),
            &[],
            &around,
        );
        assert!(matches!(out.as_slice(), [Action::Post(m)] if m["result"]["isError"] == true));
        let out = b.on_message(&request(json!(3), "ui/message", json!({"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image"}]})), &[], &around);
        assert!(matches!(&out[0], Action::Show(Said::Message(t)) if t == "hi\n[image]"));
        // Context for the model: its text, then its structured content as JSON, on a line
        // of its own; either alone as it is.
        let context = |params: Value| {
            let mut b = bridge();
            b.on_message(
                &request(json!(4), "ui/update-model-context", params),
                &[],
                &around,
            )
        };
        let both =
            json!({"content": [{"type": "text", "text": "t"}], "structuredContent": {"k": 1}});
        assert_eq!(
            context(both),
            vec![
                Action::Show(Said::Context("t\n{\"k\":1}".into())),
                Action::Post(json!({"jsonrpc": "2.0", "id": 4, "result": {}}))
            ]
        );
        let structured = json!({"structuredContent": {"k": 1}});
        assert!(
            matches!(&context(structured)[0], Action::Show(Said::Context(t)) if t == "{\"k\":1}")
        );
        let text = json!({"content": [{"type": "text", "text": "t"}]});
        assert!(matches!(&context(text)[0], Action::Show(Said::Context(t)) if t == "t"));
        // A ping is answered, with nothing.
        assert_eq!(
            b.on_message(&request(json!(5), "ping", json!({})), &[], &around),
            vec![Action::Post(
                json!({"jsonrpc": "2.0", "id": 5, "result": {}})
            )]
        );
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "warning", "data": {"n": 1}}});
        assert_eq!(
            b.on_message(&log, &[], &around),
            vec![Action::Show(Said::Log(
                "warning".into(),
                "{\"n\":1}".into()
            ))]
        );
        let size = |h: Value| json!({"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"height": h}});
        assert_eq!(
            b.on_message(&size(json!(120.2)), &[], &around),
            vec![Action::Resize(121.0)]
        );
        assert_eq!(
            b.on_message(&size(json!(1e12)), &[], &around),
            vec![Action::Resize(MAX_HEIGHT)]
        );
        assert!(b.on_message(&size(json!("tall")), &[], &around).is_empty());
    }

    #[test]
    fn other_messages_are_refused_or_ignored() {
        let mut b = bridge();
        let out = b.on_message(&request(json!(1), "roots/list", json!({})), &[], &around);
        assert!(matches!(out.as_slice(), [Action::Post(m)] if m["error"]["code"] == -32601));
        for ignored in [
            json!("text"),
            json!({"method": "ping", "id": 1}),
            json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "method": "ui/notifications/unknown"}),
        ] {
            assert!(b.on_message(&ignored, &[], &around).is_empty(), "{ignored}");
        }
    }

    #[test]
    fn a_view_shown_while_the_call_runs_is_told_how_it_ended_once_ready() {
        // Ready before the call ends: the input at once, the result when it comes.
        let mut b = Bridge::new(get_time(), json!({}), json!({}));
        let out = b.on_message(&ready(), &[], &around);
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
        let out = b.on_message(&ready(), &[], &around);
        assert!(
            matches!(out.as_slice(), [Action::Post(input), Action::Post(result)]
            if input["method"] == "ui/notifications/tool-input" && result["method"] == "ui/notifications/tool-result")
        );
    }

    #[test]
    fn a_ready_view_is_told_when_the_colours_change() {
        let mut b = bridge();
        // Not before it is ready.
        let light = || json!({"variables": {"--color-background-primary": "#ffffff"}});
        assert!(b.theme_changed("light", light()).is_empty());
        let init = b.on_message(&request(json!(1), "ui/initialize", json!({})), &[], &around);
        assert!(matches!(init.as_slice(), [Action::Post(m)]
            if m["result"]["hostContext"]["styles"] == around().styles && m["result"]["hostContext"]["theme"] == "dark"
                && m["result"]["hostContext"]["deviceCapabilities"] == json!({"touch": false, "hover": true})
                && m["result"]["hostContext"]["userAgent"].as_str().is_some_and(|a| a.starts_with("mcp-browser-client/"))));
        b.on_message(&ready(), &[], &around);
        // It was told "dark" when it asked.
        assert!(b.theme_changed("dark", around().styles).is_empty());
        let out = b.theme_changed("light", light());
        assert!(matches!(out.as_slice(), [Action::Post(m)]
            if m["method"] == "ui/notifications/host-context-changed" && m["params"] == json!({"theme": "light", "styles": light()})));
        assert!(b.theme_changed("light", light()).is_empty());
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
            &around,
        );
        assert!(
            matches!(out.as_slice(), [Action::Show(Said::Download(files)), Action::Post(m)] if files.len() == 2 && m["result"] == json!({}))
        );
        // As many as the bound: offered.
        let most = json!({"contents": vec![file.clone(); MAX_DOWNLOADS]});
        let out = b.on_message(&request(json!(3), "ui/download-file", most), &[], &around);
        assert!(
            matches!(out.as_slice(), [Action::Show(Said::Download(files)), Action::Post(_)] if files.len() == MAX_DOWNLOADS)
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
                &around,
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
        assert!(!b.initialized());
        assert_eq!(b.teardown("called again"), None);
        b.on_message(&ready(), &[], &around);
        assert!(b.initialized());
        let ask = b.teardown("called again").expect("a request");
        assert_eq!(ask["method"], "ui/resource-teardown");
        assert_eq!(ask["params"]["reason"], "called again");
        assert_eq!(b.teardown("again"), None);
        let answered = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {}});
        assert_eq!(
            b.on_message(&answered, &[], &around),
            vec![Action::TornDown]
        );
        // Another id is no answer to it.
        let other = json!({"jsonrpc": "2.0", "id": 5, "result": {}});
        assert!(b.on_message(&other, &[], &around).is_empty());
    }

    #[test]
    fn full_screen_only_for_a_view_that_declared_it_and_left_by_the_person() {
        let mode = |b: &mut Bridge, m: &str| {
            b.on_message(
                &request(json!(7), "ui/request-display-mode", json!({"mode": m})),
                &[],
                &around,
            )
        };
        // Not without the person's gesture.
        let mut b = declaring(json!(["fullscreen"]));
        let idle = Surroundings {
            user_activated: false,
            ..around()
        };
        let out = b.on_message(
            &request(
                json!(7),
                "ui/request-display-mode",
                json!({"mode": "fullscreen"}),
            ),
            &[],
            &|| idle.clone(),
        );
        assert!(matches!(out.as_slice(), [Action::Post(m)] if m["result"]["mode"] == "inline"));
        // A View that did not declare full screen stays inline.
        let mut b = bridge();
        b.on_message(
            &request(json!(1), "ui/initialize", json!({"appCapabilities": {}})),
            &[],
            &around,
        );
        assert!(
            matches!(mode(&mut b, "fullscreen").as_slice(), [Action::Post(m)] if m["result"]["mode"] == "inline")
        );
        // One that did goes full screen, and is told.
        let mut b = declaring(json!(["inline", "fullscreen"]));
        b.on_message(&ready(), &[], &around);
        let out = mode(&mut b, "fullscreen");
        assert!(
            matches!(out.as_slice(), [Action::Mode(DisplayMode::Fullscreen), Action::Post(told), Action::Post(answer)]
            if told["params"]["displayMode"] == "fullscreen" && answer["result"]["mode"] == "fullscreen")
        );
        // Asked again: nothing changes. "pip", which it did not declare: the mode stays.
        assert_eq!(mode(&mut b, "fullscreen").len(), 1);
        assert!(
            matches!(mode(&mut b, "pip").as_slice(), [Action::Post(m)] if m["result"]["mode"] == "fullscreen")
        );
        // The person leaves full screen: the View is told.
        let out = b.set_mode(DisplayMode::Inline);
        assert!(
            matches!(out.as_slice(), [Action::Mode(DisplayMode::Inline), Action::Post(told)] if told["params"]["displayMode"] == "inline")
        );
    }

    #[test]
    fn the_view_is_told_the_id_its_call_went_out_with() {
        let mut b = bridge().with_call_id(Some(json!(7)));
        let out = b.on_message(&request(json!(1), "ui/initialize", json!({})), &[], &around);
        let [Action::Post(reply)] = out.as_slice() else {
            panic!("{out:?}")
        };
        assert_eq!(reply["result"]["hostContext"]["toolInfo"]["id"], 7);
        assert_eq!(
            reply["result"]["hostContext"]["toolInfo"]["tool"]["name"],
            "get-time"
        );
    }

    #[test]
    fn a_ready_view_is_told_its_containers_new_dimensions_once_each() {
        let mut b = bridge();
        // Not ready yet: nothing.
        assert!(b.resized(500.0, 300.0).is_empty());
        b.on_message(
            &request(
                json!(1),
                "ui/initialize",
                json!({"appCapabilities": {"availableDisplayModes": ["fullscreen"]}}),
            ),
            &[],
            &around,
        );
        b.on_message(&ready(), &[], &around);
        // As at the handshake (640 wide): nothing; hidden (0 wide): nothing.
        assert!(b.resized(640.0, 300.0).is_empty());
        assert!(b.resized(0.0, 0.0).is_empty());
        let told = |out: Vec<Action>| match out.as_slice() {
            [Action::Post(m)] if m["method"] == "ui/notifications/host-context-changed" => {
                m["params"]["containerDimensions"].clone()
            }
            _ => panic!("{out:?}"),
        };
        assert_eq!(
            told(b.resized(416.0, 300.0)),
            json!({"width": 416.0, "maxHeight": MAX_HEIGHT})
        );
        assert!(
            b.resized(416.0, 280.0).is_empty(),
            "only the height it has changed"
        );
        // Full screen: the height it has.
        b.set_mode(DisplayMode::Fullscreen);
        assert_eq!(
            told(b.resized(1280.0, 700.0)),
            json!({"width": 1280.0, "height": 700.0})
        );
    }

    #[test]
    fn picture_in_picture_for_a_view_that_declared_it_at_the_persons_gesture() {
        let mut b = bridge();
        let init = b.on_message(
            &request(
                json!(1),
                "ui/initialize",
                json!({"appCapabilities": {"availableDisplayModes": ["inline", "pip"]}}),
            ),
            &[],
            &around,
        );
        let [Action::Post(answer)] = init.as_slice() else {
            panic!("{init:?}")
        };
        assert_eq!(
            answer["result"]["hostContext"]["availableDisplayModes"],
            json!(["inline", "fullscreen", "pip"])
        );
        b.on_message(&ready(), &[], &around);
        let ask = |m: &str| request(json!(7), "ui/request-display-mode", json!({"mode": m}));
        let idle = Surroundings {
            user_activated: false,
            ..around()
        };
        // Without the person's gesture, and a mode it did not declare: it stays inline.
        for (m, around) in [("pip", idle.clone()), ("fullscreen", around())] {
            let out = b.on_message(&ask(m), &[], &|| around.clone());
            assert!(
                matches!(out.as_slice(), [Action::Post(a)] if a["result"]["mode"] == "inline"),
                "{m}"
            );
        }
        let out = b.on_message(&ask("pip"), &[], &around);
        assert!(
            matches!(out.as_slice(), [Action::Mode(DisplayMode::Pip), Action::Post(told), Action::Post(a)]
            if told["params"]["displayMode"] == "pip" && a["result"]["mode"] == "pip")
        );
        // A mode no one knows leaves it as it is; inline needs no gesture.
        let out = b.on_message(&ask("theatre"), &[], &around);
        assert!(matches!(out.as_slice(), [Action::Post(a)] if a["result"]["mode"] == "pip"));
        let out = b.on_message(&ask("inline"), &[], &|| idle.clone());
        assert!(
            matches!(out.as_slice(), [Action::Mode(DisplayMode::Inline), Action::Post(_), Action::Post(a)] if a["result"]["mode"] == "inline")
        );
    }

    #[test]
    fn long_texts_a_view_says_are_cut_for_showing() {
        let mut b = bridge();
        let long = "é".repeat(MAX_SAID_TEXT);
        let log = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "x".repeat(100), "data": long}});
        let out = b.on_message(&log, &[], &around);
        let [Action::Show(Said::Log(level, text))] = out.as_slice() else {
            panic!("{out:?}")
        };
        assert_eq!(level.len(), 16);
        assert!(text.len() < MAX_SAID_TEXT + 64, "{}", text.len());
        assert!(text.ends_with(&format!(
            " … ({} more bytes not shown)",
            2 * MAX_SAID_TEXT - MAX_SAID_TEXT
        )));
        let short =
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "hi"}});
        assert_eq!(
            b.on_message(&short, &[], &around),
            vec![Action::Show(Said::Log("info".into(), "hi".into()))]
        );
    }
}
