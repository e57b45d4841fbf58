//! URLs from the network, parsed and resolved as the WHATWG URL Standard does for the schemes
//! the core talks to (`http`, `https`, `ws`, `wss`): hosts (domains, every IPv4 form, IPv6),
//! ports, dot segments, percent-encoding, origins, serialisation; and the
//! `application/x-www-form-urlencoded` encoding of OAuth forms and query strings.
//!
//! Hand-written rather than taken from the `url` crate: that crate, with its IDNA and
//! small-vector dependencies, was about 45 KB of the headless package's code, while the core
//! needs only the special schemes and ASCII hosts (the browser layer hands over every URL in
//! its ASCII form, see `client-browser/src/ascii_url.rs`). Other schemes (`javascript:`,
//! `file:`, ...) are kept opaque: the core only ever refuses them. Hosts with non-ASCII or
//! percent-encoded characters are refused rather than guessed at. The tests check this parser
//! against the `url` crate.

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::net::{Ipv4Addr, Ipv6Addr};

/// Why a text is not a URL the core can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// No scheme, and nothing to resolve it against.
    #[error("not an absolute URL (it has no scheme such as https:)")]
    NoScheme,
    /// `https://` without a host.
    #[error("the URL has no host")]
    EmptyHost,
    /// A host with a character no host can have.
    #[error("the URL's host has a character a host cannot have")]
    InvalidHost,
    /// A host with non-ASCII or percent-encoded characters.
    #[error("the URL's host is not in ASCII form (write an international name in Punycode)")]
    UnsupportedHost,
    /// A host that ends in a number but is not an IPv4 address.
    #[error("the URL's host is not a valid IPv4 address")]
    InvalidIpv4,
    /// A bracketed host that is not an IPv6 address.
    #[error("the URL's host is not a valid IPv6 address")]
    InvalidIpv6,
    /// A port that is not a number up to 65535.
    #[error("the URL's port is not a number up to 65535")]
    InvalidPort,
}

/// The host of a URL with a special scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Host {
    /// A domain name, ASCII lower case.
    Domain(String),
    /// An IPv4 address (from any form the standard accepts: `127.1`, `0x7f.1`, `2130706433`).
    Ipv4(Ipv4Addr),
    /// An IPv6 address.
    Ipv6(Ipv6Addr),
}

/// A parsed URL. Compared and shown by its serialisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    text: String,
    scheme: String,
    username: String,
    password: Option<String>,
    /// `None` for an opaque (non-special) URL.
    host: Option<Host>,
    port: Option<u16>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

/// Parses an absolute URL.
pub fn parse(input: &str) -> Result<Url, ParseError> {
    parse_with(input, None)
}

/// Resolves `input` (absolute, or relative such as `/messages?id=1`) against `base`.
pub fn join(base: &Url, input: &str) -> Result<Url, ParseError> {
    parse_with(input, Some(base))
}

