//! A View's page: its HTML taken from the resource read, the Content-Security-Policy it is
//! shown with, and how its frame gets it (see the module above).

use base64::Engine;
use client_browser::client_core::types::ResourceContents;
use serde_json::{json, Map, Value};

use super::MIME_TYPE;

/// The largest View accepted, in bytes of HTML.
pub const MAX_HTML: usize = 4 << 20;

/// Why a View cannot be shown.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewError {
    /// The resource read answered no contents.
    NoContents,
    /// The contents are not a View's HTML.
    NotAView(String),
    /// The contents are neither text nor base64.
    Undecodable,
    /// Over [`MAX_HTML`].
    TooLarge(usize),
}

impl core::fmt::Display for ViewError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ViewError::NoContents => write!(f, "the server read the app's resource as empty"),
            ViewError::NotAView(mime) => write!(
                f,
                "the app's resource is not an MCP App (its type is {mime:?}, not {MIME_TYPE:?})"
            ),
            ViewError::Undecodable => write!(
                f,
                "the app's resource is neither text nor base64 of UTF-8 HTML"
            ),
            ViewError::TooLarge(n) => write!(
                f,
                "the app's page is {} KB, over the {} KB this client shows",
                n / 1024,
                MAX_HTML / 1024
            ),
        }
    }
}

/// Whether `mime` is [`MIME_TYPE`] (case and spaces around `;` aside).
fn is_view_type(mime: &str) -> bool {
    let normal: String = mime
        .split(';')
        .map(|p| p.trim().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(";");
    normal == MIME_TYPE
}

/// The View's HTML in a resource's contents (`text`, or `blob` as base64 of UTF-8).
pub fn html_of(contents: &ResourceContents) -> Result<String, ViewError> {
    let mime = contents.mime_type.as_deref().unwrap_or("");
    if !is_view_type(mime) {
        return Err(ViewError::NotAView(mime.to_string()));
    }
    let html = match (&contents.text, &contents.blob) {
        (Some(text), _) => text.clone(),
        (None, Some(blob)) => {
            // A page over the limit is refused before it is decoded.
            let size = base64_decoded_len(blob);
            if size > MAX_HTML {
                return Err(ViewError::TooLarge(size));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob.trim())
                .map_err(|_| ViewError::Undecodable)?;
            String::from_utf8(bytes).map_err(|_| ViewError::Undecodable)?
        }
        (None, None) => return Err(ViewError::Undecodable),
    };
    if html.len() > MAX_HTML {
        return Err(ViewError::TooLarge(html.len()));
    }
    Ok(html)
}

/// Whether `source` may stand in a policy as a declared origin: a scheme (`http`, `https`,
/// `ws`, `wss`), a host (letters, digits, `-`, `.`, a leading `*.`) and an optional port.
/// Anything else (quotes, `;`, spaces, keywords, paths) could change the policy's meaning
/// and is left out.
fn is_origin(source: &str) -> bool {
    let Some((scheme, rest)) = source.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return false;
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (rest, None),
    };
    let host = host.strip_prefix("*.").unwrap_or(host);
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && port
            .is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The declared origins under `key` of a View's `csp`, the valid ones only.
fn declared<'a>(csp: Option<&'a Value>, key: &str) -> Vec<&'a str> {
    csp.and_then(|c| c.get(key))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .filter(|s| is_origin(s))
                .collect()
        })
        .unwrap_or_default()
}

/// The origins of a View's `csp` that this host lets through (each list filtered by
/// `is_origin`), as the `hostCapabilities.sandbox.csp` it is told.
pub fn approved_csp(csp: Option<&Value>) -> Value {
    let mut out = Map::new();
    for key in [
        "connectDomains",
        "resourceDomains",
        "frameDomains",
        "baseUriDomains",
    ] {
        let list = declared(csp, key);
        if !list.is_empty() {
            out.insert(key.into(), json!(list));
        }
    }
    Value::Object(out)
}

/// `directive` allowing `base` and the origins `extra`, or `fallback` when there are none
/// of either.
fn directive(name: &str, base: &str, extra: &[&str], fallback: &str) -> String {
    let mut d = String::from(name);
    for s in base.split_whitespace().chain(extra.iter().copied()) {
        d.push(' ');
        d.push_str(s);
    }
    if base.is_empty() && extra.is_empty() {
        d.push(' ');
        d.push_str(fallback);
    }
    d
}

/// The Content-Security-Policy a View is shown with: the specification's restrictive
/// default, widened only by the origins its resource declares in `_meta.ui.csp`
/// (`connectDomains`, `resourceDomains`, `frameDomains`, `baseUriDomains`), plus no plugins
/// and no form posting anywhere.
pub fn content_security_policy(csp: Option<&Value>) -> String {
    let connect = declared(csp, "connectDomains");
    let resources = declared(csp, "resourceDomains");
    let frames = declared(csp, "frameDomains");
    let bases = declared(csp, "baseUriDomains");
    [
        "default-src 'none'".to_string(),
        directive("script-src", "'self' 'unsafe-inline'", &resources, ""),
        directive("style-src", "'self' 'unsafe-inline'", &resources, ""),
        directive("img-src", "'self' data:", &resources, ""),
        directive("media-src", "'self' data:", &resources, ""),
        directive("font-src", "'self' data:", &resources, ""),
        directive("connect-src", "", &connect, "'none'"),
        directive("frame-src", "", &frames, "'none'"),
        directive("base-uri", "", &bases, "'self'"),
        "object-src 'none'".to_string(),
        "form-action 'none'".to_string(),
    ]
    .join("; ")
}

