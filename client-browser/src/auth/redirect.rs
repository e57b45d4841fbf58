//! The full-page login: what must survive the trip to the authorization server is kept in
//! `sessionStorage` (this tab only) under [`PENDING_KEY`]; the callback page puts the
//! answer's query string under [`CALLBACK_KEY`] and returns to the page that left, which
//! calls [`complete_redirect`].

use super::{storage::TokenStorage, AuthFailure, Authorizer, OAuthOptions, Stop};
use crate::clock::now;
use client_core::oauth::{AuthError, AuthFlow, PendingAuthorization};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// Where the login in progress is kept (read by `www/oauth-callback.js` for `return_to`).
pub const PENDING_KEY: &str = "mcp-oauth-pending";
/// Where the callback page leaves the answer's query string.
pub const CALLBACK_KEY: &str = "mcp-oauth-callback";

#[derive(Serialize, Deserialize)]
struct PendingRecord {
    server_url: String,
    pending: PendingAuthorization,
    return_to: String,
    storage: TokenStorage,
    allow_local: bool,
    /// The trace before leaving, shown again on return.
    #[serde(default)]
    trace: Vec<String>,
}

fn session() -> Result<web_sys::Storage, AuthFailure> {
    web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .ok_or(AuthFailure::Browser(
            "sessionStorage is not available (the full-page login needs it)".into(),
        ))
}

/// Keeps the login in progress and sends the page to `url`.
pub(super) fn leave(
    auth: &Authorizer,
    pending: PendingAuthorization,
    url: &str,
) -> Result<(), AuthFailure> {
    let window = web_sys::window().ok_or(AuthFailure::Browser("no window".into()))?;
    let return_to = window.location().href().unwrap_or_default();
    let record = PendingRecord {
        server_url: auth.server_url.clone(),
        pending,
        return_to,
        storage: auth.options.storage,
        allow_local: auth.options.allow_local,
        trace: auth.trace_lines(),
    };
    let json = serde_json::to_string(&record).map_err(|e| AuthFailure::Browser(e.to_string()))?;
    session()?
        .set_item(PENDING_KEY, &json)
        .map_err(|e| AuthFailure::Browser(crate::fetch::js_message(&e)))?;
    window
        .location()
        .assign(url)
        .map_err(|e| AuthFailure::Browser(crate::fetch::js_message(&e)))
}

/// Whether the callback page left an answer for this tab.
pub fn has_redirect_callback() -> bool {
    session()
        .ok()
        .and_then(|s| s.get_item(CALLBACK_KEY).ok().flatten())
        .is_some()
}

/// How a full-page login ended.
pub struct RedirectOutcome {
    /// The server the login was for (unknown if nothing was pending).
    pub server_url: Option<String>,
    /// Logged in (the authorizer holds the tokens), or why not.
    pub result: Result<Rc<Authorizer>, AuthFailure>,
}

/// Finishes a full-page login after the callback page brought the person back: checks the
/// answer (`state`, `iss`), exchanges the code, and returns an [`Authorizer`] holding the
/// tokens. `None` when there is no answer waiting. A foreign `state` is refused and the
/// login stays pending (the real answer may still come); any other outcome ends it.
pub async fn complete_redirect(
    options: OAuthOptions,
    on_trace: impl Fn(&str) + 'static,
) -> Option<RedirectOutcome> {
    let store = session().ok()?;
    let query = store.get_item(CALLBACK_KEY).ok().flatten()?;
    let _ = store.remove_item(CALLBACK_KEY);
    let record: Option<PendingRecord> = store
        .get_item(PENDING_KEY)
        .ok()
        .flatten()
        .and_then(|j| client_core::types::from_json(j.as_bytes()).ok());
    let Some(record) = record else {
        on_trace("an authorization answer arrived, but no login was in progress in this tab");
        return Some(RedirectOutcome {
            server_url: None,
            result: Err(AuthFailure::Flow(AuthError::Unexpected)),
        });
    };
    let mut options = options;
    options.storage = record.storage;
    options.allow_local = record.allow_local;
    let auth = Authorizer::new(record.server_url.clone(), options);
    auth.on_trace(on_trace);
    for line in &record.trace {
        auth.trace(line);
    }
    auth.trace("back from the authorization server");
    let result = finish(&auth, record.pending, &query).await;
    match &result {
        Err(AuthFailure::Flow(AuthError::StateMismatch)) => {}
        _ => {
            let _ = store.remove_item(PENDING_KEY);
        }
    }
    if let Err(e) = &result {
        if let AuthFailure::Flow(AuthError::Token { error, .. }) = e {
            if error == "invalid_client" {
                // Our registration is gone: the next login registers again.
                auth.forget();
            }
        }
        auth.trace(&format!("login failed: {e}"));
    }
    Some(RedirectOutcome {
        server_url: Some(record.server_url),
        result: result.map(|_| auth),
    })
}

async fn finish(
    auth: &Rc<Authorizer>,
    pending: PendingAuthorization,
    query: &str,
) -> Result<(), AuthFailure> {
    let mut flow = AuthFlow::resume(auth.config(), pending, now())?;
    flow.handle_callback(&super::parse_query(query), now());
    match auth.pump(&mut flow).await? {
        Stop::Done(t) => {
            auth.set_tokens(*t);
            Ok(())
        }
        Stop::Navigate(_) => Err(AuthFailure::Flow(AuthError::Unexpected)),
    }
}
