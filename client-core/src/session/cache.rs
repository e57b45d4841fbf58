//! The response cache of the 2026-07-28 era ("Caching" utility): results of `tools/list`,
//! `prompts/list`, `resources/list`, `resources/templates/list` and `resources/read` carry
//! `ttlMs` (how long the client may consider them fresh) and `cacheScope`.
//!
//! Rules kept here (the specification's, `server/utilities/caching`):
//! - the key is the method and the parameters that affect the result: the `uri` of
//!   `resources/read`, the `cursor` of a list page (none for the first page); each page is
//!   kept on its own, for its own `ttlMs` ("Interaction with Pagination": pages may thus
//!   differ in age, which the specification allows);
//! - a list page refused as invalid (`-32602` for a `cursor`: expired, or the list changed
//!   unannounced) discards every kept page of that list, and the listing starts again from a
//!   fresh first page (in `client-browser`'s `Client::list_all_with`);
//! - fresh while `now < received + ttlMs`; an absent, zero or negative `ttlMs` is
//!   "immediately stale" (nothing kept), and a fresh result replaces an older one;
//! - results of MRTR retries (`inputResponses` / `requestState`) and interim `input_required`
//!   results are never kept (the session checks that before [`ResultCache::store`]);
//! - `cacheScope: "private"` (or absent) results belong to one authorization context: they
//!   are dropped when the credentials change ([`ResultCache::drop_private`]); `"public"` ones
//!   survive that;
//! - a change notification makes the matching entries stale at once (every page of a list,
//!   [`ResultCache::evict_for`]), and a fetch that was under way when that happened does not
//!   write its (possibly older) answer back (a generation per read and per list);
//! - a refusal that suggests the server changed (an unknown tool or prompt, a resource not
//!   found) makes the matching entries stale too ([`ResultCache::evict_for_refusal`]);
//! - a result that is no longer fresh stays kept (within the bounds below) until something
//!   replaces or evicts it: when asking again fails for want of the server (no answer, a 5xx,
//!   408 or 429, a time-out, a cut stream), the session answers with it instead, saying how
//!   old it is ("Clients MAY serve stale responses if errors occur during re-fetching";
//!   [`ResultCache::stale`]). An entry a notification, a refusal or a credential change
//!   evicted is gone, so it is never served.
//!
//! Bounded: at most [`MAX_ENTRIES`] entries and [`MAX_BYTES`] of (estimated) result size; a
//! result larger than [`MAX_ENTRY_BYTES`] is not kept; the oldest entry goes first.

use crate::time::{Duration, Instant};
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;

/// Longest freshness honoured (24 hours); a larger `ttlMs` is clamped to it.
pub const MAX_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// Most entries kept at once (each page of a list is one).
pub const MAX_ENTRIES: usize = 256;
/// Most (estimated) bytes of results kept at once.
pub const MAX_BYTES: usize = 8 << 20;
/// Results estimated larger than this are never kept.
pub const MAX_ENTRY_BYTES: usize = 1 << 20;

/// A result's caching hints: how long it stays fresh (its `ttlMs`, at most [`MAX_TTL`]; zero
/// when absent, negative or not an integer) and whether its `cacheScope` is `"public"`.
pub(crate) fn caching_hints(result: &Value) -> (Duration, bool) {
    let ttl = result.get("ttlMs").and_then(Value::as_u64).unwrap_or(0);
    let public = result.get("cacheScope").and_then(Value::as_str) == Some("public");
    (core::cmp::min(Duration::from_millis(ttl), MAX_TTL), public)
}

/// How one request uses the response cache (a per-request option).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CacheMode {
    /// Serve a fresh cached result without asking the server; otherwise ask and keep the
    /// answer for as long as the server says it stays fresh.
    #[default]
    Use,
    /// Always ask the server; keep the answer (it replaces what was kept).
    Refresh,
    /// Always ask the server and keep nothing; what was kept for the same request is dropped
    /// (the cache never answers with something older than what the application has seen).
    Bypass,
}

