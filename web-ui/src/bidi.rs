//! Server text shown beside the app's own text, kept from reordering it.
//!
//! Every element of the page is a bidi isolate (`* { unicode-bidi: isolate }` in
//! `www/styles.css`), so a right-to-left override (U+202E) that a server never closes ends
//! with the element that holds it. That holds only while the text's own isolates are
//! balanced: a pop-directional-isolate (U+2069) that closes nothing inside the text closes
//! the element's isolate instead (the browser brackets each element with isolate controls),
//! and an override after it then runs on over the app's text that follows ("read-only" drawn
//! backwards after a tool's title). Seen in Chromium; `tests/e2e/app_hostile.test.mjs` shows it.
//!
//! [`contained`] (from `client_core::bidi`, which the client's error messages use too)
//! balances a text's isolates: it drops each U+2069 that closes nothing and closes each
//! isolate the text leaves open. Alone in a paragraph, the text looks the same either way (the
//! Unicode bidi algorithm ignores a U+2069 that closes nothing, and ends open isolates with the
//! paragraph), so this changes how the text is drawn only where it would have spilled over.
//! [`isolated_if_steering`] also brackets a text that steers direction, for server text inside
//! a sentence the app writes as one string. [`revealed`] shows the controls instead, where the
//! app shows data as JSON.

use std::borrow::Cow;

pub use client_core::bidi::{contained, is_bidi_control, isolated_if_steering};

/// `text` with every bidi formatting character written as a JSON escape (`\u202e`): for the
/// wire log, which shows messages as sent on one line each, where a control inside a string
/// would turn the rest of the message around, and where someone reading the wire wants to see
/// it. In JSON the characters can only stand inside strings, where the escape means the same.
pub fn revealed(text: &str) -> Cow<'_, str> {
    if !text.contains(is_bidi_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_revealed(&mut out, c);
    }
    Cow::Owned(out)
}

/// Pushes `c` onto `out`, a bidi formatting character as its JSON escape (see [`revealed`]).
pub fn push_revealed(out: &mut String, c: char) {
    if is_bidi_control(c) {
        out.push_str(&format!("\\u{:04x}", u32::from(c)));
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revealed_writes_each_control_as_a_json_escape() {
        assert!(matches!(revealed(r#"{"a":"b"}"#), Cow::Borrowed(_)));
        let sent = "{\"title\":\"abc\u{2069}\u{202e}def\u{061c}\"}";
        let shown = revealed(sent);
        assert_eq!(shown, r#"{"title":"abc\u2069\u202edef\u061c"}"#);
        // The same JSON either way.
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(sent).unwrap(),
            serde_json::from_str(&shown).unwrap(),
        );
        assert_eq!(a, b);
    }
}
