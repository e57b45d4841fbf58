//! The popup login: a window opened on the person's click, sent to the authorization
//! server, and a callback page on our origin that relays the answer back with
//! `postMessage(…, location.origin)`. Only messages from that window, from our own origin,
//! with the expected shape are accepted. The page also announces the answer on a
//! same-origin `BroadcastChannel`, which still arrives when the authorization server's
//! `Cross-Origin-Opener-Policy` cut the window off from its opener.
//!
//! Such a cut looks, from this page, exactly like a closed window (`closed` reads true). Two
//! things still tell them apart: a window closed on a page of our origin (the callback page,
//! or the blank page before it left) can still be read, and a window that read as closed
//! before it was ever seen open on another origin's page was cut off by the authorization
//! server's first page (no person closes a login window before it shows anything). Such a
//! cut window is still in front of the person: its answer is awaited on the channel until
//! the login deadline. A window closed later on another origin's page may have been closed
//! by the person or cut off by a later page (an identity provider the authorization server
//! sent the person on to); that cannot be known, and it counts as closed.

use super::AuthFailure;
use core::cell::Cell;
use futures_channel::mpsc;
use futures_util::future::{select, Either};
use futures_util::StreamExt;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The `type` the callback page puts on its message.
pub const MESSAGE_TYPE: &str = "mcp-oauth-callback";
/// The `BroadcastChannel` the callback page also announces on.
pub const CHANNEL: &str = "mcp-oauth";
/// The `type` of this page's word on the channel that the answer carrying its `state` was
/// taken by the login waiting for it (said at once, before the code is exchanged).
pub const TAKEN_TYPE: &str = "mcp-oauth-login-taken";
/// The `type` of this page's word on the channel that the login whose answer carried its
/// `state` ended: logged in, or failed with `error` (words for the person).
pub const ENDED_TYPE: &str = "mcp-oauth-login-ended";
/// How long a person may take to log in.
const LOGIN_DEADLINE_MS: f64 = 10.0 * 60.0 * 1000.0;
/// How long an answer may take to arrive once its window closed (posted just before).
const CLOSED_GRACE_MS: f64 = 1500.0;

/// An open login window.
pub(crate) struct Popup {
    window: web_sys::Window,
    /// Whether the window was seen open on another origin's page (the authorization server).
    seen_elsewhere: Cell<bool>,
    /// Whether the window was found cut off from this page (said once in the trace).
    cut_off: Cell<bool>,
    /// Whether the window stays open when this is dropped (a newer login took it over).
    left_open: Cell<bool>,
}

