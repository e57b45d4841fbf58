//! The session against scripted legacy servers: 2025-11-25 Streamable HTTP with sessions and
//! the GET stream, the 2024-11-05 HTTP+SSE transport, and message-per-frame (WebSocket).

mod support;

use client_core::http::{HttpMethod, HttpRequest, TransportFailure};
use client_core::session::*;
use client_core::time::Duration;
use client_core::types::*;
use client_core::{Session, SessionConfig};
use serde_json::{json, Value};
use support::peer::*;

/// How the legacy server answers the modern probe.
#[derive(Clone, Copy, PartialEq)]
enum ProbeAnswer {
    /// 400 with a JSON-RPC error that is not a modern one (server-everything does this).
    NotInitialized,
    /// 404 with an empty body.
    Plain404,
    /// A modern UnsupportedProtocolVersion listing only legacy versions (a dual-era server).
    OnlyLegacy,
    /// A network failure (e.g. CORS rejecting the modern headers).
    NetworkError,
}

struct Legacy {
    probe: ProbeAnswer,
    session: u32,
    /// The server forgets sessions: the next request with this session id gets this status.
    forget_with: Option<u16>,
    /// Always forget (to test the give-up path).
    always_forget: bool,
    get_status: u16,
    /// The next GET streams fail below HTTP (the server restarting).
    get_unreachable: u32,
    /// GET streams carry no event (an idle stream).
    get_quiet: bool,
    cuts_left: u32,
    inits: u32,
    /// How the next resumptions fail before one succeeds (a restarting server's gateway).
    resume_faults: Vec<ResumeFault>,
    /// `notifications/cancelled` and `tasks/cancel` get no answer (a slow network).
    slow_cancels: bool,
    /// The reconnection time (SSE `retry`, ms) the next GET stream sets, once.
    get_retry: Option<u64>,
}

/// How one resumption (GET with Last-Event-ID) fails.
#[derive(Debug, Clone, Copy)]
enum ResumeFault {
    /// 503 from a gateway while the server restarts.
    Unavailable,
    /// The stream opens and breaks before any event.
    EmptyCut,
}

impl Legacy {
    fn new(probe: ProbeAnswer) -> Self {
        Legacy {
            probe,
            session: 0,
            forget_with: None,
            always_forget: false,
            get_status: 200,
            get_unreachable: 0,
            get_quiet: false,
            cuts_left: 0,
            inits: 0,
            resume_faults: Vec::new(),
            slow_cancels: false,
            get_retry: None,
        }
    }
    fn sid(&self) -> String {
        format!("sess-{}", self.session)
    }
    fn sid_header(&self) -> Vec<(String, String)> {
        vec![("Mcp-Session-Id".into(), self.sid())]
    }
}

impl Server for Legacy {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        if req.method == HttpMethod::Delete {
            assert_eq!(req.header("mcp-session-id"), Some(self.sid().as_str()));
            return Reply::Json(200, json_ct(), json!({}));
        }
        if req.method == HttpMethod::Get {
            assert_eq!(req.header("mcp-session-id"), Some(self.sid().as_str()));
            if self.get_status != 200 {
                return Reply::Raw(self.get_status, "text/plain", vec![]);
            }
            if self.get_unreachable > 0 {
                self.get_unreachable -= 1;
                return Reply::Network("connection refused");
            }
            if self.get_quiet {
                return Reply::Sse(vec![], vec![], End::Open);
            }
            if let Some(last) = req.header("last-event-id") {
                if last.starts_with("call-") && !self.resume_faults.is_empty() {
                    return match self.resume_faults.remove(0) {
                        ResumeFault::Unavailable => Reply::Raw(503, "text/plain", vec![]),
                        ResumeFault::EmptyCut => Reply::Sse(vec![], vec![], End::Cut),
                    };
                }
                // A stream cut after a question: replayed from the event named (the
                // question again, as rmcp 3.11 does), then the response.
                if let Some(id) = last.strip_prefix("ask-") {
                    let id: i64 = id.parse().unwrap_or(0);
                    return Reply::Sse(
                        vec![],
                        vec![
                            sse_id(last, roots_question()),
                            sse_id("call-x", result(&json!(id), json!({"content": []}))),
                        ],
                        End::Close,
                    );
                }
                // A resumption of a cut tools/call stream: replay its response.
                let id: i64 = last.trim_start_matches("call-").parse().unwrap_or(0);
                return Reply::Sse(
                    vec![],
                    vec![sse_id(
                        "call-x",
                        result(
                            &json!(id),
                            json!({"content": [{"type": "text", "text": "resumed"}]}),
                        ),
                    )],
                    End::Close,
                );
            }
            let retry = self
                .get_retry
                .take()
                .map_or(String::new(), |ms| format!("retry: {ms}\n"));
            return Reply::Sse(vec![], vec![format!("id: g1\n{retry}data:\n\n")], End::Open);
        }
        let body = body.unwrap();
        let id = &body["id"];
        let method = body["method"].as_str().unwrap_or("");
        if self.slow_cancels && matches!(method, "notifications/cancelled" | "tasks/cancel") {
            return Reply::Hang;
        }
        if method == "server/discover" {
            return match self.probe {
                ProbeAnswer::NotInitialized => Reply::Json(
                    400,
                    json_ct(),
                    json!({"jsonrpc": "2.0", "id": null,
                    "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}),
                ),
                ProbeAnswer::Plain404 => Reply::Raw(404, "text/plain", b"Not Found".to_vec()),
                ProbeAnswer::OnlyLegacy => Reply::Json(
                    400,
                    json_ct(),
                    json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32022, "message": "Unsupported protocol version",
                              "data": {"supported": ["2025-11-25"], "requested": "2026-07-28"}}}),
                ),
                ProbeAnswer::NetworkError => Reply::Network("TypeError: Failed to fetch"),
            };
        }
        if method == "initialize" {
            assert!(req.header("mcp-session-id").is_none());
            // The version is agreed by `initialize`, and only then sent in a header.
            assert!(req.header("mcp-protocol-version").is_none());
            assert_eq!(body["params"]["protocolVersion"], "2025-11-25");
            self.session += 1;
            self.inits += 1;
            return Reply::Sse(
                self.sid_header(),
                vec![
                    "id: 0\ndata:\n\n".into(),
                    sse(result(
                        id,
                        json!({"protocolVersion": "2025-06-18", "capabilities": {"logging": {}, "tools": {}},
                    "serverInfo": {"name": "legacy-scripted", "version": "1"}}),
                    )),
                ],
                End::Close,
            );
        }
        if req.header("mcp-method").is_some() {
            // A modern request (sent from a kept discover result): refused the way
            // server-everything refuses one without a session.
            return Reply::Json(
                400,
                json_ct(),
                json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}),
            );
        }
        // Everything else needs the session.
        assert_eq!(req.header("mcp-protocol-version"), Some("2025-06-18"));
        assert!(
            req.header("mcp-method").is_none(),
            "no modern headers in the legacy era"
        );
        if self.always_forget || self.forget_with.is_some() {
            let status = self.forget_with.take().unwrap_or(404);
            return Reply::Json(
                status,
                json_ct(),
                json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}}),
            );
        }
        assert_eq!(
            req.header("mcp-session-id"),
            Some(self.sid().as_str()),
            "{method}"
        );
        if body.get("method").is_none() || body.get("id").is_none() {
            return Reply::Accepted; // notifications and responses
        }
        match method {
            "logging/setLevel" => Reply::Json(200, json_ct(), result(id, json!({}))),
            "resources/subscribe" | "resources/unsubscribe"
                if body["params"]["uri"] == "refused://x" =>
            {
                Reply::Json(200, json_ct(), error(id, -32602, "no such resource"))
            }
            "resources/subscribe" | "resources/unsubscribe" => {
                Reply::Json(200, json_ct(), result(id, json!({})))
            }
            // A caching hint, which only 2026-07-28 results may give (ignored here).
            "tools/list" => Reply::Json(
                200,
                json_ct(),
                result(id, json!({"tools": [], "ttlMs": 60_000})),
            ),
            "tools/call" => match body["params"]["name"].as_str().unwrap_or("") {
                "echo" => Reply::Sse(
                    vec![],
                    vec![
                        "id: e0\ndata:\n\n".into(),
                        sse(result(
                            id,
                            json!({"content": [{"type": "text", "text": "hi"}]}),
                        )),
                    ],
                    End::Close,
                ),
                "needs-roots" => Reply::Sse(
                    vec![],
                    vec![
                        sse(json!({"jsonrpc": "2.0", "id": "srv-1", "method": "roots/list"})),
                        sse(json!({"jsonrpc": "2.0", "id": "srv-2", "method": "ping"})),
                    ],
                    End::Open,
                ),
                "asks-everything" => Reply::Sse(
                    vec![],
                    vec![
                        sse(
                            json!({"jsonrpc": "2.0", "id": "srv-s", "method": "sampling/createMessage",
                            "params": {"maxTokens": 5, "messages": [{"role": "user", "content": {"type": "text", "text": "Hi?"}}]}}),
                        ),
                        sse(
                            json!({"jsonrpc": "2.0", "id": "srv-e", "method": "elicitation/create",
                            "params": {"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}}),
                        ),
                        sse(json!({"jsonrpc": "2.0", "id": "srv-r", "method": "roots/list"})),
                    ],
                    End::Open,
                ),
                // A JSON-RPC error tied to no request, in the call's own (200) answer.
                "null-id-error" => Reply::Json(
                    200,
                    json_ct(),
                    json!({"jsonrpc": "2.0", "id": null,
                           "error": {"code": -32600, "message": "Invalid Request"}}),
                ),
                "cut" if self.cuts_left > 0 => {
                    self.cuts_left -= 1;
                    Reply::Sse(vec![], vec![format!("id: call-{id}\ndata:\n\n")], End::Cut)
                }
                // The server says how long to wait before resuming (SSE `retry:`).
                "cut-retry" if self.cuts_left > 0 => {
                    self.cuts_left -= 1;
                    Reply::Sse(
                        vec![],
                        vec![format!("id: call-{id}\nretry: 2500\ndata:\n\n")],
                        End::Cut,
                    )
                }
                // Cut after the server asked a question on the call's stream.
                "cut-after-ask" => Reply::Sse(
                    vec![],
                    vec![
                        format!("id: call-{id}\ndata:\n\n"),
                        sse_id(&format!("ask-{id}"), roots_question()),
                    ],
                    End::Cut,
                ),
                "slow" => Reply::Hang,
                // An MRTR interim result from a server of the 2025 era.
                "state-only" => match body["params"].get("requestState") {
                    None => Reply::Json(
                        200,
                        json_ct(),
                        result(
                            id,
                            json!({"resultType": "input_required", "requestState": "s"}),
                        ),
                    ),
                    Some(_) => Reply::Json(
                        200,
                        json_ct(),
                        result(
                            id,
                            json!({"content": [{"type": "text", "text": "resumed"}]}),
                        ),
                    ),
                },
                "invalid" => Reply::Json(
                    400,
                    json_ct(),
                    error(id, -32602, "Invalid params: no such argument"),
                ),
                _ => Reply::Json(200, json_ct(), result(id, json!({"content": []}))),
            },
            // `input_required` where MRTR is not allowed: an ordinary result.
            "completion/complete" => Reply::Json(
                200,
                json_ct(),
                result(
                    id,
                    json!({"resultType": "input_required", "completion": {"values": ["a"]}}),
                ),
            ),
            _ => Reply::Json(200, json_ct(), error(id, -32601, "Method not found")),
        }
    }
}

/// The question the server asks on a stream it cuts (`cut-after-ask`).
fn roots_question() -> Value {
    json!({"jsonrpc": "2.0", "id": "srv-roots", "method": "roots/list"})
}

fn config() -> SessionConfig {
    let mut c = SessionConfig::new("http://127.0.0.1:1/mcp");
    c.capabilities.roots = Some(json!({"listChanged": true}));
    c
}

/// The scripted legacy server, but for messages with `method`, answered by `answer` (given
/// the message) instead.
struct Answering<F> {
    inner: Legacy,
    method: &'static str,
    answer: F,
}

impl<F: FnMut(&Value) -> Reply> Server for Answering<F> {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        match body {
            Some(b) if b["method"] == self.method => (self.answer)(b),
            _ => self.inner.handle(req, body),
        }
    }
}

