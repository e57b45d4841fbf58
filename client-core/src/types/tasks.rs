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
    /// Suggested polling interval in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Task {
    /// How long the server keeps the task in milliseconds; `None` when unlimited (`null`) or
    /// not given. Kept in `extra` so that an explicit `null` survives re-encoding.
    pub fn ttl_ms(&self) -> Option<u64> {
        self.extra.get("ttl").and_then(serde_json::Value::as_u64)
    }

    /// True once the task can no longer change.
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }
}

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
