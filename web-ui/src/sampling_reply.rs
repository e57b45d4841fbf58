//! The person's answer to a sampling request (the app has no model: a person writes the
//! model's turn). It is a text, calls of the tools the request offers, or both. The
//! request's `toolChoice` says which it may be, and the answer is built into a
//! `CreateMessageResult`: `stopReason` `"toolUse"` when it calls tools, else `"endTurn"`.

use crate::typed_json::{typed_object, NotAnObject};
use client_core::types::CreateMessageParams;
use serde_json::{json, Value};
use std::fmt;

/// Most tool calls one answer holds (a person adds them one by one; this only bounds a
/// runaway form).
pub const MAX_TOOL_CALLS: usize = 16;

/// What the request lets the model do with the tools it offers (`toolChoice.mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolChoice {
    /// `"auto"`, the default: a text, tool calls or both.
    Auto,
    /// `"required"`: at least one tool call.
    Required,
    /// `"none"`: no tool calls (the tools are offered for the conversation's sake only).
    Forbidden,
}

impl ToolChoice {
    /// The request's choice; a mode this app does not know counts as the default, `"auto"`.
    pub fn of(p: &CreateMessageParams) -> ToolChoice {
        match p
            .tool_choice
            .as_ref()
            .and_then(|c| c.get("mode"))
            .and_then(Value::as_str)
        {
            Some("required") => ToolChoice::Required,
            Some("none") => ToolChoice::Forbidden,
            _ => ToolChoice::Auto,
        }
    }
}

/// A tool the request offers the model.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedTool {
    /// Its name, as a call must give it.
    pub name: String,
    /// What it is for, if the server says.
    pub description: Option<String>,
    /// The JSON Schema of its input (an object schema).
    pub input_schema: Value,
}

/// The tools the person may call in the answer: those the request offers (with a name), and
/// none when its `toolChoice` forbids calls.
pub fn callable_tools(p: &CreateMessageParams) -> Vec<OfferedTool> {
    if ToolChoice::of(p) == ToolChoice::Forbidden {
        return Vec::new();
    }
    p.tools
        .iter()
        .flatten()
        .filter_map(|t| {
            Some(OfferedTool {
                name: t.get("name")?.as_str()?.to_string(),
                description: t
                    .get("description")
                    .and_then(Value::as_str)
                    .map(String::from),
                input_schema: t
                    .get("inputSchema")
                    .filter(|s| s.is_object())
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "object"})),
            })
        })
        .collect()
}

/// One tool call of the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// Its id, which the server's tool result names (`toolUseId`).
    pub id: String,
    /// The tool called.
    pub name: String,
    /// Its input (a JSON object).
    pub input: Value,
}

/// The id of call number `n` (from 1) of the answer to ask `ask`: unique in the connection,
/// so in any conversation the server holds with it.
pub fn call_id(ask: u32, n: usize) -> String {
    format!("call_{ask}_{n}")
}

/// Why an answer cannot be sent as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyError {
    /// `toolChoice` `"required"` and no tool call.
    ToolCallRequired,
    /// Tool calls where `toolChoice` is `"none"`.
    ToolCallsForbidden,
    /// A call of a tool the request does not offer.
    NotOffered(String),
    /// More calls than [`MAX_TOOL_CALLS`].
    TooManyCalls,
    /// A result typed as JSON that is not a JSON object.
    NotAnObject(NotAnObject),
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::ToolCallRequired => f.write_str(
                "The server requires at least one tool call in this reply (toolChoice \
                 \"required\"): add one before sending.",
            ),
            ReplyError::ToolCallsForbidden => f.write_str(
                "The server allows no tool call in this reply (toolChoice \"none\"): remove \
                 them, or reject the request.",
            ),
            ReplyError::NotOffered(name) => {
                write!(f, "\"{name}\" is not one of the tools this request offers.")
            }
            ReplyError::TooManyCalls => {
                write!(f, "A reply holds at most {MAX_TOOL_CALLS} tool calls.")
            }
            ReplyError::NotAnObject(e) => write!(
                f,
                "Enter the result to send as a JSON object (a CreateMessageResult: role, \
                 content, model): this is {e}."
            ),
        }
    }
}