/// [`Answering`] in front of `inner`.
fn answering<F: FnMut(&Value) -> Reply>(
    inner: Legacy,
    method: &'static str,
    answer: F,
) -> Answering<F> {
    Answering {
        inner,
        method,
        answer,
    }
}

fn connected(server: Legacy) -> Harness<Legacy> {
    connected_with(config(), server)
}

fn response<S: Server>(
    h: &Harness<S>,
    handle: RequestHandle,
) -> Option<Result<McpResult, RequestError>> {
    h.events.iter().find_map(|e| match e {
        Event::Response { handle: x, result } if *x == handle => Some(result.clone().map(typed)),
        _ => None,
    })
}

/// The JSON-RPC error code a request ended with, if it ended with one.
fn rpc_code<S: Server>(h: &Harness<S>, handle: RequestHandle) -> Option<i64> {
    match response(h, handle) {
        Some(Err(RequestError::Rpc(e))) => Some(e.code),
        _ => None,
    }
}

fn call<S: Server>(h: &mut Harness<S>, name: &str) -> RequestHandle {
    let c = h.session.request(
        "tools/call",
        Some(json!({"name": name, "arguments": {}})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    c
}

fn details<S: Server>(h: &Harness<S>) -> ServerDetails {
    h.events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Connected(d) => Some((**d).clone()),
            _ => None,
        })
        .expect("connected")
}

#[test]
fn falls_back_to_initialize_and_runs_a_legacy_session() {
    for probe in [
        ProbeAnswer::NotInitialized,
        ProbeAnswer::Plain404,
        ProbeAnswer::OnlyLegacy,
        ProbeAnswer::NetworkError,
    ] {
        let h = connected(Legacy::new(probe));
        let d = details(&h);
        assert_eq!(
            (d.era, d.protocol_version.as_str(), d.wire),
            (Era::Legacy, "2025-06-18", WireProtocol::StreamableHttp)
        );
        assert_eq!(d.server_info.name, "legacy-scripted");
        assert_eq!(h.session.session_id(), Some("sess-1"));
        let methods: Vec<String> = h
            .posted()
            .iter()
            .map(|m| m["method"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            methods,
            ["server/discover", "initialize", "notifications/initialized"]
        );
        let get = h
            .sent
            .iter()
            .find(|r| r.method == HttpMethod::Get)
            .expect("the GET stream is opened");
        assert_eq!(get.header("accept"), Some("text/event-stream"));
    }
}

#[test]
fn the_get_stream_asks_for_the_same_cors_headers_as_the_posts() {
    // Browsers keep one CORS preflight result per URL: a GET whose preflight asked for fewer
    // headers than the POSTs would replace theirs, and the next POST would need its own.
    let h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let names = |r: &HttpRequest| {
        let mut n: Vec<String> = r
            .headers
            .iter()
            .map(|(k, _)| k.to_ascii_lowercase())
            .filter(|k| k != "accept")
            .collect();
        n.sort();
        n
    };
    let get = h
        .sent
        .iter()
        .find(|r| r.method == HttpMethod::Get)
        .expect("the GET stream is opened");
    let post = &h.requests_for("notifications/initialized")[0];
    assert_eq!(names(get), names(post));
    assert_eq!(
        names(get),
        ["content-type", "mcp-protocol-version", "mcp-session-id"]
    );
}

#[test]
fn only_the_standalone_get_stream_may_wait() {
    // The I/O layer may hold it back (the browser's connections to the server are few); the
    // session does without it meanwhile. Nothing else it sends may wait.
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    call(&mut h, "echo");
    let waiting: Vec<(HttpMethod, bool)> = h.sent.iter().map(|r| (r.method, r.may_wait)).collect();
    assert!(
        waiting.contains(&(HttpMethod::Get, true)),
        "the GET stream may wait: {waiting:?}"
    );
    assert!(
        waiting
            .iter()
            .all(|&(method, may_wait)| may_wait == (method == HttpMethod::Get)),
        "{waiting:?}"
    );
    assert!(h.requests_for("tools/call").iter().all(|r| !r.may_wait));
    // Only the streams that stay open are long-lived.
    let long_lived: Vec<(HttpMethod, bool)> =
        h.sent.iter().map(|r| (r.method, r.long_lived)).collect();
    assert!(
        long_lived
            .iter()
            .all(|&(method, long)| long == (method == HttpMethod::Get)),
        "{long_lived:?}"
    );
}

#[test]
fn a_remembered_legacy_era_skips_the_probe() {
    let mut cfg = config();
    cfg.era_hint = Some(Era::Legacy);
    let mut h = Harness::new(Session::new(cfg), Legacy::new(ProbeAnswer::NotInitialized));
    h.connect();
    assert!(h.posted_method("server/discover").is_empty());
    assert_eq!(h.session.state(), ConnectionState::Connected);
}

#[test]
fn requests_carry_session_and_version_and_skip_priming_events() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "echo");
    let Some(Ok(McpResult::CallTool(r))) = response(&h, c) else {
        panic!("{:?}", h.events)
    };
    assert_eq!(r.content[0].as_text(), Some("hi"));
}

#[test]
fn a_callers_meta_entries_go_through_as_they_are_and_beside_a_progress_token() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let parent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    for progress in [false, true] {
        let c = h.session.request(
            "tools/call",
            Some(json!({"name": "echo", "arguments": {}, "_meta": {"traceparent": parent}})),
            RequestOptions {
                progress,
                ..Default::default()
            },
            h.now,
        );
        h.pump();
        assert!(
            matches!(response(&h, c), Some(Ok(McpResult::CallTool(_)))),
            "{:?}",
            h.events
        );
    }
    let sent = h.posted_method("tools/call");
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0]["params"]["_meta"], json!({"traceparent": parent}));
    assert_eq!(sent[1]["params"]["_meta"]["traceparent"], parent);
    assert!(!sent[1]["params"]["_meta"]["progressToken"].is_null());
}

#[test]
fn a_reserved_handle_is_unique_and_cancelling_it_sends_nothing() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let reserved = h.session.reserve_handle();
    let sent = h.sent.len();
    let events = h.events.len();
    h.session.cancel(reserved, h.now);
    h.pump();
    assert_eq!(
        (h.sent.len(), h.events.len()),
        (sent, events),
        "{:?}",
        h.events
    );
    let c = call(&mut h, "echo");
    assert_ne!(c, reserved);
    assert!(matches!(response(&h, c), Some(Ok(McpResult::CallTool(_)))));
    assert!(response(&h, reserved).is_none());
}

#[test]
fn server_requests_on_a_stream_are_answered_and_ping_is_automatic() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "needs-roots");
    let (id, related) = h
        .events
        .iter()
        .find_map(|e| match e {
            Event::ServerRequest {
                id,
                request: ServerRequest::ListRoots,
                related,
            } => Some((*id, *related)),
            _ => None,
        })
        .expect("roots/list surfaced");
    assert_eq!(related, Some(c));
    let answers = h
        .posted()
        .into_iter()
        .filter(|m| m.get("method").is_none())
        .collect::<Vec<_>>();
    assert_eq!(
        answers,
        [json!({"jsonrpc": "2.0", "id": "srv-2", "result": {}})],
        "ping answered by the core"
    );
    h.session.answer(
        id,
        Ok(json!({"roots": [{"uri": "file:///w", "name": "w"}]})),
        h.now,
    );
    h.pump();
    let last = h.posted().pop().unwrap();
    assert_eq!(
        last,
        json!({"jsonrpc": "2.0", "id": "srv-1", "result": {"roots": [{"uri": "file:///w", "name": "w"}]}})
    );
    assert_eq!(
        h.sent.last().unwrap().header("mcp-session-id"),
        Some("sess-1")
    );
}

#[test]
fn undeclared_capabilities_are_refused_without_bothering_the_application() {
    let mut cfg = config();
    cfg.capabilities.roots = None;
    let mut h = Harness::new(Session::new(cfg), Legacy::new(ProbeAnswer::NotInitialized));
    h.connect();
    call(&mut h, "needs-roots");
    assert!(!h
        .events
        .iter()
        .any(|e| matches!(e, Event::ServerRequest { .. })));
    let refusal = h.posted().into_iter().find(|m| m["id"] == "srv-1").unwrap();
    assert_eq!(refusal["error"]["code"], -32601);
}

#[test]
fn server_requests_are_refused_unless_declared_and_each_answer_goes_to_its_own_request() {
    let kinds = |h: &Harness<Legacy>| -> Vec<(ServerRequestId, &'static str)> {
        h.events
            .iter()
            .filter_map(|e| match e {
                Event::ServerRequest { id, request, .. } => Some((
                    *id,
                    match request {
                        ServerRequest::Sampling(_) => "sampling",
                        ServerRequest::Elicitation(_) => "elicitation",
                        ServerRequest::ListRoots => "roots",
                        ServerRequest::Other { .. } => "other",
                    },
                )),
                _ => None,
            })
            .collect()
    };
    let answers = |h: &Harness<Legacy>| -> Vec<Value> {
        h.posted()
            .into_iter()
            .filter(|m| m.get("method").is_none())
            .collect()
    };
    // Declared: roots only. Sampling and elicitation are refused by the core.
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    call(&mut h, "asks-everything");
    let surfaced: Vec<_> = kinds(&h).into_iter().map(|(_, k)| k).collect();
    assert_eq!(surfaced, ["roots"]);
    let refused: Vec<_> = answers(&h)
        .into_iter()
        .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
        .collect();
    assert_eq!(
        refused,
        [
            (json!("srv-s"), json!(-32601)),
            (json!("srv-e"), json!(-32601))
        ]
    );
    // Declared: all three. Answered the last first, each answer goes to its own request.
    let mut cfg = config();
    cfg.capabilities.sampling = Some(json!({}));
    cfg.capabilities.elicitation = Some(json!({"form": {}}));
    let mut h = connected_with(cfg, Legacy::new(ProbeAnswer::NotInitialized));
    call(&mut h, "asks-everything");
    let asked = kinds(&h);
    assert_eq!(
        asked.iter().map(|(_, k)| *k).collect::<Vec<_>>(),
        ["sampling", "elicitation", "roots"]
    );
    for (id, kind) in asked.iter().rev() {
        let result = match *kind {
            "sampling" => {
                json!({"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m"})
            }
            "elicitation" => json!({"action": "decline"}),
            _ => json!({"roots": []}),
        };
        h.session.answer(*id, Ok(result), h.now);
        h.pump();
    }
    let answered: Vec<_> = answers(&h)
        .into_iter()
        .map(|m| {
            (
                m["id"].clone(),
                // Sorted: with serde_json's preserve_order (which web-ui and client-js turn on
                // when built with this crate in one cargo run) keys keep their written order.
                m["result"].as_object().map(|r| {
                    let mut keys = r.keys().cloned().collect::<Vec<_>>();
                    keys.sort();
                    keys
                }),
            )
        })
        .collect();
    assert_eq!(
        answered,
        [
            (json!("srv-r"), Some(vec!["roots".to_string()])),
            (json!("srv-e"), Some(vec!["action".to_string()])),
            (
                json!("srv-s"),
                Some(vec![
                    "content".to_string(),
                    "model".to_string(),
                    "role".to_string()
                ])
            ),
        ]
    );
}

