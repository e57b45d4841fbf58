//! Streamable HTTP request metadata headers (2026-07-28): `Mcp-Method`, `Mcp-Name`, and
//! `Mcp-Param-{Name}` mirrored from tool parameters annotated with `x-mcp-header`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use base64::Engine;
use serde_json::Value;

/// The name of the `x-mcp-header` schema extension.
pub const X_MCP_HEADER: &str = "x-mcp-header";

const SENTINEL_PREFIX: &str = "=?base64?";
const SENTINEL_SUFFIX: &str = "?=";
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Encodes a value for an `Mcp-Name` or `Mcp-Param-*` header: as-is when it is plain visible
/// ASCII (with inner spaces or tabs), else as `=?base64?…?=` of its UTF-8 bytes.
pub fn encode_header_value(value: &str) -> String {
    let looks_encoded = value.starts_with(SENTINEL_PREFIX) && value.ends_with(SENTINEL_SUFFIX);
    let plain = value
        .bytes()
        .all(|b| (0x20..=0x7e).contains(&b) || b == b'\t')
        && !value.starts_with([' ', '\t'])
        && !value.ends_with([' ', '\t'])
        && !looks_encoded;
    if plain {
        value.to_string()
    } else {
        let b64 = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("{SENTINEL_PREFIX}{b64}{SENTINEL_SUFFIX}")
    }
}

/// Decodes a header value produced by [`encode_header_value`] (used by tests and servers).
pub fn decode_header_value(value: &str) -> Option<String> {
    match value
        .strip_prefix(SENTINEL_PREFIX)
        .and_then(|v| v.strip_suffix(SENTINEL_SUFFIX))
    {
        Some(b64) => {
            let bytes = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
            String::from_utf8(bytes).ok()
        }
        None => Some(value.to_string()),
    }
}

/// The `Mcp-Name` source value of a request: `params.name` for `tools/call` and
/// `prompts/get`, `params.uri` for `resources/read`, `params.taskId` for the Tasks
/// extension's `tasks/get`, `tasks/update` and `tasks/cancel` (so that a server's front can
/// route them to the instance holding the task).
pub fn mcp_name_source<'a>(method: &str, params: Option<&'a Value>) -> Option<&'a str> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
        _ => return None,
    };
    params?.get(key)?.as_str()
}

/// A tool parameter to mirror into a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The header name suffix: the header is `Mcp-Param-{name}`.
    pub name: String,
    /// The chain of `properties` keys from the schema root to the parameter.
    pub path: Vec<String>,
}

/// Why a tool's `x-mcp-header` annotations are invalid (the tool must then be excluded).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderSchemaError {
    /// The value is not a non-empty HTTP token.
    #[error("x-mcp-header value {0:?} is not a valid HTTP header name token")]
    InvalidName(String),
    /// Two annotations differ only by case.
    #[error("x-mcp-header value {0:?} is used more than once (case-insensitively)")]
    Duplicate(String),
    /// The annotated property is not a string, integer or boolean.
    #[error("x-mcp-header on {0:?} requires type string, integer or boolean")]
    NotPrimitive(String),
    /// The annotation is not reachable from the root through `properties` keys only.
    #[error("x-mcp-header at {0:?} is not statically reachable through `properties`")]
    NotStaticallyReachable(String),
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Finds and validates every `x-mcp-header` annotation of a tool's `inputSchema`.
pub fn param_headers(input_schema: &Value) -> Result<Vec<ParamHeader>, HeaderSchemaError> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(input_schema, &mut path, true, &mut out)?;
    for (i, a) in out.iter().enumerate() {
        if out[..i]
            .iter()
            .any(|b| b.name.eq_ignore_ascii_case(&a.name))
        {
            return Err(HeaderSchemaError::Duplicate(a.name.clone()));
        }
    }
    Ok(out)
}

