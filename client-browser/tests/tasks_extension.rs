//! The browser client in headless Chromium against a real 2026-07-28 server with the Tasks
//! extension (`io.modelcontextprotocol/tasks`; `tests/peers/tasks_server.py`, on PyPI `mcp`
//! 2.x), started by `tests/run-wasm-tests.sh`: a tool call the server answers with a task is
//! followed to the result it came to, as if answered at once.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::RequestError;
use client_browser::client_core::time::Duration;
use client_browser::client_core::types::*;
use client_browser::{CallOptions, Client, ClientError, ClientEvent, ClientOptions, Handlers};
use futures_util::future::join;
use futures_util::FutureExt;
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

const TASKS: Option<&str> = option_env!("MCP_TASKS_URL");

/// The caller's own `_meta` entry each test's calls carry.
const TRACE: &str = "com.example/trace";

/// A client of the tasks server with the wire log on that approves what it is asked to, and
/// the events it reports from the start.
async fn connect() -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let url = TASKS.expect("MCP_TASKS_URL was not set at build time");
    let mut o = ClientOptions::new(url);
    o.wire_log = true;
    o.handlers = Handlers {
        elicitation: Some(client_browser::typed_handler(|p: ElicitParams| {
            async move {
                assert!(p.message.starts_with("Approve"), "{}", p.message);
                Ok(json!({"action": "accept", "content": {"approved": true}}))
            }
            .boxed_local()
        })),
        ..Default::default()
    };
    let client = Client::new(o);
    let sent = Rc::new(RefCell::new(Vec::new()));
    let seen = sent.clone();
    client.on_event(move |e| seen.borrow_mut().push(e.clone()));
    within(15_000, "connect", client.reconnect())
        .await
        .expect("connects");
    (client, sent)
}

/// Call options carrying the caller's `_meta` entry, and the task states the call is told.
fn traced() -> (CallOptions, Rc<RefCell<Vec<Task>>>) {
    let states = Rc::new(RefCell::new(Vec::new()));
    let told = states.clone();
    let mut meta = Map::new();
    meta.insert(TRACE.into(), json!("t-1"));
    let opts = CallOptions {
        meta: Some(meta),
        on_task: Some(Rc::new(move |t: &Task| told.borrow_mut().push(t.clone()))),
        ..Default::default()
    };
    (opts, states)
}

/// A call answered with a task gives the result the task came to, and the caller is told the
/// task's states in order. The polls carry the caller's `_meta`; the server is asked to push
/// the task's states on the listen stream (`taskIds`), and once it agreed, polls are rare.
#[wasm_bindgen_test]
async fn a_call_answered_with_a_task_gives_the_result_the_task_came_to() {
    let (client, sent) = connect().await;
    let (opts, states) = traced();
    let r = within(
        15_000,
        "report",
        client.call_tool_with("report", json!({"seconds": 3}), opts),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "report ready after 3 s");
    let statuses: Vec<String> = states.borrow().iter().map(|t| t.status.clone()).collect();
    assert_eq!(statuses.first().map(String::as_str), Some("working"));
    assert_eq!(statuses.last().map(String::as_str), Some("completed"));
    let task_id = states.borrow()[0].task_id.clone();

    let calls = sent_params(&sent, "tools/call");
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["_meta"][TRACE], "t-1");
    let listened: Vec<Value> = sent_params(&sent, "subscriptions/listen")
        .iter()
        .map(|p| p["notifications"]["taskIds"].clone())
        .collect();
    assert!(listened.contains(&json!([task_id])), "{listened:?}");
    // Polled every 250 ms until the push was agreed (at once), then every 5 s at most.
    let polls = sent_params(&sent, "tasks/get");
    assert!(!polls.is_empty() && polls.len() <= 4, "{polls:?}");
    for poll in &polls {
        assert_eq!(poll["taskId"], json!(task_id));
        assert_eq!(poll["_meta"][TRACE], "t-1", "{poll}");
    }
    client.close();
}