#[test]
fn a_server_request_the_server_cancels_is_not_answered_and_the_others_are() {
    let mut cfg = config();
    cfg.capabilities.sampling = Some(json!({}));
    cfg.capabilities.elicitation = Some(json!({"form": {}}));
    let mut h = connected_with(cfg, Legacy::new(ProbeAnswer::NotInitialized));
    call(&mut h, "asks-everything");
    let asked: Vec<ServerRequestId> = h
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ServerRequest { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    assert_eq!(asked.len(), 3);
    let stream = *h.open_streams.last().expect("the call's stream");
    h.push(
        stream,
        &sse(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": "srv-e", "reason": "no longer needed"}}),
        ),
    );
    h.session.answer(asked[0], Ok(json!({"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m"})), h.now);
    h.session
        .answer(asked[1], Ok(json!({"action": "decline"})), h.now);
    h.session.answer(asked[2], Ok(json!({"roots": []})), h.now);
    h.pump();
    let answered: Vec<Value> = h
        .posted()
        .into_iter()
        .filter(|m| m.get("method").is_none())
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(answered, [json!("srv-s"), json!("srv-r")]);
}

#[test]
fn a_json_rpc_error_tied_to_no_request_in_a_calls_answer_fails_that_call() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "null-id-error");
    assert_eq!(rpc_code(&h, c), Some(-32600), "{:?}", response(&h, c));
}

/// The spec says only that a result without `resultType` from an earlier-era server is
/// complete. One that says `input_required` knows MRTR: for the methods that may answer so,
/// it is taken at its word (the call is retried with the state it gave); for others the
/// field is not one the method may use, and the result stands as it is.
#[test]
fn a_2025_era_servers_input_required_is_taken_at_its_word_where_mrtr_is_allowed() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "state-only");
    match response(&h, c) {
        Some(Ok(McpResult::CallTool(r))) => assert_eq!(r.content.len(), 1, "{r:?}"),
        other => panic!("{other:?}"),
    }
    let calls = h.posted_method("tools/call");
    assert_eq!(calls.len(), 2, "the call, then its retry");
    assert_eq!(calls[1]["params"]["requestState"], "s");

    let c = h.session.request(
        "completion/complete",
        Some(json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    let answer = h.events.iter().find_map(|e| match e {
        Event::Response { handle, result } if *handle == c => Some(result.clone()),
        _ => None,
    });
    match answer {
        Some(Ok(v)) => assert_eq!(v["completion"]["values"], json!(["a"])),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        h.posted_method("completion/complete").len(),
        1,
        "not retried"
    );
}

#[test]
fn a_websocket_that_closes_before_it_ever_connected_fails_the_connection_at_once() {
    let mut cfg = config();
    cfg.transport = TransportMode::Frames;
    let mut h = Harness::new(Session::new(cfg), NoHttp);
    h.connect();
    assert_eq!(h.frames_opened, 1);
    h.session.handle_input(
        Input::FramesClosed("WebSocket closed (code 1006)".into()),
        h.now,
    );
    h.pump();
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(
        h.events.iter().any(|e| matches!(e, Event::ConnectFailed(RequestError::Transport(TransportFailure::Network(m))) if m.contains("1006"))),
        "{:?}",
        h.events
    );
    h.advance(60_000);
    assert_eq!(h.frames_opened, 1, "not opened again");
}

#[test]
fn a_lost_session_is_reinitialized_once_and_the_request_replayed() {
    for status in [404, 400] {
        let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
        h.server.forget_with = Some(status);
        let c = call(&mut h, "echo");
        assert!(
            matches!(response(&h, c), Some(Ok(_))),
            "status {status}: {:?}",
            h.events
        );
        assert_eq!(h.server.inits, 2);
        assert_eq!(h.session.session_id(), Some("sess-2"));
        assert!(h
            .events
            .contains(&Event::State(ConnectionState::Reconnecting)));
    }
}

#[test]
fn a_fresh_session_after_a_lost_one_subscribes_again_and_sets_the_log_level_again() {
    let mut cfg = config();
    cfg.log_level = Some(LoggingLevel::Warning);
    let mut h = Harness::new(Session::new(cfg), Legacy::new(ProbeAnswer::NotInitialized));
    h.connect();
    let ask = |h: &mut Harness<Legacy>, method: &str, uri: &str| {
        let r = h.session.request(
            method,
            Some(json!({ "uri": uri })),
            RequestOptions::default(),
            h.now,
        );
        h.pump();
        response(h, r)
    };
    for uri in ["demo://a", "demo://b", "demo://a"] {
        assert!(matches!(
            ask(&mut h, "resources/subscribe", uri),
            Some(Ok(_))
        ));
    }
    assert!(matches!(
        ask(&mut h, "resources/unsubscribe", "demo://b"),
        Some(Ok(_))
    ));
    // Refused: nothing to make again.
    assert!(matches!(
        ask(&mut h, "resources/subscribe", "refused://x"),
        Some(Err(_))
    ));
    assert_eq!(h.posted_method("resources/subscribe").len(), 4);

    h.server.forget_with = Some(404);
    let c = call(&mut h, "echo");
    assert!(matches!(response(&h, c), Some(Ok(_))), "{:?}", h.events);
    assert_eq!(h.session.session_id(), Some("sess-2"));
    let again: Vec<_> = h
        .requests_for("resources/subscribe")
        .into_iter()
        .filter(|r| r.header("mcp-session-id") == Some("sess-2"))
        .collect();
    assert_eq!(again.len(), 1, "only what is still subscribed, once");
    let body: serde_json::Value = serde_json::from_slice(again[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(body["params"], json!({ "uri": "demo://a" }));
    let levels: Vec<_> = h
        .requests_for("logging/setLevel")
        .into_iter()
        .filter_map(|r| r.header("mcp-session-id").map(str::to_string))
        .collect();
    assert_eq!(levels, ["sess-1", "sess-2"]);
    // Answered quietly: no response event, no warning.
    assert!(
        !h.events.iter().any(|e| matches!(e, Event::Warning(_))),
        "{:?}",
        h.events
    );
}

#[test]
fn a_session_lost_again_before_any_success_gives_up() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.always_forget = true;
    let c = call(&mut h, "echo");
    assert_eq!(response(&h, c), Some(Err(RequestError::SessionLost)));
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(h.server.inits <= 2);
}

#[test]
fn a_cut_stream_is_resumed_with_last_event_id() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.cuts_left = 1;
    let c = call(&mut h, "cut");
    assert!(
        response(&h, c).is_none(),
        "resumption waits for the retry delay"
    );
    h.advance(999);
    assert!(response(&h, c).is_none());
    h.advance(2);
    let Some(Ok(McpResult::CallTool(r))) = response(&h, c) else {
        panic!("{:?}", h.events)
    };
    assert_eq!(r.content[0].as_text(), Some("resumed"));
    let resume = h
        .sent
        .iter()
        .filter(|r| r.method == HttpMethod::Get)
        .find(|r| r.header("last-event-id").is_some())
        .unwrap();
    assert!(resume.header("last-event-id").unwrap().starts_with("call-"));
}

#[test]
fn a_call_cancelled_while_its_stream_waits_to_be_resumed_is_cancelled_on_the_server() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.cuts_left = 1;
    let c = call(&mut h, "cut");
    let id = h.posted_method("tools/call")[0]["id"].clone();
    h.session.cancel(c, h.now);
    h.pump();
    assert_eq!(response(&h, c), Some(Err(RequestError::Cancelled)));
    let told = h.posted_method("notifications/cancelled");
    assert_eq!(told.len(), 1);
    assert_eq!(told[0]["params"]["requestId"], id);
    // And it is not resumed.
    h.advance(10_000);
    assert!(h.sent.iter().all(|r| r.header("last-event-id").is_none()));
}

#[test]
fn a_cut_stream_is_resumed_after_the_retry_delay_the_server_asked_for() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.cuts_left = 1;
    let c = call(&mut h, "cut-retry");
    // Not at the client's own delay (one second) ...
    h.advance(2_499);
    assert_eq!(resumes(&h), 0, "resumed before the server's retry delay");
    assert!(response(&h, c).is_none());
    // ... but at the server's.
    h.advance(2);
    assert_eq!(resumes(&h), 1);
    assert!(matches!(response(&h, c), Some(Ok(McpResult::CallTool(_)))));
}

#[test]
fn the_retry_delay_the_server_asked_for_holds_for_every_later_resumption_of_the_stream() {
    // As an EventSource keeps the reconnection time: a resumption that breaks before any
    // event (so sets none) is tried again after the server's delay, not the client's own.
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.cuts_left = 1;
    h.server.resume_faults = vec![ResumeFault::EmptyCut];
    let c = call(&mut h, "cut-retry");
    h.advance(2_501);
    assert_eq!(
        resumes(&h),
        1,
        "the first resumption, at the server's delay"
    );
    h.advance(2_498);
    assert_eq!(
        resumes(&h),
        1,
        "resumed again before the server's retry delay"
    );
    assert!(response(&h, c).is_none());
    h.advance(2);
    assert_eq!(resumes(&h), 2);
    assert!(matches!(response(&h, c), Some(Ok(McpResult::CallTool(_)))));
}

#[test]
fn an_event_replayed_from_the_one_named_in_last_event_id_is_not_handled_twice() {
    // Some servers (rmcp 3.11) replay from the event named instead of after it: the question
    // the stream was cut after comes again, and is asked once.
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "cut-after-ask");
    h.advance(1_001);
    let resumed_from: Vec<_> = h
        .sent
        .iter()
        .filter_map(|r| r.header("last-event-id"))
        .collect();
    assert_eq!(resumed_from.len(), 1);
    assert!(resumed_from[0].starts_with("ask-"), "{resumed_from:?}");
    let asked = h
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::ServerRequest {
                    request: ServerRequest::ListRoots,
                    ..
                }
            )
        })
        .count();
    assert_eq!(asked, 1, "{:?}", h.events);
    assert!(matches!(response(&h, c), Some(Ok(McpResult::CallTool(_)))));
}

