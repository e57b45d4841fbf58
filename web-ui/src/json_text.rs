//! A text that is a JSON object or array (what many tools return as their text result) shown
//! indented, one member per line.
//!
//! Hand-written rather than `serde_json::to_string_pretty`: re-encoding a parsed value changes
//! what the server sent (a number beyond `f64` is rounded, `\u00e9` becomes `é`, a duplicate
//! key is lost). This only moves whitespace outside strings: every token stays as sent, byte
//! for byte but for one change: a bidi formatting character inside a string (a right-to-left
//! override, say) is written as its JSON escape, which means the same. Shown as it is, it
//! would draw the rest of its line backwards, so that the data on screen is not what it says
//! (the "Trojan Source" trick); "as sent" shows it unchanged. The text is first checked to be
//! JSON by serde_json, without building a value.
//!
//! [`pretty`] does the same for JSON the app writes itself from a value.

use serde::Serialize;

/// Texts longer than this are shown as sent (indenting them would cost more than it helps).
pub const MAX_FORMATTED_BYTES: usize = 1 << 20;

/// Spaces per nesting level.
const INDENT: usize = 2;
/// Deeper nesting is shown as sent (indentation grows with depth on every line).
const MAX_DEPTH: usize = 64;
/// An indented text longer than this is not made (a hostile text of many short lines deep
/// down would grow many times over); the text is shown as sent.
const MAX_INDENTED_BYTES: usize = 4 * MAX_FORMATTED_BYTES;

/// `text` indented when it is a JSON object or array (at most [`MAX_FORMATTED_BYTES`],
/// nested at most `MAX_DEPTH` deep, and not over `MAX_INDENTED_BYTES` once indented),
/// else `None`. Only whitespace outside strings differs from `text`, and bidi formatting
/// characters inside strings, written as escapes.
pub fn formatted(text: &str) -> Option<String> {
    let json = text.trim();
    if json.len() > MAX_FORMATTED_BYTES || !(json.starts_with('{') || json.starts_with('[')) {
        return None;
    }
    // IgnoredAny: checked without building a value (and without serde_json's depth limit,
    // so `indent` bounds the depth itself).
    serde_json::from_str::<serde::de::IgnoredAny>(json).ok()?;
    indent(json)
}

/// `value` as indented JSON for the page to show (a tool's definition, a result as received,
/// structured content), bidi formatting characters inside its strings written as escapes (see
/// the module's documentation). The same JSON value as `value`.
pub fn pretty(value: &impl Serialize) -> String {
    let json = serde_json::to_string_pretty(value).unwrap_or_default();
    crate::bidi::revealed(&json).into_owned()
}

