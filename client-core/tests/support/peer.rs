//! Two peers in memory: the real `Session` against a small scripted server, in the style of
//! quinn-proto's `tests/util.rs`. The harness performs the session's HTTP outputs by asking
//! the scripted server, feeds the replies back, and records events and traffic. Every message
//! the client sends is validated against the schema of the era it speaks.

use super::schema::SchemaValidator;
use client_core::http::{HttpMethod, HttpRequest, ResponseHead, TransmitId, TransportFailure};
use client_core::session::{ConnectionState, Event, Input, Output, RequestHandle, RequestOptions};
use client_core::{Instant, Session};
use serde_json::{json, Value};

/// How the scripted server answers one HTTP request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A JSON body.
    Json(u16, Vec<(String, String)>, Value),
    /// Raw bytes with a content type.
    Raw(u16, &'static str, Vec<u8>),
    /// An SSE body made of these chunks, then `end`.
    Sse(Vec<(String, String)>, Vec<String>, End),
    /// 202 Accepted, no body.
    Accepted,
    /// The request fails below HTTP.
    Network(&'static str),
    /// No answer at all (until aborted).
    Hang,
}

/// How an SSE reply ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum End {
    /// Body ends normally.
    Close,
    /// The connection breaks.
    Cut,
    /// Stays open; the test may push more with [`Harness::push`].
    Open,
}

/// A scripted server.
pub trait Server {
    /// Answers one request (`body` is the parsed JSON body, if any).
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply;
}

/// One SSE event carrying a JSON-RPC message.
pub fn sse(msg: Value) -> String {
    format!("data: {msg}\n\n")
}

/// One SSE event with an id.
pub fn sse_id(id: &str, msg: Value) -> String {
    format!("id: {id}\ndata: {msg}\n\n")
}

/// A JSON-RPC result for request `id`.
pub fn result(id: &Value, r: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": r})
}

/// A JSON-RPC error for request `id`.
pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A JSON content-type header list.
pub fn json_ct() -> Vec<(String, String)> {
    vec![("Content-Type".into(), "application/json".into())]
}

/// Drives a session against a scripted server.
pub struct Harness<S: Server> {
    pub session: Session,
    pub server: S,
    pub now: Instant,
    pub events: Vec<Event>,
    /// Every HTTP request the session made, in order.
    pub sent: Vec<HttpRequest>,
    pub aborted: Vec<TransmitId>,
    /// Frames the session sent (frames mode).
    pub frames: Vec<Value>,
    pub open_streams: Vec<TransmitId>,
    pub hanging: Vec<TransmitId>,
    /// How many times the session asked for the frames connection to be opened.
    pub frames_opened: u32,
    modern: SchemaValidator,
    legacy: SchemaValidator,
}

impl<S: Server> Harness<S> {
    pub fn new(session: Session, server: S) -> Self {
        Harness {
            session,
            server,
            now: Instant(1_000),
            events: vec![],
            sent: vec![],
            aborted: vec![],
            frames: vec![],
            open_streams: vec![],
            hanging: vec![],
            frames_opened: 0,
            modern: SchemaValidator::load("2026-07-28"),
            legacy: SchemaValidator::load("2025-11-25"),
        }
    }

    /// Connects and runs until nothing is left to do.
    pub fn connect(&mut self) {
        self.session.connect(self.now);
        self.pump();
    }

    /// Performs outputs until there are none (bounded).
    pub fn pump(&mut self) {
        for _ in 0..10_000 {
            let Some(out) = self.session.poll_output() else {
                return;
            };
            match out {
                Output::Event(e) => self.events.push(e),
                Output::Abort(t) => {
                    self.aborted.push(t);
                    self.open_streams.retain(|x| *x != t);
                    self.hanging.retain(|x| *x != t);
                }
                Output::Http(req) => self.perform(req),
                Output::Frame(bytes) => {
                    let v: Value = serde_json::from_slice(&bytes).expect("frame is JSON");
                    self.frames.push(v);
                }
                Output::OpenFrames => self.frames_opened += 1,
                Output::CloseFrames => {}
            }
        }
        panic!("the session kept producing output: a loop?");
    }