fn walk(
    node: &Value,
    path: &mut Vec<String>,
    reachable: bool,
    out: &mut Vec<ParamHeader>,
) -> Result<(), HeaderSchemaError> {
    match node {
        Value::Object(obj) => {
            if let Some(h) = obj.get(X_MCP_HEADER) {
                let where_ = path.join(".");
                if !reachable || path.is_empty() {
                    return Err(HeaderSchemaError::NotStaticallyReachable(where_));
                }
                let name = h.as_str().unwrap_or("");
                if name.is_empty() || !name.bytes().all(is_tchar) {
                    return Err(HeaderSchemaError::InvalidName(h.to_string()));
                }
                match obj.get("type").and_then(Value::as_str) {
                    Some("string" | "integer" | "boolean") => {}
                    _ => return Err(HeaderSchemaError::NotPrimitive(where_)),
                }
                out.push(ParamHeader {
                    name: name.into(),
                    path: path.clone(),
                });
            }
            for (key, child) in obj {
                match key.as_str() {
                    // Data, not subschemas: an `x-mcp-header` key in there is not an annotation.
                    "const" | "enum" | "default" | "examples" | X_MCP_HEADER => {}
                    "properties" => {
                        if let Value::Object(props) = child {
                            for (name, sub) in props {
                                path.push(name.clone());
                                walk(sub, path, reachable, out)?;
                                path.pop();
                            }
                        }
                    }
                    _ => walk(child, path, false, out)?,
                }
            }
            Ok(())
        }
        Value::Array(items) => {
            for item in items {
                walk(item, path, false, out)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The `Mcp-Param-*` headers for a call: one per annotated parameter present (and not null)
/// in `arguments`, encoded per the spec.
pub fn param_header_values(
    headers: &[ParamHeader],
    arguments: Option<&Value>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for h in headers {
        let mut v = arguments;
        for key in &h.path {
            v = v.and_then(|x| x.get(key));
        }
        let text = match v {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => {
                if let Some(i) = n.as_i64().filter(|i| i.abs() <= MAX_SAFE_INTEGER) {
                    i.to_string()
                } else if let Some(f) = n
                    .as_f64()
                    .filter(|f| (*f as i64) as f64 == *f && (*f as i64).abs() <= MAX_SAFE_INTEGER)
                {
                    (f as i64).to_string()
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        out.push((format!("Mcp-Param-{}", h.name), encode_header_value(&text)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn encoding_examples_from_the_spec() {
        assert_eq!(encode_header_value("us-west1"), "us-west1");
        assert_eq!(
            encode_header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(
            encode_header_value("line1\nline2"),
            "=?base64?bGluZTEKbGluZTI=?="
        );
        assert_eq!(
            encode_header_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        // Only a value with both markers matches the sentinel pattern.
        assert_eq!(encode_header_value("=?base64?open"), "=?base64?open");
        assert_eq!(encode_header_value("closed?="), "closed?=");
        for s in ["Hello, 世界", " padded ", "a b", "=?base64?x?="] {
            assert_eq!(
                decode_header_value(&encode_header_value(s)).as_deref(),
                Some(s)
            );
        }
    }

    #[test]
    fn mcp_name_sources() {
        let p = json!({"name": "t", "uri": "file:///x"});
        assert_eq!(mcp_name_source("tools/call", Some(&p)), Some("t"));
        assert_eq!(mcp_name_source("prompts/get", Some(&p)), Some("t"));
        assert_eq!(
            mcp_name_source("resources/read", Some(&p)),
            Some("file:///x")
        );
        assert_eq!(mcp_name_source("tools/list", Some(&p)), None);
        let t = json!({"taskId": "786512e2"});
        for m in ["tasks/get", "tasks/update", "tasks/cancel"] {
            assert_eq!(mcp_name_source(m, Some(&t)), Some("786512e2"), "{m}");
        }
    }

    #[test]
    fn finds_nested_static_annotations_and_extracts_values() -> Result<(), HeaderSchemaError> {
        let schema = json!({"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "opts":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"},
                                                   "b":{"type":"boolean","x-mcp-header":"Flag"}}},
            "query":{"type":"string","default":{"x-mcp-header":"not-an-annotation"}}}});
        let hs = param_headers(&schema)?;
        assert_eq!(hs.len(), 3);
        let args = json!({"region":"us-west1","opts":{"n":42,"b":false},"query":"q"});
        let mut vals = param_header_values(&hs, Some(&args));
        vals.sort();
        assert_eq!(
            vals,
            [
                ("Mcp-Param-Flag".into(), "false".into()),
                ("Mcp-Param-N".into(), "42".into()),
                ("Mcp-Param-Region".into(), "us-west1".into()),
            ]
        );
        // Missing and null values omit the header.
        assert!(param_header_values(&hs, Some(&json!({"region": null}))).is_empty());
        Ok(())
    }

    #[test]
    fn integers_go_as_decimals_within_the_javascript_safe_range_only(
    ) -> Result<(), HeaderSchemaError> {
        let schema =
            json!({"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}});
        let hs = param_headers(&schema)?;
        let sent = |n: Value| {
            param_header_values(&hs, Some(&json!({ "n": n })))
                .pop()
                .map(|(_, v)| v)
        };
        assert_eq!(
            sent(json!(9_007_199_254_740_991_i64)).as_deref(),
            Some("9007199254740991")
        );
        assert_eq!(
            sent(json!(-9_007_199_254_740_991_i64)).as_deref(),
            Some("-9007199254740991")
        );
        assert_eq!(sent(json!(-7)).as_deref(), Some("-7"));
        // An integer written as a float goes as its decimal (servers compare numerically).
        assert_eq!(sent(json!(42.0)).as_deref(), Some("42"));
        // Outside the safe range, or not an integer: no header (the server refuses the
        // mismatch rather than reading a rounded value).
        assert_eq!(sent(json!(9_007_199_254_740_992_i64)), None);
        assert_eq!(sent(json!(-9_007_199_254_740_992_i64)), None);
        assert_eq!(sent(json!(9_007_199_254_740_992.0)), None);
        assert_eq!(sent(json!(1.5)), None);
        assert_eq!(sent(json!(1e300)), None);
        Ok(())
    }

    #[test]
    fn rejects_invalid_annotations() {
        let bad = [
            json!({"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}),
            json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}),
            json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}}),
            json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X\r\n"}}}),
            json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},
                                                 "b":{"type":"string","x-mcp-header":"a"}}}),
            json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}),
            json!({"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}),
            json!({"type":"string","x-mcp-header":"Root"}),
        ];
        for s in bad {
            assert!(param_headers(&s).is_err(), "accepted {s}");
        }
    }
}