/// What a cacheable request is: its method and the key of its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheKey {
    method: &'static str,
    /// The `uri` of `resources/read` or the `cursor` of a list page; `None` for a list's first
    /// page (an empty string is a valid cursor, so "no cursor" is not one).
    arg: Option<String>,
}

/// A ticket taken when a cacheable request starts; storing its answer needs it, and an
/// eviction of the same read, or of any page of the same list, in the meantime voids it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheTicket {
    pub(crate) key: CacheKey,
    generation: u64,
}

#[derive(Debug)]
struct Entry {
    key: CacheKey,
    value: Value,
    received: Instant,
    fresh_until: Instant,
    public: bool,
    bytes: usize,
}

/// Fresh results of cacheable requests, owned by one session.
#[derive(Debug, Default)]
pub(crate) struct ResultCache {
    /// Oldest first.
    entries: Vec<Entry>,
    /// Reads and lists (by their first page's key) evicted while possibly being fetched,
    /// with their eviction count.
    generations: Vec<(CacheKey, u64)>,
    bytes: usize,
}

const LIST_METHODS: [&str; 4] = [
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
];

impl CacheKey {
    /// The key of a request, or `None` if its result may not be cached: another method, or
    /// parameters the key does not cover (`_meta`, MRTR answers, ...).
    pub(crate) fn of(method: &str, params: Option<&Value>) -> Option<CacheKey> {
        let params = match params {
            None => None,
            Some(Value::Object(m)) => Some(m),
            Some(_) => return None,
        };
        let only = |name: &str| match params {
            Some(m) if m.len() == 1 => m.get(name).and_then(Value::as_str).map(String::from),
            _ => None,
        };
        if let Some(&list) = LIST_METHODS.iter().find(|m| **m == method) {
            return match params {
                Some(m) if !m.is_empty() => only("cursor").map(|c| CacheKey {
                    method: list,
                    arg: Some(c),
                }),
                _ => Some(list_key(list)),
            };
        }
        match method {
            "resources/read" => only("uri").map(|uri| CacheKey {
                method: "resources/read",
                arg: Some(uri),
            }),
            _ => None,
        }
    }

    /// What an eviction voids fetches for: the whole list for a list page, else the key.
    fn scope(&self) -> CacheKey {
        if LIST_METHODS.contains(&self.method) {
            list_key(self.method)
        } else {
            self.clone()
        }
    }
}

impl ResultCache {
    /// A fresh result for `key`, if one is kept, and how much longer it stays fresh.
    pub(crate) fn lookup(&self, key: &CacheKey, now: Instant) -> Option<(&Value, Duration)> {
        self.entries
            .iter()
            .find(|e| &e.key == key && now < e.fresh_until)
            .map(|e| (&e.value, e.fresh_until - now))
    }

    /// The result kept for `key`, fresh or not, and how long ago it was received: what may be
    /// served when asking the server again failed.
    pub(crate) fn stale(&self, key: &CacheKey, now: Instant) -> Option<(&Value, Duration)> {
        self.entries
            .iter()
            .find(|e| &e.key == key)
            .map(|e| (&e.value, now - e.received))
    }

    /// Takes the ticket for a request of `key` about to be sent.
    pub(crate) fn ticket(&self, key: CacheKey) -> CacheTicket {
        let generation = self.generation(&key.scope());
        CacheTicket { key, generation }
    }

