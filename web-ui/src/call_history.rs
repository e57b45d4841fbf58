//! The tool calls made to each server, kept in the browser (`localStorage`) so that the
//! history is still there after a reload or the next visit, like a desktop API client's.
//!
//! Bounded everywhere: a connection keeps its newest [`MAX_ENTRIES`] calls; the browser keeps
//! the newest [`MAX_STORED_BYTES`] of them (serialized) for each of the [`MAX_SERVERS`]
//! servers used last. A call whose arguments alone are larger is kept for the page only.
//! Only the app keeps history this way: an embedding page's storage is not ours to write.
//! The person can turn it off (settings tab: tool arguments may hold secrets); off, nothing is
//! read or written and what was kept is removed.

use crate::per_server::{storage, WhenEmpty};
use core::cmp::Ordering;
use serde_json::{json, Value};

/// One past tool call.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// Tool name.
    pub tool: String,
    /// The arguments sent.
    pub arguments: Value,
    /// "ok", "tool error", or the failure.
    pub summary: String,
    /// When the call was made, in milliseconds since the epoch (0 when unknown).
    pub at_ms: f64,
    /// How long it took until its answer, in milliseconds (when known).
    pub took_ms: Option<f64>,
}

/// Calls a connection keeps (the oldest go first).
pub const MAX_ENTRIES: usize = 100;
/// Serialized bytes of one server's history kept in the browser.
pub const MAX_STORED_BYTES: usize = 64 << 10;
/// Servers whose history the browser keeps (the one used longest ago goes first).
pub const MAX_SERVERS: usize = 16;
/// Characters of a call's arguments shown in its line (the rest is in its form on "Edit").
pub const SHOWN_CHARS: usize = 240;

/// The `localStorage` key of the stored document (see [`crate::tab_sync`]).
pub(crate) const KEY: &str = "mcp-browser-client.history";
/// `"off"` when the person turned keeping history in the browser off.
const OFF_KEY: &str = "mcp-browser-client.history-off";

/// The order a history is kept in, the same in every tab: by when each call was made, then
/// by tool and arguments. Two tabs holding the same calls therefore keep the same newest ones
/// when they drop the oldest, and agree on what storage should hold (see [`to_write_back`]).
fn call_order(a: &HistoryEntry, b: &HistoryEntry) -> Ordering {
    a.at_ms
        .total_cmp(&b.at_ms)
        .then_with(|| a.tool.cmp(&b.tool))
        .then_with(|| a.arguments.to_string().cmp(&b.arguments.to_string()))
}

/// Adds `entry` in its place (see [`call_order`]; a call made last is the newest), dropping
/// the oldest beyond [`MAX_ENTRIES`].
pub fn push(entries: &mut Vec<HistoryEntry>, entry: HistoryEntry) {
    let at = entries.partition_point(|e| call_order(e, &entry) != Ordering::Greater);
    entries.insert(at, entry);
    if entries.len() > MAX_ENTRIES {
        let extra = entries.len() - MAX_ENTRIES;
        entries.drain(..extra);
    }
}

/// Whether `a` and `b` are the same call: made at the same moment, of the same tool, with
/// the same arguments (what storage rounds, how long it took, may differ).
fn same_call(a: &HistoryEntry, b: &HistoryEntry) -> bool {
    a.at_ms == b.at_ms && a.tool == b.tool && a.arguments == b.arguments
}

/// Adds the calls of `there` (another tab's, from storage) that `here` does not have, each
/// in its place (see [`push`]); true if any came in (and was not at once the oldest beyond
/// [`MAX_ENTRIES`]).
pub fn take_in(here: &mut Vec<HistoryEntry>, there: &[HistoryEntry]) -> bool {
    let mut any = false;
    for entry in there {
        if !here.iter().any(|h| same_call(h, entry)) {
            push(here, entry.clone());
            any |= here.iter().any(|h| same_call(h, entry));
        }
    }
    any
}

