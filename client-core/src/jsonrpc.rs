//! JSON-RPC 2.0 messages: decoding from untrusted bytes (with a size limit) and encoding.
//!
//! Every decode path returns a [`DecodeError`]; no input can make this module panic.

use crate::bidi::{isolated_if_steering, Isolated};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Standard JSON-RPC and MCP error codes.
pub mod codes {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON sent is not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters (also "resource not found" from 2026-07-28 on).
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// Resource not found (2025-11-25 and earlier).
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// URL elicitation required (2025-11-25 only).
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
    /// HTTP headers do not match the body (2026-07-28).
    pub const HEADER_MISMATCH: i64 = -32020;
    /// The request needs a client capability that was not declared (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// The server does not implement the requested protocol version (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// Request cancelled (used by some servers; not reserved by MCP).
    pub const REQUEST_CANCELLED: i64 = -32800;

    /// True for the error codes that only a modern (2026-07-28+) server sends; these tell a
    /// dual-era client not to fall back to `initialize`.
    pub fn is_modern_protocol_error(code: i64) -> bool {
        matches!(
            code,
            HEADER_MISMATCH | MISSING_REQUIRED_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION
        )
    }
}

/// A JSON-RPC request id: a string or an integer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "\"{}\"", isolated_if_steering(s)),
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        RequestId::Number(n)
    }
}

/// The `error` member of an error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// The error code (see [`codes`]).
    pub code: i64,
    /// A short human-readable description, from the peer (untrusted text).
    pub message: String,
    /// Extra information from the peer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error object with no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }
}

impl fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (code {})",
            isolated_if_steering(&self.message),
            self.code
        )
    }
}

/// A request: has an id and expects a response.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Correlates the response.
    pub id: RequestId,
    /// Method name, e.g. `tools/call`.
    pub method: String,
    /// Parameters, usually an object.
    pub params: Option<Value>,
}

/// A notification: no id, no response.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// Method name, e.g. `notifications/progress`.
    pub method: String,
    /// Parameters, usually an object.
    pub params: Option<Value>,
}

/// A response: a result or an error. Errors may carry no id (e.g. parse errors).
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The id of the request this answers; `None` for an error not tied to a request.
    pub id: Option<RequestId>,
    /// The result value or the error object.
    pub outcome: Result<Value, ErrorObject>,
}

/// Any JSON-RPC 2.0 message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request expecting a response.
    Request(Request),
    /// A one-way notification.
    Notification(Notification),
    /// A result or error response.
    Response(Response),
}

/// Why bytes could not be decoded as JSON-RPC 2.0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The message is bigger than the configured limit.
    #[error("message of {size} bytes exceeds the limit of {limit} bytes")]
    TooLarge {
        /// Bytes received.
        size: usize,
        /// The limit in force.
        limit: usize,
    },
    /// The bytes are not valid JSON.
    #[error("invalid JSON: {}", Isolated(.0))]
    InvalidJson(String),
    /// Valid JSON, but not a JSON-RPC 2.0 message.
    #[error("not a JSON-RPC 2.0 message: {0}")]
    InvalidMessage(&'static str),
}

impl Message {
    /// Builds a request.
    pub fn request(id: RequestId, method: impl Into<String>, params: Option<Value>) -> Self {
        Message::Request(Request {
            id,
            method: method.into(),
            params,
        })
    }

    /// Builds a notification.
    pub fn notification(method: impl Into<String>, params: Option<Value>) -> Self {
        Message::Notification(Notification {
            method: method.into(),
            params,
        })
    }

    /// Builds a success response.
    pub fn result(id: RequestId, result: Value) -> Self {
        Message::Response(Response {
            id: Some(id),
            outcome: Ok(result),
        })
    }

    /// Builds an error response.
    pub fn error(id: Option<RequestId>, error: ErrorObject) -> Self {
        Message::Response(Response {
            id,
            outcome: Err(error),
        })
    }

    /// Decodes one message (not a batch) from bytes, refusing more than `limit` bytes.
    pub fn decode(bytes: &[u8], limit: usize) -> Result<Message, DecodeError> {
        let value = parse_json(bytes, limit)?;
        Message::from_value(value)
    }

