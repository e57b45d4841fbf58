//! Tool calls running as tasks, kept in the browser (`localStorage`) while they run, so that
//! a reload of the page (or the next visit) follows each one to its result: the Tasks
//! extension asks clients to keep task ids for that. Kept beside the call history and under
//! the same setting (the arguments may hold secrets): the app's own page only, never an
//! embedding page's storage.
//!
//! Bounded: [`MAX_PER_SERVER`] tasks for each of the [`MAX_SERVERS`] servers used last; a
//! call whose arguments are larger than [`MAX_ARGUMENT_BYTES`] is not kept.

use serde_json::{json, Value};

/// A tool call of an earlier page that became a task.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptTask {
    /// The server's id of the task.
    pub task_id: String,
    /// The tool called.
    pub tool: String,
    /// The arguments sent.
    pub arguments: Value,
    /// When the call was made, in milliseconds since the epoch.
    pub at_ms: f64,
}

/// Tasks kept for one server (the oldest go first).
pub const MAX_PER_SERVER: usize = 16;
/// Servers whose tasks are kept (the one used longest ago goes first).
pub const MAX_SERVERS: usize = 16;
/// Serialized bytes of a call's arguments beyond which the call is not kept.
pub const MAX_ARGUMENT_BYTES: usize = 16 << 10;

const KEY: &str = "mcp-browser-client.tasks";

fn encode(t: &KeptTask) -> Value {
    json!({ "taskId": t.task_id, "tool": t.tool, "arguments": t.arguments, "at": t.at_ms })
}

fn decode(v: &Value) -> Option<KeptTask> {
    Some(KeptTask {
        task_id: v.get("taskId")?.as_str()?.to_string(),
        tool: v.get("tool")?.as_str()?.to_string(),
        arguments: v.get("arguments").filter(|a| a.is_object())?.clone(),
        at_ms: v.get("at").and_then(Value::as_f64).unwrap_or(0.0),
    })
}

/// The tasks kept for `url` in the stored document `doc`, oldest first; anything malformed
/// is skipped.
pub fn tasks_in(doc: &Value, url: &str) -> Vec<KeptTask> {
    let list = crate::per_server::list_in(doc, url, "tasks");
    let mut out: Vec<KeptTask> = list.iter().filter_map(decode).collect();
    if out.len() > MAX_PER_SERVER {
        out.drain(..out.len() - MAX_PER_SERVER);
    }
    out
}

/// `doc` with `url`'s tasks changed by `change` (the server removed when none are left),
/// marked as used at `now_ms`, and at most [`MAX_SERVERS`] servers in it.
fn with_tasks(
    doc: Value,
    url: &str,
    now_ms: f64,
    change: impl FnOnce(&mut Vec<KeptTask>),
) -> Value {
    let mut tasks = tasks_in(&doc, url);
    change(&mut tasks);
    if tasks.len() > MAX_PER_SERVER {
        tasks.drain(..tasks.len() - MAX_PER_SERVER);
    }
    let list = tasks.iter().map(encode).collect();
    use crate::per_server::{with_list, WhenEmpty};
    with_list(
        doc,
        url,
        "tasks",
        list,
        now_ms,
        MAX_SERVERS,
        WhenEmpty::Remove,
    )
}

/// `doc` with `task` kept for `url` (once: a task kept already is left as it is); a call
/// with arguments larger than [`MAX_ARGUMENT_BYTES`] is not kept.
pub fn with_task(doc: Value, url: &str, task: KeptTask, now_ms: f64) -> Value {
    if task.arguments.to_string().len() > MAX_ARGUMENT_BYTES {
        return doc;
    }
    with_tasks(doc, url, now_ms, |tasks| {
        if !tasks.iter().any(|t| t.task_id == task.task_id) {
            tasks.push(task);
        }
    })
}

/// `doc` without task `task_id` of `url`.
pub fn without_task(doc: Value, url: &str, task_id: &str, now_ms: f64) -> Value {
    with_tasks(doc, url, now_ms, |tasks| {
        tasks.retain(|t| t.task_id != task_id)
    })
}