/// What a page's history `here` of `url` becomes when another tab of the app changed the
/// stored document from `before` to `after` (`None`: removed, as when keeping history was
/// turned off there, which leaves the pages' histories as they are); `None` when it stays as
/// it is. The calls that tab made come in; a history cleared there (the server left with no
/// calls, [`cleared_in`]) is cleared here too. A server gone from the document was dropped
/// to make room for others: this page's history stays, and is written again with its next
/// call.
pub fn after_change_elsewhere(
    here: &[HistoryEntry],
    url: &str,
    before: Option<&Value>,
    after: Option<&Value>,
) -> Option<Vec<HistoryEntry>> {
    let after = after?;
    let now = entries_in(after, url);
    if now.is_empty() {
        let had = before.is_some_and(|b| !entries_in(b, url).is_empty());
        let cleared = after.get(url).is_some();
        return (cleared && had && !here.is_empty()).then(Vec::new);
    }
    let mut next = here.to_vec();
    take_in(&mut next, &now).then_some(next)
}

fn encode(e: &HistoryEntry) -> Value {
    let mut v =
        json!({ "tool": e.tool, "arguments": e.arguments, "summary": e.summary, "at": e.at_ms });
    if let Some(took) = e.took_ms {
        v["took"] = json!(took.round());
    }
    v
}

fn decode(v: &Value) -> Option<HistoryEntry> {
    Some(HistoryEntry {
        tool: v.get("tool")?.as_str()?.to_string(),
        arguments: v.get("arguments").filter(|a| a.is_object())?.clone(),
        summary: v.get("summary")?.as_str()?.to_string(),
        at_ms: v.get("at").and_then(Value::as_f64).unwrap_or(0.0),
        took_ms: v
            .get("took")
            .and_then(Value::as_f64)
            .filter(|t| t.is_finite() && *t >= 0.0),
    })
}

/// The newest entries whose serialized size fits [`MAX_STORED_BYTES`], oldest first, as
/// they are written to storage. An entry too large by itself is left out (and the ones
/// before it still count).
pub fn to_store(entries: &[HistoryEntry]) -> Vec<Value> {
    let mut kept = Vec::new();
    let mut bytes = 0;
    for e in entries.iter().rev() {
        let v = encode(e);
        let size = v.to_string().len() + 1;
        if size > MAX_STORED_BYTES {
            continue;
        }
        if bytes + size > MAX_STORED_BYTES {
            break;
        }
        bytes += size;
        kept.push(v);
    }
    kept.reverse();
    kept
}

/// The entries kept for `url` in the stored document `doc`; anything malformed is skipped.
pub fn entries_in(doc: &Value, url: &str) -> Vec<HistoryEntry> {
    let list = crate::per_server::list_in(doc, url, "calls");
    let mut out: Vec<HistoryEntry> = list.iter().filter_map(decode).collect();
    out.sort_by(call_order);
    if out.len() > MAX_ENTRIES {
        out.drain(..out.len() - MAX_ENTRIES);
    }
    out
}

/// What this page writes to storage, having heard that another tab wrote `url`'s history:
/// its history `here` with the stored calls of `doc` (storage as it is now) taken in, when
/// `doc` lacks some of its calls that storage would keep; `None` when nothing needs writing.
///
/// Another tab records its call over its own copy of `localStorage`, which may lag behind
/// this page's last write (Chromium brings one tab's writes to the others on a path of its
/// own), and so drops this page's newest call from storage. Both pages still show it (each
/// takes the other's calls in), but a reload would lose it; this page, hearing the write,
/// puts it back. Every tab keeps the same order and bound ([`call_order`]), so the writes
/// settle: a tab writes only calls the stored document lacks, and then holds them all.
/// A server with no stored calls (cleared there, or dropped to make room for others) is
/// left as it is.
pub fn to_write_back(here: &[HistoryEntry], doc: &Value, url: &str) -> Option<Vec<HistoryEntry>> {
    let stored = entries_in(doc, url);
    if stored.is_empty() {
        return None;
    }
    let mut merged = here.to_vec();
    take_in(&mut merged, &stored);
    let kept: Vec<HistoryEntry> = to_store(&merged).iter().filter_map(decode).collect();
    let lacking = kept.iter().any(|k| !stored.iter().any(|s| same_call(s, k)));
    lacking.then_some(merged)
}

