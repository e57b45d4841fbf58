//! The core's URL parser (`client_core::weburl`) checked against the `url` crate (the WHATWG
//! URL Standard's Rust implementation) on generated URLs: for http(s) and ws(s) both give the
//! same serialisation, or both refuse. Where the core refuses more (hosts with non-ASCII or
//! percent-encoded characters, which the browser layer hands over in ASCII form), it says so.

use client_core::weburl;
use proptest::prelude::*;

/// What the `url` crate makes of `input` (resolved against `base` if given).
fn oracle(input: &str, base: Option<&str>) -> Option<url::Url> {
    match base {
        Some(b) => url::Url::parse(b).ok()?.join(input).ok(),
        None => url::Url::parse(input).ok(),
    }
}

/// Every part of a special URL the core parsed, against the `url` crate's reading of the same
/// input: the accessors, the origin, the same-origin check against `other`, and the two edits
/// the OAuth flow makes (query and fragment dropped; form-encoded pairs appended).
fn compare_parts(
    input: &str,
    ours: &weburl::Url,
    want: &url::Url,
    other: (&weburl::Url, &url::Url),
) -> Result<(), TestCaseError> {
    prop_assert_eq!(ours.as_str(), want.as_str(), "{:?}", input);
    prop_assert_eq!(ours.scheme(), want.scheme(), "{:?}", input);
    prop_assert_eq!(ours.username(), want.username(), "{:?}", input);
    prop_assert_eq!(ours.password(), want.password(), "{:?}", input);
    let same_host = match (ours.host(), want.host()) {
        (Some(weburl::Host::Domain(a)), Some(url::Host::Domain(b))) => a == b,
        (Some(weburl::Host::Ipv4(a)), Some(url::Host::Ipv4(b))) => a == &b,
        (Some(weburl::Host::Ipv6(a)), Some(url::Host::Ipv6(b))) => a == &b,
        _ => false,
    };
    prop_assert!(
        same_host,
        "{input:?}: host {:?}, want {:?}",
        ours.host(),
        want.host()
    );
    prop_assert_eq!(ours.port(), want.port(), "{:?}", input);
    prop_assert_eq!(ours.path(), want.path(), "{:?}", input);
    prop_assert_eq!(ours.query(), want.query(), "{:?}", input);
    prop_assert_eq!(ours.fragment(), want.fragment(), "{:?}", input);
    prop_assert_eq!(
        ours.origin(),
        want.origin().ascii_serialization(),
        "{:?}",
        input
    );
    prop_assert!(ours.same_origin(ours), "{input:?} is not of its own origin");
    prop_assert_eq!(
        ours.same_origin(other.0),
        want.origin() == other.1.origin(),
        "{:?} against {}",
        input,
        other.1
    );
    let (mut stripped, mut want_stripped) = (ours.clone(), want.clone());
    stripped.strip_query_and_fragment();
    want_stripped.set_query(None);
    want_stripped.set_fragment(None);
    prop_assert_eq!(stripped.as_str(), want_stripped.as_str(), "{:?}", input);
    let pairs = [("state", "a b&c=d"), ("é*-._~", "")];
    let (mut appended, mut want_appended) = (ours.clone(), want.clone());
    appended.append_query_pairs(&pairs);
    want_appended.query_pairs_mut().extend_pairs(pairs);
    prop_assert_eq!(appended.as_str(), want_appended.as_str(), "{:?}", input);
    Ok(())
}

/// Hosts with non-ASCII or percent-encoded characters, which the core refuses on purpose.
fn refused_on_purpose(err: &weburl::ParseError) -> bool {
    *err == weburl::ParseError::UnsupportedHost
}

fn compare(input: &str, base: Option<&str>) -> Result<(), TestCaseError> {
    // `///host` against a special base: the URL Standard (and the browser) skip every slash
    // and read `host` (`new URL("///a", "https://x/")` is `https://a/`); the `url` crate
    // refuses it with EmptyHost. The core follows the standard.
    let slashes = input
        .trim_start()
        .chars()
        .take_while(|c| *c == '/' || *c == '\\')
        .count();
    if base.is_some() && slashes >= 3 {
        return Ok(());
    }
    // A `..` after a segment that looks like a Windows drive letter (`A:`): the standard keeps
    // such a segment only for `file:` URLs; the `url` crate keeps it for every scheme.
    let drive_letter = |seg: &str| {
        let b = seg.as_bytes();
        b.len() == 2 && b[0].is_ascii_alphabetic() && (b[1] == b':' || b[1] == b'|')
    };
    // The same after a scheme that makes the input relative (`Http:a|/..` against an http
    // base: the browser gives the base's root, the `url` crate keeps `a|`).
    let after_scheme = input
        .split_once(':')
        .filter(|(scheme, _)| scheme.len() > 1 && scheme.chars().all(|c| c.is_ascii_alphabetic()))
        .map_or(input, |(_, rest)| rest);
    if input.split(['/', '\\']).any(drive_letter)
        || after_scheme.split(['/', '\\']).any(drive_letter)
    {
        return Ok(());
    }
    // The URL the same-origin check compares with: the base, or one with a host the
    // generator often makes.
    let other = base.unwrap_or("http://a/");
    let other = (
        weburl::parse(other).expect("a valid URL"),
        url::Url::parse(other).expect("a valid URL"),
    );
    let ours = match base {
        Some(_) => weburl::join(&other.0, input),
        None => weburl::parse(input),
    };
    // Refused on purpose (and the `url` crate's IDNA adapter would trip a debug assertion on
    // some of these hosts): see `hosts_the_core_cannot_take_are_refused`.
    if ours.as_ref().err().is_some_and(refused_on_purpose) {
        return Ok(());
    }
    let special = |u: &url::Url| ["http", "https", "ws", "wss"].contains(&u.scheme());
    match (ours, oracle(input, base)) {
        (Ok(u), Some(want)) if special(&want) => {
            compare_parts(input, &u, &want, (&other.0, &other.1))?
        }
        (Ok(u), Some(want)) => prop_assert_eq!(u.scheme(), want.scheme()),
        // Other schemes are kept opaque: the core only ever refuses them.
        (Ok(u), None) if u.host().is_none() => {}
        (Ok(_), None) if input.to_ascii_lowercase().contains("xn--") => {}
        (Ok(u), None) => prop_assert!(false, "{input:?} parsed as {u}, the url crate refuses it"),
        // Punycode labels (`xn--`) are decoded and checked by the `url` crate's IDNA step; the
        // core passes them through (the browser checks them when it fetches).
        (Err(e), Some(want)) => prop_assert!(
            input.to_ascii_lowercase().contains("xn--"),
            "{input:?} refused ({e}), the url crate gives {want}"
        ),
        (Err(_), None) => {}
    }
    Ok(())
}

