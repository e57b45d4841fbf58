//! Words for people: counts ("1 server", not "1 servers") and the names of the protocol's
//! enumerations as the spec or people write them (never a Rust type's variant name).

use client_browser::client_core::session::WireProtocol;
use client_browser::client_core::types::{Era, LoggingLevel, Role};

/// `n` followed by the noun for that many: `one` for exactly one, else `many`.
pub fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

/// A server's protocol era, as the spec names it (its terminology: "legacy" servers use the
/// `initialize` handshake, "modern" ones per-request metadata), capitalised to head a line.
pub fn era_name(era: Era) -> &'static str {
    match era {
        Era::Legacy => "Legacy",
        Era::Modern => "Modern",
    }
}

/// The transport a connection talks over, as people name it.
pub fn wire_name(wire: WireProtocol) -> &'static str {
    match wire {
        WireProtocol::StreamableHttp => "Streamable HTTP",
        WireProtocol::HttpSse => "HTTP+SSE",
        WireProtocol::Frames => "WebSocket",
    }
}

/// Who a prompt's message is from, as the spec writes it.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// A log level, as the spec writes it (RFC 5424's names).
pub fn level_name(level: LoggingLevel) -> &'static str {
    match level {
        LoggingLevel::Debug => "debug",
        LoggingLevel::Info => "info",
        LoggingLevel::Notice => "notice",
        LoggingLevel::Warning => "warning",
        LoggingLevel::Error => "error",
        LoggingLevel::Critical => "critical",
        LoggingLevel::Alert => "alert",
        LoggingLevel::Emergency => "emergency",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_wire_s_own() {
        // What the spec writes on the wire, for those the wire has.
        for role in [Role::User, Role::Assistant] {
            assert_eq!(serde_json::to_value(role).unwrap(), role_name(role));
        }
        for level in crate::components::settings::LEVELS {
            assert_eq!(serde_json::to_value(level).unwrap(), level_name(*level));
        }
        for era in [Era::Legacy, Era::Modern] {
            let wire = serde_json::to_value(era).unwrap();
            assert_eq!(wire, era_name(era).to_lowercase());
        }
        assert_eq!(wire_name(WireProtocol::Frames), "WebSocket");
    }

    #[test]
    fn one_is_counted_as_one() {
        assert_eq!(counted(1, "server", "servers"), "1 server");
        assert_eq!(counted(0, "server", "servers"), "0 servers");
        assert_eq!(counted(12, "byte", "bytes"), "12 bytes");
        assert_eq!(
            counted(u64::MAX, "item", "items"),
            "18446744073709551615 items"
        );
    }
}