impl Url {
    /// Parses an absolute URL (same as [`parse`]).
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        parse(input)
    }
    /// The serialisation.
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The scheme, lower case, without `:`.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }
    /// The user name (percent-encoded), empty if none.
    pub fn username(&self) -> &str {
        &self.username
    }
    /// The password (percent-encoded), if any.
    pub fn password(&self) -> Option<&str> {
        self.password.as_deref()
    }
    /// The host; `None` for a URL with a scheme other than http(s) or ws(s).
    pub fn host(&self) -> Option<&Host> {
        self.host.as_ref()
    }
    /// The port, unless it is the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.port
    }
    /// The path (percent-encoded), starting with `/` for http(s) and ws(s).
    pub fn path(&self) -> &str {
        &self.path
    }
    /// The query (after `?`), if any.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }
    /// The fragment (after `#`), if any.
    pub fn fragment(&self) -> Option<&str> {
        self.fragment.as_deref()
    }
    /// The origin as text (`https://host:port`), or `null` for an opaque URL.
    pub fn origin(&self) -> String {
        let mut s = String::new();
        match &self.host {
            Some(host) => write_origin(&mut s, &self.scheme, host, self.port),
            None => s.push_str("null"),
        }
        s
    }
    /// Whether both URLs have the same (non-opaque) origin.
    pub fn same_origin(&self, other: &Url) -> bool {
        self.host.is_some()
            && self.scheme == other.scheme
            && self.host == other.host
            && self.port == other.port
    }
    /// Drops the query and the fragment.
    pub fn strip_query_and_fragment(&mut self) {
        self.query = None;
        self.fragment = None;
        self.serialize();
    }
    /// Appends `name=value` pairs, form-encoded, to the query.
    pub fn append_query_pairs(&mut self, pairs: &[(&str, &str)]) {
        let query = self.query.get_or_insert_with(String::new);
        for (name, value) in pairs {
            if !query.is_empty() {
                query.push('&');
            }
            form_encode_into(query, name);
            query.push('=');
            form_encode_into(query, value);
        }
        self.serialize();
    }

    fn serialize(&mut self) {
        let mut s = String::with_capacity(self.text.len().max(16));
        s.push_str(&self.scheme);
        s.push(':');
        if let Some(host) = &self.host {
            s.push_str("//");
            if !self.username.is_empty() || self.password.is_some() {
                s.push_str(&self.username);
                if let Some(p) = &self.password {
                    s.push(':');
                    s.push_str(p);
                }
                s.push('@');
            }
            write_host(&mut s, host);
            if let Some(port) = self.port {
                s.push(':');
                s.push_str(&port.to_string());
            }
        }
        s.push_str(&self.path);
        if let Some(q) = &self.query {
            s.push('?');
            s.push_str(q);
        }
        if let Some(f) = &self.fragment {
            s.push('#');
            s.push_str(f);
        }
        self.text = s;
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<Url> for String {
    fn from(u: Url) -> String {
        u.text
    }
}

/// `text` encoded as `application/x-www-form-urlencoded` (space as `+`).
pub fn form_encode(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    form_encode_into(&mut s, text);
    s
}

/// A form body: `name=value` pairs, encoded, joined by `&`.
pub fn form_body(pairs: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (name, value) in pairs {
        if !s.is_empty() {
            s.push('&');
        }
        form_encode_into(&mut s, name);
        s.push('=');
        form_encode_into(&mut s, value);
    }
    s
}

fn form_encode_into(out: &mut String, text: &str) {
    for &b in text.as_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => push_percent(out, b),
        }
    }
}

fn push_percent(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(HEX[usize::from(b >> 4)] as char);
    out.push(HEX[usize::from(b & 15)] as char);
}

/// The default port of a special scheme; `None` for every other scheme.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

fn is_slash(c: char) -> bool {
    c == '/' || c == '\\'
}

fn parse_with(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
    // Leading and trailing C0 controls and spaces go, and tabs and newlines anywhere.
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    let cleaned: String;
    let s = if trimmed.contains(['\t', '\n', '\r']) {
        cleaned = trimmed.replace(['\t', '\n', '\r'], "");
        cleaned.as_str()
    } else {
        trimmed
    };
    let base = base.filter(|b| b.host.is_some());
    match split_scheme(s) {
        Some((scheme, rest)) => {
            let scheme = scheme.to_ascii_lowercase();
            if default_port(&scheme).is_none() {
                return Ok(opaque(scheme, rest));
            }
            match base {
                // `https:path` against an https base is relative to it.
                Some(b) if b.scheme == scheme => relative(b, rest),
                _ => absolute(scheme, rest.trim_start_matches(is_slash)),
            }
        }
        None => match base {
            Some(b) => relative(b, s),
            None => Err(ParseError::NoScheme),
        },
    }
}

/// `scheme` and what follows `scheme:`, if `s` starts with a scheme.
fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut bytes = scheme.bytes();
    let first_is_alpha = bytes.next().is_some_and(|b| b.is_ascii_alphabetic());
    let rest_ok = bytes.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b));
    (first_is_alpha && rest_ok).then(|| (scheme, &s[colon + 1..]))
}

/// A URL of a scheme the core never fetches: kept as it came, for error messages.
fn opaque(scheme: String, rest: &str) -> Url {
    let (rest, fragment) = split_once_owned(rest, '#');
    let (path, query) = split_once_owned(&rest, '?');
    let mut url = Url {
        text: String::new(),
        scheme,
        username: String::new(),
        password: None,
        host: None,
        port: None,
        path,
        query,
        fragment,
    };
    url.serialize();
    url
}

