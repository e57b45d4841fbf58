//! OAuth in the browser layer (`client_browser::auth` and the `Client`'s retries after a
//! refusal), in headless Chromium against a real authorization server (npm oidc-provider,
//! `tests/peers/auth_server.mjs`) and protected MCP servers (`tests/peers/auth_gateway.mjs`
//! in front of npm server-everything; another requires DPoP-bound tokens, a third a scope
//! more for tool calls; a fourth, of another authorization server, DPoP nonces as that
//! authorization server does).
//!
//! The login window is a real one (`window.open`). The test plays the person's part and the
//! callback page's: once the window is back on the redirect URI (`tests/oauth-callback.html`,
//! which the test runner serves from this crate's directory) with the authorization server's
//! answer, it runs the app's callback page script (`www/oauth-callback.js`) there, which
//! relays the answer to this page.

#![cfg(target_arch = "wasm32")]

use client_browser::{
    AuthFailure, Authorizer, Client, ClientError, ClientEvent, ClientOptions, LoginMode,
    OAuthOptions, TokenStorage,
};
use futures_util::future::{join, join3, join_all, select, Either};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The protected MCP server (Bearer tokens).
const GATEWAY: Option<&str> = option_env!("MCP_OAUTH_URL");
/// The protected MCP server that requires DPoP-bound tokens.
const DPOP_GATEWAY: Option<&str> = option_env!("MCP_OAUTH_DPOP_URL");
/// The protected MCP server whose tool calls need a scope more than its other requests.
const STEP_UP_GATEWAY: Option<&str> = option_env!("MCP_OAUTH_STEP_UP_URL");
/// The authorization server.
const AUTH_SERVER: Option<&str> = option_env!("MCP_AUTH_SERVER_URL");
/// An authorization server that requires DPoP nonces at its token endpoint.
const AUTH_SERVER_NONCE: Option<&str> = option_env!("MCP_AUTH_SERVER_NONCE_URL");
/// A protected MCP server (of [`AUTH_SERVER_NONCE`]) that requires DPoP-bound tokens and its
/// nonces in every proof, a new one after every four requests.
const DPOP_NONCE_GATEWAY: Option<&str> = option_env!("MCP_OAUTH_DPOP_NONCE_URL");
/// A protected MCP server whose challenge names resource metadata that answers without CORS
/// headers (the page cannot read it); its well-known metadata is readable.
const METADATA_WITHOUT_CORS: Option<&str> = option_env!("MCP_OAUTH_METADATA_WITHOUT_CORS_URL");
/// A hostile protected MCP server whose answers to the authorization flow never end
/// (`tests/peers/endless_answers.mjs`).
const ENDLESS: Option<&str> = option_env!("MCP_OAUTH_ENDLESS_URL");

/// An authorization server whose login waits for the test's word and whose pages cut a login
/// window off from the page that opened it (`Cross-Origin-Opener-Policy`; the test can turn
/// that off): `tests/peers/auth_server.mjs` in its `coop` mode.
const AUTH_SERVER_COOP: Option<&str> = option_env!("MCP_AUTH_SERVER_COOP_URL");
/// A protected MCP server of [`AUTH_SERVER_COOP`].
const COOP_GATEWAY: Option<&str> = option_env!("MCP_OAUTH_COOP_URL");

/// The app's callback page script, run in the login window by the test.
const CALLBACK_SCRIPT: &str = include_str!("../../www/oauth-callback.js");

fn gateway() -> &'static str {
    GATEWAY.expect("MCP_OAUTH_URL not set")
}

fn dpop_gateway() -> &'static str {
    DPOP_GATEWAY.expect("MCP_OAUTH_DPOP_URL not set")
}

fn step_up_gateway() -> &'static str {
    STEP_UP_GATEWAY.expect("MCP_OAUTH_STEP_UP_URL not set")
}

/// This page's origin.
fn origin() -> String {
    web_sys::window().unwrap().location().origin().unwrap()
}

/// The redirect URI: a page of this origin (see the module's doc).
fn callback_url() -> String {
    format!("{}/tests/oauth-callback.html", origin())
}

/// Login options for these tests: the test's callback page, local servers allowed.
fn oauth_options(mode: LoginMode, storage: TokenStorage) -> OAuthOptions {
    OAuthOptions {
        redirect_uri: callback_url(),
        client_name: "client-browser OAuth test".into(),
        metadata_document_url: None,
        preregistered: Vec::new(),
        storage,
        mode,
        allow_local: true,
        max_attempts: 3,
        auto_login: true,
    }
}

/// A client of `url` that authorizes with `auth`, its events collected.
fn client_of(url: &str, auth: &Rc<Authorizer>) -> (Client, Rc<RefCell<Vec<ClientEvent>>>) {
    let mut options = ClientOptions::new(url);
    options.auth = Some(auth.clone());
    let client = Client::new(options);
    let events = Rc::new(RefCell::new(Vec::new()));
    let seen = events.clone();
    client.on_event(move |e| seen.borrow_mut().push(e.clone()));
    (client, events)
}

/// The windows this page opened so far, in order: `window.open` is wrapped (once, on the
/// first call) to keep each window it returns.
fn opened_windows() -> js_sys::Array {
    let install = js_sys::Function::new_no_args(
        "if (!window.__openedWindows) {
           const open = window.open.bind(window);
           window.__openedWindows = [];
           window.open = (...args) => { const w = open(...args); window.__openedWindows.push(w); return w; };
         }
         return window.__openedWindows;",
    );
    install.call0(&JsValue::NULL).unwrap().unchecked_into()
}

/// What the person does once the login window is back on the redirect URI.
#[derive(Clone, Copy, PartialEq)]
enum Person {
    /// Lets the callback page relay the answer.
    Approves,
    /// Lets an answer for another login arrive first (a foreign `state`, on the callback
    /// page's `BroadcastChannel`); once the client ignored it, lets the callback page relay
    /// the real answer.
    LetsAForeignAnswerComeFirst,
    /// Closes the window without letting the callback page run.
    ClosesTheWindow,
    /// Closes the window without letting the callback page run; once the client saw it
    /// closed, the answer comes on the callback page's channel (as from a callback page that
    /// relayed it just before it was closed, or cut off by a later page).
    ClosesTheWindowAndTheAnswerComesAfter,
    /// Refuses the login: the answer (`access_denied`, with the login's `state` and
    /// issuer) comes from a callback page without an opener, as from a window cut off from
    /// this page; that page must then say why the login did not complete.
    RefusesInAWindowCutOffFromThisPage,
    /// Lets messages that are not the login window's answer arrive first (one this page
    /// posts itself, one of another type from the login window), then the callback page run.
    LetsOtherMessagesComeFirst,
}

/// A property of a JS value, if it can be read (a window of another origin throws).
fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &key.into()).ok()
}

