//! A tool's MCP App: its View (the `ui://` resource's HTML) in a sandboxed frame under the
//! result, talking with the app through `postMessage`, and what it said beside it. The
//! conversation's rules are in [`crate::mcp_app`]; this component reads the View, shows it,
//! carries messages both ways and makes on the server the calls the View asks for.

use crate::components::asks::UrlToOpen;
use crate::components::result_view::ContentView;
use crate::connection::{AskKind, Connection, OnLeave};
use crate::mcp_app::{self, Action, Bridge, DisplayMode, Ending, Permission, Said, Surroundings};
use client_browser::client_core::session::RequestError;
use client_browser::client_core::types::{ContentBlock, KnownContent, Tool};
use client_browser::{Client, ClientError};
use leptos::prelude::*;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The most things a View said that are shown (the oldest go first).
const SAID_SHOWN: usize = 50;
/// How long a View shown may stay silent before the app says it has not started.
const START_WAIT_MS: u64 = 8_000;
/// The largest message of a View read, as JSON text; a larger one is dropped.
const MAX_MESSAGE: u32 = 8 << 20;

/// A number for each View shown, to tell them apart in their connection's
/// [`Connection::view_leaves`].
static NEXT_SHOWN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The View's page, read and ready to be loaded in its frame.
#[derive(Clone)]
struct Page {
    /// Its HTML, with the policy it is shown with.
    document: String,
    border: bool,
    /// What its settings ask for (`_meta.ui.permissions`), whether it can be given or not.
    asked: Vec<Permission>,
}

impl Page {
    /// What the person is asked about: what of `asked` a View here can have.
    fn to_ask(&self) -> Vec<Permission> {
        mcp_app::permissions::grantable(&self.asked)
    }

    /// What its frame gets, the person having `allowed` it or not.
    fn granted(&self, allowed: bool) -> Vec<Permission> {
        if allowed {
            self.to_ask()
        } else {
            Vec::new()
        }
    }

    /// Shown, loaded in its frame, with what the person `allowed` (told to the View's
    /// `bridge`).
    fn load(self, allowed: bool, bridge: &mut Bridge) -> Shown {
        let granted = self.granted(allowed);
        bridge.grant(granted.clone());
        Shown::Ready {
            page: self,
            granted,
        }
    }

    /// Where its frame loads it from: as `srcdoc` once granted something (a `data:` document
    /// is no secure context: see [`mcp_app::permissions`]), else as usual.
    fn source(self, granted: &[Permission]) -> mcp_app::FrameSource {
        if granted.is_empty() {
            mcp_app::frame_source(self.document)
        } else {
            mcp_app::FrameSource::Document(self.document)
        }
    }
}

/// What the frame shows.
#[derive(Clone)]
enum Shown {
    Reading,
    Failed(String),
    /// The page asks for browser capabilities it can have that the person has not answered
    /// for yet on this connection: the frame waits for their answer (its policy is fixed when
    /// it loads).
    Asking(Page),
    /// Loaded, its frame allowed `granted`.
    Ready {
        page: Page,
        granted: Vec<Permission>,
    },
}

