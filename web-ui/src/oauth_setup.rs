//! How the app logs in: OAuth options for this page, and whether our Client ID Metadata
//! Document is hosted correctly beside it.

use client_browser::{LoginMode, OAuthOptions, TokenStorage};
use std::cell::RefCell;

thread_local! {
    /// What the look for our Client ID Metadata Document found (`None`: not looked yet).
    static METADATA_DOCUMENT: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// The app's OAuth options: full-page login, the callback page beside the app, refresh
/// material in `sessionStorage`, and our Client ID Metadata Document if it was found already
/// (see [`metadata_document`]).
pub fn options(allow_local: bool) -> OAuthOptions {
    let mut o = OAuthOptions::for_page();
    o.mode = LoginMode::Redirect;
    o.storage = TokenStorage::Session;
    o.allow_local = allow_local;
    o.metadata_document_url = found_metadata_document();
    o
}

/// Our Client ID Metadata Document, if the look for it found one (no lookup here).
pub fn found_metadata_document() -> Option<String> {
    METADATA_DOCUMENT.with(|m| m.borrow().clone().flatten())
}

/// Whether a fetched `client-metadata.json` may serve as our client id: its `client_id` must
/// be the URL it was fetched from, and it must list our redirect URI exactly.
pub fn metadata_document_usable(
    fetched_from: &str,
    document: &serde_json::Value,
    redirect_uri: &str,
) -> bool {
    let id_matches = document.get("client_id").and_then(|v| v.as_str()) == Some(fetched_from);
    let lists_redirect = document
        .get("redirect_uris")
        .and_then(|v| v.as_array())
        .is_some_and(|uris| uris.iter().any(|u| u.as_str() == Some(redirect_uri)));
    id_matches && lists_redirect && fetched_from.starts_with("https://")
}

/// Looks for `client-metadata.json` beside the app (once; the answer is kept) and returns its
/// URL if it describes this deployment (see README, "Hosting"); otherwise logins register
/// dynamically. Looked for only when a login may need it (not on every page load), and only
/// on an `https:` page: a document fetched over `http:` cannot serve as a client id.
pub async fn metadata_document() -> Option<String> {
    if let Some(found) = METADATA_DOCUMENT.with(|m| m.borrow().clone()) {
        return found;
    }
    let o = OAuthOptions::for_page();
    let url = client_browser::ascii_url::join_url(&o.redirect_uri, "client-metadata.json")
        .filter(|u| u.starts_with("https://"));
    let found = match url {
        Some(url) => fetch_json(&url)
            .await
            .filter(|doc| metadata_document_usable(&url, doc, &o.redirect_uri))
            .map(|_| url),
        None => None,
    };
    METADATA_DOCUMENT.with(|m| *m.borrow_mut() = Some(found.clone()));
    found
}

async fn fetch_json(url: &str) -> Option<serde_json::Value> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window()?;
    let resp: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .ok()?
        .dyn_into()
        .ok()?;
    if !resp.ok() {
        return None;
    }
    let text = JsFuture::from(resp.text().ok()?).await.ok()?.as_string()?;
    serde_json::from_slice(text.as_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_document_describing_this_deployment_is_used() {
        let here = "https://app.example/client-metadata.json";
        let cb = "https://app.example/oauth-callback.html";
        let good = json!({"client_id": here, "redirect_uris": [cb]});
        assert!(metadata_document_usable(here, &good, cb));
        // The template as shipped (another origin), a missing redirect, plain http: not used.
        assert!(!metadata_document_usable(
            here,
            &json!({"client_id": "https://mcp-client.example/client-metadata.json", "redirect_uris": [cb]}),
            cb
        ));
        assert!(!metadata_document_usable(
            here,
            &json!({"client_id": here, "redirect_uris": ["https://app.example/other"]}),
            cb
        ));
        let h = "http://app.example/client-metadata.json";
        assert!(!metadata_document_usable(
            h,
            &json!({"client_id": h, "redirect_uris": [cb]}),
            cb
        ));
    }
}