#[test]
fn the_get_stream_is_reopened_after_the_retry_delay_the_server_set_on_an_earlier_stream() {
    let mut server = Legacy::new(ProbeAnswer::NotInitialized);
    server.get_retry = Some(3_000);
    let mut h = connected(server);
    // The first stream set 3 s; it ends and is opened again after them.
    let first = *h.open_streams.last().unwrap();
    h.end(first, false);
    h.advance(2_999);
    assert_eq!(stream_gets(&h), 1);
    h.advance(1);
    assert_eq!(stream_gets(&h), 2);
    // The second (here an answer to its Last-Event-ID that ends at once) sets no delay: the
    // server's 3 s still hold, not the client's own backoff (2 s by now).
    assert!(h.open_streams.is_empty());
    h.advance(2_999);
    assert_eq!(
        stream_gets(&h),
        2,
        "reopened before the server's retry delay"
    );
    h.advance(1);
    assert_eq!(stream_gets(&h), 3);
}

#[test]
fn timeout_sends_notifications_cancelled_in_the_legacy_era() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "slow");
    let sent_id = h.posted_method("tools/call")[0]["id"].clone();
    h.advance(59_000);
    assert!(response(&h, c).is_none());
    h.fire_late(7);
    // The message names the limit (60 s), not the moment the (late) timer ran.
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::Timeout { after_ms: 60_000 }))
    ));
    let cancel = h.posted_method("notifications/cancelled");
    assert_eq!(cancel.len(), 1);
    assert_eq!(cancel[0]["params"]["requestId"], sent_id);
}

#[test]
fn the_get_stream_reconnects_with_last_event_id_and_405_means_none() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let stream = *h.open_streams.last().unwrap();
    h.end(stream, false);
    assert_eq!(stream_gets(&h), 1);
    h.advance(1_001);
    assert_eq!(stream_gets(&h), 2);
    assert_eq!(h.sent.last().unwrap().header("last-event-id"), Some("g1"));

    let mut server = Legacy::new(ProbeAnswer::NotInitialized);
    server.get_status = 405;
    let mut h = connected(server);
    h.advance(60_000);
    assert_eq!(stream_gets(&h), 1, "no retry after 405");
}

#[test]
fn an_idle_get_stream_that_a_proxy_ends_now_and_then_is_opened_again_every_time() {
    let mut server = Legacy::new(ProbeAnswer::NotInitialized);
    server.get_quiet = true;
    let mut h = connected(server);
    // Ten idle timeouts of a minute each, more than the attempts in a row allowed (5).
    for round in 0..10 {
        h.advance(60_000);
        let stream = *h.open_streams.last().expect("a GET stream");
        h.end(stream, false);
        h.advance(1_000);
        assert_eq!(stream_gets(&h), round + 2, "round {round}");
    }
}

#[test]
fn a_get_stream_that_cannot_be_opened_is_tried_later_each_time_then_given_up_with_a_warning() {
    let mut server = Legacy::new(ProbeAnswer::NotInitialized);
    server.get_quiet = true;
    let mut h = connected(server);
    h.server.get_unreachable = 100;
    let stream = *h.open_streams.last().expect("a GET stream");
    h.end(stream, true);
    // The first attempt fails (refused); then 2, 4, 8, 16 s apart.
    let mut at = vec![];
    for _ in 0..40_000 {
        let before = stream_gets(&h);
        h.advance(1);
        if stream_gets(&h) > before {
            at.push(h.now.0);
        }
    }
    let gaps: Vec<u64> = at.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps, [2_000, 4_000, 8_000, 16_000], "{at:?}");
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::Warning(w) if w.contains("could not be kept open"))));
    // The server answers a request again: its event stream is opened again.
    h.server.get_unreachable = 0;
    let gets = stream_gets(&h);
    let c = call(&mut h, "echo");
    assert!(matches!(response(&h, c), Some(Ok(_))), "{:?}", h.events);
    assert_eq!(stream_gets(&h), gets + 1);
    assert!(!h.open_streams.is_empty(), "open");
}

#[test]
fn set_level_is_sent_when_configured_and_close_deletes_the_session() {
    let mut cfg = config();
    cfg.log_level = Some(LoggingLevel::Debug);
    let mut h = Harness::new(Session::new(cfg), Legacy::new(ProbeAnswer::NotInitialized));
    h.connect();
    assert_eq!(
        h.posted_method("logging/setLevel")[0]["params"]["level"],
        "debug"
    );
    h.session.close(h.now);
    h.pump();
    let del = h.sent.last().unwrap();
    assert_eq!(del.method, HttpMethod::Delete);
    assert_eq!(del.header("mcp-session-id"), Some("sess-1"));
    // Closed is said once, as a change of state.
    assert_eq!(h.times_in(ConnectionState::Closed), 1);
}

#[test]
fn close_stops_what_awaits_an_answer_and_lets_cancels_reach_the_server() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.slow_cancels = true;
    let slow = call(&mut h, "slow");
    let cancel = h.session.request(
        "tasks/cancel",
        Some(json!({"taskId": "t-1"})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    let tid_of = |h: &Harness<Legacy>, method: &str| h.requests_for(method).last().unwrap().id;
    let slow_tid = tid_of(&h, "tools/call");
    let cancel_tid = tid_of(&h, "tasks/cancel");
    let get_stream = *h.open_streams.first().expect("the GET stream");
    h.session.close(h.now);
    h.pump();
    // The call awaiting its answer is stopped, and the server told so; the stream too.
    assert!(h.aborted.contains(&slow_tid), "{:?}", h.aborted);
    assert!(h.aborted.contains(&get_stream), "{:?}", h.aborted);
    assert_eq!(
        h.posted_method("notifications/cancelled")[0]["params"]["requestId"],
        h.posted_method("tools/call").last().unwrap()["id"]
    );
    // What only tells the server something is let finish: the cancel and the notification.
    let told_tid = tid_of(&h, "notifications/cancelled");
    assert!(!h.aborted.contains(&cancel_tid), "{:?}", h.aborted);
    assert!(!h.aborted.contains(&told_tid), "{:?}", h.aborted);
    // Both requests end now; the answer to the cancel, read or not, changes nothing.
    for handle in [slow, cancel] {
        assert_eq!(response(&h, handle), Some(Err(RequestError::Closed)));
    }
    h.deliver(
        cancel_tid,
        Reply::Json(200, json_ct(), result(&json!(99), json!({}))),
    );
    h.pump();
    assert_eq!(h.session.state(), ConnectionState::Closed);
}

#[test]
fn what_only_tells_the_server_something_is_sent_to_outlive_the_page() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.slow_cancels = true;
    call(&mut h, "slow");
    h.session.request(
        "tasks/cancel",
        Some(json!({"taskId": "t-1"})),
        RequestOptions::default(),
        h.now,
    );
    // A notification too large for the browser's keepalive quota goes out as usual.
    let big = "x".repeat(client_core::http::KEEPALIVE_BODY_LIMIT);
    h.session.notify(
        "notifications/progress",
        Some(json!({ "progressToken": "t", "progress": 1, "message": big })),
    );
    h.pump();
    h.session.close(h.now);
    h.pump();
    let keepalive_of = |method: &str| -> Vec<bool> {
        h.requests_for(method).iter().map(|r| r.keepalive).collect()
    };
    let keepalive_of_http = |method: HttpMethod| -> Vec<bool> {
        h.sent
            .iter()
            .filter(|r| r.method == method)
            .map(|r| r.keepalive)
            .collect()
    };
    // Requests awaiting an answer and streams may end with the page.
    assert_eq!(keepalive_of("initialize"), [false]);
    assert_eq!(keepalive_of("tools/call"), [false]);
    let streams = keepalive_of_http(HttpMethod::Get);
    assert!(
        !streams.is_empty() && streams.iter().all(|k| !k),
        "{streams:?}"
    );
    // What only tells the server something reaches it even as the page unloads.
    assert_eq!(keepalive_of("notifications/initialized"), [true]);
    assert_eq!(keepalive_of("tasks/cancel"), [true]);
    assert_eq!(keepalive_of("notifications/cancelled"), [true]);
    assert_eq!(keepalive_of("notifications/progress"), [false]);
    assert_eq!(keepalive_of_http(HttpMethod::Delete), [true]);
}

/// A 2024-11-05 server: POST to the MCP URL fails; GET gives an `endpoint` event; responses
/// come on the GET stream.
struct OldSse {
    stream: Option<client_core::http::TransmitId>,
    queue: Vec<String>,
    /// Answer `initialize` with a JSON-RPC error.
    refuse_initialize: bool,
}

impl Server for OldSse {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        match req.method {
            HttpMethod::Get => {
                self.stream = Some(req.id);
                Reply::Sse(
                    vec![],
                    vec!["event: endpoint\ndata: /messages?sessionId=abc\n\n".into()],
                    End::Open,
                )
            }
            _ if req.url.ends_with("/sse") => Reply::Raw(405, "text/plain", vec![]),
            _ => {
                assert_eq!(req.url, "http://127.0.0.1:1/messages?sessionId=abc");
                let body = body.unwrap();
                if self.refuse_initialize && body["method"] == "initialize" {
                    let e = error(&body["id"], -32600, "not now");
                    self.queue.push(format!("event: message\n{}", sse(e)));
                } else if body.get("id").is_some() && body.get("method").is_some() {
                    let r = match body["method"].as_str().unwrap() {
                        "initialize" => {
                            json!({"protocolVersion": "2024-11-05", "capabilities": {}, "serverInfo": {"name": "old", "version": "0"}})
                        }
                        _ => json!({"tools": []}),
                    };
                    self.queue
                        .push(format!("event: message\n{}", sse(result(&body["id"], r))));
                }
                Reply::Accepted
            }
        }
    }
}

/// A session on `cfg` against a 2024-11-05 server, connected as far as that server lets it
/// (its queued events delivered).
fn connect_to_old_sse(cfg: SessionConfig, refuse_initialize: bool) -> Harness<OldSse> {
    let old = OldSse {
        stream: None,
        queue: vec![],
        refuse_initialize,
    };
    let mut h = Harness::new(Session::new(cfg), old);
    h.connect();
    deliver_queued_events(&mut h);
    h
}

/// Delivers what the 2024-11-05 server queued on its GET stream, a few rounds (each answer
/// may lead to another request).
fn deliver_queued_events(h: &mut Harness<OldSse>) {
    for _ in 0..5 {
        let q: Vec<String> = std::mem::take(&mut h.server.queue);
        for ev in q {
            let s = h.server.stream.unwrap();
            h.push(s, &ev);
        }
    }
}

#[test]
fn falls_back_to_the_2024_11_05_http_sse_transport() {
    let mut h = connect_to_old_sse(SessionConfig::new("http://127.0.0.1:1/sse"), false);
    let d = details(&h);
    assert_eq!(
        (d.wire, d.era, d.protocol_version.as_str()),
        (WireProtocol::HttpSse, Era::Legacy, "2024-11-05")
    );
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.pump();
    let ev = h.server.queue.pop().unwrap();
    let s = h.server.stream.unwrap();
    h.push(s, &ev);
    assert!(matches!(
        response(&h, list),
        Some(Ok(McpResult::ListTools(_)))
    ));
}

/// A 2024-11-05 server that restarts: while it is down its event stream is refused with
/// `down_status` (a gateway's 502); each start gives a new session on a new endpoint.
struct RestartingSse {
    stream: Option<client_core::http::TransmitId>,
    queue: Vec<String>,
    generation: u32,
    /// Refusals of the event stream left before the server is up again.
    down: u32,
    down_status: u16,
    inits: u32,
}