/// The View of `tool`'s app for a call made with `arguments`, from the moment it is made,
/// shown while `visible` (else hidden, still running); `ending` is how the call ended, once it
/// has. Once `retiring` (the tool was called again, or too many Views are kept),
/// or closed (by the person, or at its own request), it is hidden and asked to tear down
/// (`ui/resource-teardown`); `on_gone` runs when it has answered, or after
/// [`mcp_app::TEARDOWN_WAIT_MS`], or at once if it was never ready.
#[component]
pub fn AppView(
    conn: Connection,
    tool: Tool,
    arguments: Value,
    /// The JSON-RPC id the call went out with, if known.
    call_id: Option<Value>,
    ending: Signal<Option<Ending>>,
    retiring: Signal<Option<&'static str>>,
    visible: Signal<bool>,
    /// Safe to call at any time, even after the View is gone (a timer may).
    on_gone: Rc<dyn Fn()>,
) -> impl IntoView {
    let Some(uri) = mcp_app::resource_uri(&tool).map(str::to_string) else {
        return ().into_any();
    };
    let label = tool.title.clone().unwrap_or_else(|| tool.name.clone());
    let title = format!("App of {label}");
    let shown = RwSignal::new(Shown::Reading);
    let height = RwSignal::new(None::<f64>);
    let said = RwSignal::new(Vec::<Said>::new());
    // Whether the View sent more messages than its budget (said once, above the list).
    let flooded = RwSignal::new(false);
    // How the View is shown: inline, or full screen or picture-in-picture (it asked; the
    // person can always bring it back inline).
    let mode = RwSignal::new(DisplayMode::Inline);
    // Tells this View from the others of its connection (its leave, its picture-in-picture).
    let shown_as = NEXT_SHOWN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let pip_view = conn.pip_view;
    // Why the View was closed, if it was: by the person ("Close"), or at its own request.
    let closed_by = RwSignal::new(None::<&'static str>);
    // A memo: the teardown below is asked once, when the View starts to leave.
    let leaving =
        Memo::new(move |_| retiring.with(Option::is_some) || closed_by.with(Option::is_some));
    let frame = NodeRef::<leptos::html::Iframe>::new();
    // Whether the View has sent anything; if not, START_WAIT_MS after it is shown, the app
    // says so (a View that never stops running holds the others: they share a process).
    let heard = Rc::new(Cell::new(false));
    let silent = RwSignal::new(false);
    let heard_by_timer = heard.clone();
    let bridge = Rc::new(RefCell::new(None::<Bridge>));
    let bridge_kept = bridge.clone();
    let (client, bridge_for_read) = (conn.client.get_value(), bridge.clone());
    let read_uri = uri.clone();
    let listed = ListedSettings {
        kept: conn.listed_view_settings,
        changed: conn.resources_changed,
    };
    let answers = conn.app_permissions;
    leptos::task::spawn_local(async move {
        let Some(client) = client else {
            return;
        };
        let read = client.read_resource(&read_uri).await;
        let outcome = read.map_err(|e| crate::doctor::explain(&e)).and_then(|r| {
            let contents = r
                .contents
                .into_iter()
                .next()
                .ok_or(mcp_app::ViewError::NoContents.to_string())?;
            let html = mcp_app::html_of(&contents).map_err(|e| e.to_string())?;
            Ok((contents.meta, html))
        });
        let next = match outcome {
            Ok((meta, html)) => {
                // The View's settings as read, else as listed (where SDKs put them).
                let mut ui = mcp_app::ui_of(meta.as_ref()).cloned();
                if ui.is_none() {
                    ui = listed_settings(&listed, &client, &read_uri).await;
                }
                let ui = ui.as_ref();
                let csp = ui.and_then(|u| u.get("csp"));
                let border = ui
                    .and_then(|u| u.get("prefersBorder"))
                    .and_then(Value::as_bool)
                    .unwrap_or(true);
                let policy = mcp_app::content_security_policy(csp);
                let asked = mcp_app::permissions::requested(ui);
                let mut bridge =
                    Bridge::new(tool, arguments, mcp_app::approved_csp(csp)).with_call_id(call_id);
                // Ended already: the View is told once it is ready (not a later call's ending).
                let current = retiring
                    .try_with_untracked(Option::is_none)
                    .unwrap_or(false)
                    && closed_by
                        .try_with_untracked(Option::is_none)
                        .unwrap_or(false);
                if let Some(end) = ending.try_get_untracked().flatten().filter(|_| current) {
                    bridge.end(end);
                }
                let page = Page {
                    document: mcp_app::with_policy(&html, &policy),
                    border,
                    asked,
                };
                // Answered before on this connection (or nothing to ask): loaded at once.
                let to_ask = page.to_ask();
                let answered = answers
                    .try_with_value(|a| a.answer_for(&read_uri, &to_ask))
                    .flatten();
                let answered = answered.or(to_ask.is_empty().then_some(false));
                let next = match answered {
                    Some(allowed) => page.load(allowed, &mut bridge),
                    None => Shown::Asking(page),
                };
                *bridge_for_read.borrow_mut() = Some(bridge);
                next
            }
            Err(why) => Shown::Failed(why),
        };
        let ready = matches!(next, Shown::Ready { .. });
        let _ = shown.try_set(next);
        if ready {
            watch_silence(heard_by_timer, silent);
        }
    });
    // The person's answer to what the page asks for: kept for the connection, and the
    // frame loaded with it.
    let bridge_for_answer = bridge.clone();
    let heard_for_answer = heard.clone();
    let answered_uri = uri.clone();
    let answer_asked = move |allowed: bool| {
        let Some(Shown::Asking(page)) = shown.try_get_untracked() else {
            return;
        };
        answers.try_update_value(|a| a.record(&answered_uri, &page.to_ask(), allowed));
        // The bridge is made before the question is shown.
        let next = bridge_for_answer
            .borrow_mut()
            .as_mut()
            .map(|b| page.load(allowed, b));
        if let Some(next) = next {
            let _ = shown.try_set(next);
            watch_silence(heard_for_answer.clone(), silent);
        }
    };
    let answer_asked = send_wrapper::SendWrapper::new(answer_asked);

    // What the View said: the newest SAID_SHOWN are listed.
    let show = move |s: Said| {
        said.try_update(|list| {
            list.push(s);
            let over = list.len().saturating_sub(SAID_SHOWN);
            list.drain(..over);
        });
    };
    let tools = conn.tools;
    let client = conn.client;
    let time_limit = conn.time_limit;
    // The sampling request of this View waiting for the person (its ask's id; the bridge
    // lets one through at a time): it goes with the View.
    let (asker, asking) = (conn.clone(), format!("The app of {label}"));
    let waiting = RwSignal::new(None::<u32>);
    // Messages of this View (and only this one: its frame's window is the source).
    let gone_by_answer = on_gone.clone();
    // Set while the View is asked to tear down because its server view goes: what to run once
    // it answered (see `Connection::leave`), instead of `on_gone` (the connection still
    // keeps the View, to be shown again when its server is).
    let leave_done = Rc::new(RefCell::new(None::<Rc<dyn Fn()>>));
    let leave_answered = leave_done.clone();
    let budget = RefCell::new(mcp_app::MessageBudget::default());
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(window) = view_window(frame) else {
                return;
            };
            let from_view = ev
                .source()
                .is_some_and(|s| js_sys::Object::is(&s, window.as_ref()));
            if !from_view {
                return;
            }
            if !heard.replace(true) {
                let _ = silent.try_set(false);
            }
            // Counted before its data is read: a flood costs the page little.
            match budget.borrow_mut().take(js_sys::Date::now()) {
                mcp_app::Budget::Take => {}
                mcp_app::Budget::DropFirst => {
                    let _ = flooded.try_set(true);
                    return;
                }
                mcp_app::Budget::Drop => return,
            }
            let Some(message) = message_json(&ev.data()) else {
                return;
            };
            let actions = {
                let mut slot = bridge.borrow_mut();
                let Some(b) = slot.as_mut() else { return };
                // The tool list borrowed, not copied; the surroundings read only when asked.
                let around = move || surroundings(frame);
                tools
                    .try_with_untracked(|listed| b.on_message(&message, listed, &around))
                    .unwrap_or_default()
            };
            for action in actions {
                match action {
                    Action::Post(m) => post(&window, &m),
                    Action::TornDown => {
                        let left = leave_answered.borrow_mut().take();
                        match left {
                            Some(done) => done(),
                            None => gone_by_answer(),
                        }
                    }
                    Action::Close => {
                        closed_by.try_update(|c| {
                            c.get_or_insert("the app asked to be closed");
                        });
                    }
                    Action::Mode(m) => {
                        let _ = mode.try_set(m);
                        // One View of a connection in picture-in-picture: the one before
                        // goes back inline (see below).
                        if m == DisplayMode::Pip {
                            let _ = pip_view.try_set(Some(shown_as));
                        }
                    }
                    Action::Resize(h) => {
                        let _ = height.try_set(Some(h));
                    }
                    Action::Show(s) => show(s),
                    Action::CallTool {
                        id,
                        name,
                        arguments,
                    } => {
                        let Some(client) = client.try_get_value().flatten() else {
                            answer(&bridge, &window, &id, Err(closed()));
                            continue;
                        };
                        let opts = crate::time_limit::call_options(
                            time_limit
                                .try_get_untracked()
                                .unwrap_or(crate::time_limit::DEFAULT_SECS),
                        );
                        let call = client.start_tool_call(&name, arguments, opts);
                        let (bridge, window) = (bridge.clone(), window.clone());
                        leptos::task::spawn_local(async move {
                            let outcome = call.await.map_err(|e| as_rpc_error(&e));
                            answer(&bridge, &window, &id, outcome);
                        });
                    }
                    Action::Sample { id, params } => {
                        let (ask, reply) =
                            asker.ask(AskKind::Sampling(*params), Some(asking.clone()));
                        let _ = waiting.try_set(Some(ask));
                        let (bridge, window) = (bridge.clone(), window.clone());
                        leptos::task::spawn_local(async move {
                            let outcome = reply.await.map_err(|e| (e.code, e.message));
                            let _ = waiting.try_set(None);
                            answer(&bridge, &window, &id, outcome);
                        });
                    }
                    Action::Ask { id, method, params } => {
                        let Some(client) = client.try_get_value().flatten() else {
                            answer(&bridge, &window, &id, Err(closed()));
                            continue;
                        };
                        let (bridge, window) = (bridge.clone(), window.clone());
                        leptos::task::spawn_local(async move {
                            let outcome = ask_for_view(&client, &method, params).await;
                            answer(&bridge, &window, &id, outcome);
                        });
                    }
                }
            }
        });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    }
    // Its server view about to go: asked to tear down, and waited for (up to
    // TEARDOWN_WAIT_MS) before that view goes.
    let on_leave: OnLeave = {
        let (bridge, leave_done) = (bridge_kept.clone(), leave_done.clone());
        Rc::new(move |reason, done| {
            let waited = leave_done.clone();
            let asked = ask_teardown(frame, &bridge, reason, move || {
                let left = waited.borrow_mut().take();
                if let Some(done) = left {
                    done();
                }
            });
            if asked {
                *leave_done.borrow_mut() = Some(done);
            }
            asked
        })
    };
    let view_leaves = conn.view_leaves;
    view_leaves.update_value(|v| v.push((shown_as, on_leave)));
    let leave_done = send_wrapper::SendWrapper::new(leave_done);
    on_cleanup(move || {
        view_leaves.try_update_value(|v| v.retain(|(n, _)| *n != shown_as));
        // Gone before it answered: nothing left to wait for.
        let left = leave_done.borrow_mut().take();
        if let Some(done) = left {
            done();
        }
    });
    // The listener goes with the View (the closure is kept until then), and so do the
    // questions it asked the person.
    let on_message = send_wrapper::SendWrapper::new(on_message);
    let asks = conn.asks;
    on_cleanup(move || {
        if let Some(gone) = waiting.try_get_untracked().flatten() {
            asks.try_update(|a| a.retain(|x| x.id != gone));
        }
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                "message",
                on_message.as_ref().unchecked_ref(),
            );
        }
    });

    // The colours change while the View is shown (chosen in the app, or the system's): a
    // ready View is told.
    let bridge_for_theme = bridge_kept.clone();
    let on_theme = Closure::<dyn Fn()>::new(move || {
        let around = surroundings(frame);
        tell(frame, &bridge_for_theme, |b| {
            b.theme_changed(around.theme, around.styles)
        });
    });
    let system = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback(
            crate::theme::CHANGED_EVENT,
            on_theme.as_ref().unchecked_ref(),
        );
    }
    if let Some(m) = &system {
        let _ = m.add_event_listener_with_callback("change", on_theme.as_ref().unchecked_ref());
    }
    let theme_listener = send_wrapper::SendWrapper::new((on_theme, system));
    on_cleanup(move || {
        let (on_theme, system) = &*theme_listener;
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(
                crate::theme::CHANGED_EVENT,
                on_theme.as_ref().unchecked_ref(),
            );
        }
        if let Some(m) = system {
            let _ =
                m.remove_event_listener_with_callback("change", on_theme.as_ref().unchecked_ref());
        }
    });
    // The frame's size changes (the window resized, the View shown another way): a ready
    // View is told its container's dimensions.
    let bridge_for_size = bridge_kept.clone();
    let on_resize = Closure::<dyn Fn()>::new(move || {
        let Some(element) = frame.try_get_untracked().flatten() else {
            return;
        };
        let (width, height) = (element.client_width(), element.client_height());
        tell(frame, &bridge_for_size, |b| {
            b.resized(f64::from(width), f64::from(height))
        });
    });
    let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
    let observing = send_wrapper::SendWrapper::new(observer.clone());
    Effect::new(move |_| {
        if let (Some(element), Some(observer)) = (frame.get(), observing.as_ref()) {
            observer.observe(&element);
        }
    });
    let resize_kept = send_wrapper::SendWrapper::new((observer, on_resize));
    on_cleanup(move || {
        if let Some(observer) = &resize_kept.0 {
            observer.disconnect();
        }
    });
    // The server's lists change while the View is shown (the tools listed again, or the
    // server said its resources or prompts changed): a ready View is told.
    let (tool_list, resources_changed, prompts_changed) =
        (conn.tools, conn.resources_changed, conn.prompts_changed);
    for (kind, changed) in [
        ("tools", Signal::derive(move || tool_list.track())),
        (
            "resources",
            Signal::derive(move || resources_changed.track()),
        ),
        ("prompts", Signal::derive(move || prompts_changed.track())),
    ] {
        let bridge = bridge_kept.clone();
        Effect::watch(
            move || changed.track(),
            move |_, _, _| tell(frame, &bridge, |b| b.list_changed(kind)),
            false,
        );
    }
    // The call ends while the View is shown: it is told (now, or once it is ready).
    let bridge_for_end = bridge_kept.clone();
    Effect::new(move |_| {
        let Some(end) = ending.get() else { return };
        if retiring.with_untracked(Option::is_none) && closed_by.with_untracked(Option::is_none) {
            tell(frame, &bridge_for_end, |b| b.end(end));
        }
    });
    // Called again, or closed: this View is asked to tear down, and goes once it answered (or
    // after a while, or at once if it never said it was ready).
    let bridge_for_teardown = bridge_kept.clone();
    Effect::new(move |_| {
        if !leaving.get() {
            return;
        }
        let Some(reason) = closed_by.get_untracked().or(retiring.get_untracked()) else {
            return;
        };
        let gone = on_gone.clone();
        if !ask_teardown(frame, &bridge_for_teardown, reason, move || gone()) {
            on_gone();
        }
    });
    // Back inline ("Exit full screen", "Back inline", or another View of the connection in
    // picture-in-picture now), and the View is told.
    let bridge_for_exit = bridge_kept.clone();
    let back_inline = move || {
        let _ = mode.try_set(DisplayMode::Inline);
        if pip_view.try_get_untracked().flatten() == Some(shown_as) {
            let _ = pip_view.try_set(None);
        }
        tell(frame, &bridge_for_exit, |b| b.set_mode(DisplayMode::Inline));
    };
    let other_in_pip = back_inline.clone();
    Effect::new(move |_| {
        let other = pip_view.with(|p| p.is_some_and(|n| n != shown_as));
        if other && mode.get_untracked() == DisplayMode::Pip {
            other_in_pip();
        }
    });
    on_cleanup(move || {
        if pip_view.try_get_untracked().flatten() == Some(shown_as) {
            let _ = pip_view.try_set(None);
        }
    });
    let back_inline = send_wrapper::SendWrapper::new(back_inline);
    let go_inline = back_inline.clone();
    let frame_title = title.clone();
    view! {
        <section class="mcp-app" class:retiring=move || leaving.get() class:fullscreen=move || mode.get() == DisplayMode::Fullscreen class:pip=move || mode.get() == DisplayMode::Pip hidden=move || !visible.get() && mode.get() != DisplayMode::Pip aria-label=title>
            <h4>"App " <span class="app-uri">{crate::bidi::contained(&uri).into_owned()}</span> " "
                <button type="button" class="close-app" on:click=move |_| closed_by.set(Some("closed by the person"))>"Close"</button>
                {move || {
                    let (class, label) = match mode.get() {
                        DisplayMode::Inline => return None,
                        DisplayMode::Fullscreen => ("exit-fullscreen", "Exit full screen"),
                        DisplayMode::Pip => ("exit-pip", "Back inline"),
                    };
                    let back = back_inline.clone();
                    Some(view! { " " <button type="button" class=class on:click=move |_| back()>{label}</button> })
                }}
            </h4>
            {move || match shown.get() {
                Shown::Reading => view! { <p class="hint" role="status">"Reading the app…"</p> }.into_any(),
                Shown::Failed(why) => view! { <p class="call-error" role="alert">"The app cannot be shown: " {why}</p> }.into_any(),
                Shown::Asking(page) => {
                    let (allow, deny) = (answer_asked.clone(), answer_asked.clone());
                    view! {
                        <div class="app-permissions" role="group" aria-label="What the app asks for">
                            <p>"The app asks to use " {mcp_app::permissions::listed(&page.to_ask())} ". "
                                "If you allow it, the browser may ask you too, in this page's name."</p>
                            {cannot_have(&page.asked)}
                            <button type="button" class="allow-permissions" on:click=move |_| allow(true)>"Allow"</button> " "
                            <button type="button" class="deny-permissions" on:click=move |_| deny(false)>"Show it without"</button>
                        </div>
                    }.into_any()
                }
                Shown::Ready { page, granted } => {
                    let allow = mcp_app::permissions::allow_attribute(&granted);
                    let to_ask = page.to_ask();
                    let note = (!to_ask.is_empty()).then(|| {
                        let what = mcp_app::permissions::listed(&to_ask);
                        let note = if granted.is_empty() {
                            format!("Asked to use {what}: not allowed (your answer, for this connection).")
                        } else {
                            format!("Allowed to use {what} (your answer, for this connection).")
                        };
                        view! { <p class="app-granted" role="status">{note}</p> }
                    });
                    let cannot = cannot_have(&page.asked);
                    let border = page.border;
                    let (src, srcdoc) = match page.source(&granted) {
                        mcp_app::FrameSource::Url(url) => (Some(url), None),
                        mcp_app::FrameSource::Document(document) => (None, Some(document)),
                    };
                    view! {
                    {note}
                    {cannot}
                    <iframe
                        class="app-frame"
                        class:bordered=border
                        node_ref=frame
                        title=frame_title.clone()
                        sandbox="allow-scripts allow-forms"
                        allow=allow
                        referrerpolicy="no-referrer"
                        src=src
                        srcdoc=srcdoc
                        style:height=move || height.get().filter(|_| mode.get() != DisplayMode::Fullscreen).map(|h| format!("{h}px"))
                    ></iframe>
                    }.into_any()
                }
            }}
            // Its question is shown above, with the server's: out of sight from here, and
            // behind a View shown full screen.
            {move || waiting.get().map(|ask| {
                let back = go_inline.clone();
                let go = move |_| {
                    if mode.get_untracked() == DisplayMode::Fullscreen {
                        back();
                    }
                    focus_reply(ask);
                };
                view! {
                    <p class="app-asks" role="status">"Asks for a model reply: the question is shown above, with the server's. "
                        <button type="button" class="show-question" on:click=go>"Go to it"</button>
                    </p>
                }
            })}
            {move || silent.get().then(|| view! {
                <p class="app-silent" role="status">{format!("The app has said nothing to this client in the {} s since it was shown. If it should have: the apps of this page share one browser process, and one that never stops running holds the others until the page is loaded again.", START_WAIT_MS / 1000)}</p>
            })}
            <p class="help">"The app runs in a sandbox: it cannot reach this page, and asks this client for any tool call, which is listed here."</p>
            {move || flooded.get().then(|| view! {
                <p class="said-flood" role="status">{format!("Sends more than {} messages a second: the others are ignored", mcp_app::MAX_MESSAGES_PER_SECOND)}</p>
            })}
            <ul class="app-said">
                {move || said.get().into_iter().map(|s| view! { <li>{said_view(s)}</li> }).collect_view()}
            </ul>
        </section>
    }
    .into_any()
}

