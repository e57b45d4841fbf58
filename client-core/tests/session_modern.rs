//! The session against a scripted 2026-07-28 (modern, stateless) server.

mod support;

use client_core::http::{HttpMethod, HttpRequest};
use client_core::session::*;
use client_core::types::*;
use client_core::{Session, SessionConfig};
use serde_json::{json, Value};
use support::peer::*;

#[derive(Default)]
struct Modern {
    /// Versions listed in discover.
    versions: Option<Vec<&'static str>>,
    /// Cut the stream of tool `cut` this many times before answering.
    cuts_left: u32,
    calls: u32,
    /// `ttlMs` on `tools/list` and `resources/read` results (caching hints).
    ttl: Option<Value>,
    /// Listings answered so far; the first `zone_header_after` of them do not yet mark the
    /// `strict` tool's `zone` as a header (the server's tools changed since).
    lists: u32,
    zone_header_after: u32,
    /// Tools per `tools/list` page (cursors are offsets); 0: all on one page.
    tools_per_page: usize,
    /// `tools/list` pages never end (each names a next one).
    endless_tools: bool,
    /// Resources that no longer exist (a read is refused with `-32602`, as 2026-07-28 says).
    gone: Vec<&'static str>,
    /// How `tools/list` and `resources/read` fail while the server is "down".
    down: Option<Reply>,
    /// Fields added to the `server/discover` result (its caching hints).
    discover_extra: Option<Value>,
}

impl Server for Modern {
    fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
        let body = body.expect("modern requests are POSTs");
        let id = &body["id"];
        let method = body["method"].as_str().unwrap_or("");
        assert_eq!(req.header("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(req.header("mcp-method"), Some(method));
        assert_eq!(
            body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        let caps = &body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
        assert!(caps.is_object());
        // Tasks are a 2025-11-25 capability; the config below declares them.
        assert!(caps.get("tasks").is_none(), "{caps}");
        assert!(req.header("mcp-session-id").is_none());
        if matches!(method, "tools/list" | "resources/read") {
            if let Some(reply) = &self.down {
                return reply.clone();
            }
        }
        match method {
            "server/discover" => {
                let mut r = json!({
                    "resultType": "complete",
                    "supportedVersions": self.versions.clone().unwrap_or(vec!["2026-07-28"]),
                    "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}},
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "scripted", "version": "9"}},
                    "instructions": "<b>be nice</b>",
                });
                if let (Some(Value::Object(extra)), Some(r)) =
                    (&self.discover_extra, r.as_object_mut())
                {
                    r.extend(extra.clone());
                }
                Reply::Json(200, json_ct(), result(id, r))
            }
            "resources/read" => self.read(id, &body["params"]),
            "tools/list" => {
                self.lists += 1;
                let zone = match self.lists > self.zone_header_after {
                    true => json!({"type": "string", "x-mcp-header": "Zone"}),
                    false => json!({"type": "string"}),
                };
                let tools = json!([
                    {"name": "echo", "inputSchema": {"type": "object", "properties": {"m": {"type": "string"}}}},
                    {"name": "sql", "inputSchema": {"type": "object", "properties": {
                        "region": {"type": "string", "x-mcp-header": "Region"},
                        "n": {"type": "integer", "x-mcp-header": "N"}}}},
                    {"name": "bad", "inputSchema": {"type": "object", "properties": {
                        "f": {"type": "number", "x-mcp-header": "F"}}}},
                    {"name": "strict", "inputSchema": {"type": "object", "properties": {
                        "zone": zone}}},
                ]);
                let mut page = json!({"ttlMs": self.ttl, "tools": tools});
                if self.tools_per_page > 0 {
                    let all = tools.as_array().expect("a list");
                    let from = match body["params"]["cursor"].as_str().map(str::parse) {
                        None => 0,
                        Some(Ok(offset)) => offset,
                        Some(Err(_)) => {
                            let e = error(id, -32602, "invalid or expired cursor");
                            return Reply::Json(400, json_ct(), e);
                        }
                    };
                    let to = (from + self.tools_per_page).min(all.len());
                    page["tools"] = json!(all[from..to]);
                    if to < all.len() {
                        page["nextCursor"] = json!(to.to_string());
                    }
                }
                if self.endless_tools {
                    let n = body["params"]["cursor"].as_str().map_or(0, |c| c.len());
                    page["nextCursor"] = json!("+".repeat(n + 1));
                }
                Reply::Json(200, json_ct(), result(id, page))
            }
            "tools/call" => self.call(req, id, &body["params"]),
            "tasks/get" => {
                let task = body["params"]["taskId"].as_str().unwrap_or("");
                assert_eq!(
                    req.header("mcp-name"),
                    Some(task),
                    "Mcp-Name carries the task id"
                );
                let r = json!({"resultType": "complete", "taskId": task, "status": "completed",
                    "ttlMs": null, "pollIntervalMs": 250,
                    "result": {"content": [{"type": "text", "text": "done"}]}});
                Reply::Json(200, json_ct(), result(id, r))
            }
            // Not a method that may run as a task: a task answer to it is a protocol error.
            "prompts/get" if body["params"]["name"] == "as-task" => Reply::Json(
                200,
                json_ct(),
                result(
                    id,
                    json!({"resultType": "task", "taskId": "t-2", "status": "working"}),
                ),
            ),
            "subscriptions/listen" => Reply::Sse(
                vec![],
                vec![
                    sse(
                        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                    "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id}, "notifications": {"toolsListChanged": true}}}),
                    ),
                    sse(
                        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                    "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id}}}),
                    ),
                ],
                End::Open,
            ),
            _ => Reply::Json(404, json_ct(), error(id, -32601, "Method not found")),
        }
    }
}

