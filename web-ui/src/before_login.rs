//! What the person had typed in the tools tab when a full-page login took the page away
//! (a server that asks for a login only when a tool is called): kept in `sessionStorage`
//! (this tab only) and put back once the page is back and connected, so that nothing typed is
//! lost. The call itself is not made again by itself: it may act, and the person decides.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `sessionStorage` key.
const KEY: &str = "mcp-browser-client.before-login";
/// Beyond this (as JSON), what was typed is not kept: `sessionStorage` is small and shared.
const MAX_BYTES: usize = 256 * 1024;

/// One tool's form as it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypedForm {
    /// The server's URL.
    pub url: String,
    /// The tool chosen.
    pub tool: String,
    /// The form's values by field path.
    pub values: BTreeMap<String, String>,
    /// Whether the arguments were typed as raw JSON.
    pub raw_mode: bool,
    /// The raw JSON typed.
    pub raw: String,
}

/// `form` as stored, or `None` when it is too large to keep.
pub fn encode(form: &TypedForm) -> Option<String> {
    serde_json::to_string(form)
        .ok()
        .filter(|s| s.len() <= MAX_BYTES)
}

/// The form stored for `url`, if what is stored reads as one and is for that server.
pub fn decode(stored: &str, url: &str) -> Option<TypedForm> {
    serde_json::from_str::<TypedForm>(stored)
        .ok()
        .filter(|f| f.url == url)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Keeps `form` for the page's return (replacing any kept before).
pub fn keep(form: &TypedForm) {
    if let (Some(s), Some(text)) = (storage(), encode(form)) {
        let _ = s.set_item(KEY, &text);
    }
}

/// Takes (and forgets) the form kept for `url`, if any (one kept for another server stays).
pub fn take(url: &str) -> Option<TypedForm> {
    let s = storage()?;
    let stored = s.get_item(KEY).ok().flatten()?;
    let form = decode(&stored, url)?;
    let _ = s.remove_item(KEY);
    Some(form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_comes_back_for_its_server_only_and_a_huge_one_is_not_kept() {
        let form = TypedForm {
            url: "https://a.example/mcp".into(),
            tool: "echo".into(),
            values: BTreeMap::from([("message".to_string(), "hi".to_string())]),
            raw_mode: false,
            raw: "{}".into(),
        };
        let stored = encode(&form).expect("kept");
        assert_eq!(decode(&stored, "https://a.example/mcp"), Some(form.clone()));
        assert_eq!(decode(&stored, "https://b.example/mcp"), None);
        assert_eq!(decode("{not json", "https://a.example/mcp"), None);
        let huge = TypedForm {
            raw: "x".repeat(MAX_BYTES),
            ..form
        };
        assert_eq!(encode(&huge), None);
    }

    #[test]
    fn a_form_up_to_256_kib_as_json_is_kept_and_one_byte_more_is_not() {
        // The bound written out, not `MAX_BYTES`, so that the constant itself is checked.
        let form = TypedForm {
            url: "https://a.example/mcp".into(),
            tool: "echo".into(),
            values: BTreeMap::new(),
            raw_mode: true,
            raw: String::new(),
        };
        let bare = encode(&form).expect("kept").len();
        let at_bound = TypedForm {
            raw: "x".repeat(256 * 1024 - bare),
            ..form.clone()
        };
        let stored = encode(&at_bound).expect("a form of exactly 256 KiB is kept");
        assert_eq!(stored.len(), 256 * 1024);
        assert_eq!(decode(&stored, "https://a.example/mcp"), Some(at_bound));
        let over = TypedForm {
            raw: "x".repeat(256 * 1024 - bare + 1),
            ..form
        };
        assert_eq!(encode(&over), None);
    }
}