    fn validate(&self, req: &HttpRequest, body: &Value) {
        let modern = req.header("mcp-protocol-version") == Some("2026-07-28");
        let (schema, rev) = if modern {
            (&self.modern, "2026-07-28")
        } else {
            (&self.legacy, "2025-11-25")
        };
        let def = if body.get("method").is_some() && body.get("id").is_some() {
            "ClientRequest"
        } else if body.get("method").is_some() {
            "ClientNotification"
        } else {
            "JSONRPCResponse"
        };
        // The Tasks extension's methods are not in the core schema (their shapes are checked
        // by the tests that use them).
        let method = body.get("method").and_then(Value::as_str).unwrap_or("");
        if modern && matches!(method, "tasks/get" | "tasks/update" | "tasks/cancel") {
            return;
        }
        let errs = schema.errors(def, body);
        assert!(
            errs.is_empty(),
            "client sent an invalid {def} ({rev}): {errs:?}\n{body:#}"
        );
    }

    fn perform(&mut self, req: HttpRequest) {
        let body: Option<Value> = req
            .body
            .as_ref()
            .map(|b| serde_json::from_slice(b).expect("client sends JSON"));
        if let Some(b) = &body {
            if b.get("method").and_then(Value::as_str) != Some("server/discover")
                || req.header("mcp-protocol-version") == Some("2026-07-28")
            {
                self.validate(&req, b);
            }
        }
        if req.method == HttpMethod::Post {
            assert_eq!(
                req.header("accept"),
                Some("application/json, text/event-stream")
            );
            assert_eq!(req.header("content-type"), Some("application/json"));
        }
        self.sent.push(req.clone());
        let reply = self.server.handle(&req, body.as_ref());
        self.deliver(req.id, reply);
    }

    /// Feeds a reply for exchange `tid`.
    pub fn deliver(&mut self, tid: TransmitId, reply: Reply) {
        let now = self.now;
        let s = &mut self.session;
        match reply {
            Reply::Json(status, headers, v) => {
                let mut h = headers;
                if !h
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                {
                    h.push(("Content-Type".into(), "application/json".into()));
                }
                s.handle_input(
                    Input::ResponseHead(tid, ResponseHead { status, headers: h }),
                    now,
                );
                let bytes = serde_json::to_vec(&v).unwrap();
                // Split the body to exercise reassembly.
                let mid = bytes.len() / 2;
                s.handle_input(Input::BodyChunk(tid, &bytes[..mid]), now);
                s.handle_input(Input::BodyChunk(tid, &bytes[mid..]), now);
                s.handle_input(Input::BodyEnd(tid), now);
            }
            Reply::Raw(status, ct, bytes) => {
                s.handle_input(
                    Input::ResponseHead(tid, ResponseHead::new(status, &[("content-type", ct)])),
                    now,
                );
                s.handle_input(Input::BodyChunk(tid, &bytes), now);
                s.handle_input(Input::BodyEnd(tid), now);
            }
            Reply::Sse(headers, chunks, end) => {
                let mut h = headers;
                h.push(("Content-Type".into(), "text/event-stream".into()));
                s.handle_input(
                    Input::ResponseHead(
                        tid,
                        ResponseHead {
                            status: 200,
                            headers: h,
                        },
                    ),
                    now,
                );
                for c in &chunks {
                    // Feed in odd-sized pieces to cross event and UTF-8 boundaries.
                    for piece in c.as_bytes().chunks(7) {
                        s.handle_input(Input::BodyChunk(tid, piece), now);
                    }
                }
                match end {
                    End::Close => s.handle_input(Input::BodyEnd(tid), now),
                    End::Cut => s.handle_input(
                        Input::TransportError(
                            tid,
                            TransportFailure::BodyInterrupted("reset".into()),
                        ),
                        now,
                    ),
                    End::Open => self.open_streams.push(tid),
                }
            }
            Reply::Accepted => {
                s.handle_input(Input::ResponseHead(tid, ResponseHead::new(202, &[])), now);
                s.handle_input(Input::BodyEnd(tid), now);
            }
            Reply::Network(why) => s.handle_input(
                Input::TransportError(tid, TransportFailure::Network(why.into())),
                now,
            ),
            Reply::Hang => self.hanging.push(tid),
        }
    }

    /// Pushes more SSE text on an open stream and pumps.
    pub fn push(&mut self, tid: TransmitId, text: &str) {
        self.session
            .handle_input(Input::BodyChunk(tid, text.as_bytes()), self.now);
        self.pump();
    }

