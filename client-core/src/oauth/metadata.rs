//! Protected Resource Metadata (RFC 9728) and Authorization Server Metadata (RFC 8414, OpenID
//! Connect Discovery): the documents, where to look for them, and how to validate them.

use crate::types::Extra;
use crate::weburl::Url;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// What an MCP server says about its authorization (RFC 9728).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProtectedResourceMetadata {
    /// The resource identifier; must match the MCP server.
    pub resource: String,
    /// Authorization servers (issuer identifiers), in preference order.
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    /// Scopes for basic use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes_supported: Option<Vec<String>>,
    /// RFC 9728: the resource accepts only DPoP-bound access tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_bound_access_tokens_required: Option<bool>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// An authorization server's metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthServerMetadata {
    /// The issuer identifier; must equal the one the document was looked up for.
    pub issuer: String,
    /// Where the user authorizes.
    pub authorization_endpoint: String,
    /// Where codes and refresh tokens are exchanged.
    pub token_endpoint: String,
    /// Dynamic Client Registration endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_endpoint: Option<String>,
    /// Supported scopes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes_supported: Option<Vec<String>>,
    /// PKCE methods; S256 is required by this client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// Client authentication methods at the token endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// RFC 9207: the server puts `iss` in authorization responses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// The server accepts Client ID Metadata Document URLs as client ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id_metadata_document_supported: Option<bool>,
    /// RFC 9449: the DPoP proof algorithms the server accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

impl AuthServerMetadata {
    /// True when DPoP proofs signed with ES256 are accepted (RFC 9449).
    pub fn supports_dpop_es256(&self) -> bool {
        self.dpop_signing_alg_values_supported
            .as_ref()
            .is_some_and(|a| a.iter().any(|x| x == "ES256"))
    }

    /// True when S256 PKCE is advertised.
    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|x| x == "S256"))
    }

    /// Default endpoints for a 2025-03-26 server without metadata: `/authorize`, `/token`,
    /// `/register` at the server's origin.
    pub fn legacy_defaults(server: &Url) -> AuthServerMetadata {
        let origin = server.origin();
        AuthServerMetadata {
            issuer: origin.clone(),
            authorization_endpoint: format!("{origin}/authorize"),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            scopes_supported: None,
            code_challenge_methods_supported: Some(alloc::vec!["S256".into()]),
            token_endpoint_auth_methods_supported: None,
            authorization_response_iss_parameter_supported: None,
            client_id_metadata_document_supported: None,
            dpop_signing_alg_values_supported: None,
            extra: Extra::new(),
        }
    }
}

/// The canonical resource identifier of an MCP server URL (RFC 8707): no fragment, no query,
/// lower-case scheme and host (parsing normalises those), no trailing slash on an
/// empty path.
pub fn canonical_resource(server: &Url) -> String {
    let mut u = server.clone();
    u.strip_query_and_fragment();
    let s = u.to_string();
    if u.path() == "/" {
        s.trim_end_matches('/').to_string()
    } else {
        s
    }
}

/// True when a Protected Resource Metadata `resource` identifies this server: equal, or a
/// prefix of it on a path boundary (a resource may cover several endpoints).
pub fn resource_matches(resource: &str, server: &Url) -> bool {
    let Ok(r) = crate::weburl::parse(resource) else {
        return false;
    };
    let (r, s) = (canonical_resource(&r), canonical_resource(server));
    s == r || s.strip_prefix(&r).is_some_and(|rest| rest.starts_with('/'))
}

/// Where to look for Protected Resource Metadata, in order: the header's URL, then the
/// path-aware well-known URL, then the root one.
pub fn protected_resource_metadata_urls(server: &Url, from_header: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(h) = from_header {
        out.push(h.to_string());
    }
    let origin = server.origin();
    let path = server.path().trim_end_matches('/');
    if !path.is_empty() {
        out.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    out.push(format!("{origin}/.well-known/oauth-protected-resource"));
    out.dedup();
    out
}

/// Where to look for an authorization server's metadata, in the spec's order.
pub fn auth_server_metadata_urls(issuer: &Url) -> Vec<String> {
    let origin = issuer.origin();
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        alloc::vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration")
        ]
    } else {
        alloc::vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap_or_else(|_| {
            Url::parse("https://invalid.test").unwrap_or_else(|_| unreachable!())
        })
    }

    #[test]
    fn prm_urls_in_order() {
        let s = u("https://example.com/public/mcp");
        assert_eq!(
            protected_resource_metadata_urls(&s, Some("https://example.com/prm")),
            [
                "https://example.com/prm",
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            protected_resource_metadata_urls(&u("https://example.com/"), None),
            ["https://example.com/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn as_metadata_urls_with_and_without_path() {
        assert_eq!(
            auth_server_metadata_urls(&u("https://auth.example.com/tenant1")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            auth_server_metadata_urls(&u("https://auth.example.com")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn canonical_resources_and_matching() {
        assert_eq!(
            canonical_resource(&u("HTTPS://MCP.Example.com/mcp?x=1#f")),
            "https://mcp.example.com/mcp"
        );
        assert_eq!(
            canonical_resource(&u("https://mcp.example.com/")),
            "https://mcp.example.com"
        );
        let server = u("https://mcp.example.com/server/mcp");
        assert!(resource_matches(
            "https://mcp.example.com/server/mcp",
            &server
        ));
        assert!(resource_matches("https://mcp.example.com", &server));
        assert!(resource_matches("https://mcp.example.com/server", &server));
        assert!(!resource_matches("https://mcp.example.com/serv", &server));
        assert!(!resource_matches(
            "https://evil.example.com/server/mcp",
            &server
        ));
        assert!(!resource_matches("not a url", &server));
    }
}
