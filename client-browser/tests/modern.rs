//! The browser client in headless Chromium against a real 2026-07-28 server (PyPI `mcp` 2.x,
//! `tests/peers/modern_server.py`, with CORS enabled), started by `tests/run-wasm-tests.sh`.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::{RequestError, WireProtocol};
use client_browser::client_core::time::Duration;
use client_browser::client_core::types::*;
use client_browser::{CallOptions, Client, ClientError, ClientEvent, ClientOptions, Handlers};
use futures_util::future::{select, Either, FutureExt};
use serde_json::json;
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const MODERN: Option<&str> = option_env!("MCP_MODERN_URL");

async fn within<T>(ms: u32, what: &str, fut: impl Future<Output = T>) -> T {
    let timeout = gloo_timers::future::TimeoutFuture::new(ms);
    match select(Box::pin(fut), timeout).await {
        Either::Left((v, _)) => v,
        Either::Right(_) => panic!("timed out after {ms} ms: {what}"),
    }
}

/// Polls `check` every 20 ms until it holds or `ms` pass.
async fn until(ms: u32, what: &str, check: impl Fn() -> bool) {
    within(ms, what, async {
        while !check() {
            gloo_timers::future::TimeoutFuture::new(20).await;
        }
    })
    .await
}

fn text(r: &CallToolResult) -> String {
    r.content.iter().filter_map(|c| c.as_text()).collect::<Vec<_>>().join("\n")
}

async fn connect() -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let url = MODERN.expect("MCP_MODERN_URL was not set at build time");
    let mut o = ClientOptions::new(url);
    o.handlers = Handlers {
        elicitation: Some(Rc::new(|p: ElicitParams| {
            async move {
                assert_eq!(p.message, "Who are you?");
                Ok(json!({"action": "accept", "content": {"name": "Grace"}}))
            }
            .boxed_local()
        })),
        sampling: Some(Rc::new(|_| {
            async { Ok(json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "Paris"}})) }.boxed_local()
        })),
        roots: None,
    };
    let client = Client::new(o);
    let events = Rc::new(RefCell::new(Vec::new()));
    let e = events.clone();
    client.on_event(move |ev| e.borrow_mut().push(ev.clone()));
    within(15_000, "connect", client.reconnect()).await.expect("connects");
    (client, events)
}

#[wasm_bindgen_test]
async fn modern_server_end_to_end() {
    let (client, events) = connect().await;
    let d = client.server().unwrap();
    assert_eq!((d.era, d.wire, d.protocol_version.as_str()), (Era::Modern, WireProtocol::StreamableHttp, "2026-07-28"));
    assert_eq!(d.server_info.name, "modern-test-server");

    let tools = within(10_000, "tools/list", client.list_tools()).await.unwrap();
    assert!(tools.iter().any(|t| t.name == "where"));
    let r = within(10_000, "echo", client.call_tool("echo", json!({"message": "hi"}))).await.unwrap();
    assert_eq!(text(&r), "Echo: hi");

    // x-mcp-header: the server validates the mirrored header against the body.
    let r = within(10_000, "where", client.call_tool("where", json!({"region": "eu-west-1"}))).await.unwrap();
    assert_eq!(text(&r), "body=eu-west-1 header=eu-west-1");
    let r = within(10_000, "where (non-ASCII)", client.call_tool("where", json!({"region": "Zürich"}))).await.unwrap();
    assert_eq!(text(&r), "body=Zürich header==?base64?WsO8cmljaA==?=");

    // MRTR: one round with an elicitation and a sampling request.
    let r = within(10_000, "interview", client.call_tool("interview", json!({}))).await.unwrap();
    let t = text(&r);
    assert!(t.contains("Grace") && t.contains("Paris"), "{t}");

    // Progress.
    let seen = Rc::new(RefCell::new(0));
    let s = seen.clone();
    let opts = CallOptions { on_progress: Some(Rc::new(move |_| *s.borrow_mut() += 1)), ..Default::default() };
    let r = within(10_000, "count", client.call_tool_with("count", json!({"steps": 4}), opts)).await.unwrap();
    assert_eq!(text(&r), "counted to 4");
    assert_eq!(*seen.borrow(), 4);

    // Timeout: the stream is closed (the modern cancellation) and the error says so.
    let opts = CallOptions { timeout: Some(Duration::from_millis(300)), ..Default::default() };
    let r = within(5_000, "sleep", client.call_tool_with("sleep", json!({"seconds": 5}), opts)).await;
    assert!(matches!(r, Err(ClientError::Request(RequestError::Timeout { .. }))), "{r:?}");

    // subscriptions/listen: resource updates and list changes arrive on the listen stream.
    within(10_000, "subscribe", client.subscribe_resource("test://greeting")).await.unwrap();
    let has = |f: &dyn Fn(&ServerNotification) -> bool| {
        events.borrow().iter().any(|e| matches!(e, ClientEvent::Notification(n) if f(n)))
    };
    until(5_000, "acknowledged", || has(&|n| matches!(n, ServerNotification::SubscriptionsAcknowledged(a)
        if a.notifications.resource_subscriptions.as_deref() == Some(&["test://greeting".to_string()][..])))).await;
    within(10_000, "touch", client.call_tool("touch", json!({"uri": "test://greeting"}))).await.unwrap();
    until(5_000, "resource updated", || has(&|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://greeting"))).await;
    within(10_000, "retool", client.call_tool("retool", json!({}))).await.unwrap();
    until(5_000, "tools list changed", || has(&|n| matches!(n, ServerNotification::ToolListChanged))).await;

    // Resources and prompts.
    let read = within(10_000, "read", client.read_resource("test://greeting")).await.unwrap();
    assert_eq!(read.contents[0].text.as_deref(), Some("hello from the modern server"));
    let mut args = std::collections::HashMap::new();
    args.insert("name".to_string(), "Lin".to_string());
    let p = within(10_000, "prompt", client.get_prompt("greet", args)).await.unwrap();
    assert!(format!("{:?}", p.messages).contains("Please greet Lin."));
    client.close();
}
