//! Faults, in headless Chromium, against real servers behind `tests/peers/fault_proxy.mjs`
//! (which forwards to the real server and injects one fault at a time): a server killed and
//! restarted mid-call, unknown sessions (404 and 400), streams cut mid-response (legacy:
//! resumed with Last-Event-ID; modern: re-issued), no CORS, a slow server, malformed bodies.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::http::TransportFailure;
use client_browser::client_core::session::RequestError;
use client_browser::client_core::time::Duration;
use client_browser::client_core::types::*;
use client_browser::{
    CacheMode, CallOptions, Client, ClientError, ClientEvent, ClientOptions, Handlers, ListOptions,
};
use futures_util::FutureExt;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Proxy in front of server-everything (Streamable HTTP, legacy era).
const LEGACY_PROXY: Option<&str> = option_env!("MCP_FAULT_LEGACY");
/// Proxy in front of the PyPI mcp 2.x server (modern era).
const MODERN_PROXY: Option<&str> = option_env!("MCP_FAULT_MODERN");
/// Proxy in front of the server on the official Rust SDK, offering the legacy eras only.
const RMCP_PROXY: Option<&str> = option_env!("MCP_FAULT_RMCP");

/// Sends a control request to the proxy.
async fn control(base: &str, path: &str, body: Option<Value>) -> Value {
    let init = web_sys::RequestInit::new();
    init.set_method(if body.is_some() { "POST" } else { "GET" });
    if let Some(b) = body {
        init.set_body(&b.to_string().into());
    }
    let window: web_sys::Window = js_sys::global().unchecked_into();
    let resp: web_sys::Response =
        JsFuture::from(window.fetch_with_str_and_init(&format!("{base}{path}"), &init))
            .await
            .expect("control request")
            .unchecked_into();
    let text = JsFuture::from(resp.text().unwrap())
        .await
        .unwrap()
        .as_string()
        .unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// The address of a proxy (`base`, from the environment variable `var`), with no fault
/// armed that an earlier test left unapplied (one that failed, or a run before against the
/// same proxy, as `scripts/mutants-wasm.sh` makes).
async fn cleared(base: Option<&'static str>, var: &str) -> &'static str {
    let base = base.unwrap_or_else(|| panic!("{var} not set"));
    fault(base, json!({"kind": "clear"})).await;
    base
}

/// The proxy in front of server-everything, cleared.
async fn legacy_proxy() -> &'static str {
    cleared(LEGACY_PROXY, "MCP_FAULT_LEGACY").await
}

/// The proxy in front of the 2026-07-28 server, cleared.
async fn modern_proxy() -> &'static str {
    cleared(MODERN_PROXY, "MCP_FAULT_MODERN").await
}

/// The proxy in front of the Rust SDK server (legacy eras only), cleared.
async fn rmcp_proxy() -> &'static str {
    cleared(RMCP_PROXY, "MCP_FAULT_RMCP").await
}

/// How many entries of the proxy's log `l` are `what`.
fn count(l: &[String], what: &str) -> usize {
    l.iter().filter(|x| *x == what).count()
}

/// Asserts that from the proxy's log `before` to `after` the client resumed a stream
/// `resumes` times (GET with Last-Event-ID) and posted `tools/call` `calls` times.
fn resumed_and_sent(before: &[String], after: &[String], resumes: usize, calls: usize) {
    assert_eq!(
        count(after, "GET resume") - count(before, "GET resume"),
        resumes,
        "resumptions: {after:?}"
    );
    assert_eq!(
        count(after, "tools/call") - count(before, "tools/call"),
        calls,
        "tools/call sent: {after:?}"
    );
}

async fn fault(base: &str, f: Value) {
    control(base, "/__fault", Some(f)).await;
}

async fn log(base: &str) -> Vec<String> {
    serde_json::from_value(control(base, "/__log", None).await).unwrap_or_default()
}

/// Waits (5 s at most, polling) until the proxy's log from entry `from` on holds an entry
/// equal to `entry`; panics saying `what` did not happen otherwise.
async fn logged(base: &str, from: usize, entry: &str, what: &str) {
    logged_where(base, from, |m| m == entry, &format!("{what}: no {entry:?}")).await
}

/// [`logged`] for an entry that starts with `start` (`notifications/cancelled` is logged with
/// the id of the request cancelled).
async fn logged_starting(base: &str, from: usize, start: &str, what: &str) {
    let found = |m: &str| m.starts_with(start);
    logged_where(base, from, found, &format!("{what}: no {start:?}...")).await
}

