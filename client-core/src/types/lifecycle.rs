//! Handshake types: legacy `initialize`, modern `server/discover`.

use super::{ClientCapabilities, Extra, Implementation, ResultMeta, ServerCapabilities};
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Parameters of the legacy `initialize` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    /// The newest version the client speaks.
    pub protocol_version: String,
    /// Client capabilities.
    pub capabilities: ClientCapabilities,
    /// Client identity.
    pub client_info: Implementation,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Result of the legacy `initialize` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    /// The version the server chose.
    pub protocol_version: String,
    /// Server capabilities.
    #[serde(default)]
    pub capabilities: ServerCapabilities,
    /// Server identity.
    #[serde(default)]
    pub server_info: Implementation,
    /// Guidance on using the server (untrusted text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Result of the modern `server/discover` request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult {
    /// Versions the server supports.
    pub supported_versions: Vec<String>,
    /// Server capabilities.
    #[serde(default)]
    pub capabilities: ServerCapabilities,
    /// Guidance on using the server (untrusted text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Common result fields (server info is in `_meta`).
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

impl DiscoverResult {
    /// The 2026-07-28-era version to speak with this server: the first of ours
    /// ([`super::MODERN_VERSIONS`]) that it supports; `None` if it supports none of them.
    pub fn modern_version(&self) -> Option<&'static str> {
        super::MODERN_VERSIONS
            .iter()
            .copied()
            .find(|v| self.supported_versions.iter().any(|s| s == v))
    }

    /// The server's self-reported identity from `_meta`.
    pub fn server_info(&self) -> Option<Implementation> {
        let v = self
            .common
            .meta
            .as_ref()?
            .get(super::meta_keys::SERVER_INFO)?;
        Deserialize::deserialize(v).ok()
    }
}