    /// Decodes a message or a batch (array) of messages, as 2025-03-26 servers may send.
    pub fn decode_batch(bytes: &[u8], limit: usize) -> Result<Vec<Message>, DecodeError> {
        match parse_json(bytes, limit)? {
            Value::Array(items) => {
                if items.is_empty() {
                    return Err(DecodeError::InvalidMessage("empty batch"));
                }
                items.into_iter().map(Message::from_value).collect()
            }
            other => Ok(alloc::vec![Message::from_value(other)?]),
        }
    }

    /// Classifies an already parsed JSON value.
    pub fn from_value(value: Value) -> Result<Message, DecodeError> {
        let Value::Object(mut obj) = value else {
            return Err(DecodeError::InvalidMessage("not a JSON object"));
        };
        match obj.get("jsonrpc") {
            Some(Value::String(v)) if v == "2.0" => {}
            _ => return Err(DecodeError::InvalidMessage("missing \"jsonrpc\": \"2.0\"")),
        }
        let id = match obj.remove("id") {
            None | Some(Value::Null) => None,
            Some(v) => Some(parse_id(v)?),
        };
        let params = match obj.remove("params") {
            None => None,
            Some(p @ (Value::Object(_) | Value::Array(_))) => Some(p),
            Some(_) => {
                return Err(DecodeError::InvalidMessage(
                    "params must be an object or array",
                ))
            }
        };
        if let Some(method) = obj.remove("method") {
            let Value::String(method) = method else {
                return Err(DecodeError::InvalidMessage("method must be a string"));
            };
            return Ok(match id {
                Some(id) => Message::Request(Request { id, method, params }),
                None => Message::Notification(Notification { method, params }),
            });
        }
        let result = obj.remove("result");
        let error = obj.remove("error");
        match (result, error) {
            (Some(result), None) => {
                let id = id.ok_or(DecodeError::InvalidMessage("result without an id"))?;
                Ok(Message::Response(Response {
                    id: Some(id),
                    outcome: Ok(result),
                }))
            }
            (None, Some(error)) => {
                let error = ErrorObject::deserialize(&error)
                    .map_err(|_| DecodeError::InvalidMessage("malformed error object"))?;
                Ok(Message::Response(Response {
                    id,
                    outcome: Err(error),
                }))
            }
            (Some(_), Some(_)) => Err(DecodeError::InvalidMessage("both result and error")),
            (None, None) => Err(DecodeError::InvalidMessage(
                "neither method, result nor error",
            )),
        }
    }

    /// The JSON value of this message, with `"jsonrpc": "2.0"`.
    pub fn to_value(&self) -> Value {
        let mut obj = Map::new();
        obj.insert("jsonrpc".into(), Value::String("2.0".into()));
        match self {
            Message::Request(r) => {
                obj.insert("id".into(), id_value(&r.id));
                obj.insert("method".into(), Value::String(r.method.clone()));
                if let Some(p) = &r.params {
                    obj.insert("params".into(), p.clone());
                }
            }
            Message::Notification(n) => {
                obj.insert("method".into(), Value::String(n.method.clone()));
                if let Some(p) = &n.params {
                    obj.insert("params".into(), p.clone());
                }
            }
            Message::Response(r) => {
                obj.insert("id".into(), r.id.as_ref().map_or(Value::Null, id_value));
                match &r.outcome {
                    Ok(v) => {
                        obj.insert("result".into(), v.clone());
                    }
                    Err(e) => {
                        obj.insert(
                            "error".into(),
                            serde_json::to_value(e).unwrap_or(Value::Null),
                        );
                    }
                }
            }
        }
        Value::Object(obj)
    }

    /// Encodes the message as compact JSON bytes.
    pub fn encode(&self) -> Vec<u8> {
        // Serializing a `Value` to a Vec cannot fail: every key is a string.
        serde_json::to_vec(&self.to_value()).unwrap_or_default()
    }

    /// The method name of a request or notification.
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request(r) => Some(&r.method),
            Message::Notification(n) => Some(&n.method),
            Message::Response(_) => None,
        }
    }
}

fn id_value(id: &RequestId) -> Value {
    match id {
        RequestId::Number(n) => Value::from(*n),
        RequestId::String(s) => Value::String(s.clone()),
    }
}