    /// Ends an open stream (normally or cut) and pumps.
    pub fn end(&mut self, tid: TransmitId, cut: bool) {
        self.open_streams.retain(|x| *x != tid);
        let input = if cut {
            Input::TransportError(tid, TransportFailure::BodyInterrupted("reset".into()))
        } else {
            Input::BodyEnd(tid)
        };
        self.session.handle_input(input, self.now);
        self.pump();
    }

    /// Moves time forward by `ms`, firing due timeouts (bounded), and pumps.
    pub fn advance(&mut self, ms: u64) {
        let target = Instant(self.now.0 + ms);
        for _ in 0..1000 {
            match self.session.poll_timeout() {
                Some(t) if t <= target => {
                    self.now = std::cmp::max(self.now, t);
                    self.session.handle_input(Input::Timeout, self.now);
                    self.pump();
                }
                _ => break,
            }
        }
        self.now = target;
    }

    /// Delivers the next timeout `late` ms after it was due (a busy browser's timer).
    pub fn fire_late(&mut self, late: u64) {
        if let Some(t) = self.session.poll_timeout() {
            self.now = std::cmp::max(self.now, Instant(t.0 + late));
            self.session.handle_input(Input::Timeout, self.now);
            self.pump();
        }
    }

    /// Takes the events recorded so far.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// How many times the session said it entered `state`.
    pub fn times_in(&self, state: ConnectionState) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::State(s) if *s == state))
            .count()
    }

    /// The bodies of the POSTs sent, parsed.
    pub fn posted(&self) -> Vec<Value> {
        self.sent
            .iter()
            .filter_map(|r| r.body.as_ref())
            .map(|b| serde_json::from_slice(b).unwrap())
            .collect()
    }

    /// The posted messages with this method.
    pub fn posted_method(&self, method: &str) -> Vec<Value> {
        self.posted()
            .into_iter()
            .filter(|m| m["method"] == method)
            .collect()
    }

    /// The requests (HTTP) whose JSON body has this method.
    pub fn requests_for(&self, method: &str) -> Vec<HttpRequest> {
        self.sent
            .iter()
            .filter(|r| {
                r.body
                    .as_ref()
                    .and_then(|b| serde_json::from_slice::<Value>(b).ok())
                    .is_some_and(|v| v["method"] == method)
            })
            .cloned()
            .collect()
    }

    /// Asks for `method` (no parameters, default options) and lets everything run.
    pub fn ask(&mut self, method: &str) -> RequestHandle {
        let handle = self
            .session
            .request(method, None, RequestOptions::default(), self.now);
        self.pump();
        handle
    }

    /// How many times the request `handle` was answered (once at most, unless a bug).
    pub fn responses_to(&self, handle: RequestHandle) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Response { handle: x, .. } if *x == handle))
            .count()
    }
}

/// Types a raw result the way the application would: the session tests only list and call
/// tools.
pub fn typed(v: Value) -> client_core::session::McpResult {
    let method = if v.get("tools").is_some() {
        "tools/list"
    } else {
        "tools/call"
    };
    client_core::session::McpResult::decode(method, v).expect("a well-formed result")
}

/// A server whose answer to the era probe (`server/discover`) waits until the test gives it
/// ([`Harness::answer_probe`]): what the session sends meanwhile is answered at once by the
/// inner server.
pub struct SlowProbe<S: Server> {
    pub inner: S,
    /// The probe waiting for its answer.
    waiting: Option<(HttpRequest, Value)>,
}

impl<S: Server> SlowProbe<S> {
    pub fn new(inner: S) -> Self {
        SlowProbe {
            inner,
            waiting: None,
        }
    }
}

impl<S: Server> Server for SlowProbe<S> {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        match body {
            Some(b) if b["method"] == "server/discover" => {
                self.waiting = Some((req.clone(), b.clone()));
                Reply::Hang
            }
            _ => self.inner.handle(req, body),
        }
    }
}

impl<S: Server> Harness<SlowProbe<S>> {
    /// Answers the probe that is waiting (as the inner server answers it) and pumps.
    pub fn answer_probe(&mut self) {
        let (req, body) = self.server.waiting.take().expect("a probe is waiting");
        assert!(
            self.hanging.contains(&req.id),
            "the probe's exchange is still open"
        );
        self.hanging.retain(|t| *t != req.id);
        let reply = self.server.inner.handle(&req, Some(&body));
        self.deliver(req.id, reply);
        self.pump();
    }
}