impl RestartingSse {
    fn new() -> Self {
        RestartingSse {
            stream: None,
            queue: vec![],
            generation: 0,
            down: 0,
            down_status: 502,
            inits: 0,
        }
    }
}

impl Server for RestartingSse {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        if req.method == HttpMethod::Get {
            if self.down > 0 {
                self.down -= 1;
                return Reply::Raw(self.down_status, "text/plain", b"Bad Gateway".to_vec());
            }
            self.generation += 1;
            self.stream = Some(req.id);
            let endpoint = format!(
                "event: endpoint\ndata: /messages?sessionId=s{}\n\n",
                self.generation
            );
            return Reply::Sse(vec![], vec![endpoint], End::Open);
        }
        // A request to an endpoint of an earlier start: that session is gone.
        if !req
            .url
            .ends_with(&format!("sessionId=s{}", self.generation))
        {
            return Reply::Raw(404, "text/plain", b"Session not found".to_vec());
        }
        let body = body.expect("a JSON body");
        if let (Some(id), Some(method)) = (body.get("id"), body["method"].as_str()) {
            let r = match method {
                "initialize" => {
                    self.inits += 1;
                    json!({"protocolVersion": "2024-11-05", "capabilities": {}, "serverInfo": {"name": "old", "version": "0"}})
                }
                _ => json!({"tools": []}),
            };
            self.queue
                .push(format!("event: message\n{}", sse(result(id, r))));
        }
        Reply::Accepted
    }
}

/// Delivers what a restarting 2024-11-05 server queued on its event stream.
fn deliver_restarting(h: &mut Harness<RestartingSse>) {
    for _ in 0..5 {
        for ev in std::mem::take(&mut h.server.queue) {
            let s = h.server.stream.expect("an open stream");
            h.push(s, &ev);
        }
    }
}

/// A session connected to a restarting 2024-11-05 server that then goes down: its stream is
/// cut and the next `down` attempts to open it are refused with `down_status`. Returns the
/// harness and a `tools/list` made once the stream was lost.
fn lose_http_sse_stream(down: u32, down_status: u16) -> (Harness<RestartingSse>, RequestHandle) {
    let mut h = Harness::new(
        Session::new(SessionConfig::new("http://127.0.0.1:1/sse")),
        RestartingSse::new(),
    );
    h.connect();
    deliver_restarting(&mut h);
    assert_eq!(h.session.state(), ConnectionState::Connected);
    h.server.down = down;
    h.server.down_status = down_status;
    let stream = h.server.stream.take().expect("the first stream");
    h.end(stream, true);
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.pump();
    (h, list)
}

/// The GETs sent with `Last-Event-ID` (resumptions, and the GET stream reopened).
fn resumes<S: Server>(h: &Harness<S>) -> usize {
    h.sent
        .iter()
        .filter(|r| r.method == HttpMethod::Get && r.header("last-event-id").is_some())
        .count()
}

/// How many times an event stream was asked for (a GET).
fn stream_gets<S: Server>(h: &Harness<S>) -> usize {
    h.sent
        .iter()
        .filter(|r| r.method == HttpMethod::Get)
        .count()
}

#[test]
fn an_http_sse_stream_lost_to_a_restart_is_opened_again_later_each_time_until_the_server_is_back() {
    // The server refuses the next two attempts.
    let (mut h, list) = lose_http_sse_stream(2, 502);
    assert_eq!(h.session.state(), ConnectionState::Reconnecting);
    assert_eq!(stream_gets(&h), 2, "opened again at once, refused");
    // Later each time: 2 s, then 4 s.
    h.advance(1_999);
    assert_eq!(stream_gets(&h), 2);
    h.advance(1);
    assert_eq!(stream_gets(&h), 3, "refused again");
    h.advance(3_999);
    assert_eq!(stream_gets(&h), 3);
    h.advance(1);
    assert_eq!(stream_gets(&h), 4);
    deliver_restarting(&mut h);
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert_eq!(h.server.inits, 2);
    assert!(
        matches!(response(&h, list), Some(Ok(McpResult::ListTools(_)))),
        "the request made while the server was down is answered: {:?}",
        h.events
    );
    let warned = h
        .events
        .iter()
        .filter(|e| matches!(e, Event::Warning(w) if w.contains("could not be opened again")))
        .count();
    assert_eq!(warned, 2);
}

#[test]
fn an_http_sse_stream_that_stays_refused_or_is_gone_ends_the_connection() {
    // Down for longer than the attempts allowed (5): the connection fails, the request too.
    let (mut h, list) = lose_http_sse_stream(100, 502);
    h.advance(200_000);
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert_eq!(stream_gets(&h), 1 + 1 + 5);
    assert!(matches!(response(&h, list), Some(Err(_))));
    // Gone (404, not a passing refusal): no second attempt.
    let (mut h, list) = lose_http_sse_stream(100, 404);
    h.advance(60_000);
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert_eq!(stream_gets(&h), 2);
    assert!(matches!(response(&h, list), Some(Err(_))));
}

#[test]
fn an_endpoint_on_another_origin_is_refused() {
    struct Evil;
    impl Server for Evil {
        fn handle(&mut self, req: &HttpRequest, _: Option<&Value>) -> Reply {
            match req.method {
                HttpMethod::Get => Reply::Sse(
                    vec![],
                    vec!["event: endpoint\ndata: https://evil.example/steal\n\n".into()],
                    End::Open,
                ),
                _ => Reply::Raw(404, "text/plain", vec![]),
            }
        }
    }
    let mut h = Harness::new(
        Session::new(SessionConfig::new("http://127.0.0.1:1/sse")),
        Evil,
    );
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(h.sent.iter().all(|r| !r.url.contains("evil")));
}

#[test]
fn frames_mode_probes_then_falls_back_on_silence_and_cancels_with_a_notification() {
    let mut cfg = config();
    cfg.transport = TransportMode::Frames;
    cfg.probe_timeout = Duration::from_millis(300);
    let mut h = Harness::new(Session::new(cfg), NoHttp);
    h.connect();
    assert!(h.frames.is_empty(), "waits for the socket");
    frames_handshake(&mut h);
    assert_eq!(h.frames[0]["method"], "server/discover", "probed first");
    assert_eq!(
        h.frames.last().unwrap()["method"],
        "notifications/initialized"
    );
    assert_eq!(details(&h).wire, WireProtocol::Frames);

    let c = h.session.request(
        "tools/call",
        Some(json!({"name": "x"})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    let sent_id = h.frames.last().unwrap()["id"].clone();
    h.session.cancel(c, h.now);
    h.pump();
    let cancel = h.frames.last().unwrap();
    assert_eq!(cancel["method"], "notifications/cancelled");
    assert_eq!(cancel["params"]["requestId"], sent_id);
    // Garbage frames are reported, not fatal.
    h.session
        .handle_input(Input::Frame(b"\xff{not json"), h.now);
    h.pump();
    assert!(h.events.iter().any(|e| matches!(e, Event::Warning(_))));
    h.session
        .handle_input(Input::FramesClosed("socket closed".into()), h.now);
    h.pump();
    // Connected before: opened again (see the test below).
    assert_eq!(h.session.state(), ConnectionState::Reconnecting);
}

/// Frames mode makes no HTTP requests.
struct NoHttp;
impl Server for NoHttp {
    fn handle(&mut self, _: &HttpRequest, _: Option<&Value>) -> Reply {
        panic!("frames mode makes no HTTP requests")
    }
}

/// Answers the handshake on a frames connection just opened: the probe goes unanswered
/// (a 2025-era server), `initialize` is answered.
fn frames_handshake(h: &mut Harness<NoHttp>) {
    h.session.handle_input(Input::FramesOpened, h.now);
    h.pump();
    if h.frames
        .last()
        .is_some_and(|f| f["method"] == "server/discover")
    {
        h.advance(301);
    }
    let init = h.frames.last().expect("a frame").clone();
    assert_eq!(init["method"], "initialize");
    let reply = result(
        &init["id"],
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "ws", "version": "1"}}),
    );
    h.session
        .handle_input(Input::Frame(reply.to_string().as_bytes()), h.now);
    h.pump();
}

#[test]
fn a_closed_websocket_is_opened_again_later_each_time_and_what_was_on_its_way_fails() {
    let mut cfg = config();
    cfg.transport = TransportMode::Frames;
    cfg.probe_timeout = Duration::from_millis(300);
    let mut h = Harness::new(Session::new(cfg.clone()), NoHttp);
    h.connect();
    assert_eq!(h.frames_opened, 1);
    frames_handshake(&mut h);
    assert_eq!(h.session.state(), ConnectionState::Connected);
    let on_its_way = call(&mut h, "echo");
    h.session.handle_input(
        Input::FramesClosed("WebSocket closed (code 1006)".into()),
        h.now,
    );
    h.pump();
    assert_eq!(h.session.state(), ConnectionState::Reconnecting);
    assert_eq!(h.frames_opened, 2, "opened again at once");
    assert!(
        matches!(
            response(&h, on_its_way),
            Some(Err(RequestError::Transport(_)))
        ),
        "{:?}",
        h.events
    );
    // Made meanwhile: waits for the new connection. A notification has no socket to go on:
    // dropped with a warning (not sent into the socket being opened).
    let sent = h.frames.len();
    let waiting = call(&mut h, "echo");
    h.session.notify("notifications/roots/list_changed", None);
    h.pump();
    assert_eq!(h.frames.len(), sent);
    assert!(h.events.iter().any(
        |e| matches!(e, Event::Warning(w) if w.starts_with("notifications/roots/list_changed was not sent"))
    ));
    // The server is still down: later each time (2 s, then 4 s).
    for (wait, opened) in [(2_000, 3), (4_000, 4)] {
        h.session.handle_input(
            Input::FramesClosed("WebSocket closed (code 1006)".into()),
            h.now,
        );
        h.pump();
        h.advance(wait - 1);
        assert_eq!(h.frames_opened, opened - 1);
        h.advance(1);
        assert_eq!(h.frames_opened, opened);
    }
    frames_handshake(&mut h);
    assert_eq!(h.session.state(), ConnectionState::Connected);
    let echo = h.frames.last().expect("the waiting request").clone();
    assert_eq!(echo["method"], "tools/call");
    let reply = result(&echo["id"], json!({"content": []}));
    h.session
        .handle_input(Input::Frame(reply.to_string().as_bytes()), h.now);
    h.pump();
    assert!(
        matches!(response(&h, waiting), Some(Ok(_))),
        "{:?}",
        h.events
    );

    // A connection that never opened fails at once; one that cannot be opened again within
    // the attempts fails too.
    let mut h = Harness::new(Session::new(cfg.clone()), NoHttp);
    h.connect();
    h.session
        .handle_input(Input::FramesClosed("refused".into()), h.now);
    h.pump();
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert_eq!(h.frames_opened, 1);
    let mut h = Harness::new(Session::new(cfg), NoHttp);
    h.connect();
    frames_handshake(&mut h);
    for _ in 0..10 {
        h.session
            .handle_input(Input::FramesClosed("refused".into()), h.now);
        h.pump();
        h.advance(200_000);
    }
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert_eq!(h.frames_opened, 1 + 5);
}

