//! The headless JavaScript API of the MCP browser client (an ES module built with
//! `wasm-bindgen --target web`, see `scripts/build-package.sh` and `client-js/README.md`).
//!
//! ```js
//! import init, { McpClient } from './mcp_client.js';
//! await init();
//! const client = await McpClient.connect({ url: 'https://example.com/mcp', namespace: 'files' });
//! const tools = await client.listTools();
//! const defs = await client.toolDefinitions('openai');
//! const text = await client.callModelTool('files__read_file', { path: 'README.md' });
//! ```

mod args;
mod errors;
pub mod model_tools;
pub mod oauth_options;

use args::{absent, is_plain_object, kind_of, options_arg, string_arg, Fields};
use client_browser::client_core::bidi::Isolated;
use client_browser::client_core::session::ConnectionState;
use client_browser::client_core::types::{check_request_meta, LoggingLevel, ProgressParams, Task};
use client_browser::client_core::ErrorObject;
use client_browser::{
    Answer, CacheMode, CallOptions, Client, ClientError, ClientEvent, ClientOptions, Handlers,
    ListOptions, TaskListener, Transport,
};
use errors::{api_error, client_error, invalid_argument};
use futures_util::FutureExt;
use serde::Serialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const TS_OPTIONS: &'static str = r#"
/** Options of McpClient.connect. */
export interface McpClientOptions {
  /** The MCP endpoint (https://…/mcp, or ws(s)://… with transport "websocket"). */
  url: string;
  /** "auto" (default), "streamable-http", "sse" or "websocket". */
  transport?: "auto" | "streamable-http" | "sse" | "websocket";
  /** Extra HTTP headers, e.g. { Authorization: "Bearer …" }. */
  headers?: Record<string, string>;
  /** Prefix of model-facing tool names (default "mcp"). */
  namespace?: string;
  /** Request timeout in milliseconds. */
  timeoutMs?: number;
  /** Aborting it while connecting stops connecting: the client is closed, and `connect`
   * rejects ("cancelled"). */
  signal?: AbortSignal;
  /** Remember the protocol era each server speaks (in this page and in `localStorage`, key
   * "mcp-browser-client.eras", shared with the app), so that the next connection to it skips
   * the era probe: a round trip fewer for a 2025-era server. A 2026-07-28 server's
   * `server/discover` result is kept as well (key "mcp-browser-client.discover") while the
   * server says it stays fresh (`ttlMs`), if it marks it `cacheScope: "public"`: the next
   * connection then asks nothing before the first request. A wrong memory is corrected (the
   * client probes again). Default true; false probes every time and stores nothing. */
  rememberEra?: boolean;
  /** Answers sampling/createMessage; resolve to a CreateMessageResult. A handler that
   * throws (or rejects) refuses the request: the server gets the error's `message` (never
   * its stack) and its `code` if that is an integer, else -1. The same holds for
   * `onElicitation` and `onRoots`. */
  onSampling?: (params: any) => Promise<any>;
  /** `onSampling` can answer with tool uses (`tool_use` content, `stopReason: "toolUse"`):
   * declares the `sampling.tools` capability, so that a server may offer tools (`tools`,
   * `toolChoice`) in its sampling requests. Default false. */
  samplingTools?: boolean;
  /** Answers elicitation/create; resolve to an ElicitResult. */
  onElicitation?: (params: any) => Promise<any>;
  /** Answers roots/list; resolve to { roots: [...] }. */
  onRoots?: () => Promise<any>;
  /** Called before every tool call; resolve false to refuse the call. A call whose `signal`
   * aborts meanwhile rejects at once ("cancelled"), whatever this resolves to later; one
   * aborted before is not asked about. */
  approve?: (tool: string, args: any) => Promise<boolean>;
  /** Called with every notification the server sends, as `{ method, params }`: list changes,
   * resource updates (after `subscribeResource`), log messages (see `setLogLevel`), progress
   * (also given to the call's `onProgress`), and any other. */
  onNotification?: (notification: { method: string; params?: any }) => void;
  /** Called when the connection's state changes: "connecting", "connected", "reconnecting"
   * (a legacy server forgot the session, its HTTP+SSE stream was lost, or the WebSocket
   * closed: a new connection is being made, retried later each time while the server cannot
   * be reached), "auth-required",
   * "failed", "closed". */
  onStateChange?: (state: string) => void;
  /** Called when a list or read (with `cache: "use"`, the default) is answered by the result
   * kept from before because asking the server again failed for want of the server (no answer,
   * a 5xx, a time-out): the request's method, how old the kept result is, and why asking
   * failed. The call itself resolves with the kept result. */
  onStale?: (stale: { method: string; ageMs: number; error: string }) => void;
  /** Called when the server refused a request, or the connection, for want of authorization
   * (HTTP 401, or 403 insufficient_scope) and no credentials could be got without the person
   * (no `oauth`, or its login popup could not be used): the HTTP status and the server's
   * `WWW-Authenticate` challenge, if readable. Wherever the request came from: one place to
   * ask for a token or offer a login (a server may connect without one and want it only for
   * its tools). The request itself rejects, kind "auth-required". */
  onLoginNeeded?: (need: { status: number; wwwAuthenticate?: string }) => void;
  /** Called when a request to a plain `http://` server has had no answer for 5 s while the
   * streams of this site's pages (this one and others: each connected client keeps one open)
   * hold every connection a browser opens to that server over HTTP/1.1 (six): the request is
   * most likely waiting for one of them to free, and goes on waiting. `server` is the server's
   * origin, `streams` how many were counted, `message` says so in words. Close a client (or
   * a tab) connected to that server to free a connection. */
  onConnectionsBusy?: (busy: { server: string; streams: number; message: string }) => void;
  /** Called with each non-fatal problem the client reports, in words: a notification stream
   * that ended (opened again later, or given up on), a stream that waits for a free
   * connection, a server message that could not be read, and the like. The client goes on. */
  onWarning?: (message: string) => void;
  /** OAuth: log in through a popup when the server asks (true for the defaults). */
  oauth?: boolean | McpOAuthOptions;
}