fn split_once_owned(s: &str, at: char) -> (String, Option<String>) {
    match s.split_once(at) {
        Some((a, b)) => (a.to_owned(), Some(b.to_owned())),
        None => (s.to_owned(), None),
    }
}

/// Path, query and fragment of what follows the authority (or of a relative reference).
struct Tail<'a> {
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split_tail(s: &str) -> Tail<'_> {
    let (rest, fragment) = match s.split_once('#') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let (path, query) = match rest.split_once('?') {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    Tail {
        path,
        query,
        fragment,
    }
}

/// A special URL from its authority onwards (the slashes after `scheme:` already skipped).
fn absolute(scheme: String, rest: &str) -> Result<Url, ParseError> {
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let (userinfo, hostport) = match authority.rfind('@') {
        Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
        None => (None, authority),
    };
    let (username, password) = match userinfo {
        Some(info) => {
            let (user, pass) = match info.split_once(':') {
                Some((u, p)) => (u, Some(p)),
                None => (info, None),
            };
            let password = pass
                .filter(|p| !p.is_empty())
                .map(|p| percent_encode(p, in_userinfo_set));
            (percent_encode(user, in_userinfo_set), password)
        }
        None => (String::new(), None),
    };
    let (host_text, port_text) = split_port(hostport);
    if host_text.is_empty() {
        return Err(ParseError::EmptyHost);
    }
    let host = parse_host(host_text)?;
    let port = match port_text {
        None | Some("") => None,
        Some(p) => {
            if !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::InvalidPort);
            }
            let digits = p.trim_start_matches('0');
            let n = if digits.is_empty() {
                0
            } else if digits.len() > 5 {
                return Err(ParseError::InvalidPort);
            } else {
                digits.parse::<u32>().map_err(|_| ParseError::InvalidPort)?
            };
            let n = u16::try_from(n).map_err(|_| ParseError::InvalidPort)?;
            (Some(n) != default_port(&scheme)).then_some(n)
        }
    };
    let t = split_tail(tail);
    Ok(build(
        scheme,
        username,
        password,
        host,
        port,
        normalize_path(t.path),
        t.query,
        t.fragment,
    ))
}

/// Host and port text: the port follows the first `:` outside brackets.
fn split_port(hostport: &str) -> (&str, Option<&str>) {
    let mut in_brackets = false;
    for (i, c) in hostport.char_indices() {
        match c {
            '[' => in_brackets = true,
            ']' => in_brackets = false,
            ':' if !in_brackets => return (&hostport[..i], Some(&hostport[i + 1..])),
            _ => {}
        }
    }
    (hostport, None)
}

/// A relative reference (or `scheme:rest` of the base's own scheme) resolved against `base`.
fn relative(base: &Url, s: &str) -> Result<Url, ParseError> {
    let mut chars = s.chars();
    let (first, second) = (chars.next(), chars.next());
    if first.is_some_and(is_slash) && second.is_some_and(is_slash) {
        return absolute(base.scheme.clone(), s.trim_start_matches(is_slash));
    }
    let keep = |b: &Url, path: String, query: Option<&str>, fragment: Option<&str>| {
        build(
            b.scheme.clone(),
            b.username.clone(),
            b.password.clone(),
            b.host.clone().unwrap_or(Host::Domain(String::new())),
            b.port,
            path,
            query,
            fragment,
        )
    };
    let t = split_tail(s);
    let url = match first {
        None => keep(base, base.path.clone(), base.query.as_deref(), None),
        Some('?') => keep(base, base.path.clone(), t.query, t.fragment),
        Some('#') => keep(base, base.path.clone(), base.query.as_deref(), t.fragment),
        Some(c) if is_slash(c) => keep(base, normalize_path(t.path), t.query, t.fragment),
        Some(_) => {
            let dir = match base.path.rfind('/') {
                Some(i) => &base.path[..=i],
                None => "/",
            };
            let mut joined = String::with_capacity(dir.len() + t.path.len());
            joined.push_str(dir);
            joined.push_str(t.path);
            keep(base, normalize_path(&joined), t.query, t.fragment)
        }
    };
    Ok(url)
}

