//! Where refresh material lives between page loads. Access tokens are never written
//! anywhere: they stay in memory and are refreshed after a reload.

use client_core::oauth::TokenSet;
use serde::{Deserialize, Serialize};

/// Where refresh tokens and client registrations are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TokenStorage {
    /// Nowhere: a reload means logging in again.
    Memory,
    /// `sessionStorage` (default): this tab only, gone when it closes. Readable by any
    /// script on this origin, so an XSS on the page can steal it.
    #[default]
    Session,
    /// `localStorage`: survives closing the browser; same XSS exposure, for longer. Opt in only.
    Local,
}

const PREFIX: &str = "mcp-oauth/v1/";

/// The browser storage of that kind (none for `Memory`, or where the page has none).
pub(crate) fn area(kind: TokenStorage) -> Option<web_sys::Storage> {
    let w = web_sys::window()?;
    match kind {
        TokenStorage::Memory => None,
        TokenStorage::Session => w.session_storage().ok().flatten(),
        TokenStorage::Local => w.local_storage().ok().flatten(),
    }
}

/// Keeps what is needed to refresh `tokens` (never the access token).
pub(crate) fn save(kind: TokenStorage, server_url: &str, tokens: &TokenSet) {
    let Some(s) = area(kind) else { return };
    let mut kept = tokens.clone();
    kept.access_token.clear();
    kept.expires_at = None;
    if let Ok(json) = serde_json::to_string(&kept) {
        let _ = s.set_item(&format!("{PREFIX}{server_url}"), &json);
    }
}

/// What was kept for `server_url` (with an empty access token), if anything.
pub(crate) fn load(kind: TokenStorage, server_url: &str) -> Option<TokenSet> {
    let s = area(kind)?;
    let json = s
        .get_item(&format!("{PREFIX}{server_url}"))
        .ok()
        .flatten()?;
    client_core::types::from_json(json.as_bytes()).ok()
}

/// Forgets everything kept for `server_url`, in every storage.
pub(crate) fn forget(server_url: &str) {
    for kind in [TokenStorage::Session, TokenStorage::Local] {
        if let Some(s) = area(kind) {
            let _ = s.remove_item(&format!("{PREFIX}{server_url}"));
        }
    }
}
