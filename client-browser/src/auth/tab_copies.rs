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
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use client_core::oauth::TokenSet;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The `sessionStorage` key prefix of a lineage (followed by the MCP server URL).
const LINEAGE_PREFIX: &str = "mcp-oauth/v1/lineage/";
/// The `localStorage` key prefix of what a lineage passed on (followed by the lineage id).
const HANDOVER_PREFIX: &str = "mcp-oauth/v1/handover/";
/// Records not rewritten for this long are removed when another one is written (a copy of a
/// tab left this long without refreshing will need a new login).
const HANDOVER_KEPT_MS: u64 = 30 * 24 * 3600 * 1000;

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

/// What one copy left for the others, as kept in `localStorage`: `<at>.<iv>.<data>`.
///
/// Not JSON and decoded by the browser's `atob`: a JSON reader for one more type and a
/// base64 decoder in Rust added some 8 KB to the wasm for these three fields (measured).
struct Handover {
    /// When it was written, ms since the epoch.
    at: u64,
    /// The AES-GCM nonce.
    iv: Vec<u8>,
    /// The encrypted refresh material (a [`TokenSet`] without its access token).
    data: Vec<u8>,
}

impl Handover {
    /// The record as kept.
    fn to_text(&self) -> String {
        format!(
            "{}.{}.{}",
            self.at,
            STANDARD.encode(&self.iv),
            STANDARD.encode(&self.data)
        )
    }

    /// A record read back; none if it is not one.
    fn from_text(text: &str) -> Option<Handover> {
        let mut parts = text.split('.');
        let (at, iv, data) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        Some(Handover {
            at: at.parse().ok()?,
            iv: from_base64(iv)?,
            data: from_base64(data)?,
        })
    }
}

/// Decodes standard base64 with the browser's `atob` (see [`Handover`]).
fn from_base64(text: &str) -> Option<Vec<u8>> {
    let binary = web_sys::window()?.atob(text).ok()?;
    binary
        .chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect()
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
        let key: [u8; 32] = from_base64(key)?.try_into().ok()?;
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
            // Standard base64 has no '.', the separator.
            id: STANDARD.encode(&random[..16]),
            key,
        };
        let kept = format!("{}.{}", lineage.id, STANDARD.encode(lineage.key));
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
        // `to_string` and `from_slice`, as everywhere else: other forms would add a second JSON
        // writer or reader to the wasm.
        let plain = serde_json::to_string(&kept).map_err(|e| e.to_string())?;
        let random = super::random::random_bytes()?;
        let iv = &random[..12];
        let sealed = self
            .crypt(Direction::Seal, server_url, iv, plain.as_bytes())
            .await?;
        let record = Handover {
            iv: iv.to_vec(),
            data: sealed,
            at: js_sys::Date::now() as u64,
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
            let text = sealed.0.to_text();
            local
                .set_item(&key, &text)
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
        let text = area(TokenStorage::Local)?
            .get_item(&format!("{HANDOVER_PREFIX}{}", self.id))
            .ok()
            .flatten()?;
        let Handover {
            iv, data: sealed, ..
        } = Handover::from_text(&text)?;
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
fn remove_stale(local: &web_sys::Storage, now: u64) {
    let count = local.length().unwrap_or(0);
    let stale: Vec<String> = (0..count)
        .filter_map(|i| local.key(i).ok().flatten())
        .filter(|k| k.starts_with(HANDOVER_PREFIX))
        .filter(|k| {
            let record = local
                .get_item(k)
                .ok()
                .flatten()
                .and_then(|text| Handover::from_text(&text));
            record.is_none_or(|r| now.saturating_sub(r.at) > HANDOVER_KEPT_MS)
        })
        .collect();
    for k in stale {
        let _ = local.remove_item(&k);
    }
}
