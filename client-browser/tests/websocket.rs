//! The browser client over a WebSocket (non-standard, SEP-1288 draft) against a real server:
//! PyPI `mcp` 1.x's WebSocket transport (`tests/peers/ws_server.py`), which selects the `mcp`
//! subprotocol. One JSON-RPC message per frame; the core's era probe falls back to
//! `initialize` when the server does not answer `server/discover` the modern way.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::WireProtocol;
use client_browser::client_core::types::*;
use client_browser::{CallOptions, Client, ClientOptions, Transport};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

const WEBSOCKET: Option<&str> = option_env!("MCP_WEBSOCKET_URL");
const NO_SUBPROTOCOL: Option<&str> = option_env!("MCP_WEBSOCKET_NO_SUBPROTOCOL_URL");

/// A client connected to `url` over a WebSocket (`what`: why it must connect).
async fn connect_ws(url: &str, what: &str) -> Client {
    let mut o = ClientOptions::new(url);
    o.transport = Transport::WebSocket;
    within(15_000, "connect", Client::connect(o))
        .await
        .expect(what)
}

#[wasm_bindgen_test]
async fn websocket_server_end_to_end() {
    let url = WEBSOCKET.expect("MCP_WEBSOCKET_URL was not set at build time");
    let client = connect_ws(url, "connects over WebSocket").await;
    let d = client.server().unwrap();
    assert_eq!((d.wire, d.era), (WireProtocol::Frames, Era::Legacy));
    assert_eq!(d.server_info.name, "websocket-test-server");
    let tools = within(10_000, "tools/list", client.list_tools())
        .await
        .unwrap();
    assert!(tools.iter().any(|t| t.name == "echo"));
    let r = within(
        10_000,
        "echo",
        client.call_tool("echo", json!({"message": "over ws"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: over ws");
    let n = Rc::new(RefCell::new(0));
    let m = n.clone();
    let opts = CallOptions {
        on_progress: Some(Rc::new(move |_| *m.borrow_mut() += 1)),
        ..Default::default()
    };
    let r = within(
        10_000,
        "count",
        client.call_tool_with("count", json!({"steps": 3}), opts),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "counted to 3");
    assert_eq!(*n.borrow(), 3);
    client.close();
}

/// How many WebSocket connections the server has open now (of every client), asked by
/// `client`.
async fn open_connections(client: &Client) -> u32 {
    let r = within(
        10_000,
        "open_connections",
        client.call_tool("open_connections", json!({})),
    )
    .await
    .unwrap();
    text(&r)
        .parse()
        .unwrap_or_else(|_| panic!("not a count: {}", text(&r)))
}

/// Closing a client closes its WebSocket at once (not when the page lets go of the client):
/// the server counts one connection fewer.
#[wasm_bindgen_test]
async fn closing_a_client_closes_its_websocket() {
    let url = WEBSOCKET.expect("MCP_WEBSOCKET_URL was not set at build time");
    let first = connect_ws(url, "connects over WebSocket").await;
    let with_first = open_connections(&first).await;
    first.close();
    let second = connect_ws(url, "connects over WebSocket").await;
    // The second's connection replaces the first's (others' may close meanwhile).
    let mut now = open_connections(&second).await;
    within(5_000, "the first client's socket is closed", async {
        while now > with_first {
            gloo_timers::future::TimeoutFuture::new(50).await;
            now = open_connections(&second).await;
        }
    })
    .await;
    second.close();
    // Held until here: dropping it would close its socket too.
    drop(first);
}

#[wasm_bindgen_test]
async fn a_server_selecting_no_subprotocol_is_retried_without_one() {
    let url = NO_SUBPROTOCOL.expect("MCP_WEBSOCKET_NO_SUBPROTOCOL_URL was not set at build time");
    let client = connect_ws(url, "connects after retrying without a subprotocol").await;
    let r = within(
        10_000,
        "echo",
        client.call_tool("echo", json!({"message": "plain"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: plain");
    client.close();
}

/// The socket is dropped under a connected client (the proxy's `/__drop`, as a network
/// failure would): the client opens it again by itself and the next call is answered in the
/// new connection.
#[wasm_bindgen_test]
async fn a_dropped_websocket_is_opened_again() {
    let url = NO_SUBPROTOCOL.expect("MCP_WEBSOCKET_NO_SUBPROTOCOL_URL was not set at build time");
    let client = connect_ws(url, "connects").await;
    let states = Rc::new(RefCell::new(Vec::new()));
    let seen = states.clone();
    client.on_event(move |e| {
        if let client_browser::ClientEvent::State(s) = e {
            seen.borrow_mut().push(*s);
        }
    });
    let drop_url = url
        .replacen("ws://", "http://", 1)
        .replace("/ws", "/__drop");
    let window = web_sys::window().expect("a window");
    let answer = within(
        5_000,
        "the proxy drops the socket",
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&drop_url)),
    )
    .await
    .expect("the proxy answers");
    let answer: web_sys::Response = wasm_bindgen::JsCast::dyn_into(answer).expect("a response");
    let said = within(5_000, "its answer", async {
        wasm_bindgen_futures::JsFuture::from(answer.text().expect("a body")).await
    })
    .await
    .expect("a text");
    let said = said.as_string().unwrap_or_default();
    assert!(
        said.starts_with(r#"{"dropped":"#) && said != r#"{"dropped":0}"#,
        "{said}"
    );
    until(
        10_000,
        "the client notices and opens the socket again",
        || {
            states
                .borrow()
                .contains(&client_browser::client_core::session::ConnectionState::Reconnecting)
        },
    )
    .await;
    let r = within(
        15_000,
        "echo in the new connection",
        client.call_tool("echo", json!({"message": "again"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: again");
    assert_eq!(
        client.state(),
        client_browser::client_core::session::ConnectionState::Connected
    );
    client.close();
}

#[wasm_bindgen_test]
async fn an_unreachable_websocket_fails_clearly() {
    let mut o = ClientOptions::new("ws://127.0.0.1:9/ws");
    o.transport = Transport::WebSocket;
    let r = within(15_000, "connect", Client::connect(o)).await;
    let Err(e) = r else {
        panic!("connected to port 9?")
    };
    assert!(e.to_string().contains("WebSocket closed"), "{e}");
}