async fn logged_where(base: &str, from: usize, found: impl Fn(&str) -> bool, what: &str) {
    let mut seen = Vec::new();
    for _ in 0..250 {
        seen = log(base).await.into_iter().skip(from).collect();
        if seen.iter().any(|m| found(m)) {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("{what} in {seen:?}");
}

async fn connect(url: String) -> Client {
    within(15_000, "connect", Client::connect(ClientOptions::new(url)))
        .await
        .expect("connects")
}

fn progress_counter() -> (CallOptions, Rc<RefCell<u32>>) {
    let n = Rc::new(RefCell::new(0));
    let m = n.clone();
    (
        CallOptions {
            on_progress: Some(Rc::new(move |_| *m.borrow_mut() += 1)),
            ..Default::default()
        },
        n,
    )
}

#[wasm_bindgen_test]
async fn legacy_cut_stream_is_resumed_with_last_event_id() {
    // The PyPI mcp server also speaks the legacy era (with an event store, so streams are
    // resumable); remembering "legacy" makes the client open a session with `initialize`.
    let base = modern_proxy().await;
    let mut o = ClientOptions::new(format!("{base}/mcp"));
    o.era_hint = Some(Era::Legacy);
    let client = within(15_000, "connect", Client::connect(o))
        .await
        .expect("connects");
    assert_eq!(client.server().unwrap().era, Era::Legacy);
    let before = log(base).await;
    // Priming event + first progress, then the connection is reset.
    fault(
        base,
        json!({"kind": "cut", "method": "tools/call", "afterEvents": 2}),
    )
    .await;
    let (opts, progress) = progress_counter();
    let r = within(
        20_000,
        "count",
        client.call_tool_with("count", json!({"steps": 6}), opts),
    )
    .await;
    let r = r.expect("the call completes after resumption");
    assert_eq!(text(&r), "counted to 6");
    // One GET with Last-Event-ID; resumed, not sent again.
    resumed_and_sent(&before, &log(base).await, 1, 1);
    assert_eq!(
        *progress.borrow(),
        6,
        "no progress lost or repeated across the cut"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn rust_sdk_cut_stream_it_cannot_replay_is_resumed_at_its_pace_then_the_call_sent_again() {
    // The official Rust SDK (rmcp), offering only the legacy eras and asking for 3 s between
    // reconnections (`retry: 3000` in each stream's priming event, its default), answers a
    // resumption of a call it has finished meanwhile with an empty stream. The client resumes
    // at the server's pace (not its own 1 s), a bounded number of times, then sends the call
    // again.
    let base = rmcp_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    assert_eq!(client.server().unwrap().era, Era::Legacy);
    let before = log(base).await;
    fault(
        base,
        json!({"kind": "cut", "method": "tools/call", "afterEvents": 2}),
    )
    .await;
    // With a progress token, so that the stream has more events than the two it is cut after.
    let (opts, _) = progress_counter();
    let started = js_sys::Date::now();
    let r = within(
        40_000,
        "count",
        client.call_tool_with("count", json!({"steps": 6}), opts),
    )
    .await;
    let elapsed = js_sys::Date::now() - started;
    let r = r.expect("the call completes, sent again");
    assert_eq!(text(&r), "counted to 6");
    // Five resumptions (max_stream_reconnects), then sent again.
    resumed_and_sent(&before, &log(base).await, 5, 2);
    // Five waits of the server's 3 s at least (timers never fire early); at the client's own
    // 1 s after the first, 7 s and the requests' own time.
    assert!(
        elapsed >= 15_000.0,
        "resumed at the server's pace: {elapsed} ms"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn server_everything_cut_stream_resumption_is_attempted_and_bounded() {
    // server-everything answers a resumption with 200 and then never replays the missing
    // events (a known limitation of that server): the client must not hang past its timeout.
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let resumes = |l: Vec<String>| l.iter().filter(|x| *x == "GET resume").count();
    let before = resumes(log(base).await);
    fault(
        base,
        json!({"kind": "cut", "method": "tools/call", "afterEvents": 2}),
    )
    .await;
    let opts = CallOptions {
        timeout: Some(Duration::from_secs(4)),
        on_progress: Some(Rc::new(|_| ())),
        ..Default::default()
    };
    let r = within(
        10_000,
        "cut call",
        client.call_tool_with(
            "trigger-long-running-operation",
            json!({"duration": 2, "steps": 4}),
            opts,
        ),
    )
    .await;
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Timeout { .. }))),
        "{r:?}"
    );
    assert!(
        resumes(log(base).await) > before,
        "a GET with Last-Event-ID was sent"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn legacy_server_restarted_mid_call_is_recovered() {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let states = Rc::new(RefCell::new(Vec::new()));
    let st = states.clone();
    client.on_event(move |e| {
        if let client_browser::ClientEvent::State(s) = e {
            st.borrow_mut().push(*s)
        }
    });
    let (tx, rx) = futures_channel::oneshot::channel::<()>();
    let tx = Rc::new(RefCell::new(Some(tx)));
    let opts = CallOptions {
        on_progress: Some(Rc::new(move |_| {
            if let Some(tx) = tx.borrow_mut().take() {
                let _ = tx.send(());
            }
        })),
        ..Default::default()
    };
    let call = client.start_tool_call(
        "trigger-long-running-operation",
        json!({"duration": 1.5, "steps": 3}),
        opts,
    );
    within(10_000, "first progress", rx).await.unwrap();
    fault(base, json!({"kind": "restart"})).await;
    let r = within(30_000, "call after restart", call).await;
    let r = r.expect("the call is replayed on a fresh session");
    let r: client_browser::client_core::types::CallToolResult =
        client_browser::decode("tools/call", r).expect("a tool result");
    assert!(text(&r).contains("completed"));
    let inits = log(base)
        .await
        .iter()
        .filter(|l| *l == "initialize")
        .count();
    assert!(inits >= 2, "a fresh initialize after the restart ({inits})");
    use client_browser::client_core::session::ConnectionState::{Connected, Reconnecting};
    assert_eq!(
        *states.borrow(),
        [Reconnecting, Connected],
        "the application saw the reconnection"
    );
    let r = within(
        10_000,
        "echo after",
        client.call_tool("echo", json!({"message": "still here"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: still here");
    client.close();
}

#[wasm_bindgen_test]
async fn unknown_session_404_and_400_start_a_fresh_session() {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    for (status, body) in [
        (
            404,
            json!({"jsonrpc": "2.0", "error": {"code": -32001, "message": "Session not found"}, "id": null}),
        ),
        (
            400,
            json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}, "id": null}),
        ),
    ] {
        let before = log(base)
            .await
            .iter()
            .filter(|l| *l == "initialize")
            .count();
        fault(base, json!({"kind": "status", "method": "tools/call", "status": status, "body": body.to_string()})).await;
        let r = within(
            10_000,
            "echo",
            client.call_tool("echo", json!({"message": "again"})),
        )
        .await
        .unwrap();
        assert_eq!(text(&r), "Echo: again");
        let after = log(base)
            .await
            .iter()
            .filter(|l| *l == "initialize")
            .count();
        assert_eq!(after, before + 1, "status {status}: one fresh initialize");
    }
    client.close();
}

#[wasm_bindgen_test]
async fn slow_server_times_out_and_gets_notifications_cancelled() {
    let (client, base, from) = connect_with_no_fault_armed().await;
    let opts = CallOptions {
        timeout: Some(Duration::from_millis(400)),
        ..Default::default()
    };
    let r = within(
        5_000,
        "slow call",
        client.call_tool_with(
            "trigger-long-running-operation",
            json!({"duration": 5, "steps": 5}),
            opts,
        ),
    )
    .await;
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Timeout { .. }))),
        "{r:?}"
    );
    let cancelled = "notifications/cancelled";
    logged_starting(base, from, cancelled, "cancel reaches the server").await;
    client.close();
}

/// On a server that accepts tool calls as tasks (server-everything), calls made together before
/// the tools were listed wait for one `tools/list`; one cancelled meanwhile ends as cancelled
/// and is never sent. Once the server says its tools changed, the next call lists them first,
/// and the one after does not.
#[wasm_bindgen_test]
async fn calls_before_listing_share_one_listing_and_a_change_relists() {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let echo = |message: &str| {
        client.start_tool_call(
            "echo",
            json!({ "message": message }),
            CallOptions::default(),
        )
    };
    let mark = log(base).await.len();
    let task = client.start_tool_call(
        "simulate-research-query",
        json!({"topic": "tides"}),
        CallOptions::default(),
    );
    let doomed = echo("doomed");
    let kept = echo("kept");
    client.cancel(doomed.handle);
    let doomed = within(5_000, "the cancelled call ends", doomed).await;
    assert!(
        matches!(doomed, Err(ClientError::Request(RequestError::Cancelled))),
        "{doomed:?}"
    );
    let kept = within(10_000, "echo", kept).await.unwrap();
    assert_eq!(kept["content"][0]["text"], "Echo: kept");
    let research = within(20_000, "the call that runs as a task", task)
        .await
        .unwrap();
    let report = research["content"][0]["text"].as_str().unwrap_or_default();
    assert!(report.contains("Research Report: tides"), "{research}");
    let seen = log(base).await[mark..].to_vec();
    let count = |m: &str| seen.iter().filter(|l| *l == m).count();
    assert_eq!(
        (count("tools/list"), count("tools/call")),
        (1, 2),
        "{seen:?}"
    );

    // The server's own list changes come right after initialization: list once more, then
    // have the next call's answer say the tools changed.
    within(10_000, "tools/list", client.list_tools())
        .await
        .unwrap();
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    fault(
        base,
        json!({"kind": "prepend", "method": "tools/call", "message": changed}),
    )
    .await;
    let mark = log(base).await.len();
    for message in ["a", "b", "c"] {
        let r = within(10_000, "echo", echo(message)).await.unwrap();
        assert_eq!(r["content"][0]["text"], format!("Echo: {message}"));
    }
    let seen = log(base).await[mark..].to_vec();
    assert_eq!(
        seen,
        ["tools/call", "tools/list", "tools/call", "tools/call"],
        "the call after the change lists the tools first, the next one does not"
    );

    // A change announced while a listing is on its way: that listing's answer may predate it,
    // so the next call lists again.
    fault(
        base,
        json!({"kind": "prepend", "method": "tools/list", "message": changed}),
    )
    .await;
    let mark = log(base).await.len();
    within(10_000, "tools/list", client.list_tools())
        .await
        .unwrap();
    for message in ["d", "e"] {
        let r = within(10_000, "echo", echo(message)).await.unwrap();
        assert_eq!(r["content"][0]["text"], format!("Echo: {message}"));
    }
    let seen = log(base).await[mark..].to_vec();
    assert_eq!(
        seen,
        ["tools/list", "tools/list", "tools/call", "tools/call"],
        "a listing overtaken by a change does not count"
    );
    client.close();
}

/// A message the client sent, with the headers of the HTTP request that carried it.
type Sent = (Value, Vec<(String, String)>);

/// A client of the legacy fault proxy, connected with `headers`, and what it sends from then
/// on (its wire log).
async fn connect_recording_sent(
    headers: Vec<(String, String)>,
) -> (Client, Rc<RefCell<Vec<Sent>>>) {
    let base = legacy_proxy().await;
    let mut o = ClientOptions::new(format!("{base}/mcp"));
    o.wire_log = true;
    o.headers = headers;
    let client = within(15_000, "connect", Client::connect(o))
        .await
        .expect("connects");
    let sent = Rc::new(RefCell::new(Vec::new()));
    let seen = sent.clone();
    client.on_event(move |e| {
        if let ClientEvent::Wire {
            sent: true,
            message,
            headers,
            ..
        } = e
        {
            seen.borrow_mut().push((message.clone(), headers.clone()));
        }
    });
    (client, sent)
}

/// What `field` of each sent message of `method` was.
fn sent_of(sent: &RefCell<Vec<Sent>>, method: &str, field: impl Fn(&Sent) -> Value) -> Vec<Value> {
    sent.borrow()
        .iter()
        .filter(|s| s.0["method"] == method)
        .map(field)
        .collect()
}

/// Headers set after connecting (`Client::set_headers`: say, an `Authorization` the
/// application got by itself) go with every later request, in place of those before.
#[wasm_bindgen_test]
async fn headers_set_after_connecting_go_with_later_requests() {
    let (client, sent) = connect_recording_sent(vec![("X-Before".into(), "1".into())]).await;
    within(5_000, "ping", client.ping()).await.unwrap();
    client.set_headers(vec![("X-After".into(), "2".into())]);
    within(5_000, "ping again", client.ping()).await.unwrap();
    // The names of the headers each ping went with, in lower case.
    let pings = sent_of(&sent, "ping", |(_, headers)| {
        headers
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, _)| Value::from(k.to_ascii_lowercase()))
            .collect()
    });
    let has = |i: usize, name: &str| {
        pings[i]
            .as_array()
            .is_some_and(|h| h.contains(&json!(name)))
    };
    assert_eq!(pings.len(), 2, "{pings:?}");
    assert!(has(0, "x-before") && !has(0, "x-after"), "{}", pings[0]);
    assert!(has(1, "x-after") && !has(1, "x-before"), "{}", pings[1]);
    assert!(
        has(1, "mcp-session-id"),
        "still the same session: {}",
        pings[1]
    );
    client.close();
}

