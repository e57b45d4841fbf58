//! Helpers shared by the browser tests.
#![allow(dead_code)]

use client_browser::client_core::types::CallToolResult;
use client_browser::{Client, ClientEvent};
use futures_util::future::{select, Either};
use serde_json::Value;
use std::cell::RefCell;
use std::future::Future;

/// Fails the test instead of hanging when `fut` takes longer than `ms`.
pub async fn within<T>(ms: u32, what: &str, fut: impl Future<Output = T>) -> T {
    let timeout = gloo_timers::future::TimeoutFuture::new(ms);
    match select(Box::pin(fut), timeout).await {
        Either::Left((v, _)) => v,
        Either::Right(_) => panic!("timed out after {ms} ms: {what}"),
    }
}

/// Polls `check` every 20 ms until it holds or `ms` pass.
pub async fn until(ms: u32, what: &str, check: impl Fn() -> bool) {
    within(ms, what, async {
        while !check() {
            gloo_timers::future::TimeoutFuture::new(20).await;
        }
    })
    .await
}

/// The text blocks of a tool result, joined by newlines.
pub fn text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The messages a client's wire log (its `ClientEvent::Wire` events among `events`) shows it
/// sent, in order.
pub fn sent_messages(events: &RefCell<Vec<ClientEvent>>) -> Vec<Value> {
    events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ClientEvent::Wire {
                sent: true,
                message,
                ..
            } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// The methods a client's wire log shows it sent, in order.
pub fn sent_methods(events: &RefCell<Vec<ClientEvent>>) -> Vec<String> {
    sent_messages(events)
        .iter()
        .filter_map(|m| m["method"].as_str().map(String::from))
        .collect()
}

/// The params of each message of `method` a client's wire log shows it sent, in order.
pub fn sent_params(events: &RefCell<Vec<ClientEvent>>, method: &str) -> Vec<Value> {
    sent_messages(events)
        .into_iter()
        .filter(|m| m["method"] == method)
        .map(|m| m["params"].clone())
        .collect()
}

/// The URIs of every resource `client` lists (each page followed, within 10 s); `what` names
/// the listing if it fails.
pub async fn resource_uris(client: &Client, what: &str) -> Vec<String> {
    let all = within(10_000, what, client.list_resources()).await;
    let all = all.unwrap_or_else(|e| panic!("{what}: {e}"));
    all.into_iter().map(|r| r.uri).collect()
}

/// The names of the Web Locks held now by the pages of this origin, and of those asked for
/// and waited for (`navigator.locks.query()`).
pub async fn lock_names() -> (Vec<String>, Vec<String>) {
    use wasm_bindgen::JsCast;
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap();
    let locks = js_sys::Reflect::get(&navigator, &"locks".into()).unwrap();
    let query: js_sys::Function = js_sys::Reflect::get(&locks, &"query".into())
        .unwrap()
        .unchecked_into();
    let promise: js_sys::Promise = query.call0(&locks).unwrap().unchecked_into();
    let snapshot = wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    let names = |field: &str| {
        let list: js_sys::Array = js_sys::Reflect::get(&snapshot, &field.into())
            .unwrap()
            .unchecked_into();
        list.iter()
            .filter_map(|l| js_sys::Reflect::get(&l, &"name".into()).ok()?.as_string())
            .collect::<Vec<_>>()
    };
    (names("held"), names("pending"))
}
