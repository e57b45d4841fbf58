//! Server text inside the client's own sentences, kept from reordering them.
//!
//! A server's text can hold bidi formatting characters. A right-to-left override (U+202E)
//! that it never closes turns around everything after it in the same paragraph: in an error
//! message such as `{message} (code -32000)`, the client's own " (code -32000)" would be drawn
//! backwards, and so would anything a page shows after the message. A pop-directional-isolate
//! (U+2069) that closes nothing closes an isolate around the text instead (a browser brackets
//! each element with one when it is styled `unicode-bidi: isolate`), and lets the override out.
//!
//! [`isolated_if_steering`] brackets such text as an isolate of its own, with its isolates
//! balanced by [`contained`]; [`Isolated`] does it while formatting. Every error message of
//! this crate and of `client-browser` puts server text in through them; text written with
//! `{:?}` needs nothing (Rust escapes the controls there). The web app uses the same functions
//! for the server text it places beside its own.
//!
//! Hand-written: no crate does this (`unicode-bidi` reorders text; it does not repair it).

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;

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
    out.extend(core::iter::repeat_n(CLOSES_ISOLATE, open));
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
/// character, else as it is: for server text inside a sentence built as one string (an error
/// message; "Cancelling task {id} failed" in the app). Plain text stays plain, so messages read
/// (and compare) as written. In a page, an element (`<bdi>` with [`contained`]) is better where
/// the view has one.
pub fn isolated_if_steering(text: &str) -> Cow<'_, str> {
    if text.contains(is_bidi_control) {
        Cow::Owned(isolated(text))
    } else {
        Cow::Borrowed(text)
    }
}

/// Formats its value [`isolated_if_steering`]: for server text in a `format!` or an error
/// message, `format!("malformed result: {}", Isolated(&serde_error))`.
pub struct Isolated<T>(pub T);

impl<T: fmt::Display> fmt::Display for Isolated<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        f.write_str(&isolated_if_steering(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

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

    #[test]
    fn isolated_formats_its_value_isolated_when_it_steers() {
        assert_eq!(format!("{} (code 1)", Isolated("plain")), "plain (code 1)");
        assert_eq!(
            format!("{} (code 1)", Isolated("a\u{2069}\u{202e}b")),
            "\u{2068}a\u{202e}b\u{2069} (code 1)"
        );
        assert_eq!(format!("{}", Isolated(42)), "42");
    }
}