impl Modern {
    fn read(&self, id: &Value, params: &Value) -> Reply {
        let uri = params["uri"].as_str().unwrap_or("");
        if self.gone.contains(&uri) {
            let e = json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32602, "message": "Resource not found", "data": {"uri": uri}}});
            return Reply::Json(400, json_ct(), e);
        }
        let contents = json!([{"uri": uri, "text": "hello"}]);
        let complete = json!({"contents": contents, "ttlMs": self.ttl, "cacheScope": "public"});
        // `test://state` needs one MRTR round (requestState only) before it answers.
        let answer = match (uri, params.get("requestState")) {
            ("test://state", None) => json!({"resultType": "input_required", "requestState": "r"}),
            _ => complete,
        };
        Reply::Json(200, json_ct(), result(id, answer))
    }

    fn call(&mut self, req: &HttpRequest, id: &Value, params: &Value) -> Reply {
        self.calls += 1;
        let name = params["name"].as_str().unwrap_or("");
        assert_eq!(
            req.header("mcp-name")
                .map(|v| client_core::headers::decode_header_value(v).unwrap()),
            Some(name.to_string())
        );
        let text = |t: &str| json!({"content": [{"type": "text", "text": t}]});
        match name {
            "echo" => Reply::Json(
                200,
                json_ct(),
                result(id, text(params["arguments"]["m"].as_str().unwrap_or(""))),
            ),
            "sql" => {
                let region = req.header("mcp-param-region").unwrap_or("-").to_string();
                let n = req.header("mcp-param-n").unwrap_or("-").to_string();
                Reply::Json(200, json_ct(), result(id, text(&format!("{region}|{n}"))))
            }
            "slow" => Reply::Hang,
            // The Tasks extension: a task instead of the result, when the call declared it.
            "report" => {
                let caps = &params["_meta"]["io.modelcontextprotocol/clientCapabilities"];
                let declared = caps["extensions"].get(TASKS_EXTENSION).is_some();
                let r = match declared {
                    true => json!({"resultType": "task", "taskId": "t-1", "status": "working",
                        "createdAt": "2026-11-27T10:00:00Z", "lastUpdatedAt": "2026-11-27T10:00:00Z",
                        "ttlMs": 60000, "pollIntervalMs": 500}),
                    false => text("report, at once"),
                };
                Reply::Json(200, json_ct(), result(id, r))
            }
            "strict" => match req.header("mcp-param-zone") {
                Some(z) if Some(z) == params["arguments"]["zone"].as_str() => {
                    Reply::Json(200, json_ct(), result(id, text("zone ok")))
                }
                _ => Reply::Json(
                    400,
                    json_ct(),
                    error(id, -32020, "Header mismatch: Mcp-Param-Zone missing"),
                ),
            },
            "progress" => {
                let token = params["_meta"]["progressToken"].clone();
                let p = |n: u32| {
                    sse(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": token, "progress": n, "total": 3}}))
                };
                Reply::Sse(
                    vec![],
                    vec![p(1), p(2), p(3), sse(result(id, text("done")))],
                    End::Close,
                )
            }
            "progress-forever" => {
                let token = params["_meta"]["progressToken"].clone();
                Reply::Sse(
                    vec![],
                    vec![sse(
                        json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": token, "progress": 1}}),
                    )],
                    End::Open,
                )
            }
            "cut" if self.cuts_left > 0 => {
                self.cuts_left -= 1;
                Reply::Sse(vec![], vec!["data:\n\n".into()], End::Cut)
            }
            "cut" => Reply::Json(200, json_ct(), result(id, text("after cut"))),
            // An older server's habit: event ids (and a retry delay) on the call's stream.
            "cut-with-id" if self.cuts_left > 0 => {
                self.cuts_left -= 1;
                Reply::Sse(
                    vec![],
                    vec!["id: m1\nretry: 10\ndata:\n\n".into()],
                    End::Cut,
                )
            }
            "cut-with-id" => Reply::Json(200, json_ct(), result(id, text("after cut"))),
            // A JSON-RPC error tied to no request, whose words mention a session.
            "null-id-error" => Reply::Json(
                400,
                json_ct(),
                json!({"jsonrpc": "2.0", "id": null,
                       "error": {"code": -32600, "message": "Invalid Request: bad session parameter"}}),
            ),
            "ask" => match (params.get("inputResponses"), params.get("requestState")) {
                (None, None) => Reply::Json(
                    200,
                    json_ct(),
                    result(
                        id,
                        json!({
                            "resultType": "input_required",
                            "inputRequests": {
                                "login": {"method": "elicitation/create", "params": {"mode": "form", "message": "Who?",
                                    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}},
                                "capital": {"method": "sampling/createMessage", "params": {"maxTokens": 5,
                                    "messages": [{"role": "user", "content": {"type": "text", "text": "Capital?"}}]}},
                            },
                            "requestState": "opaque-1",
                        }),
                    ),
                ),
                (Some(r), Some(s)) => {
                    assert_eq!(s, "opaque-1");
                    let who = r["login"]["content"]["name"].as_str().unwrap_or("?");
                    let cap = r["capital"]["content"]["text"].as_str().unwrap_or("?");
                    Reply::Json(200, json_ct(), result(id, text(&format!("{who} {cap}"))))
                }
                other => panic!("bad retry {other:?}"),
            },
            "state-only" => match params.get("requestState") {
                None => Reply::Json(
                    200,
                    json_ct(),
                    result(
                        id,
                        json!({"resultType": "input_required", "requestState": "s"}),
                    ),
                ),
                Some(_) => Reply::Json(200, json_ct(), result(id, text("resumed"))),
            },
            // The same, its interim result on an event stream that then ends.
            "state-only-sse" => match params.get("requestState") {
                None => Reply::Sse(
                    vec![],
                    vec![sse(result(
                        id,
                        json!({"resultType": "input_required", "requestState": "s"}),
                    ))],
                    End::Close,
                ),
                Some(_) => Reply::Json(200, json_ct(), result(id, text("resumed"))),
            },
            "forever-input" => Reply::Json(
                200,
                json_ct(),
                result(
                    id,
                    json!({"resultType": "input_required", "requestState": "again"}),
                ),
            ),
            "garbage" => Reply::Raw(
                200,
                "application/json",
                b"{\"jsonrpc\":\"2.0\",\"id\":".to_vec(),
            ),
            "wrong-id" => Reply::Json(200, json_ct(), result(&json!(999_999), text("x"))),
            "html" => Reply::Raw(200, "text/html", b"<html>".to_vec()),
            "huge" => Reply::Raw(200, "application/json", vec![b' '; 2048]),
            // An event bigger than the limit (1024) on the call's own stream.
            "huge-sse" => Reply::Sse(
                vec![],
                vec![format!("data: {}\n\n", " ".repeat(2048))],
                End::Open,
            ),
            // A JSON body of exactly the limit.
            "exactly-the-limit" => {
                let body = |pad: &str| result(id, text(pad));
                let len = serde_json::to_vec(&body("")).map_or(0, |b| b.len());
                Reply::Json(200, json_ct(), body(&"x".repeat(1024 - len)))
            }
            // A gateway in front of the server, for a moment.
            "gateway-503" => Reply::Raw(503, "text/plain", b"Service Unavailable".to_vec()),
            "forbidden" => Reply::Raw(403, "text/plain", b"Forbidden".to_vec()),
            "more-scope" => Reply::Json(
                403,
                vec![(
                    "WWW-Authenticate".into(),
                    "Bearer error=\"insufficient_scope\", scope=\"tools:write\"".into(),
                )],
                json!({}),
            ),
            "rpc-error" => Reply::Json(400, json_ct(), error(id, -32602, "Unknown tool")),
            // Not in the tool list, and refused as if its headers were wrong.
            "unlisted-mismatch" => Reply::Json(400, json_ct(), error(id, -32020, "mismatch")),
            "http-500" => Reply::Raw(500, "text/plain", b"boom".to_vec()),
            // Error bodies are kept as an excerpt of 300 characters.
            "http-500-300" => Reply::Raw(500, "text/plain", "é".repeat(300).into_bytes()),
            "http-500-301" => Reply::Raw(500, "text/plain", "é".repeat(301).into_bytes()),
            // A proxy's error page: its words are kept, not its markup.
            "http-500-page" => Reply::Raw(
                500,
                "text/html",
                b"<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n<center><h1>500 Internal Server Error</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n".to_vec(),
            ),
            "auth" => Reply::Json(
                401,
                vec![(
                    "WWW-Authenticate".into(),
                    "Bearer resource_metadata=\"https://x/.well-known\"".into(),
                )],
                json!({}),
            ),
            "bad-sse" => Reply::Sse(vec![], vec!["data: {not json\n\n".into()], End::Close),
            "gone" => Reply::Json(400, json_ct(), error(id, -32602, "Unknown tool: gone")),
            _ => Reply::Json(
                200,
                json_ct(),
                result(id, json!({"content": [], "isError": true})),
            ),
        }
    }
}

fn config() -> SessionConfig {
    let mut c = SessionConfig::new("http://127.0.0.1:1/mcp");
    c.capabilities.elicitation = Some(json!({"form": {}}));
    c.capabilities.sampling = Some(json!({}));
    c.capabilities.tasks = Some(json!({"requests": {"sampling": {"createMessage": {}}}}));
    c.max_message_bytes = 1024;
    c
}

fn connected(server: Modern) -> Harness<Modern> {
    let mut h = Harness::new(Session::new(config()), server);
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    h.take_events();
    h
}

fn call<S: Server>(
    h: &mut Harness<S>,
    name: &str,
    args: Value,
    opts: RequestOptions,
) -> RequestHandle {
    let handle = h.session.request(
        "tools/call",
        Some(json!({"name": name, "arguments": args})),
        opts,
        h.now,
    );
    h.pump();
    handle
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

fn text_of(r: &Option<Result<McpResult, RequestError>>) -> String {
    match r {
        Some(Ok(McpResult::CallTool(c))) => c.content[0].as_text().unwrap_or("").to_string(),
        other => panic!("expected a tool result, got {other:?}"),
    }
}

#[test]
fn connects_with_server_discover_and_reports_details() {
    let mut h = Harness::new(Session::new(config()), Modern::default());
    h.connect();
    let details = h.events.iter().find_map(|e| match e {
        Event::Connected(d) => Some((**d).clone()),
        _ => None,
    });
    let d = details.expect("Connected event");
    assert_eq!(d.era, Era::Modern);
    assert_eq!(d.protocol_version, "2026-07-28");
    assert_eq!(d.server_info.name, "scripted");
    assert_eq!(d.instructions.as_deref(), Some("<b>be nice</b>"));
    assert!(d.capabilities.tools_list_changed());
    assert_eq!(h.sent.len(), 1, "one discover, no initialize");
    assert!(h
        .events
        .contains(&Event::State(ConnectionState::Connecting)));
    assert!(h.events.contains(&Event::State(ConnectionState::Connected)));
}

#[test]
fn requests_before_connecting_are_queued_then_sent() {
    let mut h = Harness::new(Session::new(config()), Modern::default());
    let handle = h.session.request(
        "tools/call",
        Some(json!({"name": "echo", "arguments": {"m": "early"}})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    assert!(h.sent.is_empty());
    h.connect();
    assert_eq!(text_of(&response(&h, handle)), "early");
}

#[test]
fn invalid_x_mcp_header_tools_are_rejected_and_param_headers_sent() {
    let mut h = connected(Modern::default());
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.pump();
    let Some(Ok(McpResult::ListTools(l))) = response(&h, list) else {
        panic!("no list")
    };
    let names: Vec<_> = l.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["echo", "sql", "strict"]);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::ToolRejected { name, .. } if name == "bad")));
    let c = call(
        &mut h,
        "sql",
        json!({"region": "Zürich", "n": 7}),
        RequestOptions::default(),
    );
    assert_eq!(text_of(&response(&h, c)), "=?base64?WsO8cmljaA==?=|7");
    let c = call(
        &mut h,
        "sql",
        json!({"region": null}),
        RequestOptions::default(),
    );
    assert_eq!(
        text_of(&response(&h, c)),
        "-|-",
        "null and missing values send no header"
    );
}

#[test]
fn mcp_name_is_base64_for_unsafe_names() {
    let mut h = connected(Modern::default());
    call(&mut h, " spaced ", json!({}), RequestOptions::default());
    let req = h.requests_for("tools/call").pop().unwrap();
    assert_eq!(req.header("mcp-name"), Some("=?base64?IHNwYWNlZCA=?="));
}

/// The server requests the session has surfaced so far: id, request, the call it belongs to.
fn server_requests(
    h: &Harness<Modern>,
) -> Vec<(ServerRequestId, ServerRequest, Option<RequestHandle>)> {
    h.events
        .iter()
        .filter_map(|e| match e {
            Event::ServerRequest {
                id,
                request,
                related,
            } => Some((*id, request.clone(), *related)),
            _ => None,
        })
        .collect()
}

#[test]
fn mrtr_input_requests_become_server_requests_and_the_retry_carries_answers() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "ask", json!({}), RequestOptions::default());
    let asks = server_requests(&h);
    assert_eq!(asks.len(), 2);
    assert!(asks.iter().all(|(_, _, r)| *r == Some(c)));
    assert!(
        response(&h, c).is_none(),
        "no response while input is pending"
    );
    assert_eq!(
        h.session.poll_timeout(),
        None,
        "no timeout while the user answers"
    );
    let first_id = h.posted_method("tools/call")[0]["id"].clone();
    for (id, req, _) in &asks {
        let answer = match req {
            ServerRequest::Elicitation(p) => {
                assert_eq!(p["message"], "Who?");
                json!({"action": "accept", "content": {"name": "ada"}})
            }
            ServerRequest::Sampling(_) => {
                json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"})
            }
            other => panic!("unexpected {other:?}"),
        };
        h.session.answer(*id, Ok(answer), h.now);
        h.pump();
    }
    assert_eq!(text_of(&response(&h, c)), "ada Paris");
    let calls = h.posted_method("tools/call");
    assert_eq!(calls.len(), 2);
    assert_ne!(calls[1]["id"], first_id, "the retry has a new JSON-RPC id");
    assert_eq!(calls[1]["params"]["requestState"], "opaque-1");
}