fn parse_id(v: Value) -> Result<RequestId, DecodeError> {
    match v {
        Value::String(s) => Ok(RequestId::String(s)),
        Value::Number(n) => n
            .as_i64()
            .map(RequestId::Number)
            .ok_or(DecodeError::InvalidMessage(
                "id must be an integer or a string",
            )),
        _ => Err(DecodeError::InvalidMessage(
            "id must be an integer or a string",
        )),
    }
}

/// Parses JSON from untrusted bytes, refusing more than `limit` bytes.
pub fn parse_json(bytes: &[u8], limit: usize) -> Result<Value, DecodeError> {
    if bytes.len() > limit {
        return Err(DecodeError::TooLarge {
            size: bytes.len(),
            limit,
        });
    }
    serde_json::from_slice(bytes).map_err(|e| DecodeError::InvalidJson(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dec(s: &str) -> Result<Message, DecodeError> {
        Message::decode(s.as_bytes(), 1 << 20)
    }

    #[test]
    fn decodes_request_notification_result_error() -> Result<(), DecodeError> {
        let m = dec(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#)?;
        assert_eq!(m, Message::request(RequestId::Number(7), "ping", None));
        let m = dec(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        assert_eq!(m.method(), Some("notifications/initialized"));
        let m = dec(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#)?;
        assert_eq!(m, Message::result(RequestId::String("a".into()), json!({})));
        let m = dec(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#)?;
        assert_eq!(
            m,
            Message::error(None, ErrorObject::new(codes::PARSE_ERROR, "x"))
        );
        let m = dec(r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x","data":[1]}}"#)?;
        assert!(matches!(
            m,
            Message::Response(Response {
                id: None,
                outcome: Err(_)
            })
        ));
        Ok(())
    }

    #[test]
    fn rejects_malformed_messages() {
        for bad in [
            "",
            "[",
            "null",
            "3",
            r#"{"id":1,"method":"x"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":3}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#,
            r#"{"jsonrpc":"2.0","result":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":5}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"x"}"#,
        ] {
            assert!(dec(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn size_limit_is_enforced_before_parsing() {
        let big = alloc::format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":{{"s":"{}"}}}}"#,
            "a".repeat(100)
        );
        assert_eq!(
            Message::decode(big.as_bytes(), 50),
            Err(DecodeError::TooLarge {
                size: big.len(),
                limit: 50
            })
        );
        // A message of exactly the limit is read.
        assert!(Message::decode(big.as_bytes(), big.len()).is_ok());
        assert!(Message::decode(big.as_bytes(), big.len() - 1).is_err());
    }

    #[test]
    fn an_error_reads_as_its_message_and_code() {
        let e = ErrorObject::new(codes::METHOD_NOT_FOUND, "no such method");
        assert_eq!(e.to_string(), "no such method (code -32601)");
    }

    #[test]
    fn batches_decode_and_empty_batch_is_rejected() -> Result<(), DecodeError> {
        let v = Message::decode_batch(
            br#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":1,"result":{}}]"#,
            1000,
        )?;
        assert_eq!(v.len(), 2);
        assert!(Message::decode_batch(b"[]", 10).is_err());
        Ok(())
    }

    #[test]
    fn encode_round_trips() -> Result<(), DecodeError> {
        let msgs = [
            Message::request(
                RequestId::String("x".into()),
                "tools/list",
                Some(json!({"cursor":"c"})),
            ),
            Message::notification("notifications/cancelled", Some(json!({"requestId":1}))),
            Message::result(RequestId::Number(-4), json!({"a":[1,2]})),
            Message::error(
                None,
                ErrorObject {
                    code: -32022,
                    message: "v".into(),
                    data: Some(json!({"supported":[]})),
                },
            ),
        ];
        for m in msgs {
            assert_eq!(Message::decode(&m.encode(), 1000)?, m);
        }
        Ok(())
    }

    #[test]
    fn modern_error_codes() {
        assert!(codes::is_modern_protocol_error(-32022));
        assert!(codes::is_modern_protocol_error(-32020));
        assert!(!codes::is_modern_protocol_error(-32000));
        assert!(!codes::is_modern_protocol_error(-32601));
    }
}