    /// Keeps `result` (the server's answer to the ticket's request, received at `now`) for as
    /// long as its `ttlMs` says; an answer that may not be kept removes the older entry it
    /// supersedes. Does nothing if the key was evicted since the ticket was taken.
    pub(crate) fn store(&mut self, ticket: CacheTicket, result: &Value, now: Instant) {
        if self.generation(&ticket.key.scope()) != ticket.generation {
            return;
        }
        self.remove(&ticket.key);
        let (ttl, public) = caching_hints(result);
        if ttl.as_millis() == 0 {
            return;
        }
        let bytes = estimated_size(result);
        if bytes > MAX_ENTRY_BYTES {
            return;
        }
        while !self.entries.is_empty()
            && (self.entries.len() >= MAX_ENTRIES || self.bytes + bytes > MAX_BYTES)
        {
            let old = self.entries.remove(0);
            self.bytes -= old.bytes;
        }
        self.bytes += bytes;
        self.entries.push(Entry {
            key: ticket.key,
            value: result.clone(),
            received: now,
            fresh_until: now + ttl,
            public,
            bytes,
        });
    }

    /// Makes the entries a server notification says changed stale (and voids tickets of
    /// fetches under way for them).
    pub(crate) fn evict_for(&mut self, notification: &crate::types::ServerNotification) {
        use crate::types::ServerNotification as N;
        match notification {
            N::ToolListChanged => self.evict_list("tools/list"),
            N::PromptListChanged => self.evict_list("prompts/list"),
            N::ResourceListChanged => {
                // Templates describe the same set of resources.
                self.evict_list("resources/list");
                self.evict_list("resources/templates/list");
            }
            N::ResourceUpdated(p) => self.evict(CacheKey {
                method: "resources/read",
                arg: Some(p.uri.clone()),
            }),
            _ => {}
        }
    }

    /// Makes stale what a request the server refused suggests is out of date (the
    /// specification lets a client re-fetch early on such errors): a tool or a prompt it does
    /// not know, or whose arguments it refuses (`-32601` / `-32602`), makes that list stale;
    /// a resource it does not find (`-32602` since 2026-07-28, `-32002` before) makes its read
    /// and the resource lists stale; a list page whose `cursor` it refuses (`-32602`) discards
    /// every page of that list (the specification's advice for invalid cursors).
    pub(crate) fn evict_for_refusal(&mut self, method: &str, params: Option<&Value>, code: i64) {
        use crate::jsonrpc::codes::{INVALID_PARAMS, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND};
        let param = |name: &str| params.and_then(|p| p.get(name)).and_then(Value::as_str);
        match (method, code) {
            ("tools/call", METHOD_NOT_FOUND | INVALID_PARAMS) => self.evict_list("tools/list"),
            ("prompts/get", METHOD_NOT_FOUND | INVALID_PARAMS) => self.evict_list("prompts/list"),
            ("resources/read", RESOURCE_NOT_FOUND | INVALID_PARAMS) => {
                if let Some(uri) = param("uri") {
                    self.evict(CacheKey {
                        method: "resources/read",
                        arg: Some(uri.into()),
                    });
                }
                self.evict_list("resources/list");
                self.evict_list("resources/templates/list");
            }
            (list, INVALID_PARAMS) if param("cursor").is_some() => {
                if let Some(&list) = LIST_METHODS.iter().find(|m| **m == list) {
                    self.evict_list(list);
                }
            }
            _ => {}
        }
    }

    /// Drops every entry the server scoped to one authorization context (the credentials
    /// changed).
    pub(crate) fn drop_private(&mut self) {
        self.entries.retain(|e| e.public);
        self.bytes = self.entries.iter().map(|e| e.bytes).sum();
    }

    /// Drops everything (a new connection: the server, its era or its version may differ).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    /// Drops every kept page of `list` and voids the tickets of fetches under way for any.
    fn evict_list(&mut self, list: &'static str) {
        self.entries.retain(|e| e.key.method != list);
        self.bytes = self.entries.iter().map(|e| e.bytes).sum();
        self.void_tickets(list_key(list));
    }

    /// Drops the entry for `key` and voids the tickets of fetches under way for it (for a
    /// list page: for any page of that list).
    pub(crate) fn evict(&mut self, key: CacheKey) {
        self.remove(&key);
        self.void_tickets(key.scope());
    }

