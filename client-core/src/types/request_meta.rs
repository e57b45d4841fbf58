//! `_meta` entries a caller adds to one request (W3C trace context, an extension's or a
//! vendor's own keys), checked against the spec's rules for `_meta` keys (2026-07-28 "General
//! fields") before they are sent. The session adds its own per-request entries on top.

use super::meta_keys;
use alloc::string::String;
use serde_json::{Map, Value};

/// Why a caller's `_meta` entries cannot be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestMetaError {
    /// The key breaks the spec's key name format.
    #[error(
        "the _meta key {0:?} is not a valid key name: an optional prefix (dot-separated labels \
         such as com.example, then '/') and a name that begins and ends with a letter or digit"
    )]
    BadKey(String),
    /// The key is one the client sets itself on the requests that need it.
    #[error("the _meta key {0:?} is set by the client itself: leave it out")]
    ClientOwned(String),
    /// `traceparent` is not a W3C Trace Context `traceparent` value.
    #[error(
        "the _meta traceparent {0:?} is not a W3C trace context value \
         (version-traceid-parentid-flags in lowercase hex, e.g. 00-<32 hex>-<16 hex>-01)"
    )]
    BadTraceparent(String),
    /// `traceparent`, `tracestate` or `baggage` is not a string.
    #[error("the _meta {0} must be a string (W3C trace context)")]
    NotAString(&'static str),
}

/// The keys the session sets on the requests that need them; a caller's value would be
/// overwritten, so it is refused instead.
const CLIENT_OWNED: &[&str] = &[
    meta_keys::PROGRESS_TOKEN,
    meta_keys::PROTOCOL_VERSION,
    meta_keys::CLIENT_INFO,
    meta_keys::CLIENT_CAPABILITIES,
    meta_keys::LOG_LEVEL,
];

/// Checks `_meta` entries a caller wants sent with a request: key names as the spec defines
/// them, none of the client's own keys, and the trace context keys (`traceparent`,
/// `tracestate`, `baggage`) as W3C strings.
pub fn check_request_meta(meta: &Map<String, Value>) -> Result<(), RequestMetaError> {
    for (key, value) in meta {
        if CLIENT_OWNED.contains(&key.as_str()) {
            return Err(RequestMetaError::ClientOwned(key.clone()));
        }
        if !valid_key(key) {
            return Err(RequestMetaError::BadKey(key.clone()));
        }
        match key.as_str() {
            "traceparent" => match value.as_str() {
                Some(t) if valid_traceparent(t) => {}
                Some(t) => return Err(RequestMetaError::BadTraceparent(t.into())),
                None => return Err(RequestMetaError::NotAString("traceparent")),
            },
            "tracestate" if !value.is_string() => {
                return Err(RequestMetaError::NotAString("tracestate"))
            }
            "baggage" if !value.is_string() => return Err(RequestMetaError::NotAString("baggage")),
            _ => {}
        }
    }
    Ok(())
}

/// A `_meta` key: `[prefix/]name`. The prefix is labels separated by dots, each starting with
/// a letter, ending with a letter or digit, with letters, digits and hyphens between; the
/// name, unless empty, begins and ends with a letter or digit, with hyphens, underscores, dots
/// and letters or digits between.
fn valid_key(key: &str) -> bool {
    let (prefix, name) = match key.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = name.is_empty()
        || (edge_alnum(name)
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')));
    let prefix_ok = prefix.is_none_or(|p| {
        p.split('.').all(|label| {
            label
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_alphabetic)
                && edge_alnum(label)
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
    });
    // A key is never empty: an empty name needs a prefix.
    name_ok && prefix_ok && !(prefix.is_none() && name.is_empty())
}

fn edge_alnum(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b.last().is_some_and(u8::is_ascii_alphanumeric)
}

/// A W3C Trace Context `traceparent`: `vv-<32 hex trace id>-<16 hex parent id>-<2 hex
/// flags>`, lowercase; version `ff` is invalid, ids of all zeros are invalid, and only a
/// version after `00` may carry more fields (after a `-`).
fn valid_traceparent(t: &str) -> bool {
    let b = t.as_bytes();
    let hex = |s: &[u8]| s.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    let nonzero = |s: &[u8]| s.iter().any(|&c| c != b'0');
    if b.len() < 55 || b[2] != b'-' || b[35] != b'-' || b[52] != b'-' {
        return false;
    }
    let (version, trace, parent, flags) = (&b[0..2], &b[3..35], &b[36..52], &b[53..55]);
    if !(hex(version) && hex(trace) && hex(parent) && hex(flags)) || version == b"ff" {
        return false;
    }
    let rest_ok = if version == b"00" {
        b.len() == 55
    } else {
        b.len() == 55 || b[55] == b'-'
    };
    nonzero(trace) && nonzero(parent) && rest_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(v: Value) -> Result<(), RequestMetaError> {
        match v {
            Value::Object(m) => check_request_meta(&m),
            _ => unreachable!("tests pass objects"),
        }
    }

    const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";

    #[test]
    fn trace_context_and_prefixed_keys_pass() {
        assert_eq!(
            check(json!({
                "traceparent": PARENT,
                "tracestate": "rojo=00f067aa0ba902b7",
                "baggage": "userId=alice",
                "com.example/run": 7,
                "io.modelcontextprotocol/related-task": { "taskId": "t" },
                "dev.example-tools/": true,
                "plain_name.v2": null,
            })),
            Ok(())
        );
        // A later version may carry more fields.
        let later = "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra";
        assert_eq!(check(json!({ "traceparent": later })), Ok(()));
    }

    #[test]
    fn the_clients_own_keys_are_refused() {
        for key in [
            "progressToken",
            "io.modelcontextprotocol/protocolVersion",
            "io.modelcontextprotocol/clientInfo",
            "io.modelcontextprotocol/clientCapabilities",
            "io.modelcontextprotocol/logLevel",
        ] {
            assert_eq!(
                check(json!({ key: 1 })),
                Err(RequestMetaError::ClientOwned(key.into())),
                "{key}"
            );
        }
    }

    #[test]
    fn malformed_keys_are_refused() {
        for key in [
            "",
            "-x",
            "x-",
            "a b",
            "1com.example/x",
            "com..example/x",
            "com.example-/x",
            "com/ex/x",
            "com.example/x-",
            "<script>",
        ] {
            assert_eq!(
                check(json!({ key: 1 })),
                Err(RequestMetaError::BadKey(key.into())),
                "{key:?}"
            );
        }
    }

    #[test]
    fn malformed_trace_context_is_refused() {
        for bad in [
            "",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7",
            "00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01",
            "ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra",
            "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01x",
            "00_0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c_00f067aa0ba902b7-01",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7_01",
            "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-0ü",
        ] {
            assert_eq!(
                check(json!({ "traceparent": bad })),
                Err(RequestMetaError::BadTraceparent(bad.into())),
                "{bad:?}"
            );
        }
        assert_eq!(
            check(json!({ "traceparent": 1 })),
            Err(RequestMetaError::NotAString("traceparent"))
        );
        assert_eq!(
            check(json!({ "tracestate": [] })),
            Err(RequestMetaError::NotAString("tracestate"))
        );
        assert_eq!(
            check(json!({ "baggage": {} })),
            Err(RequestMetaError::NotAString("baggage"))
        );
    }
}
