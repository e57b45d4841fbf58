//! `WWW-Authenticate` parsing (RFC 9110 §11.6.1 challenges, RFC 6750 Bearer parameters,
//! RFC 9728 `resource_metadata`).
//!
//! Hand-written: the header grammar (several challenges, quoted strings with escapes, token68)
//! is small, and the crates that parse it pull in `std` HTTP stacks.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One challenge: a scheme and its parameters (names lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// Auth scheme, e.g. `Bearer` (compare case-insensitively).
    pub scheme: String,
    /// `name=value` parameters, names lower-cased, values unquoted.
    pub params: Vec<(String, String)>,
    /// A token68 value, if the challenge carries one instead of parameters.
    pub token68: Option<String>,
}

impl Challenge {
    /// The value of a parameter (name compared case-insensitively).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a Bearer challenge tells an MCP client.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BearerChallenge {
    /// URL of the Protected Resource Metadata (RFC 9728).
    pub resource_metadata: Option<String>,
    /// Scopes needed for this request (space separated in the header).
    pub scope: Option<String>,
    /// OAuth error code, e.g. `invalid_token`, `insufficient_scope`.
    pub error: Option<String>,
    /// Human-readable error (untrusted text).
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// The scopes as a list.
    pub fn scopes(&self) -> Vec<String> {
        self.scope.as_deref().map(split_scopes).unwrap_or_default()
    }
}

/// Splits a space-separated scope string.
pub fn split_scopes(s: &str) -> Vec<String> {
    s.split_ascii_whitespace().map(String::from).collect()
}

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] == b' ' || self.s[self.i] == b'\t') {
            self.i += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn token(&mut self) -> Option<String> {
        let start = self.i;
        while self.i < self.s.len() && is_tchar(self.s[self.i] as char) {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }
    fn quoted(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.i += 1;
        let mut out = Vec::new();
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'\\' if self.i + 1 < self.s.len() => {
                    out.push(self.s[self.i + 1]);
                    self.i += 2;
                }
                b'"' => {
                    self.i += 1;
                    return Some(String::from_utf8_lossy(&out).into_owned());
                }
                b => {
                    out.push(b);
                    self.i += 1;
                }
            }
        }
        None // unterminated
    }
    /// token68: token chars plus `/`, `+`, `=` (trailing).
    fn token68(&mut self) -> Option<String> {
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || b"-._~+/".contains(&self.s[self.i]))
        {
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i] == b'=' {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }
}

/// Parses every challenge in a `WWW-Authenticate` value. Malformed parts are skipped; the
/// parser never fails or panics.
pub fn parse_challenges(header: &str) -> Vec<Challenge> {
    let mut lx = Lexer {
        s: header.as_bytes(),
        i: 0,
    };
    let mut out: Vec<Challenge> = Vec::new();
    loop {
        lx.ws();
        while lx.peek() == Some(b',') {
            lx.i += 1;
            lx.ws();
        }
        if lx.i >= lx.s.len() {
            break;
        }
        let Some(scheme) = lx.token() else {
            lx.i += 1; // skip garbage
            continue;
        };
        let mut ch = Challenge {
            scheme,
            params: Vec::new(),
            token68: None,
        };
        // `scheme token68` (RFC 9110 §11.3): a token68 stands alone, up to the end or a comma
        // (`abc=` followed by a value is a parameter instead).
        let after_scheme = lx.i;
        lx.ws();
        if lx.i > after_scheme {
            let start = lx.i;
            let token68 = lx.token68();
            lx.ws();
            if token68.is_some() && matches!(lx.peek(), None | Some(b',')) {
                ch.token68 = token68;
                out.push(ch);
                continue;
            }
            lx.i = start;
        }
        // Parameters until the next scheme (a token not followed by '=').
        loop {
            lx.ws();
            while lx.peek() == Some(b',') {
                lx.i += 1;
                lx.ws();
            }
            let save = lx.i;
            let Some(name) = lx.token() else { break };
            lx.ws();
            if lx.peek() != Some(b'=') {
                lx.i = save; // the start of the next challenge
                break;
            }
            lx.i += 1;
            lx.ws();
            let value = if lx.peek() == Some(b'"') {
                lx.quoted()
            } else {
                lx.token()
            };
            match value {
                Some(v) => ch.params.push((name.to_ascii_lowercase(), v)),
                None => {
                    // `name=` followed by junk: maybe a token68 like `abc==`.
                    lx.i = save;
                    if ch.params.is_empty() && ch.token68.is_none() {
                        ch.token68 = lx.token68();
                    }
                    if lx.i == save {
                        lx.i += 1;
                    }
                    break;
                }
            }
        }
        out.push(ch);
    }
    out
}