#[allow(clippy::too_many_arguments)]
fn build(
    scheme: String,
    username: String,
    password: Option<String>,
    host: Host,
    port: Option<u16>,
    path: String,
    query: Option<&str>,
    fragment: Option<&str>,
) -> Url {
    let mut url = Url {
        text: String::new(),
        scheme,
        username,
        password,
        host: Some(host),
        port,
        path,
        query: query.map(|q| percent_encode(q, in_special_query_set)),
        fragment: fragment.map(|f| percent_encode(f, in_fragment_set)),
    };
    url.serialize();
    url
}

/// A special URL's path: `\` read as `/`, `.` and `..` segments (also percent-encoded)
/// resolved, characters outside the path set percent-encoded; `/` when empty.
fn normalize_path(raw: &str) -> String {
    let mut segments: Vec<String> = Vec::new();
    let mut parts = raw.split(is_slash).peekable();
    // The text before the first slash: a segment of its own only when there is one.
    if parts.peek() == Some(&"") {
        parts.next();
    }
    while let Some(seg) = parts.next() {
        let last = parts.peek().is_none();
        if is_double_dot(seg) {
            segments.pop();
            if last {
                segments.push(String::new());
            }
        } else if is_single_dot(seg) {
            if last {
                segments.push(String::new());
            }
        } else {
            segments.push(percent_encode(seg, in_path_set));
        }
    }
    let mut path = String::with_capacity(raw.len() + 1);
    for seg in &segments {
        path.push('/');
        path.push_str(seg);
    }
    if path.is_empty() {
        path.push('/');
    }
    path
}

fn is_single_dot(seg: &str) -> bool {
    seg == "." || seg.eq_ignore_ascii_case("%2e")
}

fn is_double_dot(seg: &str) -> bool {
    matches!(seg, "..")
        || [".%2e", "%2e.", "%2e%2e"]
            .iter()
            .any(|d| seg.eq_ignore_ascii_case(d))
}

fn in_c0_set(b: u8) -> bool {
    !(0x20..0x7f).contains(&b)
}
fn in_fragment_set(b: u8) -> bool {
    in_c0_set(b) || b" \"<>`".contains(&b)
}
fn in_special_query_set(b: u8) -> bool {
    in_c0_set(b) || b" \"#<>'".contains(&b)
}
fn in_path_set(b: u8) -> bool {
    in_fragment_set(b) || b"#?{}".contains(&b)
}
fn in_userinfo_set(b: u8) -> bool {
    in_path_set(b) || b"/:;=@[\\]^|".contains(&b)
}

fn percent_encode(s: &str, in_set: fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if in_set(b) {
            push_percent(&mut out, b);
        } else {
            out.push(b as char);
        }
    }
    out
}

fn parse_host(text: &str) -> Result<Host, ParseError> {
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or(ParseError::InvalidIpv6)?;
        return parse_ipv6(inner).map(Host::Ipv6);
    }
    if text.bytes().any(|b| b == b'%' || !b.is_ascii()) {
        return Err(ParseError::UnsupportedHost);
    }
    let forbidden = |b: u8| in_c0_set(b) || b" #/:<>?@[\\]^|".contains(&b);
    if text.bytes().any(forbidden) {
        return Err(ParseError::InvalidHost);
    }
    let domain = text.to_ascii_lowercase();
    if ends_in_number(&domain) {
        parse_ipv4(&domain).map(Host::Ipv4)
    } else {
        Ok(Host::Domain(domain))
    }
}

/// Whether the last label (ignoring one trailing dot) is a number: then the host must be an
/// IPv4 address.
fn ends_in_number(domain: &str) -> bool {
    let mut labels = domain.rsplit('.');
    let mut last = labels.next().unwrap_or("");
    if last.is_empty() {
        match labels.next() {
            Some(l) => last = l,
            None => return false,
        }
    }
    (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())) || ipv4_number(last).is_some()
}

