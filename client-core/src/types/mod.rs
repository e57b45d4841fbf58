//! MCP data types for 2026-07-28 and 2025-11-25, plus the fields clients still meet from
//! 2025-06-18, 2025-03-26 and 2024-11-05.
//!
//! Every struct keeps fields it does not know in `extra`, so decoding and re-encoding a
//! message never loses data. JSON Schemas (`inputSchema`, `outputSchema`, `requestedSchema`)
//! are kept as verbatim [`Value`]s: never rewritten, never dereferenced.
//!
//! Inside this workspace JSON text is only ever parsed into a [`Value`], and typed values are
//! read from a borrowed one (`T::deserialize(&value)`), never from text or an owned `Value`:
//! each way in would put a second copy of every type's decoding code into the wasm binary
//! (measured: one way in keeps the app 45 KB smaller).

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod capabilities;
mod content;
mod lifecycle;
mod notifications;
mod prompts;
mod request_meta;
mod resources;
mod server_requests;
mod tasks;
mod tools;

pub use capabilities::*;
pub use content::*;
pub use lifecycle::*;
pub use notifications::*;
pub use prompts::*;
pub use request_meta::*;
pub use resources::*;
pub use server_requests::*;
pub use tasks::*;
pub use tools::*;

/// Decodes JSON text as a `T` the one way this workspace does (see the module docs): parsed
/// into a [`Value`], then read from it by reference.
pub fn from_json<T: serde::de::DeserializeOwned>(text: &[u8]) -> Result<T, serde_json::Error> {
    T::deserialize(&serde_json::from_slice::<Value>(text)?)
}

/// Fields this crate does not model, kept so that re-encoding loses nothing.
pub type Extra = Map<String, Value>;

/// The latest protocol revision (stateless, per-request `_meta`).
pub const MODERN_VERSION: &str = "2026-07-28";
/// Protocol revisions with per-request metadata that this client speaks, newest first.
pub const MODERN_VERSIONS: &[&str] = &[MODERN_VERSION];
/// `initialize`-based revisions this client speaks, newest first.
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// `_meta` keys defined by the 2026-07-28 revision.
pub mod meta_keys {
    /// Protocol version of a request.
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// Client name and version.
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// Client capabilities relevant to a request.
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// Minimum log level for a request.
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// Correlates a notification with its subscription.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
    /// Server name and version on results.
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// Progress token of a request.
    pub const PROGRESS_TOKEN: &str = "progressToken";
}

/// Which era a protocol version belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Era {
    /// 2026-07-28 and later: stateless, `server/discover`, per-request `_meta`.
    Modern,
    /// 2025-11-25 and earlier: `initialize` handshake and sessions.
    Legacy,
}

impl Era {
    /// The era of a protocol version string (dates compare lexically).
    pub fn of_version(version: &str) -> Era {
        if version >= MODERN_VERSION {
            Era::Modern
        } else {
            Era::Legacy
        }
    }
}

/// Name and version of an MCP implementation (`clientInfo` / `serverInfo`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    #[serde(default)]
    pub version: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Website.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// An icon a server offers for display (URL or `data:` URI; untrusted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// `https:` or `data:` URI.
    pub src: String,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `48x48`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// `light` or `dark`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Who a message is from or for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The assistant (model).
    Assistant,
}

/// Hints for how a client uses or displays an object.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Intended audience.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<serde_json::Number>,
    /// ISO 8601 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Severity of a log message (RFC 5424 levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Debug.
    Debug,
    /// Info.
    Info,
    /// Notice.
    Notice,
    /// Warning.
    Warning,
    /// Error.
    Error,
    /// Critical.
    Critical,
    /// Alert.
    Alert,
    /// Emergency.
    Emergency,
}

/// A progress token: string or integer.
pub type ProgressToken = crate::jsonrpc::RequestId;

/// Result parameters common to all results: `resultType`, `_meta` and caching hints.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultMeta {
    /// `complete` or `input_required` (2026-07-28); absent in older revisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<String>,
    /// How long the result may be cached, in milliseconds (2026-07-28). A value that is not
    /// a non-negative integer reads as none (immediately stale).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hint"
    )]
    pub ttl_ms: Option<u64>,
    /// `public` or `private` cache scope (2026-07-28). A value that is not a string reads as
    /// none (private).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "hint"
    )]
    pub cache_scope: Option<String>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// Reads a caching hint leniently: a malformed hint is no hint, and never makes the whole
