//! A JSON object typed by the person (a tool's arguments as raw JSON, a call's `_meta`, a
//! request's params, an elicitation's content or a sampling result typed as JSON): parsed, or
//! why not, in words that say where the text breaks. One parse for all of these boxes, so
//! that each says the same thing about the same mistake.

use serde_json::{Map, Value};
use std::fmt;

/// Why a typed text is not a JSON object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAnObject {
    /// Nothing but whitespace was typed.
    Empty,
    /// Not JSON: serde_json's reason, with the line and column where the text breaks.
    NotJson(String),
    /// JSON, but not an object: what it is instead ("an array", "a string", …).
    OtherJson(&'static str),
}

impl fmt::Display for NotAnObject {
    /// Reads after "this is", e.g. "Enter the arguments as a JSON object: this is empty."
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAnObject::Empty => f.write_str("empty"),
            NotAnObject::NotJson(why) => write!(f, "not valid JSON ({why})"),
            NotAnObject::OtherJson(what) => write!(f, "{what}, not a JSON object ({{…}})"),
        }
    }
}

/// `typed` as a JSON object, or why it is not one.
pub fn typed_object(typed: &str) -> Result<Map<String, Value>, NotAnObject> {
    if typed.trim().is_empty() {
        return Err(NotAnObject::Empty);
    }
    match serde_json::from_str::<Value>(typed) {
        Ok(Value::Object(entries)) => Ok(entries),
        Ok(other) => Err(NotAnObject::OtherJson(kind_of(&other))),
        Err(e) => Err(NotAnObject::NotJson(e.to_string())),
    }
}

/// What a JSON value is, in words.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_is_taken_as_typed() {
        let entries = typed_object(r#" {"a": [1, {"b": null}], "c": "d"} "#).expect("an object");
        assert_eq!(
            Value::Object(entries),
            json!({"a": [1, {"b": null}], "c": "d"})
        );
        assert_eq!(typed_object("{}"), Ok(Map::new()));
    }

    #[test]
    fn anything_else_says_what_it_is() {
        for (typed, what) in [
            ("", "empty"),
            (" \n\t", "empty"),
            ("[1]", "an array, not a JSON object ({…})"),
            ("\"text\"", "a string, not a JSON object ({…})"),
            ("42", "a number, not a JSON object ({…})"),
            ("true", "true or false, not a JSON object ({…})"),
            ("null", "null, not a JSON object ({…})"),
        ] {
            assert_eq!(
                typed_object(typed).map_err(|e| e.to_string()),
                Err(what.to_string()),
                "{typed:?}"
            );
        }
    }

    #[test]
    fn broken_json_says_where_it_breaks() {
        let why = typed_object("{\n  \"name\": \n").expect_err("cut short");
        let shown = why.to_string();
        assert!(shown.starts_with("not valid JSON ("), "{shown}");
        assert!(shown.contains("line 3"), "{shown}");
        let why = typed_object("{\"a\": 1,}").expect_err("a trailing comma");
        assert!(why.to_string().contains("column 9"), "{why}");
        // A hostile text is reported, never echoed back whole.
        let long = format!("{{\"a\": \"{}", "x".repeat(100_000));
        let why = typed_object(&long).expect_err("unterminated");
        assert!(why.to_string().len() < 200, "{}", why.to_string().len());
    }
}