/// On a 2025-era server, `set_log_level` asks with `logging/setLevel`; and `wire_id` names
/// the JSON-RPC id a request under way went out with (an MCP App View is told it), and
/// nothing once it is over.
#[wasm_bindgen_test]
async fn the_log_level_is_asked_for_and_a_request_under_way_names_its_wire_id() {
    let (client, sent) = connect_recording_sent(Vec::new()).await;
    within(
        5_000,
        "setLevel",
        client.set_log_level(LoggingLevel::Warning),
    )
    .await
    .unwrap();
    let asked = sent_of(&sent, "logging/setLevel", |(m, _)| {
        m["params"]["level"].clone()
    });
    assert_eq!(asked, [json!("warning")]);

    let ping = client.start("ping", None, CallOptions::default());
    let handle = ping.handle;
    let id = client
        .wire_id(handle)
        .expect("a request under way has a wire id");
    within(5_000, "ping", ping).await.unwrap();
    assert_eq!(sent_of(&sent, "ping", |(m, _)| m["id"].clone()), [id]);
    assert_eq!(client.wire_id(handle), None, "over");
    client.close();
}

/// A client of the legacy proxy (see [`legacy_proxy`]), and where the proxy's log is now.
async fn connect_with_no_fault_armed() -> (Client, &'static str, usize) {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let from = log(base).await.len();
    (client, base, from)
}