/** Options of a request (getPrompt, complete, readResource; callTool adds onTask). */
export interface McpRequestOptions {
  /** Progress notifications of the request. */
  onProgress?: (progress: { progressToken: string | number; progress: number; total?: number; message?: string }) => void;
  /** No answer (and no progress) for this long: the request is cancelled and rejects ("timeout"). */
  timeoutMs?: number;
  /** Aborting it cancels the request (and the server's task); it rejects ("cancelled"). */
  signal?: AbortSignal;
  /** Entries for the request's `_meta`, e.g. W3C trace context (`traceparent`, `tracestate`,
   * `baggage`) so that the server's OpenTelemetry spans join your trace. Checked before
   * anything is sent (key names as the MCP spec defines them; a `traceparent` in W3C form);
   * the client's own entries (`progressToken`, `io.modelcontextprotocol/protocolVersion`,
   * `…/clientInfo`, `…/clientCapabilities`, `…/logLevel`) are refused: it sets them itself.
   * A bad one rejects ("invalid-argument"). */
  meta?: Record<string, unknown>;
}

/** A request the server runs in the background (2025-11-25 tasks), as the server reports it. */
export interface McpTask {
  taskId: string;
  /** "working", "input_required", "completed", "failed" or "cancelled". */
  status: string;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt?: string;
  /** ISO 8601. */
  lastUpdatedAt?: string;
  /** How long the server keeps it, in milliseconds; null: no limit. */
  ttl?: number | null;
  pollInterval?: number;
  [key: string]: unknown;
}

/** Options of callTool and request. */
export interface McpCallOptions extends McpRequestOptions {
  /** The state of a tool that runs as a task (2025-11-25 tasks, or a 2026-07-28 server's
   * Tasks extension): when it is created, at each poll, and as the server announces it
   * (`notifications/tasks/status`); never a state older than one already given. */
  onTask?: (task: McpTask) => void;
}

/** Options of readResource: the cache mode and those of any request. */
export type McpReadOptions = McpCacheOptions & McpRequestOptions;

/** Options of the lists: the cache mode, a time limit for each page, and a signal that
 * stops the listing (the page under way is cancelled; it rejects, "cancelled"). */
export type McpListOptions = McpCacheOptions & Pick<McpRequestOptions, "timeoutMs" | "signal">;

/** A content block of a tool result or prompt message, as the server sent it. */
export type McpContent =
  | { type: "text"; text: string; [key: string]: unknown }
  | { type: "image" | "audio"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; [key: string]: unknown }
  | { type: "resource"; resource: McpResourceContents; [key: string]: unknown };

/** The contents of a resource: text, or base64 `blob`. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [key: string]: unknown;
}

/** A tool, as the server listed it. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  annotations?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** The result of callTool. */
export interface McpCallToolResult {
  content: McpContent[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  [key: string]: unknown;
}

/** A resource, as the server listed it. */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** A resource template (RFC 6570 `uriTemplate`). */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** The result of readResource. */
export interface McpReadResourceResult {
  contents: McpResourceContents[];
  [key: string]: unknown;
}

/** A prompt, as the server listed it. */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** The result of getPrompt. */
export interface McpGetPromptResult {
  description?: string;
  messages: { role: "user" | "assistant"; content: McpContent }[];
  [key: string]: unknown;
}

/** What complete() asks about: a prompt's argument or a resource template's variable. */
export type McpCompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** The server's suggestions. */
export interface McpCompletion {
  values: string[];
  total?: number;
  hasMore?: boolean;
  [key: string]: unknown;
}

/** What server() gives once connected. */
export interface McpServerDetails {
  /** "modern" (2026-07-28, stateless) or "legacy" (2025-11-25 and older). */
  era: "modern" | "legacy";
  protocolVersion: string;
  serverInfo: { name: string; version: string; title?: string; [key: string]: unknown };
  capabilities: { [key: string]: unknown };
  instructions?: string | null;
}

/** Options of the lists and of readResource. */
export interface McpCacheOptions {
  /** How the response cache is used. A 2026-07-28 server says how long each page of a list or
   * a resource stays fresh (`ttlMs`); "use" (default) serves a fresh result without asking
   * the server again (change notifications make it stale at once) and, when asking again
   * fails for want of the server (no answer, a 5xx, a time-out), returns the answer kept from
   * before instead of an error; "refresh" always asks and
   * keeps the answer, "bypass" always asks, keeps nothing and drops what was kept for it. */
  cache?: "use" | "refresh" | "bypass";
}

/** OAuth options. The callback page oauth-callback.html (shipped with the package) must be
 * served on this page's origin; it relays the answer with postMessage to this origin only. */
export interface McpOAuthOptions {
  /** The callback page (default: oauth-callback.html beside the page). */
  redirectUri?: string;
  /** The name authorization servers show. */
  clientName?: string;
  /** Your hosted Client ID Metadata Document URL (used when the server supports it). */
  clientMetadataUrl?: string;
  /** A pre-registered client id (and secret, for confidential clients). */
  clientId?: string;
  clientSecret?: string;
  /** "none", "client_secret_basic" (default with a secret) or "client_secret_post". */
  tokenEndpointAuthMethod?: "none" | "client_secret_basic" | "client_secret_post";
  /** The issuer the pre-registered client belongs to (default: any). */
  issuer?: string;
  /** Where the refresh token is kept: "memory" (default), "session" or "local" (shared by
   * every page of the origin: they refresh one at a time, each with the newest one). */
  storage?: "memory" | "session" | "local";
  /** Local development only: allow http:// and loopback authorization servers. */
  allowLocal?: boolean;
  /** Called with every step of the login (discovery, registration, scopes, tokens). */
  onTrace?: (line: string) => void;
}
"#;

/// The `approve` hook threw or rejected: the call is not made. `what` names the call.
fn approve_failed(what: &str, e: &JsValue) -> JsError {
    let why = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "it failed".into());
    api_error(
        "not-approved",
        &format!("{what} was not approved: the approve hook failed ({why})"),
    )
}