/// The login window number `index` of this page once it is back on the redirect URI and
/// loaded (20 s at most), with the query string it came back with; or where it was last.
async fn window_back(index: u32) -> Result<(JsValue, String), String> {
    let callback = callback_url();
    let mut last = "not opened".to_string();
    for _ in 0..1000 {
        let window = opened_windows().get(index);
        if !window.is_undefined() {
            last = "elsewhere (another origin)".into();
            let href = get(&window, "location").and_then(|l| get(&l, "href")?.as_string());
            let ready = get(&window, "document")
                .and_then(|d| get(&d, "readyState")?.as_string())
                .is_some_and(|s| s == "complete");
            if let Some(href) = href {
                if let Some(query) = href.strip_prefix(&callback) {
                    if ready && query.starts_with('?') {
                        return Ok((window, query.to_string()));
                    }
                }
                last = href;
            }
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    Err(format!("login window {index} not back after 20 s: {last}"))
}

/// Runs the app's callback page script in `window` (a page of this origin).
fn run_callback_page(window: &JsValue) {
    let run = js_sys::Function::new_with_args(
        "w, script",
        "const s = w.document.createElement('script'); s.textContent = script; w.document.body.appendChild(s);",
    );
    run.call2(&JsValue::NULL, window, &CALLBACK_SCRIPT.into())
        .expect("the callback page script ran");
}

/// Posts `{type, query}` on the callback page's `BroadcastChannel`, as a callback page of
/// this origin does.
fn broadcast_answer(query: &str) {
    let channel = web_sys::BroadcastChannel::new(client_browser::auth::CHANNEL).expect("a channel");
    let message = js_sys::Object::new();
    js_sys::Reflect::set(
        &message,
        &"type".into(),
        &client_browser::auth::MESSAGE_TYPE.into(),
    )
    .unwrap();
    js_sys::Reflect::set(&message, &"query".into(), &query.into()).unwrap();
    channel.post_message(&message).expect("posted");
    channel.close();
}

/// Waits (10 s at most) until a line of `auth`'s trace starts with `start`; else `failure`,
/// with the trace.
async fn traced_within_10_s(auth: &Authorizer, start: &str, failure: &str) -> Result<(), String> {
    for _ in 0..500 {
        if traced(auth, start) > 0 {
            return Ok(());
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    Err(format!("{failure} within 10 s: {:?}", auth.trace_lines()))
}

/// Plays the person for login window number `index` (see [`Person`]); `auth` is the
/// authorizer logging in. Gives the query string the window came back with.
async fn person(index: u32, does: Person, auth: Rc<Authorizer>) -> Result<String, String> {
    let (window, query) = window_back(index).await?;
    match does {
        Person::Approves => run_callback_page(&window),
        Person::LetsAForeignAnswerComeFirst => {
            broadcast_answer("?code=forged&state=another-login");
            let ignored = "ignored an authorization response with a foreign state";
            traced_within_10_s(&auth, ignored, "the foreign answer was not ignored").await?;
            run_callback_page(&window);
        }
        Person::LetsOtherMessagesComeFirst => {
            let forged = "?code=forged&state=another-login";
            let post = js_sys::Function::new_with_args(
                "w, type, query",
                "window.postMessage({ type: 'mcp-oauth-callback', query }, location.origin);
                 const s = w.document.createElement('script');
                 s.textContent = `opener.postMessage(${JSON.stringify({ type, query })}, location.origin);`;
                 w.document.body.appendChild(s);",
            );
            post.call3(
                &JsValue::NULL,
                &window,
                &"not-the-callback".into(),
                &forged.into(),
            )
            .expect("posted");
            // Neither may reach the flow (it would say it ignored a foreign state). Something
            // that must not happen has no moment to wait for: the messages, posted now, are
            // delivered within milliseconds; half a second is allowed.
            gloo_timers::future::TimeoutFuture::new(500).await;
            if traced(
                &auth,
                "ignored an authorization response with a foreign state",
            ) > 0
            {
                return Err(format!(
                    "a message that was not the answer reached the flow: {:?}",
                    auth.trace_lines()
                ));
            }
            run_callback_page(&window);
        }
        Person::ClosesTheWindow => {
            let window: web_sys::Window = window.unchecked_into();
            window.close().expect("closed");
        }
        Person::RefusesInAWindowCutOffFromThisPage => {
            let refusal = js_sys::Function::new_with_args(
                "query",
                "const p = new URLSearchParams(query);
                 const r = new URLSearchParams({ error: 'access_denied', error_description: 'The person said no', state: p.get('state') });
                 if (p.has('iss')) r.set('iss', p.get('iss'));
                 return '?' + r;",
            )
            .call1(&JsValue::NULL, &query.as_str().into())
            .expect("a refusal")
            .as_string()
            .expect("a query");
            let frame = callback_frame(&refusal).await;
            let said = said_in_the_end(&frame).await;
            remove_frame(&frame);
            let said = said?;
            let expected = "The login did not complete: authorization was refused: ";
            if !said.starts_with(expected) || !said.contains("access_denied") {
                return Err(format!(
                    "the callback page said {said:?}, not {expected:?} with access_denied"
                ));
            }
        }
        Person::ClosesTheWindowAndTheAnswerComesAfter => {
            let window: web_sys::Window = window.unchecked_into();
            window.close().expect("closed");
            let closed = "the login window is closed";
            traced_within_10_s(&auth, closed, "the closed window was not seen").await?;
            broadcast_answer(&query);
        }
    }
    Ok(query)
}

/// The JSON a GET of `url` answers with.
async fn get_json(url: &str) -> Value {
    let window = web_sys::window().unwrap();
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e:?}"))
        .unchecked_into();
    let text = JsFuture::from(response.text().unwrap()).await.unwrap();
    serde_json::from_str(&text.as_string().unwrap_or_default()).unwrap_or(Value::Null)
}

/// The gateway's base URL (its MCP endpoint is `{base}/mcp`).
fn base_of(gateway: &str) -> &str {
    gateway.trim_end_matches("/mcp")
}

/// What reached the gateway so far, one line a request ("POST tools/call authorized",
/// "POST initialize refused: no token", ...).
async fn gateway_log(gateway: &str) -> Vec<String> {
    let log = get_json(&format!("{}/__log", base_of(gateway))).await;
    log.as_array()
        .expect("a log")
        .iter()
        .filter_map(|l| l.as_str().map(String::from))
        .collect()
}

/// A count of the gateway's (`forwarded`, `expired_refusals`, `dpop_verified`, ...).
async fn gateway_count(gateway: &str, what: &str) -> u64 {
    let stats = get_json(&format!("{}/__stats", base_of(gateway))).await;
    stats[what].as_u64().expect("a count")
}

/// How many refresh grants the authorization server made so far.
async fn refreshes_granted() -> u64 {
    refreshes_granted_at(AUTH_SERVER.expect("MCP_AUTH_SERVER_URL not set")).await
}

/// How many refresh grants the authorization server at `url` made so far.
async fn refreshes_granted_at(url: &str) -> u64 {
    let stats = get_json(&format!("{url}/__stats")).await;
    stats["refresh_token"].as_u64().expect("a count")
}

/// Makes the gateway refuse every access token it has seen so far as expired.
async fn expire_tokens(gateway: &str) {
    post(&format!("{}/__expire", base_of(gateway))).await;
}

/// Calls `echo` with `message` and checks the answer.
async fn echo(client: &Client, message: &str) {
    let r = within(
        20_000,
        message,
        client.call_tool("echo", json!({ "message": message })),
    )
    .await
    .unwrap_or_else(|e| panic!("echo {message:?}: {e}"));
    assert_eq!(text(&r), format!("Echo: {message}"));
}

/// How many lines of `auth`'s trace start with `start`.
fn traced(auth: &Authorizer, start: &str) -> usize {
    auth.trace_lines()
        .iter()
        .filter(|l| l.starts_with(start))
        .count()
}

/// Fails unless a line of `auth`'s trace starts with `start` (the trace in the message).
fn assert_traced(auth: &Authorizer, start: &str) {
    assert!(
        traced(auth, start) > 0,
        "{start:?} missing from {:?}",
        auth.trace_lines()
    );
}

/// Fails if a line of `auth`'s trace starts with `start` (the trace in the message).
fn assert_not_traced(auth: &Authorizer, start: &str) {
    assert_eq!(
        traced(auth, start),
        0,
        "{start:?} in {:?}",
        auth.trace_lines()
    );
}

/// The statuses of the `LoginNeeded` events among `events`, in order.
fn login_needed(events: &RefCell<Vec<ClientEvent>>) -> Vec<u16> {
    events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ClientEvent::LoginNeeded { status, .. } => Some(*status),
            _ => None,
        })
        .collect()
}

/// Runs `work` while the person does `does` with the page's next login window.
async fn with_person<T>(does: Person, auth: &Rc<Authorizer>, work: impl Future<Output = T>) -> T {
    let index = opened_windows().length();
    let (out, answered) = join(work, person(index, does, auth.clone())).await;
    answered.expect("the person did their part");
    out
}

/// Connects `client` (whose authorizer is `auth`), the person approving the login the
/// connection asks for in the page's next login window.
async fn connect_logging_in(client: &Client, auth: &Rc<Authorizer>) {
    let connecting = within(30_000, "connecting with a login", client.reconnect());
    with_person(Person::Approves, auth, connecting)
        .await
        .expect("connected once logged in");
}

/// A client of `url` connected after a login in a popup window (its tokens in memory only),
/// and its authorizer.
async fn logged_in(url: &str) -> (Rc<Authorizer>, Client) {
    logged_in_as(url, Person::Approves).await
}

/// [`logged_in`], the person doing `does` with the login window.
async fn logged_in_as(url: &str, does: Person) -> (Rc<Authorizer>, Client) {
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let connecting = within(30_000, "connecting with a login", client.reconnect());
    with_person(does, &auth, connecting)
        .await
        .expect("connected once logged in");
    (auth, client)
}

#[wasm_bindgen_test]
async fn a_login_in_a_popup_window_connects_and_every_request_after_it_carries_the_token() {
    let url = gateway();
    let logged = gateway_log(url).await.len();
    let windows = opened_windows().length();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    assert_eq!(auth.server_url(), url);
    assert_eq!(auth.mode(), LoginMode::Popup);
    let heard = Rc::new(RefCell::new(Vec::<String>::new()));
    let hears = heard.clone();
    auth.on_trace(move |line| hears.borrow_mut().push(line.to_string()));
    let (client, events) = client_of(url, &auth);
    assert!(!auth.has_credentials());
    let (connected, answered) = join(
        within(30_000, "connecting with a login", client.reconnect()),
        person(windows, Person::Approves, auth.clone()),
    )
    .await;
    let query = answered.expect("the person approved");
    assert!(
        query.contains("code=") && query.contains("state="),
        "{query}"
    );
    connected.expect("connected once logged in");
    assert_eq!(opened_windows().length(), windows + 1, "one login window");
    let window: web_sys::Window = opened_windows().get(windows).unchecked_into();
    until(5_000, "the callback page closed its window", || {
        window.closed().unwrap_or(false)
    })
    .await;
    echo(&client, "after the login").await;

    let tokens = auth.tokens().expect("tokens");
    assert!(tokens.refresh_token.is_some(), "a refresh token");
    assert!(
        !tokens.dpop,
        "a Bearer token for a server that does not ask for DPoP"
    );
    let header = auth
        .authorization_header()
        .expect("an Authorization header");
    assert_eq!(header, format!("Bearer {}", tokens.access_token));
    let trace = auth.trace_lines();
    assert_eq!(*heard.borrow(), trace, "every step told to the listener");
    for step in [
        "registered dynamically as client",
        "exchanging the code at",
        "got an access token",
    ] {
        assert!(
            trace.iter().any(|l| l.starts_with(step)),
            "{step} missing from {trace:?}"
        );
    }
    // (A session an earlier test's client closed may end just after the count was taken.)
    let log: Vec<String> = gateway_log(url)
        .await
        .split_off(logged)
        .into_iter()
        .skip_while(|l| l.starts_with("DELETE "))
        .collect();
    assert!(log.len() >= 3, "{log:?}");
    assert!(
        log[0].ends_with(" refused: no token"),
        "the first request had no token: {log:?}"
    );
    assert!(
        log[1..].iter().all(|l| l.ends_with(" authorized")),
        "every request after the login carried the token: {log:?}"
    );
    assert!(
        log.contains(&"POST tools/call authorized".to_string()),
        "{log:?}"
    );
    let login_needed = login_needed(&events).len();
    assert_eq!(login_needed, 0, "the login was got without the application");
    client.close();
}

/// The person approves in login window number `index + 1`, once the window that login
/// number `index` left on its callback page (`first_query`) has moved on: both logins open
/// one window, by one name.
async fn approves_in_the_next_login(
    index: u32,
    first_window: &JsValue,
    first_query: &str,
    auth: &Rc<Authorizer>,
) -> Result<String, String> {
    let first_href = format!("{}{first_query}", callback_url());
    until(
        10_000,
        "the window left the first login's callback page",
        || {
            get(first_window, "location").and_then(|l| get(&l, "href")?.as_string())
                != Some(first_href.clone())
        },
    )
    .await;
    person(index + 1, Person::Approves, auth.clone()).await
}

#[wasm_bindgen_test]
async fn a_second_login_to_a_server_ends_the_first_still_waiting_and_logs_in_through_its_window() {
    let url = gateway();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let index = opened_windows().length();
    // The first login waits for an answer that never comes: its window is back on the
    // callback page, whose script does not run (as when the person closed a window cut off
    // from this page, which looks the same from here).
    let (ended, first_ended) = futures_channel::oneshot::channel();
    let first = auth.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = ended.send(first.login_popup(None).await);
    });
    let (first_window, first_query) = window_back(index)
        .await
        .expect("the first login's window came back");
    // The person clicks "Log in" again: the first login ends at once (well before the
    // second one is done), and the second logs in.
    let person_in_second = approves_in_the_next_login(index, &first_window, &first_query, &auth);
    let (second, first_outcome, answered) = join3(
        within(30_000, "the second login", auth.login_popup(None)),
        within(
            2_000,
            "the first login ending once the second started",
            first_ended,
        ),
        person_in_second,
    )
    .await;
    assert_eq!(
        first_outcome.expect("the first login ended"),
        Err(AuthFailure::Superseded)
    );
    answered.expect("the person approved in the second login's window");
    second.expect("logged in by the second login");
    assert!(auth.has_credentials());
    assert_traced(&auth, "a newer login to this server took this one's place");
    assert_eq!(
        traced(&auth, "login failed"),
        0,
        "nothing failed: {:?}",
        auth.trace_lines()
    );
    // One window (both logins open it by the same name): the first login left it open for
    // the second, whose callback page closed it.
    assert_eq!(opened_windows().length(), index + 2);
    let window = opened_windows().get(index);
    assert!(js_sys::Object::is(
        &window,
        &opened_windows().get(index + 1)
    ));
    let window: web_sys::Window = window.unchecked_into();
    until(5_000, "the callback page closed the window", || {
        window.closed().unwrap_or(false)
    })
    .await;
}