/// The `CreateMessageResult` of a reply made of `text` and `calls`, checked against the
/// request's choice and offered tools. With no call, the text alone (even empty, as the
/// person approved it). With calls, a text that is not blank comes first, then the calls.
pub fn reply(
    text: &str,
    calls: &[ToolCall],
    choice: ToolChoice,
    offered: &[OfferedTool],
) -> Result<Value, ReplyError> {
    let text_block = json!({"type": "text", "text": text});
    if calls.is_empty() {
        if choice == ToolChoice::Required {
            return Err(ReplyError::ToolCallRequired);
        }
        return Ok(answer(text_block, "endTurn"));
    }
    if choice == ToolChoice::Forbidden {
        return Err(ReplyError::ToolCallsForbidden);
    }
    if calls.len() > MAX_TOOL_CALLS {
        return Err(ReplyError::TooManyCalls);
    }
    if let Some(c) = calls
        .iter()
        .find(|c| !offered.iter().any(|t| t.name == c.name))
    {
        return Err(ReplyError::NotOffered(c.name.clone()));
    }
    let mut content: Vec<Value> = Vec::with_capacity(calls.len() + 1);
    if !text.trim().is_empty() {
        content.push(text_block);
    }
    content.extend(
        calls
            .iter()
            .map(|c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.input})),
    );
    Ok(answer(Value::Array(content), "toolUse"))
}

/// The result typed by the person as JSON, sent as typed (to try a server's own checks):
/// only a JSON object is taken.
pub fn typed_reply(typed: &str) -> Result<Value, ReplyError> {
    typed_object(typed)
        .map(Value::Object)
        .map_err(ReplyError::NotAnObject)
}

