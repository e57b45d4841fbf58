//! The browser's connection limit (`busy_connections.rs`), in headless Chromium against real
//! servers on plain `http://` (HTTP/1.1: six connections to one server). A test binary of its
//! own, so that its page holds no streams but these tests' (every test binary runs in a
//! browser and an origin of its own). Streams are counted as the client counts them: the Web
//! Locks named for the server, read with `navigator.locks.query()`.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::RequestError;
use client_browser::{Client, ClientError, ClientEvent, ClientOptions, Transport};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

const MODERN: Option<&str> = option_env!("MCP_MODERN_URL");
const STREAMABLE: Option<&str> = option_env!("MCP_EVERYTHING_URL");
const SSE: Option<&str> = option_env!("MCP_EVERYTHING_SSE_URL");

/// The origin (`http://host:port`) of `url`.
fn origin_of(url: &str) -> String {
    web_sys::Url::new(url).expect("a URL").origin()
}

/// The names of the stream locks to `origin` the page holds now.
async fn stream_locks(origin: &str) -> Vec<String> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap();
    let locks = js_sys::Reflect::get(&navigator, &"locks".into()).unwrap();
    let query: js_sys::Function = js_sys::Reflect::get(&locks, &"query".into())
        .unwrap()
        .unchecked_into();
    let promise: js_sys::Promise = query.call0(&locks).unwrap().unchecked_into();
    let snapshot = JsFuture::from(promise).await.unwrap();
    let held: js_sys::Array = js_sys::Reflect::get(&snapshot, &"held".into())
        .unwrap()
        .unchecked_into();
    let prefix = format!("mcp-stream {origin} ");
    held.iter()
        .filter_map(|l| js_sys::Reflect::get(&l, &"name".into()).ok()?.as_string())
        .filter(|n| n.starts_with(&prefix))
        .collect()
}

/// Waits (10 s at most, polling) until the stream locks to `origin` satisfy `check`.
async fn until_streams(origin: &str, what: &str, check: impl Fn(&[String]) -> bool) {
    let mut seen = Vec::new();
    for _ in 0..500 {
        seen = stream_locks(origin).await;
        if check(&seen) {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("{what}: stream locks {seen:?}");
}

/// A client of `url` over `transport` whose events are kept from the start, connecting (not
/// awaited: a connect may wait for a connection) in the background.
fn start_client(url: &str, transport: Transport) -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let mut o = ClientOptions::new(url);
    o.transport = transport;
    let client = Client::new(o);
    let events = Rc::new(RefCell::new(Vec::new()));
    let e = events.clone();
    client.on_event(move |event| e.borrow_mut().push(event.clone()));
    let c = client.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = c.reconnect().await;
    });
    (client, events)
}

