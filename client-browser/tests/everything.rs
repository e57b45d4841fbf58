//! The browser client in headless Chromium against the real npm
//! `@modelcontextprotocol/server-everything`, started by `tests/run-wasm-tests.sh` on
//! 127.0.0.1 in Streamable HTTP mode and in the 2024-11-05 SSE mode. The test page is served
//! by wasm-bindgen-test-runner from another origin, so CORS is real.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::{RequestError, RequestHandle, WireProtocol};
use client_browser::client_core::types::*;
use client_browser::{
    CallOptions, Client, ClientError, ClientEvent, ClientOptions, Handlers, Transport,
};
use futures_util::FutureExt;
use serde_json::json;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

const STREAMABLE: Option<&str> = option_env!("MCP_EVERYTHING_URL");
const SSE: Option<&str> = option_env!("MCP_EVERYTHING_SSE_URL");

fn handlers() -> Handlers {
    Handlers {
        sampling: Some(client_browser::typed_handler(|p: CreateMessageParams| {
            async move {
                let asked = p.messages.first().and_then(|m| m.content.as_slice().first().and_then(|c| c.as_text().map(String::from)));
                Ok(json!({"role": "assistant", "model": "test-model", "stopReason": "endTurn",
                          "content": {"type": "text", "text": format!("sampled[{}]", asked.unwrap_or_default())}}))
            }
            .boxed_local()
        })),
        elicitation: Some(client_browser::typed_handler(|p: ElicitParams| {
            async move {
                if p.is_url_mode() {
                    // URL mode: the user consented to open the URL (never fetched by us).
                    assert_eq!(p.url.as_deref(), Some("https://example.com/consent"));
                    Ok(json!({"action": "accept"}))
                } else {
                    Ok(json!({"action": "accept", "content": {"name": "Ada Lovelace", "check": true}}))
                }
            }
            .boxed_local()
        })),
        roots: Some(Rc::new(|| {
            async { Ok(json!({"roots": [{"uri": "file:///workspace/demo", "name": "demo"}]})) }
                .boxed_local()
        })),
        sampling_tools: false,
    }
}

async fn connect(url: &str, transport: Transport) -> Client {
    let mut o = ClientOptions::new(url);
    o.transport = transport;
    o.handlers = handlers();
    within(15_000, "connect", Client::connect(o))
        .await
        .expect("connects")
}