/// Hands a value to JavaScript as JSON text parsed by the engine (`JSON.parse`): one copy of
/// a string instead of one boundary crossing per field, and no converter in the package.
fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(v).map_err(|e| api_error("browser", &e.to_string()))?;
    js_sys::JSON::parse(&text)
        .map_err(|_| api_error("browser", "could not hand a result to JavaScript"))
}

/// Takes a JavaScript value as JSON (`JSON.stringify`); `what` names it in the error.
fn json_of(v: &JsValue, what: &str) -> Result<Value, String> {
    let text = match js_sys::JSON::stringify(v) {
        // `JSON.stringify` throws on a BigInt or a cycle: its message says which.
        Err(e) => {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .and_then(|e| e.message().as_string())
                .unwrap_or_default();
            return Err(format!("{what} cannot be sent as JSON: {why}"));
        }
        Ok(t) => t
            .as_string()
            .ok_or_else(|| format!("{what} cannot be sent as JSON: it is {}", kind_of(v)))?,
    };
    // What `JSON.stringify` wrote is JSON, except for a string holding half of a UTF-16
    // surrogate pair, which JSON text cannot carry as Unicode.
    serde_json::from_slice(text.as_bytes()).map_err(|e| {
        format!("{what} cannot be sent as JSON: {e} (a string with a lone UTF-16 surrogate)")
    })
}

/// [`json_of`] for API arguments.
fn from_js(v: &JsValue, what: &str) -> Result<Value, JsError> {
    json_of(v, what).map_err(|e| invalid_argument(&e))
}

pub(crate) fn get(obj: &JsValue, key: &str) -> Option<JsValue> {
    // Reading a property of `undefined` throws, and every exception that crosses into wasm
    // leaves memory behind (measured: ~36 bytes a call when `callTool` had no options).
    if !obj.is_object() && !obj.is_function() {
        return None;
    }
    js_sys::Reflect::get(obj, &key.into())
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// How a list or read uses the response cache, from `options.cache`: `"use"` (the default:
/// a result a 2026-07-28 server said is still fresh is served without asking it again),
/// `"refresh"` (ask the server, keep its answer) or `"bypass"` (ask, keep nothing, drop what
/// was kept).
fn cache_mode(options: &JsValue) -> Result<CacheMode, JsError> {
    let modes = ["use", "refresh", "bypass"];
    Ok(
        match Fields::of(options, "options")
            .one_of("cache", &modes)?
            .as_deref()
        {
            Some("refresh") => CacheMode::Refresh,
            Some("bypass") => CacheMode::Bypass,
            _ => CacheMode::Use,
        },
    )
}

/// The options of one request from the JavaScript `options` object (see `callTool`):
/// `timeoutMs`, `onProgress`, `onTask` and `meta` (checked: a bad `meta` is an
/// `invalid-argument` error before anything is sent).
fn call_options(options: &JsValue) -> Result<CallOptions, JsError> {
    let fields = Fields::of(options, "options");
    let (on_progress, on_task) = (fields.function("onProgress")?, fields.function("onTask")?);
    let meta = match get(options, "meta") {
        None => None,
        Some(m) => match from_js(&m, "options.meta")? {
            Value::Object(m) => {
                check_request_meta(&m)
                    .map_err(|e| invalid_argument(&format!("options.meta: {e}")))?;
                Some(m)
            }
            _ => return Err(invalid_argument("options.meta must be an object")),
        },
    };
    Ok(CallOptions {
        meta,
        timeout: fields.milliseconds("timeoutMs")?,
        on_progress: on_progress.map(|f| {
            Rc::new(move |p: ProgressParams| {
                let _ = f.call1(&JsValue::NULL, &to_js(&p).unwrap_or(JsValue::NULL));
            }) as Rc<dyn Fn(ProgressParams)>
        }),
        on_task: on_task.map(|f| {
            Rc::new(move |t: &Task| {
                let _ = f.call1(&JsValue::NULL, &to_js(t).unwrap_or(JsValue::NULL));
            }) as TaskListener
        }),
        ..Default::default()
    })
}

/// Calls a JS callback returning a promise, and converts its result to an answer.
async fn call_handler(f: &js_sys::Function, arg: JsValue) -> Answer {
    let ret = f.call1(&JsValue::NULL, &arg).map_err(|e| refusal_of(&e))?;
    let v = JsFuture::from(js_sys::Promise::resolve(&ret))
        .await
        .map_err(|e| refusal_of(&e))?;
    json_of(&v, "the handler's answer").map_err(|m| ErrorObject::new(HANDLER_REFUSED, m))
}

/// The JSON-RPC error code of a handler's refusal that names none (as the spec's example
/// of a sampling request the user rejected).
const HANDLER_REFUSED: i64 = -1;

/// The error the server gets when a handler throws `e` (or rejects with it): its `message`
/// (an `Error`'s, or the value itself if it is a string), never its stack, which would give
/// the server the page's script addresses; its `code` if that is an integer (as an SDK's
/// `McpError` has), else [`HANDLER_REFUSED`].
fn refusal_of(e: &JsValue) -> ErrorObject {
    let field = |name: &str| {
        e.is_object()
            .then(|| js_sys::Reflect::get(e, &JsValue::from_str(name)).ok())
            .flatten()
    };
    let code = field("code")
        .and_then(|c| c.as_f64())
        .filter(|c| c.fract() == 0.0 && c.abs() <= 9_007_199_254_740_991.0)
        .map_or(HANDLER_REFUSED, |c| c as i64);
    let message = field("message")
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "the page's handler refused the request".to_string());
    ErrorObject::new(code, message)
}