/// How a trace line of a request that waits for the login under way starts.
const JOINED: &str = "a login to this server is already under way";

/// `n` pings sent at once by `client` of `url` after it logged in and then out, so that the
/// server refuses each for want of a token; the authorizer and the pings' outcomes (30 s
/// at most).
async fn pings_logged_out(
    url: &str,
    n: usize,
) -> (
    Rc<Authorizer>,
    Client,
    impl Future<Output = Vec<Result<Value, ClientError>>>,
) {
    let (auth, client) = logged_in(url).await;
    auth.logout();
    let sent = client.clone();
    let pings = within(30_000, "pings refused at once", async move {
        join_all((0..n).map(|_| sent.request("ping", None))).await
    });
    (auth, client, pings)
}

/// The person approves in login window number `index` once `joined` requests (10 s at
/// most) joined the login under way.
async fn approves_once_joined(
    index: u32,
    joined: usize,
    auth: &Rc<Authorizer>,
) -> Result<String, String> {
    until(
        10_000,
        &format!("{joined} requests joined the login"),
        || traced(auth, JOINED) == joined,
    )
    .await;
    person(index, Person::Approves, auth.clone()).await
}

/// Asserts that every ping was answered and that no login failed, `superseded` of them
/// giving way to a newer one; then that `client` calls on and closes it.
async fn answered_after_one_login(
    auth: &Authorizer,
    client: &Client,
    pings: Vec<Result<Value, ClientError>>,
    superseded: usize,
) {
    for p in pings {
        p.expect("answered once logged in");
    }
    assert_eq!(
        traced(auth, "a newer login to this server took this one's place"),
        superseded,
        "{:?}",
        auth.trace_lines()
    );
    assert_eq!(traced(auth, "login failed"), 0, "{:?}", auth.trace_lines());
    echo(client, "after the login").await;
    client.close();
}

#[wasm_bindgen_test]
async fn requests_refused_at_once_that_need_a_login_wait_for_one_login_in_one_window() {
    let (auth, client, pings) = pings_logged_out(gateway(), 3).await;
    let index = opened_windows().length();
    // The person approves once the other two requests joined the first one's login (they
    // were refused within milliseconds; the login takes a round through its window).
    let person_in_window = approves_once_joined(index, 2, &auth);
    let (pings, answered) = join(pings, person_in_window).await;
    answered.expect("the person approved");
    assert_eq!(opened_windows().length(), index + 1, "one login window");
    answered_after_one_login(&auth, &client, pings, 0).await;
}

#[wasm_bindgen_test]
async fn requests_waiting_for_a_login_that_a_newer_one_ended_go_on_with_the_newer_one() {
    let (auth, client, pings) = pings_logged_out(gateway(), 2).await;
    let index = opened_windows().length();
    // The first login's window waits on its callback page (its script does not run); the
    // person presses "Log in" again and approves in the newer login's window.
    let person_logs_in_again = async {
        let (first_window, first_query) = window_back(index).await?;
        until(10_000, "the other request joined the login", || {
            traced(&auth, JOINED) == 1
        })
        .await;
        let approves = approves_in_the_next_login(index, &first_window, &first_query, &auth);
        let (login, answered) = join(auth.login_popup(None), approves).await;
        answered?;
        login.map_err(|e| format!("the newer login failed: {e}"))
    };
    let (pings, logged_in_again) = join(pings, person_logs_in_again).await;
    logged_in_again.expect("the person logged in again");
    assert_eq!(
        opened_windows().length(),
        index + 2,
        "the one window reused"
    );
    answered_after_one_login(&auth, &client, pings, 1).await;
}

#[wasm_bindgen_test]
async fn an_expired_token_is_refreshed_once_for_requests_refused_at_once_without_a_login_window() {
    let url = gateway();
    let (auth, client) = logged_in(url).await;
    let windows = opened_windows().length();
    let refreshes = refreshes_granted().await;
    let refused = gateway_count(url, "expired_refusals").await;
    let before = auth.tokens().expect("tokens");
    let generation = auth.generation();

    expire_tokens(url).await;
    // Pings go out as they are (a tool call may list the tools first), all three at once.
    let pings = within(
        30_000,
        "three pings refused at once",
        join_all((0..3).map(|_| client.request("ping", None))),
    )
    .await;
    for p in pings {
        p.expect("answered once refreshed");
    }
    assert_eq!(
        gateway_count(url, "expired_refusals").await,
        refused + 3,
        "the three were refused with the expired token first"
    );
    assert_eq!(
        refreshes_granted().await,
        refreshes + 1,
        "one refresh for the three"
    );
    echo(&client, "after the refresh").await;
    assert_eq!(opened_windows().length(), windows, "no login window");
    let after = auth.tokens().expect("tokens");
    assert_ne!(after.access_token, before.access_token);
    assert_ne!(
        after.refresh_token, before.refresh_token,
        "refresh tokens rotate"
    );
    assert!(auth.generation() > generation);
    assert_traced(&auth, "refreshing the access token at");
    client.close();
}

#[wasm_bindgen_test]
async fn a_client_that_may_not_open_a_login_window_by_itself_says_a_login_is_needed() {
    let url = gateway();
    let windows = opened_windows().length();
    for (mode, auto_login) in [(LoginMode::Redirect, true), (LoginMode::Popup, false)] {
        let mut options = oauth_options(mode, TokenStorage::Memory);
        options.auto_login = auto_login;
        let auth = Authorizer::new(url, options);
        let (client, events) = client_of(url, &auth);
        let refused = within(10_000, "connecting", client.reconnect()).await;
        let Err(ClientError::AuthRequired {
            status,
            www_authenticate,
        }) = refused
        else {
            panic!("{mode:?}, auto_login {auto_login}: {refused:?}");
        };
        assert_eq!(status, 401);
        let challenge = www_authenticate.expect("the challenge, exposed to the page");
        assert!(
            challenge.starts_with("Bearer ") && challenge.contains("resource_metadata="),
            "{challenge}"
        );
        let needed = login_needed(&events);
        assert_eq!(needed, vec![401], "{mode:?}: told once");
        assert_eq!(
            opened_windows().length(),
            windows,
            "{mode:?}: no login window"
        );
        assert!(auth.tokens().is_none());
        client.close();
    }
}

#[wasm_bindgen_test]
async fn with_no_authorization_attempt_allowed_a_refused_request_is_not_retried() {
    let url = gateway();
    let (login, first) = logged_in(url).await;
    first.close();

    let mut options = oauth_options(LoginMode::Popup, TokenStorage::Memory);
    options.max_attempts = 0;
    let auth = Authorizer::new(url, options);
    auth.set_tokens(login.tokens().expect("tokens"));
    let (client, _) = client_of(url, &auth);
    within(10_000, "connecting with the token", client.reconnect())
        .await
        .expect("connected");
    let windows = opened_windows().length();
    let refreshes = refreshes_granted().await;
    expire_tokens(url).await;
    let refused = within(
        10_000,
        "a call with an expired token",
        client.call_tool("echo", json!({"message": "never"})),
    )
    .await;
    assert!(
        matches!(
            &refused,
            Err(ClientError::Auth(AuthFailure::TooManyAttempts { attempts: 0, said: Some(s) }))
                if s.error == "invalid_token" && s.description.as_deref() == Some("expired")
        ),
        "{refused:?}"
    );
    assert_eq!(refreshes_granted().await, refreshes, "no refresh");
    assert_eq!(opened_windows().length(), windows, "no login window");

    // Connecting again is refused as it is, with nothing tried either.
    let again = within(10_000, "connecting again", client.reconnect()).await;
    assert!(
        matches!(again, Err(ClientError::AuthRequired { status: 401, .. })),
        "{again:?}"
    );
    assert_eq!(refreshes_granted().await, refreshes, "no refresh");
    assert_eq!(opened_windows().length(), windows, "no login window");
    client.close();
}

