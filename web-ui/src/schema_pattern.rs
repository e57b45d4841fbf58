//! JSON Schema `pattern` / `patternProperties`: ECMA-262 regular expressions, which JSON
//! Schema specifies, run by the browser's own engine, after a guard against patterns a
//! hostile server could send to freeze the page.
//!
//! The browser's engine backtracks: a pattern such as `^(a+)+$` takes exponential time on a
//! text that almost matches, and several unbounded quantifiers in a row take polynomial time
//! in the text's length. Before a pattern runs, [`cost`] reads it (a conservative scan, not a
//! full parser) and refuses repeated groups that contain a quantifier or an alternation, and
//! back-references; what it accepts runs only on texts short enough for its remaining
//! (polynomial) worst case.

/// Most backtracking steps a pattern may take in the worst case, estimated as the text's
/// length to the power of the pattern's repeating quantifiers.
const MAX_WORK: f64 = 1e8;

/// Why a pattern is not run.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// It could take exponential time (why, in words).
    Exponential(&'static str),
    /// It is safe, but the text is too long for its polynomial worst case.
    TooLong,
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Refusal::Exponential(why) => write!(f, "could take exponential time ({why})"),
            Refusal::TooLong => f.write_str("is too slow to run on a text this long"),
        }
    }
}

/// One open group while scanning: whether it holds a quantifier or an alternation.
#[derive(Default, Clone, Copy)]
struct Group {
    quantified_inside: bool,
    alternation: bool,
}

/// The number of repeating quantifiers (`*`, `+`, `{n,}`, `{n,m}` and `{n}` beyond one) in
/// `pattern`, or why it must not run.
pub fn cost(pattern: &str) -> Result<u32, Refusal> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut stack = vec![Group::default()];
    let mut count = 0u32;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                match chars.get(i) {
                    Some('1'..='9') => return Err(Refusal::Exponential("a back-reference")),
                    Some('k') if chars.get(i + 1) == Some(&'<') => {
                        return Err(Refusal::Exponential("a back-reference"))
                    }
                    _ => {}
                }
                i += 1;
            }
            '[' => {
                // A class: up to the first unescaped `]` (a `]` right after `[` or `[^` is
                // still the class's first member only outside Unicode mode; either reading
                // ends the class no later than the real end).
                while i < chars.len() && chars[i] != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            }
            '(' => {
                // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: their `?` is no quantifier.
                if chars.get(i) == Some(&'?') {
                    i += 1;
                    match chars.get(i) {
                        Some('<') if matches!(chars.get(i + 1), Some('=' | '!')) => i += 2,
                        Some('<') => {
                            while i < chars.len() && chars[i] != '>' {
                                i += 1;
                            }
                            i += 1;
                        }
                        Some(':' | '=' | '!') => i += 1,
                        _ => {}
                    }
                }
                stack.push(Group::default());
            }
            ')' => {
                let Some(group) = stack.pop().filter(|_| !stack.is_empty()) else {
                    return Ok(count); // unbalanced: the browser will reject it
                };
                let (repeats, width) = quantifier(&chars, i);
                let Some(parent) = stack.last_mut() else {
                    return Ok(count);
                };
                if repeats && (group.quantified_inside || group.alternation) {
                    return Err(Refusal::Exponential(
                        "a repeated group with a quantifier or an alternation inside",
                    ));
                }
                parent.quantified_inside |= group.quantified_inside || width > 0;
                parent.alternation |= group.alternation;
                if repeats {
                    count += 1;
                }
                i += width;
            }
            '|' => {
                if let Some(g) = stack.last_mut() {
                    g.alternation = true;
                }
            }
            '*' | '+' | '?' | '{' => {
                let (repeats, width) = quantifier(&chars, i - 1);
                if width > 0 {
                    if let Some(g) = stack.last_mut() {
                        g.quantified_inside = true;
                    }
                    if repeats {
                        count += 1;
                    }
                    i += width - 1;
                }
            }
            _ => {}
        }
    }
    Ok(count)
}

/// The quantifier starting at `chars[at]`, if any: whether it repeats (may match more than
/// once), and how many characters it spans (0: none; a lazy `?` included).
fn quantifier(chars: &[char], at: usize) -> (bool, usize) {
    let lazy = |width: usize| width + usize::from(chars.get(at + width) == Some(&'?'));
    match chars.get(at) {
        Some('*' | '+') => (true, lazy(1)),
        Some('?') => (false, lazy(1)),
        Some('{') => {
            let Some(len) = chars[at..].iter().position(|c| *c == '}') else {
                return (false, 0); // a literal `{`
            };
            let inside: String = chars[at + 1..at + len].iter().collect();
            let (low, high) = match inside.split_once(',') {
                Some((low, high)) => (low, Some(high)),
                None => (inside.as_str(), None),
            };
            if low.is_empty() || !low.chars().all(|c| c.is_ascii_digit()) {
                return (false, 0); // a literal `{`
            }
            let most = match high {
                None => low,
                Some(high) => high,
            };
            let repeats = most.is_empty() || most.parse::<u32>().map_or(true, |n| n > 1);
            (repeats, lazy(len + 1))
        }
        _ => (false, 0),
    }
}