/// The entries of the proxy's log from entry `from` on that equal `entry`.
async fn count_logged(base: &str, from: usize, entry: &str) -> usize {
    log(base).await[from..]
        .iter()
        .filter(|l| *l == entry)
        .count()
}

/// Stopping a listing cancels the page under way (the server is told, and the request's
/// connection closes) and ends the listing as cancelled, asking for no further page;
/// stopping it again, once over, does nothing.
#[wasm_bindgen_test]
async fn a_stopped_listing_cancels_its_page_and_ends_cancelled() {
    let (client, base, from) = connect_with_no_fault_armed().await;
    fault(base, json!({"kind": "hold", "method": "prompts/list"})).await;
    let listing = client.start_listing("prompts/list", "prompts", ListOptions::default());
    let stop = listing.stop.clone();
    logged(base, from, "prompts/list", "the first page is asked for").await;
    stop.stop();
    let r = within(5_000, "the stopped listing", listing).await;
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Cancelled))),
        "{r:?}"
    );
    logged(
        base,
        from,
        "closed prompts/list",
        "the page's request closes",
    )
    .await;
    let cancelled = "notifications/cancelled";
    logged_starting(base, from, cancelled, "the server is told").await;
    stop.stop();
    within(5_000, "ping", client.ping()).await.unwrap();
    let seen = log(base).await;
    assert_eq!(
        count_logged(base, from, "prompts/list").await,
        1,
        "{seen:?}"
    );
    // The fetch it aborted failed as aborted, not as a server to diagnose: no probe (a POST
    // of `{}`, logged by its HTTP method) went to the server.
    assert!(!seen[from..].iter().any(|l| l == "POST"), "{seen:?}");
    assert_eq!(
        seen[from..]
            .iter()
            .filter(|l| l.starts_with("notifications/cancelled"))
            .count(),
        1,
        "{seen:?}"
    );
    client.close();
}

/// A listing's own time limit applies to each of its pages.
#[wasm_bindgen_test]
async fn a_listings_time_limit_applies_to_its_pages() {
    let (client, base, _) = connect_with_no_fault_armed().await;
    fault(base, json!({"kind": "hold", "method": "prompts/list"})).await;
    let options = ListOptions {
        timeout: Some(Duration::from_millis(300)),
        ..Default::default()
    };
    let r = within(
        5_000,
        "a held page",
        client.start_listing("prompts/list", "prompts", options),
    )
    .await;
    assert!(
        matches!(
            r,
            Err(ClientError::Request(RequestError::Timeout {
                after_ms: 300
            }))
        ),
        "{r:?}"
    );
    client.close();
}

/// Arms the proxy to answer the next `prompts/list` with `answer` (a result or an error).
async fn next_prompts_page(base: &str, answer: Value) {
    let mut body = json!({"jsonrpc": "2.0", "id": "$ID"});
    if answer.get("code").is_some() {
        body["error"] = answer;
    } else {
        body["result"] = answer;
    }
    let f = json!({"kind": "malformed", "method": "prompts/list", "body": body.to_string()});
    fault(base, f).await;
}

/// A server that hands back the cursor it was just given would be asked for the same page
/// forever: the listing ends there, with the items it had.
#[wasm_bindgen_test]
async fn a_cursor_handed_back_again_ends_the_listing() {
    let (client, base, from) = connect_with_no_fault_armed().await;
    for name in ["first", "second"] {
        let page = json!({"prompts": [{"name": name}], "nextCursor": "again"});
        next_prompts_page(base, page).await;
    }
    let prompts = within(5_000, "listing", client.list_all("prompts/list", "prompts"))
        .await
        .unwrap();
    let names: Vec<&Value> = prompts.iter().map(|p| &p["name"]).collect();
    assert_eq!(names, [&json!("first"), &json!("second")]);
    assert_eq!(count_logged(base, from, "prompts/list").await, 2);
    client.close();
}

