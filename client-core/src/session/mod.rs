//! The client session: a sans-IO state machine in the style of str0m's run loop and
//! quinn-proto's connection.
//!
//! ```text
//!  application ──commands──▶ Session ◀──Input (HTTP head / body chunks / end / error,
//!       ▲                      │               frames, timeout)── I/O layer
//!       └────Event─────────────┤
//!                              └──Output (HTTP requests, aborts, frames)──▶ I/O layer
//! ```
//!
//! Drive it like this: call a command ([`Session::connect`], [`Session::request`], ...) or
//! [`Session::handle_input`], then drain [`Session::poll_output`] until it returns `None`, and
//! arm a timer for [`Session::poll_timeout`]; when it fires, pass [`Input::Timeout`].
//! Time is always a parameter; the session never reads a clock.

mod cache;
mod config;
mod event;
mod exchange;
mod handshake;
mod incoming;

pub use cache::CacheMode;
pub use config::{SessionConfig, TransportMode};
pub use event::*;

use crate::headers;
use crate::http::{HttpMethod, HttpRequest, ResponseHead, TransmitId, TransportFailure};
use crate::jsonrpc::{ErrorObject, Message, RequestId};
use crate::time::{Duration, Instant};
use crate::types::{meta_keys, Era, SubscriptionFilter, TASKS_EXTENSION};
use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use exchange::{Exchange, Purpose};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The session's maps: sorted vectors (`litemap`), iterated in key order like a `BTreeMap`.
pub(crate) type SortedMap<K, V> = litemap::LiteMap<K, V>;

/// One input to the session.
#[derive(Debug)]
pub enum Input<'a> {
    /// The status and headers of an HTTP response arrived.
    ResponseHead(TransmitId, ResponseHead),
    /// A chunk of a response body arrived.
    BodyChunk(TransmitId, &'a [u8]),
    /// A response body ended normally.
    BodyEnd(TransmitId),
    /// An exchange failed below HTTP (before or after the head).
    TransportError(TransmitId, TransportFailure),
    /// Frames mode: the connection (WebSocket) is open.
    FramesOpened,
    /// Frames mode: one message arrived.
    Frame(&'a [u8]),
    /// Frames mode: the connection closed.
    FramesClosed(String),
    /// The time from [`Session::poll_timeout`] was reached.
    Timeout,
}

/// One output of the session, for the I/O layer or the application.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // outputs are drained one at a time and consumed at once
pub enum Output {
    /// Perform this HTTP request; report back with its [`TransmitId`].
    Http(HttpRequest),
    /// Abort this exchange (closing a stream is also how a modern request is cancelled).
    Abort(TransmitId),
    /// Frames mode: open the connection, then report [`Input::FramesOpened`].
    OpenFrames,
    /// Frames mode: send this message.
    Frame(Vec<u8>),
    /// Frames mode: close the connection.
    CloseFrames,
    /// Tell the application.
    Event(Event),
}

/// What an internal request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Internal {
    /// An application request: its outcome becomes an [`Event::Response`].
    No,
    /// `server/discover` probe.
    Probe,
    /// `initialize`.
    Initialize,
    /// Housekeeping whose outcome is only logged (e.g. `logging/setLevel`).
    Quiet,
    /// A page of `tools/list` after a HeaderMismatch: pages are read until the called tool's
    /// definition is (or the list ends), then the call with this key is sent again.
    RefreshTools { call: u64, page: u32 },
}

/// Most `tools/list` pages read after a HeaderMismatch while looking for the called tool.
const MAX_REFRESH_PAGES: u32 = 100;

#[derive(Debug)]
enum PendingState {
    /// Waiting for the session to be ready.
    Queued,
    /// Sent; the exchange carrying it (None for frames, or a 2024-11-05 POST that returned).
    InFlight(Option<TransmitId>),
    /// Waiting for scheduled stream resumption.
    Resuming,
    /// MRTR: waiting for the application's answers.
    AwaitingInput {
        waiting: SortedMap<ServerRequestId, String>,
        responses: Map<String, Value>,
    },
    /// Sent while the server's era was being probed and answered before the probe: the
    /// answer waits for the probe to say whether it was given in the era it was asked in
    /// (see [`Pending::speculative`]).
    Held(Result<Value, RequestError>),
}

#[derive(Debug)]
struct Pending {
    internal: Internal,
    method: String,
    params: Option<Value>,
    rpc_id: RequestId,
    state: PendingState,
    started: Instant,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
    progress_token: Option<RequestId>,
    reissues: u32,
    resumes: u32,
    /// The last SSE event id of this request's response stream (legacy resumption point).
    resume_from: Option<String>,
    /// The reconnection time (SSE `retry`, ms) the server last set on this request's response
    /// stream: kept for every later resumption of it, as an `EventSource` keeps it, until the
    /// server sets another.
    resume_retry_ms: Option<u64>,
    input_rounds: u32,
    /// A HeaderMismatch already caused one refresh-and-retry.
    header_retry: bool,
    /// MRTR: answers and state to send with the next attempt.
    retry_extra: Option<RetryExtra>,
    /// A cacheable request (not [`CacheMode::Bypass`]): its answer may be kept.
    cache_ticket: Option<cache::CacheTicket>,
    /// [`CacheMode::Use`]: if asking fails for want of the server, a kept answer that is no
    /// longer fresh may be served instead.
    stale_if_error: bool,
    /// A listing sent alongside the era probe, in the modern era with this protocol version,
    /// before the server's era was known: it stands only if the probe finds a modern server
    /// speaking that version; otherwise it is sent again once connected, and its first
    /// answer is dropped.
    speculative: Option<String>,
}

impl Pending {
    /// A `subscriptions/listen` request: a stream that stays open.
    fn is_listen(&self) -> bool {
        self.method == "subscriptions/listen"
    }

    /// A request that tells the server to stop something (a `tasks/cancel`): closing lets it
    /// finish, unread, and it is sent so as to outlive the page.
    fn only_tells_the_server(&self) -> bool {
        self.method == "tasks/cancel"
    }
}

/// What an MRTR retry adds to the original request's params.
#[derive(Debug, Default)]
struct RetryExtra {
    /// `inputResponses`, keyed as the server keyed `inputRequests`.
    responses: Option<Map<String, Value>>,
    /// `requestState`, echoed verbatim.
    request_state: Option<String>,
}

/// An exchange that ended with a JSON body, while the messages of that body are dispatched
/// (the exchange itself is gone by then).
#[derive(Debug)]
struct EndedExchange {
    /// The exchange.
    tid: TransmitId,
    /// The request it answered.
    call: u64,
    /// Its response head, kept only for the wire log.
    head: Option<ResponseHead>,
}