/// `doc` with `url`'s history replaced by `entries` (removed when there are none), marked as
/// used at `now_ms`, and at most [`MAX_SERVERS`] servers in it.
pub fn with_entries(doc: Value, url: &str, entries: &[HistoryEntry], now_ms: f64) -> Value {
    let calls = to_store(entries);
    crate::per_server::with_list(
        doc,
        url,
        "calls",
        calls,
        now_ms,
        MAX_SERVERS,
        WhenEmpty::Remove,
    )
}

/// `doc` with `url`'s history cleared: the server stays, with no calls, so that another tab
/// tells a clear from a server dropped to make room for others (see
/// [`after_change_elsewhere`]).
pub fn cleared_in(doc: Value, url: &str, now_ms: f64) -> Value {
    crate::per_server::with_list(
        doc,
        url,
        "calls",
        Vec::new(),
        now_ms,
        MAX_SERVERS,
        WhenEmpty::Keep,
    )
}

/// A call's arguments as shown in its line: compact JSON, cut after [`SHOWN_CHARS`]
/// characters with "…".
pub fn shown_arguments(arguments: &Value) -> String {
    let text = arguments.to_string();
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A call's duration in words: "42 ms", "1.5 s", "2 min 5 s".
pub fn duration(ms: f64) -> String {
    let ms = ms.max(0.0);
    if ms < 1000.0 {
        format!("{} ms", ms.round())
    } else if ms < 60_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        let secs = (ms / 1000.0).round() as u64;
        format!("{} min {} s", secs / 60, secs % 60)
    }
}

fn stored_doc(s: &web_sys::Storage) -> Value {
    crate::per_server::stored(s, KEY)
}

/// Whether the history is kept in this browser (on unless the person turned it off).
pub fn kept_in_browser() -> bool {
    storage().is_some_and(|s| s.get_item(OFF_KEY).ok().flatten().is_none())
}

/// Turns keeping the history in this browser on or off; off also removes every server's
/// kept history (the pages' own histories stay until they close).
pub fn keep_in_browser(on: bool) {
    let Some(s) = storage() else { return };
    if on {
        let _ = s.remove_item(OFF_KEY);
    } else {
        let _ = s.set_item(OFF_KEY, "off");
        let _ = s.remove_item(KEY);
    }
}

/// The calls kept in this browser for `url`, oldest first.
pub fn load(url: &str) -> Vec<HistoryEntry> {
    storage()
        .filter(|_| kept_in_browser())
        .map(|s| entries_in(&stored_doc(&s), url))
        .unwrap_or_default()
}

/// A write of this page to the stored histories: the document before it and after. The
/// `storage` event tells only the other tabs; the page's other connections to the same server
/// are told with this ([`crate::tab_sync::history_written_here`]).
pub struct Written {
    /// The stored document before the write.
    pub before: Value,
    /// The stored document after the write.
    pub after: Value,
}

/// Adds `entry` to `here`, `url`'s history on this page, and keeps it in the browser, reading
/// the stored document once: the calls another tab made meanwhile (each tab writes its whole
/// list) are taken in first, so that writing this history does not drop them. While keeping
/// is off, only `here` changes (and `None` is returned: nothing was written).
pub fn record(url: &str, here: &mut Vec<HistoryEntry>, entry: HistoryEntry) -> Option<Written> {
    let Some(s) = storage().filter(|_| kept_in_browser()) else {
        push(here, entry);
        return None;
    };
    let before = stored_doc(&s);
    take_in(here, &entries_in(&before, url));
    push(here, entry);
    let after = with_entries(before.clone(), url, here, js_sys::Date::now());
    let _ = s.set_item(KEY, &after.to_string());
    Some(Written { before, after })
}

