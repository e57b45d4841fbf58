//! What a server asks of the client: sampling, elicitation, roots (and ping).
//!
//! In the legacy era these arrive as JSON-RPC requests on a stream; in the modern era as
//! `inputRequests` of an `InputRequiredResult` (MRTR). Both decode to [`ServerRequest`].

use super::{ContentBlock, Extra, OneOrMany, ResultMeta, Role, SamplingMessage};
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

/// The URL elicitations a `URLElicitationRequiredError` (code `-32042`, 2025-11-25) asks
/// the user to complete before the request is made again: those of its
/// `data.elicitations` that are URL mode with an `elicitationId`, a `url` and a `message`
/// (the others are left out). `None` when `error` is not one, or names no such elicitation.
pub fn url_elicitations_required(error: &crate::jsonrpc::ErrorObject) -> Option<Vec<ElicitParams>> {
    if error.code != crate::jsonrpc::codes::URL_ELICITATION_REQUIRED {
        return None;
    }
    let listed = error.data.as_ref()?.get("elicitations")?.as_array()?;
    let valid: Vec<ElicitParams> = listed
        .iter()
        .filter_map(|e| ElicitParams::deserialize(e).ok())
        .filter(|e| e.is_url_mode() && e.url.is_some() && e.elicitation_id.is_some())
        .collect();
    (!valid.is_empty()).then_some(valid)
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
///
/// Sampling and elicitation parameters are checked for the fields the specification
/// requires and handed over as the server sent them: type them with
/// `serde_json::from_value::<CreateMessageParams>` / `<ElicitParams>` (an application that
/// passes them on as JSON, like the JavaScript API, never links those decoders).
#[derive(Debug, Clone, PartialEq)]
pub enum ServerRequest {
    /// `sampling/createMessage`: generate a model reply (with the user's approval); the
    /// parameters (a [`CreateMessageParams`]).
    Sampling(Value),
    /// `elicitation/create`: ask the user for input; the parameters (an [`ElicitParams`]).
    Elicitation(Value),
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

/// Why a server request's parameters were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{method} needs {needs}")]
pub struct InvalidServerRequest {
    /// The method.
    pub method: &'static str,
    /// What was missing or of the wrong type.
    pub needs: &'static str,
}

impl ServerRequest {
    /// Decodes a server request from its method and parameters, checking the fields the
    /// specification requires.
    pub fn decode(
        method: &str,
        params: Option<Value>,
    ) -> Result<ServerRequest, InvalidServerRequest> {
        let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
        let has = |k: &str, ok: fn(&Value) -> bool| get(k).is_some_and(ok);
        Ok(match method {
            "sampling/createMessage" => {
                let invalid = |needs| InvalidServerRequest {
                    method: "sampling/createMessage",
                    needs,
                };
                if !has("messages", Value::is_array) {
                    return Err(invalid("a messages array"));
                }
                if !has("maxTokens", Value::is_u64) {
                    return Err(invalid("a maxTokens count"));
                }
                ServerRequest::Sampling(params.unwrap_or_default())
            }
            "elicitation/create" => {
                let invalid = |needs| InvalidServerRequest {
                    method: "elicitation/create",
                    needs,
                };
                if !has("message", Value::is_string) {
                    return Err(invalid("a message string"));
                }
                match get("mode").map(Value::as_str) {
                    Some(Some("url")) => {
                        if !has("url", Value::is_string) || !has("elicitationId", Value::is_string)
                        {
                            return Err(invalid("a url and an elicitationId in url mode"));
                        }
                    }
                    None | Some(Some("form")) => {
                        if !has("requestedSchema", Value::is_object) {
                            return Err(invalid("a requestedSchema object in form mode"));
                        }
                    }
                    Some(_) => return Err(invalid("mode form or url")),
                }
                ServerRequest::Elicitation(params.unwrap_or_default())
            }
            "roots/list" => ServerRequest::ListRoots,
            other => ServerRequest::Other {
                method: other.into(),
                params,
            },
        })
    }

    /// Whether this is a sampling request that offers the model tools (`tools` or
    /// `toolChoice`). Only a client that declared `sampling.tools` may take one: the
    /// specification asks any other to answer it with an error.
    pub fn offers_tools(&self) -> bool {
        matches!(self, ServerRequest::Sampling(p) if p.get("tools").is_some() || p.get("toolChoice").is_some())
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
    pub input_requests: Option<litemap::LiteMap<String, InputRequest>>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use serde_json::json;

    #[test]
    fn a_url_elicitation_required_error_names_the_elicitations_to_complete() {
        use crate::jsonrpc::ErrorObject;
        // The specification's example, with entries that are not valid URL elicitations.
        let mut error = ErrorObject::new(-32042, "This request requires more information.");
        error.data = Some(json!({"elicitations": [
            {"mode": "url", "elicitationId": "550e8400", "url": "https://mcp.example.com/connect?elicitationId=550e8400",
             "message": "Authorization is required to access your Example Co files."},
            {"mode": "form", "message": "m", "requestedSchema": {"type": "object"}},
            {"mode": "url", "message": "no id", "url": "https://x"},
            "not an object"
        ]}));
        let required = url_elicitations_required(&error).expect("one valid elicitation");
        assert_eq!(required.len(), 1);
        assert_eq!(required[0].elicitation_id.as_deref(), Some("550e8400"));
        assert_eq!(
            required[0].message,
            "Authorization is required to access your Example Co files."
        );
        // Another code, no data, or no valid elicitation: not one.
        let mut other = error.clone();
        other.code = -32603;
        assert_eq!(url_elicitations_required(&other), None);
        assert_eq!(
            url_elicitations_required(&ErrorObject::new(-32042, "m")),
            None
        );
        // URL mode only: a form-mode entry with a url and an id is left out.
        let mut form_with_url = error.clone();
        form_with_url.data = Some(json!({"elicitations": [
            {"mode": "form", "elicitationId": "f", "url": "https://x", "message": "m"},
            {"elicitationId": "g", "url": "https://x", "message": "m"}
        ]}));
        assert_eq!(url_elicitations_required(&form_with_url), None);
        let mut none_valid = error.clone();
        none_valid.data = Some(json!({"elicitations": [{"mode": "form", "message": "m"}]}));
        assert_eq!(url_elicitations_required(&none_valid), None);
    }

    #[test]
    fn a_sampling_request_offers_tools_with_tools_or_a_tool_choice() {
        let sampling = |extra: Value| {
            let mut p = json!({"messages": [], "maxTokens": 10});
            if let (Some(p), Some(extra)) = (p.as_object_mut(), extra.as_object()) {
                p.extend(extra.clone());
            }
            ServerRequest::Sampling(p)
        };
        assert!(!sampling(json!({})).offers_tools());
        assert!(sampling(json!({"tools": []})).offers_tools());
        assert!(sampling(json!({"toolChoice": {"mode": "none"}})).offers_tools());
        let elicitation = ServerRequest::Elicitation(json!({"message": "m", "tools": []}));
        assert!(!elicitation.offers_tools());
        assert!(!ServerRequest::ListRoots.offers_tools());
    }

    #[test]
    fn server_requests_are_checked_for_the_required_fields() -> Result<(), serde_json::Error> {
        let ok = |m: &str, p: Value| ServerRequest::decode(m, Some(p));
        let sampling = json!({"messages": [], "maxTokens": 10, "x-new": 1});
        assert_eq!(
            ok("sampling/createMessage", sampling.clone()),
            Ok(ServerRequest::Sampling(sampling))
        );
        assert!(ok("sampling/createMessage", json!({"messages": []})).is_err());
        assert!(ok(
            "sampling/createMessage",
            json!({"messages": {}, "maxTokens": 1})
        )
        .is_err());
        assert!(ServerRequest::decode("sampling/createMessage", None).is_err());
        let form = json!({"message": "Who?", "requestedSchema": {"type": "object"}});
        assert!(matches!(
            ok("elicitation/create", form),
            Ok(ServerRequest::Elicitation(_))
        ));
        let url = json!({"mode": "url", "message": "m", "url": "https://x", "elicitationId": "e"});
        assert!(ok("elicitation/create", url).is_ok());
        // Each of the two is needed on its own.
        for only in [
            json!({"mode": "url", "message": "m", "url": "https://x"}),
            json!({"mode": "url", "message": "m", "elicitationId": "e"}),
        ] {
            assert!(ok("elicitation/create", only.clone()).is_err(), "{only}");
        }
        let e = ok("elicitation/create", json!({"mode": "url", "message": "m"}));
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("elicitation/create needs a url and an elicitationId in url mode".into())
        );
        assert!(ok("elicitation/create", json!({"message": "m"})).is_err());
        assert!(ok(
            "elicitation/create",
            json!({"message": 1, "requestedSchema": {}})
        )
        .is_err());
        assert!(ok(
            "elicitation/create",
            json!({"mode": "telepathy", "message": "m"})
        )
        .is_err());
        assert_eq!(
            ServerRequest::decode("roots/list", None),
            Ok(ServerRequest::ListRoots)
        );
        // Each request names its method.
        let names = [
            (
                "sampling/createMessage",
                json!({"messages": [], "maxTokens": 1}),
            ),
            (
                "elicitation/create",
                json!({"message": "m", "requestedSchema": {}}),
            ),
            ("roots/list", json!({})),
            ("x/new", json!({})),
        ];
        for (method, params) in names {
            assert_eq!(
                ok(method, params).map(|r| r.method().to_string()),
                Ok(method.into())
            );
        }
        // What passes the check decodes to the typed parameters.
        let p: CreateMessageParams = serde_json::from_value(
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}),
        )?;
        assert_eq!(p.max_tokens, 5);
        Ok(())
    }
}