/// Per-request options.
#[derive(Debug, Clone, Default)]
pub struct RequestOptions {
    /// Overrides the configured timeout for this request.
    pub timeout: Option<Duration>,
    /// Never time out (long-lived requests such as `subscriptions/listen`).
    pub no_timeout: bool,
    /// Ask for progress notifications.
    pub progress: bool,
    /// How the request uses the response cache (2026-07-28 servers' `ttlMs`; results of other
    /// servers are never kept).
    pub cache: CacheMode,
}

#[derive(Debug, Clone)]
enum Timer {
    Resume {
        key: u64,
        last_event_id: String,
    },
    ReopenGet,
    /// Open the 2024-11-05 HTTP+SSE stream again (after the session was lost).
    ReopenSse,
    /// Open the frames connection (WebSocket) again (after it closed).
    ReopenFrames,
    ProbeTimeout,
    InitializedWait,
}

#[derive(Debug, Clone)]
enum ServerRequestOrigin {
    /// A legacy JSON-RPC request to answer with a response message.
    Legacy(RequestId),
    /// One entry of an MRTR `inputRequests` map of a pending request.
    Input { key: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    /// Waiting for the frames connection to open.
    Opening,
    Probing,
    Initializing,
    /// 2024-11-05: waiting for the `endpoint` event.
    AwaitingEndpoint,
    Ready,
    AuthRequired,
    Failed,
    Closed,
}

/// The era-specific state once known.
#[derive(Debug, Clone, PartialEq)]
enum Flavor {
    Unknown,
    Modern {
        version: String,
    },
    Legacy {
        version: String,
        session_id: Option<String>,
    },
}

/// A sans-IO MCP client session. See the module docs for the run loop.
#[derive(Debug)]
pub struct Session {
    config: SessionConfig,
    phase: Phase,
    flavor: Flavor,
    wire: WireProtocol,
    /// Where POSTs go (the endpoint, or the 2024-11-05 `endpoint` event's URL).
    post_url: String,
    details: Option<ServerDetails>,
    out: VecDeque<Output>,
    exchanges: SortedMap<TransmitId, Exchange>,
    pending: SortedMap<u64, Pending>,
    by_rpc_id: SortedMap<RequestId, u64>,
    server_requests: SortedMap<ServerRequestId, ServerRequestOrigin>,
    timers: Vec<(Instant, Timer)>,
    tool_headers: SortedMap<String, Vec<headers::ParamHeader>>,
    next_transmit: u64,
    next_key: u64,
    next_rpc_id: i64,
    next_server_request: u64,
    get_stream: Option<TransmitId>,
    get_reconnects: u32,
    /// When the GET stream open now (or last) was answered.
    get_opened_at: Instant,
    /// The GET stream could not be kept open: it is opened again once a request is
    /// answered (the server is back).
    get_given_up: bool,
    /// The `Authorization` the GET stream open now (or last) was asked with.
    get_authorization: Option<String>,
    /// The GET stream was refused for want of authorization: it is opened again once the
    /// authorization changes ([`Session::set_extra_headers`]).
    get_awaits_credentials: bool,
    /// Attempts in a row to open the HTTP+SSE stream again after the session was lost.
    sse_reopens: u32,
    /// Attempts in a row to open the frames connection again after it closed.
    frames_reopens: u32,
    get_last_event_id: Option<String>,
    /// The reconnection time (SSE `retry`, ms) the server last set on the GET stream, kept
    /// for every later reopening until it sets another.
    get_retry_ms: Option<u64>,
    sse_main: Option<TransmitId>,
    /// A fresh `initialize` after a lost session was tried and nothing succeeded since.
    reinit_used: bool,
    /// Legacy era: the URIs of the resources subscribed to (`resources/subscribe` answered, no
    /// `resources/unsubscribe` since), each once; subscribed to again in a fresh session.
    legacy_subscriptions: Vec<String>,
    /// The probe failed below HTTP (kept to report if `initialize` fails the same way).
    probe_transport_failure: Option<RequestError>,
    /// How `initialize`, sent first on a remembered legacy era, was refused: the probe that
    /// follows decides, and a probe that finds no modern server goes on from this refusal
    /// instead of sending `initialize` again.
    hinted_refusal: Option<RequestError>,
    /// Version to probe with (changed by an `UnsupportedProtocolVersion` answer).
    probe_version: String,
    probe_retried: bool,
    probed: bool,
    /// Connected from [`SessionConfig::known_discover`] and the server has not answered a
    /// request yet: its first answer confirms that result or sends the session back to probing.
    discover_unverified: bool,
    tried_http_sse: bool,
    /// `Mcp-Session-Id` of the `initialize` response, until the result is accepted.
    pending_session_id: Option<String>,
    /// The ended exchange whose JSON body is being dispatched: its messages still need to
    /// know which request it answered and (for the wire log) its head.
    dispatching: Option<EndedExchange>,
    /// Legacy HTTP: the `notifications/initialized` POST, and the details to announce once
    /// the server has accepted it.
    awaiting_initialized: Option<(TransmitId, ServerDetails)>,
    /// The server accepted `notifications/initialized`.
    initialized_acked: bool,
    /// The GET stream opened with the handshake has not answered yet.
    awaiting_get_head: bool,
    /// Fresh results of cacheable requests (modern era).
    cache: cache::ResultCache,
}

/// The `Authorization` header among `headers`, if any.
fn authorization(headers: &[(String, String)]) -> Option<&str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| v.as_str())
}