#[wasm_bindgen_test]
async fn a_refresh_refused_by_the_authorization_server_starts_a_new_login() {
    let url = gateway();
    let (auth, client) = logged_in(url).await;
    let mut tokens = auth.tokens().expect("tokens");
    tokens.refresh_token = Some("a-refresh-token-the-server-never-issued".into());
    auth.set_tokens(tokens);
    expire_tokens(url).await;

    let index = opened_windows().length();
    with_person(Person::Approves, &auth, echo(&client, "after a new login")).await;
    assert_traced(
        &auth,
        "the refresh was refused (invalid_grant): a new login is needed",
    );
    assert_eq!(opened_windows().length(), index + 1, "one new login window");
    let tokens = auth.tokens().expect("new tokens");
    assert!(tokens
        .refresh_token
        .is_some_and(|t| t != "a-refresh-token-the-server-never-issued"));

    // A registration the authorization server does not know (`invalid_client`): the same.
    let mut tokens = auth.tokens().expect("tokens");
    tokens.client.client_id = "a-client-the-server-never-registered".into();
    auth.set_tokens(tokens);
    expire_tokens(url).await;
    with_person(
        Person::Approves,
        &auth,
        echo(&client, "after registering again"),
    )
    .await;
    assert_traced(
        &auth,
        "the refresh was refused (invalid_client): a new login is needed",
    );
    let client_id = auth.tokens().expect("new tokens").client.client_id;
    assert_ne!(
        client_id, "a-client-the-server-never-registered",
        "registered again"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn a_refresh_failing_for_another_reason_keeps_the_tokens_and_says_why() {
    let url = gateway();
    let (auth, client) = logged_in(url).await;
    client.close();
    // The token endpoint is down for a while.
    let mut tokens = auth.tokens().expect("tokens");
    tokens.token_endpoint = format!("{}/__token_unavailable", base_of(url));
    auth.set_tokens(tokens.clone());
    let generation = auth.generation();
    let windows = opened_windows().length();
    let failed = within(10_000, "the refresh", auth.refresh()).await;
    let Err(AuthFailure::Flow(failure)) = failed else {
        panic!("{failed:?}");
    };
    assert!(
        failure.to_string().contains("temporarily_unavailable"),
        "{failure}"
    );
    assert_eq!(
        auth.tokens(),
        Some(tokens),
        "the tokens kept for a later try"
    );
    assert_eq!(auth.generation(), generation);
    assert_eq!(opened_windows().length(), windows, "no login window");
}

#[wasm_bindgen_test]
async fn an_answer_meant_for_another_login_is_ignored_and_the_real_one_completes_the_login() {
    let (_, client) = logged_in_as(gateway(), Person::LetsAForeignAnswerComeFirst).await;
    echo(&client, "after a foreign answer").await;
    client.close();
}

#[wasm_bindgen_test]
async fn a_login_window_closed_by_the_person_fails_the_connection_in_words_unless_its_answer_comes_soon_after(
) {
    let url = gateway();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let connecting = within(30_000, "connecting with a login", client.reconnect());
    let connected = with_person(Person::ClosesTheWindow, &auth, connecting).await;
    let Err(ClientError::Auth(failure)) = connected else {
        panic!("{connected:?}");
    };
    assert_eq!(failure, AuthFailure::PopupClosed);
    assert!(failure
        .to_string()
        .starts_with("the login window was closed before the login finished"));
    assert!(auth.tokens().is_none());
    assert_traced(&auth, "login failed: the login window was closed");
    client.close();

    // An answer that comes soon after its window closed still completes the login.
    let (auth, client) = logged_in_as(url, Person::ClosesTheWindowAndTheAnswerComesAfter).await;
    assert_traced(
        &auth,
        "the login window is closed: its answer may still come within 1.5 s",
    );
    assert!(auth.tokens().is_some());
    echo(
        &client,
        "after an answer that came once the window was closed",
    )
    .await;
    client.close();
}

/// POSTs to `url` (a test server's control endpoint).
async fn post(url: &str) {
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    let window = web_sys::window().unwrap();
    JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .unwrap_or_else(|e| panic!("POST {url}: {e:?}"));
}

/// Whether login window number `index` of this page reads as closed.
fn reads_closed(index: u32) -> bool {
    let window = opened_windows().get(index);
    get(&window, "closed").is_some_and(|c| c.is_truthy())
}

/// Where a test leaves [`CALLBACK_SCRIPT`] for a callback page cut off from this page.
const CALLBACK_SCRIPT_KEY: &str = "oauth-test-callback-script";

/// The line of the trace when this page first sees its login window on the authorization
/// server's page.
const SHOWN: &str = "the login window shows the authorization server's page";

/// The first line of the trace when a login window is cut off from this page.
const CUT_OFF: &str = "the authorization server's page cut the login window off from this page";

/// Where a callback page that runs [`CALLBACK_SCRIPT`] by itself leaves what it says.
const CALLBACK_STATUS_KEY: &str = "oauth-test-callback-status";

/// What a callback page says while it waits to hear what became of the answer it relayed.
const WAITING: [&str; 3] = [
    "",
    "Handing the answer to the page that started the login…",
    "Finishing the login in the page that started it…",
];

/// A callback page without an opener, loaded with `query` in a frame of this page: it runs
/// [`CALLBACK_SCRIPT`] by itself, as a window cut off from this page does.
async fn callback_frame(query: &str) -> JsValue {
    local_storage()
        .set_item(CALLBACK_SCRIPT_KEY, CALLBACK_SCRIPT)
        .unwrap();
    let frame = add_frame(&format!("{}{query}", callback_url()));
    until(10_000, "the callback page in a frame loaded", || {
        status_in(&frame).is_some()
    })
    .await;
    frame
}

/// What the callback page in `frame` says now, once it has loaded.
fn status_in(frame: &JsValue) -> Option<String> {
    let document = get(frame, "contentDocument").filter(|d| !d.is_null())?;
    let loaded = get(&document, "readyState")?.as_string()? == "complete";
    let status = js_sys::Function::new_with_args("d", "return d.getElementById('status');")
        .call1(&JsValue::NULL, &document)
        .ok()
        .filter(|s| !s.is_null())?;
    loaded.then(|| get(&status, "textContent")?.as_string())?
}

/// What the callback page in `frame` says once it no longer waits (10 s at most).
async fn said_in_the_end(frame: &JsValue) -> Result<String, String> {
    for _ in 0..500 {
        let said = status_in(frame).unwrap_or_default();
        if !WAITING.contains(&said.as_str()) {
            return Ok(said);
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    Err(format!(
        "the callback page still waits after 10 s: {:?}",
        status_in(frame)
    ))
}

/// A frame of this page showing `src` (not yet loaded).
fn add_frame(src: &str) -> JsValue {
    js_sys::Function::new_with_args(
        "src",
        "const f = document.createElement('iframe'); f.src = src; document.body.appendChild(f); return f;",
    )
    .call1(&JsValue::NULL, &src.into())
    .expect("a frame")
}

/// Takes `frame` off this page.
fn remove_frame(frame: &JsValue) {
    js_sys::Function::new_with_args("f", "f.remove();")
        .call1(&JsValue::NULL, frame)
        .expect("removed");
}

/// This page's `localStorage`.
fn local_storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

#[wasm_bindgen_test]
async fn a_login_window_the_authorization_server_cuts_off_from_this_page_still_completes_the_login()
{
    let server = AUTH_SERVER_COOP.expect("MCP_AUTH_SERVER_COOP_URL not set");
    let url = COOP_GATEWAY.expect("MCP_OAUTH_COOP_URL not set");
    post(&format!("{server}/__person/coop?on=true")).await;
    // For the callback page, which this page cannot reach once it is cut off (see
    // `tests/oauth-callback.html`).
    let storage = local_storage();
    storage
        .set_item(CALLBACK_SCRIPT_KEY, CALLBACK_SCRIPT)
        .unwrap();
    storage.remove_item(CALLBACK_STATUS_KEY).unwrap();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let index = opened_windows().length();
    let ended = Rc::new(std::cell::Cell::new(false));
    let ends = ended.clone();
    let connecting = within(60_000, "connecting with a login", async {
        let connected = client.reconnect().await;
        ends.set(true);
        connected
    });
    let person = async {
        // Once the login page is shown, the window reads as closed here, as one the person
        // closed would: the authorization server's page cut it off.
        until(20_000, "the login window cut off from this page", || {
            traced(&auth, CUT_OFF) > 0 || ended.get()
        })
        .await;
        assert!(
            !ended.get(),
            "the login ended before the person logged in: {:?}",
            auth.trace_lines()
        );
        assert!(reads_closed(index), "the window reads as closed");
        // A window the person closed fails the login 1.5 s after it is seen closed; this one
        // is still in front of the person, who takes longer than that to log in. (Something
        // that must not happen has no moment to wait for: 2.5 s are allowed.)
        gloo_timers::future::TimeoutFuture::new(2_500).await;
        assert!(
            !ended.get(),
            "the login ended while the person was logging in: {:?}",
            auth.trace_lines()
        );
        // The person logs in; the callback page, cut off from this page as well, relays the
        // answer on its channel.
        post(&format!("{server}/__person/approve")).await;
    };
    let (connected, ()) = join(connecting, person).await;
    connected.unwrap_or_else(|e| panic!("connected once logged in: {e} {:?}", auth.trace_lines()));
    // The callback page, which could not see this page, was told the login completed.
    until(
        10_000,
        "the cut off callback page saying the login completed",
        || {
            storage
                .get_item(CALLBACK_STATUS_KEY)
                .ok()
                .flatten()
                .as_deref()
                == Some("Logged in. You can close this window.")
        },
    )
    .await;
    storage.remove_item(CALLBACK_SCRIPT_KEY).unwrap();
    assert_eq!(
        traced(&auth, CUT_OFF),
        1,
        "said once: {:?}",
        auth.trace_lines()
    );
    assert!(auth.tokens().is_some());
    echo(&client, "after a login in a window cut off from this page").await;
    client.close();
}

#[wasm_bindgen_test]
async fn a_login_window_closed_on_the_authorization_servers_page_fails_the_connection_in_words() {
    let server = AUTH_SERVER_COOP.expect("MCP_AUTH_SERVER_COOP_URL not set");
    let url = COOP_GATEWAY.expect("MCP_OAUTH_COOP_URL not set");
    // Pages without the Cross-Origin-Opener-Policy: the window stays this page's.
    post(&format!("{server}/__person/coop?on=false")).await;
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let index = opened_windows().length();
    let connecting = within(30_000, "connecting with a login", client.reconnect());
    let person = async {
        until(20_000, "the login page shown", || traced(&auth, SHOWN) > 0).await;
        assert!(!reads_closed(index));
        // The person gives up and closes the window there. From this page, it reads as a
        // window cut off from it would (closed, its address unreadable): seen on another
        // origin's page first, it counts as closed.
        let window: web_sys::Window = opened_windows().get(index).unchecked_into();
        window.close().expect("closed");
    };
    let (connected, ()) = join(connecting, person).await;
    post(&format!("{server}/__person/coop?on=true")).await;
    let Err(ClientError::Auth(failure)) = connected else {
        panic!("{connected:?}");
    };
    assert_eq!(failure, AuthFailure::PopupClosed);
    assert_not_traced(&auth, CUT_OFF);
    // The login page posted this page a well-formed answer from the authorization server's
    // origin as it loaded: it never reached the flow.
    assert_not_traced(
        &auth,
        "ignored an authorization response with a foreign state",
    );
    assert!(auth.tokens().is_none());
    client.close();
}

#[wasm_bindgen_test]
async fn a_login_given_up_while_its_window_is_open_closes_the_window_and_leaves_no_listener_behind()
{
    let url = gateway();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let index = opened_windows().length();
    // Errors thrown by this page's event listeners from now on (a listener that calls a
    // closure that no longer exists throws).
    let errors: js_sys::Array = js_sys::Function::new_no_args(
        "const errors = [];
         window.addEventListener('error', (e) => errors.push(String(e.message)));
         return errors;",
    )
    .call0(&JsValue::NULL)
    .unwrap()
    .unchecked_into();
    {
        let connecting = Box::pin(client.reconnect());
        let back = Box::pin(window_back(index));
        match select(connecting, back).await {
            Either::Left((connected, _)) => panic!("connecting ended first: {connected:?}"),
            // The window is back with the answer, which the person has not let through yet:
            // the connection (and its login) is given up, as when a caller aborts it.
            Either::Right((back, connecting)) => {
                back.expect("the login window back");
                drop(connecting);
            }
        }
    }
    assert!(reads_closed(index), "the login window was closed");
    // A message to this page and one on the callback page's channel, each delivered to
    // the listeners of the login given up (had they stayed) before the ones made here.
    let heard = Rc::new(RefCell::new(Vec::<String>::new()));
    let (on_message, on_channel) = (heard.clone(), heard.clone());
    let hear_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| {
        on_message.borrow_mut().push("message".into())
    });
    let hear_channel = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| {
        on_channel.borrow_mut().push("channel".into())
    });
    let page = web_sys::window().unwrap();
    page.add_event_listener_with_callback("message", hear_message.as_ref().unchecked_ref())
        .unwrap();
    let channel = web_sys::BroadcastChannel::new(client_browser::auth::CHANNEL).unwrap();
    channel.set_onmessage(Some(hear_channel.as_ref().unchecked_ref()));
    page.post_message(&"not a login's answer".into(), &origin())
        .unwrap();
    broadcast_answer("?code=late&state=given-up");
    until(10_000, "both messages delivered", || {
        heard.borrow().len() == 2
    })
    .await;
    page.remove_event_listener_with_callback("message", hear_message.as_ref().unchecked_ref())
        .unwrap();
    channel.close();
    assert_eq!(errors.length(), 0, "{:?}", errors.to_vec());
    assert_not_traced(
        &auth,
        "ignored an authorization response with a foreign state",
    );
    assert!(auth.tokens().is_none());
    client.close();
}

#[wasm_bindgen_test]
async fn a_client_closed_while_its_login_window_is_open_stops_connecting_or_calling_and_closes_the_window(
) {
    let url = gateway();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let index = opened_windows().length();
    let connecting = within(10_000, "connecting ended", client.reconnect());
    let person = async {
        // The window is back with the answer, which the person has not let through yet:
        // the client is closed (its connection tab closed, the caller's signal aborted).
        window_back(index).await.expect("the login window back");
        client.close();
    };
    let (connected, ()) = join(connecting, person).await;
    assert!(
        matches!(connected, Err(ClientError::Closed)),
        "{connected:?}"
    );
    assert!(reads_closed(index), "the login window was closed");
    assert!(auth.tokens().is_none());

    // So does a call waiting for a login (a scope step-up) when its client is closed.
    let url = step_up_gateway();
    let (auth, client) = logged_in(url).await;
    let index = opened_windows().length();
    let calling = within(
        10_000,
        "the call ended",
        client.call_tool("echo", json!({ "message": "with a scope more" })),
    );
    let person = async {
        window_back(index).await.expect("the step-up window back");
        client.close();
    };
    let (called, ()) = join(calling, person).await;
    assert!(matches!(called, Err(ClientError::Closed)), "{called:?}");
    assert!(reads_closed(index), "the step-up window was closed");
    assert!(auth.tokens().is_some(), "the first login's tokens stay");
}

#[wasm_bindgen_test]
async fn a_server_that_requires_dpop_gets_bound_tokens_and_a_proof_with_every_request_also_after_a_refresh(
) {
    let url = dpop_gateway();
    let verified = gateway_count(url, "dpop_verified").await;
    let refusals = gateway_count(url, "dpop_refusals").await;
    let (auth, client) = logged_in(url).await;
    echo(&client, "with a proof").await;
    let tokens = auth.tokens().expect("tokens");
    assert!(tokens.dpop, "DPoP-bound tokens");
    let header = auth.authorization_header().expect("a header");
    assert!(header.starts_with("DPoP "), "{header}");
    let after_login = gateway_count(url, "dpop_verified").await;
    assert!(
        after_login >= verified + 2,
        "proofs verified: {verified} -> {after_login}"
    );

    let refreshes = refreshes_granted().await;
    expire_tokens(url).await;
    echo(&client, "with a proof after a refresh").await;
    assert_eq!(
        refreshes_granted().await,
        refreshes + 1,
        "refreshed with a proof"
    );
    assert!(auth.tokens().expect("tokens").dpop, "still bound");
    assert!(gateway_count(url, "dpop_verified").await > after_login);
    assert_eq!(
        gateway_count(url, "dpop_refusals").await,
        refusals,
        "every token went with a valid proof"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn refresh_material_kept_in_session_storage_connects_a_new_authorizer_without_a_login_until_logout(
) {
    let url = gateway();
    let options = oauth_options(LoginMode::Popup, TokenStorage::Session);
    let first = Authorizer::new(url, options.clone());
    first.logout(); // nothing an earlier run left
    let (client, _) = client_of(url, &first);
    connect_logging_in(&client, &first).await;
    client.close();

    // As on a reload: the refresh material is read back, the access token is not.
    let windows = opened_windows().length();
    let refreshes = refreshes_granted().await;
    let reloaded = Authorizer::new(url, options.clone());
    let kept = reloaded.tokens().expect("refresh material kept");
    assert!(
        kept.access_token.is_empty(),
        "the access token lives in memory only"
    );
    assert!(kept.refresh_token.is_some());
    assert!(reloaded.has_credentials());
    let (client, _) = client_of(url, &reloaded);
    within(
        15_000,
        "connecting with the kept refresh token",
        client.reconnect(),
    )
    .await
    .expect("connected");
    echo(&client, "after a reload").await;
    assert_eq!(refreshes_granted().await, refreshes + 1, "refreshed first");
    assert_eq!(opened_windows().length(), windows, "no login window");
    client.close();

    let generation = reloaded.generation();
    reloaded.logout();
    assert!(reloaded.tokens().is_none());
    assert!(
        reloaded.generation() > generation,
        "a new generation of credentials"
    );
    let after_logout = Authorizer::new(url, options);
    assert!(
        !after_logout.has_credentials(),
        "nothing kept after the logout"
    );
}

/// The scopes `auth`'s tokens were granted, sorted.
fn granted_scopes(auth: &Authorizer) -> Vec<String> {
    let tokens = auth.tokens().expect("tokens");
    let mut scopes: Vec<String> = tokens
        .scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    scopes.sort();
    scopes
}

#[wasm_bindgen_test]
async fn a_call_refused_for_want_of_a_scope_asks_for_it_in_a_login_window_also_in_redirect_mode() {
    let url = step_up_gateway();
    let auth = Authorizer::new(
        url,
        oauth_options(LoginMode::Redirect, TokenStorage::Memory),
    );
    let (client, events) = client_of(url, &auth);
    // Redirect mode: the client says a login is needed; the application logs in (through a
    // window here: a redirect would leave the test's page) with the server's challenge.
    let refused = within(10_000, "connecting", client.reconnect()).await;
    let Err(ClientError::AuthRequired {
        www_authenticate, ..
    }) = refused
    else {
        panic!("{refused:?}");
    };
    let index = opened_windows().length();
    let (logged_in, answered) = join(
        within(
            30_000,
            "logging in",
            auth.login_popup(www_authenticate.as_deref()),
        ),
        person(index, Person::Approves, auth.clone()),
    )
    .await;
    answered.expect("the person approved");
    logged_in.expect("logged in");
    assert_eq!(
        granted_scopes(&auth),
        ["mcp:tools"],
        "the challenge's scope"
    );
    within(10_000, "connecting once logged in", client.reconnect())
        .await
        .expect("connected");
    let refusals = gateway_count(url, "insufficient_scope").await;

    with_person(Person::Approves, &auth, echo(&client, "with a scope more")).await;
    assert_eq!(
        gateway_count(url, "insufficient_scope").await,
        refusals + 1,
        "refused once for want of the scope"
    );
    assert_eq!(
        granted_scopes(&auth),
        ["mcp:admin", "mcp:tools"],
        "the scope asked for on top of the granted one"
    );
    assert_eq!(
        opened_windows().length(),
        index + 2,
        "one window for the step-up"
    );
    assert_traced(
        &auth,
        "the server needs more scopes (mcp:tools mcp:admin): asking for them",
    );
    assert_eq!(
        traced(&auth, "registered dynamically as client"),
        1,
        "the step-up reuses the registration: {:?}",
        auth.trace_lines()
    );
    let client_id = auth.tokens().expect("tokens").client.client_id;
    assert_traced(
        &auth,
        &format!("using the client registered earlier {client_id}"),
    );
    let told = login_needed(&events);
    assert_eq!(
        told,
        vec![401],
        "told of the first login only, not of the step-up"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn calls_refused_at_once_for_want_of_a_scope_ask_for_it_in_one_login_window() {
    let url = step_up_gateway();
    let (auth, client) = logged_in(url).await;
    assert_eq!(granted_scopes(&auth), ["mcp:tools"]);
    let refusals = gateway_count(url, "insufficient_scope").await;
    let index = opened_windows().length();
    let calls = join(
        echo(&client, "first, with a scope more"),
        echo(&client, "second, with a scope more"),
    );
    // The person approves once the second call joined the first one's step-up (both were
    // refused with the same challenge).
    let person_in_window = approves_once_joined(index, 1, &auth);
    let (_, answered) = join(calls, person_in_window).await;
    answered.expect("the person approved");
    assert_eq!(
        gateway_count(url, "insufficient_scope").await,
        refusals + 2,
        "both refused for want of the scope"
    );
    assert_eq!(granted_scopes(&auth), ["mcp:admin", "mcp:tools"]);
    assert_eq!(opened_windows().length(), index + 1, "one window for both");
    assert_eq!(
        traced(&auth, "a newer login to this server took this one's place"),
        0,
        "{:?}",
        auth.trace_lines()
    );
    client.close();
}

/// The lines the gateway logged after the first `from`.
async fn gateway_log_since(gateway: &str, from: usize) -> Vec<String> {
    gateway_log(gateway).await.split_off(from)
}

#[wasm_bindgen_test]
async fn connecting_refreshes_first_a_token_that_expires_within_five_seconds_and_only_such_a_one() {
    let url = gateway();
    let (auth, client) = logged_in(url).await;
    client.close();
    // Expiry is read on the page's monotonic clock, as the client reads it.
    let now = || web_sys::window().unwrap().performance().unwrap().now() as u64;

    // Valid at the server for 20 s, but said to expire in 4 s: refreshed before connecting.
    let mut tokens = auth.tokens().expect("tokens");
    tokens.expires_at = Some(now() + 4_000);
    auth.set_tokens(tokens);
    let refreshes = refreshes_granted().await;
    let logged = gateway_log(url).await.len();
    let (client, _) = client_of(url, &auth);
    within(10_000, "connecting", client.reconnect())
        .await
        .expect("connected");
    assert_eq!(refreshes_granted().await, refreshes + 1, "refreshed first");
    let log = gateway_log_since(url, logged).await;
    assert!(
        !log.is_empty() && log.iter().all(|l| l.ends_with(" authorized")),
        "nothing refused: {log:?}"
    );
    client.close();

    // Said to expire in a minute: used as it is.
    let mut tokens = auth.tokens().expect("tokens");
    tokens.expires_at = Some(now() + 60_000);
    auth.set_tokens(tokens);
    let (client, _) = client_of(url, &auth);
    within(10_000, "connecting", client.reconnect())
        .await
        .expect("connected");
    assert_eq!(refreshes_granted().await, refreshes + 1, "no refresh");
    echo(&client, "with the token as it was").await;
    client.close();
}

#[wasm_bindgen_test]
async fn authorizers_sharing_local_storage_refresh_in_turn_each_with_the_newest_refresh_token() {
    let url = gateway();
    let options = oauth_options(LoginMode::Popup, TokenStorage::Local);
    let first = Authorizer::new(url, options.clone());
    first.logout(); // nothing an earlier run left
    let second = Authorizer::new(url, options.clone());
    assert!(!second.has_credentials());
    let (first_client, _) = client_of(url, &first);
    connect_logging_in(&first_client, &first).await;
    // Alone, it refreshes with its own refresh token: what it stored is its own.
    expire_tokens(url).await;
    echo(&first_client, "first, alone").await;
    let adopted = |auth: &Authorizer| {
        auth.trace_lines()
            .iter()
            .filter(|l| l.starts_with("another page of this site refreshed or logged in since"))
            .count()
    };
    assert_eq!(adopted(&first), 0, "{:?}", first.trace_lines());

    // The second finds what the first kept (as another page of the site would) and
    // refreshes with it: that uses the first one's refresh token up.
    let windows = opened_windows().length();
    let refreshes = refreshes_granted().await;
    let (second_client, _) = client_of(url, &second);
    within(10_000, "the second connecting", second_client.reconnect())
        .await
        .expect("the second connected without a login");
    assert_traced(
        &second,
        "another page of this site refreshed or logged in since",
    );
    assert_eq!(refreshes_granted().await, refreshes + 1);

    // Both refused at once: they refresh one after the other, each with the newest refresh
    // token (one used twice would revoke the grant: the authorization server would refuse
    // the second refresh and every one after).
    expire_tokens(url).await;
    within(
        30_000,
        "both calling after the expiry",
        join(
            echo(&first_client, "first, refreshed"),
            echo(&second_client, "second, refreshed"),
        ),
    )
    .await;
    assert_eq!(refreshes_granted().await, refreshes + 3, "one refresh each");
    expire_tokens(url).await;
    echo(&first_client, "first, refreshed again").await;
    echo(&second_client, "second, refreshed again").await;
    assert_eq!(opened_windows().length(), windows, "no login window");
    first_client.close();
    second_client.close();
    first.logout();
    second.logout();
}

#[wasm_bindgen_test]
async fn dpop_nonces_the_servers_ask_for_are_sent_with_the_request_again_and_every_call_goes_through(
) {
    let url = DPOP_NONCE_GATEWAY.expect("MCP_OAUTH_DPOP_NONCE_URL not set");
    let authorization_server = AUTH_SERVER_NONCE.expect("MCP_AUTH_SERVER_NONCE_URL not set");
    let challenges = gateway_count(url, "nonce_challenges").await;
    let refusals = gateway_count(url, "dpop_refusals").await;
    let (auth, client) = logged_in(url).await;
    let asked_by_the_authorization_server = || {
        auth.trace_lines()
            .iter()
            .filter(|l| l.contains("the authorization server asks for a DPoP nonce"))
            .count()
    };
    assert_eq!(
        asked_by_the_authorization_server(),
        1,
        "the code exchange was sent again once, with the nonce"
    );
    assert!(auth.tokens().expect("tokens").dpop);
    // The MCP server's nonce changes after every four requests: asked for again on the way.
    for i in 0..6 {
        echo(&client, &format!("with the nonce, {i}")).await;
    }
    let asked = gateway_count(url, "nonce_challenges").await - challenges;
    assert!(
        asked >= 2,
        "asked for the nonce at first and after a change ({asked})"
    );

    let refreshes = refreshes_granted_at(authorization_server).await;
    expire_tokens(url).await;
    echo(&client, "refreshed with a nonce").await;
    assert_eq!(
        refreshes_granted_at(authorization_server).await,
        refreshes + 1
    );
    assert_eq!(
        gateway_count(url, "dpop_refusals").await,
        refusals,
        "no proof refused for anything but its nonce"
    );
    client.close();
}

#[wasm_bindgen_test]
async fn a_server_that_asks_for_a_new_dpop_nonce_every_time_gets_one_retry_per_proof_and_the_call_fails_in_words(
) {
    let url = DPOP_NONCE_GATEWAY.expect("MCP_OAUTH_DPOP_NONCE_URL not set");
    let (auth, client) = logged_in(url).await;
    echo(&client, "before the server breaks").await;
    let base = base_of(url);
    post(&format!("{base}/__nonce_every_time?on=true")).await;
    let from = gateway_log(url).await.len();
    let called = within(
        30_000,
        "a call to a server that wants a new nonce every time",
        client.call_tool("echo", json!({ "message": "never answered" })),
    )
    .await;
    let refusals = gateway_log_since(url, from).await;
    post(&format!("{base}/__nonce_every_time?on=false")).await;
    let asked = refusals
        .iter()
        .filter(|l| l.starts_with("POST tools/call refused: a nonce it no longer takes"))
        .count();
    let Err(ClientError::Auth(AuthFailure::TooManyAttempts { attempts, said })) = called else {
        panic!("{called:?}");
    };
    // What the server said last, told with the failure.
    assert_eq!(
        said.map(|s| s.to_string()).as_deref(),
        Some("use_dpop_nonce (a nonce is needed)")
    );
    // Each attempt (the first and one after each new set of credentials) sends its proof
    // once with the nonce it knows and once with the one the refusal names, never more.
    assert_eq!(
        asked,
        2 * (attempts as usize + 1),
        "{attempts} attempts: {refusals:?} {:?}",
        auth.trace_lines()
    );
    echo(&client, "once the server takes its nonces again").await;
    client.close();
}

#[wasm_bindgen_test]
async fn connecting_to_a_server_that_refuses_every_new_token_gives_up_after_the_authorizers_attempts(
) {
    let url = gateway();
    let (auth, first) = logged_in(url).await;
    first.close();
    let refreshes = refreshes_granted().await;
    let (client, events) = client_of(url, &auth);
    // Refuses the next 50 requests with a token (as expired): the client gives up long before.
    post(&format!("{}/__refuse_tokens?count=50", base_of(url))).await;
    let from = gateway_log(url).await.len();
    let connected = within(
        30_000,
        "connecting to a server that refuses every token",
        client.reconnect(),
    )
    .await;
    post(&format!("{}/__refuse_tokens?count=0", base_of(url))).await;
    let refused = gateway_log_since(url, from)
        .await
        .iter()
        .filter(|l| l.ends_with("refused: a valid token refused on purpose"))
        .count();
    let refreshed = refreshes_granted().await - refreshes;
    // Said as a request says it, not as a login needed: the new tokens were refused too.
    // With what the server said last: its challenge's error and description.
    let Err(ClientError::Auth(AuthFailure::TooManyAttempts {
        attempts: 3,
        said: Some(said),
    })) = &connected
    else {
        panic!("{connected:?}");
    };
    assert_eq!(
        (said.error.as_str(), said.description.as_deref()),
        ("invalid_token", Some("a valid token refused on purpose"))
    );
    assert!(
        !events
            .borrow()
            .iter()
            .any(|e| matches!(e, ClientEvent::LoginNeeded { .. })),
        "no login announced"
    );
    // One new token from each of the authorizer's attempts (3), each refused in turn.
    assert_eq!(refreshed, 3, "{:?}", auth.trace_lines());
    assert!(
        refused >= 4,
        "the first token and the 3 new ones: {refused}"
    );
    within(
        10_000,
        "connecting once tokens are taken again",
        client.reconnect(),
    )
    .await
    .expect("connected");
    echo(&client, "once the server takes tokens again").await;
    client.close();
}

#[wasm_bindgen_test]
async fn a_call_cancelled_while_its_login_window_is_open_ends_cancelled_and_is_not_sent_again() {
    use client_browser::client_core::session::RequestError;
    use client_browser::CallOptions;
    let url = gateway();
    let (auth, client) = logged_in(url).await;
    // No refresh possible: the refused call needs a new login.
    let mut tokens = auth.tokens().expect("tokens");
    tokens.refresh_token = None;
    auth.set_tokens(tokens.clone());
    assert!(
        auth.has_credentials(),
        "an access token alone is a credential"
    );
    let mut nothing = tokens.clone();
    nothing.access_token.clear();
    auth.set_tokens(nothing);
    assert!(
        !auth.has_credentials(),
        "neither an access token nor a refresh token"
    );
    auth.set_tokens(tokens);
    expire_tokens(url).await;
    let logged = gateway_log(url).await.len();
    let index = opened_windows().length();

    let call = client.start(
        "tools/call",
        Some(json!({"name": "echo", "arguments": {"message": "never answered"}})),
        CallOptions::default(),
    );
    let handle = call.handle;
    let cancel_then_approve = async {
        until(10_000, "the login window opened", || {
            opened_windows().length() > index
        })
        .await;
        client.cancel(handle);
        person(index, Person::Approves, auth.clone()).await
    };
    let (ended, answered) = join(within(30_000, "the call", call), cancel_then_approve).await;
    answered.expect("the person approved");
    assert!(
        matches!(ended, Err(ClientError::Request(RequestError::Cancelled))),
        "{ended:?}"
    );
    let log = gateway_log_since(url, logged).await;
    let calls: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("POST tools/call"))
        .collect();
    assert_eq!(
        calls,
        ["POST tools/call refused: expired"],
        "sent once, refused, and not again: {log:?}"
    );
    // The login went on: the next call goes through without another window.
    echo(&client, "after the cancelled call").await;
    assert_eq!(opened_windows().length(), index + 1);
    client.close();
}

/// The refresh material this tab passed on to its copies for `server_url`: whether a record
/// is left in `localStorage` for the tab's lineage (see `client_browser::auth::tab_copies`).
fn passed_on_to_copies(server_url: &str) -> bool {
    let window = web_sys::window().unwrap();
    let session = window.session_storage().unwrap().unwrap();
    let Some(lineage) = session
        .get_item(&format!("mcp-oauth/v1/lineage/{server_url}"))
        .unwrap()
    else {
        return false;
    };
    let id = lineage.split('.').next().unwrap_or_default().to_string();
    let local = window.local_storage().unwrap().unwrap();
    local
        .get_item(&format!("mcp-oauth/v1/handover/{id}"))
        .unwrap()
        .is_some()
}

#[wasm_bindgen_test]
async fn a_copy_of_a_tab_refreshes_with_the_refresh_token_the_other_passed_on() {
    let url = gateway();
    let options = oauth_options(LoginMode::Popup, TokenStorage::Session);
    let tab = Authorizer::new(url, options.clone());
    tab.logout(); // nothing an earlier run left
    let (tab_client, _) = client_of(url, &tab);
    connect_logging_in(&tab_client, &tab).await;
    assert!(
        !passed_on_to_copies(url),
        "nothing passed on before a refresh"
    );
    // A copy of the tab starts with the same refresh token (its sessionStorage is a copy).
    let copy = Authorizer::new(url, options.clone());
    assert_eq!(
        copy.tokens().and_then(|t| t.refresh_token),
        tab.tokens().and_then(|t| t.refresh_token)
    );
    let refreshes = refreshes_granted().await;

    // The tab refreshes (using the shared refresh token up) and passes the new one on.
    expire_tokens(url).await;
    echo(&tab_client, "the tab, refreshed").await;
    assert!(passed_on_to_copies(url), "the new refresh token passed on");
    // The copy connects with the one passed on, not with the one used up.
    let (copy_client, _) = client_of(url, &copy);
    within(15_000, "the copy connecting", copy_client.reconnect())
        .await
        .expect("the copy connected without a login");
    echo(&copy_client, "the copy, refreshed").await;
    assert_traced(
        &copy,
        "a copy of this tab refreshed since: using the refresh token it passed on",
    );
    assert_eq!(refreshes_granted().await, refreshes + 2);
    // The grant survived: the tab refreshes again.
    expire_tokens(url).await;
    echo(&tab_client, "the tab, refreshed again").await;
    tab_client.close();
    copy_client.close();
    tab.logout();
    assert!(!passed_on_to_copies(url), "nothing left after the logout");
}

#[wasm_bindgen_test]
async fn dpop_bound_refresh_tokens_are_neither_passed_on_to_copies_nor_taken_from_another_page() {
    let url = dpop_gateway();
    // Copies of a tab: a DPoP-bound refresh token works only with this page's key.
    let options = oauth_options(LoginMode::Popup, TokenStorage::Session);
    let tab = Authorizer::new(url, options);
    tab.logout();
    let (client, _) = client_of(url, &tab);
    connect_logging_in(&client, &tab).await;
    expire_tokens(url).await;
    echo(&client, "refreshed, bound").await;
    assert!(tab.tokens().expect("tokens").dpop);
    assert!(!passed_on_to_copies(url), "nothing passed on");
    client.close();
    tab.logout();

    // Pages sharing localStorage: the second does not take the first one's bound tokens; it
    // logs in itself.
    let options = oauth_options(LoginMode::Popup, TokenStorage::Local);
    let first = Authorizer::new(url, options.clone());
    first.logout();
    let second = Authorizer::new(url, options);
    let (first_client, _) = client_of(url, &first);
    connect_logging_in(&first_client, &first).await;
    let (second_client, _) = client_of(url, &second);
    let windows = opened_windows().length();
    connect_logging_in(&second_client, &second).await;
    assert_eq!(opened_windows().length(), windows + 1, "a login of its own");
    assert!(
        !second
            .trace_lines()
            .iter()
            .any(|l| l.starts_with("another page of this site")),
        "{:?}",
        second.trace_lines()
    );
    echo(&first_client, "the first, still bound to its key").await;
    echo(&second_client, "the second, bound to its own").await;
    first_client.close();
    second_client.close();
    first.logout();
    second.logout();
}

/// The lineage this tab keeps for `server_url` (see `client_browser::auth::tab_copies`).
fn lineage(server_url: &str) -> Option<String> {
    let session = web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap();
    session
        .get_item(&format!("mcp-oauth/v1/lineage/{server_url}"))
        .unwrap()
}

#[wasm_bindgen_test]
async fn a_login_kept_in_session_storage_starts_a_lineage_for_copies_of_the_tab_and_others_do_not()
{
    let url = gateway();
    for storage in [TokenStorage::Memory, TokenStorage::Local] {
        let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, storage));
        auth.logout();
        let (client, _) = client_of(url, &auth);
        connect_logging_in(&client, &auth).await;
        assert_eq!(lineage(url), None, "{storage:?}: no lineage");
        client.close();
        auth.logout();
    }
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Session));
    auth.logout();
    let (client, _) = client_of(url, &auth);
    connect_logging_in(&client, &auth).await;
    let first = lineage(url).expect("a lineage once logged in");
    // A new login starts a new one: copies made before it do not share its tokens.
    with_person(Person::Approves, &auth, auth.login(None))
        .await
        .expect("logged in again");
    let second = lineage(url).expect("a lineage");
    assert_ne!(first, second, "a new lineage for the new login");
    client.close();
    auth.logout();
    assert_eq!(lineage(url), None, "forgotten with the logout");
}

#[wasm_bindgen_test]
async fn a_refresh_refused_while_another_page_logged_in_leaves_that_pages_tokens_and_takes_them_next(
) {
    let url = gateway();
    let options = oauth_options(LoginMode::Popup, TokenStorage::Local);
    let other = Authorizer::new(url, options.clone());
    other.logout();
    let (other_client, _) = client_of(url, &other);
    connect_logging_in(&other_client, &other).await;
    other_client.close();
    let good = other.tokens().expect("the other page's tokens");

    // This page holds a refresh token the server never issued (stored too, as its own); it
    // opens no login window by itself.
    let mut options = options;
    options.auto_login = false;
    let page = Authorizer::new(url, options.clone());
    let mut bogus = good.clone();
    bogus.refresh_token = Some("never-issued".into());
    bogus.access_token.clear();
    page.set_tokens(bogus);
    // The other page logs in again while this page's refresh is under way (as the refresh
    // request leaves, told by the trace, synchronously).
    let written = Rc::new(RefCell::new(false));
    let writes = written.clone();
    let logs_in = other.clone();
    let kept = good.clone();
    page.on_trace(move |line| {
        if line.starts_with("refreshing the access token at") && !*writes.borrow() {
            *writes.borrow_mut() = true;
            logs_in.set_tokens(kept.clone());
        }
    });
    let generation = page.generation();
    let refused = within(10_000, "the refresh", page.refresh()).await;
    assert_eq!(refused, Err(AuthFailure::NeedsLogin));
    assert!(page.generation() > generation, "the tokens changed");
    assert!(
        *written.borrow(),
        "the other page's login came during the refresh"
    );
    assert!(
        page.tokens().is_none(),
        "this page's used-up tokens dropped"
    );
    let stored = Authorizer::new(url, options.clone()).tokens();
    assert_eq!(
        stored.and_then(|t| t.refresh_token),
        good.refresh_token,
        "the other page's tokens left in storage"
    );
    // This page takes them next, and connects.
    let (client, _) = client_of(url, &page);
    within(10_000, "connecting", client.reconnect())
        .await
        .expect("connected with the other page's refresh token");
    echo(&client, "with the other page's login").await;
    client.close();
    page.logout();
}

#[wasm_bindgen_test]
async fn answers_to_the_authorization_flow_that_never_end_are_cut_off_and_the_login_fails_in_words()
{
    let url = ENDLESS.expect("MCP_OAUTH_ENDLESS_URL not set");
    let stats_url = format!("{}/__stats", base_of(url));
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let index = opened_windows().length();
    let connected = within(25_000, "connecting", client.reconnect()).await;
    let Err(ClientError::Auth(AuthFailure::Flow(failure))) = connected else {
        panic!("{connected:?}");
    };
    // Told in the trace; what the flow then read fails as malformed.
    assert!(
        failure.to_string().starts_with("malformed answer from"),
        "{failure}"
    );
    assert_traced(
        &auth,
        "  → the answer is longer than 1024 KiB: read no further",
    );
    let mut stats = get_json(&stats_url).await;
    for _ in 0..250 {
        if stats["open"] == 0 {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
        stats = get_json(&stats_url).await;
    }
    assert_eq!(stats["open"], 0, "every endless answer hung up on: {stats}");
    assert_eq!(
        stats["ran_out"], 0,
        "none read to the server's bound: {stats}"
    );
    let sent: Vec<u64> = stats["hung_up_after"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert!(!sent.is_empty(), "the flow asked for something: {stats}");
    // What the kernel and the browser buffer on the way comes on top of the 1 MiB read: the
    // server says how much that can be on this machine (far below its 256 MiB).
    let in_flight = stats["in_flight_bound"].as_u64().expect("a bound");
    assert!(
        sent.iter().all(|&bytes| bytes <= (1 << 20) + in_flight),
        "each hung up on soon after the 1 MiB read (+ {in_flight} bytes in flight): {sent:?}"
    );
    if opened_windows().length() > index {
        let window: web_sys::Window = opened_windows().get(index).unchecked_into();
        assert!(window.closed().unwrap_or(false), "the login window closed");
    }
    assert!(auth.tokens().is_none());
    client.close();
}

#[wasm_bindgen_test]
async fn only_the_login_windows_answer_is_taken_not_a_message_from_elsewhere_or_of_another_kind() {
    let (_, client) = logged_in_as(gateway(), Person::LetsOtherMessagesComeFirst).await;
    echo(&client, "after other messages").await;
    client.close();
}

#[wasm_bindgen_test]
async fn a_login_refused_in_a_window_cut_off_from_this_page_fails_and_that_window_says_why() {
    let url = gateway();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, _) = client_of(url, &auth);
    let connecting = within(30_000, "connecting with a login", client.reconnect());
    let index = opened_windows().length();
    let connected = with_person(
        Person::RefusesInAWindowCutOffFromThisPage,
        &auth,
        connecting,
    )
    .await;
    let Err(ClientError::Auth(failure)) = connected else {
        panic!("{connected:?}");
    };
    assert_eq!(
        failure,
        AuthFailure::Flow(client_browser::client_core::oauth::AuthError::Denied {
            error: "access_denied".into(),
            description: Some("The person said no".into())
        })
    );
    assert!(reads_closed(index), "the login window is closed");
    client.close();
}

#[wasm_bindgen_test]
async fn a_callback_page_whose_answer_no_login_takes_says_so_after_a_moment() {
    let frame = callback_frame("?code=unclaimed&state=a-login-nobody-waits-for").await;
    assert_eq!(
        status_in(&frame).as_deref(),
        Some(WAITING[1]),
        "at first, it hands the answer on"
    );
    let said = said_in_the_end(&frame).await.unwrap();
    remove_frame(&frame);
    assert_eq!(
        said,
        "No login was waiting in this tab. If another window started it, it has been told; you can close this one."
    );
}

/// The page's monotonic clock, as the browser layer reads it for the core.
fn clock() -> client_browser::client_core::Instant {
    let ms = web_sys::window().unwrap().performance().unwrap().now();
    client_browser::client_core::Instant(ms as u64)
}

/// Performs one request of an authorization flow with `fetch`: its status and body (status 0
/// and no body when the browser got no answer).
async fn fetch_for_flow(req: &client_browser::client_core::oauth::AuthRequest) -> (u16, Vec<u8>) {
    let init = web_sys::RequestInit::new();
    init.set_method(req.method);
    let headers = web_sys::Headers::new().unwrap();
    for (k, v) in &req.headers {
        headers.append(k, v).unwrap();
    }
    init.set_headers(&headers);
    if let Some(body) = &req.body {
        init.set_body(&JsValue::from_str(body));
    }
    let window = web_sys::window().unwrap();
    let Ok(response) = JsFuture::from(window.fetch_with_str_and_init(&req.url, &init)).await else {
        return (0, Vec::new());
    };
    let response: web_sys::Response = response.unchecked_into();
    let buffer = JsFuture::from(response.array_buffer().unwrap())
        .await
        .unwrap();
    (response.status(), js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Starts a full-page login to `url` as the browser layer does before it leaves the page:
/// runs the core's flow to the authorization URL and keeps the login in progress in
/// `sessionStorage` (the record `Authorizer::login` writes in redirect mode). Gives the
/// authorization URL.
async fn leave_for_login(url: &str) -> String {
    use client_browser::client_core::oauth::{AuthConfig, AuthFlow, AuthOutput, UrlPolicy};
    let mut random = [0u8; 64];
    web_sys::window()
        .unwrap()
        .crypto()
        .unwrap()
        .get_random_values_with_u8_array(&mut random)
        .unwrap();
    let config = AuthConfig {
        server_url: url.into(),
        redirect_uri: callback_url(),
        client_name: "client-browser OAuth test".into(),
        metadata_document_url: None,
        preregistered: Vec::new(),
        application_type: "web".into(),
        policy: UrlPolicy {
            allow_http: true,
            allow_private: true,
        },
        previous_scopes: Vec::new(),
        dpop: false,
    };
    let mut flow = AuthFlow::new(config, random, clock()).expect("a flow");
    flow.start(None);
    let authorization_url = loop {
        match flow.poll_output().expect("the flow goes on") {
            AuthOutput::Trace(_) => {}
            AuthOutput::Navigate(to) => break to,
            AuthOutput::Fetch(req) => {
                let (status, body) = fetch_for_flow(&req).await;
                flow.handle_response(req.id, status, &body, clock());
            }
            other => panic!("the flow ended before the login: {other:?}"),
        }
    };
    let record = json!({
        "server_url": url,
        "pending": flow.pending().expect("a login in progress"),
        "return_to": web_sys::window().unwrap().location().href().unwrap(),
        "storage": "Memory",
        "allow_local": true,
        "trace": ["before leaving for the authorization server"],
    });
    session_storage()
        .set_item("mcp-oauth-pending", &record.to_string())
        .unwrap();
    authorization_url
}

fn session_storage() -> web_sys::Storage {
    web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap()
}

/// Leaves `query` as the callback page does for the page it returns to.
fn leave_callback(query: &str) {
    session_storage()
        .set_item("mcp-oauth-callback", query)
        .unwrap();
}

#[wasm_bindgen_test]
async fn a_full_page_login_is_completed_on_return_and_a_foreign_answer_leaves_it_waiting() {
    use client_browser::auth::{complete_redirect, has_redirect_callback};
    use client_browser::client_core::oauth::AuthError;
    let url = gateway();
    let told = Rc::new(RefCell::new(Vec::<String>::new()));
    let tell = || {
        let told = told.clone();
        move |line: &str| told.borrow_mut().push(line.to_string())
    };
    let options = || oauth_options(LoginMode::Redirect, TokenStorage::Memory);

    // An answer with no login in progress in this tab.
    session_storage().remove_item("mcp-oauth-pending").unwrap();
    assert!(!has_redirect_callback());
    assert!(
        complete_redirect(options(), tell()).await.is_none(),
        "nothing to complete"
    );
    leave_callback("?code=stray&state=nobody");
    assert!(has_redirect_callback());
    let stray = complete_redirect(options(), tell())
        .await
        .expect("an outcome");
    assert_eq!(stray.server_url, None);
    assert!(matches!(
        stray.result,
        Err(AuthFailure::Flow(AuthError::Unexpected))
    ));
    assert!(told
        .borrow()
        .iter()
        .any(|l| l == "an authorization answer arrived, but no login was in progress in this tab"));
    assert!(!has_redirect_callback(), "the answer is taken once");

    // The person goes to the authorization server (here in a window of its own: the test's
    // page cannot leave) and comes back with the answer.
    let authorization_url = leave_for_login(url).await;
    let index = opened_windows().length();
    web_sys::window()
        .unwrap()
        .open_with_url_and_target(&authorization_url, "full-page-login")
        .expect("opened")
        .expect("a window");
    let (window, query) = window_back(index).await.expect("back with the answer");
    window.unchecked_into::<web_sys::Window>().close().unwrap();

    // A foreign answer first: refused, and the login stays in progress for the real one.
    leave_callback("?code=forged&state=another-login");
    let foreign = complete_redirect(options(), tell())
        .await
        .expect("an outcome");
    assert_eq!(foreign.server_url.as_deref(), Some(url));
    assert!(
        matches!(
            foreign.result,
            Err(AuthFailure::Flow(AuthError::StateMismatch))
        ),
        "{:?}",
        foreign.result.as_ref().err()
    );
    assert!(session_storage()
        .get_item("mcp-oauth-pending")
        .unwrap()
        .is_some());

    leave_callback(&query);
    let outcome = complete_redirect(options(), tell())
        .await
        .expect("an outcome");
    assert_eq!(outcome.server_url.as_deref(), Some(url));
    let auth = outcome.result.expect("logged in");
    assert!(
        session_storage()
            .get_item("mcp-oauth-pending")
            .unwrap()
            .is_none(),
        "done"
    );
    assert!(!has_redirect_callback());
    let trace = auth.trace_lines();
    assert_eq!(
        trace.first().map(String::as_str),
        Some("before leaving for the authorization server"),
        "the trace from before leaving, carried across"
    );
    for line in ["back from the authorization server", "got an access token"] {
        assert!(
            trace.iter().any(|l| l == line),
            "{line} missing from {trace:?}"
        );
    }
    assert!(
        told.borrow().iter().any(|l| l == "got an access token"),
        "told as it went"
    );
    let (client, _) = client_of(url, &auth);
    within(10_000, "connecting", client.reconnect())
        .await
        .expect("connected with the tokens of the full-page login");
    echo(&client, "after a full-page login").await;
    client.close();
}

/// A page of this origin other than the test's (a frame, loaded): what it writes to
/// `localStorage` reaches the test's page as a `storage` event, as another tab's would.
async fn another_page() -> JsValue {
    let frame = add_frame(&callback_url());
    for _ in 0..500 {
        let loaded = get(&frame, "contentDocument")
            .filter(|d| !d.is_null())
            .and_then(|d| get(&d, "readyState")?.as_string())
            .is_some_and(|s| s == "complete")
            && get(&frame, "contentWindow")
                .and_then(|w| get(&get(&w, "location")?, "href")?.as_string())
                .is_some_and(|href| href.starts_with(&callback_url()));
        if loaded {
            return frame;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("the other page did not load within 10 s");
}

/// Writes `value` under `key` in `localStorage` from the page `frame`.
fn write_from(frame: &JsValue, key: &str, value: &str) {
    let write = js_sys::Function::new_with_args(
        "f, key, value",
        "f.contentWindow.localStorage.setItem(key, value);",
    );
    write
        .call3(&JsValue::NULL, frame, &key.into(), &value.into())
        .expect("written");
}

#[wasm_bindgen_test]
async fn a_page_whose_storage_still_holds_a_refresh_token_another_page_used_up_waits_for_the_new_one(
) {
    let url = gateway();
    let key = format!("mcp-oauth/v1/{url}");
    let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let options = oauth_options(LoginMode::Popup, TokenStorage::Local);
    let first = Authorizer::new(url, options.clone());
    first.logout();
    let (first_client, _) = client_of(url, &first);
    connect_logging_in(&first_client, &first).await;
    let used_up = first
        .tokens()
        .and_then(|t| t.refresh_token)
        .expect("a refresh token");
    // Another page, opened meanwhile, holds the same refresh token.
    let second = Authorizer::new(url, options.clone());
    assert_eq!(
        second.tokens().and_then(|t| t.refresh_token),
        Some(used_up.clone())
    );
    let refreshes = refreshes_granted().await;

    // The first page refreshes: its refresh token is used up, the new one stored.
    expire_tokens(url).await;
    echo(&first_client, "first, refreshed").await;
    let newest = local
        .get_item(&key)
        .unwrap()
        .expect("the new refresh token stored");
    assert!(!newest.contains(&used_up));
    // The second page's storage has not caught up yet: it still shows the used-up token.
    let lagging = newest.replace(
        first
            .tokens()
            .and_then(|t| t.refresh_token)
            .unwrap()
            .as_str(),
        &used_up,
    );
    local.set_item(&key, &lagging).unwrap();

    // Never brought: after 5 s the second page says a login is needed, and has not used
    // the token up a second time.
    let waited = within(10_000, "the refresh", second.refresh()).await;
    assert_eq!(waited, Err(AuthFailure::NeedsLogin));
    let trace = second.trace_lines();
    for line in [
        "another page of this site used this refresh token up: waiting for this page's storage to bring the one it left",
        "the refresh token another page left never reached this page's storage: a new login is needed",
    ] {
        assert!(trace.iter().any(|l| l == line), "{line} missing from {trace:?}");
    }
    assert_eq!(
        refreshes_granted().await,
        refreshes + 1,
        "only the first page refreshed"
    );

    // Brought while it waits: it refreshes with the new token, and the grant survives.
    let frame = another_page().await;
    let heard = Rc::new(RefCell::new(0));
    let hears = heard.clone();
    second.on_trace(move |line| {
        if line.starts_with("another page of this site used this refresh token up") {
            *hears.borrow_mut() += 1;
        }
    });
    let bring = async {
        until(5_000, "the second page waiting", || *heard.borrow() > 0).await;
        write_from(&frame, &key, &newest);
    };
    let (refreshed, ()) = join(within(10_000, "the refresh", second.refresh()), bring).await;
    refreshed.expect("refreshed with the token the other page left");
    assert_eq!(refreshes_granted().await, refreshes + 2);
    let (second_client, _) = client_of(url, &second);
    within(10_000, "the second connecting", second_client.reconnect())
        .await
        .expect("connected");
    echo(&second_client, "second, refreshed").await;
    expire_tokens(url).await;
    echo(&first_client, "first, refreshed again: the grant survived").await;
    first_client.close();
    second_client.close();
    first.logout();
    second.logout();
}

#[wasm_bindgen_test]
async fn a_login_window_the_browser_blocks_fails_the_connection_in_words() {
    let url = gateway();
    opened_windows();
    // As a browser that blocks popups does: `window.open` gives no window (once: it puts
    // itself back when called, so that a failure here blocks no later test's window).
    let block = js_sys::Function::new_no_args(
        "window.__allowedOpen = window.open;
         window.open = () => { window.open = window.__allowedOpen; return null; };",
    );
    let allow = js_sys::Function::new_no_args("window.open = window.__allowedOpen;");
    block.call0(&JsValue::NULL).unwrap();
    let auth = Authorizer::new(url, oauth_options(LoginMode::Popup, TokenStorage::Memory));
    let (client, events) = client_of(url, &auth);
    let connected = within(10_000, "connecting", client.reconnect()).await;
    allow.call0(&JsValue::NULL).unwrap();
    let Err(ClientError::Auth(failure)) = connected else {
        panic!("{connected:?}");
    };
    assert_eq!(failure, AuthFailure::PopupBlocked);
    assert!(
        failure.to_string().contains("allow popups for this page"),
        "{failure}"
    );
    assert!(auth.tokens().is_none());
    let told = login_needed(&events).len();
    assert_eq!(told, 0, "a failure of its own, not a login needed");
    client.close();
}

#[wasm_bindgen_test]
async fn resource_metadata_the_page_may_not_read_counts_as_absent_and_the_well_known_one_is_used() {
    let url = METADATA_WITHOUT_CORS.expect("MCP_OAUTH_METADATA_WITHOUT_CORS_URL not set");
    let (auth, client) = logged_in(url).await;
    echo(&client, "after metadata without CORS").await;
    let trace = auth.trace_lines();
    let unread = format!("{}/__no_cors/metadata", base_of(url));
    let at = trace
        .iter()
        .position(|l| l == &format!("looking for protected resource metadata at {unread}"))
        .unwrap_or_else(|| panic!("{trace:?}"));
    assert!(trace[at + 1].starts_with("  → no answer: "), "{trace:?}");
    assert!(
        trace[at..]
            .iter()
            .any(|l| l.starts_with("resource metadata from")
                && l.contains("/.well-known/oauth-protected-resource")),
        "{trace:?}"
    );
    client.close();
}
