//! Tasks this client runs for a server (2025-11-25 task-augmented `sampling/createMessage` and
//! `elicitation/create`): the state of each, and the answers to the server's `tasks/get`,
//! `tasks/result`, `tasks/list` and `tasks/cancel`.
//!
//! Sans-IO like the session: the caller runs the request's handler, passes the monotonic time
//! (for lifetimes) and the wall-clock time as an ISO 8601 stamp (for `createdAt` and
//! `lastUpdatedAt`), and sends the answers this returns with [`crate::Session::answer`].

use crate::jsonrpc::{codes, ErrorObject};
use crate::session::ServerRequestId;
use crate::time::Instant;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{json, Map, Value};

/// Tasks kept at most (live or finished but not expired); a server that asks for more gets an
/// error instead of growing the client's memory.
pub const MAX_TASKS: usize = 64;
/// Lifetime when the server asks for none (milliseconds).
const DEFAULT_TTL_MS: u64 = 5 * 60 * 1000;
/// Bounds on the lifetime the server asks for (milliseconds; `null`, unlimited, gets the upper
/// bound: a receiver may override the requested lifetime).
const TTL_BOUNDS_MS: (u64, u64) = (1_000, 60 * 60 * 1000);
/// The polling interval suggested to the server (milliseconds).
pub const POLL_INTERVAL_MS: u64 = 1_000;
/// The notification that tells the server a task's new state (the spec's MAY: a server
/// that waits for it learns of the end before its next poll).
pub const STATUS_NOTIFICATION: &str = "notifications/tasks/status";
/// The `_meta` key that ties a result to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// An answer to one of the server's requests, to send with [`crate::Session::answer`].
pub type TaskAnswer = (ServerRequestId, Result<Value, ErrorObject>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Working,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    fn is_terminal(self) -> bool {
        self != Status::Working
    }
}

struct ReceivedTask {
    id: String,
    status: Status,
    message: Option<String>,
    created_at: String,
    updated_at: String,
    created: Instant,
    ttl_ms: u64,
    outcome: Option<Result<Value, ErrorObject>>,
    /// `tasks/result` requests waiting for the task to end.
    waiting: Vec<ServerRequestId>,
}

impl ReceivedTask {
    /// The task as the specification's `Task` object.
    fn to_json(&self) -> Value {
        let mut t = json!({
            "taskId": self.id,
            "status": self.status.as_str(),
            "createdAt": self.created_at,
            "lastUpdatedAt": self.updated_at,
            "ttl": self.ttl_ms,
            "pollInterval": POLL_INTERVAL_MS,
        });
        if let Some(m) = &self.message {
            t["statusMessage"] = Value::String(m.clone());
        }
        t
    }

    /// What `tasks/result` answers once the task is over: what the request itself would have
    /// answered, its result tagged with the task.
    fn result(&self) -> Result<Value, ErrorObject> {
        match (&self.outcome, self.status) {
            (_, Status::Cancelled) | (None, _) => Err(ErrorObject::new(
                codes::REQUEST_CANCELLED,
                "the task was cancelled before it finished",
            )),
            (Some(Err(e)), _) => Err(e.clone()),
            (Some(Ok(v)), _) => {
                let mut v = v.clone();
                if let Value::Object(obj) = &mut v {
                    let meta = obj
                        .entry("_meta")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(meta) = meta {
                        meta.insert(RELATED_TASK.into(), json!({ "taskId": self.id }));
                    }
                }
                Ok(v)
            }
        }
    }

    fn expired(&self, now: Instant) -> bool {
        now.0 >= self.created.0.saturating_add(self.ttl_ms)
    }
}

/// The tasks this client runs for one server.
#[derive(Default)]
pub struct TaskReceiver {
    tasks: Vec<ReceivedTask>,
    next_id: u64,
}

impl TaskReceiver {
    /// A receiver with no tasks.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a request's parameters ask for it to run as a task (a `task` object).
    pub fn wants_task(params: &Value) -> bool {
        params.get("task").is_some_and(Value::is_object)
    }

    /// Whether `method` is one of the task requests this answers.
    pub fn handles(method: &str) -> bool {
        matches!(
            method,
            "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel"
        )
    }

