//! Content blocks (text, image, audio, embedded resource, resource link, tool use/result).

use super::{Annotations, Extra, Role};
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A piece of content in a tool result, prompt message or sampling message.
///
/// A block whose `type` this crate does not know (or a known type with fields of the wrong
/// shape) is kept verbatim as [`ContentBlock::Unknown`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // the unknown variant is rare; boxing the common one costs more
pub enum ContentBlock {
    /// A known content type.
    Known(KnownContent),
    /// Any other JSON value (a newer content type).
    Unknown(Value),
}

/// The content types of the specification.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum KnownContent {
    /// Plain text.
    Text(TextContent),
    /// A base64 image.
    Image(MediaContent),
    /// A base64 audio clip.
    Audio(MediaContent),
    /// A resource embedded in the content.
    Resource(EmbeddedResource),
    /// A link to a resource the client may read.
    ResourceLink(super::Resource),
    /// A tool use request (sampling with tools).
    ToolUse(ToolUseContent),
    /// A tool result (sampling with tools).
    ToolResult(ToolResultContent),
}

/// Text content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text (untrusted).
    pub text: String,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Image or audio content: base64 data and a MIME type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaContent {
    /// Base64 data.
    pub data: String,
    /// MIME type, e.g. `image/png` (untrusted: check before display).
    pub mime_type: String,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A resource's contents embedded in a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: super::ResourceContents,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A model's request to use a tool (sampling with tools).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolUseContent {
    /// Tool use id.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Tool input.
    pub input: Value,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// The result of a tool use (sampling with tools).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultContent {
    /// The tool use this answers.
    pub tool_use_id: String,
    /// Result content.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// Structured result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A message in a sampling conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// One block or an array of blocks.
    pub content: OneOrMany<ContentBlock>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A field that may hold one value or an array of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    /// A single value.
    One(T),
    /// An array.
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    /// The values as a slice.
    pub fn as_slice(&self) -> &[T] {
        match self {
            OneOrMany::One(t) => core::slice::from_ref(t),
            OneOrMany::Many(v) => v,
        }
    }
}

// Decoding by hand: serde's derived `untagged` and internally tagged enums buffer every
// block into an intermediate tree and try each shape in turn, one of the largest pieces of
// code in the package. Here the block is read once as JSON and its `type` picks the shape.

impl KnownContent {
    /// Decodes the fields of a block of type `kind` (`body` without its `type`).
    fn decode(kind: &str, body: &Value) -> Result<KnownContent, serde_json::Error> {
        use serde::de::Error;
        Ok(match kind {
            "text" => KnownContent::Text(TextContent::deserialize(body)?),
            "image" => KnownContent::Image(MediaContent::deserialize(body)?),
            "audio" => KnownContent::Audio(MediaContent::deserialize(body)?),
            "resource" => KnownContent::Resource(EmbeddedResource::deserialize(body)?),
            "resource_link" => KnownContent::ResourceLink(super::Resource::deserialize(body)?),
            "tool_use" => KnownContent::ToolUse(ToolUseContent::deserialize(body)?),
            "tool_result" => KnownContent::ToolResult(ToolResultContent::deserialize(body)?),
            other => {
                return Err(serde_json::Error::custom(alloc::format!(
                    "unknown content type {other:?}"
                )))
            }
        })
    }
}

impl<'de> Deserialize<'de> for KnownContent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let Value::Object(mut body) = Value::deserialize(d)? else {
            return Err(D::Error::custom("a content block must be an object"));
        };
        let Some(Value::String(kind)) = body.remove("type") else {
            return Err(D::Error::custom("a content block needs a type"));
        };
        KnownContent::decode(&kind, &Value::Object(body)).map_err(D::Error::custom)
    }
}

impl From<Value> for ContentBlock {
    /// A known block if `v` is one, else `v` kept verbatim.
    fn from(v: Value) -> ContentBlock {
        let Value::Object(mut body) = v else {
            return ContentBlock::Unknown(v);
        };
        let kind = match body.remove("type") {
            Some(Value::String(kind)) => kind,
            other => {
                if let Some(t) = other {
                    body.insert("type".into(), t);
                }
                return ContentBlock::Unknown(Value::Object(body));
            }
        };
        let mut body = Value::Object(body);
        match KnownContent::decode(&kind, &body) {
            Ok(known) => ContentBlock::Known(known),
            Err(_) => {
                if let Value::Object(fields) = &mut body {
                    fields.insert("type".into(), Value::String(kind));
                }
                ContentBlock::Unknown(body)
            }
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(ContentBlock::from)
    }
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match Value::deserialize(d)? {
            Value::Array(items) => items
                .into_iter()
                .map(|item| T::deserialize(&item))
                .collect::<Result<Vec<T>, _>>()
                .map(OneOrMany::Many),
            one => T::deserialize(&one).map(OneOrMany::One),
        }
        .map_err(D::Error::custom)
    }
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Known(KnownContent::Text(TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
            extra: Extra::new(),
        }))
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Known(KnownContent::Text(t)) => Some(&t.text),
            _ => None,
        }
    }
}