#[test]
fn a_session_id_hidden_by_cors_is_explained() {
    /// Assigns a session but (as a browser would without Access-Control-Expose-Headers) the
    /// header never reaches the client; later requests are refused for lack of a session.
    struct Hidden;
    impl Server for Hidden {
        fn handle(&mut self, _req: &HttpRequest, body: Option<&Value>) -> Reply {
            let b = body.cloned().unwrap_or_default();
            match b["method"].as_str() {
                Some("server/discover") => Reply::Json(400, json_ct(), json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: Server not initialized"}})),
                Some("initialize") => Reply::Json(200, json_ct(), result(&b["id"], json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "h", "version": "1"}}))),
                _ => Reply::Raw(400, "application/json", br#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}"#.to_vec()),
            }
        }
    }
    let mut h = Harness::new(Session::new(config()), Hidden);
    h.connect();
    let c = call(&mut h, "echo");
    assert_eq!(
        response(&h, c),
        Some(Err(RequestError::SessionHeaderHidden))
    );
    let msg = RequestError::SessionHeaderHidden.to_string();
    assert!(msg.contains("Access-Control-Expose-Headers"));
}

#[test]
fn a_server_without_sessions_refusing_a_call_is_not_taken_for_a_hidden_session_id() {
    /// A stateless 2025-era server: no `Mcp-Session-Id` at all; it refuses one call.
    struct Stateless;
    impl Server for Stateless {
        fn handle(&mut self, _req: &HttpRequest, body: Option<&Value>) -> Reply {
            let b = body.cloned().unwrap_or_default();
            let id = &b["id"];
            match b["method"].as_str() {
                Some("server/discover") => Reply::Raw(404, "text/plain", vec![]),
                Some("initialize") => Reply::Json(
                    200,
                    json_ct(),
                    result(
                        id,
                        json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}),
                    ),
                ),
                Some("tools/call") => Reply::Json(
                    400,
                    json_ct(),
                    error(id, -32602, "Invalid params: no such argument"),
                ),
                _ => Reply::Accepted,
            }
        }
    }
    let mut h = Harness::new(Session::new(config()), Stateless);
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    let c = call(&mut h, "echo");
    assert_eq!(rpc_code(&h, c), Some(-32602), "{:?}", response(&h, c));
}

#[test]
fn a_400_that_is_not_about_the_session_does_not_start_a_new_one() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "invalid");
    assert_eq!(rpc_code(&h, c), Some(-32602), "{:?}", response(&h, c));
    assert_eq!(h.server.inits, 1, "initialized again");
    assert_eq!(h.session.state(), ConnectionState::Connected);
}

#[test]
fn requests_wait_until_the_server_accepted_notifications_initialized() {
    // Holds the `notifications/initialized` POST open (like a slow server).
    let slow = || {
        answering(
            Legacy::new(ProbeAnswer::NotInitialized),
            "notifications/initialized",
            |_| Reply::Hang,
        )
    };
    let mut h = Harness::new(Session::new(config()), slow());
    let c = h.session.request(
        "tools/call",
        Some(json!({"name": "echo"})),
        RequestOptions::default(),
        h.now,
    );
    h.connect();
    assert_eq!(
        h.session.state(),
        ConnectionState::Connecting,
        "not connected before the server accepted initialized"
    );
    assert!(h.posted_method("tools/call").is_empty());
    // The server accepts it: now the request goes out.
    let tid = *h.hanging.last().unwrap();
    h.hanging.clear();
    h.deliver(tid, Reply::Accepted);
    h.pump();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert!(matches!(response(&h, c), Some(Ok(_))));

    // A server that never answers it: the client goes on after the probe timeout.
    let mut h = Harness::new(Session::new(config()), slow());
    h.connect();
    h.advance(5_001);
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::Warning(w) if w.contains("initialized"))));
}

#[test]
fn the_get_stream_opens_with_the_handshake_and_calls_wait_for_its_answer_listings_do_not() {
    /// Holds the GET stream's answer (a slow server), then sends a server request on it the
    /// moment it opens, as servers do with requests that belong to no client request.
    struct SlowGet(Legacy);
    impl Server for SlowGet {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            if req.method == HttpMethod::Get {
                return Reply::Hang;
            }
            self.0.handle(req, body)
        }
    }
    let mut h = Harness::new(
        Session::new(config()),
        SlowGet(Legacy::new(ProbeAnswer::NotInitialized)),
    );
    let c = h.session.request(
        "tools/call",
        Some(json!({"name": "echo"})),
        RequestOptions::default(),
        h.now,
    );
    h.connect();
    let get = h
        .sent
        .iter()
        .position(|r| r.method == HttpMethod::Get)
        .expect("GET opened during the handshake");
    // Connected once the server accepted `notifications/initialized`; a tool call (which may
    // make the server send a request on the GET stream) waits for that stream's answer, ...
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert!(
        h.posted_method("tools/call").is_empty(),
        "no tool call before the GET stream answered"
    );
    assert_eq!(response(&h, c), None);
    // ... a listing does not.
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.pump();
    assert_eq!(h.posted_method("tools/list").len(), 1);
    assert!(matches!(
        response(&h, list),
        Some(Ok(McpResult::ListTools(_)))
    ));
    assert!(h.posted_method("tools/call").is_empty());
    let tid = *h.hanging.last().unwrap();
    h.hanging.clear();
    h.deliver(
        tid,
        Reply::Sse(
            vec![],
            vec![sse(json!({"jsonrpc": "2.0", "id": "s1", "method": "ping"}))],
            End::Open,
        ),
    );
    h.pump();
    assert!(matches!(response(&h, c), Some(Ok(_))));
    let first_call = h
        .sent
        .iter()
        .position(|r| {
            r.body
                .as_ref()
                .is_some_and(|b| String::from_utf8_lossy(b).contains("tools/call"))
        })
        .unwrap();
    assert!(get < first_call);
    assert!(
        h.posted()
            .iter()
            .any(|m| m["id"] == "s1" && m.get("result").is_some()),
        "the ping on the GET stream was answered"
    );

    // A GET that never answers holds nothing up for longer than the probe timeout.
    let mut h = Harness::new(
        Session::new(config()),
        SlowGet(Legacy::new(ProbeAnswer::NotInitialized)),
    );
    h.connect();
    let c = h.session.request(
        "tools/call",
        Some(json!({"name": "echo"})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    assert_eq!(response(&h, c), None);
    h.advance(5_001);
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert!(matches!(response(&h, c), Some(Ok(_))));
}

#[test]
fn a_2025_era_tool_list_is_taken_as_it_is_whatever_its_x_mcp_header_annotations() {
    // Lists a tool whose annotation a 2026-07-28 client would refuse (a header for a
    // number): the annotation means nothing in the 2025 era.
    let annotated = answering(
        Legacy::new(ProbeAnswer::NotInitialized),
        "tools/list",
        |b| {
            let tools = json!({"tools": [{"name": "bad", "inputSchema": {"type": "object",
                "properties": {"f": {"type": "number", "x-mcp-header": "F"}}}}]});
            Reply::Json(200, json_ct(), result(&b["id"], tools))
        },
    );
    let mut h = Harness::new(Session::new(config()), annotated);
    h.connect();
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.pump();
    let Some(Ok(McpResult::ListTools(tools))) = response(&h, list) else {
        panic!("{:?}", h.events)
    };
    assert_eq!(tools.tools.len(), 1);
    assert_eq!(tools.tools[0].name, "bad");
}

#[test]
fn a_task_answer_from_a_2025_era_server_is_refused_even_with_the_extension_configured() {
    // Answers every call with a Tasks extension task, which only a 2026-07-28 session
    // declares it can take.
    let task_answers = answering(
        Legacy::new(ProbeAnswer::NotInitialized),
        "tools/call",
        |b| {
            let task = json!({"resultType": "task", "taskId": "t-1", "status": "working",
                "createdAt": "2026-11-27T10:00:00Z", "lastUpdatedAt": "2026-11-27T10:00:00Z"});
            Reply::Json(200, json_ct(), result(&b["id"], task))
        },
    );
    let mut cfg = config();
    cfg.tasks_extension = true;
    let mut h = Harness::new(Session::new(cfg), task_answers);
    h.connect();
    let c = call(&mut h, "report");
    assert!(
        matches!(response(&h, c), Some(Err(RequestError::Protocol(ref m))) if m.contains("tasks extension")),
        "{:?}",
        response(&h, c)
    );
}

#[test]
fn legacy_results_are_never_served_from_the_cache() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    for _ in 0..2 {
        let list = h
            .session
            .request("tools/list", None, RequestOptions::default(), h.now);
        h.pump();
        assert!(matches!(
            response(&h, list),
            Some(Ok(McpResult::ListTools(_)))
        ));
    }
    assert_eq!(h.posted_method("tools/list").len(), 2);
}

#[test]
fn a_resumption_the_gateway_refuses_or_that_breaks_empty_is_tried_again_from_the_same_event() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.cuts_left = 1;
    h.server.resume_faults = vec![ResumeFault::Unavailable, ResumeFault::EmptyCut];
    let c = call(&mut h, "cut");
    for _ in 0..3 {
        assert!(response(&h, c).is_none(), "{:?}", h.events);
        h.advance(1_001);
    }
    let Some(Ok(McpResult::CallTool(r))) = response(&h, c) else {
        panic!("{:?}", h.events)
    };
    assert_eq!(r.content[0].as_text(), Some("resumed"));
    let resumed_from: Vec<_> = h
        .sent
        .iter()
        .filter_map(|r| r.header("last-event-id"))
        .collect();
    assert_eq!(resumed_from.len(), 3);
    assert!(
        resumed_from.iter().all(|id| *id == resumed_from[0]),
        "{resumed_from:?}"
    );
    assert_eq!(h.server.inits, 1, "the same session throughout");
}

#[test]
fn a_stream_that_cannot_be_resumed_is_resumed_a_bounded_number_of_times_then_the_call_sent_again() {
    let mut h = connected(Legacy::new(ProbeAnswer::NotInitialized));
    h.server.cuts_left = 1;
    h.server.resume_faults = vec![ResumeFault::EmptyCut; 20];
    let c = call(&mut h, "cut");
    h.advance(60_000);
    let resumptions = h
        .sent
        .iter()
        .filter(|r| {
            r.header("last-event-id")
                .is_some_and(|id| id.starts_with("call-"))
        })
        .count();
    assert_eq!(
        resumptions, 5,
        "the attempts allowed (max_stream_reconnects)"
    );
    // Then sent again as a new request (the server no longer cuts it).
    assert_eq!(h.posted_method("tools/call").len(), 2);
    assert!(
        matches!(response(&h, c), Some(Ok(McpResult::CallTool(_)))),
        "{:?}",
        response(&h, c)
    );
}