/// The Bearer challenge of a `WWW-Authenticate` value, if there is one.
pub fn bearer(header: &str) -> Option<BearerChallenge> {
    scheme_challenge(header, "bearer")
}

/// The DPoP challenge (RFC 9449 §7.1) of a `WWW-Authenticate` value, if there is one: the
/// server wants DPoP-bound tokens. Its parameters mean what a Bearer challenge's do.
pub fn dpop(header: &str) -> Option<BearerChallenge> {
    scheme_challenge(header, "dpop")
}

/// The challenge an MCP client acts on: the Bearer one, else the DPoP one.
pub fn mcp_challenge(header: &str) -> Option<BearerChallenge> {
    bearer(header).or_else(|| dpop(header))
}

fn scheme_challenge(header: &str, scheme: &str) -> Option<BearerChallenge> {
    let ch = parse_challenges(header)
        .into_iter()
        .find(|c| c.scheme.eq_ignore_ascii_case(scheme))?;
    let get = |n: &str| ch.param(n).map(ToString::to_string);
    Some(BearerChallenge {
        resource_metadata: get("resource_metadata"),
        scope: get("scope"),
        error: get("error"),
        error_description: get("error_description"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example() {
        let b = bearer(r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read""#).unwrap_or_default();
        assert_eq!(
            b.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(b.scopes(), ["files:read"]);
    }

    #[test]
    fn several_challenges_escapes_and_case() {
        let h = r#"Basic realm="a, b", BEARER Error="insufficient_scope", scope="a b  c", error_description="needs \"more\"", DPoP algs="ES256""#;
        let all = parse_challenges(h);
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].param("realm"), Some("a, b"));
        let b = bearer(h).unwrap_or_default();
        assert_eq!(b.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(b.scopes(), ["a", "b", "c"]);
        assert_eq!(b.error_description.as_deref(), Some("needs \"more\""));
        assert_eq!(all[2].scheme, "DPoP");
    }

    #[test]
    fn token68_and_bare_schemes() {
        let all = parse_challenges("Negotiate abc123==, Bearer");
        assert_eq!(all[0].token68.as_deref(), Some("abc123=="));
        assert_eq!(all[1].scheme, "Bearer");
        assert!(bearer("Bearer").is_some());
        assert!(bearer("Basic realm=x").is_none());
        // A token68 that ends the header, with and without padding, and one whose `/` or
        // `+` used to split it into challenges of their own (here a "Bearer" one).
        for (h, t) in [
            ("Negotiate abc123==", "abc123=="),
            ("Negotiate a+/b=", "a+/b="),
            ("Negotiate abc", "abc"),
            ("Negotiate YII+x/Bearer", "YII+x/Bearer"),
        ] {
            let all = parse_challenges(h);
            assert_eq!(all.len(), 1, "{h}");
            assert_eq!(all[0].token68.as_deref(), Some(t), "{h}");
        }
        // A token that is no token68 (`#` is not one of its characters) gives none.
        assert_eq!(parse_challenges("Negotiate #x==")[0].token68, None);
        assert!(bearer("Negotiate YII+x/Bearer").is_none());
        // Then the next challenge.
        let all = parse_challenges("Negotiate a/b==, Bearer error=\"invalid_token\"");
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].token68.as_deref(), Some("a/b=="));
        assert_eq!(
            bearer("Negotiate a/b==, Bearer error=\"invalid_token\"")
                .and_then(|b| b.error)
                .as_deref(),
            Some("invalid_token")
        );
    }

    #[test]
    fn garbage_never_panics() {
        for h in [
            "",
            ",,,",
            "=",
            "\"",
            "Bearer scope=\"unterminated",
            "Bearer =x",
            "Bearer a=\"\\",
            "\u{1F600} Bearer x=y",
        ] {
            let _ = parse_challenges(h);
            let _ = bearer(h);
        }
        assert_eq!(bearer("\u{1F600} Bearer x=y").map(|b| b.error), Some(None));
    }

    #[test]
    fn bearer_first_then_dpop() {
        let d = r#"DPoP algs="ES256", error="insufficient_scope", scope="more""#;
        assert_eq!(
            mcp_challenge(d).and_then(|c| c.error).as_deref(),
            Some("insufficient_scope")
        );
        let both = r#"DPoP error="x", Bearer error="y""#;
        assert_eq!(
            mcp_challenge(both).and_then(|c| c.error).as_deref(),
            Some("y")
        );
        assert!(mcp_challenge("Basic realm=\"a\"").is_none());
    }
}
