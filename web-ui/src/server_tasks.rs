//! The server's tasks as the tasks tab shows them (2025-11-25 tasks): what a listing and the
//! server's status notifications tell, merged so that no older state replaces a newer one.

use client_browser::client_core::types::Task;

/// What a task came to, as the tasks tab shows it under the list (kept while the tab is left).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskOutcome {
    /// The task asked about.
    pub task_id: String,
    /// What `tasks/result` answered, or why it failed in words; `None` while asked for.
    pub result: Option<Result<serde_json::Value, String>>,
}

/// How many tasks are kept: a server announcing tasks without end cannot grow the page.
pub const MAX_TASKS: usize = 500;

/// True when `new` is not older than `known`, by their `lastUpdatedAt` (ISO 8601 times from
/// one server, in one format: their text orders them). A state without a time counts as new.
fn not_older(new: &Task, known: &Task) -> bool {
    match (
        new.last_updated_at.as_deref(),
        known.last_updated_at.as_deref(),
    ) {
        (Some(new), Some(known)) => new >= known,
        _ => true,
    }
}

/// Takes one task's state (a status notification, an answer to `tasks/cancel`): replaces the
/// task's state unless it is older, or adds the task. Beyond [`MAX_TASKS`], the oldest task
/// that is over goes (else the oldest).
pub fn merge(tasks: &mut Vec<Task>, task: Task) {
    if let Some(known) = tasks.iter_mut().find(|t| t.task_id == task.task_id) {
        if not_older(&task, known) {
            *known = task;
        }
        return;
    }
    tasks.push(task);
    if tasks.len() > MAX_TASKS {
        let oldest = |t: &&Task| t.created_at.clone();
        let over = tasks
            .iter()
            .filter(|t| t.is_terminal())
            .min_by_key(oldest)
            .or_else(|| tasks.iter().min_by_key(oldest))
            .map(|t| t.task_id.clone());
        tasks.retain(|t| Some(&t.task_id) != over.as_ref());
    }
}

/// Takes a listing: the tasks listed (those not listed are gone: expired or forgotten),
/// each in the newer of its listed state and the one known here (a notification may have
/// come while the listing was on its way).
pub fn replace_all(tasks: &mut Vec<Task>, listed: Vec<Task>) {
    let mut known = std::mem::take(tasks);
    for task in listed {
        let i = known.iter().position(|t| t.task_id == task.task_id);
        match i.map(|i| known.swap_remove(i)) {
            Some(kept) if !not_older(&task, &kept) => merge(tasks, kept),
            _ => merge(tasks, task),
        }
    }
}

/// The tasks newest first (by creation time; those without one last, as listed).
pub fn newest_first(tasks: &[Task]) -> Vec<Task> {
    let mut sorted = tasks.to_vec();
    sorted.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    sorted
}

/// True while a task shown may still change (the tab then lists again now and then).
pub fn any_running(tasks: &[Task]) -> bool {
    tasks.iter().any(|t| !t.is_terminal())
}

/// What a task's result can be asked for: once it is over, except cancelled (the server
/// keeps no result for it).
pub fn has_result(task: &Task) -> bool {
    matches!(task.status.as_str(), "completed" | "failed")
}

/// How long the server keeps the task, in words: `5 min`, `90 s`, `no limit` (an explicit
/// `null`), `—` (not said).
pub fn kept_for(task: &Task) -> String {
    match task.extra.get("ttl") {
        Some(serde_json::Value::Null) => "no limit".into(),
        _ => match task.ttl_ms() {
            Some(ms) if ms >= 60_000 && ms % 60_000 == 0 => format!("{} min", ms / 60_000),
            Some(ms) if ms >= 1_000 => format!("{} s", ms / 1_000),
            Some(ms) => format!("{ms} ms"),
            None => "—".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task(id: &str, status: &str, created: &str, updated: &str) -> Task {
        serde_json::from_value(json!({
            "taskId": id, "status": status, "createdAt": created, "lastUpdatedAt": updated,
            "ttl": 300000
        }))
        .expect("a valid task")
    }

    #[test]
    fn an_older_state_never_replaces_a_newer_one() {
        let mut tasks = vec![task("a", "working", "t1", "t3")];
        merge(&mut tasks, task("a", "working", "t1", "t2"));
        assert_eq!(tasks[0].last_updated_at.as_deref(), Some("t3"));
        merge(&mut tasks, task("a", "completed", "t1", "t4"));
        assert_eq!(tasks[0].status, "completed");
        merge(&mut tasks, task("b", "working", "t5", "t5"));
        assert_eq!(tasks.len(), 2);
    }

    #[test]
    fn a_listing_drops_the_gone_and_keeps_a_newer_notified_state() {
        let mut tasks = vec![
            task("a", "completed", "t1", "t9"),
            task("gone", "completed", "t0", "t0"),
        ];
        replace_all(
            &mut tasks,
            vec![
                task("a", "working", "t1", "t2"),
                task("c", "working", "t3", "t3"),
            ],
        );
        let ids: Vec<&str> = tasks.iter().map(|t| t.task_id.as_str()).collect();
        assert_eq!(ids, ["a", "c"]);
        assert_eq!(tasks[0].status, "completed");
        assert_eq!(
            newest_first(&tasks)
                .iter()
                .map(|t| t.task_id.as_str())
                .collect::<Vec<_>>(),
            ["c", "a"]
        );
        assert!(any_running(&tasks));
        // A listed state newer than the one known here replaces it.
        replace_all(&mut tasks, vec![task("c", "completed", "t3", "t4")]);
        assert_eq!(tasks.len(), 1);
        assert_eq!(tasks[0].status, "completed");
        assert!(!any_running(&tasks), "every task shown is over");
        assert!(!any_running(&[]));
    }

    #[test]
    fn the_kept_tasks_are_bounded_dropping_one_that_is_over_first() {
        let mut tasks = Vec::new();
        merge(&mut tasks, task("done", "completed", "0001", "0001"));
        for i in 0..MAX_TASKS {
            merge(
                &mut tasks,
                task(&format!("w{i}"), "working", &format!("1{i:04}"), "x"),
            );
        }
        assert_eq!(tasks.len(), MAX_TASKS);
        assert!(tasks.iter().all(|t| t.task_id != "done"));
        merge(&mut tasks, task("new", "working", "9999", "x"));
        assert_eq!(tasks.len(), MAX_TASKS);
        assert!(tasks.iter().all(|t| t.task_id != "w0"));
    }

    #[test]
    fn kept_for_in_words() {
        let mut t = task("a", "working", "t", "t");
        assert_eq!(kept_for(&t), "5 min");
        t.extra.insert("ttl".into(), json!(90_000));
        assert_eq!(kept_for(&t), "90 s");
        t.extra.insert("ttl".into(), json!(1_000));
        assert_eq!(kept_for(&t), "1 s");
        t.extra.insert("ttl".into(), json!(999));
        assert_eq!(kept_for(&t), "999 ms");
        t.extra.insert("ttl".into(), json!(null));
        assert_eq!(kept_for(&t), "no limit");
        t.extra.remove("ttl");
        assert_eq!(kept_for(&t), "—");
        assert!(has_result(&task("a", "failed", "t", "t")));
        assert!(!has_result(&task("a", "cancelled", "t", "t")));
    }
}