/// One part of an IPv4 address: decimal, octal (leading `0`) or hex (`0x`); `None` if it is
/// not a number, `Some(None)` if it is one too big for 32 bits.
fn ipv4_number(part: &str) -> Option<Option<u32>> {
    if part.is_empty() {
        return None;
    }
    let (digits, radix) = if let Some(h) = part.strip_prefix("0x").or(part.strip_prefix("0X")) {
        (h, 16)
    } else if part.len() > 1 && part.starts_with('0') {
        (&part[1..], 8)
    } else {
        (part, 10)
    };
    if digits.is_empty() {
        return Some(Some(0));
    }
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(u32::from_str_radix(digits, radix).ok())
}

fn parse_ipv4(domain: &str) -> Result<Ipv4Addr, ParseError> {
    let domain = match domain.strip_suffix('.') {
        Some(d) if !d.is_empty() => d,
        _ => domain,
    };
    let mut numbers = [0u32; 4];
    let mut count = 0;
    for part in domain.split('.') {
        if count == 4 {
            return Err(ParseError::InvalidIpv4);
        }
        numbers[count] = ipv4_number(part).flatten().ok_or(ParseError::InvalidIpv4)?;
        count += 1;
    }
    let (init, last) = (&numbers[..count - 1], numbers[count - 1]);
    if init.iter().any(|&n| n > 255) || u64::from(last) >= 1u64 << (8 * (5 - count)) {
        return Err(ParseError::InvalidIpv4);
    }
    let mut address = last;
    for (i, &n) in init.iter().enumerate() {
        address += n << (8 * (3 - i));
    }
    Ok(Ipv4Addr::from(address))
}

/// The IPv6 parser of the URL Standard (compression with `::`, a trailing IPv4 part).
fn parse_ipv6(text: &str) -> Result<Ipv6Addr, ParseError> {
    const BAD: ParseError = ParseError::InvalidIpv6;
    let input = text.as_bytes();
    let at = |i: usize| input.get(i).copied();
    let mut pieces = [0u16; 8];
    let mut piece = 0usize;
    let mut compress: Option<usize> = None;
    let mut i = 0usize;
    if at(0) == Some(b':') {
        if at(1) != Some(b':') {
            return Err(BAD);
        }
        i = 2;
        piece = 1;
        compress = Some(1);
    }
    while let Some(c) = at(i) {
        if piece == 8 {
            return Err(BAD);
        }
        if c == b':' {
            if compress.is_some() {
                return Err(BAD);
            }
            i += 1;
            piece += 1;
            compress = Some(piece);
            continue;
        }
        let (mut value, mut length) = (0u16, 0usize);
        while length < 4 {
            match at(i).and_then(|c| (c as char).to_digit(16)) {
                Some(d) => {
                    value = value * 16 + d as u16;
                    i += 1;
                    length += 1;
                }
                None => break,
            }
        }
        match at(i) {
            Some(b'.') => {
                if length == 0 || piece > 6 {
                    return Err(BAD);
                }
                i -= length;
                let mut seen = 0;
                while at(i).is_some() {
                    if seen > 0 {
                        if at(i) == Some(b'.') && seen < 4 {
                            i += 1;
                        } else {
                            return Err(BAD);
                        }
                    }
                    let mut part: Option<u16> = None;
                    if !at(i).is_some_and(|c| c.is_ascii_digit()) {
                        return Err(BAD);
                    }
                    while let Some(d) = at(i).filter(|c| c.is_ascii_digit()) {
                        let d = u16::from(d - b'0');
                        part = match part {
                            None => Some(d),
                            Some(0) => return Err(BAD),
                            Some(p) => Some(p * 10 + d),
                        };
                        if part.is_some_and(|p| p > 255) {
                            return Err(BAD);
                        }
                        i += 1;
                    }
                    pieces[piece] = pieces[piece] * 0x100 + part.unwrap_or(0);
                    seen += 1;
                    if seen == 2 || seen == 4 {
                        piece += 1;
                    }
                }
                if seen != 4 {
                    return Err(BAD);
                }
                break;
            }
            Some(b':') => {
                i += 1;
                if at(i).is_none() {
                    return Err(BAD);
                }
            }
            Some(_) => return Err(BAD),
            None => {}
        }
        pieces[piece] = value;
        piece += 1;
    }
    match compress {
        Some(start) => {
            let mut swaps = piece - start;
            piece = 7;
            while piece != 0 && swaps > 0 {
                pieces.swap(piece, start + swaps - 1);
                piece -= 1;
                swaps -= 1;
            }
        }
        None if piece != 8 => return Err(BAD),
        None => {}
    }
    Ok(Ipv6Addr::from(pieces))
}