#[test]
fn an_interim_result_whose_stream_then_ends_is_retried_once() {
    // The end of the interim result's stream is no cut: the retry under way is the request.
    let mut h = connected(Modern::default());
    let c = call(
        &mut h,
        "state-only-sse",
        json!({}),
        RequestOptions::default(),
    );
    h.advance(5_000);
    assert_eq!(text_of(&response(&h, c)), "resumed");
    assert_eq!(h.posted_method("tools/call").len(), 2);
}

#[test]
fn mrtr_input_of_one_call_survives_another_call_ending() {
    let mut h = connected(Modern::default());
    let first = call(&mut h, "ask", json!({}), RequestOptions::default());
    let second = call(&mut h, "ask", json!({}), RequestOptions::default());
    let asks_of =
        |h: &Harness<Modern>, c: RequestHandle| -> Vec<(ServerRequestId, ServerRequest)> {
            server_requests(h)
                .into_iter()
                .filter(|(_, _, related)| *related == Some(c))
                .map(|(id, request, _)| (id, request))
                .collect()
        };
    assert_eq!(asks_of(&h, first).len(), 2);
    // The first call ends (the user gave up on it): the second one's questions stay open.
    h.session.cancel(first, h.now);
    h.pump();
    assert_eq!(response(&h, first), Some(Err(RequestError::Cancelled)));
    for (id, req) in asks_of(&h, second) {
        let answer = match req {
            ServerRequest::Elicitation(_) => {
                json!({"action": "accept", "content": {"name": "ada"}})
            }
            _ => {
                json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"})
            }
        };
        h.session.answer(id, Ok(answer), h.now);
        h.pump();
    }
    assert_eq!(text_of(&response(&h, second)), "ada Paris");
}

#[test]
fn mrtr_refused_input_fails_the_request() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "ask", json!({}), RequestOptions::default());
    let id = h
        .events
        .iter()
        .find_map(|e| match e {
            Event::ServerRequest { id, .. } => Some(*id),
            _ => None,
        })
        .unwrap();
    h.session.answer(
        id,
        Err(client_core::ErrorObject::new(-1, "user said no")),
        h.now,
    );
    h.pump();
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::InputRefused(_)))
    ));
}

#[test]
fn mrtr_request_state_only_retries_at_once_and_rounds_are_bounded() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "state-only", json!({}), RequestOptions::default());
    assert_eq!(text_of(&response(&h, c)), "resumed");
    let c = call(
        &mut h,
        "forever-input",
        json!({}),
        RequestOptions::default(),
    );
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::Protocol(_)))
    ));
    assert_eq!(
        h.posted_method("tools/call").len(),
        2 + 1 + 16,
        "first call plus max_input_rounds retries"
    );
}

#[test]
fn a_callers_meta_entries_are_sent_beside_the_sessions_own_which_win() {
    let mut h = connected(Modern::default());
    let parent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    let c = h.session.request(
        "tools/call",
        Some(json!({"name": "progress", "arguments": {}, "_meta": {
            "traceparent": parent,
            "com.example/run": 7,
            "io.modelcontextprotocol/protocolVersion": "1999-01-01",
        }})),
        RequestOptions {
            progress: true,
            ..Default::default()
        },
        h.now,
    );
    h.pump();
    assert_eq!(text_of(&response(&h, c)), "done");
    let meta = &h.posted_method("tools/call")[0]["params"]["_meta"];
    assert_eq!(meta["traceparent"], parent);
    assert_eq!(meta["com.example/run"], 7);
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    assert!(meta["progressToken"].is_string() || meta["progressToken"].is_number());
}

#[test]
fn progress_is_reported_and_resets_the_timeout_up_to_the_hard_maximum() {
    let mut h = connected(Modern::default());
    let opts = RequestOptions {
        progress: true,
        ..Default::default()
    };
    let c = call(&mut h, "progress", json!({}), opts.clone());
    let n = h
        .events
        .iter()
        .filter(|e| matches!(e, Event::Progress { handle, .. } if *handle == c))
        .count();
    assert_eq!(n, 3);
    assert_eq!(text_of(&response(&h, c)), "done");

    // A stream that keeps the request alive with progress: the deadline moves, capped.
    let mut cfg = config();
    cfg.request_timeout = client_core::time::Duration::from_secs(10);
    cfg.max_request_duration = client_core::time::Duration::from_secs(15);
    let mut h = Harness::new(Session::new(cfg), Modern::default());
    h.connect();
    let c = call(&mut h, "progress-forever", json!({}), opts);
    let stream = *h.open_streams.last().unwrap();
    h.advance(8_000);
    let token = h.posted_method("tools/call")[0]["params"]["_meta"]["progressToken"].clone();
    h.push(stream, &sse(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 2}})));
    h.advance(5_000);
    assert!(response(&h, c).is_none(), "progress moved the deadline");
    h.advance(2_100);
    assert!(
        matches!(response(&h, c), Some(Err(RequestError::Timeout { .. }))),
        "hard maximum reached"
    );
}

#[test]
fn timeout_closes_the_stream_without_a_cancel_notification() {
    let mut h = connected(Modern::default());
    let c = call(
        &mut h,
        "slow",
        json!({}),
        RequestOptions {
            timeout: Some(client_core::time::Duration::from_millis(500)),
            ..Default::default()
        },
    );
    let tid = *h.hanging.last().unwrap();
    h.advance(499);
    assert!(response(&h, c).is_none());
    h.advance(2);
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::Timeout { after_ms: 500 }))
    ));
    assert!(
        h.aborted.contains(&tid),
        "closing the stream is the modern cancellation"
    );
    assert!(h.posted_method("notifications/cancelled").is_empty());
}

#[test]
fn user_cancel_aborts_the_exchange() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "slow", json!({}), RequestOptions::default());
    let tid = *h.hanging.last().unwrap();
    h.session.cancel(c, h.now);
    h.pump();
    assert!(h.aborted.contains(&tid));
    assert_eq!(response(&h, c), Some(Err(RequestError::Cancelled)));
}

#[test]
fn a_cut_stream_reissues_the_request_once() {
    let mut h = connected(Modern {
        cuts_left: 1,
        ..Default::default()
    });
    let c = call(&mut h, "cut", json!({}), RequestOptions::default());
    assert_eq!(text_of(&response(&h, c)), "after cut");
    let ids: Vec<_> = h
        .posted_method("tools/call")
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1]);

    let mut h = connected(Modern {
        cuts_left: 5,
        ..Default::default()
    });
    let c = call(&mut h, "cut", json!({}), RequestOptions::default());
    assert_eq!(response(&h, c), Some(Err(RequestError::StreamCut)));
    assert_eq!(
        h.posted_method("tools/call").len(),
        2,
        "sent again once only"
    );
}

#[test]
fn a_cut_stream_with_event_ids_is_sent_again_not_resumed() {
    // 2026-07-28 has no resumption: a broken stream's request is sent again with a new id.
    let mut h = connected(Modern {
        cuts_left: 1,
        ..Default::default()
    });
    let c = call(&mut h, "cut-with-id", json!({}), RequestOptions::default());
    h.advance(1_000);
    assert_eq!(text_of(&response(&h, c)), "after cut");
    assert_eq!(h.posted_method("tools/call").len(), 2);
    assert!(
        h.sent
            .iter()
            .all(|r| r.method == HttpMethod::Post && r.header("last-event-id").is_none()),
        "a GET or a Last-Event-ID was sent"
    );
}

#[test]
fn an_error_body_is_kept_to_300_characters() {
    let mut h = connected(Modern::default());
    let body = |h: &mut Harness<Modern>, tool: &str| {
        let c = call(h, tool, json!({}), RequestOptions::default());
        match response(h, c) {
            Some(Err(RequestError::Http {
                status: 500, body, ..
            })) => body,
            other => panic!("{tool}: {other:?}"),
        }
    };
    assert_eq!(body(&mut h, "http-500-300"), "é".repeat(300));
    assert_eq!(body(&mut h, "http-500-301"), "é".repeat(300) + "…");
    assert_eq!(
        body(&mut h, "http-500-page"),
        "500 Internal Server Error nginx"
    );
}

#[test]
fn a_json_rpc_error_tied_to_no_request_is_reported_as_the_servers_error() {
    let mut h = connected(Modern::default());
    let c = call(
        &mut h,
        "null-id-error",
        json!({}),
        RequestOptions::default(),
    );
    assert!(
        matches!(response(&h, c), Some(Err(RequestError::Rpc(ref e))) if e.code == -32600 && e.message.contains("bad session parameter")),
        "{:?}",
        response(&h, c)
    );
}

#[test]
fn malformed_and_hostile_answers_give_clear_errors() {
    let mut h = connected(Modern::default());
    let cases = [
        ("garbage", "malformed JSON body"),
        ("wrong-id", "did not answer"),
        ("html", "a web page (content type \"text/html\")"),
        ("bad-sse", "malformed message in the event stream"),
    ];
    for (tool, needle) in cases {
        let c = call(&mut h, tool, json!({}), RequestOptions::default());
        match response(&h, c) {
            Some(Err(RequestError::Protocol(m))) => assert!(m.contains(needle), "{tool}: {m}"),
            other => panic!("{tool}: {other:?}"),
        }
    }
    let c = call(&mut h, "huge", json!({}), RequestOptions::default());
    assert_eq!(
        response(&h, c),
        Some(Err(RequestError::TooLarge { limit: 1024 }))
    );
    let c = call(&mut h, "rpc-error", json!({}), RequestOptions::default());
    assert!(matches!(response(&h, c), Some(Err(RequestError::Rpc(e))) if e.code == -32602));
    let c = call(&mut h, "http-500", json!({}), RequestOptions::default());
    assert!(
        matches!(response(&h, c), Some(Err(RequestError::Http { status: 500, ref body, .. })) if body == "boom")
    );
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::Warning(w) if w.contains("999999"))));
    assert_eq!(
        h.session.state(),
        ConnectionState::Connected,
        "bad answers do not break the session"
    );
}

