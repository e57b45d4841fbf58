//! A server URL as people type it, or paste it from a server's log line: `localhost:3000/mcp`,
//! `127.0.0.1:8080`, `mcp.example.com/mcp`. Without a scheme the browser reads these as a
//! scheme (`localhost:`) or a path under the app's own page; a person means a host.

/// `typed` with the scheme it goes without: `http://` for this machine and addresses (a local
/// development server: `localhost`, `*.localhost`, an IPv4 or bracketed IPv6 address),
/// `https://` for a host name (`mcp.example.com`). Anything else is given back as it is: a URL
/// with a scheme, a relative one (`/mcp`, `mcp`: a server on the app's own origin), or text
/// that names no host (the client then says why it cannot use it).
pub fn with_scheme(typed: &str) -> String {
    let t = typed.trim();
    if t.contains("://") || t.starts_with(['/', '.', '?', '#']) {
        return t.to_string();
    }
    let end = t.find(['/', '?', '#']).unwrap_or(t.len());
    let authority = &t[..end];
    let host = match authority.rsplit_once(':') {
        // An IPv6 address's colons are inside its brackets.
        Some((host, port)) if !port.contains(']') => {
            if port.is_empty() || port.len() > 5 || !port.bytes().all(|b| b.is_ascii_digit()) {
                return t.to_string();
            }
            host
        }
        _ => authority,
    };
    let host = host.to_ascii_lowercase();
    let local = host == "localhost"
        || host.ends_with(".localhost")
        || is_ipv4(&host)
        || (host.starts_with('[') && host.ends_with(']') && host.len() > 2);
    if local {
        return format!("http://{t}");
    }
    let labels: Vec<&str> = host.split('.').collect();
    let named = labels.len() > 1
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && labels
            .last()
            .is_some_and(|tld| tld.len() > 1 && tld.bytes().all(|b| b.is_ascii_alphabetic()));
    if named {
        format!("https://{t}")
    } else {
        t.to_string()
    }
}

/// Four dot-separated numbers of at most 255 each.
fn is_ipv4(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::with_scheme;

    #[test]
    fn this_machine_and_addresses_get_http() {
        for (typed, url) in [
            ("localhost:3000/mcp", "http://localhost:3000/mcp"),
            ("LOCALHOST:3000", "http://LOCALHOST:3000"),
            ("127.0.0.1:8080/mcp?x=1", "http://127.0.0.1:8080/mcp?x=1"),
            ("  192.168.1.20/mcp ", "http://192.168.1.20/mcp"),
            ("[::1]:3001/mcp", "http://[::1]:3001/mcp"),
            ("app.localhost:5173/mcp", "http://app.localhost:5173/mcp"),
        ] {
            assert_eq!(with_scheme(typed), url, "{typed:?}");
        }
    }

    #[test]
    fn a_host_name_gets_https() {
        for (typed, url) in [
            ("mcp.example.com/mcp", "https://mcp.example.com/mcp"),
            ("example.com", "https://example.com"),
            (
                "api.example.co.uk:8443/mcp#x",
                "https://api.example.co.uk:8443/mcp#x",
            ),
        ] {
            assert_eq!(with_scheme(typed), url, "{typed:?}");
        }
    }

    #[test]
    fn everything_else_is_left_as_typed() {
        for typed in [
            "http://localhost:3000/mcp",
            "wss://h/mcp",
            "/mcp",
            "./mcp",
            "mcp",
            "v1.0/mcp",
            "javascript:alert(1)",
            "localhost:abc/mcp",
            "localhost:123456",
            "localhost:",
            "256.1.1.1/mcp",
            "user@example.com",
            "[]/mcp",
            "exa_mple.com",
            "",
            "ééé.com",
        ] {
            assert_eq!(with_scheme(typed), typed.trim(), "{typed:?}");
        }
    }
}
