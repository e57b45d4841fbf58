//! How a [`crate::Client`] is configured, and what it reports.

use client_core::jsonrpc::ErrorObject;
use client_core::session::{CacheMode, ConnectionState, RequestHandle};
use client_core::time::Duration;
use client_core::types::*;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;
use std::rc::Rc;

/// Which transport to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transport {
    /// Streamable HTTP (modern, then legacy), then 2024-11-05 HTTP+SSE.
    #[default]
    Auto,
    /// Streamable HTTP only.
    StreamableHttp,
    /// 2024-11-05 HTTP+SSE only.
    HttpSse,
    /// WebSocket (non-standard, SEP-1288 draft). Browsers cannot send `Authorization` on a
    /// WebSocket; a token can only travel in the URL, if the server accepts that.
    WebSocket,
}

/// An answer the application gives to a server request.
pub type Answer = Result<Value, ErrorObject>;
/// A handler for sampling requests: the parameters as the server sent them (checked for the
/// required fields). [`typed_handler`] makes one from a handler of [`CreateMessageParams`].
pub type SamplingHandler = Rc<dyn Fn(Value) -> LocalBoxFuture<'static, Answer>>;
/// A handler for elicitation requests (form and URL mode): the parameters as the server sent
/// them. [`typed_handler`] makes one from a handler of [`ElicitParams`].
pub type ElicitationHandler = Rc<dyn Fn(Value) -> LocalBoxFuture<'static, Answer>>;

/// A sampling or elicitation handler from one that takes typed parameters (e.g.
/// [`CreateMessageParams`]); parameters that do not decode are answered with "invalid
/// params" without calling it.
pub fn typed_handler<P, F>(handler: F) -> Rc<dyn Fn(Value) -> LocalBoxFuture<'static, Answer>>
where
    P: serde::de::DeserializeOwned + 'static,
    F: Fn(P) -> LocalBoxFuture<'static, Answer> + 'static,
{
    Rc::new(move |params: Value| match P::deserialize(&params) {
        Ok(p) => handler(p),
        Err(e) => {
            let e = ErrorObject::new(
                client_core::jsonrpc::codes::INVALID_PARAMS,
                format!("invalid params: {e}"),
            );
            Box::pin(async move { Err(e) })
        }
    })
}
/// A handler for roots requests.
pub type RootsHandler = Rc<dyn Fn() -> LocalBoxFuture<'static, Answer>>;

/// Application handlers for what servers ask of the client. Only the capabilities with a
/// handler are declared to the server.
#[derive(Clone, Default)]
pub struct Handlers {
    /// `sampling/createMessage`.
    pub sampling: Option<SamplingHandler>,
    /// The sampling handler can answer with tool uses (`tool_use` content, `stopReason`
    /// `"toolUse"`): declares `sampling.tools`, so that servers may offer tools in their
    /// sampling requests. Only with a `sampling` handler.
    pub sampling_tools: bool,
    /// `elicitation/create`.
    pub elicitation: Option<ElicitationHandler>,
    /// `roots/list`.
    pub roots: Option<RootsHandler>,
}

/// Something the application may want to show.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientEvent {
    /// Connection state changed.
    State(ConnectionState),
    /// A server notification (list changed, resource updated, log message, ...).
    Notification(ServerNotification),
    /// Progress of a request.
    Progress(RequestHandle, ProgressParams),
    /// A non-fatal problem.
    Warning(String),
    /// A request to a plain `http://` server has had no answer for a while, and `streams`
    /// long-lived streams from pages of this origin (this page and others) hold every
    /// connection the browser opens to that server over HTTP/1.1: the request is most likely
    /// waiting for one to free. It goes on waiting (until its time limit).
    /// [`crate::busy_connections::explain`] says so in words.
    ConnectionsBusy {
        /// The server's origin (`http://host:port`).
        server: String,
        /// The streams counted.
        streams: usize,
    },
    /// A request was answered from the response cache, without a round trip: its method, and
    /// how much longer the result stays fresh.
    Cached {
        /// The request's method (`tools/list`, `resources/read`, ...).
        method: String,
        /// How much longer the server said the result stays fresh.
        fresh_for: Duration,
    },
    /// Asking the server again for a result that is no longer fresh failed for want of the
    /// server (no answer, a 5xx, a time-out), and the result kept from before answered
    /// instead: its method, how long ago it was received, and why asking failed.
    ServedStale {
        /// The request's method.
        method: String,
        /// How long ago the served result was received.
        age: Duration,
        /// Why asking the server failed.
        error: String,
    },
    /// A request (or the connection) was refused for want of authorization (HTTP 401, or 403
    /// with `insufficient_scope`), and no credentials could be got without the user: no
    /// [`ClientOptions::auth`], or it has no token to refresh and does not open a login popup
    /// by itself (redirect mode, or popup mode without `auto_login`). The
    /// request fails with [`ClientError::AuthRequired`](crate::ClientError::AuthRequired);
    /// this event lets an app offer its login once, wherever the request came from.
    LoginNeeded {
        /// The HTTP status (401 or 403).
        status: u16,
        /// The server's `WWW-Authenticate` challenge, if the browser let us read it.
        www_authenticate: Option<String>,
    },
    /// A message crossed the wire (with `wire_log`).
    Wire {
        /// True when sent by the client.
        sent: bool,
        /// HTTP status of the response that carried a received message.
        status: Option<u16>,
        /// HTTP headers of the request or response (those the browser exposes).
        headers: Vec<(String, String)>,
        /// The message.
        message: Value,
    },
}