/// What a task waits on (an elicitation in its `inputRequests`) is handed to the
/// application's handler, and its answer goes to the server with `tasks/update`, carrying the
/// caller's `_meta`; the task then comes to its result.
#[wasm_bindgen_test]
async fn what_a_task_waits_on_is_answered_with_tasks_update() {
    let (client, sent) = connect().await;
    let (opts, states) = traced();
    let r = within(
        15_000,
        "approve",
        client.call_tool_with("approve", json!({"item": "invoice 7"}), opts),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "invoice 7: approved");
    assert!(states.borrow().iter().any(|t| t.status == "input_required"));
    let updates = sent_params(&sent, "tasks/update");
    assert_eq!(updates.len(), 1, "{updates:?}");
    assert_eq!(
        updates[0]["inputResponses"]["approval-1"],
        json!({"action": "accept", "content": {"approved": true}})
    );
    assert_eq!(updates[0]["_meta"][TRACE], "t-1");
    client.close();
}

/// Cancelling a call the server answered with a task cancels the task (`tasks/cancel`) and
/// ends the call as cancelled at once.
#[wasm_bindgen_test]
async fn a_call_cancelled_cancels_its_task() {
    let (client, sent) = connect().await;
    let (opts, states) = traced();
    let call = client.start_tool_call("forever", json!({}), opts);
    let handle = call.handle;
    // (The call goes on only while awaited: it is awaited beside what cancels it.)
    let cancel = async {
        until(10_000, "the task works", || !states.borrow().is_empty()).await;
        client.cancel(handle);
    };
    let (r, ()) = within(15_000, "the cancelled call", join(call, cancel)).await;
    let task_id = states.borrow()[0].task_id.clone();
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Cancelled))),
        "{r:?}"
    );
    until(5_000, "tasks/cancel is sent", || {
        sent_params(&sent, "tasks/cancel")
            .iter()
            .any(|p| p["taskId"] == json!(task_id))
    })
    .await;
    client.close();
}

/// A task cancelled elsewhere (here by another client) ends the call following it as
/// cancelled.
#[wasm_bindgen_test]
async fn a_task_cancelled_elsewhere_ends_the_call_as_cancelled() {
    let (client, _) = connect().await;
    let (other, _) = connect().await;
    let (opts, states) = traced();
    let call = client.call_tool_with("forever", json!({}), opts);
    let cancel = async {
        until(10_000, "the task works", || !states.borrow().is_empty()).await;
        let task_id = states.borrow()[0].task_id.clone();
        other
            .request("tasks/cancel", Some(json!({ "taskId": task_id })))
            .await
    };
    let (r, cancelled) = within(15_000, "the call", join(call, cancel)).await;
    cancelled.expect("the other client cancels the task");
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Cancelled))),
        "{r:?}"
    );
    assert_eq!(
        states.borrow().last().map(|t| t.status.clone()).as_deref(),
        Some("cancelled")
    );
    client.close();
    other.close();
}

/// A task still working when both its time to live and the call's time limit are over is
/// given up on: the call fails with a timeout, and the task is cancelled.
#[wasm_bindgen_test]
async fn a_task_past_its_time_to_live_and_the_calls_limit_is_given_up_on() {
    let (client, sent) = connect().await;
    let opts = CallOptions {
        timeout: Some(Duration::from_millis(1_500)),
        ..Default::default()
    };
    let r = within(
        10_000,
        "forever",
        client.call_tool_with("forever", json!({"ttl_ms": 1_000}), opts),
    )
    .await;
    assert!(
        matches!(
            r,
            Err(ClientError::Request(RequestError::Timeout {
                after_ms: 1_500
            }))
        ),
        "{r:?}"
    );
    until(5_000, "tasks/cancel is sent", || {
        !sent_params(&sent, "tasks/cancel").is_empty()
    })
    .await;
    client.close();
}

/// A task that fails fails the call with the task's error.
#[wasm_bindgen_test]
async fn a_failed_task_fails_the_call_with_its_error() {
    let (client, _) = connect().await;
    let r = within(10_000, "fail", client.call_tool("fail", json!({}))).await;
    match r {
        Err(ClientError::Request(RequestError::Rpc(e))) => {
            assert_eq!(e.code, -32603);
            assert!(
                e.message.contains("report service is down"),
                "{}",
                e.message
            );
        }
        other => panic!("{other:?}"),
    }
    client.close();
}
