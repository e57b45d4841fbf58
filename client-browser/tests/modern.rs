//! The browser client in headless Chromium against a real 2026-07-28 server (PyPI `mcp` 2.x,
//! `tests/peers/modern_server.py`, with CORS enabled), started by `tests/run-wasm-tests.sh`.

#![cfg(target_arch = "wasm32")]

use client_browser::client_core::session::{RequestError, WireProtocol};
use client_browser::client_core::time::Duration;
use client_browser::client_core::types::*;
use client_browser::{
    CacheMode, CallOptions, Client, ClientError, ClientEvent, ClientOptions, Handlers,
};
use futures_util::FutureExt;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

const MODERN: Option<&str> = option_env!("MCP_MODERN_URL");

async fn connect() -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let Some(url) = MODERN else {
        panic!("MCP_MODERN_URL was not set at build time")
    };
    let mut o = ClientOptions::new(url);
    o.handlers = Handlers {
        elicitation: Some(client_browser::typed_handler(|p: ElicitParams| {
            async move {
                assert_eq!(p.message, "Who are you?");
                Ok(json!({"action": "accept", "content": {"name": "Grace"}}))
            }
            .boxed_local()
        })),
        sampling: Some(Rc::new(|_| {
            async { Ok(json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "Paris"}})) }.boxed_local()
        })),
        roots: Some(Rc::new(|| {
            async { Ok(json!({"roots": [{"uri": "file:///home/demo", "name": "demo"}]})) }
                .boxed_local()
        })),
        sampling_tools: false,
    };
    o.log_level = Some(LoggingLevel::Debug);
    o.headers = vec![("X-Team".into(), "blue".into())];
    connect_with(o).await
}

/// Whether a notification that `f` accepts has arrived among `events`.
fn notified(events: &RefCell<Vec<ClientEvent>>, f: &dyn Fn(&ServerNotification) -> bool) -> bool {
    events
        .borrow()
        .iter()
        .any(|e| matches!(e, ClientEvent::Notification(n) if f(n)))
}

/// A client of the modern server with the wire log on, and the events it reports.
async fn connect_logging_the_wire() -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let Some(url) = MODERN else {
        panic!("MCP_MODERN_URL was not set at build time")
    };
    let mut o = ClientOptions::new(url);
    o.wire_log = true;
    connect_with(o).await
}

/// A client connected with `o`, and the events it reports from the start.
async fn connect_with(o: ClientOptions) -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let client = Client::new(o);
    let events = Rc::new(RefCell::new(Vec::new()));
    let e = events.clone();
    client.on_event(move |ev| e.borrow_mut().push(ev.clone()));
    within(15_000, "connect", client.reconnect())
        .await
        .expect("connects");
    (client, events)
}