impl Session {
    /// A session that will talk to `config.endpoint` once [`Session::connect`] is called.
    pub fn new(config: SessionConfig) -> Self {
        let wire = match config.transport {
            TransportMode::Frames => WireProtocol::Frames,
            TransportMode::HttpSse => WireProtocol::HttpSse,
            _ => WireProtocol::StreamableHttp,
        };
        Session {
            post_url: config.endpoint.clone(),
            config,
            phase: Phase::Idle,
            flavor: Flavor::Unknown,
            wire,
            details: None,
            out: VecDeque::new(),
            exchanges: SortedMap::new(),
            pending: SortedMap::new(),
            by_rpc_id: SortedMap::new(),
            server_requests: SortedMap::new(),
            timers: Vec::new(),
            tool_headers: SortedMap::new(),
            next_transmit: 1,
            next_key: 1,
            next_rpc_id: 1,
            next_server_request: 1,
            get_stream: None,
            get_reconnects: 0,
            sse_reopens: 0,
            get_opened_at: Instant(0),
            get_given_up: false,
            frames_reopens: 0,
            get_authorization: None,
            get_awaits_credentials: false,
            get_last_event_id: None,
            get_retry_ms: None,
            sse_main: None,
            reinit_used: false,
            legacy_subscriptions: Vec::new(),
            probe_transport_failure: None,
            hinted_refusal: None,
            probe_version: crate::types::MODERN_VERSION.into(),
            probe_retried: false,
            probed: false,
            discover_unverified: false,
            tried_http_sse: false,
            pending_session_id: None,
            dispatching: None,
            awaiting_initialized: None,
            initialized_acked: false,
            awaiting_get_head: false,
            cache: cache::ResultCache::default(),
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Replaces the extra headers (e.g. a new `Authorization` after logging in).
    /// A legacy GET stream refused for want of authorization is opened again with the new
    /// one (poll the output after this).
    pub fn set_extra_headers(&mut self, headers: Vec<(String, String)>) {
        let changed = authorization(&headers) != authorization(&self.config.extra_headers);
        if changed {
            // Another authorization context: results the server scoped to the previous one
            // may not be served in this one.
            self.cache.drop_private();
        }
        self.config.extra_headers = headers;
        if changed && self.get_awaits_credentials {
            self.get_awaits_credentials = false;
            self.get_reconnects = 0;
            self.open_get_stream();
        }
    }

    /// Changes the minimum log level asked of a modern server on every later request (for a
    /// legacy server, send `logging/setLevel` as well).
    pub fn set_log_level(&mut self, level: Option<crate::types::LoggingLevel>) {
        self.config.log_level = level;
    }

    /// The connection state.
    pub fn state(&self) -> ConnectionState {
        match self.phase {
            Phase::Idle => ConnectionState::Idle,
            Phase::Opening | Phase::Probing | Phase::Initializing | Phase::AwaitingEndpoint => {
                if self.details.is_some() {
                    ConnectionState::Reconnecting
                } else {
                    ConnectionState::Connecting
                }
            }
            Phase::Ready => ConnectionState::Connected,
            Phase::AuthRequired => ConnectionState::AuthRequired,
            Phase::Failed => ConnectionState::Failed,
            Phase::Closed => ConnectionState::Closed,
        }
    }

    /// What the server told us when we connected.
    pub fn server_details(&self) -> Option<&ServerDetails> {
        self.details.as_ref()
    }

    /// The legacy session id, if the server assigned one.
    pub fn session_id(&self) -> Option<&str> {
        match &self.flavor {
            Flavor::Legacy { session_id, .. } => session_id.as_deref(),
            _ => None,
        }
    }

    /// The next output to act on.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// When the session next wants [`Input::Timeout`].
    pub fn poll_timeout(&self) -> Option<Instant> {
        let deadlines = self.pending.values().filter_map(|p| match p.state {
            // A held answer waits for the probe, which has its own time limit.
            PendingState::AwaitingInput { .. } | PendingState::Held(_) => None,
            _ => p.deadline,
        });
        let timers = self.timers.iter().map(|(at, _)| *at);
        deadlines.chain(timers).min()
    }

    /// Starts (or restarts, e.g. after logging in) connecting.
    pub fn connect(&mut self, now: Instant) {
        if self.phase == Phase::Closed {
            return;
        }
        self.probed = false;
        self.discover_unverified = false;
        self.probe_retried = false;
        self.tried_http_sse = false;
        self.probe_transport_failure = None;
        self.hinted_refusal = None;
        // Asked for by the application: a connection that cannot be opened fails at once (it
        // is opened again by itself only once it was made).
        self.frames_reopens = self.config.max_stream_reconnects;
        // A new connection: the server, its era or its version may have changed.
        self.cache.clear();
        self.set_phase(Phase::Idle);
        match self.config.transport {
            TransportMode::Frames => {
                self.set_phase(Phase::Opening);
                self.out.push_back(Output::OpenFrames);
            }
            TransportMode::HttpSse => self.open_http_sse(now),
            _ => self.start_handshake(now),
        }
    }

    /// Sends a request (queued until connected). Its outcome arrives as [`Event::Response`].
    pub fn request(
        &mut self,
        method: impl Into<String>,
        params: Option<Value>,
        options: RequestOptions,
        now: Instant,
    ) -> RequestHandle {
        let method = method.into();
        let cache_key = cache::CacheKey::of(&method, params.as_ref());
        let cache_key = match (options.cache, cache_key) {
            (CacheMode::Bypass, Some(k)) => {
                // The server's answer will be newer than what was kept: never serve the older
                // one after it (for `tools/list`, the header rules follow the newer list).
                self.cache.evict(k);
                None
            }
            (_, k) => k,
        };
        if let Some(k) = &cache_key {
            if options.cache == CacheMode::Use && self.phase == Phase::Ready {
                if let Some((v, fresh_for)) = self.cache.lookup(k, now) {
                    // Fresh: answered without asking the server, as an answer would be.
                    let result = Ok(v.clone());
                    let handle = self.reserve_handle();
                    self.emit(Event::Cached {
                        handle,
                        method,
                        fresh_for,
                    });
                    self.emit(Event::Response { handle, result });
                    return handle;
                }
            }
        }
        let send_now = self.may_send(&method) || self.may_speculate(&method);
        let key = self.add_pending(Internal::No, method, params, &options, now);
        if let (Some(k), Some(p)) = (cache_key, self.pending.get_mut(&key)) {
            p.cache_ticket = Some(self.cache.ticket(k));
            p.stale_if_error = options.cache == CacheMode::Use;
        }
        if matches!(self.phase, Phase::Closed | Phase::Failed) {
            let why = if self.phase == Phase::Closed {
                RequestError::Closed
            } else {
                RequestError::Unavailable("not connected".into())
            };
            self.finish_err(key, why);
        } else if send_now {
            self.send_pending(key, now);
        }
        RequestHandle(key)
    }

    /// A handle that names no request yet, unique among this session's handles: for a
    /// request the application makes later (after another one completes) and may cancel
    /// before it exists. Cancelling it with [`Session::cancel`] does nothing.
    pub fn reserve_handle(&mut self) -> RequestHandle {
        let key = self.next_key;
        self.next_key += 1;
        RequestHandle(key)
    }

    /// Opens a modern `subscriptions/listen` stream (legacy servers: use the GET stream and
    /// `resources/subscribe` instead). Notifications arrive with `subscription: Some(handle)`.
    pub fn listen(&mut self, filter: SubscriptionFilter, now: Instant) -> RequestHandle {
        let params = serde_json::json!({ "notifications": filter });
        let opts = RequestOptions {
            no_timeout: true,
            ..Default::default()
        };
        self.request("subscriptions/listen", Some(params), opts, now)
    }

    /// The JSON-RPC id that request `handle` went out with, once it has been sent and while it
    /// is under way (a request sent again gets a new one: this is the latest). `None` while
    /// it waits to be sent, and once it has ended.
    pub fn wire_id(&self, handle: RequestHandle) -> Option<&RequestId> {
        self.pending
            .get(&handle.0)
            .filter(|p| !matches!(p.state, PendingState::Queued))
            .map(|p| &p.rpc_id)
    }

    /// Whether request `handle` is still under way: waiting to be sent, sent, or (a stream)
    /// still open. False once it has ended, however it ended.
    pub fn is_under_way(&self, handle: RequestHandle) -> bool {
        self.pending.contains_key(&handle.0)
    }

    /// Sends a notification (fire and forget).
    pub fn notify(&mut self, method: &str, params: Option<Value>) {
        let msg = Message::notification(method, params);
        self.send_fire(msg, method);
    }

    /// Cancels a request: its stream is closed (modern) and/or `notifications/cancelled` sent
    /// (legacy and frames); it ends with [`RequestError::Cancelled`].
    pub fn cancel(&mut self, handle: RequestHandle, _now: Instant) {
        if self.pending.contains_key(&handle.0) {
            self.abandon(handle.0, "cancelled by the user");
            self.finish_err(handle.0, RequestError::Cancelled);
        }
    }

    /// Answers a server request ([`Event::ServerRequest`]) with a result or an error.
    pub fn answer(
        &mut self,
        id: ServerRequestId,
        answer: Result<Value, ErrorObject>,
        now: Instant,
    ) {
        let Some(origin) = self.server_requests.remove(&id) else {
            return;
        };
        match origin {
            ServerRequestOrigin::Legacy(rpc_id) => {
                let msg = match answer {
                    Ok(v) => Message::result(rpc_id, v),
                    Err(e) => Message::error(Some(rpc_id), e),
                };
                self.send_fire(msg, "");
            }
            ServerRequestOrigin::Input { key } => self.answer_input(key, id, answer, now),
        }
    }

    /// Closes the session: aborts everything, ends the legacy session with DELETE.
    pub fn close(&mut self, _now: Instant) {
        if self.phase == Phase::Closed {
            return;
        }
        let keys: Vec<u64> = self.pending.keys().copied().collect();
        // What only tells the server something still reaches it: a `tasks/cancel` sent, the
        // notifications (`notifications/cancelled` for the requests stopped here). Their
        // exchanges are let finish, unread; requests awaiting an answer and streams stop.
        let mut delivered: Vec<TransmitId> = Vec::new();
        for key in keys {
            match self.pending.get(&key) {
                Some(p) if p.only_tells_the_server() => {
                    if let PendingState::InFlight(Some(tid)) = p.state {
                        delivered.push(tid);
                    }
                }
                _ => self.abandon(key, "the client is closing"),
            }
            self.finish_err(key, RequestError::Closed);
        }
        let tids: Vec<TransmitId> = self
            .exchanges
            .iter()
            .filter(|(tid, ex)| ex.purpose != Purpose::Fire && !delivered.contains(tid))
            .map(|(tid, _)| *tid)
            .collect();
        for tid in tids {
            self.out.push_back(Output::Abort(tid));
        }
        self.exchanges.clear();
        self.timers.clear();
        self.server_requests.clear();
        if let (WireProtocol::StreamableHttp, Some(sid)) =
            (self.wire, self.session_id().map(String::from))
        {
            let mut headers = self.base_headers();
            headers.push(("Mcp-Session-Id".into(), sid));
            self.push_http(
                Purpose::Delete,
                HttpMethod::Delete,
                self.config.endpoint.clone(),
                headers,
                None,
            );
        }
        if self.wire == WireProtocol::Frames {
            self.out.push_back(Output::CloseFrames);
        }
        // Said once, by the state's change (`Event::State(ConnectionState::Closed)`).
        self.set_phase(Phase::Closed);
    }

    /// Feeds one input. Drain [`Session::poll_output`] afterwards.
    pub fn handle_input(&mut self, input: Input<'_>, now: Instant) {
        match input {
            Input::ResponseHead(tid, head) => self.on_head(tid, head, now),
            Input::BodyChunk(tid, bytes) => self.on_chunk(tid, bytes, now),
            Input::BodyEnd(tid) => self.on_end(tid, None, now),
            Input::TransportError(tid, failure) => self.on_end(tid, Some(failure), now),
            Input::FramesOpened => {
                if self.phase == Phase::Opening {
                    self.start_handshake(now);
                }
            }
            Input::Frame(bytes) => self.on_frame(bytes, now),
            Input::FramesClosed(why) => self.on_frames_closed(why, now),
            Input::Timeout => self.on_timeout(now),
        }
    }

    // ----- sending -----

    fn add_pending(
        &mut self,
        internal: Internal,
        method: String,
        params: Option<Value>,
        o: &RequestOptions,
        now: Instant,
    ) -> u64 {
        let key = self.next_key;
        self.next_key += 1;
        let timeout = if o.no_timeout {
            None
        } else {
            Some(o.timeout.unwrap_or(self.config.request_timeout))
        };
        let progress_token = o
            .progress
            .then(|| RequestId::String(alloc::format!("p{key}")));
        self.pending.insert(
            key,
            Pending {
                internal,
                method,
                params,
                rpc_id: RequestId::Number(0),
                state: PendingState::Queued,
                started: now,
                deadline: timeout.map(|t| now + t),
                timeout,
                progress_token,
                reissues: 0,
                resumes: 0,
                resume_from: None,
                resume_retry_ms: None,
                input_rounds: 0,
                header_retry: false,
                retry_extra: None,
                cache_ticket: None,
                stale_if_error: false,
                speculative: None,
            },
        );
        key
    }

    fn modern_version(&self) -> Option<&str> {
        match &self.flavor {
            Flavor::Modern { version } => Some(version),
            _ => None,
        }
    }

    /// Builds the params of a request as sent: `_meta` with per-request fields (modern), the
    /// progress token, and MRTR answers.
    fn params_for_wire(&self, p: &Pending) -> Option<Value> {
        let modern = self.wire_version(p.internal, p.speculative.as_deref());
        let needs_meta = modern.is_some() || p.progress_token.is_some();
        if !needs_meta && p.retry_extra.is_none() {
            return p.params.clone();
        }
        let mut obj = match &p.params {
            Some(Value::Object(m)) => m.clone(),
            None => Map::new(),
            Some(other) => return Some(other.clone()),
        };
        if needs_meta {
            let mut meta = match obj.remove("_meta") {
                Some(Value::Object(m)) => m,
                _ => Map::new(),
            };
            if let Some(v) = modern {
                meta.insert(meta_keys::PROTOCOL_VERSION.into(), Value::String(v.into()));
                meta.insert(
                    meta_keys::CLIENT_INFO.into(),
                    serde_json::to_value(&self.config.client_info).unwrap_or(Value::Null),
                );
                let mut caps =
                    serde_json::to_value(&self.config.capabilities).unwrap_or(Value::Null);
                if let Value::Object(c) = &mut caps {
                    // Tasks are a 2025-11-25 capability (an extension from 2026-07-28 on).
                    c.remove("tasks");
                    if self.config.tasks_extension {
                        let ext = c
                            .entry("extensions")
                            .or_insert_with(|| Value::Object(Map::new()));
                        if let Value::Object(ext) = ext {
                            ext.insert(TASKS_EXTENSION.into(), Value::Object(Map::new()));
                        }
                    }
                }
                meta.insert(meta_keys::CLIENT_CAPABILITIES.into(), caps);
                if let Some(level) = self.config.log_level {
                    meta.insert(
                        meta_keys::LOG_LEVEL.into(),
                        serde_json::to_value(level).unwrap_or(Value::Null),
                    );
                }
            }
            if let Some(t) = &p.progress_token {
                meta.insert(
                    meta_keys::PROGRESS_TOKEN.into(),
                    serde_json::to_value(t).unwrap_or(Value::Null),
                );
            }
            obj.insert("_meta".into(), Value::Object(meta));
        }
        if let Some(RetryExtra {
            responses,
            request_state,
        }) = &p.retry_extra
        {
            if let Some(r) = responses {
                obj.insert("inputResponses".into(), Value::Object(r.clone()));
            }
            if let Some(s) = request_state {
                obj.insert("requestState".into(), Value::String(s.clone()));
            }
        }
        Some(Value::Object(obj))
    }

    fn base_headers(&self) -> Vec<(String, String)> {
        let mut h: Vec<(String, String)> = Vec::new();
        h.extend(self.config.extra_headers.iter().cloned());
        h
    }

    /// The modern protocol version a request goes out with, if any: the probe's for the probe
    /// and for a listing sent alongside it (`speculative`), none for `initialize`, else the
    /// session's.
    fn wire_version<'a>(
        &'a self,
        internal: Internal,
        speculative: Option<&'a str>,
    ) -> Option<&'a str> {
        match internal {
            Internal::Probe => Some(self.probe_version.as_str()),
            Internal::Initialize => None,
            _ => speculative.or_else(|| self.modern_version()),
        }
    }

