//! Tool calls running as tasks, kept in the browser (`localStorage`) while they run, so that
//! a reload of the page (or the next visit) follows each one to its result: the Tasks
//! extension asks clients to keep task ids for that. Kept beside the call history and under
//! the same setting (the arguments may hold secrets): the app's own page only, never an
//! embedding page's storage.
//!
//! Bounded: [`MAX_PER_SERVER`] tasks for each of the [`MAX_SERVERS`] servers used last; a
//! call whose arguments are larger than [`MAX_ARGUMENT_BYTES`] is not kept.

use core::cmp::Ordering;
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

pub(crate) const KEY: &str = "mcp-browser-client.tasks";

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

/// Tasks a page has settled that it still puts right in storage (see [`TasksHere`]).
pub const MAX_SETTLED: usize = 64;

/// The order a server's tasks are kept in, the same in every tab: by when the call was made,
/// then by id. Tabs therefore agree on which go when more than [`MAX_PER_SERVER`] are kept.
fn task_order(a: &KeptTask, b: &KeptTask) -> Ordering {
    a.at_ms
        .total_cmp(&b.at_ms)
        .then_with(|| a.task_id.cmp(&b.task_id))
}

/// The tasks of one server that this page answers for in storage: those it follows (it
/// holds their locks) and those it followed to their ends (the newest [`MAX_SETTLED`]).
///
/// Another tab writes the kept tasks over its own copy of `localStorage`, which may lag
/// behind this page's last write (Chromium brings one tab's writes to the others on a path
/// of its own): its write can drop a task this page keeps, which a reload would then not
/// follow, or keep again one this page forgot, which a later page would follow a second
/// time. Hearing such a write, this page puts it right ([`mended`]). Only the page that
/// follows a task keeps or forgets it, so the pages never undo each other's mending.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TasksHere {
    /// The tasks this page follows.
    pub followed: Vec<KeptTask>,
    /// The ids of the tasks this page followed to their ends, oldest first.
    pub settled: Vec<String>,
}

impl TasksHere {
    /// This page follows `task` (kept in storage).
    pub fn follow(&mut self, task: KeptTask) {
        self.followed.retain(|t| t.task_id != task.task_id);
        self.followed.push(task);
    }

    /// This page no longer follows task `task_id`, which another page may follow now.
    pub fn let_go(&mut self, task_id: &str) {
        self.followed.retain(|t| t.task_id != task_id);
    }

    /// This page followed task `task_id` to its end (and forgets it in storage).
    pub fn settle(&mut self, task_id: &str) {
        self.let_go(task_id);
        self.settled.retain(|t| t != task_id);
        self.settled.push(task_id.to_string());
        if self.settled.len() > MAX_SETTLED {
            self.settled.remove(0);
        }
    }
}

/// `doc` put right for the tasks of `url` this page answers for (`here`): a task it follows
/// kept again, one it settled forgotten again; `None` when `doc` needs nothing. A followed
/// task is not kept again where it would go at once (more newer ones are kept) nor where
/// keeping its server would drop another server's tasks (the document holds
/// [`MAX_SERVERS`] servers without it): tabs would take turns dropping each other's.
pub fn mended(doc: Value, url: &str, here: &TasksHere, now_ms: f64) -> Option<Value> {
    let stored = tasks_in(&doc, url);
    let has = |id: &str| stored.iter().any(|t| t.task_id == id);
    let servers = doc.as_object().map_or(0, |m| m.len());
    let room = doc.get(url).is_some() || servers < MAX_SERVERS;
    let mut next = doc;
    for task in here.followed.iter().filter(|t| room && !has(&t.task_id)) {
        next = with_task(next, url, task.clone(), now_ms);
    }
    for id in here.settled.iter().filter(|id| has(id)) {
        next = without_task(next, url, id, now_ms);
    }
    (tasks_in(&next, url) != stored).then_some(next)
}

