//! Client and server capabilities.

use super::Extra;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the client supports. Sub-objects are kept as JSON so new settings pass through.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientCapabilities {
    /// Roots (`{ "listChanged": bool }` in the legacy era).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Value>,
    /// Sampling (`{}`, or `{ "tools": {}, "context": {} }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Value>,
    /// Elicitation (`{}` = form, or `{ "form": {}, "url": {} }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<Value>,
    /// Tasks (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Value>,
    /// Experimental capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Value>,
    /// Extensions (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What the server supports.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerCapabilities {
    /// Tools (`{ "listChanged": bool }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Value>,
    /// Resources (`{ "subscribe": bool, "listChanged": bool }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Value>,
    /// Prompts (`{ "listChanged": bool }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<Value>,
    /// Logging.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Value>,
    /// Argument completion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<Value>,
    /// Tasks (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Value>,
    /// Experimental capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Value>,
    /// Extensions (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

fn flag(v: &Option<Value>, key: &str) -> bool {
    v.as_ref()
        .and_then(|o| o.get(key))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// True when capability `v` declares `key` (an object, however empty: `"list": {}`).
fn has(v: &Option<Value>, key: &str) -> bool {
    v.as_ref()
        .and_then(|o| o.get(key))
        .is_some_and(Value::is_object)
}

impl ServerCapabilities {
    /// The server can notify tool list changes.
    pub fn tools_list_changed(&self) -> bool {
        flag(&self.tools, "listChanged")
    }
    /// The server can notify prompt list changes.
    pub fn prompts_list_changed(&self) -> bool {
        flag(&self.prompts, "listChanged")
    }
    /// The server can notify resource list changes.
    pub fn resources_list_changed(&self) -> bool {
        flag(&self.resources, "listChanged")
    }
    /// The server supports resource subscriptions.
    pub fn resources_subscribe(&self) -> bool {
        flag(&self.resources, "subscribe")
    }
    /// The server lists its tasks (`tasks.list`, 2025-11-25 tasks).
    pub fn tasks_list(&self) -> bool {
        has(&self.tasks, "list")
    }
    /// The server cancels a task when asked (`tasks.cancel`, 2025-11-25 tasks).
    pub fn tasks_cancel(&self) -> bool {
        has(&self.tasks, "cancel")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_capabilities_are_read_from_their_objects() {
        let caps: ServerCapabilities = serde_json::from_value(serde_json::json!({
            "tasks": { "list": {}, "requests": { "tools": { "call": {} } } }
        }))
        .expect("valid capabilities");
        assert!(caps.tasks_list());
        assert!(!caps.tasks_cancel());
        // Not an object: not declared (a hostile or confused server).
        let odd: ServerCapabilities =
            serde_json::from_value(serde_json::json!({ "tasks": { "cancel": true } }))
                .expect("valid capabilities");
        assert!(!odd.tasks_cancel());
        let both: ServerCapabilities =
            serde_json::from_value(serde_json::json!({ "tasks": { "list": {}, "cancel": {} } }))
                .expect("valid capabilities");
        assert!(both.tasks_list() && both.tasks_cancel());
        assert!(!ServerCapabilities::default().tasks_list());
    }

    #[test]
    fn list_changes_and_subscriptions_are_read_from_their_flags() {
        let caps: ServerCapabilities = serde_json::from_value(serde_json::json!({
            "tools": { "listChanged": true },
            "prompts": { "listChanged": false },
            "resources": { "subscribe": true, "listChanged": "yes" }
        }))
        .expect("valid capabilities");
        assert!(caps.tools_list_changed());
        assert!(!caps.prompts_list_changed());
        assert!(caps.resources_subscribe());
        // Only `true` declares it (a string is not a flag).
        assert!(!caps.resources_list_changed());
        let all: ServerCapabilities = serde_json::from_value(serde_json::json!({
            "prompts": { "listChanged": true },
            "resources": { "listChanged": true }
        }))
        .expect("valid capabilities");
        assert!(all.prompts_list_changed() && all.resources_list_changed());
        let none = ServerCapabilities::default();
        assert!(!none.tools_list_changed() && !none.prompts_list_changed());
        assert!(!none.resources_list_changed() && !none.resources_subscribe());
    }
}
