//! A guard on every URL a server or authorization server hands us (metadata locations,
//! endpoints, redirects): https only, and no private, loopback or link-local targets, unless
//! the caller explicitly allows them for local development.
//!
//! Hosts are parsed as the WHATWG URL Standard says (`crate::weburl`), which already turns every IPv4
//! form `inet_aton` accepts (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, one to four
//! parts) into an address, so those cannot slip past as names.

use crate::weburl::{Host, Url};
use alloc::string::{String, ToString};
use core::net::{Ipv4Addr, Ipv6Addr};

/// What the guard allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UrlPolicy {
    /// Allow `http:` (local development only).
    pub allow_http: bool,
    /// Allow loopback, private and link-local targets (local development only).
    pub allow_private: bool,
}

/// Why a URL was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// Not a URL.
    #[error("{0:?} is not a valid URL")]
    Invalid(String),
    /// Not https (and http not allowed).
    #[error("{0} does not use https")]
    NotHttps(String),
    /// A loopback, private, link-local or otherwise internal target.
    #[error("{0} points at a private, loopback or link-local address")]
    PrivateTarget(String),
    /// Credentials or a fragment in the URL.
    #[error("{0} carries user credentials or a fragment")]
    Unsafe(String),
}

fn v4_internal(ip: Ipv4Addr) -> bool {
    let o = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // 100.64.0.0/10 shared address space
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // 192.0.0.0/24 protocol assignments
        || o[0] >= 240 // reserved
}

fn v6_internal(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return v4_internal(v4);
    }
    // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::/96) embed an IPv4 address.
    let embedded = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..6] == [0, 0, 0, 0, 0, 0] && !ip.is_unspecified() && !ip.is_loopback() {
        return v4_internal(embedded);
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        return v4_internal(embedded);
    }
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
        || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (s[0] & 0xffc0) == 0xfec0 // site-local fec0::/10 (deprecated)
}

/// True for a host that names this machine or an internal network.
pub fn host_is_internal(host: &Host) -> bool {
    match host {
        Host::Ipv4(ip) => v4_internal(*ip),
        Host::Ipv6(ip) => v6_internal(*ip),
        Host::Domain(d) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost"
                || d.ends_with(".localhost")
                || d.ends_with(".local")
                || d.ends_with(".internal")
        }
    }
}