    /// Accepts a task-augmented request (its `params`): returns the new task's id and the
    /// `CreateTaskResult` to answer the request with at once. Run the request's handler and
    /// report its outcome with [`TaskReceiver::finish`]. Refused when [`MAX_TASKS`] are kept.
    pub fn create(
        &mut self,
        params: &Value,
        now: Instant,
        stamp: &str,
    ) -> Result<(String, Value), ErrorObject> {
        self.expire(now);
        if self.tasks.len() >= MAX_TASKS {
            return Err(ErrorObject::new(
                codes::INTERNAL_ERROR,
                format!("the client already keeps {MAX_TASKS} tasks for this server"),
            ));
        }
        let requested = params.get("task").and_then(|t| t.get("ttl"));
        let ttl_ms = match requested {
            Some(Value::Null) => TTL_BOUNDS_MS.1,
            Some(v) => v.as_u64().unwrap_or(DEFAULT_TTL_MS),
            None => DEFAULT_TTL_MS,
        }
        .clamp(TTL_BOUNDS_MS.0, TTL_BOUNDS_MS.1);
        self.next_id += 1;
        let task = ReceivedTask {
            id: format!("client-task-{}", self.next_id),
            status: Status::Working,
            message: None,
            created_at: stamp.to_string(),
            updated_at: stamp.to_string(),
            created: now,
            ttl_ms,
            outcome: None,
            waiting: Vec::new(),
        };
        let answer = json!({ "task": task.to_json() });
        let id = task.id.clone();
        self.tasks.push(task);
        Ok((id, answer))
    }

    /// The handler of task `task_id` ended with `outcome`: the task is completed (or failed),
    /// and the `tasks/result` requests waiting for it are answered. A cancelled or expired
    /// task ignores the outcome.
    pub fn finish(
        &mut self,
        task_id: &str,
        outcome: Result<Value, ErrorObject>,
        stamp: &str,
    ) -> Vec<TaskAnswer> {
        let Some(task) = self.tasks.iter_mut().find(|t| t.id == task_id) else {
            return Vec::new();
        };
        if task.status.is_terminal() {
            return Vec::new();
        }
        task.status = if outcome.is_ok() {
            Status::Completed
        } else {
            Status::Failed
        };
        if let Err(e) = &outcome {
            task.message = Some(e.message.clone());
        }
        task.outcome = Some(outcome);
        task.updated_at = stamp.to_string();
        let result = task.result();
        core::mem::take(&mut task.waiting)
            .into_iter()
            .map(|id| (id, result.clone()))
            .collect()
    }

    /// Task `task_id` as the specification's `Task` object (the params of a
    /// [`STATUS_NOTIFICATION`]), while it is kept.
    pub fn task_state(&self, task_id: &str) -> Option<Value> {
        self.tasks
            .iter()
            .find(|t| t.id == task_id)
            .map(ReceivedTask::to_json)
    }

    /// True while task `task_id` runs (not cancelled, finished or expired): a handler whose
    /// task is no longer running can be stopped.
    pub fn is_running(&self, task_id: &str) -> bool {
        self.tasks
            .iter()
            .any(|t| t.id == task_id && !t.status.is_terminal())
    }