/// `html` with `policy` as its first element: a `<meta http-equiv="Content-Security-Policy">`
/// put after the doctype (so the page keeps its standards mode) and before anything else,
/// so that it rules every script and style of the page.
pub fn with_policy(html: &str, policy: &str) -> String {
    let meta = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        policy.replace('&', "&amp;").replace('"', "&quot;")
    );
    let body = html.trim_start_matches('\u{feff}');
    let lead = body.len() - body.trim_start().len();
    let rest = &body[lead..];
    let at = if rest.len() >= 9 && rest[..9].eq_ignore_ascii_case("<!doctype") {
        match rest.find('>') {
            Some(end) => lead + end + 1,
            None => 0,
        }
    } else {
        0
    };
    let mut out = String::with_capacity(body.len() + meta.len());
    out.push_str(&body[..at]);
    out.push_str(&meta);
    out.push_str(&body[at..]);
    out
}

/// The longest URL a frame is given: Chromium refuses longer ones (2 MiB) and loads
/// `about:blank#blocked` instead.
pub const MAX_URL: usize = 2 << 20;

/// How a View's frame gets its document.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameSource {
    /// A `data:` URL (`src`): its document does not inherit the page's policy.
    Url(String),
    /// The document itself (`srcdoc`), for a View too large for a URL: it inherits the
    /// page's policy (if the page has one) besides its own.
    Document(String),
}

/// Where a View's frame loads `document` from: a `data:` URL when it fits in [`MAX_URL`],
/// else `srcdoc`.
pub fn frame_source(document: String) -> FrameSource {
    const PREFIX: &str = "data:text/html;charset=utf-8;base64,";
    if PREFIX.len() + document.len().div_ceil(3) * 4 > MAX_URL {
        return FrameSource::Document(document);
    }
    FrameSource::Url(format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::STANDARD.encode(document)
    ))
}

