//! The popup login: a window opened on the person's click, sent to the authorization
//! server, and a callback page on our origin that relays the answer back with
//! `postMessage(…, location.origin)`. Only messages from that window, from our own origin,
//! with the expected shape are accepted. The page also announces the answer on a
//! same-origin `BroadcastChannel`, which still arrives when the authorization server's
//! `Cross-Origin-Opener-Policy` cut the window off from its opener.

use super::AuthFailure;
use futures_channel::mpsc;
use futures_util::future::{select, Either};
use futures_util::StreamExt;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The `type` the callback page puts on its message.
pub const MESSAGE_TYPE: &str = "mcp-oauth-callback";
/// The `BroadcastChannel` the callback page also announces on.
pub const CHANNEL: &str = "mcp-oauth";
/// How long a person may take to log in.
const LOGIN_DEADLINE_MS: f64 = 10.0 * 60.0 * 1000.0;

/// An open login window.
pub(crate) struct Popup {
    window: web_sys::Window,
}

impl Popup {
    /// Opens an empty window now (while the click still counts as a user gesture); it is
    /// sent to the authorization server once discovery is done.
    pub fn open() -> Result<Popup, AuthFailure> {
        let w = web_sys::window().ok_or(AuthFailure::Browser("no window".into()))?;
        match w.open_with_url_and_target_and_features(
            "about:blank",
            "mcp-oauth-login",
            "popup,width=520,height=720",
        ) {
            Ok(Some(window)) => Ok(Popup { window }),
            _ => Err(AuthFailure::PopupBlocked),
        }
    }

    /// Sends the window to `url`.
    pub fn navigate(&self, url: &str) -> Result<(), AuthFailure> {
        self.window
            .location()
            .set_href(url)
            .map_err(|e| AuthFailure::Browser(crate::fetch::js_message(&e)))
    }

    /// Waits for the callback page's query string.
    pub async fn callback(&self) -> Result<String, AuthFailure> {
        let me = web_sys::window().ok_or(AuthFailure::Browser("no window".into()))?;
        let origin = me
            .location()
            .origin()
            .map_err(|e| AuthFailure::Browser(crate::fetch::js_message(&e)))?;
        let (tx, mut rx) = mpsc::unbounded::<String>();
        let tx2 = tx.clone();
        let source: JsValue = self.window.clone().into();
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if ev.origin() != origin {
                    return;
                }
                let from_popup = ev
                    .source()
                    .map(|s| js_sys::Object::is(&s.into(), &source))
                    .unwrap_or(false);
                if !from_popup {
                    return;
                }
                if let Some(q) = callback_query(&ev.data()) {
                    let _ = tx.unbounded_send(q);
                }
            });
        me.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref())
            .map_err(|e| AuthFailure::Browser(crate::fetch::js_message(&e)))?;
        // Same origin by construction; the flow's `state` check rejects foreign answers.
        let channel = web_sys::BroadcastChannel::new(CHANNEL).ok();
        let on_broadcast =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(q) = callback_query(&ev.data()) {
                    let _ = tx2.unbounded_send(q);
                }
            });
        if let Some(c) = &channel {
            c.set_onmessage(Some(on_broadcast.as_ref().unchecked_ref()));
        }
        let mut closed_since: Option<f64> = None;
        let started = js_sys::Date::now();
        let result = loop {
            let tick = gloo_timers::future::TimeoutFuture::new(400);
            match select(rx.next(), tick).await {
                Either::Left((Some(q), _)) => break Ok(q),
                Either::Left((None, _)) => break Err(AuthFailure::PopupClosed),
                Either::Right(_) => {
                    if self.window.closed().unwrap_or(true) {
                        // The answer may be on its way (posted just before closing, or on
                        // the channel after a COOP cut): allow it a moment.
                        let since = *closed_since.get_or_insert_with(js_sys::Date::now);
                        if js_sys::Date::now() - since > 1500.0 {
                            break Err(AuthFailure::PopupClosed);
                        }
                    }
                    if js_sys::Date::now() - started > LOGIN_DEADLINE_MS {
                        break Err(AuthFailure::PopupClosed);
                    }
                }
            }
        };
        let _ =
            me.remove_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        if let Some(c) = channel {
            c.set_onmessage(None);
            c.close();
        }
        result
    }

    /// Closes the window.
    pub fn close(&self) {
        let _ = self.window.close();
    }
}

/// The query string of a callback page message (`{type: MESSAGE_TYPE, query}`), if it is one.
fn callback_query(data: &JsValue) -> Option<String> {
    let get = |k: &str| {
        js_sys::Reflect::get(data, &k.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    (get("type").as_deref() == Some(MESSAGE_TYPE))
        .then(|| get("query"))
        .flatten()
}
