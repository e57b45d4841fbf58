//! Refresh tokens that a page of this origin used up, told to the others through Web Locks.
//!
//! Pages that share their refresh token refresh one at a time, under a Web Lock, and each
//! takes the newest token from `localStorage` once it has the lock (see
//! [`super::Authorizer`]). But Chromium brings one page's `localStorage` writes to the others
//! on a path of its own, not ordered with Web Locks: the page granted the lock may still read
//! the token the page before it just used up (measured with a probe: about a third of reads
//! made right after a lock was handed over were stale; see [`locks::hold_mark`]). Refreshing
//! with it would make many authorization servers revoke the whole grant, for every page.
//!
//! So a page that refreshed holds a lock named for the refresh token it used (its SHA-256,
//! never the token) from before it lets the refresh lock go until it closes. The next page
//! asks the lock manager, which answers in order with the handover, whether its token is
//! marked so, and if so waits for its storage to bring the newer one.

use crate::locks;
use futures_channel::mpsc;
use futures_util::future::{select, Either};
use futures_util::StreamExt;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The name of the mark of `refresh_token`, used up at the server at `server_url`.
fn mark_name(server_url: &str, refresh_token: &str) -> String {
    let fingerprint = client_core::oauth::pkce::s256(refresh_token);
    format!("mcp-oauth/v1/spent {server_url} {fingerprint}")
}

/// Marks `refresh_token` used up, for the other pages of this origin, while this page is open.
pub async fn mark(server_url: &str, refresh_token: &str) {
    locks::hold_mark(&mark_name(server_url, refresh_token)).await;
}

/// True when a page of this origin that is still open used `refresh_token` up.
pub async fn is_spent(server_url: &str, refresh_token: &str) -> bool {
    locks::is_held(&mark_name(server_url, refresh_token)).await
}

/// Hears `localStorage` changes made by other pages of this origin (their `storage` events)
/// from its creation until it is dropped.
pub struct StorageWatch {
    window: web_sys::Window,
    listener: Closure<dyn FnMut()>,
    changes: mpsc::UnboundedReceiver<()>,
}

impl StorageWatch {
    /// Starts listening; `None` where the page cannot (not a window).
    pub fn new() -> Option<StorageWatch> {
        let window = js_sys::global().dyn_into::<web_sys::Window>().ok()?;
        let (tx, changes) = mpsc::unbounded::<()>();
        let listener = Closure::<dyn FnMut()>::new(move || {
            let _ = tx.unbounded_send(());
        });
        window
            .add_event_listener_with_callback("storage", listener.as_ref().unchecked_ref())
            .ok()?;
        Some(StorageWatch {
            window,
            listener,
            changes,
        })
    }

    /// Waits for the next change (one heard already counts), for at most `within_ms`: false
    /// when the time ran out first.
    pub async fn changed(&mut self, within_ms: u32) -> bool {
        let timer = gloo_timers::future::TimeoutFuture::new(within_ms);
        matches!(
            select(self.changes.next(), timer).await,
            Either::Left((Some(()), _))
        )
    }
}

impl Drop for StorageWatch {
    fn drop(&mut self) {
        let _ = self
            .window
            .remove_event_listener_with_callback("storage", self.listener.as_ref().unchecked_ref());
    }
}
