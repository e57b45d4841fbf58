//! What a server asks of the client: sampling, elicitation, roots (and ping).
//!
//! In the legacy era these arrive as JSON-RPC requests on a stream; in the modern era as
//! `inputRequests` of an `InputRequiredResult` (MRTR). Both decode to [`ServerRequest`].

use super::{ContentBlock, Extra, OneOrMany, ResultMeta, Role, SamplingMessage};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Parameters of `sampling/createMessage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageParams {
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// Model preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<Value>,
    /// System prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Context inclusion request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<String>,
    /// Temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<serde_json::Number>,
    /// Token limit.
    pub max_tokens: u64,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Tools the model may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Value>>,
    /// Tool choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
    /// Unknown fields (`_meta`, `task`, ...).
    #[serde(flatten)]
    pub extra: Extra,
}

/// Result of `sampling/createMessage`, produced by the application.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Role of the reply (assistant).
    pub role: Role,
    /// The reply.
    pub content: OneOrMany<ContentBlock>,
    /// Model used.
    pub model: String,
    /// Why generation stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Parameters of `elicitation/create` (form or URL mode).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitParams {
    /// `form` (default when absent) or `url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// What to tell the user (untrusted text).
    pub message: String,
    /// Form mode: a restricted JSON Schema of the requested object, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_schema: Option<Value>,
    /// URL mode: the URL the user is asked to visit (never prefetch it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// URL mode: id correlating a later completion notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ElicitParams {
    /// True for URL mode.
    pub fn is_url_mode(&self) -> bool {
        self.mode.as_deref() == Some("url")
    }
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// `accept`, `decline` or `cancel`.
    pub action: String,
    /// The submitted values (form mode, accept only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A root directory or file the client exposes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Result of `roots/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListRootsResult {
    /// The roots.
    pub roots: Vec<Root>,
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A request from the server that the application answers.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerRequest {
    /// `sampling/createMessage`: generate a model reply (with the user's approval).
    Sampling(CreateMessageParams),
    /// `elicitation/create`: ask the user for input.
    Elicitation(ElicitParams),
    /// `roots/list`: list the client's roots.
    ListRoots,
    /// Any other method (answered with "method not found" unless the application knows it).
    Other {
        /// The method name.
        method: String,
        /// Its parameters.
        params: Option<Value>,
    },
}

impl ServerRequest {
    /// Decodes a server request from its method and parameters.
    pub fn decode(method: &str, params: Option<Value>) -> Result<ServerRequest, serde_json::Error> {
        Ok(match method {
            "sampling/createMessage" => {
                ServerRequest::Sampling(serde_json::from_value(params.unwrap_or(Value::Null))?)
            }
            "elicitation/create" => {
                ServerRequest::Elicitation(serde_json::from_value(params.unwrap_or(Value::Null))?)
            }
            "roots/list" => ServerRequest::ListRoots,
            other => ServerRequest::Other {
                method: other.into(),
                params,
            },
        })
    }

    /// The method name.
    pub fn method(&self) -> &str {
        match self {
            ServerRequest::Sampling(_) => "sampling/createMessage",
            ServerRequest::Elicitation(_) => "elicitation/create",
            ServerRequest::ListRoots => "roots/list",
            ServerRequest::Other { method, .. } => method,
        }
    }
}

/// One entry of an `InputRequests` map (MRTR).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputRequest {
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// Its parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A result asking for more input before the request can complete (2026-07-28, MRTR).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// What the server needs, keyed by server-chosen ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<BTreeMap<String, InputRequest>>,
    /// Opaque state to echo back verbatim on the retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}
