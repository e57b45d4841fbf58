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
//! [`contained`] balances a text's isolates: it drops each U+2069 that closes nothing and
//! closes each isolate the text leaves open. Alone in a paragraph, the text looks the same
//! either way (the Unicode bidi algorithm ignores a U+2069 that closes nothing, and ends open
//! isolates with the paragraph), so this changes how the text is drawn only where it would
//! have spilled over. [`isolated_if_steering`] also brackets a text that steers direction, for
//! server text inside a sentence the app writes as one string.
//!
//! Hand-written: no crate does this (`unicode-bidi` reorders text; it does not repair it).

use std::borrow::Cow;

/// LEFT-TO-RIGHT ISOLATE, RIGHT-TO-LEFT ISOLATE and FIRST STRONG ISOLATE: each opens an
/// isolate.
const OPENS_ISOLATE: [char; 3] = ['\u{2066}', '\u{2067}', '\u{2068}'];
/// POP DIRECTIONAL ISOLATE: closes the innermost open isolate.
const CLOSES_ISOLATE: char = '\u{2069}';
/// FIRST STRONG ISOLATE: an isolate whose direction is that of its first strong letter.
const FIRST_STRONG_ISOLATE: char = '\u{2068}';

/// `text` with its isolates balanced: every U+2069 that closes nothing opened in `text` is
/// dropped, and every isolate `text` leaves open is closed at its end. Borrowed when nothing
/// needed changing (the usual case).
pub fn contained(text: &str) -> Cow<'_, str> {
    if !text.contains(OPENS_ISOLATE) && !text.contains(CLOSES_ISOLATE) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 3);
    let mut open = 0usize;
    for c in text.chars() {
        if OPENS_ISOLATE.contains(&c) {
            open += 1;
        } else if c == CLOSES_ISOLATE {
            if open == 0 {
                continue;
            }
            open -= 1;
        }
        out.push(c);
    }
    out.extend(std::iter::repeat_n(CLOSES_ISOLATE, open));
    if out == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

/// `text` [`contained`] and bracketed as an isolate of its own (its direction from its
/// first letter).
fn isolated(text: &str) -> String {
    format!("{FIRST_STRONG_ISOLATE}{}{CLOSES_ISOLATE}", contained(text))
}

/// Whether `c` is a bidi formatting character: the Arabic letter mark, the left-to-right and
/// right-to-left marks, the embeddings and overrides with their pop, and the isolates.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` [`contained`] and bracketed as an isolate of its own when it holds a bidi formatting
/// character, else as it is: for server text inside a sentence the app builds as one string
/// ("Cancelling task {id} failed"; a property name in a schema error's path). Plain text stays
/// plain, so messages read (and compare) as written. An element (`<bdi>` with [`contained`])
/// is better where the view has one.
pub fn isolated_if_steering(text: &str) -> Cow<'_, str> {
    if text.contains(is_bidi_control) {
        Cow::Owned(isolated(text))
    } else {
        Cow::Borrowed(text)
    }
}

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
    fn text_without_isolate_controls_is_borrowed_as_it_is() {
        for text in ["", "plain", "abc\u{202e}def", "\u{202b}embedded"] {
            assert!(
                matches!(contained(text), Cow::Borrowed(t) if t == text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn balanced_isolates_are_kept_as_they_are() {
        let text = "a\u{2067}b\u{2066}c\u{2069}d\u{2069}e";
        assert!(matches!(contained(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn a_pop_that_closes_nothing_is_dropped() {
        assert_eq!(contained("abc\u{2069}\u{202e}def"), "abc\u{202e}def");
        assert_eq!(contained("\u{2069}\u{2069}\u{2069}x"), "x");
        // After a balanced pair, the next pop closes nothing again.
        assert_eq!(
            contained("\u{2068}a\u{2069}\u{2069}b"),
            "\u{2068}a\u{2069}b"
        );
    }

    #[test]
    fn isolates_left_open_are_closed_at_the_end() {
        assert_eq!(contained("a\u{2067}b"), "a\u{2067}b\u{2069}");
        assert_eq!(
            contained("\u{2066}\u{2068}x\u{2069}"),
            "\u{2066}\u{2068}x\u{2069}\u{2069}"
        );
        // Both at once: a stray pop first, an open isolate after it.
        assert_eq!(contained("\u{2069}\u{2068}x"), "\u{2068}x\u{2069}");
    }

    #[test]
    fn isolated_brackets_the_contained_text() {
        assert_eq!(isolated("id"), "\u{2068}id\u{2069}");
        assert_eq!(isolated("a\u{2069}\u{202e}b"), "\u{2068}a\u{202e}b\u{2069}");
    }

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

    #[test]
    fn only_text_that_steers_direction_is_isolated_on_demand() {
        for plain in ["$.name", "$.\u{05e9}\u{05dd}", ""] {
            assert!(
                matches!(isolated_if_steering(plain), Cow::Borrowed(t) if t == plain),
                "{plain:?}"
            );
        }
        for control in [
            '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
        ] {
            let text = format!("$.a{control}b");
            assert_eq!(isolated_if_steering(&text), isolated(&text), "{control:?}");
        }
        // Next to the ranges: not controls.
        for other in [
            '\u{200D}', '\u{2029}', '\u{202F}', '\u{2065}', '\u{206A}', '\u{061B}',
        ] {
            let text = format!("a{other}");
            assert_eq!(isolated_if_steering(&text), text, "{other:?}");
        }
    }
}