fn host() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9-]{1,6}(\\.[a-zA-Z0-9-]{0,5}){0,3}\\.?",
        "(0x[0-9a-fA-F]{0,9}|0[0-7]{0,12}|[0-9]{1,11})(\\.(0x[0-9a-fA-F]{0,3}|0[0-7]{0,4}|[0-9]{1,4})){0,4}\\.?",
        "\\[[0-9a-fA-F:.]{0,24}\\]",
        // Valid IPv6 addresses more often than the random text above: compressed, full, and
        // with a dotted IPv4 tail.
        "\\[([0-9a-f]{1,4}:){0,3}:?:([0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4}\\]",
        "\\[([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}\\]",
        "\\[::(ffff:)?[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\]",
        "[a-z]{1,4}(%[0-9a-fA-F]{2}|[#<>^|% ])[a-z]{0,3}",
    ]
}

fn url_text() -> impl Strategy<Value = String> {
    (
        "(https?|HTTPS|wss?|javascript|file|Http)?:?",
        "(/|\\\\){0,3}",
        "([a-z:%@]{0,5}@)?",
        host(),
        "(:[0-9]{0,6}|:x)?",
        "((/|\\\\)(\\.|\\.\\.|%2[eE]|\\.%2[eE]|[ -\"$-~]{0,4}|é)){0,5}",
        "(\\?[ -\"$-~]{0,8})?",
        "(#[ -~]{0,6})?",
    )
        .prop_map(
            |(scheme, slashes, user, host, port, path, query, fragment)| {
                format!("{scheme}{slashes}{user}{host}{port}{path}{query}{fragment}")
            },
        )
}

fn reference() -> impl Strategy<Value = String> {
    prop_oneof![
        url_text(),
        "(\\.\\./|\\./|[a-z]{1,3}/){0,4}[a-z?#=]{0,5}",
        "(/|\\\\|//|\\\\\\\\)[ -~]{0,12}",
        "[?#][ -~]{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("WEBURL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(4000), ..ProptestConfig::default() })]

    #[test]
    fn parsing_agrees_with_the_url_crate(input in url_text()) {
        compare(&input, None)?;
    }

    #[test]
    fn resolving_agrees_with_the_url_crate(input in reference()) {
        compare(&input, Some("https://example.com:8443/a/b/c?q=1#f"))?;
        compare(&input, Some("http://10.0.0.1/x"))?;
    }
}

#[test]
fn hosts_the_core_cannot_take_are_refused() {
    for bad in [
        "http://A%aa",
        "http://Aé",
        "https://%41%aa/x",
        "HTTP:\\\\A%C3%A9",
        "http:A%aa",
        "  http:///a\t%41%aa?x",
        "http://user@A%aa:80/",
        "ht\ttp://A%aa",
    ] {
        assert_eq!(
            weburl::parse(bad),
            Err(weburl::ParseError::UnsupportedHost),
            "{bad}"
        );
    }
    let base = weburl::parse("https://example.com/mcp").expect("a valid base");
    for bad in ["//A%aa/x", "/\t/A%aa"] {
        assert_eq!(
            weburl::join(&base, bad),
            Err(weburl::ParseError::UnsupportedHost),
            "{bad}"
        );
    }
}

#[test]
fn a_drive_letter_like_segment_of_a_relative_http_reference_is_an_ordinary_segment() {
    // The URL Standard keeps a Windows drive letter before `..` for file: URLs only (the
    // browser: `new URL("Http:a|/..", "http://10.0.0.1/x")` is `http://10.0.0.1/`).
    let base = weburl::parse("http://10.0.0.1/x").expect("a valid base");
    for (input, want) in [
        ("Http:a|/..", "http://10.0.0.1/"),
        ("a|/..", "http://10.0.0.1/"),
        ("http:b:/../c", "http://10.0.0.1/c"),
    ] {
        let got = weburl::join(&base, input).map(|u| u.as_str().to_string());
        assert_eq!(got.as_deref(), Ok(want), "{input:?}");
    }
}