/// A later page refused while every page came fresh from the server: its cursor was not a
/// stale one kept from before, so the listing fails with the server's error instead of
/// starting again.
#[wasm_bindgen_test]
async fn a_refused_later_page_of_a_fresh_listing_fails_it() {
    let (client, base, from) = connect_with_no_fault_armed().await;
    let page = json!({"prompts": [{"name": "first"}], "nextCursor": "1"});
    next_prompts_page(base, page).await;
    let refusal = json!({"code": -32602, "message": "invalid cursor"});
    next_prompts_page(base, refusal).await;
    let r = within(
        5_000,
        "listing",
        client.list_all_with("prompts/list", "prompts", CacheMode::Refresh),
    )
    .await;
    assert!(
        matches!(&r, Err(ClientError::Request(RequestError::Rpc(e))) if e.code == -32602),
        "{r:?}"
    );
    assert_eq!(count_logged(base, from, "prompts/list").await, 2);
    client.close();
}

/// A later page refused with an error that discards nothing kept (not the `-32602` of an
/// invalid cursor) while the pages before it came from the cache: the listing starts again
/// with every page fresh from the server, not from the same kept pages that led to the
/// refused cursor.
#[wasm_bindgen_test]
async fn a_refused_later_page_after_kept_pages_starts_again_with_fresh_pages() {
    let base = modern_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    assert_eq!(client.server().unwrap().era, Era::Modern);
    // Three pages: the first two are kept for a minute, the last is never fresh.
    let before = resource_uris(&client, "list").await;
    assert_eq!(before.len(), 6, "paginated: {before:?}");
    let from = log(base).await.len();
    let refusal =
        json!({"jsonrpc": "2.0", "id": "$ID", "error": {"code": -32603, "message": "busy"}});
    let f = json!({"kind": "malformed", "method": "resources/list", "body": refusal.to_string()});
    fault(base, f).await;
    let again = resource_uris(&client, "list again").await;
    assert_eq!(again, before);
    let seen = &log(base).await[from..];
    // The last page (refused), then all three pages again.
    let lists = seen.iter().filter(|l| *l == "resources/list").count();
    assert_eq!(lists, 4, "{seen:?}");
    client.close();
}

/// A 2025-11-25 task (server-everything's research, which asks the person a question) outlives
/// a poll lost for want of the server: the `tasks/get` reset mid-answer is made again while
/// `tasks/result` waits, and the call ends with its result. The person takes 6 s to answer,
/// so that the task lasts past its first poll (at the longest interval, 5 s, as the server
/// announces its states).
#[wasm_bindgen_test]
async fn a_2025_task_outlives_a_poll_reset_mid_answer() {
    let base = legacy_proxy().await;
    let mut o = ClientOptions::new(format!("{base}/mcp"));
    o.handlers = Handlers {
        elicitation: Some(Rc::new(|_| {
            async {
                gloo_timers::future::TimeoutFuture::new(6_000).await;
                Ok(json!({"action": "decline"}))
            }
            .boxed_local()
        })),
        ..Default::default()
    };
    o.wire_log = true;
    let client = within(15_000, "connect", Client::connect(o))
        .await
        .expect("connects");
    // The `_meta` each poll carries.
    let polls = Rc::new(RefCell::new(Vec::<Value>::new()));
    let sent = polls.clone();
    client.on_event(move |e| {
        if let ClientEvent::Wire {
            sent: true,
            message,
            ..
        } = e
        {
            if message["method"] == "tasks/get" {
                sent.borrow_mut().push(message["params"]["_meta"].clone());
            }
        }
    });
    let from = log(base).await.len();
    fault(base, json!({"kind": "reset", "method": "tasks/get"})).await;
    let states = Rc::new(RefCell::new(Vec::<String>::new()));
    let seen = states.clone();
    let trace = json!({"trace": "t-2025"});
    let opts = CallOptions {
        on_task: Some(Rc::new(move |t: &Task| {
            seen.borrow_mut().push(t.status.clone())
        })),
        meta: trace.as_object().cloned(),
        ..Default::default()
    };
    let args = json!({"topic": "tides", "ambiguous": true});
    let r = within(
        30_000,
        "research",
        client.call_tool_with("simulate-research-query", args, opts),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("tides"), "{}", text(&r));
    assert_eq!(
        states.borrow().last().map(String::as_str),
        Some("completed"),
        "{states:?}"
    );
    // The fault was met: the poll it reset is logged. Each poll carries the caller's `_meta`.
    assert!(count_logged(base, from, "tasks/get").await >= 1);
    let polls = polls.borrow();
    assert!(
        !polls.is_empty() && polls.iter().all(|m| *m == trace),
        "{polls:?}"
    );
    client.close();
}

/// A 2025-11-25 task whose polls keep failing for want of the server (503 six times in a
/// row) is given up on after the sixth (five are made again, at the server's interval, 5 s,
/// as it announces the task's states): the call fails with the server's failure, and no
/// seventh poll is sent. The person never answers meanwhile, so the task would go on.
/// About 30 s.
#[wasm_bindgen_test]
async fn a_2025_task_is_given_up_on_after_six_polls_in_a_row_fail_for_want_of_the_server() {
    let base = legacy_proxy().await;
    let mut o = ClientOptions::new(format!("{base}/mcp"));
    o.handlers = Handlers {
        elicitation: Some(Rc::new(|_| futures_util::future::pending().boxed_local())),
        ..Default::default()
    };
    let client = within(15_000, "connect", Client::connect(o))
        .await
        .expect("connects");
    let from = log(base).await.len();
    for _ in 0..6 {
        fault(
            base,
            json!({"kind": "status", "method": "tasks/get", "status": 503, "body": "busy"}),
        )
        .await;
    }
    let args = json!({"topic": "tides", "ambiguous": true});
    let r = within(
        60_000,
        "the task given up on",
        client.call_tool_with("simulate-research-query", args, CallOptions::default()),
    )
    .await;
    match r {
        Err(ClientError::Request(e)) if e.server_unavailable() => {}
        other => panic!("expected the polls' failure, got {other:?}"),
    }
    assert_eq!(count_logged(base, from, "tasks/get").await, 6);
    // Whatever faults are left (none, unless a poll was not sent) go.
    fault(base, json!({"kind": "clear"})).await;
    client.close();
}