/// Clears `url`'s history kept in the browser (see [`cleared_in`]). Nothing is written while
/// keeping is off (`None`).
pub fn clear(url: &str) -> Option<Written> {
    let s = storage().filter(|_| kept_in_browser())?;
    let before = stored_doc(&s);
    let after = cleared_in(before.clone(), url, js_sys::Date::now());
    let _ = s.set_item(KEY, &after.to_string());
    Some(Written { before, after })
}

/// Writes `here`, `url`'s history on this page, back to storage when another tab's write
/// dropped some of its calls (see [`to_write_back`]); returns what the page's history becomes
/// then (with the stored calls taken in), `None` when nothing was written. Nothing is written
/// while keeping is off.
pub fn write_back(url: &str, here: &[HistoryEntry]) -> Option<Vec<HistoryEntry>> {
    let s = storage().filter(|_| kept_in_browser())?;
    let doc = stored_doc(&s);
    let merged = to_write_back(here, &doc, url)?;
    let doc = with_entries(doc, url, &merged, js_sys::Date::now());
    s.set_item(KEY, &doc.to_string()).ok()?;
    Some(merged)
}

/// Keeps `entries` as `url`'s history (best effort: storage may be full or disabled; the
/// page's history stays as it is either way). Nothing is written while keeping is off.
pub fn save(url: &str, entries: &[HistoryEntry]) {
    let Some(s) = storage().filter(|_| kept_in_browser()) else {
        return;
    };
    let doc = with_entries(stored_doc(&s), url, entries, js_sys::Date::now());
    let _ = s.set_item(KEY, &doc.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, n: u64) -> HistoryEntry {
        HistoryEntry {
            tool: tool.into(),
            arguments: json!({ "n": n }),
            summary: "ok".into(),
            at_ms: n as f64,
            took_ms: Some(12.0),
        }
    }

    #[test]
    fn a_connection_keeps_its_newest_calls() {
        let mut h = Vec::new();
        for n in 0..(MAX_ENTRIES as u64 + 5) {
            push(&mut h, call("echo", n));
        }
        assert_eq!(h.len(), MAX_ENTRIES);
        assert_eq!(h[0].arguments, json!({ "n": 5 }));
        assert_eq!(h.last().map(|e| e.at_ms), Some(MAX_ENTRIES as f64 + 4.0));
    }

    #[test]
    fn what_is_stored_comes_back() {
        let h = vec![call("echo", 1), call("add", 2)];
        let doc = with_entries(Value::Null, "https://a.example/mcp", &h, 10.0);
        let doc: Value = serde_json::from_str(&doc.to_string()).unwrap();
        assert_eq!(entries_in(&doc, "https://a.example/mcp"), h);
        assert!(entries_in(&doc, "https://b.example/mcp").is_empty());
    }

    #[test]
    fn storage_keeps_the_newest_calls_that_fit() {
        let big = "x".repeat(1000);
        let h: Vec<HistoryEntry> = (0..200)
            .map(|n| HistoryEntry {
                arguments: json!({ "n": n, "text": big }),
                ..call("echo", n)
            })
            .collect();
        let stored = to_store(&h);
        let bytes: usize = stored.iter().map(|v| v.to_string().len() + 1).sum();
        assert!(bytes <= MAX_STORED_BYTES, "{bytes}");
        assert!(stored.len() > 10);
        assert_eq!(stored.last().unwrap()["arguments"]["n"], 199);
        // Oldest first, without gaps.
        let first = stored[0]["arguments"]["n"].as_u64().unwrap();
        assert_eq!(first as usize + stored.len(), 200);
    }

    #[test]
    fn a_call_too_large_to_store_is_left_out_alone() {
        let huge = HistoryEntry {
            arguments: json!({ "text": "y".repeat(MAX_STORED_BYTES) }),
            ..call("echo", 2)
        };
        let stored = to_store(&[call("echo", 1), huge, call("echo", 3)]);
        let ns: Vec<_> = stored.iter().map(|v| v["at"].as_f64().unwrap()).collect();
        assert_eq!(ns, vec![1.0, 3.0]);
    }

    #[test]
    fn the_servers_used_longest_ago_are_forgotten() {
        let mut doc = Value::Null;
        for n in 0..(MAX_SERVERS as u64 + 3) {
            doc = with_entries(
                doc,
                &format!("https://s{n}.example/"),
                &[call("t", n)],
                n as f64,
            );
        }
        let map = doc.as_object().unwrap();
        assert_eq!(map.len(), MAX_SERVERS);
        assert!(!map.contains_key("https://s2.example/"));
        assert!(map.contains_key("https://s3.example/"));
        // Used again: kept over the ones used since.
        let doc = with_entries(doc, "https://s3.example/", &[call("t", 1)], 100.0);
        let doc = with_entries(doc, "https://new.example/", &[call("t", 1)], 101.0);
        assert!(doc.get("https://s3.example/").is_some());
        assert!(doc.get("https://s4.example/").is_none());
    }

    #[test]
    fn clearing_leaves_the_server_with_no_calls_and_an_empty_history_removes_it() {
        let doc = with_entries(Value::Null, "https://a.example/", &[call("t", 1)], 1.0);
        let cleared = cleared_in(doc.clone(), "https://a.example/", 2.0);
        assert_eq!(
            cleared,
            json!({ "https://a.example/": { "used": 2.0, "calls": [] } })
        );
        assert!(entries_in(&cleared, "https://a.example/").is_empty());
        let emptied = with_entries(doc, "https://a.example/", &[], 2.0);
        assert_eq!(emptied, json!({}));
    }

    #[test]
    fn malformed_storage_is_skipped() {
        let doc = json!({
            "https://a.example/": { "calls": [
                { "tool": "ok", "arguments": {}, "summary": "ok", "at": 5 },
                { "tool": 1, "arguments": {}, "summary": "ok" },
                { "tool": "no-args", "summary": "ok" },
                { "tool": "array-args", "arguments": [], "summary": "ok" },
                "junk",
                { "tool": "no-time", "arguments": { "a": 1 }, "summary": "tool error", "took": -5 }
            ] },
            "https://b.example/": { "calls": "junk" },
            "https://c.example/": 7
        });
        let a = entries_in(&doc, "https://a.example/");
        let names: Vec<_> = a.iter().map(|e| e.tool.as_str()).collect();
        // In the order the calls were made (one without a time counts as the oldest).
        assert_eq!(names, vec!["no-time", "ok"]);
        assert_eq!(a[0].at_ms, 0.0);
        assert_eq!(a[0].took_ms, None);
        assert_eq!(a[1].took_ms, None);
        assert!(entries_in(&doc, "https://b.example/").is_empty());
        assert!(entries_in(&doc, "https://c.example/").is_empty());
        assert!(entries_in(&json!("junk"), "https://a.example/").is_empty());
        // A document that is not an object is replaced.
        let fixed = with_entries(json!([1, 2]), "https://a.example/", &[call("t", 1)], 1.0);
        assert_eq!(entries_in(&fixed, "https://a.example/").len(), 1);
    }

    #[test]
    fn another_tabs_calls_come_in_once_and_its_clear_clears() {
        let url = "https://a.example/mcp";
        let here = vec![call("echo", 1), call("echo", 2)];
        // The other tab loaded the same calls, then made one.
        let before = with_entries(Value::Null, url, &here, 1.0);
        let mut theirs = here.clone();
        push(&mut theirs, call("add", 3));
        let after = with_entries(before.clone(), url, &theirs, 2.0);
        let next = after_change_elsewhere(&here, url, Some(&before), Some(&after)).unwrap();
        let ats: Vec<f64> = next.iter().map(|e| e.at_ms).collect();
        assert_eq!(ats, vec![1.0, 2.0, 3.0]);
        // Storage rounds how long a call took: still the same call, not taken in twice.
        assert_eq!(
            after_change_elsewhere(&next, url, Some(&before), Some(&after)),
            None
        );
        // Another server's history changed: nothing here.
        let other = with_entries(after.clone(), "https://b.example/", &[call("t", 9)], 3.0);
        assert_eq!(
            after_change_elsewhere(&next, url, Some(&after), Some(&other)),
            None
        );
        // Cleared there: cleared here.
        let cleared = cleared_in(other.clone(), url, 4.0);
        assert_eq!(
            after_change_elsewhere(&next, url, Some(&other), Some(&cleared)),
            Some(Vec::new())
        );
        // Dropped there to make room for other servers' histories: this page's stays.
        let mut crowded = other.clone();
        for n in 0..MAX_SERVERS as u64 {
            let server = format!("https://s{n}.example/");
            crowded = with_entries(crowded, &server, &[call("t", n)], 10.0 + n as f64);
        }
        assert!(crowded.get(url).is_none());
        assert_eq!(
            after_change_elsewhere(&next, url, Some(&other), Some(&crowded)),
            None
        );
        // Keeping turned off there (the document removed): this page's history stays.
        assert_eq!(after_change_elsewhere(&next, url, Some(&other), None), None);
        // Bounded as a page's own history.
        let many: Vec<HistoryEntry> = (10..(10 + MAX_ENTRIES as u64))
            .map(|n| call("t", n))
            .collect();
        let mut here = next;
        assert!(take_in(&mut here, &many));
        assert_eq!(here.len(), MAX_ENTRIES);
        assert_eq!(here.last().map(|e| e.at_ms), Some(9.0 + MAX_ENTRIES as f64));
    }

    #[test]
    fn a_history_is_in_the_order_its_calls_were_made_in_every_tab() {
        let mut h = Vec::new();
        push(&mut h, call("echo", 5));
        push(&mut h, call("echo", 3));
        push(&mut h, call("add", 5));
        let order: Vec<(f64, &str)> = h.iter().map(|e| (e.at_ms, e.tool.as_str())).collect();
        assert_eq!(order, vec![(3.0, "echo"), (5.0, "add"), (5.0, "echo")]);
        // Stored in another order (an older version, or edited): read in this one.
        let doc = json!({ "u": { "calls": [encode(&call("b", 9)), encode(&call("a", 2))] } });
        let ats: Vec<f64> = entries_in(&doc, "u").iter().map(|e| e.at_ms).collect();
        assert_eq!(ats, vec![2.0, 9.0]);
        // Full, and the call taken in is older than all: nothing came in.
        let mut full: Vec<HistoryEntry> = (10..10 + MAX_ENTRIES as u64)
            .map(|n| call("t", n))
            .collect();
        assert!(!take_in(&mut full, &[call("t", 1)]));
        assert_eq!(full[0].at_ms, 10.0);
    }

    /// Two tabs on one server, each with its own copy of storage that may lag, as Chromium's.
    struct Tab {
        history: Vec<HistoryEntry>,
        copy: Value,
        heard: std::collections::VecDeque<(Value, Value)>,
    }

    const URL: &str = "https://a.example/mcp";

    /// What `record` does, over the tab's own copy; returns the write (before, after).
    fn record_in(tab: &mut Tab, entry: HistoryEntry) -> (Value, Value) {
        let before = tab.copy.clone();
        take_in(&mut tab.history, &entries_in(&before, URL));
        push(&mut tab.history, entry);
        let after = with_entries(before.clone(), URL, &tab.history, 1.0);
        tab.copy = after.clone();
        (before, after)
    }

    /// What the tab does on hearing its next write of another tab: the `storage` event.
    fn hear_next(tab: &mut Tab) -> Option<(Value, Value)> {
        let (before, after) = tab.heard.pop_front()?;
        tab.copy = after.clone();
        if let Some(next) = after_change_elsewhere(&tab.history, URL, Some(&before), Some(&after)) {
            tab.history = next;
        }
        let merged = to_write_back(&tab.history, &tab.copy, URL)?;
        tab.history = merged;
        let written = with_entries(tab.copy.clone(), URL, &tab.history, 2.0);
        let event = (tab.copy.clone(), written.clone());
        tab.copy = written;
        Some(event)
    }

    /// Two tabs that hold the calls `common`, as storage does; and that stored document.
    fn two_tabs_with(common: &[HistoryEntry]) -> ([Tab; 2], Value) {
        let doc = with_entries(Value::Null, URL, common, 0.0);
        let tab = || Tab {
            history: common.to_vec(),
            copy: doc.clone(),
            heard: Default::default(),
        };
        ([tab(), tab()], doc.clone())
    }

    /// Runs the tabs' events until none is left (at most `rounds`); the last write.
    fn settle(tabs: &mut [Tab; 2], mut last: Value, rounds: usize) -> Value {
        for _ in 0..rounds {
            let mut wrote = false;
            for i in 0..2 {
                if let Some(event) = hear_next(&mut tabs[i]) {
                    last = event.1.clone();
                    tabs[1 - i].heard.push_back(event);
                    wrote = true;
                }
            }
            if !wrote && tabs.iter().all(|t| t.heard.is_empty()) {
                return last;
            }
        }
        panic!("the tabs still write after {rounds} rounds");
    }

    #[test]
    fn a_call_dropped_by_a_tab_writing_over_a_lagging_copy_is_written_back() {
        let common: Vec<HistoryEntry> = (1..=3).map(|n| call("echo", n)).collect();
        let (mut tabs, _) = two_tabs_with(&common);
        // The first tab records a call; the second, not having heard of it yet, records one
        // over its own copy: storage lacks the first one's call.
        let first = record_in(&mut tabs[0], call("add", 10));
        let second = record_in(&mut tabs[1], call("add", 11));
        assert_eq!(entries_in(&second.1, URL).len(), 4);
        tabs[1].heard.push_back(first);
        tabs[0].heard.push_back(second.clone());
        let stored = settle(&mut tabs, second.1, 10);
        let ats: Vec<f64> = entries_in(&stored, URL).iter().map(|e| e.at_ms).collect();
        assert_eq!(ats, vec![1.0, 2.0, 3.0, 10.0, 11.0]);
        assert_eq!(tabs[0].history, tabs[1].history);
        // The second tab's write, had it been complete, is not written again.
        let mut quiet = Tab {
            history: tabs[0].history.clone(),
            copy: Value::Null,
            heard: Default::default(),
        };
        quiet.heard.push_back((Value::Null, stored));
        assert!(hear_next(&mut quiet).is_none());
    }

    #[test]
    fn tabs_writing_back_settle_at_the_bound_whatever_order_they_took_calls_in() {
        // Near the bound of a history, with calls made in both tabs in turn over lagging
        // copies, heard in different orders: the tabs settle on the newest calls, the same.
        for seed in 0..40u64 {
            let mut rng = seed.wrapping_mul(6364136223846793005) ^ 1442695040888963407;
            let mut next = move |n: u64| {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (rng >> 33) % n
            };
            let common: Vec<HistoryEntry> = (0..MAX_ENTRIES as u64 - 2)
                .map(|n| call("echo", n))
                .collect();
            let (mut tabs, mut last) = two_tabs_with(&common);
            let mut made = Vec::new();
            for k in 0..6u64 {
                let i = next(2) as usize;
                // Made at about the same moment in both tabs: any order of `at`.
                let entry = call(if i == 0 { "a" } else { "b" }, 200 + next(4) * 10 + k);
                made.push(entry.clone());
                let event = record_in(&mut tabs[i], entry);
                last = event.1.clone();
                // The other tab hears it now or later (its copy lags meanwhile).
                tabs[1 - i].heard.push_back(event);
                if next(2) == 0 {
                    if let Some(e) = hear_next(&mut tabs[1 - i]) {
                        last = e.1.clone();
                        tabs[i].heard.push_back(e);
                    }
                }
            }
            let stored = settle(&mut tabs, last, 40);
            let mut all = common.clone();
            take_in(&mut all, &made);
            assert_eq!(tabs[0].history, all, "seed {seed}");
            assert_eq!(tabs[1].history, all, "seed {seed}");
            assert_eq!(entries_in(&stored, URL), all, "seed {seed}");
        }
    }

    #[test]
    fn durations_in_words() {
        assert_eq!(duration(41.6), "42 ms");
        assert_eq!(duration(-3.0), "0 ms");
        assert_eq!(duration(1530.0), "1.5 s");
        assert_eq!(duration(125_400.0), "2 min 5 s");
        // Where one unit gives way to the next.
        assert_eq!(duration(999.4), "999 ms");
        assert_eq!(duration(1000.0), "1.0 s");
        assert_eq!(duration(59_940.0), "59.9 s");
        assert_eq!(duration(60_000.0), "1 min 0 s");
    }

    #[test]
    fn calls_are_the_same_only_in_time_tool_and_arguments_at_once() {
        let mut here = vec![call("echo", 1)];
        let others = [
            // The same moment, another tool; the same moment and tool, other arguments;
            // the same tool and arguments at another moment.
            HistoryEntry {
                tool: "add".into(),
                ..call("echo", 1)
            },
            HistoryEntry {
                arguments: json!({ "n": 9 }),
                ..call("echo", 1)
            },
            HistoryEntry {
                at_ms: 5.0,
                ..call("echo", 1)
            },
        ];
        assert!(take_in(&mut here, &others));
        assert_eq!(here.len(), 4);
        // Taken in once: the same calls again add nothing.
        assert!(!take_in(&mut here, &others));
        assert_eq!(here.len(), 4);
    }

    #[test]
    fn storage_holds_what_fits_to_the_byte() {
        // What an entry takes in storage: its JSON and a separator.
        let size = |e: &HistoryEntry| encode(e).to_string().len() + 1;
        let with_text = |n: u64, len: usize| HistoryEntry {
            summary: "s".repeat(len),
            ..call("echo", n)
        };
        // One call exactly as large as storage allows is kept.
        let alone = with_text(1, MAX_STORED_BYTES - size(&with_text(1, 0)));
        assert_eq!(size(&alone), MAX_STORED_BYTES);
        assert_eq!(to_store(std::slice::from_ref(&alone)).len(), 1);
        // Two that fill it exactly are both kept; one byte more, and the older goes.
        let newer = call("echo", 3);
        let older = with_text(2, MAX_STORED_BYTES - size(&newer) - size(&with_text(2, 0)));
        assert_eq!(size(&older) + size(&newer), MAX_STORED_BYTES);
        assert_eq!(to_store(&[older.clone(), newer.clone()]).len(), 2);
        let over = with_text(2, older.summary.len() + 1);
        let stored = to_store(&[over, newer]);
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0]["at"], 3.0);
    }

    #[test]
    fn a_stored_history_longer_than_a_connection_keeps_is_read_to_its_newest_calls() {
        let url = "https://a.example/mcp";
        let h: Vec<HistoryEntry> = (0..MAX_ENTRIES as u64 + 3)
            .map(|n| call("echo", n))
            .collect();
        let read = entries_in(&with_entries(Value::Null, url, &h, 1.0), url);
        assert_eq!(read.len(), MAX_ENTRIES);
        assert_eq!(read[0].at_ms, 3.0);
        assert_eq!(read.last().map(|e| e.at_ms), Some(MAX_ENTRIES as f64 + 2.0));
    }

    #[test]
    fn long_arguments_are_cut_for_their_line() {
        assert_eq!(shown_arguments(&json!({ "a": 1 })), r#"{"a":1}"#);
        let long = shown_arguments(&json!({ "t": "é".repeat(500) }));
        assert_eq!(long.chars().count(), SHOWN_CHARS + 1);
        assert!(long.ends_with('…'));
    }
}