#[test]
fn a_2024_11_05_server_remembered_as_legacy_costs_one_probe_and_no_second_initialize() {
    // The remembered era is tried first; its refusal (405) makes the client check the era once
    // (the server may have changed), and the probe's refusal then leads straight to the
    // HTTP+SSE transport: `initialize` is not posted to the MCP URL a second time.
    let mut cfg = SessionConfig::new("http://127.0.0.1:1/sse");
    cfg.era_hint = Some(Era::Legacy);
    let h = connect_to_old_sse(cfg, false);
    assert_eq!(details(&h).wire, WireProtocol::HttpSse);
    let to_mcp_url: Vec<&str> = h
        .sent
        .iter()
        .filter(|r| r.method == HttpMethod::Post && r.url.ends_with("/sse"))
        .filter_map(|r| r.body.as_ref())
        .map(|b| {
            if String::from_utf8_lossy(b).contains("\"initialize\"") {
                "initialize"
            } else {
                "server/discover"
            }
        })
        .collect();
    assert_eq!(to_mcp_url, ["initialize", "server/discover"]);
}

#[test]
fn a_remembered_legacy_era_refused_by_an_auth_challenge_is_not_probed() {
    struct Guarded;
    impl Server for Guarded {
        fn handle(&mut self, _: &HttpRequest, _: Option<&Value>) -> Reply {
            Reply::Raw(401, "text/plain", vec![])
        }
    }
    let mut cfg = config();
    cfg.era_hint = Some(Era::Legacy);
    let mut h = Harness::new(Session::new(cfg), Guarded);
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::AuthRequired);
    assert!(h.posted_method("server/discover").is_empty());
}

#[test]
fn on_the_http_sse_transport_a_refused_initialize_is_not_probed_even_with_a_remembered_era() {
    // The era probe is a Streamable HTTP request: a client told to use the 2024-11-05
    // transport reports the refusal.
    let mut cfg = SessionConfig::new("http://127.0.0.1:1/sse");
    cfg.transport = TransportMode::HttpSse;
    cfg.era_hint = Some(Era::Legacy);
    let h = connect_to_old_sse(cfg, true);
    assert_eq!(h.session.state(), ConnectionState::Failed, "{:?}", h.events);
    assert!(h
        .sent
        .iter()
        .filter_map(|r| r.body.as_ref())
        .all(|b| !String::from_utf8_lossy(b).contains("server/discover")));
}

/// A `server/discover` result kept from an earlier visit (fresh by the caller's clock).
fn kept_discover() -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "kept", "version": "1"}},
        "ttlMs": 3_600_000,
        "cacheScope": "public",
    })
}

#[test]
fn a_server_that_turned_legacy_since_its_discover_result_was_kept_is_probed_and_nothing_is_lost() {
    // The kept result said 2026-07-28, so connecting asks nothing; the server now speaks only
    // the 2025 era and refuses the first modern request. The session probes as for an unknown
    // server, falls back to `initialize`, and sends the refused call again: the caller sees
    // its answer, not the refusal.
    for probe in [ProbeAnswer::NotInitialized, ProbeAnswer::Plain404] {
        let mut cfg = config();
        cfg.known_discover = Some(kept_discover());
        let mut h = Harness::new(Session::new(cfg), Legacy::new(probe));
        h.connect();
        assert!(h.sent.is_empty(), "the kept result is trusted while fresh");
        assert_eq!(details(&h).era, Era::Modern);
        assert_eq!(details(&h).server_info.name, "kept");
        let c = call(&mut h, "echo");
        let requests: Vec<Value> = h
            .posted()
            .iter()
            .filter(|m| m.get("id").is_some())
            .map(|m| m["method"].clone())
            .collect();
        assert_eq!(
            requests,
            [
                json!("tools/call"),
                json!("server/discover"),
                json!("initialize"),
                json!("tools/call")
            ]
        );
        match response(&h, c) {
            Some(Ok(McpResult::CallTool(r))) => assert_eq!(r.content[0].as_text(), Some("hi")),
            other => panic!("expected the call's answer, got {other:?}"),
        }
        assert_eq!(details(&h).era, Era::Legacy);
        assert!(h
            .events
            .contains(&Event::State(ConnectionState::Reconnecting)));
        assert_eq!(h.session.state(), ConnectionState::Connected);
        // Nothing tells the application to keep a discover result for this server.
        assert!(!h
            .events
            .iter()
            .any(|e| matches!(e, Event::Discovered { .. })));
    }
}

#[test]
fn a_kept_discover_result_is_not_used_when_the_era_is_remembered_as_legacy() {
    let mut cfg = config();
    cfg.known_discover = Some(kept_discover());
    cfg.era_hint = Some(Era::Legacy);
    let h = connected_with(cfg, Legacy::new(ProbeAnswer::NotInitialized));
    assert_eq!(h.posted()[0]["method"], "initialize");
    assert_eq!(details(&h).era, Era::Legacy);
}

#[test]
fn a_kept_discover_result_is_not_used_on_the_http_sse_transport() {
    let mut cfg = SessionConfig::new("http://127.0.0.1:1/sse");
    cfg.transport = TransportMode::HttpSse;
    cfg.known_discover = Some(kept_discover());
    let h = connect_to_old_sse(cfg, false);
    assert_eq!(details(&h).wire, WireProtocol::HttpSse);
    assert_eq!(details(&h).era, Era::Legacy);
}

fn connected_with(cfg: SessionConfig, server: Legacy) -> Harness<Legacy> {
    let mut h = Harness::new(Session::new(cfg), server);
    h.connect();
    assert_eq!(
        h.session.state(),
        ConnectionState::Connected,
        "{:?}",
        h.events
    );
    h
}

#[test]
fn the_wire_id_of_a_request_is_known_while_it_is_under_way_only() {
    let mut h = connected_with(config(), Legacy::new(ProbeAnswer::NotInitialized));
    let c = call(&mut h, "slow");
    let sent_id = h.posted_method("tools/call")[0]["id"].clone();
    let known = h
        .session
        .wire_id(c)
        .map(|id| serde_json::to_value(id).expect("an id"));
    assert_eq!(known, Some(sent_id));
    // Answered: no longer under way.
    let quick = call(&mut h, "echo");
    assert!(matches!(response(&h, quick), Some(Ok(_))));
    assert_eq!(h.session.wire_id(quick), None);
    // Not sent yet (no session): none.
    let mut idle = Session::new(config());
    let queued = idle.request("tools/call", None, RequestOptions::default(), h.now);
    assert_eq!(idle.wire_id(queued), None);
}

/// A 2025-era server that refuses `server/discover` and answers `initialize` with
/// `initialize` (a status and body), or 404 for anything else.
struct Initializes {
    initialize: (u16, Value),
}

impl Server for Initializes {
    fn handle(&mut self, _: &HttpRequest, body: Option<&Value>) -> Reply {
        let Some(b) = body else {
            return Reply::Raw(404, "text/plain", vec![]);
        };
        match b["method"].as_str() {
            Some("server/discover") => {
                Reply::Json(400, json_ct(), error(&b["id"], -32601, "Method not found"))
            }
            Some("initialize") => {
                let (status, answer) = self.initialize.clone();
                let mut answer = answer;
                answer["id"] = b["id"].clone();
                Reply::Json(status, json_ct(), answer)
            }
            _ => Reply::Raw(404, "text/plain", vec![]),
        }
    }
}

#[test]
fn an_initialize_answer_in_a_version_we_do_not_speak_fails_clearly() {
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {
        "protocolVersion": "2099-01-01", "capabilities": {},
        "serverInfo": {"name": "future", "version": "1"}}});
    let mut h = Harness::new(
        Session::new(config()),
        Initializes {
            initialize: (200, answer),
        },
    );
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(
        h.events.iter().any(|e| matches!(e,
            Event::ConnectFailed(RequestError::Unavailable(m)) if m.contains("2099-01-01"))),
        "{:?}",
        h.events
    );
}

#[test]
fn a_refused_initialize_tries_the_http_sse_transport_only_in_auto_mode() {
    let refused = || Initializes {
        initialize: (404, json!({})),
    };
    // Auto: the 2024-11-05 HTTP+SSE transport is tried next (a GET for its event stream).
    let mut h = Harness::new(Session::new(config()), refused());
    h.connect();
    assert!(
        h.sent.iter().any(|r| r.method == HttpMethod::Get),
        "HTTP+SSE tried"
    );
    // Streamable HTTP only: the refusal is the answer.
    let mut cfg = config();
    cfg.transport = TransportMode::StreamableHttp;
    let mut h = Harness::new(Session::new(cfg), refused());
    h.connect();
    assert!(!h.sent.iter().any(|r| r.method == HttpMethod::Get));
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(
        h.events.iter().any(|e| matches!(
            e,
            Event::ConnectFailed(RequestError::Http { status: 404, .. })
        )),
        "{:?}",
        h.events
    );
}

/// The legacy server with its GET streams answered from `replies` first, then as usual.
struct GetAnswers {
    server: Legacy,
    replies: Vec<Reply>,
}

impl Server for GetAnswers {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        if req.method == HttpMethod::Get && !self.replies.is_empty() {
            return self.replies.remove(0);
        }
        self.server.handle(req, body)
    }
}

fn connected_answering_gets(replies: Vec<Reply>) -> Harness<GetAnswers> {
    let server = GetAnswers {
        server: Legacy::new(ProbeAnswer::NotInitialized),
        replies,
    };
    let mut h = Harness::new(Session::new(config()), server);
    h.connect();
    assert_eq!(
        h.session.state(),
        ConnectionState::Connected,
        "{:?}",
        h.events
    );
    h
}

fn warnings<S: Server>(h: &Harness<S>) -> Vec<&str> {
    h.events
        .iter()
        .filter_map(|e| match e {
            Event::Warning(w) => Some(w.as_str()),
            _ => None,
        })
        .collect()
}

/// The times (ms after now) at which a GET stream was asked for over the next `ms`.
fn gets_over<S: Server>(h: &mut Harness<S>, ms: u64) -> Vec<u64> {
    let start = h.now.0;
    let mut at = vec![];
    for _ in 0..ms {
        let before = stream_gets(h);
        h.advance(1);
        if stream_gets(h) > before {
            at.push(h.now.0 - start);
        }
    }
    at
}

#[test]
fn a_get_stream_refused_with_a_server_error_is_asked_for_later_each_time_then_after_the_next_answer(
) {
    let busy = Reply::Raw(503, "text/plain", b"busy".to_vec());
    let mut h = connected_answering_gets(vec![busy; 6]);
    // Refused at once, then 2, 4, 8, 16 and 32 s later (five attempts), then given up.
    assert_eq!(
        gets_over(&mut h, 70_000),
        [2_000, 6_000, 14_000, 30_000, 62_000]
    );
    assert_eq!(stream_gets(&h), 6);
    assert!(
        warnings(&h)
            .iter()
            .any(|w| w.contains("could not be kept open (HTTP 503)")),
        "{:?}",
        warnings(&h)
    );
    // The server answers a request again: its event stream is asked for again, and opens.
    let c = call(&mut h, "echo");
    assert!(matches!(response(&h, c), Some(Ok(_))), "{:?}", h.events);
    assert_eq!(stream_gets(&h), 7);
    assert_eq!(h.open_streams.len(), 1);
}

