//! What the session tells the application, and how requests fail.

use crate::bidi::Isolated;
use crate::http::{TransmitId, TransportFailure};
use crate::jsonrpc::ErrorObject;
use crate::types::*;
use alloc::string::String;
use serde_json::Value;

/// Identifies a request the application made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestHandle(pub u64);

/// Identifies a request from the server (legacy request or one MRTR input request) that the
/// application must answer with [`super::Session::answer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ServerRequestId(pub u64);

/// Where the session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectionState {
    /// Not started.
    Idle,
    /// Detecting the era / handshaking.
    Connecting,
    /// Ready for requests.
    Connected,
    /// The legacy session was lost; a fresh `initialize` is under way.
    Reconnecting,
    /// The server wants authorization (HTTP 401); see [`Event::AuthRequired`].
    AuthRequired,
    /// Connecting failed; see [`Event::ConnectFailed`].
    Failed,
    /// Closed by the application.
    Closed,
}

/// Which wire protocol ended up in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireProtocol {
    /// Streamable HTTP.
    StreamableHttp,
    /// 2024-11-05 HTTP+SSE.
    HttpSse,
    /// Message per frame (WebSocket).
    Frames,
}

/// What the session learnt about the server when it connected.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerDetails {
    /// Modern or legacy.
    pub era: Era,
    /// The protocol version in use.
    pub protocol_version: String,
    /// Which wire protocol.
    pub wire: WireProtocol,
    /// Self-reported identity (untrusted).
    pub server_info: Implementation,
    /// Capabilities.
    pub capabilities: ServerCapabilities,
    /// Guidance (untrusted text).
    pub instructions: Option<String>,
}

/// Direction of a wire-log record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Client to server.
    Sent,
    /// Server to client.
    Received,
}

/// Something the application should know about. Drain with [`super::Session::poll_output`].
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The connection state changed.
    State(ConnectionState),
    /// Connected: era, version and server details.
    Connected(alloc::boxed::Box<ServerDetails>),
    /// Connecting failed for good.
    ConnectFailed(RequestError),
    /// A `server/discover` probe was answered by a server this client speaks with, just before
    /// [`Event::Connected`]. An application that keeps it while it is fresh can skip the probe
    /// next time (see [`super::SessionConfig::known_discover`]).
    Discovered {
        /// The result as the server sent it.
        result: Value,
        /// How long it stays fresh: the server's `ttlMs`, at most a day (zero: keep nothing,
        /// and forget what was kept).
        fresh_for: crate::time::Duration,
        /// `cacheScope` is `"public"`: the result is the same for every user, so it may be
        /// kept beyond this authorization context (`"private"`, the default, may not).
        public: bool,
    },
    /// The server asks for authorization (HTTP 401, or 403 `insufficient_scope`).
    AuthRequired {
        /// HTTP status.
        status: u16,
        /// The `WWW-Authenticate` header, if the browser let us read it.
        www_authenticate: Option<String>,
    },
    /// A request finished.
    Response {
        /// The request.
        handle: RequestHandle,
        /// Its result, as the server sent it (decode it with [`McpResult::decode`] or
        /// `serde_json::from_value`), or why it failed. Kept raw so that an application
        /// that hands results on as JSON (the JavaScript API) never links the typed
        /// decoders of every result type.
        result: Result<Value, RequestError>,
    },
    /// A request was answered from the response cache: nothing crossed the wire (its
    /// [`Event::Response`] follows).
    Cached {
        /// The request.
        handle: RequestHandle,
        /// Its method.
        method: String,
        /// How much longer the result stays fresh (the server's `ttlMs`, counted from when its
        /// answer arrived).
        fresh_for: crate::time::Duration,
    },
    /// Asking the server again for a kept result that is no longer fresh failed for want of
    /// the server, and the kept result answers instead (its [`Event::Response`] follows). Only
    /// for requests with [`crate::session::CacheMode::Use`].
    ServedStale {
        /// The request.
        handle: RequestHandle,
        /// Its method.
        method: String,
        /// How long ago the served result was received.
        age: crate::time::Duration,
        /// Why asking again failed.
        error: RequestError,
    },
    /// Progress of a request.
    Progress {
        /// The request.
        handle: RequestHandle,
        /// What the server reported.
        progress: ProgressParams,
    },
    /// A notification from the server.
    Notification {
        /// The `subscriptions/listen` request it came on (modern), if any.
        subscription: Option<RequestHandle>,
        /// The notification.
        notification: ServerNotification,
    },
    /// The server needs something from the application (legacy request or MRTR input).
    ServerRequest {
        /// Answer with this id.
        id: ServerRequestId,
        /// The request.
        request: ServerRequest,
        /// The application request it belongs to, if known.
        related: Option<RequestHandle>,
    },
    /// A tool was left out of a `tools/list` result because its definition is invalid.
    ToolRejected {
        /// Tool name (untrusted).
        name: String,
        /// Why.
        reason: String,
    },
    /// Something went wrong that does not fail a request (e.g. a dropped oversized event).
    Warning(String),
    /// A JSON-RPC message crossed the wire (only with `wire_log`).
    Wire {
        /// Which way.
        direction: Direction,
        /// The HTTP exchange, if any.
        transmit: Option<TransmitId>,
        /// HTTP status of the response that carried a received message.
        status: Option<u16>,
        /// HTTP headers of the request (sent) or of the response (received), as far as the
        /// browser exposes them.
        headers: alloc::vec::Vec<(String, String)>,
        /// The message.
        message: Value,
    },
}