/// result unreadable (a server's `server/discover` answer with a fractional `ttlMs` is still a
/// modern server's answer).
fn hint<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    Ok(T::deserialize(Value::deserialize(d)?).ok())
}

/// A result that carries nothing but the common fields (e.g. `ping`, `logging/setLevel`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EmptyResult {
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_and_content_types_survive_a_round_trip() -> Result<(), serde_json::Error> {
        let tool = json!({"name": "t", "inputSchema": {"type": "object", "$defs": {"x": {}}, "x-custom": 1},
                          "futureField": [1, 2], "annotations": {"readOnlyHint": true, "newHint": "y"}});
        let t: Tool = serde_json::from_value(tool.clone())?;
        assert_eq!(
            t.annotations.as_ref().and_then(|a| a.read_only_hint),
            Some(true)
        );
        assert_eq!(serde_json::to_value(&t)?, tool);
        // A tool listed without a schema takes no arguments but an object.
        let bare: Tool = serde_json::from_value(json!({"name": "bare"}))?;
        assert_eq!(bare.input_schema, json!({"type": "object"}));
        let block = json!({"type": "hologram", "data": "…"});
        let c: ContentBlock = serde_json::from_value(block.clone())?;
        assert!(matches!(c, ContentBlock::Unknown(_)));
        assert_eq!(serde_json::to_value(&c)?, block);
        Ok(())
    }

    #[test]
    fn content_blocks_decode_by_type_and_odd_ones_stay_verbatim() -> Result<(), serde_json::Error> {
        let blocks = json!([
            {"type": "text", "text": "hi", "x-new": 1},
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "text"},
            {"type": 7, "text": "t"},
            "just a string",
            {"type": "resource_link", "uri": "file:///a", "name": "a"}
        ]);
        let c: Vec<ContentBlock> = serde_json::from_value(blocks.clone())?;
        assert_eq!(c[0].as_text(), Some("hi"));
        assert!(
            matches!(&c[1], ContentBlock::Known(KnownContent::Image(m)) if m.mime_type == "image/png")
        );
        assert!(
            matches!(&c[2], ContentBlock::Unknown(_)),
            "a text block without text"
        );
        assert!(matches!(&c[3], ContentBlock::Unknown(_)));
        assert!(matches!(&c[4], ContentBlock::Unknown(_)));
        assert!(matches!(
            &c[5],
            ContentBlock::Known(KnownContent::ResourceLink(_))
        ));
        assert_eq!(
            serde_json::to_value(&c)?,
            blocks,
            "every block re-encodes as it came"
        );
        let one: OneOrMany<ContentBlock> =
            serde_json::from_value(json!({"type": "text", "text": "a"}))?;
        assert_eq!(one.as_slice().len(), 1);
        let many: OneOrMany<ContentBlock> = serde_json::from_value(
            json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]),
        )?;
        assert_eq!(many.as_slice()[1].as_text(), Some("b"));
        assert!(serde_json::from_value::<KnownContent>(json!({"type": "hologram"})).is_err());
        assert!(serde_json::from_value::<KnownContent>(json!({"text": "no type"})).is_err());
        Ok(())
    }

    #[test]
    fn tasks_decode() -> Result<(), serde_json::Error> {
        let v =
            json!({"task": {"taskId": "a", "status": "working", "pollInterval": 500, "ttl": null}});
        let r: CreateTaskResult = serde_json::from_value(v.clone())?;
        assert!(!r.task.is_terminal());
        assert_eq!(serde_json::to_value(&r)?, v);
        Ok(())
    }

    #[test]
    fn eras_of_versions() {
        assert_eq!(Era::of_version("2026-07-28"), Era::Modern);
        assert_eq!(Era::of_version("2025-11-25"), Era::Legacy);
        assert_eq!(Era::of_version("2024-11-05"), Era::Legacy);
    }
}