/// A change of the roots offered is told to a 2025-era server with
/// `notifications/roots/list_changed`, and it reaches the server.
#[wasm_bindgen_test]
async fn a_change_of_roots_is_told_to_a_2025_era_server() {
    let base = legacy_proxy().await;
    let (client, sent) = connect_recording_sent(Vec::new()).await;
    let from = log(base).await.len();
    client.roots_changed();
    let told = "notifications/roots/list_changed";
    logged(base, from, told, "the server is told").await;
    assert_eq!(sent_of(&sent, told, |(m, _)| m["params"].clone()).len(), 1);
    client.close();
}

#[wasm_bindgen_test]
async fn malformed_bodies_are_protocol_errors() {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let cases = [
        json!({"kind": "malformed", "method": "tools/call", "body": "{\"jsonrpc\":\"2.0\",\"id\":"}),
        json!({"kind": "malformed", "method": "tools/call", "contentType": "text/event-stream", "body": "data: {oops\n\n"}),
        json!({"kind": "malformed", "method": "tools/call", "contentType": "text/html", "body": "<html>proxy error</html>"}),
        json!({"kind": "malformed", "method": "tools/call", "body": "{\"jsonrpc\":\"2.0\",\"id\":987654,\"result\":{}}"}),
    ];
    for c in cases {
        fault(base, c.clone()).await;
        let r = within(
            10_000,
            "malformed",
            client.call_tool("echo", json!({"message": "x"})),
        )
        .await;
        assert!(
            matches!(r, Err(ClientError::Request(RequestError::Protocol(_)))),
            "{c}: {r:?}"
        );
    }
    let r = within(
        10_000,
        "healthy again",
        client.call_tool("echo", json!({"message": "ok"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: ok");
    client.close();
}

#[wasm_bindgen_test]
async fn a_server_without_cors_gets_a_clear_cors_error() {
    let base = legacy_proxy().await;
    let r = within(
        15_000,
        "connect",
        Client::connect(ClientOptions::new(format!("{base}/nocors/mcp"))),
    )
    .await;
    match r {
        Err(ClientError::Connect(RequestError::Transport(TransportFailure::Cors(m)))) => {
            assert!(m.contains("Access-Control-Allow-Origin"), "{m}")
        }
        Err(e) => panic!("expected a CORS error, got {e}"),
        Ok(_) => panic!("connected without CORS?"),
    }
    // And an unreachable server is not called a CORS problem.
    let r = within(
        15_000,
        "connect",
        Client::connect(ClientOptions::new("http://127.0.0.1:9/mcp")),
    )
    .await;
    match r {
        Err(ClientError::Connect(RequestError::Transport(TransportFailure::Network(m)))) => {
            assert!(m.contains("could not be reached"), "{m}")
        }
        Err(e) => panic!("expected a network error, got {e}"),
        Ok(_) => panic!("connected to port 9?"),
    }
}

#[wasm_bindgen_test]
async fn a_header_value_the_browser_refuses_fails_the_connection_naming_the_header_and_the_reason()
{
    let base = legacy_proxy().await;
    let mut options = ClientOptions::new(format!("{base}/mcp"));
    options.headers = vec![("X-Team".into(), "blue\nred".into())];
    let r = within(15_000, "connect", Client::connect(options)).await;
    match r {
        Err(ClientError::Connect(RequestError::Transport(TransportFailure::Network(m)))) => {
            // The header, then the browser's own words (a `TypeError` from `Headers`).
            let reason = m
                .strip_prefix("header X-Team: ")
                .unwrap_or_else(|| panic!("{m}"));
            assert!(reason.contains("Headers"), "{m}");
        }
        Err(e) => panic!("expected the header refused, got {e}"),
        Ok(_) => panic!("connected with a header value the browser refuses?"),
    }
}

#[wasm_bindgen_test]
async fn a_cors_preflight_that_refuses_a_header_is_named() {
    // The preflight allows Content-Type and Mcp-Session-Id only: the legacy handshake works
    // (initialize carries neither MCP-Protocol-Version nor Mcp-Method), later requests do not.
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/partialcors/mcp")).await;
    let r = within(15_000, "tools/list", client.list_tools()).await;
    match r {
        Err(ClientError::Request(RequestError::Transport(TransportFailure::Cors(m)))) => {
            assert!(
                m.contains("MCP-Protocol-Version") && m.contains("Access-Control-Allow-Headers"),
                "{m}"
            )
        }
        other => panic!("expected a CORS error naming the header, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn modern_cut_stream_is_reissued() {
    let base = modern_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    assert_eq!(client.server().unwrap().era, Era::Modern);
    let calls = |l: Vec<String>| l.iter().filter(|x| *x == "tools/call").count();
    let before = calls(log(base).await);
    fault(
        base,
        json!({"kind": "cut", "method": "tools/call", "afterEvents": 1}),
    )
    .await;
    let (opts, _) = progress_counter();
    let r = within(
        10_000,
        "count",
        client.call_tool_with("count", json!({"steps": 3}), opts),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "counted to 3");
    assert_eq!(
        calls(log(base).await),
        before + 2,
        "sent again after the cut"
    );
    client.close();
}

/// A 2026-07-28 `subscriptions/listen` stream that is cut (a network failure, a server
/// restart) is opened again by itself, with the same filter: the resource updates keep
/// coming, and the log says what happened.
#[wasm_bindgen_test]
async fn a_cut_listen_stream_is_opened_again() {
    let base = modern_proxy().await;
    // Listening from the start: the stream the connection opens (list changes) is heard too.
    let client = Client::new(ClientOptions::new(format!("{base}/mcp")));
    let heard = Rc::new(RefCell::new(Vec::<String>::new()));
    let warnings = Rc::new(RefCell::new(Vec::<String>::new()));
    let acks = Rc::new(RefCell::new(0));
    let (h, w, a) = (heard.clone(), warnings.clone(), acks.clone());
    client.on_event(move |e| match e {
        ClientEvent::Notification(ServerNotification::ResourceUpdated(u)) => {
            h.borrow_mut().push(u.uri.clone())
        }
        ClientEvent::Notification(ServerNotification::SubscriptionsAcknowledged(_)) => {
            *a.borrow_mut() += 1
        }
        ClientEvent::Warning(text) => w.borrow_mut().push(text.clone()),
        _ => {}
    });
    within(15_000, "connect", client.reconnect())
        .await
        .expect("connects");
    // That stream has reached the server before anything is counted or the fault armed (the
    // fault is for the subscription's stream; had it reached the proxy later, it would have
    // been cut instead, and counted as the stream opened again).
    until(10_000, "the connection's stream is acknowledged", || {
        *acks.borrow() >= 1
    })
    .await;
    let listens = |l: Vec<String>| l.iter().filter(|x| *x == "subscriptions/listen").count();
    let before = listens(log(base).await);
    // The stream the subscription opens is cut once it acknowledged the filter.
    fault(
        base,
        json!({"kind": "cut", "method": "subscriptions/listen", "afterEvents": 1}),
    )
    .await;
    within(
        10_000,
        "subscribe",
        client.subscribe_resource("test://greeting"),
    )
    .await
    .unwrap();
    let mut opened_again = false;
    for _ in 0..100 {
        if listens(log(base).await) >= before + 2 {
            opened_again = true;
            break;
        }
        gloo_timers::future::TimeoutFuture::new(50).await;
    }
    assert!(opened_again, "{:?}", log(base).await);
    assert!(
        warnings
            .borrow()
            .iter()
            .any(|w| w.contains("subscriptions/listen) ended")),
        "{:?}",
        warnings.borrow()
    );
    // The new stream carries the subscription: acknowledged again, then an update arrives.
    // (The connection's stream, the subscription's, and this one.)
    until(10_000, "the new stream is acknowledged", || {
        *acks.borrow() >= 3
    })
    .await;
    within(
        10_000,
        "touch",
        client.call_tool("touch", json!({"uri": "test://greeting"})),
    )
    .await
    .unwrap();
    until(5_000, "the update on the new stream", || {
        heard.borrow().iter().any(|u| u == "test://greeting")
    })
    .await;
    client.close();
}

#[wasm_bindgen_test]
async fn a_request_refused_for_want_of_a_login_is_announced_once_with_the_challenge() {
    // A server that connects without credentials but wants them for its tools: the refusal
    // fails that request and announces `LoginNeeded` (an app shows its login there), and the
    // connection goes on serving what needs no login.
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let announced = Rc::new(RefCell::new(Vec::new()));
    let seen = announced.clone();
    client.on_event(move |e| {
        if let ClientEvent::LoginNeeded {
            status,
            www_authenticate,
        } = e
        {
            seen.borrow_mut().push((*status, www_authenticate.clone()));
        }
    });
    let challenge = r#"Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="tools""#;
    fault(
        base,
        json!({"kind": "status", "method": "tools/list", "status": 401, "headers": {"www-authenticate": challenge}}),
    )
    .await;
    let refused = within(10_000, "tools/list", client.list_tools()).await;
    match refused {
        Err(ClientError::AuthRequired {
            status: 401,
            www_authenticate,
        }) => assert_eq!(www_authenticate.as_deref(), Some(challenge)),
        other => panic!("expected AuthRequired, got {other:?}"),
    }
    assert_eq!(
        *announced.borrow(),
        vec![(401, Some(challenge.to_string()))],
        "announced once, with the challenge"
    );
    let r = within(
        10_000,
        "echo",
        client.call_tool("echo", json!({"message": "still here"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: still here");
    assert_eq!(
        announced.borrow().len(),
        1,
        "a granted request announces nothing"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn a_server_that_refuses_only_its_event_stream_for_want_of_a_login_still_connects() {
    // 2025 era: the standalone GET stream, asked for beside the handshake, is refused with
    // 401 before the server has accepted `notifications/initialized` (held by the proxy
    // until the refusal is on its way). The connect still succeeds and calls are answered.
    let base = legacy_proxy().await;
    let before = log(base).await.len();
    fault(
        base,
        json!({"kind": "hold", "method": "notifications/initialized"}),
    )
    .await;
    fault(
        base,
        json!({"kind": "status", "method": "GET", "status": 401, "headers": {"www-authenticate": "Bearer"}}),
    )
    .await;
    let client = Client::new(ClientOptions::new(format!("{base}/mcp")));
    let outcome = Rc::new(RefCell::new(None));
    let (c, o) = (client.clone(), outcome.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let r = c.reconnect().await;
        *o.borrow_mut() = Some(r.map(|_| ()));
    });
    logged(base, before, "GET stream", "the event stream asked for").await;
    control(base, "/__release", Some(json!({}))).await;
    until(15_000, "the connect to end", || outcome.borrow().is_some()).await;
    assert!(
        matches!(*outcome.borrow(), Some(Ok(()))),
        "{:?}",
        outcome.borrow()
    );
    let r = within(
        10_000,
        "echo",
        client.call_tool("echo", json!({"message": "no login"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: no login");
    client.close();
}

#[wasm_bindgen_test]
async fn closing_while_connecting_ends_the_connect_and_a_closed_client_connects_no_more() {
    let base = modern_proxy().await;
    let client = Client::new(ClientOptions::new(format!("{base}/mcp")));
    // What the proxy saw before (its log is the whole run's).
    let before = log(base).await.len();
    // The server's first answer never comes.
    fault(base, json!({"kind": "hold", "method": "server/discover"})).await;
    let outcome = Rc::new(RefCell::new(None));
    let (c, o) = (client.clone(), outcome.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let r = c.reconnect().await;
        *o.borrow_mut() = Some(r.map(|_| ()));
    });
    logged(
        base,
        before,
        "server/discover",
        "the probe reaching the server",
    )
    .await;
    client.close();
    until(5_000, "the connect to end once closed", || {
        outcome.borrow().is_some()
    })
    .await;
    assert!(
        matches!(*outcome.borrow(), Some(Err(ClientError::Closed))),
        "{:?}",
        outcome.borrow()
    );
    // Closed: connecting again is refused at once, nothing sent.
    let again = within(1_000, "connecting a closed client", client.reconnect()).await;
    assert!(matches!(again, Err(ClientError::Closed)), "{again:?}");
    // The held probe was closed by the client (what the proxy saw).
    logged(
        base,
        before,
        "closed server/discover",
        "the held probe closed",
    )
    .await;
}

/// A client the application lets go (every clone dropped, no call of it awaited) closes by
/// itself: a 2025-era session is deleted. A clone left, or a call still awaited, keeps it open.
#[wasm_bindgen_test]
async fn a_client_let_go_closes_its_session() {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let before = log(base).await.len();
    // One clone of two dropped: still open.
    let kept = client.clone();
    drop(client);
    within(5_000, "ping", kept.ping())
        .await
        .expect("still open");
    // The last clone dropped while a call is awaited: the call still gets its answer.
    let call = kept.start_tool_call("echo", json!({"message": "after"}), CallOptions::default());
    drop(kept);
    let answer = within(10_000, "the call", call).await.expect("answered");
    assert_eq!(answer["content"][0]["text"], "Echo: after", "{answer}");
    // Nothing holds it now: the session is deleted.
    logged(base, before, "DELETE stream", "the client let go").await;
}

/// The client's own background work (here the 2026-07-28 `subscriptions/listen` stream it
/// keeps open and watches) does not keep a client the application let go open.
#[wasm_bindgen_test]
async fn a_modern_client_let_go_closes_its_listen_stream() {
    let base = modern_proxy().await;
    // The stream is held open by the proxy, which logs it when the client closes it.
    fault(
        base,
        json!({"kind": "hold", "method": "subscriptions/listen"}),
    )
    .await;
    let before = log(base).await.len();
    let client = connect(format!("{base}/mcp")).await;
    logged(
        base,
        before,
        "subscriptions/listen",
        "the listen stream opened",
    )
    .await;
    drop(client);
    logged(
        base,
        before,
        "closed subscriptions/listen",
        "the listen stream closed once the client was let go",
    )
    .await;
}

/// Dispatches a `pagehide` to the page (`persisted`: kept in the back/forward cache) and
/// returns the messages of the errors its listeners threw meanwhile (a listener whose
/// closure was dropped throws when called).
fn page_hide(persisted: bool) -> Vec<String> {
    let dispatch = js_sys::Function::new_with_args(
        "persisted",
        "const errors = [];
         const onError = (e) => errors.push(String(e.message));
         window.addEventListener('error', onError);
         window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted }));
         window.removeEventListener('error', onError);
         return errors;",
    );
    let errors = dispatch
        .call1(&wasm_bindgen::JsValue::UNDEFINED, &persisted.into())
        .expect("dispatched");
    js_sys::Array::from(&errors)
        .iter()
        .map(|e| e.as_string().unwrap_or_default())
        .collect()
}

/// Leaving the page (`pagehide`) closes the client: its 2025-era session is deleted and a
/// later call fails as closed. A page kept in the back/forward cache may come back as it
/// was: its client stays connected. A client dropped takes its listener with it.
#[wasm_bindgen_test]
async fn leaving_the_page_closes_the_client_and_a_page_kept_in_the_cache_stays_connected() {
    let base = legacy_proxy().await;
    let client = connect(format!("{base}/mcp")).await;
    let before = log(base).await.len();
    assert_eq!(page_hide(true), Vec::<String>::new());
    within(5_000, "ping", client.ping())
        .await
        .expect("still open: the page may come back from the cache");
    let r = within(
        5_000,
        "echo",
        client.call_tool("echo", json!({"message": "kept"})),
    )
    .await
    .expect("still open");
    assert_eq!(text(&r), "Echo: kept");
    let deleted = |l: &[String]| l.iter().any(|m| m.starts_with("DELETE"));
    assert!(
        !deleted(&log(base).await[before..]),
        "kept in the cache: no DELETE"
    );
    assert_eq!(page_hide(false), Vec::<String>::new());
    logged(
        base,
        before,
        "DELETE stream",
        "the session deleted on leaving",
    )
    .await;
    let r = within(1_000, "ping once left", client.ping()).await;
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Closed))),
        "{r:?}"
    );
    drop(client);
    // A client dropped takes its listener with it (were the listener left, its closure,
    // dropped with the client, would throw on the next `pagehide`). One never connected has
    // no work under way that holds it: it is gone once its closing task (queued when its last
    // handle went) has run, before a timer set then fires.
    let unused = Client::new(ClientOptions::new(format!("{base}/mcp")));
    drop(unused);
    gloo_timers::future::TimeoutFuture::new(0).await;
    assert_eq!(page_hide(false), Vec::<String>::new());
}
