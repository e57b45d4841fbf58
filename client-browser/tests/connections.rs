//! The browser's connection limit (`busy_connections.rs`), in headless Chromium against real
//! servers on plain `http://` (HTTP/1.1: six connections to one server). A test binary of its
//! own, so that its page holds no streams but these tests' (every test binary runs in a
//! browser and an origin of its own). Streams are counted as the client counts them: the Web
//! Locks named for the server, read with `navigator.locks.query()`.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::RequestError;
use client_browser::locks::acquire;
use client_browser::{Client, ClientError, ClientEvent, ClientOptions, Transport};
use futures_util::FutureExt;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
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

/// The stream locks to `origin` among the locks `held`.
fn streams_among(origin: &str, held: &[String]) -> Vec<String> {
    let prefix = format!("mcp-stream {origin} ");
    held.iter()
        .filter(|n| n.starts_with(&prefix))
        .cloned()
        .collect()
}

/// The names of the stream locks to `origin` the page holds now.
async fn stream_locks(origin: &str) -> Vec<String> {
    streams_among(origin, &lock_names().await.0)
}

/// The name of the lock a stream to `origin` takes to count the streams and take its place
/// (one page at a time).
fn turn_lock(origin: &str) -> String {
    format!("mcp-stream-turn {origin}")
}

/// How many requests wait for the lock `name` now.
async fn waiting_for(name: &str) -> usize {
    let (_, pending) = lock_names().await;
    pending.iter().filter(|n| *n == name).count()
}

