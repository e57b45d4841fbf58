//! A JSON document kept in `localStorage` that holds a list for each server URL, each marked
//! with when it was last written; bounded in servers (the one used longest ago goes first).
//! The call history ([`crate::call_history`]) and the calls running as tasks
//! ([`crate::kept_tasks`]) are kept this way.

use serde_json::{json, Map, Value};

/// The list under `key` kept for `url` in `doc` (empty when there is none, or it is not a
/// list).
pub fn list_in<'a>(doc: &'a Value, url: &str, key: &str) -> &'a [Value] {
    doc.get(url)
        .and_then(|s| s.get(key))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// What becomes of a server whose list is empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WhenEmpty {
    /// It is removed from the document.
    Remove,
    /// It stays, with an empty list: emptied on purpose, which another tab can tell from a
    /// server removed to make room for others.
    Keep,
}

/// `doc` with `url`'s list under `key` replaced by `list` (an empty one as `when_empty`
/// says), marked as used at `now_ms`, and at most `max_servers` servers in it.
pub fn with_list(
    doc: Value,
    url: &str,
    key: &str,
    list: Vec<Value>,
    now_ms: f64,
    max_servers: usize,
    when_empty: WhenEmpty,
) -> Value {
    let mut map = match doc {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    map.remove(url);
    if !list.is_empty() || when_empty == WhenEmpty::Keep {
        map.insert(url.to_string(), json!({ "used": now_ms, key: list }));
    }
    let used = |v: &Value| v.get("used").and_then(Value::as_f64).unwrap_or(0.0);
    keep_newest(&mut map, max_servers, used);
    Value::Object(map)
}

/// Removes the entries of `map` with the smallest `when` until at most `max` are left.
pub fn keep_newest(map: &mut Map<String, Value>, max: usize, when: impl Fn(&Value) -> f64) {
    while map.len() > max {
        let oldest = map
            .iter()
            .min_by(|a, b| when(a.1).total_cmp(&when(b.1)))
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => map.remove(&k),
            None => break,
        };
    }
}

/// The browser's `localStorage`, if the page may use it.
pub fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The document stored under `key` (`Null` when there is none, or it is not JSON).
pub fn stored(s: &web_sys::Storage, key: &str) -> Value {
    parsed(s.get_item(key).ok().flatten()).unwrap_or(Value::Null)
}

/// A stored document's text as JSON (`None` when there is none, or it is not JSON).
pub fn parsed(text: Option<String>) -> Option<Value> {
    text.and_then(|t| serde_json::from_str(&t).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_text_is_read_as_json_or_not_at_all() {
        assert_eq!(
            parsed(Some(r#"{"a":[1]}"#.into())),
            Some(serde_json::json!({ "a": [1] }))
        );
        assert_eq!(parsed(Some("null".into())), Some(Value::Null));
        assert_eq!(parsed(Some("{".into())), None, "not JSON");
        assert_eq!(parsed(None), None, "nothing stored");
    }
}