    /// Answers the server's `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`
    /// (request `id`). `tasks/result` for a running task is answered when it ends;
    /// `tasks/cancel` also answers the `tasks/result` requests waiting for the task.
    pub fn handle(
        &mut self,
        id: ServerRequestId,
        method: &str,
        params: Option<&Value>,
        now: Instant,
        stamp: &str,
    ) -> Vec<TaskAnswer> {
        self.expire(now);
        if method == "tasks/list" {
            let tasks: Vec<Value> = self.tasks.iter().map(ReceivedTask::to_json).collect();
            return alloc::vec![(id, Ok(json!({ "tasks": tasks })))];
        }
        let task_id = params
            .and_then(|p| p.get("taskId"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(task) = self.tasks.iter_mut().find(|t| t.id == task_id) else {
            let e = ErrorObject::new(
                codes::INVALID_PARAMS,
                format!("no task {task_id:?}: it never existed here or has expired"),
            );
            return alloc::vec![(id, Err(e))];
        };
        match method {
            "tasks/get" => alloc::vec![(id, Ok(task.to_json()))],
            "tasks/result" if task.status.is_terminal() => alloc::vec![(id, task.result())],
            "tasks/result" => {
                task.waiting.push(id);
                Vec::new()
            }
            "tasks/cancel" if task.status.is_terminal() => {
                let e = ErrorObject::new(
                    codes::INVALID_PARAMS,
                    format!("task {task_id:?} is already {}", task.status.as_str()),
                );
                alloc::vec![(id, Err(e))]
            }
            "tasks/cancel" => {
                task.status = Status::Cancelled;
                task.message = Some("cancelled at the server's request".into());
                task.updated_at = stamp.to_string();
                let result = task.result();
                let mut answers: Vec<TaskAnswer> = core::mem::take(&mut task.waiting)
                    .into_iter()
                    .map(|w| (w, result.clone()))
                    .collect();
                answers.push((id, Ok(task.to_json())));
                answers
            }
            other => alloc::vec![(
                id,
                Err(ErrorObject::new(
                    codes::METHOD_NOT_FOUND,
                    format!("{other} is not a task request"),
                ))
            )],
        }
    }

    /// Forgets tasks past their lifetime, except a running one that a `tasks/result` still
    /// waits for (it is answered when its handler ends).
    fn expire(&mut self, now: Instant) {
        self.tasks
            .retain(|t| !t.expired(now) || (!t.status.is_terminal() && !t.waiting.is_empty()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: &str = "2026-11-23T10:00:00.000Z";
    const T1: &str = "2026-11-23T10:00:05.000Z";

    fn sampling_params(ttl: Value) -> Value {
        json!({ "task": { "ttl": ttl }, "messages": [], "maxTokens": 10 })
    }

    fn one(answers: Vec<TaskAnswer>) -> (ServerRequestId, Result<Value, ErrorObject>) {
        assert_eq!(answers.len(), 1, "{answers:?}");
        answers.into_iter().next().unwrap()
    }

    #[test]
    fn the_task_requests_it_answers_its_default_lifetime_and_while_it_runs() {
        for m in ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"] {
            assert!(TaskReceiver::handles(m), "{m}");
        }
        for m in ["tasks/update", "tools/call", "sampling/createMessage", ""] {
            assert!(!TaskReceiver::handles(m), "{m}");
        }
        let mut r = TaskReceiver::new();
        // No lifetime asked for: five minutes.
        let (id, created) = r
            .create(&json!({ "task": {}, "messages": [] }), Instant(0), T0)
            .unwrap();
        assert_eq!(created["task"]["ttl"], 300_000);
        assert!(r.is_running(&id));
        assert!(!r.is_running("client-task-999"));
        r.finish(&id, Ok(json!({})), T1);
        assert!(!r.is_running(&id));
    }

    #[test]
    fn a_running_task_past_its_lifetime_is_kept_only_while_a_result_request_waits() {
        let mut r = TaskReceiver::new();
        let (waited, _) = r
            .create(&sampling_params(json!(1_000)), Instant(0), T0)
            .unwrap();
        let (alone, _) = r
            .create(&sampling_params(json!(1_000)), Instant(0), T0)
            .unwrap();
        let (done, _) = r
            .create(&sampling_params(json!(1_000)), Instant(0), T0)
            .unwrap();
        let params = json!({ "taskId": waited });
        assert!(r
            .handle(
                ServerRequestId(1),
                "tasks/result",
                Some(&params),
                Instant(10),
                T0
            )
            .is_empty());
        r.finish(&done, Ok(json!({})), T0);
        // Past their lifetimes (a new task makes the receiver forget the expired).
        r.create(&sampling_params(json!(60_000)), Instant(5_000), T1)
            .unwrap();
        assert!(r.task_state(&waited).is_some(), "awaited: kept");
        assert!(r.task_state(&alone).is_none(), "nobody waits: forgotten");
        assert!(r.task_state(&done).is_none(), "over: forgotten");
        // The awaited one is answered when its handler ends.
        let (to, result) = one(r.finish(&waited, Ok(json!({ "role": "assistant" })), T1));
        assert_eq!(to, ServerRequestId(1));
        assert_eq!(result.unwrap()["role"], "assistant");
    }

    #[test]
    fn a_task_is_created_polled_and_its_result_handed_over() {
        let mut r = TaskReceiver::new();
        assert!(TaskReceiver::wants_task(&sampling_params(json!(300000))));
        assert!(!TaskReceiver::wants_task(&json!({ "messages": [] })));
        let (id, created) = r
            .create(&sampling_params(json!(300000)), Instant(0), T0)
            .unwrap();
        assert_eq!(created["task"]["taskId"], id.as_str());
        assert_eq!(created["task"]["status"], "working");
        assert_eq!(created["task"]["createdAt"], T0);
        assert_eq!(created["task"]["ttl"], 300000);
        let params = json!({ "taskId": id });
        let (_, got) = one(r.handle(
            ServerRequestId(1),
            "tasks/get",
            Some(&params),
            Instant(10),
            T0,
        ));
        assert_eq!(got.unwrap()["status"], "working");
        // tasks/result waits for the end ...
        assert!(r
            .handle(
                ServerRequestId(2),
                "tasks/result",
                Some(&params),
                Instant(20),
                T0
            )
            .is_empty());
        // ... and is answered with the handler's result, tagged with the task.
        let (to, result) = one(r.finish(&id, Ok(json!({ "role": "assistant" })), T1));
        assert_eq!(to, ServerRequestId(2));
        let result = result.unwrap();
        assert_eq!(result["role"], "assistant");
        assert_eq!(result["_meta"][RELATED_TASK]["taskId"], id.as_str());
        let (_, got) = one(r.handle(
            ServerRequestId(3),
            "tasks/get",
            Some(&params),
            Instant(30),
            T1,
        ));
        let got = got.unwrap();
        assert_eq!(
            (got["status"].as_str(), got["lastUpdatedAt"].as_str()),
            (Some("completed"), Some(T1))
        );
        let (_, list) = one(r.handle(ServerRequestId(4), "tasks/list", None, Instant(40), T1));
        assert_eq!(list.unwrap()["tasks"].as_array().map(Vec::len), Some(1));
        // The state to tell the server in a status notification: the same Task object,
        // without the related-task tag (the spec's SHOULD NOT).
        let state = r.task_state(&id).unwrap();
        assert_eq!(state, got);
        assert!(state.get("_meta").is_none());
        assert!(r.task_state("client-task-999").is_none());
    }

    #[test]
    fn a_failed_handler_fails_the_task_with_its_error() {
        let mut r = TaskReceiver::new();
        let (id, _) = r
            .create(&sampling_params(json!(1000)), Instant(0), T0)
            .unwrap();
        let refused = ErrorObject::new(-1, "the user declined");
        assert!(r.finish(&id, Err(refused.clone()), T1).is_empty());
        let params = json!({ "taskId": id });
        let (_, got) = one(r.handle(
            ServerRequestId(1),
            "tasks/get",
            Some(&params),
            Instant(5),
            T1,
        ));
        let got = got.unwrap();
        assert_eq!(got["status"], "failed");
        assert_eq!(got["statusMessage"], "the user declined");
        let (_, result) = one(r.handle(
            ServerRequestId(2),
            "tasks/result",
            Some(&params),
            Instant(6),
            T1,
        ));
        assert_eq!(result, Err(refused));
    }

    #[test]
    fn cancelling_answers_waiters_and_ignores_the_late_outcome() {
        let mut r = TaskReceiver::new();
        let (id, _) = r
            .create(&sampling_params(json!(60000)), Instant(0), T0)
            .unwrap();
        let params = json!({ "taskId": id });
        assert!(r
            .handle(
                ServerRequestId(1),
                "tasks/result",
                Some(&params),
                Instant(1),
                T0
            )
            .is_empty());
        let answers = r.handle(
            ServerRequestId(2),
            "tasks/cancel",
            Some(&params),
            Instant(2),
            T1,
        );
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0].0, ServerRequestId(1));
        assert_eq!(
            answers[0].1.as_ref().unwrap_err().code,
            codes::REQUEST_CANCELLED
        );
        assert_eq!(answers[1].1.as_ref().unwrap()["status"], "cancelled");
        assert!(!r.is_running(&id));
        assert!(r.finish(&id, Ok(json!({})), T1).is_empty());
        let (_, again) = one(r.handle(
            ServerRequestId(3),
            "tasks/cancel",
            Some(&params),
            Instant(3),
            T1,
        ));
        assert_eq!(again.unwrap_err().code, codes::INVALID_PARAMS);
    }

    #[test]
    fn unknown_ids_expiry_and_the_task_limit() {
        let mut r = TaskReceiver::new();
        let (_, missing) = one(r.handle(
            ServerRequestId(1),
            "tasks/get",
            Some(&json!({ "taskId": "nope" })),
            Instant(0),
            T0,
        ));
        assert_eq!(missing.unwrap_err().code, codes::INVALID_PARAMS);
        let (_, no_params) =
            one(r.handle(ServerRequestId(2), "tasks/result", None, Instant(0), T0));
        assert_eq!(no_params.unwrap_err().code, codes::INVALID_PARAMS);
        // Lifetimes are bounded: 10 ms asked → 1 s kept; unlimited (null) → 1 h.
        let (short, c) = r
            .create(&sampling_params(json!(10)), Instant(0), T0)
            .unwrap();
        assert_eq!(c["task"]["ttl"], 1000);
        let (_, c) = r
            .create(&sampling_params(Value::Null), Instant(0), T0)
            .unwrap();
        assert_eq!(c["task"]["ttl"], 3_600_000);
        assert!(r.finish(&short, Ok(json!({})), T0).is_empty());
        let (_, gone) = one(r.handle(
            ServerRequestId(3),
            "tasks/get",
            Some(&json!({ "taskId": short })),
            Instant(1_000),
            T1,
        ));
        assert_eq!(gone.unwrap_err().code, codes::INVALID_PARAMS);
        for _ in 1..MAX_TASKS {
            r.create(&sampling_params(json!(60000)), Instant(1_000), T1)
                .unwrap();
        }
        let refused = r.create(&sampling_params(json!(60000)), Instant(1_000), T1);
        assert_eq!(refused.unwrap_err().code, codes::INTERNAL_ERROR);
    }
}