/// Re-indents valid JSON: a newline after `{`, `[` and `,`, one before `}` and `]` (empty
/// containers stay `{}` and `[]`), a space after `:`; strings are copied as they are, their
/// bidi formatting characters as escapes. `None` past `MAX_DEPTH` or `MAX_INDENTED_BYTES`.
fn indent(json: &str) -> Option<String> {
    let mut out = String::with_capacity(json.len() + json.len() / 4);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = json.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(core::iter::repeat_n(' ', depth * INDENT));
    };
    while let Some(c) = chars.next() {
        if in_string {
            crate::bidi::push_revealed(&mut out, c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            ' ' | '\t' | '\n' | '\r' => {}
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                while chars.peek().is_some_and(|n| n.is_ascii_whitespace()) {
                    chars.next();
                }
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    chars.next();
                    out.push(close);
                } else {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return None;
                    }
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
                if out.len() > MAX_INDENTED_BYTES {
                    return None;
                }
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_size_limits_take_exactly_their_size() {
        // A text of exactly the limit is indented; one byte more is shown as sent.
        let string_of = |len: usize| format!("[\"{}\"]", "x".repeat(len - 4));
        assert!(formatted(&string_of(MAX_FORMATTED_BYTES)).is_some());
        assert!(formatted(&string_of(MAX_FORMATTED_BYTES + 1)).is_none());
        // Indenting may make a text a few times longer (here 2.5 times): still shown so.
        let many = format!("[{}1]", "1,".repeat(300_000));
        let indented = formatted(&many).expect("indented");
        assert!(indented.len() > 2 * many.len() && indented.len() <= MAX_INDENTED_BYTES);
    }

    #[test]
    fn objects_and_arrays_are_indented() {
        assert_eq!(
            formatted(r#"{"a":1,"b":[true,null],"c":{},"d":[]}"#).unwrap(),
            "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ],\n  \"c\": {},\n  \"d\": []\n}"
        );
        assert_eq!(formatted(" [ ] ").unwrap(), "[]");
    }

    #[test]
    fn tokens_stay_as_sent() {
        let sent = r#"{"big":12345678901234567890,"exp":1.0E+10,"esc":"\u00e9 \"q\" \\ ,:{}[]","dup":1,"dup":2}"#;
        let shown = formatted(sent).unwrap();
        for token in [
            "12345678901234567890",
            "1.0E+10",
            r#""\u00e9 \"q\" \\ ,:{}[]""#,
            "\"dup\": 1",
            "\"dup\": 2",
        ] {
            assert!(shown.contains(token), "{token} in {shown}");
        }
    }

    #[test]
    fn already_indented_json_is_indented_the_same_way() {
        let compact = r#"{"a":{"b":[1,2]}}"#;
        let loose = "{\n\t\"a\" :  {\r\n \"b\": [ 1 ,\n2 ] } }";
        assert_eq!(formatted(loose), formatted(compact));
    }

    #[test]
    fn what_is_not_a_json_object_or_array_is_shown_as_sent() {
        for text in [
            "hello",
            "42",
            "\"a string\"",
            "{not json}",
            "[1, 2",
            "{\"a\": 1} trailing",
            "",
        ] {
            assert_eq!(formatted(text), None, "{text:?}");
        }
        let huge = format!("[{}1]", "1,".repeat(MAX_FORMATTED_BYTES / 2));
        assert_eq!(formatted(&huge), None);
        // Nested deeper than MAX_DEPTH: shown as sent (indented, its lines would hold
        // gigabytes of spaces).
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(formatted(&deep), None);
        let fine = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(formatted(&fine).is_some());
        let over = format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(formatted(&over), None);
        // Many short lines deep down: the indented text would be over MAX_INDENTED_BYTES.
        let wide = format!(
            "{}{}1{}",
            "[".repeat(60),
            "1,".repeat(MAX_FORMATTED_BYTES / 4),
            "]".repeat(60)
        );
        assert_eq!(formatted(&wide), None);
    }

    #[test]
    fn bidi_controls_in_strings_are_shown_as_escapes_meaning_the_same() {
        let sent = "{\"title\":\"abc\u{2069}\u{202e}def\",\"n\":[\"\u{200f}\"]}";
        let shown = formatted(sent).unwrap();
        assert_eq!(
            shown,
            "{\n  \"title\": \"abc\\u2069\\u202edef\",\n  \"n\": [\n    \"\\u200f\"\n  ]\n}"
        );
        assert!(!shown.contains(crate::bidi::is_bidi_control));
        assert_eq!(
            serde_json::from_str::<Value>(&shown).unwrap(),
            serde_json::from_str::<Value>(sent).unwrap()
        );
        // Right-to-left letters are text, not controls: as sent.
        assert_eq!(
            formatted("[\"\u{5e9}\u{5dc}\"]").unwrap(),
            "[\n  \"\u{5e9}\u{5dc}\"\n]"
        );
    }

    #[test]
    fn pretty_json_shows_bidi_controls_as_escapes() {
        let value = serde_json::json!({ "name": "a\u{202e}b", "plain": "\u{5e9}" });
        let shown = pretty(&value);
        assert_eq!(
            shown,
            "{\n  \"name\": \"a\\u202eb\",\n  \"plain\": \"\u{5e9}\"\n}"
        );
        assert_eq!(serde_json::from_str::<Value>(&shown).unwrap(), value);
    }

    #[test]
    fn formatting_keeps_the_value_and_only_moves_whitespace() {
        let samples = [
            r#"{"tools":[{"name":"a b","inputSchema":{"type":"object","properties":{}}}],"nextCursor":null}"#,
            r#"[{"k":"v\n\t"},[[[]]],{"":-0.5e-3},"日本語",false]"#,
        ];
        for s in samples {
            let shown = formatted(s).unwrap();
            assert_eq!(
                serde_json::from_str::<Value>(&shown).unwrap(),
                serde_json::from_str::<Value>(s).unwrap()
            );
            assert_eq!(indent(&shown), Some(shown), "formatting is stable");
        }
    }
}