/// What of `asked` a View shown here cannot have, said to the person, if any.
fn cannot_have(asked: &[Permission]) -> Option<impl IntoView> {
    let cannot = mcp_app::permissions::not_grantable(asked);
    (!cannot.is_empty()).then(|| {
        view! {
            <p class="app-cannot-have">{format!(
                "Asked for, but no app shown here can have it: {}. The browser gives a camera or a microphone only to a frame with an origin of its own, and this client, with no server, has none to give.",
                mcp_app::permissions::listed(&cannot)
            )}</p>
        }
    })
}

/// Marks the View `silent` if it has not been `heard` from [`START_WAIT_MS`] from now (it was
/// just loaded).
fn watch_silence(heard: Rc<Cell<bool>>, silent: RwSignal<bool>) {
    set_timeout(
        move || {
            if !heard.get() {
                let _ = silent.try_set(true);
            }
        },
        std::time::Duration::from_millis(START_WAIT_MS),
    );
}

/// One thing the View said, as shown.
fn said_view(s: Said) -> AnyView {
    match s {
        Said::Log(level, text) => view! { <span class="said-log">"Log (" <bdi>{crate::bidi::contained(&level).into_owned()}</bdi> "): " {text}</span> }.into_any(),
        Said::Message(text) => view! { <span class="said-message">"Message for the conversation: " {text}</span> }.into_any(),
        Said::Context(text) => view! { <span class="said-context">"Context for the model: " {text}</span> }.into_any(),
        Said::Link(url) => view! { <span class="said-link">"Asks to open a web page:"</span> <UrlToOpen url=url on_open=|| () /> }.into_any(),
        Said::Called(name, true) => view! { <span class="said-call">"Called the tool " <code>{crate::bidi::contained(&name).into_owned()}</code></span> }.into_any(),
        Said::Called(name, false) => view! { <span class="said-call refused">"Was refused the tool " <code>{crate::bidi::contained(&name).into_owned()}</code> " (not for apps)"</span> }.into_any(),
        // Saved only when the person chooses to.
        Said::Download(files) => view! {
            <span class="said-download">"Offers to download:"</span>
            <ul class="offered-files">
                {files.into_iter().map(|block| view! { <li><OfferedFile block=block /></li> }).collect_view()}
            </ul>
        }.into_any(),
    }
}

