//! What each server's protocol era was found to be, remembered so that the next connection to
//! it skips the era probe (2026-07-28 "Versioning": clients SHOULD cache the era for the
//! origin's lifetime and MAY persist it). Kept for the page's lifetime and, where the page
//! has `localStorage`, across visits; a wrong memory is corrected by the session (it probes
//! again when the remembered era fails) and then overwritten.

use client_core::types::Era;
use serde_json::{Map, Value};
use std::cell::RefCell;

/// The `localStorage` key: a JSON object of server URL (see [`memory_key`]) to `"legacy"` or
/// `"modern"`.
pub const STORAGE_KEY: &str = "mcp-browser-client.eras";

/// At most this many servers are remembered: one more, and the memory starts over (so
/// storage stays small; forgetting costs one era probe per server).
const MAX_REMEMBERED: usize = 256;

/// The part of a server URL its era is kept under: without user info, query and fragment.
/// A URL may carry an API key in its query, and nothing secret is written to storage; the era
/// belongs to the server, not to a query.
pub fn memory_key(url: &str) -> String {
    // Byte positions rather than string patterns and `format!`: each pattern kind would add
    // its own searcher to the wasm.
    let end = url.bytes().position(|b| b == b'#' || b == b'?');
    let url = &url[..end.unwrap_or(url.len())];
    let bytes = url.as_bytes();
    let Some(start) = bytes.windows(3).position(|w| w == b"://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &bytes[start..];
    let authority = &rest[..rest.iter().position(|&b| b == b'/').unwrap_or(rest.len())];
    match authority.iter().rposition(|&b| b == b'@') {
        Some(at) => [&url[..start], &url[start + at + 1..]].concat(),
        None => url.to_string(),
    }
}

thread_local! {
    /// This page's memory (also where storage is missing or refuses, e.g. in a worker or with
    /// storage blocked).
    static KNOWN: RefCell<Vec<(String, Era)>> = const { RefCell::new(Vec::new()) };
}

/// The page's `localStorage`, where it has one (this module's and [`crate::discoveries`]').
pub(crate) fn storage() -> Option<web_sys::Storage> {
    crate::auth::storage::area(crate::auth::TokenStorage::Local)
}

/// The JSON object kept under `key` in `s` (empty if none, or if it is not one).
pub(crate) fn stored_object(s: &web_sys::Storage, key: &str) -> Map<String, Value> {
    s.get_item(key)
        .ok()
        .flatten()
        // `from_slice`, as everywhere else: `from_str` would add a second JSON reader to the wasm.
        .and_then(|text| match serde_json::from_slice(text.as_bytes()) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        })
        .unwrap_or_default()
}

fn stored() -> Map<String, Value> {
    storage()
        .map(|s| stored_object(&s, STORAGE_KEY))
        .unwrap_or_default()
}

/// The era `url` was found to speak last time, if known.
pub fn remembered(url: &str) -> Option<Era> {
    let url = &memory_key(url);
    let here = KNOWN.with(|k| {
        k.borrow()
            .iter()
            .find(|(u, _)| u == url)
            .map(|(_, era)| *era)
    });
    here.or_else(|| match stored().get(url.as_str())?.as_str()? {
        "legacy" => Some(Era::Legacy),
        "modern" => Some(Era::Modern),
        _ => None,
    })
}

/// Remembers the era `url` speaks.
pub fn remember(url: &str, era: Era) {
    let url = &memory_key(url);
    KNOWN.with(|k| {
        let mut k = k.borrow_mut();
        match k.iter_mut().find(|(u, _)| u == url) {
            Some(entry) => entry.1 = era,
            None => {
                if k.len() >= MAX_REMEMBERED {
                    k.clear();
                }
                k.push((url.clone(), era));
            }
        }
    });
    let Some(s) = storage() else { return };
    let mut map = stored();
    let value = Value::from(match era {
        Era::Legacy => "legacy",
        Era::Modern => "modern",
    });
    if map.get(url.as_str()) != Some(&value) {
        if !map.contains_key(url.as_str()) && map.len() >= MAX_REMEMBERED {
            map = Map::new();
        }
        map.insert(url.clone(), value);
        let _ = s.set_item(STORAGE_KEY, &Value::Object(map).to_string());
    }
}