#[wasm_bindgen_test]
async fn modern_server_end_to_end() {
    let (client, events) = connect().await;
    let d = client.server().unwrap();
    assert_eq!(
        (d.era, d.wire, d.protocol_version.as_str()),
        (Era::Modern, WireProtocol::StreamableHttp, "2026-07-28")
    );
    assert_eq!(d.server_info.name, "modern-test-server");

    let tools = within(10_000, "tools/list", client.list_tools())
        .await
        .unwrap();
    assert!(tools.iter().any(|t| t.name == "where"));
    let r = within(
        10_000,
        "echo",
        client.call_tool("echo", json!({"message": "hi"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "Echo: hi");

    // Custom headers from the options reach the server.
    let r = within(
        10_000,
        "header",
        client.call_tool("header", json!({"name": "X-Team"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "blue");

    // x-mcp-header: the server validates the mirrored header against the body.
    let r = within(
        10_000,
        "where",
        client.call_tool("where", json!({"region": "eu-west-1"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "body=eu-west-1 header=eu-west-1");
    let r = within(
        10_000,
        "where (non-ASCII)",
        client.call_tool("where", json!({"region": "Zürich"})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "body=Zürich header==?base64?WsO8cmljaA==?=");

    // MRTR: one round with an elicitation and a sampling request.
    let r = within(
        10_000,
        "interview",
        client.call_tool("interview", json!({})),
    )
    .await
    .unwrap();
    let t = text(&r);
    assert!(t.contains("Grace") && t.contains("Paris"), "{t}");

    // Progress.
    let seen = Rc::new(RefCell::new(0));
    let s = seen.clone();
    let opts = CallOptions {
        on_progress: Some(Rc::new(move |_| *s.borrow_mut() += 1)),
        ..Default::default()
    };
    let r = within(
        10_000,
        "count",
        client.call_tool_with("count", json!({"steps": 4}), opts),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "counted to 4");
    assert_eq!(*seen.borrow(), 4);

    // Timeout: the stream is closed (the modern cancellation) and the error says so.
    let opts = CallOptions {
        timeout: Some(Duration::from_millis(300)),
        ..Default::default()
    };
    let r = within(
        5_000,
        "sleep",
        client.call_tool_with("sleep", json!({"seconds": 5}), opts),
    )
    .await;
    assert!(
        matches!(r, Err(ClientError::Request(RequestError::Timeout { .. }))),
        "{r:?}"
    );

    // subscriptions/listen: resource updates and list changes arrive on the listen stream.
    within(
        10_000,
        "subscribe",
        client.subscribe_resource("test://greeting"),
    )
    .await
    .unwrap();
    let has = |f: &dyn Fn(&ServerNotification) -> bool| notified(&events, f);
    until(5_000, "acknowledged", || has(&|n| matches!(n, ServerNotification::SubscriptionsAcknowledged(a)
        if a.notifications.resource_subscriptions.as_deref() == Some(&["test://greeting".to_string()][..])))).await;
    within(
        10_000,
        "touch",
        client.call_tool("touch", json!({"uri": "test://greeting"})),
    )
    .await
    .unwrap();
    until(5_000, "resource updated", || {
        has(&|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://greeting"))
    })
    .await;
    within(10_000, "retool", client.call_tool("retool", json!({})))
        .await
        .unwrap();
    until(5_000, "tools list changed", || {
        has(&|n| matches!(n, ServerNotification::ToolListChanged))
    })
    .await;

    // Roots, asked for with MRTR.
    let r = within(10_000, "roots", client.call_tool("roots", json!({})))
        .await
        .unwrap();
    assert_eq!(text(&r), "roots: file:///home/demo");

    // Logging: the level travels in every request's _meta; messages arrive on the call's stream.
    let r = within(10_000, "chatty", client.call_tool("chatty", json!({})))
        .await
        .unwrap();
    assert_eq!(text(&r), "logged");
    until(5_000, "log messages", || {
        events
            .borrow()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    ClientEvent::Notification(ServerNotification::LoggingMessage(_))
                )
            })
            .count()
            >= 2
    })
    .await;

    // Resources (the server pages them two at a time), templates and completion.
    let all = within(10_000, "resources/list", client.list_resources())
        .await
        .unwrap();
    let statics = all
        .iter()
        .filter(|r| r.uri.starts_with("test://static/"))
        .count();
    assert_eq!(
        statics,
        5,
        "every page was followed: {:?}",
        all.iter().map(|r| &r.uri).collect::<Vec<_>>()
    );
    let templates = within(10_000, "templates", client.list_resource_templates())
        .await
        .unwrap();
    assert!(templates
        .iter()
        .any(|t| t.uri_template == "test://items/{item_id}"));
    let read = within(10_000, "read item", client.read_resource("test://items/42"))
        .await
        .unwrap();
    assert_eq!(read.contents[0].text.as_deref(), Some("item 42"));
    let c = within(
        10_000,
        "complete",
        client.complete(
            json!({"type": "ref/prompt", "name": "greet"}),
            "name",
            "A",
            &[],
        ),
    )
    .await
    .unwrap();
    assert_eq!(c.values, ["Ada", "Alan"]);

    // Resources and prompts.
    let read = within(10_000, "read", client.read_resource("test://greeting"))
        .await
        .unwrap();
    assert_eq!(
        read.contents[0].text.as_deref(),
        Some("hello from the modern server")
    );
    let mut args = std::collections::HashMap::new();
    args.insert("name".to_string(), "Lin".to_string());
    let p = within(10_000, "prompt", client.get_prompt("greet", args))
        .await
        .unwrap();
    assert!(format!("{:?}", p.messages).contains("Please greet Lin."));
    client.close();
}

#[wasm_bindgen_test]
async fn a_50_mib_result_arrives_whole() {
    let (client, _) = connect().await;
    let r = within(
        60_000,
        "big",
        client.call_tool("big", json!({"megabytes": 50})),
    )
    .await
    .unwrap();
    let t = r.content.first().and_then(|c| c.as_text()).unwrap_or("");
    assert_eq!(t.len(), 50 << 20);
    assert!(t.bytes().all(|b| b == b'x'));
    client.close();
}

/// The server's caching hints (`ttlMs`: a minute for lists and reads) against a real
/// 2026-07-28 server: a fresh result is served without a request, "refresh" asks again, and a
/// change the server announces makes the cached result stale at once.
#[wasm_bindgen_test]
async fn fresh_results_come_from_the_cache_until_the_server_announces_a_change() {
    let (client, events) = connect_logging_the_wire().await;
    let sent = |method: &str| {
        events
            .borrow()
            .iter()
            .filter(|e| matches!(e, ClientEvent::Wire { sent: true, message, .. } if message["method"] == method))
            .count()
    };
    let has = |f: &dyn Fn(&ServerNotification) -> bool| notified(&events, f);
    let names = |tools: Vec<Tool>| tools.into_iter().map(|t| t.name).collect::<Vec<_>>();

    let first = names(within(10_000, "list", client.list_tools()).await.unwrap());
    assert_eq!(sent("tools/list"), 1);
    let again = names(
        within(10_000, "list again", client.list_tools())
            .await
            .unwrap(),
    );
    assert_eq!(again, first);
    assert_eq!(sent("tools/list"), 1, "fresh for ttlMs: no second request");
    within(
        10_000,
        "refresh",
        client.list_all_with("tools/list", "tools", CacheMode::Refresh),
    )
    .await
    .unwrap();
    assert_eq!(sent("tools/list"), 2, "refresh asks the server");

    within(
        10_000,
        "subscribe",
        client.subscribe_resource("test://greeting"),
    )
    .await
    .unwrap();
    until(5_000, "listening", || {
        has(&|n| {
            matches!(n, ServerNotification::SubscriptionsAcknowledged(a)
            if a.notifications.resource_subscriptions.is_some())
        })
    })
    .await;
    for _ in 0..2 {
        let read = within(10_000, "read", client.read_resource("test://greeting"))
            .await
            .unwrap();
        assert_eq!(
            read.contents[0].text.as_deref(),
            Some("hello from the modern server")
        );
    }
    assert_eq!(sent("resources/read"), 1);

    // Announced changes: the resource was updated, the tool list changed.
    within(
        10_000,
        "touch",
        client.call_tool("touch", json!({"uri": "test://greeting"})),
    )
    .await
    .unwrap();
    within(10_000, "retool", client.call_tool("retool", json!({})))
        .await
        .unwrap();
    until(5_000, "both announced", || {
        has(&|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://greeting"))
            && has(&|n| matches!(n, ServerNotification::ToolListChanged))
    })
    .await;
    within(
        10_000,
        "read after the update",
        client.read_resource("test://greeting"),
    )
    .await
    .unwrap();
    assert_eq!(sent("resources/read"), 2);
    let changed = names(
        within(10_000, "list after the change", client.list_tools())
            .await
            .unwrap(),
    );
    assert_eq!(sent("tools/list"), 3);
    assert!(changed.iter().any(|n| n == "added-later"), "{changed:?}");
    client.close();
}

/// 2026-07-28 server that pages its resources: each page is kept for its own `ttlMs`. Its
/// cursors expire: a listing whose kept pages lead to a cursor the server has since stopped
/// accepting starts again from a fresh first page (once) instead of failing.
#[wasm_bindgen_test]
async fn pages_are_kept_on_their_own_and_a_stale_cursor_restarts_the_listing() {
    let (client, events) = connect_logging_the_wire().await;
    // How often a `resources/list` page (by its cursor; `None`: the first page) was sent.
    let sent = |cursor: Option<&str>| {
        events
            .borrow()
            .iter()
            .filter(|e| {
                matches!(e, ClientEvent::Wire { sent: true, message, .. }
                if message["method"] == "resources/list"
                    && message["params"].get("cursor").and_then(Value::as_str) == cursor)
            })
            .count()
    };
    let refused = || {
        events
            .borrow()
            .iter()
            .filter(|e| {
                matches!(e, ClientEvent::Wire { sent: false, message, .. }
                if message["error"]["code"] == -32602)
            })
            .count()
    };

    // Three pages; the server marks the last one never fresh.
    let before = resource_uris(&client, "list").await;
    assert_eq!(before.len(), 6, "paginated: {before:?}");
    // The server's cursors start with its epoch (`EPOCH:offset`), which each reshuffle moves
    // on: read from the first cursor sent, as earlier runs against the same server (mutation
    // testing runs these tests again and again) have moved it already.
    let epoch: u32 = sent_messages(&events)
        .iter()
        .filter(|m| m["method"] == "resources/list")
        .find_map(|m| {
            m["params"]["cursor"]
                .as_str()?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .expect("a second page was asked for with a cursor naming the epoch");
    let pages = |epoch: u32| [None, Some(format!("{epoch}:2")), Some(format!("{epoch}:4"))];
    let count = |epoch: u32| pages(epoch).map(|c| sent(c.as_deref()));
    assert_eq!(count(epoch), [1, 1, 1]);
    // Read again: the first two pages come from the cache, the last from the server.
    let again = resource_uris(&client, "list again").await;
    assert_eq!(again, before);
    assert_eq!(count(epoch), [1, 1, 2]);

    within(
        10_000,
        "reshuffle",
        client.call_tool("reshuffle", json!({})),
    )
    .await
    .unwrap();
    // The kept pages lead to a cursor the server no longer accepts: the listing starts again
    // with every page fresh from the server.
    let after = resource_uris(&client, "list after the reshuffle").await;
    assert_eq!(after, before, "the whole listing, read again");
    assert_eq!(refused(), 1, "the kept cursor was refused");
    assert_eq!(
        count(epoch),
        [2, 1, 3],
        "then a fresh first page was asked for"
    );
    assert_eq!(count(epoch + 1)[1..], [1, 1]);
    // The fresh pages are what the cache holds now: their cursors are accepted.
    let third = resource_uris(&client, "list from the cache").await;
    assert_eq!(third, before);
    assert_eq!(count(epoch), [2, 1, 3]);
    assert_eq!(count(epoch + 1)[1..], [1, 2]);
    assert_eq!(refused(), 1);

    // Every page follows the listing's cache mode: refresh asks for all and keeps them ...
    let list = |cache: CacheMode| {
        within(
            10_000,
            "list in a cache mode",
            client.list_all_with("resources/list", "resources", cache),
        )
    };
    assert_eq!(list(CacheMode::Refresh).await.unwrap().len(), 6);
    assert_eq!(count(epoch + 1), [3, 2, 3]);
    assert_eq!(list(CacheMode::Use).await.unwrap().len(), 6);
    assert_eq!(count(epoch + 1), [3, 2, 4]);
    // ... bypass asks for all and drops what was kept.
    assert_eq!(list(CacheMode::Bypass).await.unwrap().len(), 6);
    assert_eq!(count(epoch + 1), [4, 3, 5]);
    assert_eq!(list(CacheMode::Use).await.unwrap().len(), 6);
    assert_eq!(count(epoch + 1), [5, 4, 6]);
    client.close();
}

/// On a 2026-07-28 server, which has no `logging/setLevel`, the level chosen goes in each
/// later request's `_meta`.
#[wasm_bindgen_test]
async fn the_log_level_goes_in_each_later_requests_meta() {
    let (client, events) = connect_logging_the_wire().await;
    within(
        10_000,
        "set the level",
        client.set_log_level(LoggingLevel::Warning),
    )
    .await
    .unwrap();
    within(10_000, "ping", client.ping()).await.unwrap();
    assert!(
        !sent_methods(&events)
            .iter()
            .any(|m| m == "logging/setLevel"),
        "{:?}",
        sent_methods(&events)
    );
    let levels: Vec<Value> = sent_messages(&events)
        .iter()
        .filter(|m| m["method"] == "server/discover")
        .map(|m| m["params"]["_meta"]["io.modelcontextprotocol/logLevel"].clone())
        .collect();
    assert_eq!(levels.last(), Some(&json!("warning")), "{levels:?}");
    client.close();
}

/// The server marks its `server/discover` result public and fresh for an hour: a client that
/// remembers keeps it, and the next one (a reload, say) connects from it and sends nothing
/// before its first request. A client that does not remember keeps nothing and probes.
#[wasm_bindgen_test]
async fn a_kept_discover_result_spares_the_next_connection_its_probe() {
    use client_browser::discoveries;
    let url = MODERN.expect("MCP_MODERN_URL was not set at build time");
    discoveries::forget(url);
    let mut o = ClientOptions::new(url);
    o.wire_log = true;
    let (plain, events) = connect_with(o.clone()).await;
    plain.close();
    // (The client also opens its `subscriptions/listen` stream once connected.)
    assert_eq!(sent_methods(&events)[0], "server/discover");
    assert!(
        discoveries::kept(url, js_sys::Date::now(), false).is_none(),
        "remember_era off keeps nothing"
    );

    o.remember_era = true;
    let (first, events) = connect_with(o.clone()).await;
    first.close();
    assert_eq!(sent_methods(&events)[0], "server/discover");
    let kept = discoveries::kept(url, js_sys::Date::now(), false).expect("kept while fresh");
    assert_eq!(kept["cacheScope"], "public");
    assert!(
        discoveries::kept(url, js_sys::Date::now() + 3_601_000.0, false).is_none(),
        "an hour at most"
    );

    let (second, events) = connect_with(o).await;
    let d = second.server().expect("connected");
    assert_eq!(
        (d.era, d.server_info.name.as_str()),
        (Era::Modern, "modern-test-server")
    );
    let tools = within(10_000, "list tools", second.list_tools())
        .await
        .expect("tools");
    assert!(tools.iter().any(|t| t.name == "echo"));
    let sent = sent_methods(&events);
    assert!(sent.iter().any(|m| m == "tools/list"), "{sent:?}");
    assert!(
        !sent.iter().any(|m| m == "server/discover"),
        "no probe: {sent:?}"
    );
    second.close();
}

/// The 2026-07-28 protocol removed `ping` and `notifications/roots/list_changed`: a liveness
/// check is a `server/discover`, and a change of roots sends nothing (the server asks for them
/// with the requests that need them).
#[wasm_bindgen_test]
async fn ping_and_roots_changed_speak_the_2026_protocol() {
    let (client, events) = connect_logging_the_wire().await;
    let sent = || sent_methods(&events);
    let before = sent().len();
    within(10_000, "ping", client.ping()).await.unwrap();
    client.roots_changed();
    within(10_000, "ping again", client.ping()).await.unwrap();
    assert_eq!(sent()[before..], ["server/discover", "server/discover"]);
    client.close();
}

/// Two resource subscriptions made at once: the second replaces the `subscriptions/listen`
/// stream whose acknowledgment the first waits for, so the first is answered by the
/// acknowledgment of the stream that replaced it; both are honoured, and updates of either
/// arrive.
#[wasm_bindgen_test]
async fn concurrent_resource_subscriptions_both_wait_for_the_acknowledgment_that_names_them() {
    let (client, events) = connect_logging_the_wire().await;
    let (first, second) = futures_util::future::join(
        within(
            10_000,
            "subscribe 0",
            client.subscribe_resource("test://static/0"),
        ),
        within(
            10_000,
            "subscribe 1",
            client.subscribe_resource("test://static/1"),
        ),
    )
    .await;
    first.unwrap();
    second.unwrap();
    for uri in ["test://static/0", "test://static/1"] {
        within(
            10_000,
            "touch",
            client.call_tool("touch", json!({ "uri": uri })),
        )
        .await
        .unwrap();
        until(5_000, "resource updated", || {
            notified(
                &events,
                &|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == uri),
            )
        })
        .await;
    }
}

/// How many `subscriptions/listen` streams the server has open now, of every client: asked
/// with a bare request of its own (no client, so no stream of its own).
async fn listen_streams_open() -> u32 {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let url = MODERN.expect("MCP_MODERN_URL was not set at build time");
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "listen_streams", "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let headers = web_sys::Headers::new().expect("headers");
    for (name, value) in [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "listen_streams"),
    ] {
        headers.set(name, value).expect("a header");
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&body.to_string().into());
    let window: web_sys::Window = js_sys::global().unchecked_into();
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .expect("listen_streams")
        .unchecked_into();
    let text = JsFuture::from(response.text().expect("a body"))
        .await
        .expect("its text")
        .as_string()
        .unwrap_or_default();
    let answer: Value = serde_json::from_str(&text).expect("JSON");
    answer["result"]["content"][0]["text"]
        .as_str()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a count: {answer}"))
}

/// Subscriptions made one after another (each once the stream before was acknowledged) and
/// an unsubscription each open the `subscriptions/listen` stream again with what is wanted
/// now: a 2026-07-28 server has no `resources/subscribe` or `resources/unsubscribe`. Each
/// stream replaced is closed once its successor is acknowledged: the client keeps one open.
#[wasm_bindgen_test]
async fn subscribing_in_turn_and_unsubscribing_reopen_the_listen_stream() {
    let before = listen_streams_open().await;
    let (client, events) = connect_logging_the_wire().await;
    for uri in ["test://static/0", "test://static/1"] {
        within(10_000, "subscribe", client.subscribe_resource(uri))
            .await
            .unwrap_or_else(|e| panic!("{uri}: {e}"));
    }
    within(
        10_000,
        "unsubscribe",
        client.unsubscribe_resource("test://static/0"),
    )
    .await
    .unwrap();
    let asked = || -> Vec<Value> {
        sent_messages(&events)
            .iter()
            .filter(|m| m["method"] == "subscriptions/listen")
            .map(|m| m["params"]["notifications"]["resourceSubscriptions"].clone())
            .collect()
    };
    until(5_000, "a stream for the resource left", || {
        asked().last() == Some(&json!(["test://static/1"]))
    })
    .await;
    assert_eq!(
        asked(),
        [
            Value::Null,
            json!(["test://static/0"]),
            json!(["test://static/0", "test://static/1"]),
            json!(["test://static/1"]),
        ]
    );
    let sent = sent_methods(&events);
    assert!(
        !sent
            .iter()
            .any(|m| m == "resources/subscribe" || m == "resources/unsubscribe"),
        "{sent:?}"
    );
    // The resource still subscribed to gets its updates on the new stream.
    within(
        10_000,
        "touch",
        client.call_tool("touch", json!({"uri": "test://static/1"})),
    )
    .await
    .unwrap();
    until(5_000, "resource updated", || {
        notified(
            &events,
            &|n| matches!(n, ServerNotification::ResourceUpdated(u) if u.uri == "test://static/1"),
        )
    })
    .await;
    within(10_000, "the streams replaced are closed", async {
        while listen_streams_open().await > before + 1 {
            gloo_timers::future::TimeoutFuture::new(50).await;
        }
    })
    .await;
    client.close();
}

#[wasm_bindgen_test]
async fn sampling_offers_tools_only_to_a_client_that_declared_them() {
    // This client declared plain sampling: it is not offered tools, and a request that
    // offers them anyway (`force`) is refused with an error, as the specification asks.
    let (client, _) = connect().await;
    let r = within(10_000, "weather", client.call_tool("weather", json!({})))
        .await
        .unwrap();
    assert_eq!(
        text(&r),
        "refused: the client did not declare sampling.tools"
    );
    let r = within(
        10_000,
        "weather (forced)",
        client.call_tool("weather", json!({"force": true})),
    )
    .await;
    match r {
        Err(ClientError::Request(RequestError::InputRefused(e))) => {
            assert_eq!(e.code, -32602);
            assert!(e.message.contains("sampling.tools"), "{}", e.message);
        }
        other => panic!("expected the request refused, got {other:?}"),
    }

    // This one declared `sampling.tools`: its handler calls the offered tool, and answers in
    // words once the tool's result comes back (where the tool may no longer be called).
    let Some(url) = MODERN else {
        panic!("MCP_MODERN_URL was not set at build time")
    };
    let mut o = ClientOptions::new(url);
    let asked = Rc::new(RefCell::new(Vec::<Value>::new()));
    let a = asked.clone();
    o.handlers = Handlers {
        sampling: Some(Rc::new(move |p: Value| {
            a.borrow_mut().push(p.clone());
            let answer = if p["toolChoice"]["mode"] == "none" {
                json!({"role": "assistant", "model": "m", "stopReason": "endTurn",
                       "content": {"type": "text", "text": "Mild."}})
            } else {
                json!({"role": "assistant", "model": "m", "stopReason": "toolUse",
                       "content": [{"type": "tool_use", "id": "u1", "name": "get_weather",
                                    "input": {"city": "Paris"}}]})
            };
            async move { Ok(answer) }.boxed_local()
        })),
        sampling_tools: true,
        ..Default::default()
    };
    let handlers = o.handlers.clone();
    let (client, _) = connect_with(o).await;
    let r = within(10_000, "weather", client.call_tool("weather", json!({})))
        .await
        .unwrap();
    assert_eq!(text(&r), "answer: Mild. (after tool calls for Paris)");
    client.close();

    // The same loop in a 2025-era session (the server speaks both): the capability goes in
    // `initialize`, and the requests come on the call's stream.
    let mut o = ClientOptions::new(url);
    o.era_hint = Some(Era::Legacy);
    o.handlers = handlers;
    let (legacy, _) = connect_with(o).await;
    assert_eq!(legacy.server().map(|d| d.era), Some(Era::Legacy));
    let r = within(
        10_000,
        "weather_legacy",
        legacy.call_tool("weather_legacy", json!({})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "answer: Mild. (after tool calls for Paris)");
    let asked = asked.borrow();
    assert_eq!(asked.len(), 4, "{asked:?}");
    assert_eq!(asked[3]["toolChoice"]["mode"], "none");
    assert_eq!(asked[0]["tools"][0]["name"], "get_weather");
    assert_eq!(asked[0]["toolChoice"]["mode"], "auto");
    // The second round carries the call and its result.
    let messages = asked[1]["messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(messages[1]["content"][0]["id"], "u1");
    assert_eq!(messages[2]["content"][0]["toolUseId"], "u1");
    assert_eq!(
        messages[2]["content"][0]["content"][0]["text"],
        "Weather in Paris: 18°C, partly cloudy"
    );
}

/// Sets its flag when dropped: tells a test that a future holding it was dropped.
struct SetOnDrop(Rc<std::cell::Cell<bool>>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

/// A 2025-era server that asks for input as a task (2025-11-25 tasks): the client answers
/// with a task at once and says it is working while the application's handler runs (asking
/// the task's state leaves the handler running); the server fetches what the task came to.
/// A task the server cancels says it is cancelled and its handler is stopped (its future
/// dropped, not left waiting for an answer nobody will read). A sampling request offering
/// tools, asked as a task of a client that did not declare `sampling.tools`, is refused at
/// once instead of run as a task.
#[wasm_bindgen_test]
async fn tasks_the_client_runs_for_the_server_and_one_the_server_cancels() {
    let Some(url) = MODERN else {
        panic!("MCP_MODERN_URL was not set at build time")
    };
    let stopped = Rc::new(std::cell::Cell::new(false));
    let asked = Rc::new(std::cell::Cell::new(0));
    // The first answer waits until the client has told the server the task is working.
    let (told_working, answer_now) = futures_channel::oneshot::channel::<()>();
    let answer_now = Rc::new(RefCell::new(Some(answer_now)));
    let sampled = Rc::new(std::cell::Cell::new(0));
    let (s, a, n) = (stopped.clone(), asked.clone(), sampled.clone());
    let mut o = ClientOptions::new(url);
    o.era_hint = Some(Era::Legacy);
    o.wire_log = true;
    o.handlers = Handlers {
        elicitation: Some(Rc::new(move |_| {
            a.set(a.get() + 1);
            let first = answer_now.borrow_mut().take();
            // Only the handler left waiting tells when it is dropped.
            let guard = first.is_none().then(|| SetOnDrop(s.clone()));
            async move {
                if let Some(now) = first {
                    let _ = now.await;
                    return Ok(json!({"action": "accept", "content": {"name": "Ada"}}));
                }
                let _guard = guard;
                // The user never answers.
                std::future::pending::<()>().await;
                Ok(json!({"action": "decline"}))
            }
            .boxed_local()
        })),
        sampling: Some(Rc::new(move |_| {
            n.set(n.get() + 1);
            async { Ok(json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "?"}})) }
                .boxed_local()
        })),
        ..Default::default()
    };
    let (client, _) = connect_with(o).await;
    assert_eq!(client.server().map(|d| d.era), Some(Era::Legacy));
    let told_working = RefCell::new(Some(told_working));
    client.on_event(move |e| {
        if let ClientEvent::Wire {
            sent: true,
            message,
            ..
        } = e
        {
            if message["result"]["status"] == "working" && message["result"].get("task").is_none() {
                if let Some(tx) = told_working.borrow_mut().take() {
                    let _ = tx.send(());
                }
            }
        }
    });
    let call = |cancel: bool| {
        within(
            10_000,
            "elicit_as_task",
            client.call_tool("elicit_as_task", json!({"cancel": cancel})),
        )
    };
    let said = text(&call(false).await.unwrap());
    let (states, created) = said.split_once('\n').unwrap_or((&said, ""));
    assert_eq!(states, "working working accept");
    // The task's creation time, on the wall clock (ISO 8601), just now.
    let age_ms = js_sys::Date::now() - js_sys::Date::parse(created);
    assert!((0.0..60_000.0).contains(&age_ms), "created {created:?}");
    assert!(!stopped.get());

    let said = text(&call(true).await.unwrap());
    assert_eq!(
        said.lines().next(),
        Some("working working cancelled cancelled")
    );
    assert_eq!(asked.get(), 2);
    until(2_000, "the handler is stopped", || stopped.get()).await;

    let r = within(
        10_000,
        "sample_as_task_offering_tools",
        client.call_tool("sample_as_task_offering_tools", json!({})),
    )
    .await
    .unwrap();
    assert_eq!(text(&r), "refused -32602");
    assert_eq!(sampled.get(), 0);
    client.close();
}