/// A file a View offers: an embedded resource with its name, type, size and "Download"; a
/// resource link as a result shows one (read on demand).
#[component]
fn OfferedFile(block: ContentBlock) -> impl IntoView {
    let ContentBlock::Known(KnownContent::Resource(embedded)) = block else {
        return view! { <ContentView block=block /> }.into_any();
    };
    let c = embedded.resource;
    let name = crate::components::resources::file_name_of(&c.uri, "file");
    let mime = c
        .mime_type
        .clone()
        .unwrap_or_else(|| "application/octet-stream".into());
    let bytes = match (&c.text, &c.blob) {
        (Some(t), _) => t.len(),
        (None, Some(b)) => crate::mcp_app::document::base64_decoded_len(b),
        (None, None) => 0,
    };
    let (shown_name, shown_mime) = (
        crate::bidi::contained(&name).into_owned(),
        crate::bidi::contained(&mime).into_owned(),
    );
    let save = move |_| match (&c.text, &c.blob) {
        (Some(text), _) => crate::components::logs::download_text(&name, &mime, text),
        (None, Some(blob)) => crate::components::resources::download_base64(&name, &mime, blob),
        (None, None) => {}
    };
    view! {
        <span class="offered-file"><bdi>{shown_name}</bdi> " (" <bdi>{shown_mime}</bdi> {format!(", {bytes} bytes)")}</span> " "
        <button type="button" class="download-file" on:click=save>"Download"</button>
    }
    .into_any()
}

