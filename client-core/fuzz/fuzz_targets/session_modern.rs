//! Fuzzes a connected 2026-07-28 session and its response cache. The bytes are a script:
//! application requests (cacheable and not, with every cache mode), server answers (results
//! with arbitrary `ttlMs` / `cacheScope` / `resultType`, change notifications before them,
//! or arbitrary bodies), transport failures, new credentials, cancellations, reconnects and
//! time passing. Never panics, never loops; every handle is answered at most once and only
//! handles the application holds are answered; an answer from the cache sends nothing.
#![no_main]
use client_core::http::{HttpRequest, ResponseHead, TransmitId, TransportFailure};
use client_core::session::{CacheMode, Event, Input, Output, RequestHandle, RequestOptions};
use client_core::time::Duration;
use client_core::{Instant, Session, SessionConfig};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};

/// The fuzzed script's state: the session, the exchanges it has open, what was answered.
struct Run {
    session: Session,
    now: Instant,
    /// Open exchanges, oldest first: the transmit id and the JSON-RPC request they carry.
    open: VecDeque<(TransmitId, Value)>,
    /// Handles the application holds, and how many answers each has had.
    answers: BTreeMap<RequestHandle, u32>,
}

impl Run {
    /// Drains every output; returns how many HTTP requests went out.
    fn drain(&mut self) -> usize {
        let mut sent = 0;
        for _ in 0..10_000 {
            let Some(out) = self.session.poll_output() else {
                return sent;
            };
            match out {
                Output::Http(req) => {
                    sent += 1;
                    self.open.push_back((req.id, body_of(&req)));
                }
                Output::Abort(tid) => self.open.retain(|(t, _)| *t != tid),
                Output::Event(Event::Response { handle, .. }) => {
                    let n = self.answers.get_mut(&handle);
                    let n = n.unwrap_or_else(|| panic!("an answer for {handle:?}, never asked"));
                    *n += 1;
                    assert_eq!(*n, 1, "{handle:?} answered twice");
                }
                _ => {}
            }
        }
        panic!("the session kept producing output: a loop?");
    }

    /// Feeds a whole reply (head, body in two pieces, end) for an exchange.
    fn reply(&mut self, tid: TransmitId, status: u16, content_type: &str, body: &[u8]) {
        let head = ResponseHead::new(status, &[("content-type", content_type)]);
        self.session
            .handle_input(Input::ResponseHead(tid, head), self.now);
        let cut = body.len() / 2;
        self.session
            .handle_input(Input::BodyChunk(tid, &body[..cut]), self.now);
        self.session
            .handle_input(Input::BodyChunk(tid, &body[cut..]), self.now);
        self.session.handle_input(Input::BodyEnd(tid), self.now);
    }
}

fn body_of(req: &HttpRequest) -> Value {
    req.body
        .as_deref()
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null)
}

/// A result for `request` whose caching hints and kind the fuzzer picks.
fn result_for(request: &Value, pick: u8) -> Value {
    let ttl = [
        Value::Null,
        json!(0),
        json!(-5),
        json!(1_000),
        json!(60_000),
        json!(1e18),
        json!("soon"),
        json!(2.5),
    ][(pick & 7) as usize]
        .clone();
    let scope = [Value::Null, json!("public"), json!("private"), json!(7)]
        [(pick >> 3 & 3) as usize]
        .clone();
    let mut r = json!({
        // A task (the Tasks extension, declared below) for any request: refused but for
        // `tools/call`.
        "resultType": (["complete", "complete", "task", "input_required"][(pick >> 5 & 3) as usize]),
        "taskId": "t", "status": "working", "pollIntervalMs": 250,
        "tools": [{"name": "echo", "inputSchema": {"type": "object",
            "properties": {"r": {"type": "string", "x-mcp-header": "Region"}}}}],
        "prompts": [], "resources": [], "resourceTemplates": [],
        "contents": [{"uri": request["params"]["uri"].clone(), "text": "x"}],
        "content": [{"type": "text", "text": "ok"}],
        "inputRequests": {"a": {"method": "roots/list"}},
    });
    if !ttl.is_null() {
        r["ttlMs"] = ttl;
    }
    if !scope.is_null() {
        r["cacheScope"] = scope;
    }
    if pick >> 7 == 1 {
        r["nextCursor"] = json!("2");
    }
    r
}

const NOTIFICATIONS: [&str; 5] = [
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/message",
];