/// Why a request (or connecting) failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    /// The server answered with a JSON-RPC error.
    #[error("the server returned an error: {0}")]
    Rpc(ErrorObject),
    /// The server answered with an HTTP error status.
    #[error("the server answered HTTP {status}{}", if body.is_empty() { String::new() } else { alloc::format!(": {}", Isolated(body)) })]
    Http {
        /// Status code.
        status: u16,
        /// The start of the body (untrusted text).
        body: String,
        /// `WWW-Authenticate`, if readable.
        www_authenticate: Option<String>,
    },
    /// No HTTP response (network down, refused, or blocked by CORS).
    #[error("could not reach the server: {0:?}")]
    Transport(TransportFailure),
    /// No answer in time; the request was cancelled.
    #[error("no answer after {after_ms} ms; the request was cancelled")]
    Timeout {
        /// The time limit that ran out, in milliseconds.
        after_ms: u64,
    },
    /// Cancelled by the application.
    #[error("cancelled")]
    Cancelled,
    /// The server broke the protocol.
    #[error("the server broke the protocol: {0}")]
    Protocol(String),
    /// A message was larger than the configured limit.
    #[error("a message from the server exceeded the limit of {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// The response stream ended before the response, and could not be resumed.
    #[error("the response stream ended before the response arrived")]
    StreamCut,
    /// The legacy session expired and could not be re-established.
    #[error("the server forgot the session and a fresh one could not be started")]
    SessionLost,
    /// The server wants a session, but its `Mcp-Session-Id` header was not readable (a
    /// browser hides response headers that CORS does not expose).
    #[error("the server requires a session, but its Mcp-Session-Id header is not readable by this page: the server must list Mcp-Session-Id in Access-Control-Expose-Headers")]
    SessionHeaderHidden,
    /// The application refused input the server asked for.
    #[error("the input the server asked for was refused: {0}")]
    InputRefused(ErrorObject),
    /// The session was closed by the application (before or while the request was pending).
    #[error("the session is closed")]
    Closed,
    /// Not connected (connecting failed), or the server speaks no version we support.
    #[error("{0}")]
    Unavailable(String),
}

impl RequestError {
    /// Whether the request failed for want of the server rather than by its answer: no
    /// response, a server error or overload status (5xx, 408, 429), no answer in time, or a
    /// response stream cut short. (Not a refusal, a protocol error or a cancellation.)
    pub fn server_unavailable(&self) -> bool {
        match self {
            RequestError::Transport(_) | RequestError::Timeout { .. } | RequestError::StreamCut => {
                true
            }
            RequestError::Http { status, .. } => *status >= 500 || matches!(status, 408 | 429),
            _ => false,
        }
    }
}