    fn void_tickets(&mut self, key: CacheKey) {
        match self.generations.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => *g += 1,
            None => {
                // Bounded: a key evicted long ago whose count is forgotten can at worst let
                // one fetch that was under way then write back (it would be fresh anyway).
                if self.generations.len() >= MAX_ENTRIES {
                    self.generations.remove(0);
                }
                self.generations.push((key, 1));
            }
        }
    }

    fn generation(&self, key: &CacheKey) -> u64 {
        self.generations
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, g)| *g)
    }

    fn remove(&mut self, key: &CacheKey) {
        if let Some(i) = self.entries.iter().position(|e| &e.key == key) {
            let old = self.entries.remove(i);
            self.bytes -= old.bytes;
        }
    }
}

/// The key of a list's first page.
fn list_key(method: &'static str) -> CacheKey {
    CacheKey { method, arg: None }
}

/// A cheap estimate of the memory a JSON value holds: its strings' bytes plus a fixed cost
/// per value.
fn estimated_size(v: &Value) -> usize {
    const NODE: usize = 32;
    match v {
        Value::String(s) => NODE + s.len(),
        Value::Array(a) => NODE + a.iter().map(estimated_size).sum::<usize>(),
        Value::Object(m) => {
            NODE + m
                .iter()
                .map(|(k, v)| k.len() + estimated_size(v))
                .sum::<usize>()
        }
        _ => NODE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ResourceUpdatedParams, ServerNotification};
    use serde_json::json;

    fn key(method: &str, params: Option<Value>) -> CacheKey {
        match CacheKey::of(method, params.as_ref()) {
            Some(k) => k,
            None => panic!("{method} {params:?} should be cacheable"),
        }
    }

    fn tools(ttl: Value) -> Value {
        json!({ "tools": [{ "name": "echo" }], "ttlMs": ttl, "cacheScope": "private" })
    }

    #[test]
    fn list_pages_and_plain_reads_are_cacheable() {
        assert!(CacheKey::of("tools/list", None).is_some());
        assert!(CacheKey::of("prompts/list", Some(&json!({}))).is_some());
        assert!(CacheKey::of("resources/templates/list", None).is_some());
        assert!(CacheKey::of("tools/list", Some(&json!({ "cursor": "2" }))).is_some());
        assert!(CacheKey::of("tools/list", Some(&json!({ "cursor": 2 }))).is_none());
        assert!(CacheKey::of("tools/list", Some(&json!({ "cursor": "2", "_meta": {} }))).is_none());
        assert!(CacheKey::of("tools/list", Some(&json!({ "_meta": {} }))).is_none());
        assert!(CacheKey::of("tools/list", Some(&json!("2"))).is_none());
        assert!(CacheKey::of("tools/call", None).is_none());
        assert!(CacheKey::of("tools/call", Some(&json!({ "uri": "a://b" }))).is_none());
        assert!(CacheKey::of("resources/read", Some(&json!({ "uri": "a://b" }))).is_some());
        assert!(CacheKey::of("resources/read", None).is_none());
        assert!(CacheKey::of("resources/read", Some(&json!({ "uri": 5 }))).is_none());
        assert!(CacheKey::of("resources/read", Some(&json!({ "cursor": "a://b" }))).is_none());
        let with_answers = json!({ "uri": "a://b", "inputResponses": {} });
        assert!(CacheKey::of("resources/read", Some(&with_answers)).is_none());
        assert_ne!(
            key("resources/read", Some(json!({ "uri": "a://b" }))),
            key("resources/read", Some(json!({ "uri": "a://c" })))
        );
        // An empty string is a valid cursor: not the first page.
        let first = key("tools/list", None);
        assert_eq!(first, key("tools/list", Some(json!({}))));
        assert_ne!(first, key("tools/list", Some(json!({ "cursor": "" }))));
        assert_ne!(
            key("tools/list", Some(json!({ "cursor": "2" }))),
            key("prompts/list", Some(json!({ "cursor": "2" })))
        );
    }

    #[test]
    fn every_page_of_a_list_is_kept_and_made_stale_together() {
        let mut c = ResultCache::default();
        let page = |cursor: Option<&str>| match cursor {
            None => key("tools/list", None),
            Some(cursor) => key("tools/list", Some(json!({ "cursor": cursor }))),
        };
        let pages = [page(None), page(Some("")), page(Some("2"))];
        let prompts = key("prompts/list", Some(json!({ "cursor": "2" })));
        let fill = |c: &mut ResultCache| {
            for k in pages.iter().chain([&prompts]) {
                c.store(c.ticket(k.clone()), &tools(json!(60_000)), Instant(0));
            }
        };
        let kept = |c: &ResultCache| {
            [&pages[0], &pages[1], &pages[2], &prompts].map(|k| c.lookup(k, Instant(1)).is_some())
        };
        fill(&mut c);
        assert_eq!(kept(&c), [true; 4]);
        // Each page is fresh for its own ttl.
        c.store(c.ticket(page(Some("2"))), &tools(json!(5)), Instant(0));
        assert!(c.lookup(&page(Some("2")), Instant(4)).is_some());
        assert!(c.lookup(&page(Some("2")), Instant(5)).is_none());
        assert!(c.lookup(&page(None), Instant(5)).is_some());

        fill(&mut c);
        c.evict_for(&ServerNotification::ToolListChanged);
        assert_eq!(kept(&c), [false, false, false, true]);
        fill(&mut c);
        c.evict_for_refusal("tools/call", None, -32601);
        assert_eq!(kept(&c), [false, false, false, true]);
        // A refused cursor discards every page of its list (only that list).
        fill(&mut c);
        c.evict_for_refusal("tools/list", Some(&json!({ "cursor": "9" })), -32602);
        assert_eq!(kept(&c), [false, false, false, true]);
        fill(&mut c);
        c.evict_for_refusal("prompts/list", Some(&json!({ "cursor": "" })), -32602);
        assert_eq!(kept(&c), [true, true, true, false]);
        // Other refusals of a page, and a refused first page, keep the pages.
        fill(&mut c);
        c.evict_for_refusal("tools/list", Some(&json!({ "cursor": "9" })), -32603);
        c.evict_for_refusal("tools/list", None, -32602);
        assert_eq!(kept(&c), [true; 4]);
        // One page asked for anew (bypass) drops that page only, and voids every fetch of
        // the list under way (its pages may predate the newer answer).
        let under_way = c.ticket(page(None));
        c.evict(page(Some("")));
        assert_eq!(kept(&c), [true, false, true, true]);
        c.store(under_way, &tools(json!(60_000)), Instant(2));
        assert!(
            c.lookup(&page(None), Instant(3)).is_some(),
            "the older page stays"
        );
        let under_way = c.ticket(page(Some("2")));
        c.evict_for(&ServerNotification::ToolListChanged);
        c.store(under_way, &tools(json!(60_000)), Instant(2));
        assert!(c.lookup(&page(Some("2")), Instant(3)).is_none());
    }

    #[test]
    fn a_result_is_fresh_for_its_ttl_and_then_stale() {
        let mut c = ResultCache::default();
        let k = key("tools/list", None);
        c.store(c.ticket(k.clone()), &tools(json!(1000)), Instant(5000));
        let fresh = tools(json!(1000));
        assert_eq!(c.lookup(&k, Instant(5000)), Some((&fresh, Duration(1000))));
        assert_eq!(c.lookup(&k, Instant(5999)), Some((&fresh, Duration(1))));
        assert!(c.lookup(&k, Instant(6000)).is_none());
    }

    #[test]
    fn absent_zero_negative_or_malformed_ttls_keep_nothing_and_drop_the_older_entry() {
        for ttl in [Value::Null, json!(0), json!(-5), json!("60000"), json!(1.5)] {
            let mut c = ResultCache::default();
            let k = key("tools/list", None);
            c.store(c.ticket(k.clone()), &tools(json!(60_000)), Instant(0));
            c.store(c.ticket(k.clone()), &tools(ttl.clone()), Instant(10));
            assert!(c.lookup(&k, Instant(20)).is_none(), "ttlMs {ttl}");
        }
    }

    #[test]
    fn huge_ttls_are_clamped_to_a_day() {
        let mut c = ResultCache::default();
        let k = key("tools/list", None);
        c.store(c.ticket(k.clone()), &tools(json!(i64::MAX)), Instant(0));
        assert!(c.lookup(&k, Instant(MAX_TTL.as_millis() - 1)).is_some());
        assert!(c.lookup(&k, Instant(MAX_TTL.as_millis())).is_none());
    }

    #[test]
    fn refusals_that_suggest_a_change_evict_the_matching_entries() {
        let mut c = ResultCache::default();
        let (tools_key, prompts, resources) = (
            key("tools/list", None),
            key("prompts/list", None),
            key("resources/list", None),
        );
        let (read, other) = (
            key("resources/read", Some(json!({ "uri": "a://b" }))),
            key("resources/read", Some(json!({ "uri": "a://c" }))),
        );
        let fill = |c: &mut ResultCache| {
            for k in [&tools_key, &prompts, &resources, &read, &other] {
                c.store(c.ticket(k.clone()), &tools(json!(60_000)), Instant(0));
            }
        };
        let kept = |c: &ResultCache| {
            [&tools_key, &prompts, &resources, &read, &other]
                .map(|k| c.lookup(k, Instant(1)).is_some())
        };
        fill(&mut c);
        c.evict_for_refusal("tools/call", None, -32602);
        assert_eq!(kept(&c), [false, true, true, true, true]);
        fill(&mut c);
        c.evict_for_refusal("prompts/get", None, -32601);
        assert_eq!(kept(&c), [true, false, true, true, true]);
        fill(&mut c);
        c.evict_for_refusal("resources/read", Some(&json!({ "uri": "a://b" })), -32002);
        assert_eq!(kept(&c), [true, true, false, false, true]);
        // The code a 2026-07-28 server uses for a resource it does not find.
        fill(&mut c);
        c.evict_for_refusal("resources/read", Some(&json!({ "uri": "a://c" })), -32602);
        assert_eq!(kept(&c), [true, true, false, true, false]);
        // Other refusals say nothing about what is kept.
        fill(&mut c);
        c.evict_for_refusal("tools/call", None, -32603);
        c.evict_for_refusal("tools/list", None, -32602);
        c.evict_for_refusal("resources/read", Some(&json!({ "uri": "a://c" })), -32603);
        assert_eq!(kept(&c), [true; 5]);
    }

    #[test]
    fn notifications_evict_what_they_name_and_void_fetches_under_way() {
        let mut c = ResultCache::default();
        let read = key("resources/read", Some(json!({ "uri": "a://b" })));
        let other = key("resources/read", Some(json!({ "uri": "a://c" })));
        let res = json!({ "contents": [], "ttlMs": 60_000 });
        for k in [&read, &other] {
            c.store(c.ticket(k.clone()), &res, Instant(0));
        }
        let under_way = c.ticket(read.clone());
        let updated = ServerNotification::ResourceUpdated(ResourceUpdatedParams {
            uri: "a://b".into(),
            extra: Default::default(),
        });
        c.evict_for(&updated);
        assert!(c.lookup(&read, Instant(1)).is_none());
        assert!(c.lookup(&other, Instant(1)).is_some());
        // The answer of a read sent before the notification may predate the change.
        c.store(under_way, &res, Instant(2));
        assert!(c.lookup(&read, Instant(3)).is_none());
        // One sent after it is kept.
        c.store(c.ticket(read.clone()), &res, Instant(4));
        assert!(c.lookup(&read, Instant(5)).is_some());

        let (list, templates) = (
            key("resources/list", None),
            key("resources/templates/list", None),
        );
        c.store(c.ticket(list.clone()), &res, Instant(0));
        c.store(c.ticket(templates.clone()), &res, Instant(0));
        c.evict_for(&ServerNotification::ResourceListChanged);
        assert!(c.lookup(&list, Instant(1)).is_none());
        assert!(c.lookup(&templates, Instant(1)).is_none());
        let tools_key = key("tools/list", None);
        c.store(
            c.ticket(tools_key.clone()),
            &tools(json!(60_000)),
            Instant(0),
        );
        let prompts_key = key("prompts/list", None);
        c.store(
            c.ticket(prompts_key.clone()),
            &json!({ "prompts": [], "ttlMs": 60_000 }),
            Instant(0),
        );
        c.evict_for(&ServerNotification::PromptListChanged);
        assert!(c.lookup(&prompts_key, Instant(1)).is_none());
        assert!(c.lookup(&tools_key, Instant(1)).is_some());
        c.evict_for(&ServerNotification::ToolListChanged);
        assert!(c.lookup(&tools_key, Instant(1)).is_none());
    }

    #[test]
    fn new_credentials_drop_private_entries_and_keep_public_ones() {
        let mut c = ResultCache::default();
        let (tools_key, prompts_key) = (key("tools/list", None), key("prompts/list", None));
        c.store(
            c.ticket(tools_key.clone()),
            &tools(json!(60_000)),
            Instant(0),
        );
        let public = json!({ "prompts": [], "ttlMs": 60_000, "cacheScope": "public" });
        c.store(c.ticket(prompts_key.clone()), &public, Instant(0));
        c.drop_private();
        assert!(c.lookup(&tools_key, Instant(1)).is_none());
        assert!(c.lookup(&prompts_key, Instant(1)).is_some());
        c.clear();
        assert!(c.lookup(&prompts_key, Instant(1)).is_none());
    }

    #[test]
    fn the_cache_is_bounded_in_entries_and_bytes() {
        let mut c = ResultCache::default();
        let read = |i: usize| {
            key(
                "resources/read",
                Some(json!({ "uri": alloc::format!("a://{i}") })),
            )
        };
        let small = json!({ "contents": [], "ttlMs": 60_000 });
        // The bytes counted are those of the entries kept, whatever came and went.
        let counted_right =
            |c: &ResultCache| c.bytes == c.entries.iter().map(|e| e.bytes).sum::<usize>();
        for i in 0..MAX_ENTRIES + 10 {
            c.store(c.ticket(read(i)), &small, Instant(0));
        }
        assert_eq!(c.entries.len(), MAX_ENTRIES);
        assert!(counted_right(&c));
        // The same key stored again replaces its entry.
        c.store(c.ticket(read(MAX_ENTRIES + 9)), &small, Instant(0));
        assert_eq!(c.entries.len(), MAX_ENTRIES);
        assert!(counted_right(&c));
        assert!(
            c.lookup(&read(0), Instant(1)).is_none(),
            "the oldest went first"
        );
        assert!(c.lookup(&read(MAX_ENTRIES + 9), Instant(1)).is_some());

        let text = "x".repeat(MAX_ENTRY_BYTES / 2);
        let half = json!({ "contents": [{ "uri": "a://big", "text": text }], "ttlMs": 60_000 });
        for i in 0..40 {
            c.store(c.ticket(read(1000 + i)), &half, Instant(0));
            assert!(c.bytes <= MAX_BYTES);
            assert!(counted_right(&c));
        }
        // Eviction makes room for the new entry, no more: the latest that fit stay (about
        // fifteen of these in 8 MiB).
        for i in 1030..1040 {
            assert!(c.lookup(&read(i), Instant(1)).is_some(), "{i} was evicted");
        }
        let too_big =
            json!({ "contents": [{ "text": "x".repeat(MAX_ENTRY_BYTES) }], "ttlMs": 60_000 });
        c.store(c.ticket(read(2000)), &too_big, Instant(0));
        assert!(c.lookup(&read(2000), Instant(1)).is_none());
    }
}
