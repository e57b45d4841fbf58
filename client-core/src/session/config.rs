//! What a session is configured with.

use crate::time::Duration;
use crate::types::{ClientCapabilities, Era, Implementation, LoggingLevel};
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;

/// How messages travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportMode {
    /// Try Streamable HTTP (modern, then legacy), then the 2024-11-05 HTTP+SSE transport.
    Auto,
    /// Streamable HTTP only (modern, then legacy `initialize`).
    StreamableHttp,
    /// The deprecated 2024-11-05 HTTP+SSE transport (GET stream + POST endpoint).
    HttpSse,
    /// One JSON-RPC message per frame (e.g. a WebSocket; not in the spec: SEP-1288 draft).
    Frames,
}

/// Configuration of a [`super::Session`].
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// The MCP endpoint URL (for `Frames`, used only for display).
    pub endpoint: String,
    /// Transport choice.
    pub transport: TransportMode,
    /// The era this server was found to speak last time (the caller remembers it per server);
    /// `None` probes. A wrong hint is detected and corrected.
    pub era_hint: Option<Era>,
    /// A `server/discover` result of this server that the caller kept while it is fresh (the
    /// server's `ttlMs` has not run out; see [`super::Event::Discovered`]). Connecting over
    /// Streamable HTTP then starts in the modern era from it without asking the server again.
    /// Used by the first connection only. If the server's first answer shows that it changed
    /// (another era, an unsupported version, unreachable), the session probes as for an
    /// unknown server and sends what was in flight again. Ignored with an `era_hint` of
    /// legacy and when it names no version this client speaks.
    pub known_discover: Option<Value>,
    /// Our name and version.
    pub client_info: Implementation,
    /// Capabilities we declare. Declare only what the application can answer.
    pub capabilities: ClientCapabilities,
    /// Time a request may take before it is cancelled.
    pub request_timeout: Duration,
    /// A progress notification restarts the request timeout ...
    pub reset_timeout_on_progress: bool,
    /// ... but never beyond this total.
    pub max_request_duration: Duration,
    /// Largest JSON message or SSE event accepted, in bytes.
    pub max_message_bytes: usize,
    /// Extra headers on every HTTP request (custom headers, `Authorization`).
    pub extra_headers: Vec<(String, String)>,
    /// Open the legacy standalone GET stream for server-initiated messages.
    pub open_get_stream: bool,
    /// Reconnection attempts for a broken SSE stream before giving up.
    pub max_stream_reconnects: u32,
    /// Reconnection delay when the server gave no `retry:`.
    pub default_retry: Duration,
    /// How often a request whose modern response stream was cut is sent again.
    pub max_reissues: u32,
    /// Most MRTR rounds for one request (guards against a server that never completes).
    pub max_input_rounds: u32,
    /// Minimum log level asked of the server (modern: per request; legacy: `logging/setLevel`).
    pub log_level: Option<LoggingLevel>,
    /// Frames mode: how long to wait for an answer to `server/discover` before assuming legacy.
    pub probe_timeout: Duration,
    /// Emit [`super::Event::Wire`] for every message sent and received.
    pub wire_log: bool,
    /// Declare the Tasks extension (`io.modelcontextprotocol/tasks`) to modern (2026-07-28)
    /// servers: a `tools/call` may then be answered with a task (`resultType: "task"`), which
    /// the caller follows with `tasks/get` (see [`crate::types::Task`]). Off, such an answer is
    /// refused as the protocol error it then is.
    pub tasks_extension: bool,
}

impl SessionConfig {
    /// Defaults for a server URL.
    pub fn new(endpoint: impl Into<String>) -> Self {
        SessionConfig {
            endpoint: endpoint.into(),
            transport: TransportMode::Auto,
            era_hint: None,
            known_discover: None,
            client_info: Implementation {
                name: "mcp-browser-client".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                ..Default::default()
            },
            capabilities: ClientCapabilities::default(),
            request_timeout: Duration::from_secs(60),
            reset_timeout_on_progress: true,
            max_request_duration: Duration::from_secs(600),
            max_message_bytes: 128 << 20,
            extra_headers: Vec::new(),
            open_get_stream: true,
            max_stream_reconnects: 5,
            default_retry: Duration::from_millis(1000),
            max_reissues: 1,
            max_input_rounds: 16,
            log_level: None,
            probe_timeout: Duration::from_secs(5),
            wire_log: false,
            tasks_extension: false,
        }
    }
}