/// The warnings among `events`.
fn warnings(events: &RefCell<Vec<ClientEvent>>) -> Vec<String> {
    events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ClientEvent::Warning(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

/// Six clients of `url` (Streamable HTTP) in one page: five streams open at once; the sixth
/// one's stream waits, so that the last connection stays free for requests, and says so (the
/// first five say nothing); all six call tools meanwhile. Returns the five and the sixth.
async fn a_sixth_stream_waiting(url: &str) -> (Vec<Client>, Client) {
    let origin = origin_of(url);
    until_streams(&origin, "no streams before", |s| s.is_empty()).await;
    let mut five = Vec::new();
    let mut events = Vec::new();
    for i in 0..5 {
        let (client, e) = start_client(url, Transport::StreamableHttp);
        until_streams(&origin, &format!("stream {i} open"), |s| s.len() == i + 1).await;
        five.push(client);
        events.push(e);
    }
    let (sixth, sixth_events) = start_client(url, Transport::StreamableHttp);
    until(10_000, "the sixth client's warning", || {
        !warnings(&sixth_events).is_empty()
    })
    .await;
    let said = warnings(&sixth_events).join("\n");
    assert!(
        said.contains("waits: browsers open at most 6 connections to one server over plain HTTP (HTTP/1.1), and 5 streams"),
        "{said}"
    );
    for e in &events {
        assert_eq!(
            warnings(e),
            Vec::<String>::new(),
            "the first five did not wait"
        );
    }
    for (i, client) in five.iter().chain([&sixth]).enumerate() {
        let r = within(
            10_000,
            "a call while five streams are open",
            client.call_tool("echo", json!({"message": format!("from {i}")})),
        )
        .await
        .expect("answered on the connection left free");
        assert_eq!(text(&r), format!("Echo: from {i}"));
    }
    assert_eq!(
        stream_locks(&origin).await.len(),
        5,
        "the last connection left for requests"
    );
    (five, sixth)
}

/// Closes the first of `five` and waits until another stream to `url` opens in its place.
async fn close_one_and_see_the_waiting_stream_open(url: &str, five: &mut Vec<Client>) {
    let origin = origin_of(url);
    let before = stream_locks(&origin).await;
    five.remove(0).close();
    until_streams(&origin, "the waiting stream open once one closed", |s| {
        s.len() == 5 && s.iter().any(|n| !before.contains(n))
    })
    .await;
}

/// Closes `clients` and waits until their streams to `url` are let go.
async fn close_all(url: &str, clients: impl IntoIterator<Item = Client>) {
    for c in clients {
        c.close();
    }
    until_streams(&origin_of(url), "every stream closed", |s| s.is_empty()).await;
}

#[wasm_bindgen_test]
async fn a_sixth_2025_session_waits_for_a_free_connection_to_open_its_get_stream() {
    let url = STREAMABLE.expect("MCP_EVERYTHING_URL was not set at build time");
    let (mut five, sixth) = a_sixth_stream_waiting(url).await;
    close_one_and_see_the_waiting_stream_open(url, &mut five).await;
    close_all(url, five.into_iter().chain([sixth])).await;
}

/// A resource subscription of a 2026-07-28 connection is acknowledged on its listen stream:
/// while that stream waits for a connection, subscribing is refused at once, in words (not
/// after the time limit); once the stream is open, subscribing works.
#[wasm_bindgen_test]
async fn a_sixth_2026_connection_waits_for_its_listen_stream_and_a_subscription_meanwhile_is_refused_in_words(
) {
    let url = MODERN.expect("MCP_MODERN_URL was not set at build time");
    let (mut five, sixth) = a_sixth_stream_waiting(url).await;
    let r = within(
        10_000,
        "subscribing while the stream waits",
        sixth.subscribe_resource("test://greeting"),
    )
    .await;
    match r {
        Err(ClientError::Request(RequestError::Unavailable(m))) => assert!(
            m.contains("which waits for a free connection")
                && m.contains("5 streams from pages of this site")
                && m.contains(&origin_of(url))
                && m.ends_with("then subscribe again."),
            "{m}"
        ),
        other => panic!("expected the subscription refused in words, got {other:?}"),
    }
    close_one_and_see_the_waiting_stream_open(url, &mut five).await;
    within(
        10_000,
        "subscribing once the stream is open",
        sixth.subscribe_resource("test://greeting"),
    )
    .await
    .expect("subscribed");
    close_all(url, five.into_iter().chain([sixth])).await;
}

/// Streams that cannot wait (the 2024-11-05 HTTP+SSE transport's carries every answer) can
/// take all six connections: a request of the sixth client then has none, and after a while
/// its listeners hear why (`ConnectionsBusy`, the streams counted); once another client
/// closes, it is answered.
#[wasm_bindgen_test]
async fn a_request_waiting_behind_six_http_sse_streams_is_said_to_wait_for_a_connection() {
    let url = SSE.expect("MCP_EVERYTHING_SSE_URL was not set at build time");
    let origin = origin_of(url);
    let mut five = Vec::new();
    for i in 0..5 {
        let (client, _) = start_client(url, Transport::HttpSse);
        until_streams(&origin, &format!("stream {i} open"), |s| s.len() == i + 1).await;
        five.push(client);
    }
    let (sixth, events) = start_client(url, Transport::HttpSse);
    let busy = || {
        events.borrow().iter().find_map(|e| match e {
            ClientEvent::ConnectionsBusy { server, streams } => Some((server.clone(), *streams)),
            _ => None,
        })
    };
    // Heard after 5 s without an answer (and a second more at most).
    until(15_000, "ConnectionsBusy", || busy().is_some()).await;
    assert_eq!(busy(), Some((origin.clone(), 6)));
    let heard = events
        .borrow()
        .iter()
        .filter(|e| matches!(e, ClientEvent::ConnectionsBusy { .. }))
        .count();
    assert_eq!(heard, 1, "said once per request");
    five.remove(0).close();
    let tools = within(15_000, "the sixth lists the tools", sixth.list_tools())
        .await
        .expect("answered once a connection is free");
    assert!(!tools.is_empty());
    close_all(url, five.into_iter().chain([sixth])).await;
}
