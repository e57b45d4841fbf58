//! Refresh tokens passed on between copies of one tab.
//!
//! With the default storage ([`super::TokenStorage::Session`]) a tab that the person
//! duplicates, or that the page opens with `window.open`, starts with a copy of this tab's
//! `sessionStorage`: the same refresh token. Authorization servers rotate refresh tokens, and
//! one used twice makes many of them (oidc-provider, those following the OAuth 2.1 advice)
//! revoke the whole grant. So without this, the second copy to refresh (for instance the
//! original tab, reloaded after the person duplicated it) would log out both.
//!
//! The copies of one login share a *lineage*: an id and an AES-GCM key, kept in
//! `sessionStorage` next to the refresh token and so copied with it. The copies refresh one at
//! a time (a Web Lock, see [`super::Authorizer`]), and the one that refreshed leaves its new
//! refresh material in `localStorage`, encrypted with the lineage's key, where the next one to
//! refresh picks it up. Once every copy is closed the key is gone with them and what is left in
//! `localStorage` can no longer be read: the refresh token still lasts no longer than the tab.
//!
//! Tabs that logged in on their own have lineages of their own and never read each other's.
//! Where the page has no WebCrypto (not a secure context) nothing is passed on, as before.

use super::storage::{area, TokenStorage};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use client_core::oauth::TokenSet;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The `sessionStorage` key prefix of a lineage (followed by the MCP server URL).
const LINEAGE_PREFIX: &str = "mcp-oauth/v1/lineage/";
/// The `localStorage` key prefix of what a lineage passed on (followed by the lineage id).
const HANDOVER_PREFIX: &str = "mcp-oauth/v1/handover/";
/// Records not rewritten for this long are removed when another one is written (a copy of a
/// tab left this long without refreshing will need a new login).
const HANDOVER_KEPT_MS: f64 = 30.0 * 24.0 * 3600.0 * 1000.0;

/// The copies of one login: what they share to pass refresh tokens on.
#[derive(Clone, PartialEq, Eq)]
pub struct Lineage {
    id: String,
    key: [u8; 32],
}

impl std::fmt::Debug for Lineage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key stays out of logs.
        f.debug_struct("Lineage").field("id", &self.id).finish()
    }
}

/// What one copy left for the others, as kept in `localStorage`.
#[derive(Serialize, Deserialize)]
struct Handover {
    /// The AES-GCM nonce, base64url.
    iv: String,
    /// The encrypted refresh material (a [`TokenSet`] without its access token), base64url.
    data: String,
    /// When it was written, ms since the epoch.
    at: f64,
}

impl Lineage {
    /// The lineage of this tab's login to `server_url`, if one was started (here or in the tab
    /// this one was copied from).
    pub fn of(server_url: &str) -> Option<Lineage> {
        let kept = area(TokenStorage::Session)?
            .get_item(&format!("{LINEAGE_PREFIX}{server_url}"))
            .ok()
            .flatten()?;
        let (id, key) = kept.split_once('.')?;
        let key: [u8; 32] = URL_SAFE_NO_PAD.decode(key).ok()?.try_into().ok()?;
        Some(Lineage {
            id: id.to_string(),
            key,
        })
    }

    /// Starts a new lineage for `server_url` in this tab (after a login: tabs copied from this
    /// one from now on share it).
    pub fn start(server_url: &str) -> Option<Lineage> {
        let random = super::random::random_bytes().ok()?;
        let mut key = [0u8; 32];
        key.copy_from_slice(&random[16..48]);
        let lineage = Lineage {
            id: URL_SAFE_NO_PAD.encode(&random[..16]),
            key,
        };
        let kept = format!("{}.{}", lineage.id, URL_SAFE_NO_PAD.encode(lineage.key));
        area(TokenStorage::Session)?
            .set_item(&format!("{LINEAGE_PREFIX}{server_url}"), &kept)
            .ok()?;
        Some(lineage)
    }

    /// This tab's lineage for `server_url`, started now if there is none yet (tokens kept
    /// before lineages existed).
    pub fn of_or_start(server_url: &str) -> Option<Lineage> {
        Lineage::of(server_url).or_else(|| Lineage::start(server_url))
    }

    /// Seals `tokens` (without the access token) for the other copies; [`Lineage::leave`]
    /// then leaves them. Two steps, so that the caller can keep the tokens itself and leave
    /// them for the copies in one go, with no `await` between (a page gone between the two
    /// would leave its copies a used refresh token).
    pub async fn seal(&self, server_url: &str, tokens: &TokenSet) -> Result<Sealed, String> {
        let mut kept = tokens.clone();
        kept.access_token.clear();
        kept.expires_at = None;
        let plain = serde_json::to_vec(&kept).map_err(|e| e.to_string())?;
        let random = super::random::random_bytes()?;
        let iv = &random[..12];
        let sealed = self.crypt(Direction::Seal, server_url, iv, &plain).await?;
        let record = Handover {
            iv: URL_SAFE_NO_PAD.encode(iv),
            data: URL_SAFE_NO_PAD.encode(sealed),
            at: js_sys::Date::now(),
        };
        Ok(Sealed(record))
    }