/// Whether a pattern with `repeats` repeating quantifiers may run on a text of `len`
/// characters.
pub fn affordable(repeats: u32, len: usize) -> bool {
    repeats == 0 || (len as f64).powi(repeats as i32) <= MAX_WORK
}

/// The browser's `RegExp`.
#[cfg(target_arch = "wasm32")]
mod engine {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// A compiled `RegExp`.
        #[wasm_bindgen(js_name = RegExp)]
        pub type Compiled;
        #[wasm_bindgen(constructor, catch, js_class = "RegExp")]
        fn new(pattern: &str, flags: &str) -> Result<Compiled, JsValue>;
        #[wasm_bindgen(method, js_class = "RegExp")]
        pub fn test(this: &Compiled, text: &str) -> bool;
    }

    /// The pattern compiled (Unicode mode when it allows), or `None` if the browser rejects it.
    pub fn compile(pattern: &str) -> Option<Compiled> {
        Compiled::new(pattern, "u")
            .or_else(|_| Compiled::new(pattern, ""))
            .ok()
    }
}

/// Outside the browser (native unit tests) there is no ECMA-262 engine: patterns are not
/// run, and a schema that needs one is reported as not checked.
#[cfg(not(target_arch = "wasm32"))]
mod engine {
    /// Never built.
    pub enum Compiled {}

    impl Compiled {
        /// Never called.
        pub fn test(&self, _text: &str) -> bool {
            match *self {}
        }
    }

    /// Always `None` here.
    pub fn compile(_pattern: &str) -> Option<Compiled> {
        None
    }
}

pub use engine::{compile, Compiled};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_that_can_freeze_the_page_are_refused() {
        for evil in [
            "^(a+)+$",
            "(a*)*b",
            "^(a|a)*$",
            "^(a|aa)+$",
            "((ab)*c)+",
            "^([a-z]+\\.)+[a-z]{2,}$x(y+){2,}",
            "(\\w+\\s?){3,}",
            "(?:a+){2}",
            "(?<x>a+)+",
            "(a)\\1",
            "(?<x>a)\\k<x>",
            "^(\\d+)*$",
            // What the scanner skips (a lookbehind's or a name's `<`, a class, an escape)
            // does not hide what follows.
            "(?<=a)(x+)+$",
            "(?<!a)(x+)+$",
            "(?<n>a)(x+)+$",
            "(?:a)(x+)+$",
            "(?=a)(x+)+$",
            "[\\]a](x+)+$",
            "\\((x+)+$",
            // An alternation or a quantifier deeper inside counts too.
            "^((a|aa))+$",
            "^((a+)b)*$",
            // Lazy quantifiers are quantifiers, and so is `?`.
            "^(a+?)+$",
            "^(a?b?)+$",
        ] {
            assert!(
                matches!(cost(evil), Err(Refusal::Exponential(_))),
                "{evil}: {:?}",
                cost(evil)
            );
        }
    }

    #[test]
    fn ordinary_patterns_run_on_texts_their_cost_allows() {
        for (pattern, repeats) in [
            ("^[0-9]{5}$", 1),
            ("^[0-9]{1}$", 0),
            ("^TR-\\d+$", 1),
            ("^[a-z]+@[a-z]+\\.[a-z]{2,}$", 3),
            ("^(foo)?bar$", 0),
            ("^(?:[0-9]{3})-[0-9]{4}$", 2),
            ("[(+*)]+", 1),
            ("a{,3}", 0),
            ("^\\(\\d+\\)$", 1),
            ("^(?=.*\\d).{8,}$", 2),
            ("(ab)+", 1),
            // Escaped, a quantifier or a parenthesis is a character.
            ("^(a\\+)*$", 1),
            ("^(a\\*b\\?)+$", 1),
            ("\\(a\\)+", 1),
            // In a class too, up to its real end.
            ("^([+*?]b)+$", 1),
            ("^([\\]+]b)+$", 1),
            // `\k` names a group only with `<`.
            ("\\kx", 0),
            // A group's `?:`, `?=`, `?<=`, `?<name>` is no quantifier.
            ("(?:ab)+", 1),
            ("(?<=ab)c+", 1),
            ("xxxxx(?<=a)b+", 1),
            // What follows a repeated group is read on.
            ("(ab)+c+", 2),
            ("(?<name>ab)+", 1),
            // A group inside that repeats nothing is no quantifier.
            ("^((a)b)+$", 1),
            // Lazy quantifiers, and what follows them, are read in full.
            ("^a+?b*?c??$", 2),
            ("^(ab)+?c$", 1),
        ] {
            assert_eq!(cost(pattern), Ok(repeats), "{pattern}");
        }
        // Unterminated syntax is read to the end without panicking (the browser rejects it).
        for broken in ["[abc", "[a\\", "(?<name", "(?<", "\\", "(a{2,", "(?"] {
            let _ = cost(broken);
        }
        assert!(affordable(0, 10_000_000));
        assert!(affordable(1, 1_000_000));
        assert!(affordable(3, 400));
        assert!(!affordable(3, 1_000));
        assert!(!affordable(2, 100_000));
    }
}
