//! The browser's connection limit over plain HTTP. Browsers open at most six HTTP/1.1
//! connections to one server, and every long-lived stream of ours (a 2025-era session's GET
//! stream, a 2026-07-28 `subscriptions/listen` stream) holds one of them for as long as it is
//! open. Six tabs of an app (or six clients in a page) connected to one local `http://` server
//! leave the seventh waiting for a connection that never frees: its requests are not even
//! sent. Nothing tells a page so; a request just hangs until its time limit.
//!
//! Worse, six streams leave no connection for anybody's requests: six connected tabs could
//! not call a tool at all.
//!
//! So each stream to an `http://` server holds a Web Lock named for that server while it is
//! open, and `navigator.locks.query()` counts them across every page of this origin:
//! - a 2025-era session's GET stream, which the session can do without for a while, waits
//!   while it would take the last free connection, and opens once a stream closes: the last
//!   connection stays free for requests;
//! - a request there that has had no answer for [`STALLED_AFTER_MS`] while six or more
//!   streams are open says why it waits ([`crate::ClientEvent::ConnectionsBusy`]). That is
//!   left to happen with 2026-07-28 `subscriptions/listen` streams, which do not wait: a
//!   stream being replaced stays open until its successor is acknowledged, and a successor
//!   waiting for a place the page's own old stream holds would wait for ever.
//!
//! `https://` servers are not counted: they speak HTTP/2 (or HTTP/3) in practice, where one
//! connection carries every request. Pages of other origins (another app, another host page)
//! are not seen: where they hold the connections, nothing is said.

use crate::driver::Inner;
use crate::locks::{self, HeldLock};
use client_core::http::TransportFailure;
use futures_util::future::{select, Either};
use std::future::Future;
use std::rc::Weak;

/// The connections a browser opens to one server over HTTP/1.1 (Chromium, Firefox, Safari).
pub const BROWSER_LIMIT: usize = 6;
/// How long a request to an `http://` server waits for its answer before the streams are
/// counted.
pub const STALLED_AFTER_MS: u32 = 5_000;
/// The start of the Web Lock name of a stream (followed by the server's origin and a space).
const STREAM_LOCK_PREFIX: &str = "mcp-stream ";
/// The start of the Web Lock name taken to count the streams and take a place among them
/// (followed by the server's origin).
const TURN_LOCK_PREFIX: &str = "mcp-stream-turn ";