/// Configuration of a [`crate::Client`].
#[derive(Clone)]
pub struct ClientOptions {
    /// The MCP endpoint (`https://…/mcp`, or `wss://…` for WebSocket).
    pub url: String,
    /// Transport choice.
    pub transport: Transport,
    /// Extra headers on every HTTP request.
    pub headers: Vec<(String, String)>,
    /// Send cookies / HTTP auth to the server (`credentials: 'include'`). Off by default.
    pub with_credentials: bool,
    /// Default request timeout.
    pub timeout: Duration,
    /// Remembered era of this server (see `client_core::SessionConfig::era_hint`).
    pub era_hint: Option<Era>,
    /// Remember the era this server speaks (see [`crate::eras`]) and, without an `era_hint`,
    /// start from what was remembered: a later connection skips the era probe. Off by default.
    pub remember_era: bool,
    /// Minimum log level asked of the server.
    pub log_level: Option<LoggingLevel>,
    /// WebSocket subprotocols to offer (default `["mcp"]`; retried with none if refused).
    pub ws_protocols: Vec<String>,
    /// Most pages fetched by a `list_*` call.
    pub max_pages: usize,
    /// Report every JSON-RPC message as [`ClientEvent::Wire`].
    pub wire_log: bool,
    /// Handlers for server requests.
    pub handlers: Handlers,
    /// Extensions the client supports, declared in its capabilities (`extensions`): each
    /// extension's identifier and its settings (e.g. `io.modelcontextprotocol/ui`).
    pub extensions: serde_json::Map<String, serde_json::Value>,
    /// Client name and version announced to servers.
    pub client_info: Implementation,
    /// OAuth for this server: its access token is sent, refreshed on 401, and (popup mode)
    /// renewed by logging in again or stepping up scopes on 403.
    pub auth: Option<Rc<crate::auth::Authorizer>>,
}

impl ClientOptions {
    /// Defaults for a server URL.
    pub fn new(url: impl Into<String>) -> Self {
        ClientOptions {
            url: url.into(),
            transport: Transport::Auto,
            headers: Vec::new(),
            with_credentials: false,
            timeout: Duration::from_secs(60),
            era_hint: None,
            remember_era: false,
            log_level: None,
            ws_protocols: vec!["mcp".into()],
            max_pages: 100,
            wire_log: false,
            handlers: Handlers::default(),
            extensions: serde_json::Map::new(),
            client_info: Implementation {
                name: "mcp-browser-client".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                ..Default::default()
            },
            auth: None,
        }
    }
}

/// Options of one call.
#[derive(Clone, Default)]
pub struct CallOptions {
    /// Overrides the client's timeout.
    pub timeout: Option<Duration>,
    /// Called with each progress notification (the timeout restarts on progress).
    pub on_progress: Option<Rc<dyn Fn(ProgressParams)>>,
    /// Called with the task's state while a tool runs as a task (2025-11-25 tasks, or a
    /// 2026-07-28 server's Tasks extension): when the server creates it and at each poll.
    pub on_task: Option<TaskListener>,
    /// How a cacheable request (a page of a list, `resources/read`) uses the response
    /// cache: by default a result a 2026-07-28 server said is still fresh (`ttlMs`) is
    /// served without asking it again.
    pub cache: CacheMode,
    /// Entries added to the request's `_meta`, e.g. W3C trace context (`traceparent`,
    /// `tracestate`, `baggage`) so that a server's OpenTelemetry spans join the caller's
    /// trace. Check them with [`client_core::types::check_request_meta`]; the session's own
    /// entries (protocol version, client info, progress token, ...) are added on top.
    pub meta: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Called with a task's state (see [`CallOptions::on_task`]).
pub type TaskListener = Rc<dyn Fn(&Task)>;