/// An MCP client for JavaScript.
#[wasm_bindgen]
pub struct McpClient {
    client: Client,
    namespace: String,
    approve: Option<js_sys::Function>,
    names: Rc<RefCell<HashMap<String, String>>>,
}

#[wasm_bindgen]
impl McpClient {
    /// Connects to a server (`options`: see `McpClientOptions`).
    pub async fn connect(
        #[wasm_bindgen(unchecked_param_type = "McpClientOptions")] options: JsValue,
    ) -> Result<McpClient, JsError> {
        if !is_plain_object(&options) {
            return Err(invalid_argument(&format!(
                "McpClient.connect takes an options object ({{ url: ... }}), not {}",
                kind_of(&options)
            )));
        }
        let fields = Fields::of(&options, "options");
        let url = fields
            .string("url")?
            .ok_or_else(|| invalid_argument("options.url is required"))?;
        let mut o = ClientOptions::new(url.clone());
        let transports = ["auto", "streamable-http", "sse", "websocket"];
        o.transport = match fields.one_of("transport", &transports)?.as_deref() {
            Some("streamable-http") => Transport::StreamableHttp,
            Some("sse") => Transport::HttpSse,
            Some("websocket") => Transport::WebSocket,
            _ => Transport::Auto,
        };
        let namespace = fields.string("namespace")?.unwrap_or_else(|| "mcp".into());
        let approve = fields.function("approve")?;
        let signal = fields.signal("signal")?;
        if let Some(h) = get(&options, "headers") {
            o.headers = string_map(&h, "options.headers")?
                .into_iter()
                .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
                .collect();
        }
        if let Some(timeout) = fields.milliseconds("timeoutMs")? {
            o.timeout = timeout;
        }
        o.remember_era = fields.boolean("rememberEra")? != Some(false);
        let (sampling, elicitation, roots) = (
            fields.function("onSampling")?,
            fields.function("onElicitation")?,
            fields.function("onRoots")?,
        );
        o.handlers = Handlers {
            sampling: sampling.map(|f| {
                Rc::new(move |p: Value| {
                    let f = f.clone();
                    async move { call_handler(&f, to_js(&p).unwrap_or(JsValue::NULL)).await }
                        .boxed_local()
                }) as client_browser::options::SamplingHandler
            }),
            elicitation: elicitation.map(|f| {
                Rc::new(move |p: Value| {
                    let f = f.clone();
                    async move { call_handler(&f, to_js(&p).unwrap_or(JsValue::NULL)).await }
                        .boxed_local()
                }) as client_browser::options::ElicitationHandler
            }),
            roots: roots.map(|f| {
                Rc::new(move || {
                    let f = f.clone();
                    async move { call_handler(&f, JsValue::UNDEFINED).await }.boxed_local()
                }) as client_browser::options::RootsHandler
            }),
            sampling_tools: fields.boolean("samplingTools")? == Some(true),
        };
        o.auth = oauth_options::authorizer(&o.url, &options)?;
        // Listeners first, so that they hear the connection from its start.
        let client = Client::new(o);
        let (on_notification, on_state, on_stale, on_login, on_busy, on_warning) = (
            fields.function("onNotification")?,
            fields.function("onStateChange")?,
            fields.function("onStale")?,
            fields.function("onLoginNeeded")?,
            fields.function("onConnectionsBusy")?,
            fields.function("onWarning")?,
        );
        if on_notification.is_some()
            || on_state.is_some()
            || on_stale.is_some()
            || on_login.is_some()
            || on_busy.is_some()
            || on_warning.is_some()
        {
            // The host's listeners run as microtasks of their own, in order: never inside the
            // client's event loop (a listener may call the client again), and one that throws
            // breaks nothing here.
            let later = |f: &js_sys::Function, arg: JsValue| {
                let f = f.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = f.call1(&JsValue::NULL, &arg);
                });
            };
            client.on_event(move |event| match event {
                ClientEvent::Notification(n) => {
                    if let Some(f) = &on_notification {
                        let mut m = serde_json::Map::new();
                        m.insert("method".into(), n.method().into());
                        if let Some(params) = n.params() {
                            m.insert("params".into(), params);
                        }
                        later(f, to_js(&m).unwrap_or(JsValue::NULL));
                    }
                }
                ClientEvent::State(s) => {
                    if let Some(f) = &on_state {
                        later(f, JsValue::from_str(state_name(*s)));
                    }
                }
                ClientEvent::ServedStale { method, age, error } => {
                    if let Some(f) = &on_stale {
                        let stale = serde_json::json!({
                            "method": method,
                            "ageMs": age.as_millis(),
                            "error": error,
                        });
                        later(f, to_js(&stale).unwrap_or(JsValue::NULL));
                    }
                }
                ClientEvent::LoginNeeded {
                    status,
                    www_authenticate,
                } => {
                    if let Some(f) = &on_login {
                        let mut need = serde_json::Map::new();
                        need.insert("status".into(), (*status).into());
                        if let Some(www) = www_authenticate {
                            need.insert("wwwAuthenticate".into(), www.clone().into());
                        }
                        later(f, to_js(&need).unwrap_or(JsValue::NULL));
                    }
                }
                ClientEvent::ConnectionsBusy { server, streams } => {
                    if let Some(f) = &on_busy {
                        let busy = serde_json::json!({
                            "server": server,
                            "streams": streams,
                            "message": client_browser::busy_connections::explain(server, *streams),
                        });
                        later(f, to_js(&busy).unwrap_or(JsValue::NULL));
                    }
                }
                ClientEvent::Warning(warning) => {
                    if let Some(f) = &on_warning {
                        later(f, JsValue::from_str(warning));
                    }
                }
                _ => {}
            });
        }
        // Aborting `options.signal` while connecting closes the client.
        abortable(&format!("connecting to {url}"), signal.as_ref(), || {
            let closing = client.clone();
            let stop: Box<dyn FnMut()> = Box::new(move || closing.close());
            (client.reconnect(), stop)
        })
        .await
        .map_err(|e| aborted_instead(signal.as_ref(), &url, e))?;
        Ok(McpClient {
            client,
            namespace,
            approve,
            names: Rc::new(RefCell::new(HashMap::new())),
        })
    }

    /// Server details: era, protocol version, server info, capabilities, instructions.
    #[wasm_bindgen(unchecked_return_type = "McpServerDetails | null")]
    pub fn server(&self) -> Result<JsValue, JsError> {
        let d = self.client.server();
        let v = d.map(|d| {
            serde_json::json!({
                "era": d.era, // serialized in lowercase: "modern" / "legacy"
                "protocolVersion": d.protocol_version,
                "serverInfo": d.server_info,
                "capabilities": d.capabilities,
                "instructions": d.instructions,
            })
        });
        to_js(&v)
    }

    /// Every tool (pagination followed), as the server listed them.
    /// `options.cache` (see [`cache_mode`]) says how each page uses the response cache;
    /// `options.timeoutMs` limits each page; aborting `options.signal` stops the listing
    /// (the page under way is cancelled). The other lists take the same options.
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "McpTool[]")]
    pub async fn list_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "McpListOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let options = options_arg(options, "options")?;
        to_js(&self.list("tools/list", "tools", &options).await?)
    }

    /// Every resource.
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "McpResource[]")]
    pub async fn list_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "McpListOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let options = options_arg(options, "options")?;
        to_js(&self.list("resources/list", "resources", &options).await?)
    }

    /// Every resource template.
    #[wasm_bindgen(js_name = listResourceTemplates, unchecked_return_type = "McpResourceTemplate[]")]
    pub async fn list_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "McpListOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let options = options_arg(options, "options")?;
        let list = self.list("resources/templates/list", "resourceTemplates", &options);
        to_js(&list.await?)
    }

    /// Every prompt.
    #[wasm_bindgen(js_name = listPrompts, unchecked_return_type = "McpPrompt[]")]
    pub async fn list_prompts(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "McpListOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let options = options_arg(options, "options")?;
        to_js(&self.list("prompts/list", "prompts", &options).await?)
    }

    /// Every task of the server's (2025-11-25 tasks; where the server declares `tasks.list`),
    /// pagination followed, as the server reports them. What a finished one came to:
    /// `request("tasks/result", { taskId })`.
    #[wasm_bindgen(js_name = listTasks, unchecked_return_type = "McpTask[]")]
    pub async fn list_tasks(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "McpListOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let options = options_arg(options, "options")?;
        to_js(&self.list("tasks/list", "tasks", &options).await?)
    }

    /// Asks the server to cancel one of its tasks (where it declares `tasks.cancel`) and
    /// resolves to the task's state after; a `callTool` following that task then rejects
    /// ("cancelled"). A task already over is refused by the server (kind "rpc").
    #[wasm_bindgen(js_name = cancelTask, unchecked_return_type = "McpTask")]
    pub async fn cancel_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
    ) -> Result<JsValue, JsError> {
        let task_id = string_arg(&task_id, "the task id")?;
        let state = self.client.cancel_task(&task_id).await;
        to_js(&state.map_err(client_error)?)
    }

    /// Calls a tool by its MCP name; resolves to the CallToolResult (where the server answers
    /// with a task, what the task came to: the client follows it). The `approve` hook runs
    /// first and may refuse. `options` (all optional): `onProgress(params)` for progress
    /// notifications, `onTask(task)` for the state of a tool that runs as a task,
    /// `timeoutMs`, and `signal` (an `AbortSignal`: aborting cancels the call).
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "McpCallToolResult")]
    pub async fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "McpCallOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let name = string_arg(&name, "the tool name")?;
        let (args, options) = (args.unwrap_or_default(), options_arg(options, "options")?);
        to_js(&self.call(&name, args, &options).await?)
    }

    /// Follows a task a `callTool` of an earlier page or connection created (its `taskId`,
    /// given to `onTask`, kept meanwhile: the Tasks extension asks clients to keep task ids
    /// so that a task outlives a reload) and resolves to what the call comes to, as
    /// `callTool` would have; `options` as for `callTool`: `onTask`, `timeoutMs`, `signal`
    /// (aborting cancels the task). The server must still know the task: a 2026-07-28
    /// server keeps it for its time to live, a 2025-era server may tie it to its session
    /// (then it rejects, kind "rpc").
    #[wasm_bindgen(js_name = resumeTask, unchecked_return_type = "McpCallToolResult")]
    pub async fn resume_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "McpCallOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let task_id = string_arg(&task_id, "the task id")?;
        let options = options_arg(options, "options")?;
        let opts = call_options(&options)?;
        let what = format!("following task {}", Isolated(&task_id));
        let result = self
            .follow(&what, signal_of(&options)?.as_ref(), || {
                self.client.resume_task(&task_id, opts)
            })
            .await?;
        to_js(&result)
    }

    /// Reads a resource; `options.cache` as for the lists, and `onProgress`, `timeoutMs`,
    /// `signal` as for `callTool`.
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "McpReadResourceResult")]
    pub async fn read_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "McpReadOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let uri = string_arg(&uri, "the resource URI")?;
        let options = options_arg(options, "options")?;
        let opts = CallOptions {
            cache: cache_mode(&options)?,
            ..call_options(&options)?
        };
        let params = Some(json!({ "uri": uri }));
        let what = format!("reading {}", Isolated(&uri));
        let result = self
            .follow(&what, signal_of(&options)?.as_ref(), || {
                self.client.start("resources/read", params, opts)
            })
            .await?;
        to_js(&result)
    }

    /// Gets a prompt with string arguments; `options` as for `callTool` (`onProgress`,
    /// `timeoutMs`, `signal`).
    #[wasm_bindgen(js_name = getPrompt, unchecked_return_type = "McpGetPromptResult")]
    pub async fn get_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string>")] args: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "McpRequestOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<JsValue, JsError> {
        let name = string_arg(&name, "the prompt name")?;
        let options = options_arg(options, "options")?;
        let args = match args.filter(|a| !absent(a)) {
            None => Default::default(),
            Some(args) => string_map(&args, "the prompt arguments")?,
        };
        let params = json!({ "name": name, "arguments": args });
        let what = format!("the prompt {}", Isolated(&name));
        let opts = call_options(&options)?;
        let result = self
            .follow(&what, signal_of(&options)?.as_ref(), || {
                self.client.start("prompts/get", Some(params), opts)
            })
            .await?;
        to_js(&result)
    }

    /// Completions for argument `argument` of `reference` (`{type: 'ref/prompt', name}` or
    /// `{type: 'ref/resource', uri}`) typed so far as `value`; `context` holds the other
    /// arguments filled in (an object of strings, sent as `context.arguments`). Resolves to
    /// the server's `completion` object as sent (`values`, `total`, `hasMore`). `options` as
    /// for `callTool` (`timeoutMs`, `signal`: a host drops the question when the user types on).
    #[wasm_bindgen(unchecked_return_type = "McpCompletion")]
    pub async fn complete(
        &self,
        #[wasm_bindgen(unchecked_param_type = "McpCompletionReference")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] argument: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] value: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string>")] context: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "McpRequestOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<JsValue, JsError> {
        let argument = string_arg(&argument, "the argument's name")?;
        let value = string_arg(&value, "the value typed so far")?;
        let options = options_arg(options, "options")?;
        if !is_plain_object(&reference) {
            return Err(invalid_argument(&format!(
                "the reference must be an object ({{ type: 'ref/prompt', name }} or {{ type: 'ref/resource', uri }}), not {}",
                kind_of(&reference)
            )));
        }
        let reference = from_js(&reference, "the reference")?;
        let context = match context.filter(|c| !absent(c)) {
            None => Default::default(),
            Some(context) => string_map(&context, "the context")?,
        };
        let known: Vec<(&str, &str)> = context
            .iter()
            .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)))
            .collect();
        let params = client_browser::completion_params(reference, &argument, &value, &known);
        let opts = call_options(&options)?;
        let mut r = self
            .follow("completing", signal_of(&options)?.as_ref(), || {
                self.client.start("completion/complete", Some(params), opts)
            })
            .await?;
        match r.get_mut("completion").map(Value::take) {
            Some(completion @ Value::Object(_)) => to_js(&completion),
            _ => Err(api_error(
                "unexpected-result",
                "the server's completion/complete result has no completion object",
            )),
        }
    }

    /// The tools as function definitions for a model (`"openai"` or `"anthropic"`), named
    /// `namespace__tool`. Tools meant for MCP App Views only (`_meta.ui.visibility` without
    /// `"model"`) are left out, as the MCP Apps extension asks of hosts.
    #[wasm_bindgen(js_name = toolDefinitions, unchecked_return_type = "object[]")]
    pub async fn tool_definitions(
        &self,
        #[wasm_bindgen(unchecked_param_type = "\"openai\" | \"anthropic\"")] format: JsValue,
    ) -> Result<JsValue, JsError> {
        let format = string_arg(&format, "the format")?;
        if format != "openai" && format != "anthropic" {
            return Err(invalid_argument(&format!(
                "the format must be \"openai\" or \"anthropic\", not {format:?}"
            )));
        }
        let mut tools = self
            .list("tools/list", "tools", &JsValue::UNDEFINED)
            .await?;
        // Tools for MCP App Views only are not a model's (the extension's rule).
        tools.retain(|t| model_tools::tool_name(t).is_some() && model_tools::for_model(t));
        let mut taken = HashSet::new();
        let names = model_tools::namespaced_names(
            &self.namespace,
            tools.iter().filter_map(model_tools::tool_name),
            &mut taken,
        );
        let mut map = self.names.borrow_mut();
        map.clear();
        let defs: Vec<Value> = names
            .iter()
            .zip(&tools)
            .map(|((model, mcp), tool)| {
                map.insert(model.clone(), mcp.clone());
                model_tools::definition(&format, model, tool)
            })
            .collect();
        to_js(&defs)
    }

    /// Calls a tool by its model-facing name (from `toolDefinitions`); resolves to text with
    /// the server's output fenced as untrusted data.
    #[wasm_bindgen(js_name = callModelTool)]
    pub async fn call_model_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] model_name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: Option<
            JsValue,
        >,
    ) -> Result<String, JsError> {
        let model_name = string_arg(&model_name, "the tool name")?;
        let args = args.unwrap_or_default();
        let mcp = self
            .names
            .borrow()
            .get(&model_name)
            .cloned()
            .ok_or_else(|| {
                invalid_argument(&format!(
                    "unknown tool {model_name}: call toolDefinitions first"
                ))
            })?;
        let r = self.call(&mcp, args, &JsValue::UNDEFINED).await?;
        Ok(model_tools::result_text(&self.namespace, &mcp, &r))
    }

    /// Sends any request (`method`, `params`: an object, or nothing) and resolves to the
    /// server's result as sent, for methods this API has no call of its own for (extensions,
    /// newer methods). The era's rules apply as for every request (headers, `_meta`,
    /// multi round-trip input, authorization). `options` as for `callTool`: `onProgress`,
    /// `timeoutMs`, `signal`.
    pub async fn request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] params: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "McpCallOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsError> {
        let method = string_arg(&method, "the method")?;
        let options = options_arg(options, "options")?;
        let params = match params.filter(|p| !absent(p)) {
            None => None,
            Some(params) => match from_js(&params, "the params")? {
                p @ Value::Object(_) => Some(p),
                _ => return Err(invalid_argument("the params must be an object")),
            },
        };
        let what = format!("the request {method}");
        let opts = call_options(&options)?;
        let result = self
            .follow(&what, signal_of(&options)?.as_ref(), || {
                self.client.start(&method, params, opts)
            })
            .await?;
        to_js(&result)
    }

    /// Sends a notification (`method`, starting with `notifications/`; `params`: an object,
    /// or nothing), for what this API has no call of its own for (an extension's
    /// notifications, `notifications/roots/list_changed` sent by hand). Nothing answers a
    /// notification: this throws only for a method or params that cannot be sent
    /// (`notifications/initialized` is the client's own).
    pub fn notify(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] params: Option<
            JsValue,
        >,
    ) -> Result<(), JsError> {
        let method = string_arg(&method, "the method")?;
        if !method.starts_with("notifications/") || method == "notifications/initialized" {
            return Err(invalid_argument(
                "a notification's method starts with notifications/ (and notifications/initialized is the client's own)",
            ));
        }
        let params = match params.filter(|p| !absent(p)) {
            None => None,
            Some(params) => match from_js(&params, "the params")? {
                p @ Value::Object(_) => Some(p),
                _ => return Err(invalid_argument("the params must be an object")),
            },
        };
        self.client.notify(&method, params);
        Ok(())
    }

    /// Checks the server is alive (`ping`; `server/discover` for a 2026-07-28 server, whose
    /// protocol removed `ping`). Resolves when it answers.
    pub async fn ping(&self) -> Result<(), JsError> {
        self.client.ping().await.map_err(client_error)
    }

    /// Tells the server the roots `onRoots` answers with have changed (a legacy server gets
    /// `notifications/roots/list_changed`; a 2026-07-28 server asks for them again on its own).
    #[wasm_bindgen(js_name = rootsChanged)]
    pub fn roots_changed(&self) {
        self.client.roots_changed();
    }

    /// Subscribes to updates of a resource: they arrive at `onNotification` as
    /// `notifications/resources/updated` (legacy: `resources/subscribe`; 2026-07-28: the
    /// resource joins the `subscriptions/listen` filter).
    #[wasm_bindgen(js_name = subscribeResource)]
    pub async fn subscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<(), JsError> {
        let uri = string_arg(&uri, "the resource URI")?;
        self.client
            .subscribe_resource(&uri)
            .await
            .map_err(client_error)
    }

    /// Stops updates of a resource.
    #[wasm_bindgen(js_name = unsubscribeResource)]
    pub async fn unsubscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> Result<(), JsError> {
        let uri = string_arg(&uri, "the resource URI")?;
        self.client
            .unsubscribe_resource(&uri)
            .await
            .map_err(client_error)
    }

    /// Sets the lowest level of the server's log messages (`"debug"`, `"info"`, `"notice"`,
    /// `"warning"`, `"error"`, `"critical"`, `"alert"`, `"emergency"`); they arrive at
    /// `onNotification` as `notifications/message` (legacy: `logging/setLevel`; 2026-07-28:
    /// sent with every later request).
    #[wasm_bindgen(js_name = setLogLevel)]
    pub async fn set_log_level(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] level: JsValue,
    ) -> Result<(), JsError> {
        let level = string_arg(&level, "the log level")?;
        let level: LoggingLevel = serde_json::from_value(Value::String(level.clone()))
            .map_err(|_| {
                invalid_argument(&format!(
                    "unknown log level {level:?}: use debug, info, notice, warning, error, critical, alert or emergency"
                ))
            })?;
        self.client.set_log_level(level).await.map_err(client_error)
    }

    /// Closes the connection: a 2025-era session is deleted on the server, streams stop,
    /// requests under way reject ("closed"). So do `free()`, `[Symbol.dispose]()` (`using`)
    /// and the garbage collector once the client can no longer be reached.
    pub fn close(&self) {
        self.client.close();
    }
}