#[test]
fn a_body_of_exactly_the_size_limit_is_read_and_an_event_over_it_fails_the_call() {
    let mut h = connected(Modern::default());
    let c = call(
        &mut h,
        "exactly-the-limit",
        json!({}),
        RequestOptions::default(),
    );
    let padding = text_of(&response(&h, c));
    assert!(
        !padding.is_empty() && padding.bytes().all(|b| b == b'x'),
        "{:?}",
        response(&h, c)
    );
    // Over the limit on the call's event stream: the call fails at once (the stream stays
    // open; nothing else would end the call).
    let c = call(&mut h, "huge-sse", json!({}), RequestOptions::default());
    assert_eq!(
        response(&h, c),
        Some(Err(RequestError::TooLarge { limit: 1024 }))
    );
    assert!(h.open_streams.is_empty(), "the stream was not let go");
}

#[test]
fn a_call_a_gateway_answers_with_503_fails_and_is_not_sent_again() {
    // A tools/call may have side effects: only the server may say it is safe to repeat.
    let mut h = connected(Modern::default());
    let c = call(&mut h, "gateway-503", json!({}), RequestOptions::default());
    assert!(
        matches!(response(&h, c), Some(Err(RequestError::Http { status: 503, ref body, .. })) if body == "Service Unavailable"),
        "{:?}",
        response(&h, c)
    );
    h.advance(60_000);
    let sent = h
        .posted_method("tools/call")
        .iter()
        .filter(|b| b["params"]["name"] == "gateway-503")
        .count();
    assert_eq!(sent, 1);
}

#[test]
fn a_403_asks_for_authorization_only_when_its_challenge_asks_for_more_scope() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "more-scope", json!({}), RequestOptions::default());
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::Http { status: 403, www_authenticate: Some(ref w), .. })) if w.contains("insufficient_scope")
    ));
    assert!(h.events.iter().any(|e| matches!(e, Event::AuthRequired { status: 403, www_authenticate: Some(w) } if w.contains("tools:write"))));
    // A plain 403 is the server's answer, not a question of authorization.
    h.take_events();
    let c = call(&mut h, "forbidden", json!({}), RequestOptions::default());
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::Http { status: 403, ref body, .. })) if body == "Forbidden"
    ));
    assert!(
        !h.events
            .iter()
            .any(|e| matches!(e, Event::AuthRequired { .. })),
        "{:?}",
        h.events
    );
}

#[test]
fn unauthorized_reports_the_challenge() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "auth", json!({}), RequestOptions::default());
    assert!(matches!(
        response(&h, c),
        Some(Err(RequestError::Http { status: 401, .. }))
    ));
    assert!(h.events.iter().any(|e| matches!(e, Event::AuthRequired { status: 401, www_authenticate: Some(w) } if w.contains("resource_metadata"))));
}

#[test]
fn subscriptions_listen_delivers_acknowledged_and_tagged_notifications() {
    let mut h = connected(Modern::default());
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        ..Default::default()
    };
    let sub = h.session.listen(filter, h.now);
    assert!(h.session.is_under_way(sub), "queued to be sent");
    h.pump();
    // A stream that stays open: it holds its connection (the browser layer counts it).
    let listen = h.requests_for("subscriptions/listen");
    assert!(!listen.is_empty() && listen.iter().all(|r| r.long_lived));
    assert!(h
        .requests_for("server/discover")
        .iter()
        .all(|r| !r.long_lived));
    let notes: Vec<_> = h
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Notification {
                subscription,
                notification,
            } => Some((*subscription, notification.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(notes.len(), 2);
    assert!(
        matches!(&notes[0], (Some(s), ServerNotification::SubscriptionsAcknowledged(_)) if *s == sub)
    );
    assert!(matches!(&notes[1], (Some(s), ServerNotification::ToolListChanged) if *s == sub));
    h.advance(3_600_000);
    assert!(
        response(&h, sub).is_none(),
        "a listen stream never times out"
    );
    assert!(h.session.is_under_way(sub), "open");
    let stream = *h.open_streams.last().unwrap();
    h.end(stream, true);
    assert_eq!(
        response(&h, sub),
        Some(Err(RequestError::StreamCut)),
        "an abrupt end is reported, not hidden"
    );
    assert!(!h.session.is_under_way(sub), "ended");
}

#[test]
fn a_listen_stream_may_wait_unless_it_replaces_one_still_open() {
    let mut h = connected(Modern::default());
    let filter = |tools| SubscriptionFilter {
        tools_list_changed: Some(true),
        prompts_list_changed: tools,
        ..Default::default()
    };
    let may_wait = |h: &Harness<Modern>| {
        h.requests_for("subscriptions/listen")
            .last()
            .map(|r| (r.long_lived, r.may_wait))
    };
    // The first stream only waits for the server's own messages: it may be held back.
    let first = h.session.listen(filter(None), h.now);
    h.pump();
    assert_eq!(may_wait(&h), Some((true, true)));
    // Its successor, while it is still open, may not: it closes once that one is acknowledged.
    let second = h.session.listen(filter(Some(true)), h.now);
    h.pump();
    assert_eq!(may_wait(&h), Some((true, false)));
    // Once no other is open, a new stream may wait again.
    h.session.cancel(first, h.now);
    h.session.cancel(second, h.now);
    h.pump();
    assert!(!h.session.is_under_way(first) && !h.session.is_under_way(second));
    h.session.listen(filter(None), h.now);
    h.pump();
    assert_eq!(may_wait(&h), Some((true, true)));
    // Nothing else waits.
    call(&mut h, "echo", json!({"m": "x"}), RequestOptions::default());
    assert!(h
        .requests_for("tools/call")
        .iter()
        .all(|r| !r.may_wait && !r.long_lived));
}

#[test]
fn log_level_goes_in_every_request_meta() {
    let mut cfg = config();
    cfg.log_level = Some(LoggingLevel::Warning);
    let mut h = Harness::new(Session::new(cfg), Modern::default());
    h.connect();
    let details = h
        .session
        .server_details()
        .expect("the server's details once connected");
    assert_eq!(details.protocol_version, "2026-07-28");
    call(&mut h, "echo", json!({"m": "x"}), RequestOptions::default());
    assert_eq!(
        h.posted_method("tools/call")[0]["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "warning"
    );
    // Changed while connected: the next requests ask for the new level, or for none.
    h.session.set_log_level(Some(LoggingLevel::Debug));
    call(&mut h, "echo", json!({"m": "x"}), RequestOptions::default());
    h.session.set_log_level(None);
    call(&mut h, "echo", json!({"m": "x"}), RequestOptions::default());
    let levels: Vec<Value> = h
        .posted_method("tools/call")
        .iter()
        .map(|m| m["params"]["_meta"]["io.modelcontextprotocol/logLevel"].clone())
        .collect();
    assert_eq!(levels, [json!("warning"), json!("debug"), Value::Null]);
}

#[test]
fn a_server_without_a_version_we_speak_fails_clearly() {
    let mut h = Harness::new(
        Session::new(config()),
        Modern {
            versions: Some(vec!["2099-01-01"]),
            ..Default::default()
        },
    );
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(h.events.iter().any(|e| matches!(e, Event::ConnectFailed(RequestError::Unavailable(m)) if m.contains("2099-01-01"))));
    // A version with a right-to-left override in it is isolated in the message, so that the
    // words after the list read as written.
    let mut h = Harness::new(
        Session::new(config()),
        Modern {
            versions: Some(vec!["2099-01-01", "x\u{202e}y"]),
            ..Default::default()
        },
    );
    h.connect();
    let failed = h.events.iter().find_map(|e| match e {
        Event::ConnectFailed(e) => Some(e.to_string()),
        _ => None,
    });
    assert_eq!(
        failed.as_deref(),
        Some("the server supports only protocol versions [\u{2068}2099-01-01, x\u{202e}y\u{2069}], none of which this client speaks")
    );
}

#[test]
fn closing_fails_pending_requests_and_sends_no_delete() {
    let mut h = connected(Modern::default());
    let c = call(&mut h, "slow", json!({}), RequestOptions::default());
    h.session.close(h.now);
    h.pump();
    assert!(matches!(response(&h, c), Some(Err(RequestError::Closed))));
    // Closed is said once, as a change of state.
    assert_eq!(h.times_in(ConnectionState::Closed), 1);
    assert!(h
        .sent
        .iter()
        .all(|r| r.method != client_core::http::HttpMethod::Delete));
    let after = h
        .session
        .request("ping", None, RequestOptions::default(), h.now);
    h.pump();
    assert!(matches!(
        response(&h, after),
        Some(Err(RequestError::Closed))
    ));
}

#[test]
fn a_header_mismatch_refreshes_the_tool_list_and_retries_once() {
    let mut h = connected(Modern::default());
    // The client never listed tools, so it does not know `zone` goes into a header.
    call_strict_in_a_zone(&mut h);
    let methods: Vec<Value> = h
        .posted()
        .iter()
        .skip(1)
        .map(|m| m["method"].clone())
        .collect();
    assert_eq!(
        methods,
        [
            json!("tools/call"),
            json!("tools/list"),
            json!("tools/call")
        ],
        "after server/discover"
    );
    // A call that can never satisfy the server fails after one retry.
    let c = call(&mut h, "strict", json!({}), RequestOptions::default());
    assert!(matches!(response(&h, c), Some(Err(RequestError::Rpc(e))) if e.code == -32020));
    assert_eq!(h.posted_method("tools/call").len(), 4);
}

#[test]
fn a_header_mismatch_reads_tool_pages_until_the_called_tool_is_listed() {
    let mut h = connected(Modern {
        tools_per_page: 1,
        ..Modern::default()
    });
    // `strict` is the fourth tool: on the fourth page.
    call_strict_in_a_zone(&mut h);
    let cursors: Vec<Value> = h
        .posted_method("tools/list")
        .iter()
        .map(|m| m["params"]["cursor"].clone())
        .collect();
    assert_eq!(cursors, [Value::Null, json!("1"), json!("2"), json!("3")]);
    assert_eq!(h.posted_method("tools/call").len(), 2);
    // A tool the list does not hold: the whole list is read once, then the call fails.
    call_refused_with_header_mismatch(&mut h);
    assert_eq!(h.posted_method("tools/list").len(), 8);
    assert_eq!(h.posted_method("tools/call").len(), 4);
}

/// Calls `strict` (its `zone` argument must also travel in a header) and checks it succeeds.
fn call_strict_in_a_zone(h: &mut Harness<Modern>) {
    let c = call(
        h,
        "strict",
        json!({"zone": "eu"}),
        RequestOptions::default(),
    );
    assert_eq!(text_of(&response(h, c)), "zone ok");
}

/// Calls the tool the server refuses with HeaderMismatch whatever the headers, and checks the
/// call fails with that error in the end.
fn call_refused_with_header_mismatch(h: &mut Harness<Modern>) {
    let c = call(h, "unlisted-mismatch", json!({}), RequestOptions::default());
    assert!(matches!(response(h, c), Some(Err(RequestError::Rpc(e))) if e.code == -32020));
}

#[test]
fn the_pages_read_after_a_header_mismatch_are_bounded() {
    let mut h = connected(Modern {
        endless_tools: true,
        ..Modern::default()
    });
    call_refused_with_header_mismatch(&mut h);
    assert_eq!(h.posted_method("tools/list").len(), 100);
    assert_eq!(h.posted_method("tools/call").len(), 2);
}

#[test]
fn a_version_refused_in_passing_is_retried_once_with_the_same_version() {
    /// Refuses requests with UnsupportedProtocolVersion listing the very version we sent
    /// (the conformance suite's request-metadata case), `refusals` times, then answers.
    struct Refuses {
        inner: Modern,
        refusals: u32,
    }
    impl Server for Refuses {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            if self.refusals > 0 {
                self.refusals -= 1;
                let id = body.map(|b| b["id"].clone()).unwrap_or(Value::Null);
                return Reply::Json(
                    400,
                    json_ct(),
                    json!({"jsonrpc": "2.0", "id": id, "error": {
                    "code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"]}}}),
                );
            }
            self.inner.handle(req, body)
        }
    }
    let mut h = Harness::new(
        Session::new(config()),
        Refuses {
            inner: Modern::default(),
            refusals: 1,
        },
    );
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [json!("server/discover"), json!("server/discover")]
    );

    // Refused again: no endless loop, a clear failure.
    let mut h = Harness::new(
        Session::new(config()),
        Refuses {
            inner: Modern::default(),
            refusals: 100,
        },
    );
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(
        h.posted().len() <= 3,
        "bounded retries: {}",
        h.posted().len()
    );
}