/// Puts the focus (and so the page's scroll) on the reply box of the person's open sampling
/// question `ask`.
fn focus_reply(ask: u32) {
    let reply = leptos::prelude::document().get_element_by_id(&format!("sampling-reply-{ask}"));
    if let Some(reply) = reply.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = reply.focus();
    }
}

/// A View's message as JSON, unless it is too large or not JSON at all.
fn message_json(data: &JsValue) -> Option<Value> {
    if !data.is_object() {
        return None;
    }
    let text = js_sys::JSON::stringify(data).ok()?;
    if text.length() > MAX_MESSAGE {
        return None;
    }
    serde_json::from_str(&String::from(text)).ok()
}

/// The window of the View's frame, while it is there.
fn view_window(frame: NodeRef<leptos::html::Iframe>) -> Option<web_sys::Window> {
    frame
        .try_get_untracked()
        .flatten()
        .and_then(|f| f.content_window())
}

/// Posts to the View the messages `step` of its bridge (if it has one yet) gives.
fn tell(
    frame: NodeRef<leptos::html::Iframe>,
    bridge: &Rc<RefCell<Option<Bridge>>>,
    step: impl FnOnce(&mut Bridge) -> Vec<Action>,
) {
    let Some(actions) = bridge.borrow_mut().as_mut().map(step) else {
        return;
    };
    if let Some(window) = view_window(frame) {
        for action in actions {
            if let Action::Post(m) = action {
                post(&window, &m);
            }
        }
    }
}