/// A client let go (`free()`, `using`, or collected as garbage) is closed: nothing can use it
/// any more, and its connection would otherwise stay open with the page, holding its session
/// on the server and, for its stream, one of the six connections a browser opens to a server
/// over HTTP/1.1 (the seventh client to that server then waited forever).
impl Drop for McpClient {
    fn drop(&mut self) {
        self.client.close();
    }
}

/// The name a connection state has in the JavaScript API.
fn state_name(s: ConnectionState) -> &'static str {
    match s {
        ConnectionState::Idle => "idle",
        ConnectionState::Connecting => "connecting",
        ConnectionState::Connected => "connected",
        ConnectionState::Reconnecting => "reconnecting",
        ConnectionState::AuthRequired => "auth-required",
        ConnectionState::Failed => "failed",
        ConnectionState::Closed => "closed",
    }
}

/// A JavaScript object of strings (headers, prompt arguments) as a map; `what` names it in the
/// error.
fn string_map(v: &JsValue, what: &str) -> Result<serde_json::Map<String, Value>, JsError> {
    match from_js(v, what)? {
        Value::Object(m) if m.values().all(Value::is_string) => Ok(m),
        _ => Err(invalid_argument(&format!(
            "{what} must be an object of strings"
        ))),
    }
}

impl McpClient {
    async fn list(
        &self,
        method: &str,
        key: &str,
        options: &JsValue,
    ) -> Result<Vec<Value>, JsError> {
        let list_options = ListOptions {
            cache: cache_mode(options)?,
            timeout: Fields::of(options, "options").milliseconds("timeoutMs")?,
        };
        let what = format!("the listing {method}");
        abortable(&what, signal_of(options)?.as_ref(), || {
            let listing = self.client.start_listing(method, key, list_options);
            let stop = listing.stop.clone();
            (listing, Box::new(move || stop.stop()))
        })
        .await
    }