/// What this page can see of its login window.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sight {
    /// Open (on whichever page).
    Open,
    /// Closed: by the person or by the callback page once it relayed the answer.
    Closed,
    /// Cut off from this page by the authorization server's `Cross-Origin-Opener-Policy`,
    /// and still in front of the person.
    CutOff,
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
            Ok(Some(window)) => Ok(Popup {
                window,
                seen_elsewhere: Cell::new(false),
                cut_off: Cell::new(false),
                left_open: Cell::new(false),
            }),
            _ => Err(AuthFailure::PopupBlocked),
        }
    }

    /// The browser's window.
    pub fn window(&self) -> &web_sys::Window {
        &self.window
    }

    /// Whether `other` is this login's window (a window opened under the same name while
    /// this one is open is this one).
    pub fn is(&self, other: &web_sys::Window) -> bool {
        js_sys::Object::is(self.window.as_ref(), other.as_ref())
    }

    /// Leaves the window open when this is dropped: a newer login uses it.
    pub fn leave_open(&self) {
        self.left_open.set(true);
    }

    /// Sends the window to `url`.
    pub fn navigate(&self, url: &str) -> Result<(), AuthFailure> {
        self.window
            .location()
            .set_href(url)
            .map_err(|e| AuthFailure::Browser(crate::fetch::js_message(&e)))
    }

    /// What this page sees of the window now (see the module's doc for how a cut is told
    /// from a closed window); `trace` is told when the window is first seen on another
    /// origin's page.
    fn look(&self, trace: &dyn Fn(&str)) -> Sight {
        let closed = self.window.closed().unwrap_or(true);
        // Reading the address of another origin's page throws; so does reading it from a
        // window cut off from this page or closed on another origin's page.
        let target: &JsValue = self.window.as_ref();
        let readable = js_sys::Reflect::get(target, &"location".into())
            .and_then(|location| js_sys::Reflect::get(&location, &"href".into()))
            .is_ok();
        if !closed {
            if !readable && !self.seen_elsewhere.replace(true) {
                trace("the login window shows the authorization server's page");
            }
            return Sight::Open;
        }
        if readable || self.seen_elsewhere.get() {
            Sight::Closed
        } else {
            Sight::CutOff
        }
    }

    /// Waits for the callback page's query string; `trace` is told what this page sees of
    /// the window (on the authorization server's page; cut off from this page).
    pub async fn callback(&self, trace: &dyn Fn(&str)) -> Result<String, AuthFailure> {
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
        let _listening = Listening {
            page: me,
            on_message,
            channel,
            _on_broadcast: on_broadcast,
        };
        let mut closed_since: Option<f64> = None;
        let started = js_sys::Date::now();
        let result = loop {
            let tick = gloo_timers::future::TimeoutFuture::new(400);
            match select(rx.next(), tick).await {
                Either::Left((Some(q), _)) => break Ok(q),
                Either::Left((None, _)) => break Err(AuthFailure::PopupClosed),
                Either::Right(_) => {
                    match self.look(trace) {
                        Sight::Open => {}
                        Sight::Closed => {
                            // The answer may be on its way (posted just before closing, or
                            // on the channel after a cut by a later page): allow it a moment.
                            let since = *closed_since.get_or_insert_with(|| {
                                trace(&format!(
                                    "the login window is closed: its answer may still come within {} s",
                                    CLOSED_GRACE_MS / 1000.0
                                ));
                                js_sys::Date::now()
                            });
                            if js_sys::Date::now() - since > CLOSED_GRACE_MS {
                                break Err(AuthFailure::PopupClosed);
                            }
                        }
                        Sight::CutOff => {
                            if !self.cut_off.replace(true) {
                                trace(&format!(
                                    "the authorization server's page cut the login window off from this page (its Cross-Origin-Opener-Policy): its answer is awaited on the callback page's channel, for {} min at most",
                                    LOGIN_DEADLINE_MS / 60_000.0
                                ));
                            }
                        }
                    }
                    if js_sys::Date::now() - started > LOGIN_DEADLINE_MS {
                        break Err(AuthFailure::PopupClosed);
                    }
                }
            }
        };
        result
    }
}

/// A login given up (its future dropped: a connection closed or aborted while the person
/// logs in) closes its window too, unless a newer login took that window over.
impl Drop for Popup {
    fn drop(&mut self) {
        if !self.left_open.get() {
            let _ = self.window.close();
        }
    }
}

/// The listeners of one wait for the answer, taken off when the wait ends, also when it is
/// given up: one left behind would call a closure that no longer exists on every later
/// message to the page (an error each time), and its channel would stay open.
struct Listening {
    page: web_sys::Window,
    on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    channel: Option<web_sys::BroadcastChannel>,
    _on_broadcast: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.page.remove_event_listener_with_callback(
            "message",
            self.on_message.as_ref().unchecked_ref(),
        );
        if let Some(c) = &self.channel {
            c.set_onmessage(None);
            c.close();
        }
    }
}

/// Tells callback pages on the channel what became of the answer carrying `state`
/// (`kind`: [`TAKEN_TYPE`] or [`ENDED_TYPE`], with `error` when the login failed). A
/// callback page cut off from this page has no other way to learn it, and says it to the
/// person (logged in, or why not) instead of guessing; any other page ignores it.
pub(crate) fn tell_callback_page(kind: &str, state: &str, error: Option<&str>) {
    let Ok(channel) = web_sys::BroadcastChannel::new(CHANNEL) else {
        return;
    };
    let word = js_sys::Object::new();
    let fields = [
        ("type", Some(kind)),
        ("state", Some(state)),
        ("error", error),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            let _ = js_sys::Reflect::set(&word, &key.into(), &value.into());
        }
    }
    let _ = channel.post_message(&word);
    channel.close();
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