    fn post_headers(
        &self,
        method: &str,
        params: Option<&Value>,
        internal: Internal,
        speculative: Option<&str>,
    ) -> Vec<(String, String)> {
        let mut h = self.base_headers();
        h.push(("Content-Type".into(), "application/json".into()));
        h.push((
            "Accept".into(),
            "application/json, text/event-stream".into(),
        ));
        let modern = self.wire_version(internal, speculative).map(String::from);
        match (&self.flavor, modern) {
            (_, Some(version)) => {
                h.push(("MCP-Protocol-Version".into(), version));
                if !method.is_empty() {
                    h.push(("Mcp-Method".into(), method.into()));
                }
                if let Some(name) = headers::mcp_name_source(method, params) {
                    h.push(("Mcp-Name".into(), headers::encode_header_value(name)));
                }
                if method == "tools/call" {
                    let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str);
                    if let Some(hs) = tool.and_then(|t| self.tool_headers.get(t)) {
                        h.extend(headers::param_header_values(
                            hs,
                            params.and_then(|p| p.get("arguments")),
                        ));
                    }
                }
            }
            (
                Flavor::Legacy {
                    version,
                    session_id,
                },
                None,
            ) if internal != Internal::Initialize => {
                if version.as_str() >= "2025-06-18" {
                    h.push(("MCP-Protocol-Version".into(), version.clone()));
                }
                if let Some(sid) = session_id {
                    h.push(("Mcp-Session-Id".into(), sid.clone()));
                }
            }
            _ => {}
        }
        h
    }

    fn push_http(
        &mut self,
        purpose: Purpose,
        method: HttpMethod,
        url: String,
        headers: Vec<(String, String)>,
        body: Option<Vec<u8>>,
    ) -> TransmitId {
        let id = TransmitId(self.next_transmit);
        self.next_transmit += 1;
        let listen = match purpose {
            Purpose::Call(key) => self.pending.get(&key).is_some_and(Pending::is_listen),
            _ => false,
        };
        let long_lived = listen
            || matches!(
                purpose,
                Purpose::Resume(_) | Purpose::GetStream | Purpose::SseMain
            );
        // What only waits for the server's own messages may be held back by the I/O layer:
        // the legacy standalone GET stream, and a `subscriptions/listen` stream unless it
        // replaces one still open (that one closes only once its successor is acknowledged:
        // held back, the successor could wait for the place its predecessor holds).
        let may_wait = purpose == Purpose::GetStream
            || (listen && self.pending.iter().filter(|(_, p)| p.is_listen()).count() == 1);
        let tells_only = match purpose {
            Purpose::Delete | Purpose::Fire => true,
            Purpose::Call(key) => self
                .pending
                .get(&key)
                .is_some_and(Pending::only_tells_the_server),
            Purpose::Resume(_) | Purpose::GetStream | Purpose::SseMain => false,
        };
        let keepalive =
            tells_only && body.as_ref().map_or(0, Vec::len) <= crate::http::KEEPALIVE_BODY_LIMIT;
        self.exchanges.insert(id, Exchange::new(purpose));
        self.out.push_back(Output::Http(HttpRequest {
            id,
            method,
            url,
            headers,
            body,
            keepalive,
            may_wait,
            long_lived,
        }));
        id
    }

    fn wire_out(&mut self, msg: &Message, transmit: Option<TransmitId>) {
        if self.config.wire_log {
            let headers = transmit
                .and_then(|t| {
                    self.out.iter().rev().find_map(|o| match o {
                        Output::Http(r) if r.id == t => Some(r.headers.clone()),
                        _ => None,
                    })
                })
                .unwrap_or_default();
            self.emit(Event::Wire {
                direction: Direction::Sent,
                transmit,
                status: None,
                headers,
                message: msg.to_value(),
            });
        }
    }

    fn send_pending(&mut self, key: u64, now: Instant) {
        let rpc_id = RequestId::Number(self.next_rpc_id);
        self.next_rpc_id += 1;
        let Some(p) = self.pending.get(&key) else {
            return;
        };
        let old = p.rpc_id.clone();
        let internal = p.internal;
        // An application's request sent while the era is being probed goes alongside the
        // probe, in the era and version the probe asks in.
        let speculative = (internal == Internal::No && self.phase == Phase::Probing)
            .then(|| self.probe_version.clone());
        if let Some(p) = self.pending.get_mut(&key) {
            p.speculative = speculative.clone();
        }
        let Some(p) = self.pending.get(&key) else {
            return;
        };
        let params = self.params_for_wire(p);
        let method = p.method.clone();
        self.by_rpc_id.remove(&old);
        self.by_rpc_id.insert(rpc_id.clone(), key);
        let msg = Message::request(rpc_id.clone(), method.clone(), params);
        let transmit = if self.wire == WireProtocol::Frames {
            self.wire_out(&msg, None);
            self.out.push_back(Output::Frame(msg.encode()));
            None
        } else {
            let headers = self.post_headers(
                &method,
                match &msg {
                    Message::Request(r) => r.params.as_ref(),
                    _ => None,
                },
                internal,
                speculative.as_deref(),
            );
            let tid = self.push_http(
                Purpose::Call(key),
                HttpMethod::Post,
                self.post_url.clone(),
                headers,
                Some(msg.encode()),
            );
            self.wire_out(&msg, Some(tid));
            Some(tid)
        };
        if let Some(p) = self.pending.get_mut(&key) {
            p.rpc_id = rpc_id;
            p.state = PendingState::InFlight(transmit);
            // A new request has a new response stream: nothing to resume from yet.
            p.resume_from = None;
            p.resume_retry_ms = None;
            if p.deadline.is_none() {
                p.deadline = p.timeout.map(|t| now + t);
            }
        }
    }

    /// Sends a notification or a response to a server request.
    fn send_fire(&mut self, msg: Message, method: &str) {
        if self.wire == WireProtocol::Frames {
            if self.phase == Phase::Opening {
                // No socket to send it on yet (it is being opened, or opened again): dropped,
                // as on a closed one, rather than failing the socket being opened.
                let what = if method.is_empty() {
                    "an answer to the server"
                } else {
                    method
                };
                self.emit(Event::Warning(alloc::format!(
                    "{what} was not sent: the connection is not open"
                )));
                return;
            }
            self.wire_out(&msg, None);
            self.out.push_back(Output::Frame(msg.encode()));
            return;
        }
        let params = match &msg {
            Message::Notification(n) => n.params.clone(),
            _ => None,
        };
        let headers = self.post_headers(method, params.as_ref(), Internal::No, None);
        let tid = self.push_http(
            Purpose::Fire,
            HttpMethod::Post,
            self.post_url.clone(),
            headers,
            Some(msg.encode()),
        );
        self.wire_out(&msg, Some(tid));
    }

    /// Stops work on a pending request on the wire: closes its stream, and tells the server
    /// with `notifications/cancelled` where the transport needs that (legacy era, frames).
    fn abandon(&mut self, key: u64, reason: &str) {
        let Some(p) = self.pending.get(&key) else {
            return;
        };
        let in_flight = match p.state {
            PendingState::InFlight(t) => Some(t),
            PendingState::Resuming => Some(None),
            _ => None,
        };
        let rpc_id = p.rpc_id.clone();
        let is_initialize = p.method == "initialize";
        let Some(tid) = in_flight else { return };
        if let Some(tid) = tid {
            self.exchanges.remove(&tid);
            self.out.push_back(Output::Abort(tid));
        }
        let modern_http =
            self.wire != WireProtocol::Frames && matches!(self.flavor, Flavor::Modern { .. });
        if !modern_http && !is_initialize && self.phase == Phase::Ready {
            let params = serde_json::json!({ "requestId": rpc_id, "reason": reason });
            self.notify("notifications/cancelled", Some(params));
        }
    }

    fn emit(&mut self, e: Event) {
        self.out.push_back(Output::Event(e));
    }

    fn set_phase(&mut self, phase: Phase) {
        if self.phase == Phase::Probing && !matches!(phase, Phase::Probing | Phase::Ready) {
            // The probe found no modern server (or cannot go on): what went alongside it
            // waits for the connection to come.
            self.requeue_speculative();
        }
        let before = self.state();
        self.phase = phase;
        let after = self.state();
        if before != after {
            self.emit(Event::State(after));
        }
    }

    // ----- finishing requests -----

    fn finish_err(&mut self, key: u64, err: RequestError) {
        self.finish(key, Err(err), None);
    }

    /// Ends a pending request with an outcome (a raw result value or an error).
    fn finish(&mut self, key: u64, outcome: Result<Value, RequestError>, now: Option<Instant>) {
        let Some(p) = self.pending.get(&key) else {
            return;
        };
        match p.internal {
            Internal::Probe | Internal::Initialize => {
                let p = self.remove_pending(key);
                let now = now.unwrap_or(p.started);
                if p.internal == Internal::Probe {
                    self.on_probe_outcome(outcome, now);
                } else {
                    self.on_initialize_outcome(outcome, now);
                }
            }
            Internal::Quiet => {
                self.remove_pending(key);
                if let Err(e) = outcome {
                    self.emit(Event::Warning(alloc::format!(
                        "background request failed: {e}"
                    )));
                }
            }
            Internal::RefreshTools { call, page } => {
                let p = self.remove_pending(key);
                let now = now.unwrap_or(p.started);
                let mut next_page = None;
                if let Ok(mut v) = outcome {
                    self.filter_tools(&mut v);
                    // The fresh page replaces a cached one (the server's tools changed).
                    self.keep_result(p.cache_ticket, &v, now);
                    next_page = self.refresh_continues(call, page, p.params.as_ref(), &v);
                }
                match next_page {
                    Some(cursor) => self.refresh_tools(call, page + 1, Some(cursor), now),
                    None if self.pending.contains_key(&call) => self.send_pending(call, now),
                    None => {}
                }
            }
            Internal::No
                if p.speculative.is_some() && self.phase == Phase::Probing && now.is_some() =>
            {
                // Answered before the probe: held until the probe says which era this is.
                if let Some(p) = self.pending.get_mut(&key) {
                    p.state = PendingState::Held(outcome);
                }
            }
            Internal::No => {
                let (started, method, header_retry) = (p.started, p.method.clone(), p.header_retry);
                if self.discover_unverified && self.kept_discover_refuted(&outcome) {
                    self.reprobe_after_kept_discover(key, now.unwrap_or(started));
                    return;
                }
                if let Err(RequestError::Rpc(e)) = &outcome {
                    if e.code == crate::jsonrpc::codes::HEADER_MISMATCH
                        && method == "tools/call"
                        && !header_retry
                        && self.modern_version().is_some()
                    {
                        // The spec's advice: re-read the tool definitions (their x-mcp-header
                        // annotations may have changed), then send the call again, once.
                        if let Some(p) = self.pending.get_mut(&key) {
                            p.header_retry = true;
                            p.state = PendingState::InFlight(None);
                        }
                        self.refresh_tools(key, 0, None, now.unwrap_or_default());
                        return;
                    }
                }
                match outcome {
                    Ok(value) => {
                        if self.is_input_required(&method, &value) {
                            self.on_input_required(key, value, now.unwrap_or_default());
                            return;
                        }
                        let p = self.remove_pending(key);
                        self.reinit_used = false;
                        if self.get_given_up {
                            // The server answers again: so may its event stream.
                            self.get_given_up = false;
                            self.get_reconnects = 0;
                            self.open_get_stream();
                        }
                        if matches!(
                            method.as_str(),
                            "resources/subscribe" | "resources/unsubscribe"
                        ) {
                            self.note_subscription(&method, p.params.as_ref());
                        }
                        let mut value = value;
                        let result = if let Some(refused) = self.refused_task(&method, &value) {
                            Err(RequestError::Protocol(refused))
                        } else if value.is_object() {
                            if method == "tools/list" {
                                self.filter_tools(&mut value);
                            }
                            // Never the outcome of MRTR rounds (it depends on answers the
                            // cache key does not cover).
                            if p.input_rounds == 0 {
                                self.keep_result(p.cache_ticket, &value, now.unwrap_or(p.started));
                            }
                            Ok(value)
                        } else {
                            Err(RequestError::Protocol(alloc::format!(
                                "malformed {method} result: not a JSON object"
                            )))
                        };
                        self.emit(Event::Response {
                            handle: RequestHandle(key),
                            result,
                        });
                    }
                    Err(e) => {
                        let p = self.remove_pending(key);
                        if let RequestError::Rpc(err) = &e {
                            self.cache
                                .evict_for_refusal(&method, p.params.as_ref(), err.code);
                        }
                        let now = now.unwrap_or(p.started);
                        let stale = match (&p.cache_ticket, p.stale_if_error) {
                            (Some(t), true) if e.server_unavailable() => {
                                self.cache.stale(&t.key, now)
                            }
                            _ => None,
                        };
                        if let Some((value, age)) = stale {
                            let value = value.clone();
                            self.emit(Event::ServedStale {
                                handle: RequestHandle(key),
                                method,
                                age,
                                error: e,
                            });
                            self.emit(Event::Response {
                                handle: RequestHandle(key),
                                result: Ok(value),
                            });
                            return;
                        }
                        self.emit(Event::Response {
                            handle: RequestHandle(key),
                            result: Err(e),
                        });
                    }
                }
            }
        }
    }

    /// Asks for a page of `tools/list` (the first when `cursor` is `None`) on the way to
    /// sending the call `call` again after a HeaderMismatch.
    fn refresh_tools(&mut self, call: u64, page: u32, cursor: Option<String>, now: Instant) {
        let params = cursor.map(|c| serde_json::json!({ "cursor": c }));
        let ticket =
            cache::CacheKey::of("tools/list", params.as_ref()).map(|k| self.cache.ticket(k));
        let internal = Internal::RefreshTools { call, page };
        let opts = RequestOptions::default();
        let list = self.add_pending(internal, "tools/list".into(), params, &opts, now);
        if let Some(p) = self.pending.get_mut(&list) {
            p.cache_ticket = ticket;
        }
        self.send_pending(list, now);
    }

    /// The cursor of the next `tools/list` page to read after a HeaderMismatch, or `None` once
    /// the called tool's definition was on this page, the list ended (or repeats its cursor), the
    /// call is gone or [`MAX_REFRESH_PAGES`] were read.
    fn refresh_continues(
        &self,
        call: u64,
        page: u32,
        params: Option<&Value>,
        list: &Value,
    ) -> Option<String> {
        let name = self
            .pending
            .get(&call)?
            .params
            .as_ref()?
            .get("name")?
            .as_str()?;
        let tools = list.get("tools").and_then(Value::as_array)?;
        if tools
            .iter()
            .any(|t| t.get("name").and_then(Value::as_str) == Some(name))
        {
            return None;
        }
        let next = list.get("nextCursor").and_then(Value::as_str)?;
        let cursor = params.and_then(|p| p.get("cursor")).and_then(Value::as_str);
        (cursor != Some(next) && page + 1 < MAX_REFRESH_PAGES).then(|| next.into())
    }

    /// Keeps the answer to a cacheable request (one with a ticket) for as long as the server
    /// said it stays fresh; only a modern server's hints count.
    fn keep_result(&mut self, ticket: Option<cache::CacheTicket>, value: &Value, now: Instant) {
        if let (Some(ticket), Some(_)) = (ticket, self.modern_version()) {
            self.cache.store(ticket, value, now);
        }
    }

    fn remove_pending(&mut self, key: u64) -> Pending {
        // Callers check presence first; an absent key yields an inert placeholder.
        let p = self.pending.remove(&key).unwrap_or(Pending {
            internal: Internal::Quiet,
            method: String::new(),
            params: None,
            rpc_id: RequestId::Number(0),
            state: PendingState::Queued,
            started: Instant(0),
            deadline: None,
            timeout: None,
            progress_token: None,
            reissues: 0,
            resumes: 0,
            resume_from: None,
            resume_retry_ms: None,
            input_rounds: 0,
            header_retry: false,
            retry_extra: None,
            cache_ticket: None,
            stale_if_error: false,
            speculative: None,
        });
        self.by_rpc_id.remove(&p.rpc_id);
        self.server_requests
            .retain(|_, o| !matches!(o, ServerRequestOrigin::Input { key: k } if *k == key));
        self.timers
            .retain(|(_, t)| !matches!(t, Timer::Resume { key: k, .. } if *k == key));
        p
    }

    /// Applies the client-side rules to a `tools/list` result: tools with invalid
    /// `x-mcp-header` annotations are removed (modern Streamable HTTP), valid annotations are
    /// remembered for calls.
    fn filter_tools(&mut self, list: &mut Value) {
        if self.modern_version().is_none() || self.wire == WireProtocol::Frames {
            return;
        }
        let Some(tools) = list.get_mut("tools").and_then(Value::as_array_mut) else {
            return;
        };
        let mut rejected = Vec::new();
        tools.retain(|tool| {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                return true; // not a tool: the application's decoder reports it
            };
            let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
            match headers::param_headers(schema) {
                Ok(hs) => {
                    if hs.is_empty() {
                        self.tool_headers.remove(name);
                    } else {
                        self.tool_headers.insert(name.into(), hs);
                    }
                    true
                }
                Err(e) => {
                    rejected.push((name.into(), e.to_string()));
                    false
                }
            }
        });
        for (name, reason) in rejected {
            self.emit(Event::ToolRejected { name, reason });
        }
    }

    /// Why a result that is a task (`resultType: "task"`, the Tasks extension) cannot be
    /// taken as the answer to `method`; `None` for any other result, or a task this session
    /// may be given (a `tools/call` of a modern session that declared the extension).
    fn refused_task(&self, method: &str, value: &Value) -> Option<String> {
        if value.get("resultType").and_then(Value::as_str) != Some("task") {
            return None;
        }
        if !(self.config.tasks_extension && self.modern_version().is_some()) {
            return Some(alloc::format!(
                "the server answered {method} with a task, but this client did not declare \
                 the tasks extension ({TASKS_EXTENSION})"
            ));
        }
        if method != "tools/call" {
            return Some(alloc::format!(
                "the server answered {method} with a task: only tools/call may run as one"
            ));
        }
        None
    }

    // ----- MRTR -----

    fn is_input_required(&self, method: &str, value: &Value) -> bool {
        value.get("resultType").and_then(Value::as_str) == Some("input_required")
            && (supports_input_required(method) || self.modern_version().is_some())
    }

    fn on_input_required(&mut self, key: u64, value: Value, now: Instant) {
        let Some(p) = self.pending.get_mut(&key) else {
            return;
        };
        if !supports_input_required(&p.method) {
            let m = p.method.clone();
            self.finish_err(
                key,
                RequestError::Protocol(alloc::format!("{m} may not answer input_required")),
            );
            return;
        }
        let parsed = crate::types::InputRequiredResult::deserialize(&value);
        let Ok(ir) = parsed else {
            self.finish_err(
                key,
                RequestError::Protocol("malformed InputRequiredResult".into()),
            );
            return;
        };
        p.input_rounds += 1;
        if p.input_rounds > self.config.max_input_rounds {
            let n = self.config.max_input_rounds;
            self.finish_err(
                key,
                RequestError::Protocol(alloc::format!(
                    "the server asked for input more than {n} times"
                )),
            );
            return;
        }
        let requests = ir.input_requests.unwrap_or_default();
        if requests.is_empty() && ir.request_state.is_none() {
            self.finish_err(
                key,
                RequestError::Protocol(
                    "InputRequiredResult with neither inputRequests nor requestState".into(),
                ),
            );
            return;
        }
        p.retry_extra = Some(RetryExtra {
            responses: None,
            request_state: ir.request_state,
        });
        if requests.is_empty() {
            self.send_pending(key, now);
            return;
        }
        let mut waiting = SortedMap::new();
        let mut events = Vec::new();
        for (name, req) in requests {
            let id = ServerRequestId(self.next_server_request);
            self.next_server_request += 1;
            match crate::types::ServerRequest::decode(&req.method, req.params) {
                Ok(request) => {
                    waiting.insert(id, name);
                    events.push(Event::ServerRequest {
                        id,
                        request,
                        related: Some(RequestHandle(key)),
                    });
                }
                Err(e) => {
                    self.finish_err(
                        key,
                        RequestError::Protocol(alloc::format!(
                            "malformed input request {name:?}: {e}"
                        )),
                    );
                    return;
                }
            }
        }
        for id in waiting.keys() {
            self.server_requests
                .insert(*id, ServerRequestOrigin::Input { key });
        }
        if let Some(p) = self.pending.get_mut(&key) {
            p.state = PendingState::AwaitingInput {
                waiting,
                responses: Map::new(),
            };
            p.deadline = None;
        }
        for e in events {
            self.emit(e);
        }
    }

    fn answer_input(
        &mut self,
        key: u64,
        id: ServerRequestId,
        answer: Result<Value, ErrorObject>,
        now: Instant,
    ) {
        let value = match answer {
            Ok(v) => v,
            Err(e) => {
                self.finish_err(key, RequestError::InputRefused(e));
                return;
            }
        };
        let Some(p) = self.pending.get_mut(&key) else {
            return;
        };
        let PendingState::AwaitingInput { waiting, responses } = &mut p.state else {
            return;
        };
        if let Some(name) = waiting.remove(&id) {
            responses.insert(name, value);
        }
        if waiting.is_empty() {
            let responses = core::mem::take(responses);
            let request_state = p.retry_extra.take().and_then(|r| r.request_state);
            p.retry_extra = Some(RetryExtra {
                responses: Some(responses),
                request_state,
            });
            p.deadline = p.timeout.map(|t| now + t);
            self.send_pending(key, now);
        }
    }

    // ----- timers -----

    fn on_timeout(&mut self, now: Instant) {
        let expired: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| {
                !matches!(
                    p.state,
                    PendingState::AwaitingInput { .. } | PendingState::Held(_)
                ) && p.deadline.is_some_and(|d| d <= now)
            })
            .map(|(k, _)| *k)
            .collect();
        for key in expired {
            // The time limit the request had (a browser timer fires a little late: the
            // message names the limit, not the moment the timer ran).
            let after_ms = self.pending.get(&key).map_or(0, |p| {
                p.timeout
                    .map_or((now - p.started).as_millis(), |t| t.as_millis())
            });
            self.abandon(key, "timed out");
            self.finish(key, Err(RequestError::Timeout { after_ms }), Some(now));
        }
        let (due, later): (Vec<_>, Vec<_>) = core::mem::take(&mut self.timers)
            .into_iter()
            .partition(|(at, _)| *at <= now);
        self.timers = later;
        for (_, timer) in due {
            match timer {
                Timer::Resume { key, last_event_id } => self.resume_stream(key, last_event_id),
                Timer::ReopenGet => self.open_get_stream(),
                Timer::ReopenFrames => {
                    if self.phase == Phase::Opening {
                        self.out.push_back(Output::OpenFrames);
                    }
                }
                Timer::ReopenSse => {
                    if self.phase == Phase::AwaitingEndpoint && self.sse_main.is_none() {
                        self.open_http_sse(now);
                    }
                }
                Timer::InitializedWait => {
                    if let Some((_, details)) = self.awaiting_initialized.take() {
                        if self.phase == Phase::Initializing {
                            self.emit(Event::Warning(
                                "the server did not answer notifications/initialized; continuing"
                                    .into(),
                            ));
                            self.finish_legacy_handshake(details, now);
                        }
                    }
                    // Nor wait longer for a GET stream that does not answer.
                    self.get_stream_answered(now);
                }
                Timer::ProbeTimeout => {
                    let probe = self
                        .pending
                        .iter()
                        .find(|(_, p)| p.internal == Internal::Probe)
                        .map(|(k, _)| *k);
                    if let Some(key) = probe {
                        self.finish(
                            key,
                            Err(RequestError::Timeout {
                                after_ms: self.config.probe_timeout.as_millis(),
                            }),
                            Some(now),
                        );
                    }
                }
            }
        }
    }

    fn schedule(&mut self, at: Instant, timer: Timer) {
        self.timers.push((at, timer));
    }
}

/// Lets tests and the I/O layer name a request id in errors.
impl RequestHandle {
    /// The raw number.
    pub fn raw(self) -> u64 {
        self.0
    }
}