    async fn call(&self, name: &str, args: JsValue, options: &JsValue) -> Result<Value, JsError> {
        let args_value: Value = if absent(&args) {
            Value::Object(Default::default())
        } else if is_plain_object(&args) {
            from_js(&args, "the tool arguments")?
        } else {
            return Err(invalid_argument(&format!(
                "the tool arguments must be an object, not {}",
                kind_of(&args)
            )));
        };
        // Bad options are refused before the approve hook asks anyone. The signal is read
        // once, here: a getter is asked once per call.
        let opts = call_options(options)?;
        let signal = signal_of(options)?;
        let what = format!("the call to {}", Isolated(name));
        if let Some(approve) = &self.approve {
            // Aborted before or while the host decides: no one is asked, or the answer is not
            // awaited; the call rejects at once.
            let was_aborted = || signal.as_ref().is_some_and(aborted);
            let cancelled = || api_error("cancelled", &format!("{what} was aborted"));
            if was_aborted() {
                return Err(cancelled());
            }
            let ok = approve
                .call2(&JsValue::NULL, &name.into(), &args)
                .map_err(|e| approve_failed(&what, &e))?;
            let mut answer = js_sys::Promise::resolve(&ok);
            if let Some(signal) = &signal {
                answer = js_sys::Promise::race(&js_sys::Array::of2(&answer, &on_abort(signal)));
            }
            let ok = JsFuture::from(answer).await;
            if was_aborted() {
                return Err(cancelled());
            }
            let ok = ok.map_err(|e| approve_failed(&what, &e))?;
            if ok.as_bool() != Some(true) {
                return Err(api_error(
                    "not-approved",
                    &format!("{what} was not approved"),
                ));
            }
        }
        // A tool that must run as a task (see listTools) runs as one.
        self.follow(&what, signal.as_ref(), || {
            self.client.start_tool_call(name, args_value, opts)
        })
        .await
    }