/// The browser's storage, unless keeping calls there is turned off.
fn storage() -> Option<web_sys::Storage> {
    crate::per_server::storage().filter(|_| crate::call_history::kept_in_browser())
}

fn stored_doc(s: &web_sys::Storage) -> Value {
    crate::per_server::stored(s, KEY)
}

/// Rewrites the stored document with `change` (best effort: storage may be full or
/// disabled, or keeping turned off: then nothing is written).
fn update(change: impl FnOnce(Value) -> Value) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, &change(stored_doc(&s)).to_string());
    }
}

/// The tasks kept in this browser for `url`, oldest first.
pub fn load(url: &str) -> Vec<KeptTask> {
    storage()
        .map(|s| tasks_in(&stored_doc(&s), url))
        .unwrap_or_default()
}

/// Keeps `task` for `url` until [`forget`].
pub fn keep(url: &str, task: KeptTask) {
    update(|doc| with_task(doc, url, task, js_sys::Date::now()));
}

/// Stops keeping task `task_id` of `url` (it is over, or gone).
pub fn forget(url: &str, task_id: &str) {
    update(|doc| without_task(doc, url, task_id, js_sys::Date::now()));
}

/// Removes every kept task (keeping calls in the browser was turned off).
pub fn forget_all() {
    if let Some(s) = crate::per_server::storage() {
        let _ = s.remove_item(KEY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str) -> KeptTask {
        KeptTask {
            task_id: id.into(),
            tool: "report".into(),
            arguments: json!({ "seconds": 3 }),
            at_ms: 5.0,
        }
    }

    #[test]
    fn a_task_is_kept_once_per_server_and_forgotten() {
        let doc = with_task(Value::Null, "http://a/mcp", task("t1"), 1.0);
        let doc = with_task(doc, "http://a/mcp", task("t1"), 2.0);
        let doc = with_task(doc, "http://b/mcp", task("t2"), 3.0);
        assert_eq!(tasks_in(&doc, "http://a/mcp"), vec![task("t1")]);
        assert_eq!(tasks_in(&doc, "http://b/mcp"), vec![task("t2")]);
        let doc = without_task(doc, "http://a/mcp", "t1", 4.0);
        assert!(tasks_in(&doc, "http://a/mcp").is_empty());
        // A server with no task left is not kept at all.
        assert!(doc.get("http://a/mcp").is_none());
    }

    #[test]
    fn kept_tasks_are_bounded_per_server_and_in_servers() {
        let mut doc = Value::Null;
        for i in 0..MAX_PER_SERVER + 3 {
            doc = with_task(doc, "http://a/mcp", task(&format!("t{i}")), i as f64);
        }
        let kept = tasks_in(&doc, "http://a/mcp");
        assert_eq!(kept.len(), MAX_PER_SERVER);
        assert_eq!(kept[0].task_id, "t3", "the oldest went");
        for i in 0..MAX_SERVERS {
            doc = with_task(
                doc,
                &format!("http://s{i}/mcp"),
                task("x"),
                100.0 + i as f64,
            );
        }
        let map = doc.as_object().map(|m| m.len());
        assert_eq!(map, Some(MAX_SERVERS));
        assert!(
            doc.get("http://a/mcp").is_none(),
            "the server used longest ago went"
        );
    }

    #[test]
    fn large_arguments_and_malformed_entries_are_not_kept() {
        let mut big = task("big");
        big.arguments = json!({ "text": "x".repeat(MAX_ARGUMENT_BYTES) });
        let doc = with_task(Value::Null, "http://a/mcp", big, 1.0);
        assert!(tasks_in(&doc, "http://a/mcp").is_empty());
        let stored = json!({ "http://a/mcp": { "used": 1, "tasks": [
            { "taskId": 7, "tool": "report", "arguments": {} },
            { "taskId": "ok", "tool": "report", "arguments": [] },
            "hostile",
            { "taskId": "good", "tool": "report", "arguments": {}, "at": "never" }
        ] } });
        let kept = tasks_in(&stored, "http://a/mcp");
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].task_id, "good");
        assert_eq!(kept[0].at_ms, 0.0);
        assert!(tasks_in(&json!("not a document"), "http://a/mcp").is_empty());
    }
}