#[test]
fn a_refused_probe_falls_back_to_initialize_only_where_the_refusal_allows_it() {
    /// Answers `server/discover` with `error`; anything else (an `initialize`) is not found
    /// (only whether it was sent matters here).
    struct RefusesDiscover {
        error: Value,
    }
    impl Server for RefusesDiscover {
        fn handle(&mut self, _: &HttpRequest, body: Option<&Value>) -> Reply {
            match body {
                Some(b) if b["method"] == "server/discover" => Reply::Json(
                    400,
                    json_ct(),
                    json!({"jsonrpc": "2.0", "id": b["id"], "error": self.error}),
                ),
                _ => Reply::Raw(404, "text/plain", vec![]),
            }
        }
    }
    let connect = |error: Value| {
        let mut h = Harness::new(Session::new(config()), RefusesDiscover { error });
        h.connect();
        let initialized = h.posted().iter().any(|m| m["method"] == "initialize");
        let failure = h.events.iter().find_map(|e| match e {
            Event::ConnectFailed(e) => Some(e.clone()),
            _ => None,
        });
        (initialized, failure)
    };
    // The server speaks only 2025-era versions: initialize.
    let (initialized, _) = connect(
        json!({"code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2025-11-25"]}}),
    );
    assert!(initialized, "a legacy version offered: initialize is tried");
    // Only versions we do not speak: a clear failure, no initialize.
    let (initialized, failure) = connect(
        json!({"code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2099-01-01"]}}),
    );
    assert!(!initialized);
    assert!(matches!(failure, Some(RequestError::Unavailable(m)) if m.contains("2099-01-01")));
    // Errors only a 2026-07-28 server sends: it is modern, so no initialize; the error is said.
    for code in [-32020, -32021] {
        let (initialized, failure) = connect(json!({"code": code, "message": "refused"}));
        assert!(!initialized, "{code}");
        assert!(
            matches!(&failure, Some(RequestError::Rpc(e)) if e.code == code),
            "{code}: {failure:?}"
        );
    }
}

fn request(
    h: &mut Harness<Modern>,
    method: &str,
    params: Option<Value>,
    cache: CacheMode,
) -> Value {
    match request_outcome(h, method, params, cache) {
        Some(Ok(v)) => v,
        other => panic!("{method}: expected a result, got {other:?}"),
    }
}

#[test]
fn a_kept_result_answers_when_asking_again_fails_for_want_of_the_server() {
    let mut h = connected_fresh_for(1000);
    let listed = |h: &Harness<Modern>| h.posted_method("tools/list").len();
    let first = request(&mut h, "tools/list", None, CacheMode::Use);
    let read = || Some(json!({ "uri": "test://a" }));
    let contents = request(&mut h, "resources/read", read(), CacheMode::Use);
    h.advance(5_000);
    let stale_said = |h: &Harness<Modern>, m: &str| {
        h.events.iter().any(|e| {
            matches!(e, Event::ServedStale { method, age, error, .. }
                if method == m && *age == client_core::time::Duration(5_000)
                    && error.server_unavailable())
        })
    };
    // Down: no HTTP response at all; then a 503.
    h.server.down = Some(Reply::Network("connection refused"));
    assert_eq!(request(&mut h, "tools/list", None, CacheMode::Use), first);
    assert_eq!(
        listed(&h),
        2,
        "it asked the server first (the result was stale)"
    );
    assert!(stale_said(&h, "tools/list"), "the application is told");
    h.server.down = Some(Reply::Raw(503, "text/plain", b"maintenance".to_vec()));
    assert_eq!(
        request(&mut h, "resources/read", read(), CacheMode::Use),
        contents
    );
    assert!(stale_said(&h, "resources/read"));

    // Not for an explicit refresh, nor for a refusal, nor for what was never kept.
    let failed = |o: Option<Result<Value, RequestError>>| matches!(o, Some(Err(_)));
    assert!(failed(request_outcome(
        &mut h,
        "tools/list",
        None,
        CacheMode::Refresh
    )));
    let other = Some(json!({ "uri": "test://never" }));
    assert!(failed(request_outcome(
        &mut h,
        "resources/read",
        other,
        CacheMode::Use
    )));
    h.server.down = Some(Reply::Json(
        400,
        json_ct(),
        json!({"jsonrpc": "2.0", "id": 0,
        "error": {"code": -32603, "message": "internal"}}),
    ));
    let refused = request_outcome(&mut h, "tools/list", None, CacheMode::Use);
    assert!(
        matches!(refused, Some(Err(RequestError::Rpc(_)))),
        "{refused:?}"
    );

    // A change notification evicts what was kept: nothing stale is served after it.
    h.server.down = None;
    request(&mut h, "tools/list", None, CacheMode::Use);
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        ..Default::default()
    };
    h.session.listen(filter, h.now);
    h.pump();
    h.server.down = Some(Reply::Network("connection refused"));
    let after_change = request_outcome(&mut h, "tools/list", None, CacheMode::Use);
    assert!(
        matches!(after_change, Some(Err(RequestError::Transport(_)))),
        "{after_change:?}"
    );
}

/// Sends a request in the given cache mode and returns its outcome, if it arrived.
fn request_outcome(
    h: &mut Harness<Modern>,
    method: &str,
    params: Option<Value>,
    cache: CacheMode,
) -> Option<Result<Value, RequestError>> {
    let opts = RequestOptions {
        cache,
        ..Default::default()
    };
    let handle = h.session.request(method, params, opts, h.now);
    h.pump();
    h.events.iter().rev().find_map(|e| match e {
        Event::Response { handle: x, result } if *x == handle => Some(result.clone()),
        _ => None,
    })
}

#[test]
fn results_are_served_from_the_cache_while_their_ttl_says_they_are_fresh() {
    let mut h = connected_fresh_for(1000);
    let listed = |h: &Harness<Modern>| h.posted_method("tools/list").len();
    let first = request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(listed(&h), 1);
    assert_eq!(request(&mut h, "tools/list", None, CacheMode::Use), first);
    assert_eq!(listed(&h), 1, "fresh: answered from the cache");
    let said = |h: &Harness<Modern>, ms: u64| {
        h.events.iter().any(|e| {
            matches!(e, Event::Cached { method, fresh_for, .. }
                if method == "tools/list" && *fresh_for == client_core::time::Duration(ms))
        })
    };
    assert!(said(&h, 1000), "the application is told");
    h.advance(999);
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(listed(&h), 1);
    assert!(said(&h, 1));
    request(&mut h, "tools/list", None, CacheMode::Refresh);
    assert_eq!(listed(&h), 2, "refresh always asks the server");
    h.advance(999);
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(
        listed(&h),
        2,
        "the refreshed answer is fresh from when it came"
    );
    h.advance(1);
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(listed(&h), 3, "stale after ttlMs");
    request(&mut h, "tools/list", None, CacheMode::Bypass);
    assert_eq!(listed(&h), 4, "bypass always asks the server");
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(
        listed(&h),
        5,
        "bypass keeps nothing and drops the older answer"
    );
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(listed(&h), 5, "kept again by the next use");
    // A continuation page is kept on its own (not as the first page).
    request(
        &mut h,
        "tools/list",
        Some(json!({"cursor": "2"})),
        CacheMode::Use,
    );
    request(
        &mut h,
        "tools/list",
        Some(json!({"cursor": "2"})),
        CacheMode::Use,
    );
    assert_eq!(listed(&h), 6);

    // Reads are kept per URI.
    let read = |uri: &str| Some(json!({ "uri": uri }));
    let a = request(&mut h, "resources/read", read("test://a"), CacheMode::Use);
    assert_eq!(a["contents"][0]["uri"], "test://a");
    let b = request(&mut h, "resources/read", read("test://b"), CacheMode::Use);
    assert_eq!(b["contents"][0]["uri"], "test://b");
    assert_eq!(
        request(&mut h, "resources/read", read("test://a"), CacheMode::Use),
        a
    );
    assert_eq!(h.posted_method("resources/read").len(), 2);
}