    /// Starts a request with `start` unless `signal` (the request's `options.signal`) is
    /// already aborted, and awaits it; aborting the signal meanwhile cancels it (a task is
    /// cancelled on the server too). `what` names it in the error.
    async fn follow(
        &self,
        what: &str,
        signal: Option<&JsValue>,
        start: impl FnOnce() -> client_browser::PendingCall,
    ) -> Result<Value, JsError> {
        abortable(what, signal, || {
            let call = start();
            let (client, handle) = (self.client.clone(), call.handle);
            (call, Box::new(move || client.cancel(handle)))
        })
        .await
    }
}

/// The error of a connection that failed because `options.signal` was aborted meanwhile
/// (closing the client made it fail "closed"): "cancelled", as for every request aborted.
fn aborted_instead(signal: Option<&JsValue>, url: &str, e: JsError) -> JsError {
    if signal.is_some_and(aborted) {
        api_error("cancelled", &format!("connecting to {url} was aborted"))
    } else {
        e
    }
}

/// `options.signal` of a request, checked (an `AbortSignal`, or absent). Read once per
/// request: the signal a getter gives is the one the whole request uses.
fn signal_of(options: &JsValue) -> Result<Option<JsValue>, JsError> {
    Fields::of(options, "options").signal("signal")
}