/// The tasks kept for `url` in the stored document `doc`, oldest first; anything malformed
/// is skipped.
pub fn tasks_in(doc: &Value, url: &str) -> Vec<KeptTask> {
    let list = crate::per_server::list_in(doc, url, "tasks");
    let mut out: Vec<KeptTask> = list.iter().filter_map(decode).collect();
    out.sort_by(task_order);
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
    tasks.sort_by(task_order);
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

/// Puts the stored tasks of `url` right for this page's `here` (see [`mended`]), once
/// another tab wrote them; nothing is written when they need nothing.
pub fn mend(url: &str, here: &TasksHere) {
    if let Some(s) = storage() {
        if let Some(doc) = mended(stored_doc(&s), url, here, js_sys::Date::now()) {
            let _ = s.set_item(KEY, &doc.to_string());
        }
    }
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
            let t = task_at(&format!("t{i}"), i as f64);
            doc = with_task(doc, "http://a/mcp", t, i as f64);
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

    const URL: &str = "http://a/mcp";

    fn task_at(id: &str, at_ms: f64) -> KeptTask {
        KeptTask { at_ms, ..task(id) }
    }

    /// A tab with its own copy of storage, which may lag, as Chromium's.
    #[derive(Default)]
    struct Tab {
        here: TasksHere,
        copy: Value,
        heard: std::collections::VecDeque<Value>,
    }

    /// What the tab writes on hearing the next write of another tab, if anything.
    fn hear_next(tab: &mut Tab) -> Option<Value> {
        tab.copy = tab.heard.pop_front()?;
        let doc = mended(tab.copy.clone(), URL, &tab.here, 9.0)?;
        tab.copy = doc.clone();
        Some(doc)
    }

    /// Runs the tabs' writes until none is left (at most `rounds`); the last write.
    fn settle(tabs: &mut [Tab; 2], mut last: Value, rounds: usize) -> Value {
        for _ in 0..rounds {
            let mut wrote = false;
            for i in 0..2 {
                if let Some(doc) = hear_next(&mut tabs[i]) {
                    last = doc.clone();
                    tabs[1 - i].heard.push_back(doc);
                    wrote = true;
                }
            }
            if !wrote && tabs.iter().all(|t| t.heard.is_empty()) {
                return last;
            }
        }
        panic!("the tabs still write after {rounds} rounds");
    }

    fn ids(doc: &Value) -> Vec<String> {
        tasks_in(doc, URL).into_iter().map(|t| t.task_id).collect()
    }

    #[test]
    fn a_followed_task_dropped_by_a_lagging_write_is_kept_again_and_a_settled_one_forgotten() {
        // The first tab keeps t1; the second, whose copy still has only its t2, follows t2 to
        // its end and forgets it there: storage has no task (and no server) left.
        let start = with_task(Value::Null, URL, task_at("t2", 1.0), 1.0);
        let mut tabs = [Tab::default(), Tab::default()];
        tabs[0].here.follow(task_at("t1", 2.0));
        tabs[0].copy = with_task(start.clone(), URL, task_at("t1", 2.0), 2.0);
        tabs[1].here.follow(task_at("t2", 1.0));
        tabs[1].here.settle("t2");
        let lagging = without_task(start.clone(), URL, "t2", 3.0);
        assert_eq!(lagging, json!({}));
        tabs[0].heard.push_back(lagging.clone());
        tabs[1].heard.push_back(tabs[0].copy.clone());
        let stored = settle(&mut tabs, lagging, 10);
        assert_eq!(ids(&stored), vec!["t1"]);

        // The other way round: the first tab, whose copy still has t2, keeps t3 there; the
        // second tab, which settled t2, forgets it again.
        let lagging = with_task(start, URL, task_at("t3", 4.0), 4.0);
        tabs[0].here.follow(task_at("t3", 4.0));
        tabs[1].heard.push_back(lagging.clone());
        let stored = settle(&mut tabs, lagging, 10);
        assert_eq!(ids(&stored), vec!["t1", "t3"]);
    }

    #[test]
    fn tabs_mending_settle_at_the_bounds() {
        // Each tab follows 10 tasks of one server (16 are kept): the newest 16 stay, and
        // neither tab keeps one of its older ones again at another's expense.
        let mut tabs = [Tab::default(), Tab::default()];
        let mut doc = Value::Null;
        for n in 0..20 {
            let t = task_at(&format!("t{n:02}"), n as f64);
            tabs[n % 2].here.follow(t.clone());
            doc = with_task(doc, URL, t, n as f64);
        }
        // A write from a copy that had only the first tab's tasks.
        let mut lagging = Value::Null;
        for t in tabs[0].here.followed.clone() {
            lagging = with_task(lagging, URL, t, 30.0);
        }
        tabs[0].heard.push_back(doc.clone());
        tabs[1].heard.push_back(lagging.clone());
        let stored = settle(&mut tabs, lagging, 20);
        let want: Vec<String> = (4..20).map(|n| format!("t{n:02}")).collect();
        assert_eq!(ids(&stored), want);
        // A server dropped to make room for 16 others is not kept again over one of them.
        let mut crowded = Value::Null;
        for n in 0..MAX_SERVERS {
            crowded = with_task(crowded, &format!("http://s{n}/mcp"), task("x"), n as f64);
        }
        assert_eq!(mended(crowded.clone(), URL, &tabs[0].here, 50.0), None);
        let one_less = without_task(crowded, "http://s0/mcp", "x", 51.0);
        let mended_doc = mended(one_less, URL, &tabs[0].here, 52.0);
        assert_eq!(mended_doc.map(|d| ids(&d).len()), Some(10));
    }

    #[test]
    fn a_page_remembers_each_settled_task_once_and_the_newest_at_its_bound() {
        let mut here = TasksHere::default();
        here.follow(task("t1"));
        here.settle("t1");
        here.settle("t1");
        assert_eq!(here.settled, vec!["t1"], "settled twice, remembered once");
        assert!(here.followed.is_empty());
        let mut here = TasksHere::default();
        for n in 0..MAX_SETTLED {
            here.settle(&format!("s{n}"));
        }
        assert_eq!(
            here.settled.len(),
            MAX_SETTLED,
            "as many as the bound: all kept"
        );
        assert_eq!(here.settled[0], "s0");
        here.settle("one more");
        assert_eq!(here.settled.len(), MAX_SETTLED);
        assert_eq!(here.settled[0], "s1", "the oldest went");
        assert_eq!(here.settled.last().map(String::as_str), Some("one more"));
    }

    /// A stored document with `n` tasks of [`URL`], written by hand (as by an older or a
    /// hostile page: more than the bound), made at 0, 1, 2, … ms.
    fn stored_with(n: usize) -> Value {
        let list: Vec<Value> = (0..n)
            .map(|i| encode(&task_at(&format!("t{i:02}"), i as f64)))
            .collect();
        json!({ URL: { "used": 1, "tasks": list } })
    }

    #[test]
    fn a_stored_list_longer_than_the_bound_is_read_to_its_newest_tasks() {
        let all = tasks_in(&stored_with(MAX_PER_SERVER), URL);
        assert_eq!(all.len(), MAX_PER_SERVER, "as many as the bound: all read");
        assert_eq!(all[0].task_id, "t00");
        let newest = tasks_in(&stored_with(MAX_PER_SERVER + 3), URL);
        assert_eq!(newest.len(), MAX_PER_SERVER);
        assert_eq!(newest[0].task_id, "t03", "the three oldest are not read");
        assert_eq!(newest[MAX_PER_SERVER - 1].task_id, "t18");
    }

    #[test]
    fn keeping_one_more_task_than_the_bound_stores_the_bound() {
        let doc = with_task(
            stored_with(MAX_PER_SERVER),
            URL,
            task_at("new", 99.0),
            100.0,
        );
        let stored = crate::per_server::list_in(&doc, URL, "tasks");
        assert_eq!(
            stored.len(),
            MAX_PER_SERVER,
            "the document itself holds no more"
        );
        assert_eq!(ids(&doc).first().map(String::as_str), Some("t01"));
        assert_eq!(ids(&doc).last().map(String::as_str), Some("new"));
    }

    #[test]
    fn large_arguments_and_malformed_entries_are_not_kept() {
        let mut big = task("big");
        big.arguments = json!({ "text": "x".repeat(MAX_ARGUMENT_BYTES) });
        let doc = with_task(Value::Null, "http://a/mcp", big, 1.0);
        assert!(tasks_in(&doc, "http://a/mcp").is_empty());
        // `{"text":"…"}`: 11 bytes around the text; arguments of exactly the bound are kept.
        let mut at_bound = task("at bound");
        at_bound.arguments = json!({ "text": "x".repeat(MAX_ARGUMENT_BYTES - 11) });
        assert_eq!(at_bound.arguments.to_string().len(), MAX_ARGUMENT_BYTES);
        let doc = with_task(Value::Null, "http://a/mcp", at_bound, 1.0);
        assert_eq!(tasks_in(&doc, "http://a/mcp").len(), 1);
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