#[test]
fn a_refused_cursor_discards_every_kept_page_of_its_list() {
    let mut h = connected(Modern {
        ttl: Some(json!(60_000)),
        tools_per_page: 2,
        ..Default::default()
    });
    let cursor = |c: &str| Some(json!({ "cursor": c }));
    let listed = |h: &Harness<Modern>| h.posted_method("tools/list").len();
    let first = request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(first["nextCursor"], "2");
    request(&mut h, "tools/list", cursor("2"), CacheMode::Use);
    request(&mut h, "tools/list", None, CacheMode::Use);
    request(&mut h, "tools/list", cursor("2"), CacheMode::Use);
    assert_eq!(listed(&h), 2, "both pages served from the cache");
    let refused = request_outcome(&mut h, "tools/list", cursor("stale"), CacheMode::Use);
    assert!(matches!(refused, Some(Err(RequestError::Rpc(e))) if e.code == -32602));
    request(&mut h, "tools/list", None, CacheMode::Use);
    request(&mut h, "tools/list", cursor("2"), CacheMode::Use);
    assert_eq!(listed(&h), 5, "every page asked for again");
}

#[test]
fn no_ttl_or_a_zero_ttl_means_every_request_reaches_the_server() {
    for ttl in [None, Some(json!(0)), Some(json!(-1))] {
        let mut h = connected(Modern {
            ttl: ttl.clone(),
            ..Default::default()
        });
        request(&mut h, "tools/list", None, CacheMode::Use);
        request(&mut h, "tools/list", None, CacheMode::Use);
        assert_eq!(h.posted_method("tools/list").len(), 2, "ttlMs {ttl:?}");
    }
}

/// Connected to a server that marks lists and reads fresh for a minute.
fn connected_fresh_for_a_minute() -> Harness<Modern> {
    connected_fresh_for(60_000)
}

/// Connected to a server whose lists and reads stay fresh for `ttl_ms`.
fn connected_fresh_for(ttl_ms: u64) -> Harness<Modern> {
    connected(Modern {
        ttl: Some(json!(ttl_ms)),
        ..Default::default()
    })
}

#[test]
fn a_change_notification_makes_the_cached_list_stale() {
    let mut h = connected_fresh_for_a_minute();
    request(&mut h, "tools/list", None, CacheMode::Use);
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 1);
    // The test server's listen stream announces that the tools changed.
    let filter = SubscriptionFilter {
        tools_list_changed: Some(true),
        ..Default::default()
    };
    h.session.listen(filter, h.now);
    h.pump();
    assert!(h.events.iter().any(|e| matches!(
        e,
        Event::Notification {
            notification: ServerNotification::ToolListChanged,
            ..
        }
    )));
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 2);
}

#[test]
fn new_credentials_drop_private_results_and_reconnecting_drops_all() {
    let mut h = connected_fresh_for_a_minute();
    // tools/list results carry no cacheScope (private); reads are "public".
    let read = Some(json!({ "uri": "test://a" }));
    request(&mut h, "tools/list", None, CacheMode::Use);
    request(&mut h, "resources/read", read.clone(), CacheMode::Use);
    h.session
        .set_extra_headers(vec![("X-Custom".into(), "1".into())]);
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 1, "same credentials");
    h.session
        .set_extra_headers(vec![("Authorization".into(), "Bearer other".into())]);
    request(&mut h, "tools/list", None, CacheMode::Use);
    request(&mut h, "resources/read", read.clone(), CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 2, "private: dropped");
    assert_eq!(h.posted_method("resources/read").len(), 1, "public: kept");
    h.connect();
    request(&mut h, "resources/read", read, CacheMode::Use);
    assert_eq!(h.posted_method("resources/read").len(), 2);
}

#[test]
fn results_reached_through_mrtr_rounds_are_not_cached() {
    let mut h = connected_fresh_for_a_minute();
    let read = Some(json!({ "uri": "test://state" }));
    let r = request(&mut h, "resources/read", read.clone(), CacheMode::Use);
    assert_eq!(r["contents"][0]["text"], "hello");
    assert_eq!(h.posted_method("resources/read").len(), 2, "one MRTR round");
    request(&mut h, "resources/read", read, CacheMode::Use);
    assert_eq!(h.posted_method("resources/read").len(), 4);
}

#[test]
fn the_tool_list_refreshed_after_a_header_mismatch_replaces_the_cached_one() {
    let mut h = connected(Modern {
        ttl: Some(json!(60_000)),
        zone_header_after: 1,
        ..Default::default()
    });
    // Cached while `zone` was not yet a header; then the server's tools changed (unannounced).
    request(&mut h, "tools/list", None, CacheMode::Use);
    call_strict_in_a_zone(&mut h);
    assert_eq!(
        h.posted_method("tools/list").len(),
        2,
        "refreshed after the mismatch"
    );
    let listed = request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 2);
    let strict = listed["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "strict"));
    assert_eq!(
        strict.map(|t| t["inputSchema"]["properties"]["zone"]["x-mcp-header"].clone()),
        Some(json!("Zone")),
        "the cache serves the refreshed list, not the stale one"
    );
}

/// Connected with the wire log on, its connecting events taken.
fn connected_with_wire_log() -> Harness<Modern> {
    let mut cfg = config();
    cfg.wire_log = true;
    let mut h = Harness::new(Session::new(cfg), Modern::default());
    h.connect();
    h.take_events();
    h
}

#[test]
fn an_error_answered_with_an_http_error_status_is_in_the_wire_log() {
    let mut h = connected_with_wire_log();
    // The test server has no prompts: 404 and a JSON-RPC error.
    let handle = h
        .session
        .request("prompts/list", None, RequestOptions::default(), h.now);
    h.pump();
    assert!(h.events.iter().any(|e| matches!(e,
        Event::Response { handle: x, result: Err(RequestError::Rpc(err)) }
            if *x == handle && err.code == -32601)));
    let logged = h.events.iter().find_map(|e| match e {
        Event::Wire {
            direction: Direction::Received,
            status,
            message,
            ..
        } if message.get("error").is_some() => Some((*status, message.clone())),
        _ => None,
    });
    let Some((status, message)) = logged else {
        panic!("the error answer is not in the wire log: {:?}", h.events)
    };
    assert_eq!(status, Some(404));
    assert_eq!(message["error"]["code"], -32601);
}

#[test]
fn a_call_and_its_json_answer_are_in_the_wire_log_each_with_its_own_headers() {
    let mut h = connected_with_wire_log();
    call(&mut h, "echo", json!({"m": "x"}), RequestOptions::default());
    let posted = h.requests_for("tools/call");
    let logged = |direction: Direction, key: &str| {
        h.events.iter().find_map(|e| match e {
            Event::Wire {
                direction: d,
                transmit,
                status,
                headers,
                message,
            } if *d == direction && message.get(key).is_some() => {
                Some((*transmit, *status, headers.clone()))
            }
            _ => None,
        })
    };
    let header = |headers: &[(String, String)], name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    // What is sent, with its own request's headers.
    let Some((transmit, _, headers)) = logged(Direction::Sent, "method") else {
        panic!("the call is not in the wire log: {:?}", h.events)
    };
    assert_eq!(transmit, Some(posted[0].id));
    assert_eq!(
        header(&headers, "mcp-method").as_deref(),
        Some("tools/call")
    );
    assert_eq!(header(&headers, "mcp-name").as_deref(), Some("echo"));
    // Its answer, in the JSON body of the same exchange, with that response's status and
    // headers (the exchange has ended by the time its body is read).
    let Some((transmit, status, headers)) = logged(Direction::Received, "result") else {
        panic!("the answer is not in the wire log: {:?}", h.events)
    };
    assert_eq!(transmit, Some(posted[0].id));
    assert_eq!(status, Some(200));
    assert!(
        header(&headers, "content-type").is_some_and(|v| v.contains("json")),
        "{headers:?}"
    );
}

#[test]
fn a_call_the_server_refuses_as_unknown_makes_the_cached_tool_list_stale() {
    let mut h = connected_fresh_for_a_minute();
    request(&mut h, "tools/list", None, CacheMode::Use);
    // A tool error (a result with isError) says nothing about the list.
    call(&mut h, "fails", json!({}), RequestOptions::default());
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 1);
    // A protocol error for an unknown tool suggests the tools changed unannounced.
    let c = call(&mut h, "gone", json!({}), RequestOptions::default());
    assert!(matches!(response(&h, c), Some(Err(RequestError::Rpc(e))) if e.code == -32602));
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 2, "asked again");
    request(&mut h, "tools/list", None, CacheMode::Use);
    assert_eq!(h.posted_method("tools/list").len(), 2, "kept again");
}

