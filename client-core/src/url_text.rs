//! Parsing URLs that came from the network with the `url` crate, safely.
//!
//! This build uses `idna_adapter` 1.0.0 (ASCII hosts only: no Unicode tables in the binary).
//! With it, a host that needs IDNA processing (non-ASCII, possibly percent-encoded) and also
//! holds an ASCII capital letter trips a `debug_assert!` inside the adapter: a panic in debug
//! builds (tests, development), an `IdnaError` in release builds. Such hosts are refused here,
//! before the `url` crate sees them, with the error a release build gives anyway.

use alloc::string::String;
use url::{ParseError, Url};

/// `Url::parse`, refusing hosts with non-ASCII or percent-encoded characters.
pub fn parse(input: &str) -> Result<Url, ParseError> {
    if has_suspect_host(input) {
        return Err(ParseError::IdnaError);
    }
    Url::parse(input)
}

/// `base.join(input)`, refusing hosts with non-ASCII or percent-encoded characters.
pub fn join(base: &Url, input: &str) -> Result<Url, ParseError> {
    if has_suspect_host(input) {
        return Err(ParseError::IdnaError);
    }
    base.join(input)
}

/// Whether the authority the URL parser would read from `input` (leniently, as the WHATWG
/// parser does: any number of slashes or backslashes, tabs and newlines ignored) has a host
/// with a non-ASCII character or a `%`. Errs on the side of refusing.
fn has_suspect_host(input: &str) -> bool {
    // The URL parser drops tabs and newlines anywhere before it reads anything.
    let cleaned: String;
    let s = if input.contains(['\t', '\n', '\r']) {
        cleaned = input.replace(['\t', '\n', '\r'], "");
        cleaned.as_str()
    } else {
        input
    };
    let s = s.trim_matches(|c: char| c <= ' ');
    let slash = |b: u8| b == b'/' || b == b'\\';
    // After `scheme:`, if there is one.
    let rest = match s.find(':') {
        Some(i)
            if i > 0
                && s.as_bytes()[0].is_ascii_alphabetic()
                && s[..i]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
        {
            &s[i + 1..]
        }
        // A relative reference has an authority only when it starts with two slashes.
        _ if s.len() >= 2 && s.bytes().take(2).all(slash) => s,
        _ => return false,
    };
    let rest = rest.trim_start_matches(['/', '\\']);
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    host.chars().any(|c| c == '%' || !c.is_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_the_idna_adapter_cannot_take_are_refused_without_a_panic() {
        for bad in [
            "http://A%aa",
            "http://Aé",
            "https://%41%aa/x",
            "HTTP:\\\\A%C3%A9",
            "http:A%aa",
            "  http:///a\t%41%aa?x",
            "http://user@A%aa:80/",
            "//A%aa/path",
            "ht\ttp://A%aa",
            "/\t/A%aa",
        ] {
            assert_eq!(parse(bad), Err(ParseError::IdnaError), "{bad}");
        }
        let base = parse("https://example.com/mcp").unwrap();
        assert_eq!(join(&base, "//A%aa/x"), Err(ParseError::IdnaError));
        // Ordinary URLs, including percent-encoding outside the host, are untouched.
        for good in [
            "https://example.com/a%C3%A9?q=%aa#f%41",
            "http://Example.COM:8080/x",
            "https://user%40x@example.com/",
        ] {
            assert_eq!(parse(good), Url::parse(good), "{good}");
        }
        assert_eq!(
            join(&base, "/messages?sessionId=%aa")
                .map(|u| u.as_str() == "https://example.com/messages?sessionId=%aa"),
            Ok(true)
        );
    }
}