/// Checks a URL against the policy; returns it parsed.
pub fn check_url(raw: &str, policy: UrlPolicy) -> Result<Url, UrlError> {
    let url = crate::weburl::parse(raw.trim()).map_err(|_| UrlError::Invalid(raw.to_string()))?;
    match url.scheme() {
        "https" => {}
        "http" if policy.allow_http => {}
        _ => return Err(UrlError::NotHttps(url.to_string())),
    }
    if !url.username().is_empty() || url.password().is_some() || url.fragment().is_some() {
        return Err(UrlError::Unsafe(url.to_string()));
    }
    let host = url
        .host()
        .ok_or_else(|| UrlError::Invalid(raw.to_string()))?;
    if !policy.allow_private && host_is_internal(host) {
        return Err(UrlError::PrivateTarget(url.to_string()));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: UrlPolicy = UrlPolicy {
        allow_http: false,
        allow_private: false,
    };

    #[test]
    fn https_public_urls_pass() {
        assert!(check_url(
            "https://auth.example.com/.well-known/openid-configuration",
            STRICT
        )
        .is_ok());
        assert!(check_url("https://8.8.8.8/x", STRICT).is_ok());
        assert!(check_url("https://[2001:4860::8888]/x", STRICT).is_ok());
    }

    #[test]
    fn scheme_credentials_and_fragments() {
        assert!(matches!(
            check_url("http://auth.example.com/", STRICT),
            Err(UrlError::NotHttps(_))
        ));
        assert!(matches!(
            check_url("javascript:alert(1)", STRICT),
            Err(UrlError::NotHttps(_))
        ));
        assert!(matches!(
            check_url("file:///etc/passwd", STRICT),
            Err(UrlError::NotHttps(_))
        ));
        for url in [
            "https://u:p@auth.example.com/",
            "https://u@auth.example.com/",
            "https://:p@auth.example.com/",
        ] {
            assert!(
                matches!(check_url(url, STRICT), Err(UrlError::Unsafe(_))),
                "{url}"
            );
        }
        assert!(matches!(
            check_url("https://auth.example.com/#x", STRICT),
            Err(UrlError::Unsafe(_))
        ));
        assert!(matches!(
            check_url("not a url", STRICT),
            Err(UrlError::Invalid(_))
        ));
        assert!(check_url(
            "http://auth.example.com/",
            UrlPolicy {
                allow_http: true,
                allow_private: false
            }
        )
        .is_ok());
    }

    #[test]
    fn every_ipv4_literal_form_of_internal_addresses_is_refused() {
        for h in [
            "127.0.0.1",
            "2130706433",
            "0x7f000001",
            "0x7f.1",
            "0177.0.0.1",
            "0177.1",
            "127.1",
            "127.0.1",
            "0",
            "0.0.0.0",
            "10.0.0.1",
            "012.1",
            "0xa.0.0.1",
            "172.16.5.4",
            "172.31.255.255",
            "192.168.1.1",
            "3232235777",
            "169.254.169.254",
            "0xa9fea9fe",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "192.0.0.8",
            "240.0.0.1",
        ] {
            let url = alloc::format!("https://{h}/x");
            assert!(
                matches!(check_url(&url, STRICT), Err(UrlError::PrivateTarget(_))),
                "{url} was allowed"
            );
        }
        assert!(check_url("https://172.32.0.1/", STRICT).is_ok());
        assert!(check_url("https://100.128.0.1/", STRICT).is_ok());
        assert!(check_url("https://192.0.1.1/", STRICT).is_ok());
    }

    #[test]
    fn ipv6_internal_and_mapped_forms_are_refused() {
        for h in [
            "[::1]",
            "[::]",
            "[fc00::1]",
            "[fd12:3456::1]",
            "[fe80::1]",
            "[::ffff:127.0.0.1]",
            "[::ffff:7f00:1]",
            "[::ffff:10.0.0.1]",
            "[::ffff:169.254.169.254]",
            "[::127.0.0.1]",
            "[64:ff9b::10.0.0.1]",
            "[ff02::1]",
            "[fec0::1]",
            "[64:ff9b::192.0.0.1]",
        ] {
            let url = alloc::format!("https://{h}/x");
            assert!(
                matches!(check_url(&url, STRICT), Err(UrlError::PrivateTarget(_))),
                "{url} was allowed"
            );
        }
        // The IPv4 address an IPv6 one embeds is read whole: public ones pass.
        for h in [
            "[::ffff:8.8.8.8]",
            "[::8.8.8.8]",
            "[64:ff9b::8.8.8.8]",
            "[64:ff9b::192.0.1.1]",
            "[2001:db8::1]",
        ] {
            let url = alloc::format!("https://{h}/x");
            assert!(check_url(&url, STRICT).is_ok(), "{url} was refused");
        }
    }

    #[test]
    fn local_names_are_refused_unless_allowed() {
        for h in ["localhost", "LOCALHOST.", "app.localhost", "printer.local"] {
            let url = alloc::format!("https://{h}/x");
            assert!(
                matches!(check_url(&url, STRICT), Err(UrlError::PrivateTarget(_))),
                "{url}"
            );
        }
        let dev = UrlPolicy {
            allow_http: true,
            allow_private: true,
        };
        assert!(check_url("http://127.0.0.1:3000/token", dev).is_ok());
        assert!(check_url("http://localhost:3000/token", dev).is_ok());
    }

    #[test]
    fn unicode_hosts_are_refused_and_punycode_passes() {
        // No Unicode tables in the core: the browser layer converts
        // international names to Punycode first; anything else is refused, never guessed.
        assert!(matches!(
            check_url("https://bücher.example/x", STRICT),
            Err(UrlError::Invalid(_))
        ));
        assert!(check_url("https://xn--bcher-kva.example/x", STRICT).is_ok());
    }
}