/// A promise that rejects when `signal` aborts (and otherwise never settles); at once if it
/// is aborted already (e.g. by the approve hook itself, as it was called).
fn on_abort(signal: &JsValue) -> js_sys::Promise {
    js_sys::Promise::new(&mut |_resolve, reject| {
        if aborted(signal) {
            let _ = reject.call0(&JsValue::NULL);
            return;
        }
        let rejected = Closure::once_into_js(move || {
            let _ = reject.call0(&JsValue::NULL);
        });
        let once = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&once, &"once".into(), &true.into());
        let add = js_sys::Reflect::get(signal, &"addEventListener".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        if let Some(add) = add {
            let _ = add.call3(signal, &"abort".into(), &rejected, &once);
        }
    })
}

/// Whether an `AbortSignal` is aborted.
fn aborted(signal: &JsValue) -> bool {
    js_sys::Reflect::get(signal, &"aborted".into()).is_ok_and(|a| a.is_truthy())
}

/// Starts work with `start` (which also gives the way to stop it) unless `signal` is already
/// aborted, and awaits it; aborting the signal meanwhile stops it. `what` names it in the
/// error.
async fn abortable<T, F>(
    what: &str,
    signal: Option<&JsValue>,
    start: impl FnOnce() -> (F, Box<dyn FnMut()>),
) -> Result<T, JsError>
where
    F: std::future::Future<Output = Result<T, ClientError>>,
{
    if signal.is_some_and(aborted) {
        return Err(api_error("cancelled", &format!("{what} was aborted")));
    }
    let (work, stop) = start();
    let Some(signal) = signal else {
        return work.await.map_err(client_error);
    };
    let on_abort = Closure::<dyn FnMut()>::new(stop);
    let listen = |method: &str| {
        js_sys::Reflect::get(signal, &method.into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .map(|f| f.call2(signal, &"abort".into(), on_abort.as_ref()))
    };
    listen("addEventListener");
    let outcome = work.await;
    listen("removeEventListener");
    outcome.map_err(client_error)
}