#[test]
fn a_resource_the_server_no_longer_finds_is_not_served_from_the_cache() {
    let mut h = connected_fresh_for_a_minute();
    let read = |uri: &str| Some(json!({ "uri": uri }));
    let reads = |h: &Harness<Modern>| h.posted_method("resources/read").len();
    request(&mut h, "resources/read", read("test://doc"), CacheMode::Use);
    request(&mut h, "resources/read", read("test://doc"), CacheMode::Use);
    assert_eq!(reads(&h), 1);
    // Deleted unannounced; the refusal of a fresh read (`-32602`, the 2026-07-28 code for a
    // resource not found) drops what was kept.
    h.server.gone.push("test://doc");
    let refused = request_outcome(
        &mut h,
        "resources/read",
        read("test://doc"),
        CacheMode::Refresh,
    );
    assert!(matches!(refused, Some(Err(RequestError::Rpc(e))) if e.code == -32602));
    let again = request_outcome(&mut h, "resources/read", read("test://doc"), CacheMode::Use);
    assert!(matches!(again, Some(Err(RequestError::Rpc(e))) if e.code == -32602));
    assert_eq!(reads(&h), 3, "asked the server, not the cache");
}

#[test]
fn a_wrong_remembered_legacy_era_is_corrected_whatever_the_refusal() {
    // The spec asks a client to probe again when a remembered era fails. A modern-only server
    // may refuse `initialize` with a modern error code, but need not: a plain JSON-RPC error,
    // or a 400 without a JSON-RPC body, must also lead to the probe (not to a failed
    // connection that the memory would then repeat on every visit).
    struct ModernOnly(Modern, Reply);
    impl Server for ModernOnly {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            if body.unwrap()["method"] == "initialize" {
                return self.1.clone();
            }
            self.0.handle(req, body)
        }
    }
    let refusals = [
        // HeaderMismatch: `initialize` lacks the modern headers, as the compatibility matrix
        // describes.
        Reply::Json(
            400,
            json_ct(),
            error(&json!(0), -32020, "missing MCP-Protocol-Version"),
        ),
        Reply::Json(
            400,
            json_ct(),
            error(&json!(0), -32600, "initialize is not a method here"),
        ),
        Reply::Json(404, json_ct(), error(&json!(0), -32601, "Method not found")),
        Reply::Raw(400, "text/plain", b"Bad Request".to_vec()),
    ];
    for refusal in refusals {
        let mut cfg = config();
        cfg.era_hint = Some(Era::Legacy);
        let mut h = Harness::new(
            Session::new(cfg),
            ModernOnly(Modern::default(), refusal.clone()),
        );
        h.connect();
        assert_eq!(
            h.session.state(),
            ConnectionState::Connected,
            "{refusal:?}: {:?}",
            h.events
        );
        let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
        assert_eq!(methods, [json!("initialize"), json!("server/discover")]);
        assert!(h
            .events
            .iter()
            .any(|e| matches!(e, Event::Connected(d) if d.era == Era::Modern)));
    }
}

/// The `Discovered` events so far: (fresh for, public).
fn discovered(h: &Harness<impl Server>) -> Vec<(std::time::Duration, bool)> {
    h.events
        .iter()
        .filter_map(|e| match e {
            Event::Discovered {
                fresh_for, public, ..
            } => Some((
                std::time::Duration::from_millis(fresh_for.as_millis()),
                *public,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn a_probe_announces_the_discover_result_with_its_caching_hints() {
    let hour = std::time::Duration::from_secs(3600);
    let day = std::time::Duration::from_secs(24 * 3600);
    let zero = std::time::Duration::ZERO;
    let cases = [
        (
            json!({"ttlMs": 3_600_000, "cacheScope": "public"}),
            (hour, true),
        ),
        (
            json!({"ttlMs": 3_600_000, "cacheScope": "private"}),
            (hour, false),
        ),
        (json!({"ttlMs": 3_600_000}), (hour, false)),
        // Longer than a day is clamped to a day; negative, fractional or missing is stale.
        (
            json!({"ttlMs": 864_000_000, "cacheScope": "public"}),
            (day, true),
        ),
        (json!({"ttlMs": -5, "cacheScope": "public"}), (zero, true)),
        (json!({"ttlMs": 1.5, "cacheScope": "public"}), (zero, true)),
        (json!({}), (zero, false)),
    ];
    for (extra, want) in cases {
        let mut h = Harness::new(
            Session::new(config()),
            Modern {
                discover_extra: Some(extra.clone()),
                ..Default::default()
            },
        );
        h.connect();
        assert_eq!(discovered(&h), [want], "{extra}");
        // Announced before `Connected`, with the result as sent.
        let at = |f: fn(&Event) -> bool| h.events.iter().position(f).unwrap();
        assert!(
            at(|e| matches!(e, Event::Discovered { .. }))
                < at(|e| matches!(e, Event::Connected(_)))
        );
        let sent = h.events.iter().find_map(|e| match e {
            Event::Discovered { result, .. } => Some(result.clone()),
            _ => None,
        });
        assert_eq!(
            sent.unwrap()["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "scripted"
        );
    }
}

/// A discover result of the scripted server, as an application would have kept it.
fn kept_discover() -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {"listChanged": true}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "kept", "version": "8"}},
        "instructions": "kept instructions",
        "ttlMs": 3_600_000,
        "cacheScope": "public",
    })
}

fn with_kept_discover(server: Modern) -> Harness<Modern> {
    let mut cfg = config();
    cfg.known_discover = Some(kept_discover());
    let mut h = Harness::new(Session::new(cfg), server);
    h.connect();
    h
}

#[test]
fn a_kept_discover_result_connects_without_asking_the_server() {
    let mut h = with_kept_discover(Modern::default());
    assert!(h.sent.is_empty(), "nothing crossed the wire");
    assert_eq!(h.session.state(), ConnectionState::Connected);
    let d = h
        .events
        .iter()
        .find_map(|e| match e {
            Event::Connected(d) => Some((**d).clone()),
            _ => None,
        })
        .expect("connected");
    assert_eq!(
        (d.era, d.protocol_version.as_str()),
        (Era::Modern, "2026-07-28")
    );
    assert_eq!(d.server_info.name, "kept");
    assert_eq!(d.instructions.as_deref(), Some("kept instructions"));
    assert!(discovered(&h).is_empty(), "nothing new to keep");
    let states: Vec<&Event> = h
        .events
        .iter()
        .filter(|e| matches!(e, Event::State(_)))
        .collect();
    assert_eq!(
        states,
        [
            &Event::State(ConnectionState::Connecting),
            &Event::State(ConnectionState::Connected)
        ],
        "the same states as any connection"
    );
    // The first request goes out at once, in the modern era (the scripted server checks
    // its headers and `_meta`).
    let c = call(
        &mut h,
        "echo",
        json!({"m": "first"}),
        RequestOptions::default(),
    );
    assert_eq!(text_of(&response(&h, c)), "first");
    assert_eq!(h.posted().len(), 1);
    // A second connection (say, after logging in) asks again: the kept result is used once.
    h.connect();
    assert_eq!(h.posted_method("server/discover").len(), 1);
}

#[test]
fn a_kept_discover_result_confirmed_by_an_answer_stays_in_use() {
    // A JSON-RPC error tied to the request is a modern server's answer: the kept result is
    // confirmed, and later refusals are the caller's business.
    let mut h = with_kept_discover(Modern::default());
    let r = request_outcome(
        &mut h,
        "prompts/get",
        Some(json!({"name": "none"})),
        CacheMode::Use,
    );
    assert!(matches!(r, Some(Err(RequestError::Rpc(_)))), "{r:?}");
    h.server.down = Some(Reply::Raw(400, "text/plain", b"Bad Request".to_vec()));
    let r = request_outcome(&mut h, "tools/list", None, CacheMode::Use);
    assert!(
        matches!(r, Some(Err(RequestError::Http { status: 400, .. }))),
        "{r:?}"
    );
    assert!(h.posted_method("server/discover").is_empty());
}

#[test]
fn a_kept_discover_result_refuted_by_an_unsupported_version_is_probed_and_the_request_sent_again() {
    struct RefusesOnce(Modern, bool);
    impl Server for RefusesOnce {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            let b = body.unwrap();
            if !self.1 && b["method"] != "server/discover" {
                self.1 = true;
                return refused_version(&b["id"]);
            }
            self.0.handle(req, body)
        }
    }
    let mut cfg = config();
    cfg.known_discover = Some(kept_discover());
    let mut h = Harness::new(Session::new(cfg), RefusesOnce(Modern::default(), false));
    h.connect();
    let c = call(
        &mut h,
        "echo",
        json!({"m": "again"}),
        RequestOptions::default(),
    );
    assert_eq!(text_of(&response(&h, c)), "again");
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [
            json!("tools/call"),
            json!("server/discover"),
            json!("tools/call")
        ]
    );
    assert!(h
        .events
        .contains(&Event::State(ConnectionState::Reconnecting)));
    assert_eq!(discovered(&h).len(), 1, "the fresh result is announced");
}

#[test]
fn a_kept_discover_result_for_an_unreachable_server_fails_the_request_clearly() {
    struct Down;
    impl Server for Down {
        fn handle(&mut self, _: &HttpRequest, _: Option<&Value>) -> Reply {
            Reply::Network("TypeError: Failed to fetch")
        }
    }
    let mut cfg = config();
    cfg.known_discover = Some(kept_discover());
    let mut h = Harness::new(Session::new(cfg), Down);
    h.connect();
    let handle = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    h.pump();
    let r = h.events.iter().find_map(|e| match e {
        Event::Response { handle: x, result } if *x == handle => Some(result.clone()),
        _ => None,
    });
    match r {
        Some(Err(RequestError::Unavailable(why))) => {
            assert!(why.contains("could not reach the server"), "{why}")
        }
        other => panic!("expected a clear failure, got {other:?}"),
    }
    assert_eq!(h.session.state(), ConnectionState::Failed);
    assert!(h
        .events
        .iter()
        .any(|e| matches!(e, Event::ConnectFailed(_))));
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [
            json!("tools/list"),
            // The probe again, the listing alongside it.
            json!("server/discover"),
            json!("tools/list"),
            json!("initialize")
        ]
    );
}

