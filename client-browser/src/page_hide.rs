//! Ends the connection when the person leaves the page: on `pagehide` the client is closed,
//! so that a legacy session is deleted and the calls under way are cancelled on the server
//! (the spec: clients that no longer need a session, "e.g., because the user is leaving the
//! client application", SHOULD send DELETE). Those requests go out with fetch's `keepalive`
//! (see `HttpRequest::keepalive`), so they outlive the page.
//!
//! A page kept in the back/forward cache (`persisted`) may come back as it was: it is left
//! connected. A page that is discarded from that cache gets no further event; its session
//! ends when the server forgets it.

use crate::driver::Inner;
use std::rc::{Rc, Weak};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The page's `pagehide` listener of one client; removed when dropped (with the client).
pub(crate) struct PageHideListener {
    window: web_sys::Window,
    on_hide: Closure<dyn FnMut(web_sys::Event)>,
}

impl PageHideListener {
    /// Closes the client of `inner` when the page is left for good. None where there is no
    /// window (a worker) or the listener cannot be added.
    pub(crate) fn watch(inner: &Rc<Inner>) -> Option<PageHideListener> {
        let window = web_sys::window()?;
        let weak: Weak<Inner> = Rc::downgrade(inner);
        let on_hide = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let kept_in_cache = event
                .dyn_ref::<web_sys::PageTransitionEvent>()
                .is_some_and(|e| e.persisted());
            if kept_in_cache {
                return;
            }
            if let Some(inner) = weak.upgrade() {
                inner.close();
            }
        });
        window
            .add_event_listener_with_callback("pagehide", on_hide.as_ref().unchecked_ref())
            .ok()?;
        Some(PageHideListener { window, on_hide })
    }
}

impl Drop for PageHideListener {
    fn drop(&mut self) {
        let _ = self
            .window
            .remove_event_listener_with_callback("pagehide", self.on_hide.as_ref().unchecked_ref());
    }
}