/// Asks the View to tear down (`ui/resource-teardown`, for `reason`) and runs `after_wait`
/// once it has had [`mcp_app::TEARDOWN_WAIT_MS`] to answer. False when it was not asked (not
/// ready, asked already, or its frame gone): there is nothing to wait for.
fn ask_teardown(
    frame: NodeRef<leptos::html::Iframe>,
    bridge: &Rc<RefCell<Option<Bridge>>>,
    reason: &str,
    after_wait: impl FnOnce() + 'static,
) -> bool {
    let ask = bridge
        .borrow_mut()
        .as_mut()
        .and_then(|b| b.teardown(reason));
    let (Some(ask), Some(window)) = (ask, view_window(frame)) else {
        return false;
    };
    post(&window, &ask);
    set_timeout(
        after_wait,
        std::time::Duration::from_millis(u64::from(mcp_app::TEARDOWN_WAIT_MS)),
    );
    true
}

/// Posts `message` to the View. Its origin is opaque, so the target origin is `*`.
fn post(window: &web_sys::Window, message: &Value) {
    let Ok(text) = serde_json::to_string(message) else {
        return;
    };
    if let Ok(value) = js_sys::JSON::parse(&text) {
        let _ = window.post_message(&value, "*");
    }
}

/// Answers the View's request `id` with what the server said.
fn answer(
    bridge: &Rc<RefCell<Option<Bridge>>>,
    window: &web_sys::Window,
    id: &Value,
    outcome: Result<Value, (i64, String)>,
) {
    let reply = bridge.borrow_mut().as_mut().map(|b| b.answer(id, outcome));
    if let Some(reply) = reply {
        post(window, &reply);
    }
}

