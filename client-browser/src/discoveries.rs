//! Each modern server's `server/discover` result, kept while the server says it is fresh, so
//! that the next connection to it starts at once instead of after the probe's round trip
//! (2026-07-28 "Caching": `server/discover` results carry `ttlMs` and `cacheScope`, and a
//! fresh result may be used without asking again).
//!
//! Only results the server marks `cacheScope: "public"` are kept: they are the same for every
//! user, so they may outlive the page in `localStorage` (a private one belongs to a single
//! authorization context and is not written anywhere). They are kept under the server URL
//! without user info, query and fragment ([`crate::eras::memory_key`]), with an expiry on the
//! wall clock (`Date.now()`). A result the server gave only with credentials (an
//! `Authorization` header) is used only by a connection that has credentials too: one without
//! them probes, so that the server's authorization challenge comes while connecting, where the
//! application expects it, not on its first request. The session checks a kept result against the server's first
//! answer and probes again if the server changed (see
//! `client_core::SessionConfig::known_discover`); what it then finds replaces the entry.

use crate::eras::storage;
use serde_json::{Map, Value};

/// The `localStorage` key: a JSON object of server URL to `{"until": <ms since the epoch>,
/// "credentials": <asked with credentials>, "result": <the discover result>}`.
pub const STORAGE_KEY: &str = "mcp-browser-client.discover";

/// At most this many servers' results are kept; the one closest to expiry goes first.
const MAX_KEPT: usize = 32;

/// Results larger than this (serialized) are not kept: `localStorage` is small and shared by
/// the whole site.
const MAX_RESULT_BYTES: usize = 32 << 10;

/// Longest freshness honoured, as in the core's response cache (a day): an entry that claims
/// more (a clock set back since it was written, or an edited entry) is not trusted.
const MAX_FRESH_MS: f64 = 24.0 * 60.0 * 60.0 * 1000.0;

fn stored(s: &web_sys::Storage) -> Map<String, Value> {
    crate::eras::stored_object(s, STORAGE_KEY)
}

fn until(entry: &Value) -> Option<f64> {
    entry.get("until")?.as_f64()
}

/// The discover result kept for `url`, if it is still fresh at `now_ms` (milliseconds since
/// the epoch) and was got without credentials, or `with_credentials` says the connection has
/// some too.
pub fn kept(url: &str, now_ms: f64, with_credentials: bool) -> Option<Value> {
    let s = storage()?;
    let mut map = stored(&s);
    let entry = map.remove(&crate::eras::memory_key(url))?;
    let until = until(&entry)?;
    if !(now_ms < until && until - now_ms <= MAX_FRESH_MS) {
        return None;
    }
    let needs_credentials = entry.get("credentials").and_then(Value::as_bool) != Some(false);
    if needs_credentials && !with_credentials {
        return None;
    }
    match entry {
        Value::Object(mut e) => e.remove("result").filter(Value::is_object),
        _ => None,
    }
}

/// What the server said of a `server/discover` result: how long it stays fresh, whether it is
/// public, and whether it was asked for with credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// The server's `ttlMs` (as the session clamped it).
    pub fresh_for_ms: u64,
    /// `cacheScope: "public"`.
    pub public: bool,
    /// The request carried an `Authorization` header.
    pub with_credentials: bool,
}

/// Keeps `result` for `url` from `now_ms` if the server marked it public and fresh for a
/// while; otherwise forgets what was kept for `url`.
pub fn keep(url: &str, result: &Value, freshness: Freshness, now_ms: f64) {
    let Freshness {
        fresh_for_ms,
        public,
        with_credentials,
    } = freshness;
    let keepable = public && fresh_for_ms > 0 && result.is_object();
    if !keepable || result.to_string().len() > MAX_RESULT_BYTES {
        forget(url);
        return;
    }
    let Some(s) = storage() else { return };
    let key = crate::eras::memory_key(url);
    let mut map = stored(&s);
    map.retain(|_, e| until(e).is_some_and(|u| u > now_ms));
    if !map.contains_key(&key) && map.len() >= MAX_KEPT {
        let soonest = map
            .iter()
            .min_by(|a, b| {
                until(a.1)
                    .unwrap_or(0.0)
                    .total_cmp(&until(b.1).unwrap_or(0.0))
            })
            .map(|(k, _)| k.clone());
        if let Some(k) = soonest {
            map.remove(&k);
        }
    }
    let fresh_for = (fresh_for_ms as f64).min(MAX_FRESH_MS);
    let mut entry = Map::new();
    entry.insert("until".into(), Value::from(now_ms + fresh_for));
    entry.insert("credentials".into(), Value::from(with_credentials));
    entry.insert("result".into(), result.clone());
    map.insert(key, Value::Object(entry));
    let _ = s.set_item(STORAGE_KEY, &Value::Object(map).to_string());
}

/// Forgets the discover result kept for `url` (the server turned out to be something else,
/// or could not be reached).
pub fn forget(url: &str) {
    let Some(s) = storage() else { return };
    let mut map = stored(&s);
    if map.remove(&crate::eras::memory_key(url)).is_some() {
        let _ = s.set_item(STORAGE_KEY, &Value::Object(map).to_string());
    }
}
