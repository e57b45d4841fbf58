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
//! - a stream the session can do without for a while (the core marks it
//!   [`client_core::http::HttpRequest::may_wait`]: a 2025-era session's GET stream, a
//!   2026-07-28 `subscriptions/listen` stream) waits while it would take the last free
//!   connection, and opens once a stream closes: the last connection stays free for
//!   requests. A listen stream that replaces one still open does not wait: its predecessor
//!   closes only once it is acknowledged, so held back it would wait for the place its own
//!   predecessor holds; it takes one more connection for the moment of the handover;
//! - a request there that has had no answer for [`STALLED_AFTER_MS`] while six or more
//!   streams are open says why it waits ([`crate::ClientEvent::ConnectionsBusy`]): streams
//!   that cannot wait (the 2024-11-05 HTTP+SSE transport's, which carries every answer)
//!   can still take them all.
//!
//! `https://` servers are not counted: they speak HTTP/2 (or HTTP/3) in practice, where one
//! connection carries every request. Pages of other origins (another app, another host page)
//! are not seen: where they hold the connections, nothing is said.

use crate::driver::Inner;
use crate::locks::{self, HeldLock};
use client_core::http::TransportFailure;
use futures_channel::oneshot;
use futures_util::future::{select, Either};
use litemap::LiteMap;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

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
    let url = client_core::weburl::parse(url).ok()?;
    (url.scheme() == "http").then(|| url.origin())
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
/// session's standalone GET stream, a first `subscriptions/listen` stream) once it leaves a
/// connection to the server free for requests: while the streams of this origin's pages hold
/// all but one of the connections the browser opens to it, it waits (the listeners are told
/// once), and opens when one closes.
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
    let mut waiting: Option<HeldBackGuard> = None;
    let mut abort_watch: Option<AbortWatch> = None;
    loop {
        {
            // One page at a time counts and takes its place (two counting at once could both
            // see room for one, and take the last free connection between them).
            let _turn = locks::acquire(&format!("{TURN_LOCK_PREFIX}{origin}")).await;
            let streams = streams_to(&origin).await;
            if streams < BROWSER_LIMIT - 1 {
                return Ok(mark_stream(url).await);
            }
            if waiting.is_none() {
                if let Some(inner) = weak.upgrade() {
                    waiting = Some(HeldBackGuard::start(&inner, &origin, streams));
                    inner.emit(crate::ClientEvent::Warning(stream_waits(&origin, streams)));
                }
            }
        }
        // Counted again every 2 s; the end of the exchange ends the wait at once.
        let watch = abort_watch.get_or_insert_with(|| AbortWatch::new(signal));
        if watch.aborted_within(2_000).await || weak.strong_count() == 0 {
            return Err(TransportFailure::Aborted);
        }
    }
}

/// Hears the end of an exchange (its signal's `abort` event) until dropped.
struct AbortWatch {
    signal: web_sys::AbortSignal,
    listener: Closure<dyn FnMut()>,
    aborted: oneshot::Receiver<()>,
}

impl AbortWatch {
    fn new(signal: &web_sys::AbortSignal) -> AbortWatch {
        let (tx, aborted) = oneshot::channel();
        let mut tx = Some(tx);
        let listener = Closure::<dyn FnMut()>::new(move || {
            if let Some(tx) = tx.take() {
                let _ = tx.send(());
            }
        });
        // Where the listener cannot be added, the signal is still read after each wait.
        let _ = signal.add_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        AbortWatch {
            signal: signal.clone(),
            listener,
            aborted,
        }
    }

    /// Waits `ms`, or until the exchange is aborted if that comes first: true if it is.
    async fn aborted_within(&mut self, ms: u32) -> bool {
        if self.signal.aborted() {
            return true;
        }
        let timer = gloo_timers::future::TimeoutFuture::new(ms);
        match select(&mut self.aborted, timer).await {
            Either::Left((heard, _)) => heard.is_ok() || self.signal.aborted(),
            Either::Right(_) => self.signal.aborted(),
        }
    }
}

impl Drop for AbortWatch {
    fn drop(&mut self) {
        let _ = self
            .signal
            .remove_event_listener_with_callback("abort", self.listener.as_ref().unchecked_ref());
    }
}

/// Whether a client's stream is held back for want of a free connection, for what needs
/// that stream (a resource subscription of a 2026-07-28 connection is acknowledged on it).
#[derive(Default)]
pub(crate) struct HeldBack {
    /// The server's origin and the streams counted, while a stream is held back.
    now: Option<(String, usize)>,
    /// Told once a stream is held back.
    hearing: Vec<oneshot::Sender<(String, usize)>>,
}

/// A stream held back, until dropped.
struct HeldBackGuard(Weak<Inner>);

impl HeldBackGuard {
    fn start(inner: &Rc<Inner>, origin: &str, streams: usize) -> HeldBackGuard {
        let mut held = inner.held_back.borrow_mut();
        held.now = Some((origin.to_string(), streams));
        for hearing in held.hearing.drain(..) {
            let _ = hearing.send((origin.to_string(), streams));
        }
        HeldBackGuard(Rc::downgrade(inner))
    }
}

impl Drop for HeldBackGuard {
    fn drop(&mut self) {
        if let Some(inner) = self.0.upgrade() {
            inner.held_back.borrow_mut().now = None;
        }
    }
}