#[test]
fn an_unusable_kept_discover_result_is_ignored_and_the_server_probed() {
    for kept in [
        json!({"supportedVersions": ["2099-01-01"], "capabilities": {}}),
        json!({"supportedVersions": "2026-07-28"}),
        json!("not an object"),
        json!(null),
    ] {
        let mut cfg = config();
        cfg.known_discover = Some(kept.clone());
        let mut h = Harness::new(Session::new(cfg), Modern::default());
        h.connect();
        assert_eq!(h.posted_method("server/discover").len(), 1, "{kept}");
        assert_eq!(h.session.state(), ConnectionState::Connected);
    }
}

#[test]
fn with_the_tasks_extension_declared_a_tool_call_may_be_answered_with_a_task() {
    let mut cfg = config();
    cfg.tasks_extension = true;
    let mut h = Harness::new(Session::new(cfg), Modern::default());
    h.connect();
    h.take_events();
    let c = call(&mut h, "report", json!({}), RequestOptions::default());
    let sent = h.posted_method("tools/call").pop().unwrap();
    let caps = &sent["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert_eq!(caps["extensions"][TASKS_EXTENSION], json!({}), "{caps}");
    // The task is the answer: the caller follows it.
    let Some(Ok(value)) = h.events.iter().find_map(|e| match e {
        Event::Response { handle, result } if *handle == c => Some(result.clone()),
        _ => None,
    }) else {
        panic!("no answer: {:?}", h.events)
    };
    let task: Task = serde_json::from_value(value).unwrap();
    assert_eq!(
        (task.task_id.as_str(), task.status.as_str()),
        ("t-1", "working")
    );
    assert_eq!(
        (task.poll_interval, task.ttl_ms()),
        (Some(500), Some(60_000))
    );
    // Followed with tasks/get, routed by the task id; the task then carries the result.
    let get = h.session.request(
        "tasks/get",
        Some(json!({"taskId": "t-1"})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    let Some(Ok(state)) = h.events.iter().find_map(|e| match e {
        Event::Response { handle, result } if *handle == get => Some(result.clone()),
        _ => None,
    }) else {
        panic!("no state")
    };
    let state: Task = serde_json::from_value(state).unwrap();
    assert!(state.is_terminal());
    assert_eq!(state.ttl_ms(), None, "null: kept without limit");
    assert_eq!(state.result().unwrap()["content"][0]["text"], "done");
}

#[test]
fn a_task_answer_is_refused_where_the_extension_was_not_declared_or_cannot_apply() {
    // Not declared: the server must not answer with a task (this one does not).
    let mut h = connected(Modern::default());
    let c = call(&mut h, "report", json!({}), RequestOptions::default());
    let sent = h.posted_method("tools/call").pop().unwrap();
    let caps = &sent["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert!(caps.get("extensions").is_none(), "{caps}");
    assert_eq!(text_of(&response(&h, c)), "report, at once");
    // A task answer to something that cannot run as one is a protocol error.
    let mut cfg = config();
    cfg.tasks_extension = true;
    let mut h = Harness::new(Session::new(cfg), Modern::default());
    h.connect();
    h.take_events();
    let p = h.session.request(
        "prompts/get",
        Some(json!({"name": "as-task"})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    match response(&h, p) {
        Some(Err(RequestError::Protocol(m))) => {
            assert!(m.contains("only tools/call may run as one"), "{m}")
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
}

// ----- listings sent alongside the era probe -----

fn tool_names<S: Server>(h: &Harness<S>, handle: RequestHandle) -> Vec<String> {
    match response(h, handle) {
        Some(Ok(McpResult::ListTools(l))) => l.tools.into_iter().map(|t| t.name).collect(),
        other => panic!("expected a tool list, got {other:?}"),
    }
}

/// A refusal of the version 2026-07-28 that names it as supported (a server that refuses the
/// first requests, whatever they say).
fn refused_version(id: &Value) -> Reply {
    Reply::Json(
        400,
        json_ct(),
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}}),
    )
}

#[test]
fn a_listing_asked_for_while_probing_goes_alongside_the_probe() {
    let mut h = Harness::new(Session::new(config()), SlowProbe::new(Modern::default()));
    h.connect();
    assert_eq!(h.session.state(), ConnectionState::Connecting);
    let list = h
        .session
        .request("tools/list", None, RequestOptions::default(), h.now);
    // A tool call waits for the era: a legacy server could run it in the wrong one.
    let c = h.session.request(
        "tools/call",
        Some(json!({"name": "echo", "arguments": {"m": "after"}})),
        RequestOptions::default(),
        h.now,
    );
    h.pump();
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [json!("server/discover"), json!("tools/list")],
        "the listing went out before the probe was answered (the server checks it is modern)"
    );
    // Answered already, but held until the probe says the era is the one it was asked in.
    assert_eq!(h.responses_to(list), 0, "{:?}", h.events);
    h.answer_probe();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert_eq!(tool_names(&h, list), ["echo", "sql", "strict"]);
    let connected_at = h
        .events
        .iter()
        .position(|e| matches!(e, Event::Connected(_)))
        .expect("connected");
    let answered_at = h
        .events
        .iter()
        .position(|e| matches!(e, Event::Response { handle, .. } if *handle == list))
        .expect("answered");
    assert!(connected_at < answered_at, "connected is said first");
    assert_eq!(text_of(&response(&h, c)), "after");
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [
            json!("server/discover"),
            json!("tools/list"),
            json!("tools/call")
        ],
        "the listing was not sent again"
    );
    assert_eq!(h.responses_to(list), 1);
}

#[test]
fn a_listing_asked_for_before_connecting_goes_with_the_probe() {
    let mut h = Harness::new(Session::new(config()), SlowProbe::new(Modern::default()));
    let prompts = h.ask("prompts/list");
    assert!(h.sent.is_empty(), "nothing before connecting");
    h.connect();
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(methods, [json!("server/discover"), json!("prompts/list")]);
    h.answer_probe();
    // The test server has no prompts: its refusal, given in the modern era, is the answer.
    assert!(matches!(
        response(&h, prompts),
        Some(Err(RequestError::Rpc(ref e))) if e.code == -32601
    ));
    assert_eq!(h.responses_to(prompts), 1);
    assert_eq!(h.posted().len(), 2);
}

#[test]
fn a_listing_alongside_a_probe_answered_with_another_version_goes_again() {
    // The probe is refused with UnsupportedProtocolVersion (once): the listing sent with it
    // got the same refusal, which is not what the application asked about.
    struct RefusesFirst(Modern, u32);
    impl Server for RefusesFirst {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            let b = body.expect("a POST");
            if self.1 < 2 {
                self.1 += 1;
                return refused_version(&b["id"]);
            }
            self.0.handle(req, body)
        }
    }
    let mut h = Harness::new(
        Session::new(config()),
        SlowProbe::new(RefusesFirst(Modern::default(), 0)),
    );
    h.connect();
    let list = h.ask("tools/list");
    // The listing is refused at once (held); the probe is refused when answered, and is
    // sent again with the listing.
    assert_eq!(h.responses_to(list), 0);
    h.answer_probe();
    assert_eq!(h.responses_to(list), 0, "{:?}", h.events);
    let methods: Vec<Value> = h.posted().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(
        methods,
        [
            json!("server/discover"),
            json!("tools/list"),
            json!("server/discover"),
            json!("tools/list")
        ]
    );
    h.answer_probe();
    assert_eq!(tool_names(&h, list), ["echo", "sql", "strict"]);
    assert_eq!(h.responses_to(list), 1);
}

#[test]
fn a_listing_alongside_a_probe_that_needs_a_login_waits_for_the_login() {
    struct Gate(Modern);
    impl Server for Gate {
        fn handle(&mut self, req: &HttpRequest, body: Option<&Value>) -> Reply {
            if req.header("authorization").is_none() {
                return Reply::Json(
                    401,
                    vec![(
                        "WWW-Authenticate".into(),
                        "Bearer resource_metadata=\"https://x/.well-known\"".into(),
                    )],
                    json!({}),
                );
            }
            self.0.handle(req, body)
        }
    }
    let mut h = Harness::new(
        Session::new(config()),
        SlowProbe::new(Gate(Modern::default())),
    );
    h.connect();
    let list = h.ask("tools/list");
    let challenges = |h: &Harness<SlowProbe<Gate>>| {
        h.events
            .iter()
            .filter(|e| matches!(e, Event::AuthRequired { .. }))
            .count()
    };
    assert_eq!(challenges(&h), 0, "the listing's refusal is not announced");
    h.answer_probe();
    assert_eq!(h.session.state(), ConnectionState::AuthRequired);
    assert_eq!(challenges(&h), 1, "the probe's refusal is, once");
    assert_eq!(h.responses_to(list), 0, "the listing waits for the login");
    assert!(h.session.is_under_way(list));
    h.session
        .set_extra_headers(vec![("Authorization".into(), "Bearer t".into())]);
    h.session.connect(h.now);
    h.pump();
    h.answer_probe();
    assert_eq!(tool_names(&h, list), ["echo", "sql", "strict"]);
    assert_eq!(h.responses_to(list), 1);
    let authorized: Vec<&HttpRequest> = h
        .sent
        .iter()
        .filter(|r| r.header("authorization").is_some())
        .collect();
    assert_eq!(
        authorized.len(),
        2,
        "probe and listing, once each, with the login"
    );
}

#[test]
fn a_listing_cancelled_while_its_answer_is_held_ends_cancelled() {
    let mut h = Harness::new(Session::new(config()), SlowProbe::new(Modern::default()));
    h.connect();
    let list = h.ask("tools/list");
    h.session.cancel(list, h.now);
    h.pump();
    assert!(matches!(
        response(&h, list),
        Some(Err(RequestError::Cancelled))
    ));
    h.answer_probe();
    assert_eq!(h.session.state(), ConnectionState::Connected);
    assert_eq!(h.responses_to(list), 1, "cancelled, and nothing after");
    assert_eq!(h.posted_method("tools/list").len(), 1, "not sent again");
}