/// How many bytes the base64 text `encoded` decodes to, from its length and its padding,
/// without decoding it: whitespace is ignored (around it, or where it is wrapped into
/// lines), and the `=` padding may be left out.
pub fn base64_decoded_len(encoded: &str) -> usize {
    let chars = encoded.bytes().filter(|c| !c.is_ascii_whitespace()).count();
    let padding = encoded
        .trim_end()
        .bytes()
        .rev()
        .take(2)
        .take_while(|&c| c == b'=')
        .count();
    chars.saturating_sub(padding) * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decoded_len_counts_padding_and_ignores_surrounding_space() {
        for (encoded, len) in [
            ("", 0),
            ("YQ==", 1),
            ("YWI=", 2),
            ("YWJj", 3),
            (" YWJjZA==\n", 4),
            ("YQ", 1),
            ("YWI", 2),
            ("YWJj\nZGVm\r\n", 6),
        ] {
            assert_eq!(base64_decoded_len(encoded), len, "{encoded:?}");
        }
    }

    #[test]
    fn html_comes_from_text_or_base64_of_the_right_type_only() {
        let contents =
            |v: Value| -> ResourceContents { serde_json::from_value(v).expect("contents") };
        let text = contents(
            json!({"uri": "ui://a", "mimeType": "text/html; profile=mcp-app", "text": "<p>hi"}),
        );
        assert_eq!(html_of(&text).as_deref(), Ok("<p>hi"));
        let blob = contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "blob": "PHA+aMOp"}));
        assert_eq!(html_of(&blob).as_deref(), Ok("<p>hé"));
        let plain = contents(json!({"uri": "ui://a", "mimeType": "text/html", "text": "<p>"}));
        assert_eq!(
            html_of(&plain),
            Err(ViewError::NotAView("text/html".into()))
        );
        let broken = contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "blob": "%%%"}));
        assert_eq!(html_of(&broken), Err(ViewError::Undecodable));
        let huge = contents(
            json!({"uri": "ui://a", "mimeType": MIME_TYPE, "text": "x".repeat(MAX_HTML + 1)}),
        );
        assert!(matches!(html_of(&huge), Err(ViewError::TooLarge(_))));
    }

    #[test]
    fn views_are_taken_up_to_exactly_the_size_limit_and_refusals_say_why() {
        let contents =
            |v: Value| -> ResourceContents { serde_json::from_value(v).expect("contents") };
        let text = |n: usize| {
            contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "text": "x".repeat(n)}))
        };
        assert_eq!(html_of(&text(MAX_HTML)).map(|h| h.len()), Ok(MAX_HTML));
        assert_eq!(
            html_of(&text(MAX_HTML + 1)),
            Err(ViewError::TooLarge(MAX_HTML + 1))
        );
        // Base64: refused by its length before it is decoded, at exactly the limit's.
        let blob = |n: usize| {
            let b64 = base64::engine::general_purpose::STANDARD.encode("x".repeat(n));
            contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "blob": b64}))
        };
        assert_eq!(html_of(&blob(MAX_HTML)).map(|h| h.len()), Ok(MAX_HTML));
        assert_eq!(
            html_of(&blob(MAX_HTML + 3)),
            Err(ViewError::TooLarge(MAX_HTML + 3))
        );
        // Too large is known before decoding: a broken base64 text that long is refused
        // for its size.
        let mut broken = "A".repeat(MAX_HTML / 3 * 4 + 8);
        broken.replace_range(broken.len() - 1.., "%");
        let broken = contents(json!({"uri": "ui://a", "mimeType": MIME_TYPE, "blob": broken}));
        assert_eq!(
            html_of(&broken),
            Err(ViewError::TooLarge(MAX_HTML / 3 * 3 + 6))
        );
        // What each refusal tells the person.
        assert_eq!(
            ViewError::TooLarge(5 << 20).to_string(),
            "the app's page is 5120 KB, over the 4096 KB this client shows"
        );
        assert!(ViewError::NotAView("text/plain".into())
            .to_string()
            .contains("\"text/plain\""));
        assert!(ViewError::NoContents.to_string().contains("empty"));
        assert!(ViewError::Undecodable.to_string().contains("base64"));
    }

    #[test]
    fn declared_origins_are_a_scheme_a_host_and_a_port_of_digits_only() {
        for good in [
            "https://api.example.com",
            "https://a-b.example.com:8443",
            "wss://*.example.com",
            "http://127.0.0.1:1",
        ] {
            assert!(is_origin(good), "{good}");
        }
        for bad in [
            "https://x.com:",
            "https://x.com:123456",
            "https://x.com:12a",
            "https://x_y.com",
            "https://",
            "ftp://x.com",
            "https://x.com/path",
        ] {
            assert!(!is_origin(bad), "{bad}");
        }
    }

    #[test]
    fn the_policy_is_the_restrictive_default_widened_only_by_valid_origins() {
        let default = content_security_policy(None);
        assert!(default.starts_with("default-src 'none'; script-src 'self' 'unsafe-inline';"));
        assert!(default.contains("connect-src 'none'") && default.contains("frame-src 'none'"));
        assert!(default.contains("base-uri 'self'") && default.contains("object-src 'none'"));
        let csp = json!({
            "connectDomains": ["https://api.example.com", "https://x.com; script-src *", "*", "'unsafe-eval'"],
            "resourceDomains": ["https://*.cdn.example:8443", "javascript:alert(1)"],
        });
        let policy = content_security_policy(Some(&csp));
        assert!(
            policy.contains("connect-src https://api.example.com;"),
            "{policy}"
        );
        assert!(
            policy.contains("script-src 'self' 'unsafe-inline' https://*.cdn.example:8443;"),
            "{policy}"
        );
        assert!(
            !policy.contains("unsafe-eval")
                && !policy.contains("javascript")
                && !policy.contains(" *;")
        );
        assert_eq!(
            approved_csp(Some(&csp)),
            json!({"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://*.cdn.example:8443"]})
        );
    }

    #[test]
    fn the_policy_goes_first_after_the_doctype() {
        let p = "default-src 'none'";
        let meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">";
        assert_eq!(
            with_policy("\u{feff} <!DOCTYPE html>\n<html><script>x</script>", p),
            format!(" <!DOCTYPE html>{meta}\n<html><script>x</script>")
        );
        assert_eq!(
            with_policy("<script>x</script>", p),
            format!("{meta}<script>x</script>")
        );
        // A quote in the policy cannot end the attribute.
        assert!(with_policy("", "a\"b").contains("content=\"a&quot;b\""));
        assert_eq!(
            frame_source("<p>é".into()),
            FrameSource::Url("data:text/html;charset=utf-8;base64,PHA+w6k=".into())
        );
        // Over what a URL may hold: the document itself.
        let big = "x".repeat(MAX_URL / 4 * 3);
        assert_eq!(frame_source(big.clone()), FrameSource::Document(big));
        let fits = "x".repeat(MAX_URL / 4 * 3 - 48);
        assert!(matches!(frame_source(fits), FrameSource::Url(u) if u.len() <= MAX_URL));
        // The largest document whose URL fits is still a URL.
        let prefix = "data:text/html;charset=utf-8;base64,".len();
        let exact = "x".repeat((MAX_URL - prefix) / 4 * 3);
        match frame_source(exact) {
            FrameSource::Url(u) => assert!(u.len() <= MAX_URL && u.len() + 4 > MAX_URL),
            other => panic!("{other:?}"),
        }
    }
}