async fn tools_and_calls(client: &Client) {
    let tools = within(10_000, "tools/list", client.list_tools())
        .await
        .expect("lists tools");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for want in [
        "echo",
        "get-sum",
        "trigger-long-running-operation",
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "get-roots-list",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    let r = within(
        10_000,
        "echo",
        client.call_tool("echo", json!({"message": "hello from wasm <b>"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: hello from wasm <b>");
    let r = within(
        10_000,
        "get-sum",
        client.call_tool("get-sum", json!({"a": 2, "b": 40})),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("is 42"), "{}", text(&r));
}

async fn progress_and_cancel(client: &Client) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let opts = CallOptions {
        on_progress: Some(Rc::new(move |p: ProgressParams| {
            s.borrow_mut().push(p.progress.to_string())
        })),
        ..Default::default()
    };
    let r = within(
        15_000,
        "long-running",
        client.call_tool_with(
            "trigger-long-running-operation",
            json!({"duration": 0.6, "steps": 3}),
            opts,
        ),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("completed"), "{}", text(&r));
    assert_eq!(*seen.borrow(), ["1", "2", "3"]);

    // Cancel after the first progress notification.
    let first = Rc::new(RefCell::new(None::<futures_channel::oneshot::Sender<()>>));
    let (tx, rx) = futures_channel::oneshot::channel();
    *first.borrow_mut() = Some(tx);
    let f = first.clone();
    let opts = CallOptions {
        on_progress: Some(Rc::new(move |_| {
            if let Some(tx) = f.borrow_mut().take() {
                let _ = tx.send(());
            }
        })),
        ..Default::default()
    };
    let call = client.start_tool_call(
        "trigger-long-running-operation",
        json!({"duration": 20, "steps": 40}),
        opts,
    );
    let handle = call.handle;
    within(10_000, "first progress", rx).await.unwrap();
    client.cancel(handle);
    let r = within(2_000, "cancelled call", call).await;
    assert_eq!(r, Err(ClientError::Request(RequestError::Cancelled)));
}

async fn server_requests(client: &Client) {
    let r = within(
        10_000,
        "sampling",
        client.call_tool(
            "trigger-sampling-request",
            json!({"prompt": "capital of France?"}),
        ),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("sampled["), "{}", text(&r));
    let r = within(
        10_000,
        "elicitation",
        client.call_tool("trigger-elicitation-request", json!({})),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("Ada Lovelace"), "{}", text(&r));
    let r = within(
        10_000,
        "url elicitation",
        client.call_tool(
            "trigger-url-elicitation",
            json!({"url": "https://example.com/consent"}),
        ),
    )
    .await
    .unwrap();
    assert!(
        text(&r).contains("completed the URL elicitation"),
        "{}",
        text(&r)
    );
    let r = within(
        10_000,
        "roots",
        client.call_tool("get-roots-list", json!({})),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("file:///workspace/demo"), "{}", text(&r));
}

async fn resources_prompts_completion_logging(client: &Client) {
    let resources = within(10_000, "resources/list", client.list_resources())
        .await
        .unwrap();
    assert!(!resources.is_empty());
    let first = &resources[0];
    let read = within(10_000, "resources/read", client.read_resource(&first.uri))
        .await
        .unwrap();
    assert_eq!(read.contents[0].uri, first.uri);
    let templates = within(10_000, "templates", client.list_resource_templates())
        .await
        .unwrap();
    assert!(!templates.is_empty());
    within(10_000, "subscribe", client.subscribe_resource(&first.uri))
        .await
        .unwrap();

    let prompts = within(10_000, "prompts/list", client.list_prompts())
        .await
        .unwrap();
    assert!(prompts.iter().any(|p| p.name == "args-prompt"));
    let mut args = HashMap::new();
    args.insert("city".to_string(), "Lisbon".to_string());
    let p = within(
        10_000,
        "prompts/get",
        client.get_prompt("args-prompt", args),
    )
    .await
    .unwrap();
    let all = format!("{:?}", p.messages);
    assert!(all.contains("Lisbon"), "{all}");

    let c = within(
        10_000,
        "complete",
        client.complete(
            json!({"type": "ref/prompt", "name": "completable-prompt"}),
            "department",
            "Eng",
            &[],
        ),
    )
    .await
    .unwrap();
    assert_eq!(c.values, ["Engineering"]);
    // The second argument's completions depend on the first (sent as context.arguments).
    let prompt = json!({"type": "ref/prompt", "name": "completable-prompt"});
    let sales = [("department", "Sales")];
    let c = within(
        10_000,
        "complete with context",
        client.complete(prompt.clone(), "name", "", &sales),
    )
    .await
    .unwrap();
    assert_eq!(c.values, ["David", "Eve", "Frank"]);
    let c = within(
        10_000,
        "complete without context",
        client.complete(prompt, "name", "", &[]),
    )
    .await
    .unwrap();
    assert!(c.values.is_empty(), "{:?}", c.values);

    within(
        10_000,
        "setLevel",
        client.set_log_level(LoggingLevel::Debug),
    )
    .await
    .unwrap();
    within(10_000, "ping", client.ping()).await.unwrap();
}

/// A tool with `taskSupport: "required"` runs as a task (a plain call is refused with
/// -32601): its states are reported, its result arrives through `tasks/result`, and
/// cancelling the call cancels the task, also on a client that never listed the tools. The
/// states the server announces (`notifications/tasks/status`) are reported as they come:
/// every stage of the research, also the first, announced before the task's creation is
/// answered, and the task is then polled at the longest interval only (once a second, as
/// the server suggests, it would be polled three or four times).
async fn tool_tasks(client: &Client, url: &str) {
    let mut o = ClientOptions::new(url);
    o.handlers = handlers();
    o.wire_log = true;
    let watched = within(15_000, "connect", Client::connect(o))
        .await
        .expect("connects");
    let polls = Rc::new(std::cell::Cell::new(0));
    let counted = polls.clone();
    watched.on_event(move |e| {
        if matches!(e, ClientEvent::Wire { sent: true, message, .. } if message["method"] == "tasks/get")
        {
            counted.set(counted.get() + 1);
        }
    });
    within(10_000, "tools/list", watched.list_tools())
        .await
        .unwrap();
    let states = Rc::new(RefCell::new(Vec::<String>::new()));
    let messages = Rc::new(RefCell::new(Vec::<String>::new()));
    let task_id = Rc::new(RefCell::new(String::new()));
    let (seen, said, id) = (states.clone(), messages.clone(), task_id.clone());
    let opts = CallOptions {
        on_task: Some(Rc::new(move |t: &Task| {
            id.borrow_mut().clone_from(&t.task_id);
            seen.borrow_mut().push(t.status.clone());
            let mut said = said.borrow_mut();
            if let Some(m) = &t.status_message {
                if said.last() != Some(m) {
                    said.push(m.clone());
                }
            }
        })),
        ..Default::default()
    };
    let args = json!({"topic": "tides"});
    let r = within(
        20_000,
        "task-augmented call",
        watched.call_tool_with("simulate-research-query", args.clone(), opts),
    )
    .await
    .unwrap();
    assert!(text(&r).contains("Research Report: tides"), "{}", text(&r));
    assert_eq!(states.borrow().first().map(String::as_str), Some("working"));
    let stages = [
        "Gathering sources...",
        "Analyzing content...",
        "Synthesizing findings...",
        "Generating report...",
    ];
    let said = messages.borrow().clone();
    let in_order: Vec<&str> = said
        .iter()
        .map(String::as_str)
        .filter(|m| stages.contains(m))
        .collect();
    assert_eq!(in_order, stages, "{said:?}");
    assert!(
        polls.get() <= 2,
        "{} polls of a task the server announces",
        polls.get()
    );
    let done = task_id.borrow().clone();
    the_servers_tasks(&watched, &done).await;
    resumed_with_meta(&watched, &done).await;
    watched.close();

    cancel_while_working(client).await;
    // A fresh client that never listed tools: the call lists them first (a plain call would
    // be refused), runs as a task, and its first handle still cancels the task.
    let fresh = connect(url, Transport::Auto).await;
    cancel_while_working(&fresh).await;
    fresh.close();
}

/// The server asks this client to run sampling and elicitation as tasks (2025-11-25; it
/// offers the `trigger-*-async` tools only to a client that declared that): the client
/// answers with a task at once, the server polls `tasks/get` and fetches `tasks/result`.
async fn requests_run_as_tasks(client: &Client) {
    let tools = within(10_000, "tools/list", client.list_tools())
        .await
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.contains(&"trigger-sampling-request-async")
            && names.contains(&"trigger-elicitation-request-async"),
        "{names:?}"
    );
    let r = within(
        20_000,
        "async sampling",
        client.call_tool(
            "trigger-sampling-request-async",
            json!({"prompt": "tides", "maxTokens": 5}),
        ),
    )
    .await
    .unwrap();
    let t = text(&r);
    assert!(t.starts_with("[COMPLETED]"), "{t}");
    assert!(t.contains("Task created: client-task-"), "{t}");
    assert!(t.contains("sampled[") && t.contains("tides"), "{t}");
    let r = within(
        20_000,
        "async elicitation",
        client.call_tool("trigger-elicitation-request-async", json!({})),
    )
    .await
    .unwrap();
    let t = text(&r);
    assert!(t.starts_with("[COMPLETED]"), "{t}");
    assert!(t.contains("Ada Lovelace"), "{t}");
}

/// The server's tasks through the client's task API (`tasks.list` and `tasks.cancel`
/// declared): the finished task `done` is listed and what it came to is read again by its id;
/// a running one is listed, read and cancelled by its id, and the call following it then
/// ends as cancelled.
async fn the_servers_tasks(client: &Client, done: &str) {
    let caps = client.server().expect("connected").capabilities;
    assert!(caps.tasks_list() && caps.tasks_cancel());
    let again = within(10_000, "tasks/result", client.task_result(done))
        .await
        .unwrap();
    assert!(
        again.to_string().contains("Research Report: tides"),
        "{again}"
    );
    let (running, outcome, _) = start_research(client, "reefs").await;
    let listed = within(10_000, "tasks/list", client.list_tasks())
        .await
        .unwrap();
    let state = |id: &str| {
        listed
            .iter()
            .find(|t| t.task_id == id)
            .map(|t| t.status.clone())
    };
    assert_eq!(state(done).as_deref(), Some("completed"), "{listed:?}");
    assert_eq!(state(&running).as_deref(), Some("working"), "{listed:?}");
    let now = within(10_000, "tasks/get", client.get_task(&running))
        .await
        .unwrap();
    assert_eq!(
        (now.task_id.as_str(), now.status.as_str()),
        (running.as_str(), "working")
    );
    let cancelled = within(10_000, "tasks/cancel", client.cancel_task(&running))
        .await
        .unwrap();
    assert_eq!(cancelled.status, "cancelled");
    let ended = within(
        10_000,
        "the call following the cancelled task ends",
        outcome,
    )
    .await;
    assert!(
        matches!(
            ended,
            Ok(Err(ClientError::Request(RequestError::Cancelled)))
        ),
        "{ended:?}"
    );
    // Over already: the server refuses, and says why.
    let refused = within(10_000, "tasks/cancel again", client.cancel_task(&running)).await;
    assert!(
        matches!(refused, Err(ClientError::Request(RequestError::Rpc(_)))),
        "{refused:?}"
    );
}

/// Task `done` (a research report), followed again as after a reload of the page: it comes
/// to its result, and the caller's `_meta` entries (say, its trace context) go with every
/// request made for it. `client` logs the wire.
async fn resumed_with_meta(client: &Client, done: &str) {
    let sent = Rc::new(RefCell::new(Vec::<(String, serde_json::Value)>::new()));
    let log = sent.clone();
    let task = done.to_string();
    client.on_event(move |e| {
        if let ClientEvent::Wire {
            sent: true,
            message,
            ..
        } = e
        {
            if message["params"]["taskId"] == task.as_str() {
                let method = message["method"].as_str().unwrap_or_default().to_string();
                log.borrow_mut()
                    .push((method, message["params"]["_meta"]["trace"].clone()));
            }
        }
    });
    let opts = CallOptions {
        meta: Some(serde_json::Map::from_iter([(
            "trace".into(),
            json!("t-42"),
        )])),
        ..Default::default()
    };
    let r = within(10_000, "resume_task", client.resume_task(done, opts))
        .await
        .expect("the resumed task's result");
    assert!(r.to_string().contains("Research Report: tides"), "{r}");
    let sent = sent.borrow();
    let methods: Vec<&str> = sent.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(methods, ["tasks/get", "tasks/result"], "{sent:?}");
    assert!(sent.iter().all(|(_, trace)| trace == "t-42"), "{sent:?}");
}

/// The end of a call started with [`start_research`].
type CallEnd = futures_channel::oneshot::Receiver<Result<serde_json::Value, ClientError>>;

/// Starts `simulate-research-query` on `topic` (a tool that must run as a task) and waits for
/// its task to be created: the task's id, the call's end, and the call's handle.
async fn start_research(client: &Client, topic: &str) -> (String, CallEnd, RequestHandle) {
    let states = Rc::new(RefCell::new(Vec::<Task>::new()));
    let seen = states.clone();
    let opts = CallOptions {
        on_task: Some(Rc::new(move |t: &Task| seen.borrow_mut().push(t.clone()))),
        ..Default::default()
    };
    let args = json!({ "topic": topic });
    let call = client.start_tool_call("simulate-research-query", args, opts);
    let handle = call.handle;
    let (ended, outcome) = futures_channel::oneshot::channel();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = ended.send(call.await);
    });
    let running = within(5_000, "the task is created", async {
        loop {
            if let Some(t) = states.borrow().first() {
                return t.task_id.clone();
            }
            gloo_timers::future::TimeoutFuture::new(20).await;
        }
    })
    .await;
    (running, outcome, handle)
}

/// Starts `simulate-research-query` (a tool that must run as a task), cancels the call once
/// the task exists, and checks that the server cancelled the task.
async fn cancel_while_working(client: &Client) {
    let (running, outcome, handle) = start_research(client, "tides").await;
    client.cancel(handle);
    let ended = within(10_000, "the cancelled call ends", outcome).await;
    assert!(
        matches!(
            ended,
            Ok(Err(ClientError::Request(RequestError::Cancelled)))
        ),
        "{ended:?}"
    );
    let state = within(
        10_000,
        "tasks/get",
        client.request("tasks/get", Some(json!({ "taskId": running }))),
    )
    .await
    .unwrap();
    assert_eq!(state["status"], "cancelled", "{state}");
}

#[wasm_bindgen_test]
async fn streamable_http_everything() {
    let Some(url) = STREAMABLE else {
        panic!("MCP_EVERYTHING_URL was not set at build time")
    };
    let client = connect(url, Transport::Auto).await;
    let d = client.server().unwrap();
    assert_eq!((d.era, d.wire), (Era::Legacy, WireProtocol::StreamableHttp));
    assert_eq!(d.protocol_version, "2025-11-25");
    let warnings = Rc::new(RefCell::new(Vec::new()));
    let w = warnings.clone();
    client.on_event(move |e| {
        if let ClientEvent::Warning(m) = e {
            w.borrow_mut().push(m.clone())
        }
    });
    tools_and_calls(&client).await;
    progress_and_cancel(&client).await;
    server_requests(&client).await;
    resources_prompts_completion_logging(&client).await;
    tool_tasks(&client, url).await;
    requests_run_as_tasks(&client).await;
    client.close();
}

#[wasm_bindgen_test]
async fn http_sse_everything() {
    let Some(url) = SSE else {
        panic!("MCP_EVERYTHING_SSE_URL was not set at build time")
    };
    let client = connect(url, Transport::Auto).await;
    let d = client.server().unwrap();
    assert_eq!((d.era, d.wire), (Era::Legacy, WireProtocol::HttpSse));
    tools_and_calls(&client).await;
    progress_and_cancel(&client).await;
    server_requests(&client).await;
    resources_prompts_completion_logging(&client).await;
    client.close();
}

/// Counts the page's `fetch` calls until the returned function is called.
fn count_fetches() -> (js_sys::Function, js_sys::Function) {
    let install = js_sys::Function::new_no_args(
        "const original = globalThis.fetch; let n = 0;
         globalThis.fetch = function (...args) { n += 1; return original.apply(this, args); };
         return [() => n, () => { globalThis.fetch = original; }];",
    );
    let pair: js_sys::Array = install
        .call0(&wasm_bindgen::JsValue::NULL)
        .expect("wrap fetch")
        .into();
    (pair.get(0).into(), pair.get(1).into())
}

#[wasm_bindgen_test]
async fn a_connection_started_with_spawn_started_sends_before_it_returns() {
    let Some(url) = STREAMABLE else {
        panic!("MCP_EVERYTHING_URL was not set at build time")
    };
    let (count, restore) = count_fetches();
    let fetches = move || count.call0(&wasm_bindgen::JsValue::NULL).ok()?.as_f64();
    let client = Client::new(ClientOptions::new(url));
    let (tx, rx) = futures_channel::oneshot::channel();
    let c = client.clone();
    let before = fetches();
    client_browser::spawn_started(async move {
        let _ = tx.send(c.reconnect().await);
    });
    // The first request went out during the call, before the code after it (a page's first
    // render) runs; `spawn_local` would send it only after that code.
    let after = fetches();
    restore
        .call0(&wasm_bindgen::JsValue::NULL)
        .expect("restore fetch");
    assert_eq!((before, after), (Some(0.0), Some(1.0)));
    let details = within(10_000, "connected", rx)
        .await
        .expect("the task ran to its end")
        .expect("connected");
    assert_eq!(details.wire, WireProtocol::StreamableHttp);
    client.close();
}