/// Waits (10 s at most, polling) until the page's Web Locks (those held, those waited for)
/// satisfy `check`.
async fn until_locks(what: &str, check: impl Fn(&[String], &[String]) -> bool) {
    let mut seen = (Vec::new(), Vec::new());
    for _ in 0..500 {
        seen = lock_names().await;
        if check(&seen.0, &seen.1) {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("{what}: locks held and waited for {seen:?}");
}

/// Waits (10 s at most, polling) until a request of the page waits for the lock `name`.
async fn until_waited_for(name: &str, what: &str) {
    until_locks(what, |_, pending| pending.iter().any(|n| n == name)).await
}

/// Waits (10 s at most, polling) until the stream locks to `origin` satisfy `check`.
async fn until_streams(origin: &str, what: &str, check: impl Fn(&[String]) -> bool) {
    until_locks(what, |held, _| check(&streams_among(origin, held))).await
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
/// first five say nothing); all six call tools meanwhile. Returns the five, the sixth and
/// what the sixth reported.
async fn a_sixth_stream_waiting(url: &str) -> (Vec<Client>, Client, Rc<RefCell<Vec<ClientEvent>>>) {
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
    (five, sixth, sixth_events)
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
    let (mut five, sixth, _) = a_sixth_stream_waiting(url).await;
    close_one_and_see_the_waiting_stream_open(url, &mut five).await;
    close_all(url, five.into_iter().chain([sixth])).await;
}

/// A stream held back counts the streams again every 2 s (seen as its request for the turn
/// lock, held by the test meanwhile) and says once that it waits, however long; once its
/// client closes, it stops at once: it never asks for the turn again.
#[wasm_bindgen_test]
async fn a_held_back_stream_counts_again_says_so_once_and_stops_once_its_client_closes() {
    let url = STREAMABLE.expect("MCP_EVERYTHING_URL was not set at build time");
    let turn = turn_lock(&origin_of(url));
    let (five, sixth, events) = a_sixth_stream_waiting(url).await;
    for round in 0..2 {
        let held = acquire(&turn).await;
        until_waited_for(&turn, &format!("re-count {round}")).await;
        drop(held);
    }
    assert_eq!(
        warnings(&events).len(),
        1,
        "said once: {:?}",
        warnings(&events)
    );
    // Taken as soon as the sixth stream has counted again: it waits 2 s before its next count.
    let held = acquire(&turn).await;
    sixth.close();
    // Over more than one re-count period, it never asks again.
    for _ in 0..3 {
        gloo_timers::future::TimeoutFuture::new(1_000).await;
        assert_eq!(
            waiting_for(&turn).await,
            0,
            "a closed client's stream counted again"
        );
    }
    drop(held);
    close_all(url, five.into_iter().chain([sixth])).await;
}

/// A resource subscription of a 2026-07-28 connection is acknowledged on its listen stream:
/// while that stream waits for a connection, subscribing is refused at once, in words (not
/// after the time limit); once the stream is open, subscribing works.
#[wasm_bindgen_test]
async fn a_sixth_2026_connection_waits_for_its_listen_stream_and_a_subscription_meanwhile_is_refused_in_words(
) {
    let url = MODERN.expect("MCP_MODERN_URL was not set at build time");
    let (mut five, sixth, _) = a_sixth_stream_waiting(url).await;
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
/// take all six connections: a request of the sixth client then has none, and once it has
/// waited 5 s (a second more at most) its listeners hear why (`ConnectionsBusy`, the streams
/// counted), once; requests to another server answered meanwhile (watched too) do not end
/// that watch. Once another client closes, the request is answered.
#[wasm_bindgen_test]
async fn a_request_waiting_behind_six_http_sse_streams_is_said_to_wait_for_a_connection() {
    let url = SSE.expect("MCP_EVERYTHING_SSE_URL was not set at build time");
    let elsewhere = MODERN.expect("MCP_MODERN_URL was not set at build time");
    let origin = origin_of(url);
    let other = within(
        10_000,
        "connecting to another server",
        Client::connect(ClientOptions::new(elsewhere)),
    )
    .await
    .expect("connected");
    let mut five = Vec::new();
    for i in 0..5 {
        let (client, _) = start_client(url, Transport::HttpSse);
        until_streams(&origin, &format!("stream {i} open"), |s| s.len() == i + 1).await;
        five.push(client);
    }
    let started = js_sys::Date::now();
    let (sixth, events) = start_client(url, Transport::HttpSse);
    let busy = || {
        events.borrow().iter().find_map(|e| match e {
            ClientEvent::ConnectionsBusy { server, streams } => Some((server.clone(), *streams)),
            _ => None,
        })
    };
    within(15_000, "ConnectionsBusy", async {
        while busy().is_none() {
            let r = other
                .call_tool("echo", json!({"message": "meanwhile"}))
                .await
                .expect("the other server answers");
            assert_eq!(text(&r), "Echo: meanwhile");
            gloo_timers::future::TimeoutFuture::new(50).await;
        }
    })
    .await;
    let waited = js_sys::Date::now() - started;
    assert!(waited >= 5_000.0, "said after {waited} ms, before 5 s");
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
    other.close();
    close_all(url, five.into_iter().chain([sixth])).await;
}

/// Subscriptions asked for before the 2026-07-28 listen stream is known to wait (it waits
/// for the turn to count the streams, held by the test) are all told, at once, once it is.
#[wasm_bindgen_test]
async fn subscriptions_asked_for_before_the_listen_stream_is_held_back_are_all_refused_once_it_is()
{
    let url = MODERN.expect("MCP_MODERN_URL was not set at build time");
    let origin = origin_of(url);
    until_streams(&origin, "no streams before", |s| s.is_empty()).await;
    let mut five = Vec::new();
    for i in 0..5 {
        five.push(start_client(url, Transport::StreamableHttp).0);
        until_streams(&origin, &format!("stream {i} open"), |s| s.len() == i + 1).await;
    }
    let turn = acquire(&turn_lock(&origin)).await;
    let mut o = ClientOptions::new(url);
    o.transport = Transport::StreamableHttp;
    let sixth = Client::new(o);
    within(10_000, "the sixth connecting", sixth.reconnect())
        .await
        .expect("connected");
    until_waited_for(&turn_lock(&origin), "the sixth stream's turn").await;
    // Both asked (each polled once: each waits to hear whether the stream is held back).
    let mut first = Box::pin(sixth.subscribe_resource("test://greeting"));
    let mut second = Box::pin(sixth.subscribe_resource("test://greeting"));
    assert!((&mut first).now_or_never().is_none());
    assert!((&mut second).now_or_never().is_none());
    drop(turn);
    let (a, b) = within(
        10_000,
        "both subscriptions told",
        futures_util::future::join(first, second),
    )
    .await;
    for r in [a, b] {
        match r {
            Err(ClientError::Request(RequestError::Unavailable(m))) => {
                assert!(m.contains("which waits for a free connection"), "{m}")
            }
            other => panic!("expected the subscription refused in words, got {other:?}"),
        }
    }
    close_all(url, five.into_iter().chain([sixth])).await;
}