/// The JSON a person starts from when they switch to typing the result: the answer the
/// dialog holds, indented, or, where it could not be sent as it is, its text alone.
pub fn typed_draft(
    text: &str,
    calls: &[ToolCall],
    choice: ToolChoice,
    offered: &[OfferedTool],
) -> String {
    let value = reply(text, calls, choice, offered)
        .unwrap_or_else(|_| answer(json!({"type": "text", "text": text}), "endTurn"));
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

fn answer(content: Value, stop_reason: &str) -> Value {
    json!({
        "role": "assistant",
        "model": "human-in-the-loop",
        "stopReason": stop_reason,
        "content": content,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(v: Value) -> CreateMessageParams {
        let mut p = json!({"messages": [], "maxTokens": 10});
        if let (Some(p), Some(v)) = (p.as_object_mut(), v.as_object()) {
            p.extend(v.clone());
        }
        serde_json::from_value(p).expect("valid params")
    }

    fn weather() -> Value {
        json!({"name": "get_weather", "description": "Weather of a city",
               "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}})
    }

    fn call(n: usize, name: &str, city: &str) -> ToolCall {
        ToolCall {
            id: call_id(7, n),
            name: name.into(),
            input: json!({ "city": city }),
        }
    }

    #[test]
    fn the_choice_is_read_with_auto_as_the_default() {
        let of = |v: Value| ToolChoice::of(&params(v));
        assert_eq!(of(json!({})), ToolChoice::Auto);
        assert_eq!(of(json!({"toolChoice": {}})), ToolChoice::Auto);
        assert_eq!(
            of(json!({"toolChoice": {"mode": "auto"}})),
            ToolChoice::Auto
        );
        assert_eq!(
            of(json!({"toolChoice": {"mode": "required"}})),
            ToolChoice::Required
        );
        assert_eq!(
            of(json!({"toolChoice": {"mode": "none"}})),
            ToolChoice::Forbidden
        );
        assert_eq!(
            of(json!({"toolChoice": {"mode": "sometimes"}})),
            ToolChoice::Auto
        );
    }

    #[test]
    fn the_offered_tools_are_callable_unless_the_choice_forbids_calls() {
        let offered = json!({"tools": [weather(), {"description": "no name"}, {"name": "now"}]});
        let tools = callable_tools(&params(offered.clone()));
        assert_eq!(
            tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["get_weather", "now"]
        );
        assert_eq!(tools[0].description.as_deref(), Some("Weather of a city"));
        assert_eq!(
            tools[0].input_schema["properties"]["city"]["type"],
            "string"
        );
        // A tool without an input schema takes an object.
        assert_eq!(tools[1].input_schema, json!({"type": "object"}));
        let mut forbidden = offered;
        forbidden["toolChoice"] = json!({"mode": "none"});
        assert!(callable_tools(&params(forbidden)).is_empty());
        assert!(callable_tools(&params(json!({}))).is_empty());
    }

    #[test]
    fn malformed_offered_tools_are_left_out_or_given_an_object_schema() {
        let hostile = json!({"tools": ["get_weather", {"name": 5}, null,
            {"name": "<b>x</b>", "inputSchema": "nope", "description": 7}]});
        let tools = callable_tools(&params(hostile));
        assert_eq!(
            tools,
            [OfferedTool {
                name: "<b>x</b>".into(),
                description: None,
                input_schema: json!({"type": "object"}),
            }]
        );
    }

    #[test]
    fn a_text_reply_ends_the_turn() {
        let r = reply("Paris.", &[], ToolChoice::Auto, &[]);
        assert_eq!(
            r,
            Ok(
                json!({"role": "assistant", "model": "human-in-the-loop", "stopReason": "endTurn",
                       "content": {"type": "text", "text": "Paris."}})
            )
        );
        assert!(reply("", &[], ToolChoice::Forbidden, &[]).is_ok());
    }

    #[test]
    fn tool_calls_make_a_tool_use_reply_after_any_text() {
        let offered = callable_tools(&params(json!({"tools": [weather()]})));
        let calls = [
            call(1, "get_weather", "Paris"),
            call(2, "get_weather", "London"),
        ];
        let r = reply("  ", &calls, ToolChoice::Required, &offered).expect("valid reply");
        assert_eq!(r["stopReason"], "toolUse");
        assert_eq!(
            r["content"],
            json!([
                {"type": "tool_use", "id": "call_7_1", "name": "get_weather", "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "call_7_2", "name": "get_weather", "input": {"city": "London"}},
            ])
        );
        let r = reply("Let me look.", &calls[..1], ToolChoice::Auto, &offered).expect("valid");
        assert_eq!(
            r["content"][0],
            json!({"type": "text", "text": "Let me look."})
        );
        assert_eq!(r["content"][1]["type"], "tool_use");
    }

    #[test]
    fn a_reply_against_the_choice_or_the_offer_is_refused_in_words() {
        let offered = callable_tools(&params(json!({"tools": [weather()]})));
        let paris = [call(1, "get_weather", "Paris")];
        let required = reply("Paris.", &[], ToolChoice::Required, &offered);
        assert_eq!(required, Err(ReplyError::ToolCallRequired));
        assert!(required
            .map_err(|e| e.to_string())
            .is_err_and(|m| m.contains("at least one tool call")));
        assert_eq!(
            reply("", &paris, ToolChoice::Forbidden, &offered),
            Err(ReplyError::ToolCallsForbidden)
        );
        assert_eq!(
            reply("", &[call(1, "rm_rf", "/")], ToolChoice::Auto, &offered),
            Err(ReplyError::NotOffered("rm_rf".into()))
        );
        let many: Vec<ToolCall> = (1..=MAX_TOOL_CALLS + 1)
            .map(|n| call(n, "get_weather", "Paris"))
            .collect();
        assert_eq!(
            reply("", &many, ToolChoice::Auto, &offered),
            Err(ReplyError::TooManyCalls)
        );
        assert!(reply("", &many[..MAX_TOOL_CALLS], ToolChoice::Auto, &offered).is_ok());
    }

    #[test]
    fn a_typed_result_goes_as_typed_if_it_is_an_object() {
        let typed = r#"{"role": "assistant", "model": "x", "stopReason": "maxTokens",
                        "content": {"type": "text", "text": "Cut"}, "extra": 1}"#;
        assert_eq!(
            typed_reply(typed).map(|v| v["stopReason"].clone()),
            Ok(json!("maxTokens"))
        );
        for bad in ["", "[]", "\"text\"", "{\"role\": ", "null"] {
            assert!(
                matches!(typed_reply(bad), Err(ReplyError::NotAnObject(_))),
                "{bad}"
            );
        }
        // It says where the typed text breaks.
        let why = typed_reply("{\"role\": ")
            .expect_err("cut short")
            .to_string();
        assert!(
            why.contains("not valid JSON") && why.contains("column"),
            "{why}"
        );
    }

    #[test]
    fn the_typed_draft_starts_from_the_answer_held() {
        let offered = callable_tools(&params(json!({"tools": [weather()]})));
        let calls = [call(1, "get_weather", "Paris")];
        let draft = typed_draft("", &calls, ToolChoice::Auto, &offered);
        assert_eq!(
            typed_reply(&draft).map(|v| v["content"][0]["input"]["city"].clone()),
            Ok(json!("Paris"))
        );
        // Not sendable as it is (a call required): the text alone, to be edited.
        let draft = typed_draft("Hm.", &[], ToolChoice::Required, &offered);
        assert_eq!(
            typed_reply(&draft).map(|v| v["content"].clone()),
            Ok(json!({"type": "text", "text": "Hm."}))
        );
    }

    #[test]
    fn call_ids_differ_between_asks_and_calls() {
        assert_ne!(call_id(1, 2), call_id(2, 1));
        assert_ne!(call_id(1, 12), call_id(11, 2));
        assert_ne!(call_id(1, 1), call_id(1, 2));
    }
}