fn write_origin(s: &mut String, scheme: &str, host: &Host, port: Option<u16>) {
    s.push_str(scheme);
    s.push_str("://");
    write_host(s, host);
    if let Some(port) = port {
        s.push(':');
        s.push_str(&port.to_string());
    }
}

fn write_host(s: &mut String, host: &Host) {
    match host {
        Host::Domain(d) => s.push_str(d),
        Host::Ipv4(ip) => s.push_str(&ip.to_string()),
        Host::Ipv6(ip) => {
            s.push('[');
            write_ipv6(s, ip);
            s.push(']');
        }
    }
}

/// The URL Standard's IPv6 serialisation: lower-case hex, the first longest run of two or
/// more zero pieces written `::`, never a dotted IPv4 tail.
fn write_ipv6(s: &mut String, ip: &Ipv6Addr) {
    let pieces = ip.segments();
    let (mut best, mut best_len) = (None, 1);
    let mut i = 0;
    while i < 8 {
        let start = i;
        while i < 8 && pieces[i] == 0 {
            i += 1;
        }
        if i - start > best_len {
            best = Some(start);
            best_len = i - start;
        }
        i += 1;
    }
    let mut i = 0;
    while i < 8 {
        if best == Some(i) {
            s.push_str(if i == 0 { "::" } else { ":" });
            i += best_len;
            continue;
        }
        s.push_str(&alloc::format!("{:x}", pieces[i]));
        if i != 7 {
            s.push(':');
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(input: &str) -> Result<String, ParseError> {
        parse(input).map(String::from)
    }

    #[test]
    fn special_urls_are_normalised() {
        for (input, want) in [
            (
                "HTTPS://Example.COM:443/a/./b/../c?x=1#f",
                "https://example.com/a/c?x=1#f",
            ),
            ("http://example.com", "http://example.com/"),
            ("http://example.com:80", "http://example.com/"),
            ("http://example.com:0080/", "http://example.com/"),
            ("http://example.com:8080", "http://example.com:8080/"),
            ("  https://a.b/c d\t\n ", "https://a.b/c%20d"),
            ("https:\\\\a.b\\x\\y", "https://a.b/x/y"),
            ("https:a.b/x", "https://a.b/x"),
            ("https://a.b/x/..", "https://a.b/"),
            ("https://a.b/x/%2E%2e/y/%2e", "https://a.b/y/"),
            ("https://a.b/é?é#é", "https://a.b/%C3%A9?%C3%A9#%C3%A9"),
            ("https://a.b/'?'#'", "https://a.b/'?%27#'"),
            ("https://u:p@a.b/", "https://u:p@a.b/"),
            ("https://u:@a.b/", "https://u@a.b/"),
            ("https://a@b@c.d/", "https://a%40b@c.d/"),
            ("https://a.b:/", "https://a.b/"),
            ("ws://a.b:80/x", "ws://a.b/x"),
            (
                "https://[0:0:0:0:0:ffff:7f00:1]/",
                "https://[::ffff:7f00:1]/",
            ),
            ("https://[::1.2.3.4]/", "https://[::102:304]/"),
            ("https://[1:0:0:2::3:0]/", "https://[1::2:0:0:3:0]/"),
            ("https://[1:0::]/", "https://[1::]/"),
            ("https://[1::2:3:4:5:6:7]/", "https://[1:0:2:3:4:5:6:7]/"),
            (
                "https://[1:2:3:4:5:6:1.2.3.4]/",
                "https://[1:2:3:4:5:6:102:304]/",
            ),
            ("https://[::1.2.3.255]/", "https://[::102:3ff]/"),
            // The port follows the bracketed address.
            ("http://[::1]:8080/x", "http://[::1]:8080/x"),
            ("https://[::1]:443/", "https://[::1]/"),
            ("https://0x7f.1/", "https://127.0.0.1/"),
            ("https://2130706433/", "https://127.0.0.1/"),
            ("https://1.2.3.4./", "https://1.2.3.4/"),
            ("javascript:alert(1)", "javascript:alert(1)"),
        ] {
            assert_eq!(text(input).as_deref(), Ok(want), "{input}");
        }
    }

    #[test]
    fn bad_urls_are_refused_with_a_reason() {
        for (input, why) in [
            ("", ParseError::NoScheme),
            ("/relative", ParseError::NoScheme),
            ("https://", ParseError::EmptyHost),
            ("https://u@/", ParseError::EmptyHost),
            ("https://a b/", ParseError::InvalidHost),
            ("https://a<b/", ParseError::InvalidHost),
            ("https://bücher.example/", ParseError::UnsupportedHost),
            ("https://%41.example/", ParseError::UnsupportedHost),
            ("https://1.2.3.256/", ParseError::InvalidIpv4),
            ("https://1.2.3.4.5/", ParseError::InvalidIpv4),
            ("https://a.09/", ParseError::InvalidIpv4),
            ("https://[::1/", ParseError::InvalidIpv6),
            ("https://[1:2]/", ParseError::InvalidIpv6),
            ("https://[::1.2.3]/", ParseError::InvalidIpv6),
            ("https://[::01.2.3.4]/", ParseError::InvalidIpv6),
            // `::` stands for at least one zero piece: eight pieces beside it are too many.
            ("https://[1::2:3:4:5:6:7:8]/", ParseError::InvalidIpv6),
            // A dotted IPv4 tail: after six pieces at most, four decimal parts up to 255.
            ("https://[1:2:3:4:5:6:7:1.2.3.4]/", ParseError::InvalidIpv6),
            ("https://[1:2:3:4:5:6:1.2.3.4.5]/", ParseError::InvalidIpv6),
            ("https://[::1.2.3x4]/", ParseError::InvalidIpv6),
            ("https://[::1.2.3.256]/", ParseError::InvalidIpv6),
            ("https://a.b:65536/", ParseError::InvalidPort),
            ("https://a.b:8x/", ParseError::InvalidPort),
            ("https://a:b:c/", ParseError::InvalidPort),
        ] {
            assert_eq!(parse(input), Err(why), "{input}");
        }
    }

    #[test]
    fn relative_references_resolve_against_the_base() {
        let base = parse("https://example.com/a/b?q#f").unwrap();
        for (input, want) in [
            (
                "/messages?sessionId=%aa",
                "https://example.com/messages?sessionId=%aa",
            ),
            ("c", "https://example.com/a/c"),
            ("../../../c", "https://example.com/c"),
            ("?x", "https://example.com/a/b?x"),
            ("#g", "https://example.com/a/b?q#g"),
            ("", "https://example.com/a/b?q"),
            ("//other.test/x", "https://other.test/x"),
            ("\\\\other.test", "https://other.test/"),
            ("https:c", "https://example.com/a/c"),
            ("http:c", "http://c/"),
            ("https://x.test", "https://x.test/"),
        ] {
            assert_eq!(
                join(&base, input).map(String::from).as_deref(),
                Ok(want),
                "{input}"
            );
        }
    }

    #[test]
    fn origins_and_form_encoding() {
        let a = parse("https://example.com:8443/x").unwrap();
        assert_eq!(a.origin(), "https://example.com:8443");
        assert!(a.same_origin(&parse("https://EXAMPLE.com:8443/y?z").unwrap()));
        assert!(!a.same_origin(&parse("http://example.com:8443/").unwrap()));
        let js = parse("javascript:x").unwrap();
        assert_eq!(js.origin(), "null");
        assert!(!js.same_origin(&js));
        assert_eq!(form_body(&[("a b", "c&d=é*~")]), "a+b=c%26d%3D%C3%A9*%7E");
        let mut u = parse("https://as.test/authorize").unwrap();
        u.append_query_pairs(&[("response_type", "code"), ("scope", "a b")]);
        assert_eq!(
            u.as_str(),
            "https://as.test/authorize?response_type=code&scope=a+b"
        );
        u.strip_query_and_fragment();
        assert_eq!(u.as_str(), "https://as.test/authorize");
    }
}
