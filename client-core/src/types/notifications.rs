//! Notifications a client sends or receives.

use super::{Extra, LoggingLevel, ProgressToken};
use crate::jsonrpc::RequestId;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Parameters of `notifications/progress`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams {
    /// The token given with the request.
    pub progress_token: ProgressToken,
    /// Progress so far (increases).
    pub progress: serde_json::Number,
    /// Total, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<serde_json::Number>,
    /// Human-readable status (untrusted text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Parameters of `notifications/message` (a log entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggingMessageParams {
    /// Severity.
    pub level: LoggingLevel,
    /// Logger name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// Any JSON data.
    pub data: Value,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Parameters of `notifications/cancelled`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams {
    /// The request being cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Parameters of `notifications/resources/updated`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceUpdatedParams {
    /// The resource that changed.
    pub uri: String,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Which notifications a `subscriptions/listen` stream carries (2026-07-28).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
    /// `notifications/tasks` for these tasks (the Tasks extension, `taskIds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_ids: Option<Vec<String>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Parameters of `notifications/subscriptions/acknowledged`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubscriptionsAcknowledgedParams {
    /// What the server agreed to send.
    #[serde(default)]
    pub notifications: SubscriptionFilter,
    /// `_meta` (carries the subscription id).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A notification from the server, decoded by method.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerNotification {
    /// Progress of a request.
    Progress(ProgressParams),
    /// A log entry.
    LoggingMessage(LoggingMessageParams),
    /// The server cancelled one of its own requests (legacy).
    Cancelled(CancelledParams),
    /// The tool list changed.
    ToolListChanged,
    /// The prompt list changed.
    PromptListChanged,
    /// The resource list changed.
    ResourceListChanged,
    /// A subscribed resource changed.
    ResourceUpdated(ResourceUpdatedParams),
    /// A `subscriptions/listen` stream is open.
    SubscriptionsAcknowledged(SubscriptionsAcknowledgedParams),
    /// A task's state changed (2025-11-25 tasks, `notifications/tasks/status`; optional for
    /// the server, which the client still polls).
    TaskStatus(super::Task),
    /// A task of the Tasks extension changed (2026-07-28, `notifications/tasks`, on a
    /// `subscriptions/listen` stream that asked for its id): its whole state, as `tasks/get`
    /// would answer now.
    TaskUpdated(super::Task),
    /// Anything else (e.g. `notifications/elicitation/complete`).
    Other {
        /// Method name.
        method: String,
        /// Parameters.
        params: Option<Value>,
    },
}

impl ServerNotification {
    /// The notification's method, e.g. `notifications/tools/list_changed`.
    pub fn method(&self) -> &str {
        match self {
            ServerNotification::Progress(_) => "notifications/progress",
            ServerNotification::LoggingMessage(_) => "notifications/message",
            ServerNotification::Cancelled(_) => "notifications/cancelled",
            ServerNotification::ToolListChanged => "notifications/tools/list_changed",
            ServerNotification::PromptListChanged => "notifications/prompts/list_changed",
            ServerNotification::ResourceListChanged => "notifications/resources/list_changed",
            ServerNotification::ResourceUpdated(_) => "notifications/resources/updated",
            ServerNotification::SubscriptionsAcknowledged(_) => {
                "notifications/subscriptions/acknowledged"
            }
            ServerNotification::TaskStatus(_) => "notifications/tasks/status",
            ServerNotification::TaskUpdated(_) => "notifications/tasks",
            ServerNotification::Other { method, .. } => method,
        }
    }

    /// The notification's parameters as JSON (fields this client does not model included;
    /// `None` for the list-changed notifications, which carry nothing the client reads).
    pub fn params(&self) -> Option<Value> {
        let json = |v: Result<Value, serde_json::Error>| v.ok();
        match self {
            ServerNotification::Progress(p) => json(serde_json::to_value(p)),
            ServerNotification::LoggingMessage(p) => json(serde_json::to_value(p)),
            ServerNotification::Cancelled(p) => json(serde_json::to_value(p)),
            ServerNotification::ResourceUpdated(p) => json(serde_json::to_value(p)),
            ServerNotification::SubscriptionsAcknowledged(p) => json(serde_json::to_value(p)),
            ServerNotification::TaskStatus(t) | ServerNotification::TaskUpdated(t) => {
                json(serde_json::to_value(t))
            }
            ServerNotification::Other { params, .. } => params.clone(),
            ServerNotification::ToolListChanged
            | ServerNotification::PromptListChanged
            | ServerNotification::ResourceListChanged => None,
        }
    }

    /// Decodes a notification from its method and parameters.
    pub fn decode(method: &str, params: Option<Value>) -> Result<Self, serde_json::Error> {
        let empty = Value::Object(Map::new());
        let p = || params.as_ref().unwrap_or(&empty);
        Ok(match method {
            "notifications/progress" => {
                ServerNotification::Progress(Deserialize::deserialize(p())?)
            }
            "notifications/message" => {
                ServerNotification::LoggingMessage(Deserialize::deserialize(p())?)
            }
            "notifications/cancelled" => {
                ServerNotification::Cancelled(Deserialize::deserialize(p())?)
            }
            "notifications/tools/list_changed" => ServerNotification::ToolListChanged,
            "notifications/prompts/list_changed" => ServerNotification::PromptListChanged,
            "notifications/resources/list_changed" => ServerNotification::ResourceListChanged,
            "notifications/resources/updated" => {
                ServerNotification::ResourceUpdated(Deserialize::deserialize(p())?)
            }
            "notifications/subscriptions/acknowledged" => {
                ServerNotification::SubscriptionsAcknowledged(Deserialize::deserialize(p())?)
            }
            "notifications/tasks/status" => {
                ServerNotification::TaskStatus(Deserialize::deserialize(p())?)
            }
            "notifications/tasks" => {
                ServerNotification::TaskUpdated(Deserialize::deserialize(p())?)
            }
            other => ServerNotification::Other {
                method: other.into(),
                params,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_listen_filter_asks_for_tasks_by_id_and_reads_them_back() {
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            task_ids: Some(alloc::vec!["t1".into(), "t2".into()]),
            ..Default::default()
        };
        let wire = serde_json::to_value(&filter).expect("serializes");
        assert_eq!(
            wire,
            json!({ "toolsListChanged": true, "taskIds": ["t1", "t2"] })
        );
        let back: SubscriptionFilter = serde_json::from_value(wire).expect("decodes");
        assert_eq!(back, filter);
        // Without tasks, no `taskIds` key at all.
        let none = serde_json::to_value(SubscriptionFilter::default()).expect("serializes");
        assert_eq!(none, json!({}));
    }

    #[test]
    fn decoded_notifications_give_back_their_method_and_params() {
        let cases = [
            (
                "notifications/progress",
                Some(json!({"progressToken": "p1", "progress": 2, "total": 5, "message": "m"})),
            ),
            (
                "notifications/message",
                Some(json!({"level": "warning", "logger": "db", "data": {"x": 1}})),
            ),
            (
                "notifications/cancelled",
                Some(json!({"requestId": 7, "reason": "gone"})),
            ),
            (
                "notifications/resources/updated",
                Some(json!({"uri": "test://a", "title": "extra kept"})),
            ),
            (
                "notifications/tasks/status",
                Some(
                    json!({"taskId": "t1", "status": "working", "statusMessage": "Gathering",
                            "createdAt": "2025-11-25T10:30:00Z", "lastUpdatedAt": "2025-11-25T10:31:00Z",
                            "ttl": 60000, "pollInterval": 5000}),
                ),
            ),
            (
                "notifications/tasks",
                Some(
                    json!({"taskId": "t2", "status": "completed", "createdAt": "2026-07-28T10:30:00Z",
                            "lastUpdatedAt": "2026-07-28T10:31:00Z", "ttlMs": 60000,
                            "result": {"content": []}}),
                ),
            ),
            (
                "notifications/elicitation/complete",
                Some(json!({"elicitationId": "e"})),
            ),
            ("notifications/custom", None),
        ];
        for (method, params) in cases {
            let n = ServerNotification::decode(method, params.clone()).expect("decodes");
            assert_eq!(n.method(), method);
            assert_eq!(n.params(), params, "{method}");
        }
        let Ok(ServerNotification::TaskStatus(task)) = ServerNotification::decode(
            "notifications/tasks/status",
            Some(json!({"taskId": "t1", "status": "input_required"})),
        ) else {
            panic!("a task status is decoded as one")
        };
        assert_eq!(
            (task.task_id.as_str(), task.status.as_str()),
            ("t1", "input_required")
        );
        // A task status without its task is malformed, not "something else".
        assert!(ServerNotification::decode(
            "notifications/tasks/status",
            Some(json!({"status": "working"}))
        )
        .is_err());
        let changed =
            ServerNotification::decode("notifications/tools/list_changed", None).expect("decodes");
        assert_eq!(changed.method(), "notifications/tools/list_changed");
        assert_eq!(changed.params(), None);
    }
}