/// The error a View gets for a request made after its connection was closed.
fn closed() -> (i64, String) {
    (-32603, "the connection to the server is closed".into())
}

/// A failed request as the JSON-RPC error the View gets: the server's own, or an internal
/// error saying why in words.
fn as_rpc_error(e: &ClientError) -> (i64, String) {
    match e {
        ClientError::Request(RequestError::Rpc(rpc)) => (rpc.code, rpc.message.clone()),
        other => (-32603, crate::doctor::explain(other)),
    }
}

/// Asks the server `method` for the View: its answer as it came.
async fn ask_for_view(
    client: &Client,
    method: &str,
    params: Value,
) -> Result<Value, (i64, String)> {
    client
        .request(method, Some(params))
        .await
        .map_err(|e| as_rpc_error(&e))
}

/// Where the View is shown: the page's colours (and the app's style variables), the
/// browser's language and time zone, the frame's width, the device's touch and hover.
fn surroundings(frame: NodeRef<leptos::html::Iframe>) -> Surroundings {
    let window = web_sys::window();
    let element = frame.try_get_untracked().flatten();
    // The colours chosen for the app (a class on the page's root, or on the element's own
    // root when embedded), else the system's.
    let chosen = element
        .as_ref()
        .and_then(|f| f.closest(".theme-dark, .theme-light").ok().flatten())
        .map(|e| e.class_list().contains("theme-dark"));
    let dark = chosen.unwrap_or_else(|| {
        window
            .as_ref()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches())
    });
    let locale = window
        .as_ref()
        .and_then(|w| w.navigator().language())
        .unwrap_or_else(|| "en".into());
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new())
        .resolved_options();
    let time_zone = js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "UTC".into());
    let width = element
        .as_ref()
        .map(|f| f64::from(f.client_width()))
        .unwrap_or(0.0);
    // The person just acted in the View itself: the browser's transient activation, with the
    // focus in the View's frame (a click on Run or on a tab is not a request for full screen).
    let in_view = element.as_ref().is_some_and(|f| {
        let focused = window
            .as_ref()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element());
        focused.is_some_and(|a| js_sys::Object::is(a.as_ref(), f.as_ref()))
    });
    let user_activated = in_view
        && window
            .as_ref()
            .is_some_and(|w| w.navigator().user_activation().is_active());
    // The app's colours and font where the View is shown (the element's, when embedded).
    let computed = element
        .as_ref()
        .zip(window.as_ref())
        .and_then(|(f, w)| w.get_computed_style(f).ok().flatten());
    let styles = mcp_app::host_styles(|property| {
        computed
            .as_ref()
            .and_then(|c| c.get_property_value(property).ok())
            .unwrap_or_default()
    });
    let touch = window
        .as_ref()
        .is_some_and(|w| w.navigator().max_touch_points() > 0);
    let hover = window
        .as_ref()
        .and_then(|w| w.match_media("(hover: hover)").ok().flatten())
        .is_some_and(|m| m.matches());
    Surroundings {
        user_activated,
        styles,
        touch,
        hover,
        theme: if dark { "dark" } else { "light" },
        locale,
        time_zone,
        width,
    }
}