fuzz_target!(|data: &[u8]| {
    let mut cfg = SessionConfig::new("http://127.0.0.1:1/mcp");
    cfg.max_message_bytes = 1 << 16;
    cfg.tasks_extension = true;
    let mut run = Run {
        session: Session::new(cfg),
        now: Instant(0),
        open: VecDeque::new(),
        answers: BTreeMap::new(),
    };
    run.session.connect(run.now);
    run.drain();
    // A modern server: the era probe is answered properly, so the script starts connected.
    let discovered = json!({"jsonrpc": "2.0", "result": {"resultType": "complete",
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fuzz", "version": "1"}}}});
    if let Some((tid, probe)) = run.open.pop_front() {
        let mut answer = discovered;
        answer["id"] = probe["id"].clone();
        let text = answer.to_string();
        run.reply(tid, 200, "application/json", text.as_bytes());
        run.drain();
    }

    let mut bytes = data.iter().copied();
    let mut steps = 0;
    while let (Some(op), Some(arg)) = (bytes.next(), bytes.next()) {
        steps += 1;
        if steps > 200 {
            break;
        }
        match op % 9 {
            0 | 1 => {
                let (method, params) = match arg % 8 {
                    0 => ("tools/list", None),
                    1 => ("prompts/list", None),
                    2 => ("resources/list", None),
                    3 => ("resources/templates/list", None),
                    4 => {
                        let uri = ["test://a", "test://b"][(arg >> 3 & 1) as usize];
                        ("resources/read", Some(json!({ "uri": uri })))
                    }
                    5 => ("tools/list", Some(json!({"cursor": "2"}))),
                    // An empty string is a cursor too (not the first page).
                    6 => ("prompts/list", Some(json!({"cursor": ""}))),
                    _ => (
                        "tools/call",
                        Some(json!({"name": "echo", "arguments": {"r": "eu"}})),
                    ),
                };
                let cache = [CacheMode::Use, CacheMode::Refresh, CacheMode::Bypass]
                    [(arg >> 4) as usize % 3];
                let options = RequestOptions {
                    cache,
                    ..Default::default()
                };
                let handle = run.session.request(method, params, options, run.now);
                run.answers.insert(handle, 0);
                // Answered from the cache: the outputs say so and nothing goes out.
                let mut cached = false;
                let mut sent = 0;
                for _ in 0..10_000 {
                    let Some(out) = run.session.poll_output() else {
                        break;
                    };
                    match out {
                        Output::Event(Event::Cached {
                            handle: h,
                            fresh_for,
                            ..
                        }) => {
                            assert_eq!(h, handle);
                            assert!(fresh_for > Duration(0) && fresh_for <= Duration(86_400_000));
                            assert_eq!(cache, CacheMode::Use, "only Use reads the cache");
                            cached = true;
                        }
                        Output::Event(Event::Response { handle: h, .. }) => {
                            let n = run
                                .answers
                                .get_mut(&h)
                                .expect("an answer for a handle held");
                            *n += 1;
                            assert_eq!(*n, 1, "{h:?} answered twice");
                        }
                        Output::Http(req) => {
                            sent += 1;
                            run.open.push_back((req.id, body_of(&req)));
                        }
                        Output::Abort(tid) => run.open.retain(|(t, _)| *t != tid),
                        _ => {}
                    }
                }
                if cached {
                    assert_eq!(sent, 0, "a cached answer sent a request");
                    assert_eq!(
                        run.answers.get(&handle),
                        Some(&1),
                        "a cached answer at once"
                    );
                }
            }
            2 | 3 => {
                // A well-formed answer to the oldest exchange, maybe after a notification.
                let Some((tid, request)) = run.open.pop_front() else {
                    continue;
                };
                let Some(id) = request.get("id").cloned() else {
                    run.reply(tid, 202, "text/plain", b"");
                    run.drain();
                    continue;
                };
                let shape = bytes.next().unwrap_or(0);
                if shape % 4 == 3 {
                    // A refusal, as a 2026-07-28 server sends it: HTTP 400 with the error
                    // (invalid params or cursor, unknown method, resource not found, header
                    // mismatch, internal error).
                    let code = [-32602, -32601, -32002, -32020, -32603][arg as usize % 5];
                    let error = json!({"jsonrpc": "2.0", "id": id,
                        "error": {"code": code, "message": "refused"}});
                    run.reply(tid, 400, "application/json", error.to_string().as_bytes());
                    run.drain();
                    continue;
                }
                let answer =
                    json!({"jsonrpc": "2.0", "id": id, "result": result_for(&request, arg)});
                let body = match shape % 3 {
                    0 => (answer.to_string(), "application/json"),
                    n => {
                        let method = NOTIFICATIONS[arg as usize % NOTIFICATIONS.len()];
                        let note = json!({"jsonrpc": "2.0", "method": method,
                            "params": {"uri": "test://a", "level": "info", "data": "x"}});
                        let first = if n == 1 {
                            note
                        } else {
                            json!({"jsonrpc": "2.0", "method": "notifications/progress"})
                        };
                        (
                            format!("data: {first}\n\ndata: {answer}\n\n"),
                            "text/event-stream",
                        )
                    }
                };
                run.reply(tid, 200, body.1, body.0.as_bytes());
            }
            4 => {
                // Arbitrary bytes as the answer (any status, any type).
                let Some((tid, _)) = run.open.pop_front() else {
                    continue;
                };
                let n = (arg as usize).min(64);
                let body: Vec<u8> = bytes.by_ref().take(n).collect();
                let status = [200u16, 202, 400, 401, 404, 500][arg as usize % 6];
                let ct = ["application/json", "text/event-stream", "text/html"][arg as usize % 3];
                run.reply(tid, status, ct, &body);
            }
            5 => {
                let Some((tid, _)) = run.open.pop_front() else {
                    continue;
                };
                let failure = match arg % 3 {
                    0 => TransportFailure::Network("reset".into()),
                    1 => TransportFailure::BodyInterrupted("cut".into()),
                    _ => TransportFailure::Aborted,
                };
                run.session
                    .handle_input(Input::TransportError(tid, failure), run.now);
            }
            6 => {
                let token = if arg % 4 == 0 {
                    vec![]
                } else {
                    vec![("Authorization".into(), format!("Bearer t{}", arg % 4))]
                };
                run.session.set_extra_headers(token);
            }
            7 => {
                let held: Vec<RequestHandle> = run.answers.keys().copied().collect();
                if let Some(h) = held.get(arg as usize % held.len().max(1)) {
                    run.session.cancel(*h, run.now);
                }
            }
            _ => {
                run.now = Instant(run.now.0 + u64::from(arg) * 97);
                if run.session.poll_timeout().is_some_and(|t| t <= run.now) {
                    run.session.handle_input(Input::Timeout, run.now);
                }
            }
        }
        run.drain();
    }
    // Much later: every timer fires; the session stays sane.
    run.now = Instant(run.now.0 + 10_000_000);
    run.session.handle_input(Input::Timeout, run.now);
    run.drain();
});