/// A result decoded according to the method of the request it answers.
#[derive(Debug, Clone, PartialEq)]
pub enum McpResult {
    /// `server/discover` (boxed: by far the largest results, see `large_enum_variant`).
    Discover(alloc::boxed::Box<DiscoverResult>),
    /// `initialize`.
    Initialize(alloc::boxed::Box<InitializeResult>),
    /// `tools/list`.
    ListTools(ListToolsResult),
    /// `tools/call`.
    CallTool(CallToolResult),
    /// `resources/list`.
    ListResources(ListResourcesResult),
    /// `resources/templates/list`.
    ListResourceTemplates(ListResourceTemplatesResult),
    /// `resources/read`.
    ReadResource(ReadResourceResult),
    /// `prompts/list`.
    ListPrompts(ListPromptsResult),
    /// `prompts/get`.
    GetPrompt(GetPromptResult),
    /// `completion/complete`.
    Complete(CompleteResult),
    /// `tasks/get` and `tasks/cancel` (2025-11-25 tasks).
    Task(Task),
    /// `tasks/list`.
    ListTasks(ListTasksResult),
    /// `ping`, `logging/setLevel`, `resources/subscribe`, `subscriptions/listen` (end), ...
    Empty(EmptyResult),
    /// A method this crate does not type.
    Other(Value),
}

impl McpResult {
    /// Decodes `value` as the result of `method`.
    pub fn decode(method: &str, value: Value) -> Result<McpResult, serde_json::Error> {
        fn f<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, serde_json::Error> {
            T::deserialize(&v)
        }
        Ok(match method {
            "server/discover" => McpResult::Discover(alloc::boxed::Box::new(f(value)?)),
            "initialize" => McpResult::Initialize(alloc::boxed::Box::new(f(value)?)),
            "tools/list" => McpResult::ListTools(f(value)?),
            "tools/call" => McpResult::CallTool(f(value)?),
            "resources/list" => McpResult::ListResources(f(value)?),
            "resources/templates/list" => McpResult::ListResourceTemplates(f(value)?),
            "resources/read" => McpResult::ReadResource(f(value)?),
            "prompts/list" => McpResult::ListPrompts(f(value)?),
            "prompts/get" => McpResult::GetPrompt(f(value)?),
            "completion/complete" => McpResult::Complete(f(value)?),
            "tasks/get" | "tasks/cancel" => McpResult::Task(f(value)?),
            "tasks/list" => McpResult::ListTasks(f(value)?),
            "ping"
            | "logging/setLevel"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "subscriptions/listen" => McpResult::Empty(f(value)?),
            _ => McpResult::Other(value),
        })
    }
}

/// Methods that may answer with an MRTR `InputRequiredResult` (2026-07-28).
pub fn supports_input_required(method: &str) -> bool {
    matches!(method, "tools/call" | "prompts/get" | "resources/read")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_result_decodes_as_its_methods_type_and_a_malformed_one_is_an_error() {
        let typed = [
            "server/discover",
            "initialize",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/templates/list",
            "resources/read",
            "prompts/list",
            "prompts/get",
            "completion/complete",
            "tasks/get",
            "tasks/cancel",
            "tasks/list",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
            "subscriptions/listen",
        ];
        // A number is no result object: each typed method refuses it ...
        for method in typed {
            assert!(McpResult::decode(method, json!(42)).is_err(), "{method}");
        }
        // ... and a method not typed here keeps it as it came.
        assert!(matches!(
            McpResult::decode("x/custom", json!(42)),
            Ok(McpResult::Other(v)) if v == json!(42)
        ));
        assert!(matches!(
            McpResult::decode("tools/list", json!({ "tools": [] })),
            Ok(McpResult::ListTools(_))
        ));
        assert!(matches!(
            McpResult::decode("ping", json!({})),
            Ok(McpResult::Empty(_))
        ));
    }

    #[test]
    fn only_calls_reads_and_prompts_may_ask_for_input() {
        for m in ["tools/call", "prompts/get", "resources/read"] {
            assert!(supports_input_required(m), "{m}");
        }
        for m in [
            "tools/list",
            "server/discover",
            "completion/complete",
            "tasks/get",
        ] {
            assert!(!supports_input_required(m), "{m}");
        }
    }
}