/// Where a connection keeps the View settings its resource list gave, and the count of the
/// server's "resources changed" that says whether they are still current.
struct ListedSettings {
    kept: StoredValue<Option<(u32, BTreeMap<String, Value>)>>,
    changed: RwSignal<u32>,
}

/// The View settings (`_meta.ui`) the server's resource list gives `uri`, where the
/// resource's contents carry none (the TypeScript SDK puts them on the list entry only). The
/// list is asked for once per connection, and again once the server says its resources
/// changed: not for each View shown (a new View is made at each call, and again when its
/// server is chosen again).
async fn listed_settings(listed: &ListedSettings, client: &Client, uri: &str) -> Option<Value> {
    let now = listed.changed.try_get_untracked()?;
    let kept = listed.kept.try_with_value(|k| match k {
        Some((at, settings)) if *at == now => Some(settings.get(uri).cloned()),
        _ => None,
    });
    if let Some(Some(found)) = kept {
        return found;
    }
    let resources = client.list_resources().await.ok()?;
    let settings: BTreeMap<String, Value> = resources
        .iter()
        .filter_map(|r| Some((r.uri.clone(), mcp_app::ui_of(r.meta.as_ref())?.clone())))
        .collect();
    let found = settings.get(uri).cloned();
    listed.kept.try_set_value(Some((now, settings)));
    found
}