/// Resolves once a stream of the client of `inner` is held back for want of a free
/// connection (at once if one is): the server's origin and the streams counted.
pub(crate) async fn held_back(inner: &Inner) -> (String, usize) {
    let heard = {
        let mut held = inner.held_back.borrow_mut();
        if let Some(now) = &held.now {
            return now.clone();
        }
        let (tx, rx) = oneshot::channel();
        held.hearing.retain(|h| !h.is_canceled());
        held.hearing.push(tx);
        rx
    };
    match heard.await {
        Ok(why) => why,
        // The client is gone: never.
        Err(_) => futures_util::future::pending().await,
    }
}

/// Why a subscription cannot be made now, in words: the stream it is acknowledged on waits.
pub fn subscription_waits(server: &str, streams: usize) -> String {
    format!(
        "a resource subscription is made on this connection's notification stream, which waits \
         for a free connection: browsers open at most {BROWSER_LIMIT} connections to one server \
         over plain HTTP (HTTP/1.1), and {streams} streams from pages of this site hold all but \
         the one left for requests ({server}). Close a tab or a connection to that server, then \
         subscribe again."
    )
}

/// Why a connection's stream waits, in words.
fn stream_waits(server: &str, streams: usize) -> String {
    format!(
        "what {server} sends of its own accord (list changes, resource updates, its requests) \
         waits: browsers open at most {BROWSER_LIMIT} connections to one server over plain HTTP \
         (HTTP/1.1), and {streams} streams from pages of this site hold all but the one left \
         for requests. This connection's stream opens once one of them closes."
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

/// A request to a limited server waiting for its answer, watched until dropped.
pub(crate) struct Watching(u64);

impl Drop for Watching {
    fn drop(&mut self) {
        WATCHED.with(|w| w.borrow_mut().requests.remove(&self.0));
    }
}

/// The requests watched in this page, and the one timer that looks at them.
///
/// One timer for all, ticking every second while requests are watched (and a few seconds
/// more), rather than a timer per request: a timer set and cleared per call costs sequential
/// calls a few per cent (measured side by side).
#[derive(Default)]
struct Watched {
    next: u64,
    requests: LiteMap<u64, Watch>,
    ticking: Option<gloo_timers::callback::Interval>,
    idle_ticks: u32,
}

struct Watch {
    since_ms: f64,
    origin: String,
    client: Weak<Inner>,
    looked_at: bool,
}

thread_local! {
    static WATCHED: RefCell<Watched> = RefCell::default();
}

/// How often the watched requests are looked at.
const TICK_MS: u32 = 1_000;
/// Ticks with nothing watched before the timer stops.
const IDLE_TICKS: u32 = 5;

/// Watches a request to `url` on its way until the returned value is dropped (once it is
/// answered). If it is not answered within [`STALLED_AFTER_MS`] (a second more at most) and
/// streams hold every connection the browser opens to that server, the client's listeners
/// hear [`crate::ClientEvent::ConnectionsBusy`]; the request goes on waiting either way.
/// `None` for servers whose connections are not limited.
pub(crate) fn watch(weak: &Weak<Inner>, url: &str) -> Option<Watching> {
    let origin = limited_origin(url)?;
    WATCHED.with(|w| {
        let mut w = w.borrow_mut();
        let id = w.next;
        w.next += 1;
        w.requests.insert(
            id,
            Watch {
                since_ms: js_sys::Date::now(),
                origin,
                client: weak.clone(),
                looked_at: false,
            },
        );
        w.idle_ticks = 0;
        if w.ticking.is_none() {
            w.ticking = Some(gloo_timers::callback::Interval::new(TICK_MS, tick));
        }
        Some(Watching(id))
    })
}

/// Looks at the watched requests: those waiting longer than [`STALLED_AFTER_MS`] have the
/// streams to their server counted (once each).
fn tick() {
    let now = js_sys::Date::now();
    let stalled: Vec<(String, Weak<Inner>)> = WATCHED.with(|w| {
        let mut w = w.borrow_mut();
        if w.requests.is_empty() {
            w.idle_ticks += 1;
            if w.idle_ticks >= IDLE_TICKS {
                // Dropped later, not inside its own call.
                if let Some(timer) = w.ticking.take() {
                    wasm_bindgen_futures::spawn_local(async move { drop(timer) });
                }
            }
            return Vec::new();
        }
        w.requests
            .iter_mut()
            .filter(|(_, r)| !r.looked_at && now - r.since_ms >= f64::from(STALLED_AFTER_MS))
            .map(|(_, r)| {
                r.looked_at = true;
                (r.origin.clone(), r.client.clone())
            })
            .collect()
    });
    for (origin, client) in stalled {
        wasm_bindgen_futures::spawn_local(async move {
            let streams = streams_to(&origin).await;
            if streams >= BROWSER_LIMIT {
                if let Some(inner) = client.upgrade() {
                    inner.emit(crate::ClientEvent::ConnectionsBusy {
                        server: origin,
                        streams,
                    });
                }
            }
        });
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
        // So do the words for a subscription and for a stream that wait.
        for text in [
            subscription_waits("http://127.0.0.1:3000", 5),
            stream_waits("http://127.0.0.1:3000", 5),
        ] {
            assert!(text.contains("http://127.0.0.1:3000"), "{text}");
            assert!(text.contains("at most 6 connections"), "{text}");
            assert!(text.contains("5 streams"), "{text}");
        }
        assert!(subscription_waits("s", 5).ends_with("then subscribe again."));
        assert!(stream_waits("s", 5).ends_with("once one of them closes."));
    }
}