#[test]
fn a_get_stream_the_server_refuses_is_not_asked_for_again_and_a_405_is_no_news() {
    let mut h =
        connected_answering_gets(vec![Reply::Raw(403, "text/plain", b"Forbidden".to_vec())]);
    assert_eq!(gets_over(&mut h, 120_000), [] as [u64; 0]);
    assert!(
        warnings(&h)
            .iter()
            .any(|w| w.contains("refused its event stream: HTTP 403")),
        "{:?}",
        warnings(&h)
    );
    // 405: the server offers no stream, as the spec lets it say.
    let mut h = connected_answering_gets(vec![Reply::Raw(405, "text/plain", vec![])]);
    assert_eq!(gets_over(&mut h, 120_000), [] as [u64; 0]);
    assert!(warnings(&h).is_empty(), "{:?}", warnings(&h));
    // JSON where an event stream was asked for: said once, and not asked for again.
    let mut h = connected_answering_gets(vec![Reply::Json(200, json_ct(), json!({}))]);
    assert_eq!(gets_over(&mut h, 120_000), [] as [u64; 0]);
    assert_eq!(
        warnings(&h)
            .iter()
            .filter(|w| w.contains("content type \"application/json\""))
            .count(),
        1,
        "{:?}",
        warnings(&h)
    );
}

#[test]
fn a_get_stream_refused_for_want_of_authorization_is_asked_for_again_with_other_credentials() {
    let refused = || {
        Reply::Json(
            401,
            vec![(
                "WWW-Authenticate".into(),
                "Bearer error=\"invalid_token\"".into(),
            )],
            json!({}),
        )
    };
    let mut h = connected_answering_gets(vec![refused()]);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::AuthRequired { status: 401, .. })));
    // Not with the same credentials ...
    assert_eq!(gets_over(&mut h, 60_000), [] as [u64; 0]);
    h.session
        .set_extra_headers(vec![("X-Other".into(), "1".into())]);
    h.pump();
    assert_eq!(stream_gets(&h), 1);
    // ... but with new ones (a token refreshed after a request was refused).
    h.session
        .set_extra_headers(vec![("Authorization".into(), "Bearer fresh".into())]);
    h.pump();
    assert_eq!(stream_gets(&h), 2);
    let get = h.sent.last().expect("a GET");
    assert_eq!(get.header("authorization"), Some("Bearer fresh"));
    assert_eq!(h.open_streams.len(), 1);

    // Credentials that changed while the stream was being refused: asked for again at once.
    let mut h = connected_answering_gets(vec![Reply::Hang]);
    let refused_get = *h.hanging.last().expect("the GET stream waits");
    h.session
        .set_extra_headers(vec![("Authorization".into(), "Bearer fresh".into())]);
    h.pump();
    assert_eq!(stream_gets(&h), 1, "the stream under way is not doubled");
    h.deliver(refused_get, refused());
    h.pump();
    assert_eq!(stream_gets(&h), 2);
    assert_eq!(
        h.sent.last().expect("a GET").header("authorization"),
        Some("Bearer fresh")
    );
    assert_eq!(h.open_streams.len(), 1);
}

#[test]
fn a_notification_answered_with_200_and_a_text_body_is_accepted() {
    // Answers `notifications/initialized` with `200 OK` in plain text, as some servers do.
    let as_text = answering(
        Legacy::new(ProbeAnswer::NotInitialized),
        "notifications/initialized",
        |_| Reply::Raw(200, "text/plain", b"OK".to_vec()),
    );
    let mut h = Harness::new(Session::new(config()), as_text);
    h.connect();
    assert_eq!(
        h.session.state(),
        ConnectionState::Connected,
        "{:?}",
        h.events
    );
    let c = call(&mut h, "echo");
    assert!(matches!(response(&h, c), Some(Ok(_))), "{:?}", h.events);
}

#[test]
fn an_http_sse_stream_refused_or_broken_while_connecting_says_why() {
    /// A server whose HTTP+SSE event stream is answered with `reply` (its POSTs refused, so
    /// that the client falls back to that transport).
    struct SseMainAnswers(Reply);
    impl Server for SseMainAnswers {
        fn handle(&mut self, req: &HttpRequest, _: Option<&Value>) -> Reply {
            match req.method {
                HttpMethod::Get => self.0.clone(),
                _ => Reply::Raw(405, "text/plain", vec![]),
            }
        }
    }
    let connect = |reply: Reply| {
        let mut h = Harness::new(
            Session::new(SessionConfig::new("http://127.0.0.1:1/sse")),
            SseMainAnswers(reply),
        );
        h.connect();
        h
    };
    let failure = |h: &Harness<SseMainAnswers>| {
        h.events.iter().find_map(|e| match e {
            Event::ConnectFailed(err) => Some(err.clone()),
            _ => None,
        })
    };
    // Login needed.
    let h = connect(Reply::Json(
        401,
        vec![(
            "WWW-Authenticate".into(),
            "Bearer resource_metadata=\"http://127.0.0.1:1/.well-known/oauth-protected-resource\""
                .into(),
        )],
        json!({}),
    ));
    assert_eq!(h.session.state(), ConnectionState::AuthRequired);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::AuthRequired { status: 401, www_authenticate: Some(w) } if w.contains("resource_metadata"))));
    // A page where the event stream should be.
    let h = connect(Reply::Raw(200, "text/html", b"<html>".to_vec()));
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(
        matches!(failure(&h), Some(RequestError::Protocol(ref m)) if m.contains("content type \"text/html\"")),
        "{:?}",
        failure(&h)
    );
    // Refused, in words.
    let h = connect(Reply::Raw(403, "text/plain", b"Forbidden".to_vec()));
    assert!(
        matches!(failure(&h), Some(RequestError::Http { status: 403, ref body, .. }) if body == "Forbidden"),
        "{:?}",
        failure(&h)
    );
    // Opened, then ended before it said where to send messages.
    let h = connect(Reply::Sse(vec![], vec![], End::Close));
    assert_eq!(failure(&h), Some(RequestError::StreamCut));
    // No answer at all.
    let h = connect(Reply::Network("connection refused"));
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(
        matches!(failure(&h), Some(RequestError::Transport(TransportFailure::Network(ref m))) if m == "connection refused"),
        "{:?}",
        failure(&h)
    );
}

#[test]
fn an_event_stream_refused_for_want_of_a_login_during_the_handshake_is_asked_for_once_new_credentials_come(
) {
    // The standalone GET goes out with `notifications/initialized`; here its 401 comes back
    // before the server accepted the notification. The session still connects and serves
    // calls; the stream is not asked for again with the same credentials when the handshake
    // ends, only once they change.
    let mut server = Legacy::new(ProbeAnswer::NotInitialized);
    server.get_status = 401;
    let slow = answering(server, "notifications/initialized", |_| Reply::Hang);
    let mut h = Harness::new(Session::new(config()), slow);
    h.connect();
    let gets = |h: &Harness<_>| {
        h.sent
            .iter()
            .filter(|r| r.method == HttpMethod::Get)
            .count()
    };
    assert_eq!(gets(&h), 1);
    assert_eq!(h.session.state(), ConnectionState::Connecting);
    let initialized = h.requests_for("notifications/initialized")[0].id;
    h.deliver(initialized, Reply::Accepted);
    h.pump();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert_eq!(gets(&h), 1, "not asked for again with the same credentials");
    let c = call(&mut h, "echo");
    assert!(
        matches!(response(&h, c), Some(Ok(_))),
        "{:?}",
        response(&h, c)
    );
    h.session
        .set_extra_headers(vec![("Authorization".into(), "Bearer new".into())]);
    h.pump();
    assert_eq!(gets(&h), 2, "asked for again with the new credentials");
}

// ----- listings sent alongside the era probe -----

#[test]
fn a_listing_sent_alongside_the_probe_goes_again_in_the_legacy_session() {
    let server = SlowProbe::new(Legacy::new(ProbeAnswer::NotInitialized));
    let mut h = Harness::new(Session::new(config()), server);
    h.connect();
    let list = h.ask("tools/list");
    // Refused (the server knows no modern request), and held for the probe.
    assert_eq!(h.responses_to(list), 0);
    h.answer_probe();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert!(matches!(
        response(&h, list),
        Some(Ok(McpResult::ListTools(ref l))) if l.tools.is_empty()
    ));
    assert_eq!(h.responses_to(list), 1);
    let lists = h.requests_for("tools/list");
    assert_eq!(
        lists.len(),
        2,
        "once alongside the probe, once in the session"
    );
    assert_eq!(lists[0].header("mcp-protocol-version"), Some("2026-07-28"));
    assert!(lists[0].header("mcp-session-id").is_none());
    assert_eq!(lists[1].header("mcp-session-id"), Some("sess-1"));
    assert!(lists[1].header("mcp-method").is_none());
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        &methods[..4],
        [
            json!("server/discover"),
            json!("tools/list"),
            json!("initialize"),
            json!("notifications/initialized")
        ]
    );
}

#[test]
fn a_legacy_servers_answer_to_a_listing_sent_alongside_the_probe_is_dropped() {
    // A stateless legacy server may run a modern request in its own era: that answer is not
    // the application's (its era was not known yet).
    struct Stateless(Legacy);
    impl Server for Stateless {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            match body {
                Some(b) if b["method"] == "tools/list" && req.header("mcp-method").is_some() => {
                    Reply::Json(
                        200,
                        json_ct(),
                        result(
                            &b["id"],
                            json!({"tools": [{"name": "wrong-era", "inputSchema": {"type": "object"}}], "ttlMs": 60_000}),
                        ),
                    )
                }
                _ => self.0.handle(req, body),
            }
        }
    }
    let server = SlowProbe::new(Stateless(Legacy::new(ProbeAnswer::NotInitialized)));
    let mut h = Harness::new(Session::new(config()), server);
    h.connect();
    let list = h.ask("tools/list");
    assert_eq!(h.responses_to(list), 0, "held for the probe");
    h.answer_probe();
    assert!(
        matches!(
            response(&h, list),
            Some(Ok(McpResult::ListTools(ref l))) if l.tools.is_empty()
        ),
        "the session's answer, not the one given before the era was known"
    );
    assert_eq!(h.responses_to(list), 1);
    // Nothing of that answer was kept: the next listing asks the server.
    let again = h.ask("tools/list");
    assert!(matches!(
        response(&h, again),
        Some(Ok(McpResult::ListTools(ref l))) if l.tools.is_empty()
    ));
    assert_eq!(h.requests_for("tools/list").len(), 3);
}

#[test]
fn a_listing_alongside_a_probe_that_fails_below_http_goes_again_after_initialize() {
    // CORS refusing the modern headers looks like a network failure, for both.
    let server = SlowProbe::new(Legacy::new(ProbeAnswer::NetworkError));
    let mut h = Harness::new(Session::new(config()), server);
    let list = h
        .session
        .request("resources/list", None, RequestOptions::default(), h.now);
    h.connect();
    h.answer_probe();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert_eq!(h.responses_to(list), 1);
    let lists = h.requests_for("resources/list");
    assert_eq!(lists.len(), 2);
    assert_eq!(lists[1].header("mcp-session-id"), Some("sess-1"));
}

#[test]
fn a_remembered_legacy_era_sends_no_listing_before_the_session() {
    let mut cfg = config();
    cfg.era_hint = Some(Era::Legacy);
    let mut h = Harness::new(Session::new(cfg), Legacy::new(ProbeAnswer::NotInitialized));
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.connect();
    assert_eq!(h.responses_to(list), 1);
    let lists = h.requests_for("tools/list");
    assert_eq!(lists.len(), 1, "no probe, nothing alongside it");
    assert_eq!(lists[0].header("mcp-session-id"), Some("sess-1"));
}