    /// Leaves what [`Lineage::seal`] sealed for the other copies, replacing what was left
    /// before. If it was not sealed or cannot be written, what was left before is removed
    /// (it holds a refresh token now used up): the copies then refresh with their own, as
    /// they would without this.
    pub fn leave(&self, sealed: Result<Sealed, String>) -> Result<(), String> {
        let local = area(TokenStorage::Local).ok_or("this page has no localStorage")?;
        let key = format!("{HANDOVER_PREFIX}{}", self.id);
        let written = sealed.and_then(|sealed| {
            remove_stale(&local, sealed.0.at);
            let json = serde_json::to_string(&sealed.0).map_err(|e| e.to_string())?;
            local
                .set_item(&key, &json)
                .map_err(|e| crate::fetch::js_message(&e))
        });
        if written.is_err() {
            let _ = local.remove_item(&key);
        }
        written
    }

    /// What another copy of this tab left for `server_url`, if anything (and if it can be
    /// read: a record that was tampered with, or is not of this lineage, is none).
    pub async fn passed_on(&self, server_url: &str) -> Option<TokenSet> {
        let json = area(TokenStorage::Local)?
            .get_item(&format!("{HANDOVER_PREFIX}{}", self.id))
            .ok()
            .flatten()?;
        let record: Handover = serde_json::from_str(&json).ok()?;
        let iv = URL_SAFE_NO_PAD.decode(record.iv).ok()?;
        let sealed = URL_SAFE_NO_PAD.decode(record.data).ok()?;
        if iv.len() != 12 {
            return None;
        }
        let plain = self
            .crypt(Direction::Open, server_url, &iv, &sealed)
            .await
            .ok()?;
        client_core::types::from_json(&plain).ok()
    }

    /// Forgets this tab's lineage for `server_url` and what it passed on (logging out).
    pub fn forget(server_url: &str) {
        if let Some(lineage) = Lineage::of(server_url) {
            if let Some(local) = area(TokenStorage::Local) {
                let _ = local.remove_item(&format!("{HANDOVER_PREFIX}{}", lineage.id));
            }
        }
        if let Some(session) = area(TokenStorage::Session) {
            let _ = session.remove_item(&format!("{LINEAGE_PREFIX}{server_url}"));
        }
    }

    /// AES-256-GCM with this lineage's key, the MCP server URL as additional data (a record
    /// is read back only for the server it was written for).
    async fn crypt(
        &self,
        direction: Direction,
        server_url: &str,
        iv: &[u8],
        data: &[u8],
    ) -> Result<Vec<u8>, String> {
        let subtle = super::dpop::subtle()?;
        let msg = |e: JsValue| crate::fetch::js_message(&e);
        let usage = match direction {
            Direction::Seal => "encrypt",
            Direction::Open => "decrypt",
        };
        let key_bytes = js_sys::Uint8Array::from(&self.key[..]);
        let key: web_sys::CryptoKey = JsFuture::from(
            subtle
                .import_key_with_str(
                    "raw",
                    &key_bytes,
                    "AES-GCM",
                    false,
                    &js_sys::Array::of1(&usage.into()),
                )
                .map_err(msg)?,
        )
        .await
        .map_err(msg)?
        .unchecked_into();
        let params = js_sys::Object::new();
        let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&params, &k.into(), v).map(|_| ());
        set("name", &"AES-GCM".into()).map_err(msg)?;
        set("iv", &js_sys::Uint8Array::from(iv)).map_err(msg)?;
        set(
            "additionalData",
            &js_sys::Uint8Array::from(server_url.as_bytes()),
        )
        .map_err(msg)?;
        let promise = match direction {
            Direction::Seal => subtle.encrypt_with_object_and_u8_array(&params, &key, data),
            Direction::Open => subtle.decrypt_with_object_and_u8_array(&params, &key, data),
        }
        .map_err(msg)?;
        let out = JsFuture::from(promise).await.map_err(msg)?;
        Ok(js_sys::Uint8Array::new(&out).to_vec())
    }
}

/// Refresh material sealed by [`Lineage::seal`], to be left by [`Lineage::leave`].
pub struct Sealed(Handover);

/// Which way [`Lineage::crypt`] goes.
#[derive(Clone, Copy)]
enum Direction {
    Seal,
    Open,
}

/// Removes the handover records (of any lineage) not rewritten for [`HANDOVER_KEPT_MS`], and
/// any that cannot be read as one.
fn remove_stale(local: &web_sys::Storage, now: f64) {
    let count = local.length().unwrap_or(0);
    let stale: Vec<String> = (0..count)
        .filter_map(|i| local.key(i).ok().flatten())
        .filter(|k| k.starts_with(HANDOVER_PREFIX))
        .filter(|k| {
            let record = local
                .get_item(k)
                .ok()
                .flatten()
                .and_then(|json| serde_json::from_str::<Handover>(&json).ok());
            record.is_none_or(|r| now - r.at > HANDOVER_KEPT_MS)
        })
        .collect();
    for k in stale {
        let _ = local.remove_item(&k);
    }
}
