//! Tasks (2025-11-25, experimental; an extension from 2026-07-28 on): long-running requests
//! the server runs in the background and the client polls.

use super::{Extra, ResultMeta};
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A task's state as the server reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// The task id.
    pub task_id: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled` (kept as text so a
    /// newer status does not break decoding).
    pub status: String,
    /// Human-readable status (untrusted text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 creation time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// ISO 8601 time of the last update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_updated_at: Option<String>,
    /// Suggested polling interval in milliseconds (`pollInterval`; `pollIntervalMs` in the
    /// 2026-07-28 Tasks extension).
    #[serde(
        default,
        alias = "pollIntervalMs",
        skip_serializing_if = "Option::is_none"
    )]
    pub poll_interval: Option<u64>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Task {
    /// How long the server keeps the task in milliseconds; `None` when unlimited (`null`) or
    /// not given. Kept in `extra` so that an explicit `null` survives re-encoding.
    pub fn ttl_ms(&self) -> Option<u64> {
        ["ttl", "ttlMs"]
            .iter()
            .find_map(|k| self.extra.get(*k))
            .and_then(serde_json::Value::as_u64)
    }

    /// What a `completed` task of the Tasks extension (2026-07-28) came to: the result the
    /// request itself would have had (a `tools/call` result), inlined in the task.
    pub fn result(&self) -> Option<&serde_json::Value> {
        self.extra.get("result")
    }

    /// The JSON-RPC error a `failed` task of the Tasks extension ended with.
    pub fn error(&self) -> Option<&serde_json::Value> {
        self.extra.get("error")
    }

    /// The requests an `input_required` task of the Tasks extension waits on (`inputRequests`:
    /// key → request, each key used once in the task's life), answered with `tasks/update`.
    pub fn input_requests(&self) -> Option<&serde_json::Map<String, serde_json::Value>> {
        self.extra.get("inputRequests")?.as_object()
    }

    /// True once the task can no longer change.
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }
}

/// The identifier of the Tasks extension (2026-07-28): declared in the client's capabilities,
/// a server may answer a `tools/call` with a task (`resultType: "task"`, the task's fields
/// inlined), followed with `tasks/get`, `tasks/update` and `tasks/cancel`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Result of a task-augmented request (`CreateTaskResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreateTaskResult {
    /// The task that was created.
    pub task: Task,
    /// Common result fields.
    #[serde(flatten)]
    pub common: ResultMeta,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Result of `tasks/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksResult {
    /// Tasks on this page.
    pub tasks: Vec<Task>,
    /// Cursor of the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
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
    fn a_tasks_outcome_and_open_questions_are_read_from_its_fields() {
        let task = |v: serde_json::Value| -> Task { serde_json::from_value(v).expect("a task") };
        let failed = task(json!({"taskId": "t", "status": "failed",
            "error": {"code": -32603, "message": "boom"}}));
        assert_eq!(
            failed.error().map(|e| e["code"].clone()),
            Some(json!(-32603))
        );
        assert!(failed.is_terminal() && failed.result().is_none());
        let waiting = task(json!({"taskId": "t", "status": "input_required",
            "inputRequests": {"k": {"method": "roots/list"}}}));
        assert_eq!(
            waiting
                .input_requests()
                .map(|m| m.keys().cloned().collect::<Vec<_>>()),
            Some(alloc::vec!["k".into()])
        );
        assert!(!waiting.is_terminal() && waiting.error().is_none());
        // Not a map: no questions.
        let odd = task(json!({"taskId": "t", "status": "input_required", "inputRequests": []}));
        assert_eq!(odd.input_requests(), None);
    }
}