/// The origin (`http://host:port`) of `url` if requests to it share the HTTP/1.1 connection
/// limit (plain `http://`), else `None`.
pub fn limited_origin(url: &str) -> Option<String> {
    let rest = url.strip_prefix("http://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(format!("http://{}", rest[..end].to_ascii_lowercase()))
}

/// Marks a long-lived stream to `url` for every page of this origin to count, as long as the
/// returned lock is held. `None` for servers whose connections are not limited.
pub(crate) async fn mark_stream(url: &str) -> Option<HeldLock> {
    let origin = limited_origin(url)?;
    // Unique per stream: held at once, never waited for.
    let name = format!(
        "{STREAM_LOCK_PREFIX}{origin} {}",
        js_sys::Math::random().to_bits()
    );
    Some(locks::acquire(&name).await)
}

/// Marks a stream that may wait ([`client_core::http::HttpRequest::may_wait`]: a 2025-era
/// session's standalone GET stream) once it leaves a connection to the server free for
/// requests: while the streams of this origin's pages hold all but one of the connections the
/// browser opens to it, it waits (the listeners are told once), and opens when one closes.
/// Without this, six tabs on one server would leave none of them a connection for calls.
/// Ends with an error once the exchange is aborted or the client is gone.
pub(crate) async fn mark_stream_leaving_one_free(
    weak: &Weak<Inner>,
    url: &str,
    signal: &web_sys::AbortSignal,
) -> Result<Option<HeldLock>, TransportFailure> {
    let Some(origin) = limited_origin(url) else {
        return Ok(None);
    };
    let mut told = false;
    loop {
        {
            // One page at a time counts and takes its place (two counting at once could both
            // see room for one, and take the last free connection between them).
            let _turn = locks::acquire(&format!("{TURN_LOCK_PREFIX}{origin}")).await;
            let streams = streams_to(&origin).await;
            if streams < BROWSER_LIMIT - 1 {
                return Ok(mark_stream(url).await);
            }
            if !told {
                told = true;
                if let Some(inner) = weak.upgrade() {
                    inner.emit(crate::ClientEvent::Warning(stream_waits(&origin, streams)));
                }
            }
        }
        // Counted again every 2 s (checking for the end of the exchange meanwhile).
        for _ in 0..20 {
            gloo_timers::future::TimeoutFuture::new(100).await;
            if signal.aborted() || weak.strong_count() == 0 {
                return Err(TransportFailure::Aborted);
            }
        }
    }
}

/// Why the stream of a 2025-era session waits, in words.
fn stream_waits(server: &str, streams: usize) -> String {
    format!(
        "what {server} sends of its own accord (list changes, its requests) waits: browsers open \
         at most {BROWSER_LIMIT} connections to one server over plain HTTP (HTTP/1.1), and \
         {streams} streams from pages of this site hold all but the one left for requests. This \
         connection's stream opens once one of them closes."
    )
}

/// How many streams to `origin` the pages of this origin hold now.
async fn streams_to(origin: &str) -> usize {
    let prefix = format!("{STREAM_LOCK_PREFIX}{origin} ");
    locks::held_names()
        .await
        .iter()
        .filter(|name| name.starts_with(&prefix))
        .count()
}

/// Awaits `sent` (a request to `url` on its way). If it has not been answered after
/// [`STALLED_AFTER_MS`] and streams hold every connection the browser opens to that server,
/// the client's listeners hear [`crate::ClientEvent::ConnectionsBusy`]; the request goes on
/// waiting either way.
pub(crate) async fn watched<F: Future>(weak: &Weak<Inner>, url: &str, sent: F) -> F::Output {
    let Some(origin) = limited_origin(url) else {
        return sent.await;
    };
    let sent = std::pin::pin!(sent);
    let timer = gloo_timers::future::TimeoutFuture::new(STALLED_AFTER_MS);
    match select(sent, timer).await {
        Either::Left((answer, _)) => answer,
        Either::Right(((), sent)) => {
            let weak = weak.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let streams = streams_to(&origin).await;
                if streams >= BROWSER_LIMIT {
                    if let Some(inner) = weak.upgrade() {
                        inner.emit(crate::ClientEvent::ConnectionsBusy {
                            server: origin,
                            streams,
                        });
                    }
                }
            });
            sent.await
        }
    }
}

/// What [`crate::ClientEvent::ConnectionsBusy`] means, in words a person can act on.
pub fn explain(server: &str, streams: usize) -> String {
    format!(
        "no answer yet from {server}, most likely for want of a connection: browsers open at \
         most {BROWSER_LIMIT} connections to one server over plain HTTP (HTTP/1.1), and {streams} \
         streams from pages of this site (this one and others, such as other tabs of this app) \
         hold them. Close a tab or a connection to that server to free one; a server served over \
         HTTPS (HTTP/2) has no such limit."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_servers_are_limited() {
        assert_eq!(
            limited_origin("http://127.0.0.1:3000/mcp").as_deref(),
            Some("http://127.0.0.1:3000")
        );
        assert_eq!(
            limited_origin("http://LocalHost:8080?x=/y").as_deref(),
            Some("http://localhost:8080")
        );
        assert_eq!(
            limited_origin("http://example.com").as_deref(),
            Some("http://example.com")
        );
        assert_eq!(limited_origin("https://example.com/mcp"), None);
        assert_eq!(limited_origin("ws://127.0.0.1:3000/ws"), None);
    }

    #[test]
    fn the_explanation_names_the_server_the_limit_and_the_count() {
        let text = explain("http://127.0.0.1:3000", 7);
        assert!(text.contains("http://127.0.0.1:3000"), "{text}");
        assert!(text.contains("at most 6 connections"), "{text}");
        assert!(text.contains("7 streams"), "{text}");
    }
}
