//! What a sampling request (`sampling/createMessage`) asks for, in words for the person who
//! approves it: every message block (not only the text ones) and the request's settings.
//! Pure logic, unit-tested natively; everything here is shown as text.

use client_browser::client_core::types::{
    ContentBlock, CreateMessageParams, KnownContent, Role, SamplingMessage,
};
use serde_json::Value;

/// Longest JSON shown for a tool call's input.
const MAX_INPUT_CHARS: usize = 300;

/// One message as a line: who speaks, then each block described.
pub fn message_line(m: &SamplingMessage) -> String {
    let who = match m.role {
        Role::User => "User",
        Role::Assistant => "Assistant",
    };
    let blocks: Vec<String> = m.content.as_slice().iter().map(describe).collect();
    format!("{who}: {}", blocks.join(" "))
}

/// A content block as text: the text itself, or what it is in brackets.
pub fn describe(block: &ContentBlock) -> String {
    let known = match block {
        ContentBlock::Known(k) => k,
        ContentBlock::Unknown(v) => {
            let kind = v.get("type").and_then(Value::as_str).unwrap_or("unknown");
            return format!("[{kind} content]");
        }
    };
    match known {
        KnownContent::Text(t) => t.text.clone(),
        KnownContent::Image(m) => format!("[image, {}]", m.mime_type),
        KnownContent::Audio(m) => format!("[audio, {}]", m.mime_type),
        KnownContent::Resource(r) => format!("[resource {}]", r.resource.uri),
        KnownContent::ResourceLink(r) => format!("[link to {}]", r.uri),
        KnownContent::ToolUse(t) => {
            format!(
                "[calls tool {} with {}]",
                t.name,
                shortened(&t.input.to_string())
            )
        }
        KnownContent::ToolResult(t) => {
            let inner: Vec<String> = t.content.iter().map(describe).collect();
            let failed = if t.is_error == Some(true) {
                " (failed)"
            } else {
                ""
            };
            format!("[result of {}{failed}: {}]", t.tool_use_id, inner.join(" "))
        }
    }
}

/// The request's settings worth a look before approving, as label and value.
pub fn settings(p: &CreateMessageParams) -> Vec<(&'static str, String)> {
    let mut out = vec![("Max tokens", p.max_tokens.to_string())];
    if let Some(t) = &p.temperature {
        out.push(("Temperature", t.to_string()));
    }
    if let Some(stops) = p.stop_sequences.as_ref().filter(|s| !s.is_empty()) {
        let quoted: Vec<String> = stops.iter().map(|s| format!("{s:?}")).collect();
        out.push(("Stop sequences", quoted.join(", ")));
    }
    if let Some(c) = p.include_context.as_deref().filter(|c| *c != "none") {
        out.push(("Context asked for", c.to_string()));
    }
    if let Some(prefs) = &p.model_preferences {
        let hints: Vec<&str> = prefs
            .get("hints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|h| h.get("name").and_then(Value::as_str))
            .collect();
        if !hints.is_empty() {
            out.push(("Model hints", hints.join(", ")));
        }
        let priorities: Vec<String> = ["cost", "speed", "intelligence"]
            .iter()
            .filter_map(|k| {
                let v = prefs.get(format!("{k}Priority"))?.as_f64()?;
                Some(format!("{k} {v}"))
            })
            .collect();
        if !priorities.is_empty() {
            out.push(("Priorities", priorities.join(", ")));
        }
    }
    if let Some(tools) = p.tools.as_ref().filter(|t| !t.is_empty()) {
        let names: Vec<&str> = tools
            .iter()
            .map(|t| t.get("name").and_then(Value::as_str).unwrap_or("?"))
            .collect();
        out.push(("Tools the model may call", names.join(", ")));
    }
    if let Some(mode) = p
        .tool_choice
        .as_ref()
        .and_then(|c| c.get("mode"))
        .and_then(Value::as_str)
    {
        out.push(("Tool choice", mode.to_string()));
    }
    out
}

fn shortened(text: &str) -> String {
    match text.char_indices().nth(MAX_INPUT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(v: Value) -> CreateMessageParams {
        serde_json::from_value(v).expect("valid params")
    }

    #[test]
    fn every_block_and_setting_is_described() {
        let p = params(json!({
            "maxTokens": 200, "temperature": 0.2, "stopSequences": ["\n\nHuman:"],
            "includeContext": "thisServer",
            "modelPreferences": {"hints": [{"name": "claude-3-sonnet"}, {"name": "gpt"}], "speedPriority": 0.8},
            "tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}],
            "toolChoice": {"mode": "auto"},
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Look:"},
                    {"type": "image", "data": "AA==", "mimeType": "image/png"}]},
                {"role": "assistant", "content": {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Paris"}}},
                {"role": "user", "content": {"type": "tool_result", "toolUseId": "t1", "isError": true,
                    "content": [{"type": "text", "text": "no data"}]}},
                {"role": "user", "content": {"type": "hologram", "x": 1}}
            ]
        }));
        let lines: Vec<String> = p.messages.iter().map(message_line).collect();
        assert_eq!(
            lines,
            [
                "User: Look: [image, image/png]",
                "Assistant: [calls tool get_weather with {\"city\":\"Paris\"}]",
                "User: [result of t1 (failed): no data]",
                "User: [hologram content]",
            ]
        );
        assert_eq!(
            settings(&p),
            [
                ("Max tokens", "200".to_string()),
                ("Temperature", "0.2".into()),
                ("Stop sequences", "\"\\n\\nHuman:\"".into()),
                ("Context asked for", "thisServer".into()),
                ("Model hints", "claude-3-sonnet, gpt".into()),
                ("Priorities", "speed 0.8".into()),
                ("Tools the model may call", "get_weather".into()),
                ("Tool choice", "auto".into()),
            ]
        );
        let bare = params(json!({"maxTokens": 5, "includeContext": "none", "messages": []}));
        assert_eq!(settings(&bare), [("Max tokens", "5".to_string())]);
    }

    #[test]
    fn long_tool_inputs_are_shortened() {
        let long = "x".repeat(1000);
        let text = shortened(&json!({ "a": long }).to_string());
        assert_eq!(text.chars().count(), MAX_INPUT_CHARS + 1);
        assert!(text.ends_with('…'));
    }
}
