//! Saved servers: kept in the browser (`localStorage`), exported and imported as JSON. Import
//! also takes the common `mcpServers` config shape used by desktop clients.

use serde_json::{json, Map, Value};

/// A server the person saved.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedServer {
    /// Display name.
    pub name: String,
    /// URL.
    pub url: String,
    /// `auto`, `streamable`, `sse` or `websocket`.
    pub transport: String,
    /// Extra headers (no secrets are stored unless the person typed them as headers).
    pub headers: Vec<(String, String)>,
    /// Local development: `http:`/loopback authorization servers allowed (`allowLocalAuth`).
    pub allow_local_auth: bool,
}

/// The `localStorage` key of the saved servers (see [`crate::tab_sync`]).
pub(crate) const KEY: &str = "mcp-browser-client.servers";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The export document: `{ "mcpServers": { name: { url, type, headers } } }`.
pub fn export(servers: &[SavedServer]) -> String {
    let mut map = Map::new();
    for s in servers {
        let headers: Map<String, Value> = s
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let kind = match s.transport.as_str() {
            "sse" => "sse",
            "websocket" => "ws",
            "streamable" => "streamable-http",
            _ => "http",
        };
        let mut entry = json!({ "url": s.url, "type": kind });
        if !headers.is_empty() {
            entry["headers"] = Value::Object(headers);
        }
        if s.allow_local_auth {
            entry["allowLocalAuth"] = Value::Bool(true);
        }
        map.insert(s.name.clone(), entry);
    }
    serde_json::to_string_pretty(&json!({ "mcpServers": map })).unwrap_or_default()
}

/// Reads an export (or any `mcpServers` config). Entries without an http(s)/ws(s) URL (e.g.
/// stdio commands, which a browser cannot run) are skipped and named in the second list.
pub fn import(text: &str) -> Result<(Vec<SavedServer>, Vec<String>), String> {
    let doc: Value =
        serde_json::from_slice(text.as_bytes()).map_err(|e| format!("not valid JSON: {e}"))?;
    let servers = doc
        .get("mcpServers")
        .or_else(|| doc.get("servers"))
        .and_then(Value::as_object)
        .ok_or("expected an object with \"mcpServers\"")?;
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (name, entry) in servers {
        let url = entry
            .get("url")
            .or_else(|| entry.get("serverUrl"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let lower = url.to_ascii_lowercase();
        if !["http://", "https://", "ws://", "wss://"]
            .iter()
            .any(|p| lower.starts_with(p))
        {
            skipped.push(name.clone());
            continue;
        }
        let transport = match entry
            .get("type")
            .or_else(|| entry.get("transport"))
            .and_then(Value::as_str)
            .unwrap_or("")
        {
            "sse" => "sse",
            "ws" | "websocket" => "websocket",
            "streamable-http" | "streamableHttp" => "streamable",
            _ if lower.starts_with("ws") => "websocket",
            _ => "auto",
        };
        let headers = entry
            .get("headers")
            .and_then(Value::as_object)
            .map(|h| {
                h.iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        out.push(SavedServer {
            name: name.clone(),
            url: url.to_string(),
            transport: transport.into(),
            headers,
            allow_local_auth: entry
                .get("allowLocalAuth")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        });
    }
    Ok((out, skipped))
}

/// The saved servers (empty when none or unreadable).
pub fn load() -> Vec<SavedServer> {
    let text = storage().and_then(|s| s.get_item(KEY).ok().flatten());
    text.and_then(|t| import(&t).ok())
        .map(|(s, _)| s)
        .unwrap_or_default()
}

/// Saves the servers.
pub fn store(servers: &[SavedServer]) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, &export(servers));
    }
}

/// The `localStorage` key of the servers removed on purpose: `{ name: when, in ms }`.
const REMOVED_KEY: &str = "mcp-browser-client.servers-removed";
/// Removals remembered (the oldest go first), and servers a page remembers saving.
pub const MAX_REMEMBERED: usize = 64;

/// `servers` with `server` added, unless one with its URL is saved already (the app saves a
/// server when it is opened).
pub fn with_server(mut servers: Vec<SavedServer>, server: SavedServer) -> Vec<SavedServer> {
    if !servers.iter().any(|x| x.url == server.url) {
        servers.push(server);
    }
    servers
}

/// `servers` with `new` in them, each in place of a server of its name (an import).
pub fn with_imported(mut servers: Vec<SavedServer>, new: &[SavedServer]) -> Vec<SavedServer> {
    for x in new {
        servers.retain(|y| y.name != x.name);
        servers.push(x.clone());
    }
    servers
}

/// The removals document `removed` with server `name` removed at `now_ms`, the newest
/// [`MAX_REMEMBERED`] kept.
pub fn with_removal(removed: Value, name: &str, now_ms: f64) -> Value {
    let mut map = match removed {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    map.insert(name.to_string(), json!(now_ms));
    crate::per_server::keep_newest(&mut map, MAX_REMEMBERED, |v| v.as_f64().unwrap_or(0.0));
    Value::Object(map)
}

/// The servers this page saved (opened or imported), each with when, so that it can put one
/// back that another tab's write dropped without meaning to.
///
/// Each tab writes the whole list, and another tab may write it over its own copy of
/// `localStorage` that lags behind this page's last write (Chromium brings one tab's writes
/// to the others on a path of its own; the `storage` event's old value is storage's, not
/// the writer's, so it cannot tell). A server removed on purpose is written to the removals
/// first, with when ([`with_removal`]); one missing without a removal since this page saved
/// it was dropped by such a write.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SavedHere(Vec<(SavedServer, f64)>);

impl SavedHere {
    /// This page saved `server` at `at_ms`.
    pub fn saved(&mut self, server: SavedServer, at_ms: f64) {
        self.0.retain(|(s, _)| s.name != server.name);
        self.0.push((server, at_ms));
        if self.0.len() > MAX_REMEMBERED {
            self.0.remove(0);
        }
    }

    /// The servers this page saved that `stored` lacks and that were not removed on purpose
    /// since (in `removed`, see [`with_removal`]): to be saved again. Those removed on purpose
    /// are forgotten here.
    pub fn dropped_from(&mut self, stored: &[SavedServer], removed: &Value) -> Vec<SavedServer> {
        let removed_since = |(s, at): &(SavedServer, f64)| {
            removed
                .get(&s.name)
                .and_then(Value::as_f64)
                .is_some_and(|r| r >= *at)
        };
        self.0.retain(|entry| !removed_since(entry));
        self.0
            .iter()
            .filter(|(s, _)| !stored.iter().any(|x| x.name == s.name))
            .map(|(s, _)| s.clone())
            .collect()
    }
}

/// Saves `server` (see [`with_server`]) in what storage holds now, not in a list this page
/// read before; the saved servers then, `None` when one with its URL was saved already.
pub fn add(server: SavedServer) -> Option<Vec<SavedServer>> {
    let before = load();
    if before.iter().any(|x| x.url == server.url) {
        return None;
    }
    let servers = with_server(before, server);
    store(&servers);
    Some(servers)
}

/// Saves the imported servers `new` (see [`with_imported`]) in what storage holds now; the
/// saved servers then.
pub fn add_imported(new: &[SavedServer]) -> Vec<SavedServer> {
    let servers = with_imported(load(), new);
    store(&servers);
    servers
}

/// Removes the server named `name` on purpose: noted in the removals first, so that no page
/// saves it again (see [`SavedHere`]); the saved servers then.
pub fn remove(name: &str) -> Vec<SavedServer> {
    if let Some(s) = storage() {
        let removed = crate::per_server::stored(&s, REMOVED_KEY);
        let removed = with_removal(removed, name, js_sys::Date::now());
        let _ = s.set_item(REMOVED_KEY, &removed.to_string());
    }
    let mut servers = load();
    servers.retain(|x| x.name != name);
    store(&servers);
    servers
}

/// The saved servers after another tab wrote them: with those this page saved that the write
/// dropped without meaning to saved again (see [`SavedHere`]).
pub fn after_change_elsewhere(here: &mut SavedHere) -> Vec<SavedServer> {
    let servers = load();
    let removed = storage()
        .map(|s| crate::per_server::stored(&s, REMOVED_KEY))
        .unwrap_or(Value::Null);
    let dropped = here.dropped_from(&servers, &removed);
    if dropped.is_empty() {
        return servers;
    }
    let servers = with_imported(servers, &dropped);
    store(&servers);
    servers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_import_round_trip() {
        let servers = vec![
            SavedServer {
                name: "a".into(),
                url: "https://a.test/mcp".into(),
                transport: "auto".into(),
                headers: vec![("X-K".into(), "v".into())],
                allow_local_auth: false,
            },
            SavedServer {
                name: "b".into(),
                url: "ws://127.0.0.1:1/ws".into(),
                transport: "websocket".into(),
                headers: vec![],
                allow_local_auth: true,
            },
        ];
        let (back, skipped) = import(&export(&servers)).unwrap();
        assert_eq!(back, servers);
        assert!(skipped.is_empty());
    }

    #[test]
    fn each_transport_is_exported_by_the_name_other_clients_read_and_comes_back() {
        let servers: Vec<SavedServer> = ["auto", "streamable", "sse", "websocket"]
            .iter()
            .map(|t| SavedServer {
                transport: t.to_string(),
                ..server(t)
            })
            .collect();
        let text = export(&servers);
        let doc: Value = serde_json::from_str(&text).unwrap();
        let kind = |name: &str| doc["mcpServers"][name]["type"].as_str().map(str::to_owned);
        assert_eq!(kind("auto").as_deref(), Some("http"));
        assert_eq!(kind("streamable").as_deref(), Some("streamable-http"));
        assert_eq!(kind("sse").as_deref(), Some("sse"));
        assert_eq!(kind("websocket").as_deref(), Some("ws"));
        let (back, _) = import(&text).unwrap();
        assert_eq!(back, servers, "read back as saved, in the order saved");
    }

    fn server(name: &str) -> SavedServer {
        SavedServer {
            name: name.into(),
            url: format!("https://{name}.test/mcp"),
            transport: "auto".into(),
            headers: vec![],
            allow_local_auth: false,
        }
    }

    #[test]
    fn a_server_dropped_by_a_lagging_write_is_saved_again_unless_removed_on_purpose() {
        let mut here = SavedHere::default();
        here.saved(server("x"), 10.0);
        here.saved(server("y"), 11.0);
        // Another tab's write over a copy that had neither: both are to be saved again.
        let stored = vec![server("z")];
        assert_eq!(
            here.dropped_from(&stored, &Value::Null),
            vec![server("x"), server("y")]
        );
        // Both stored (x under another tab's import, with other settings): nothing to do.
        let mut x_elsewhere = server("x");
        x_elsewhere.transport = "sse".into();
        let stored = vec![x_elsewhere, server("y")];
        assert!(here.dropped_from(&stored, &Value::Null).is_empty());
        // x removed on purpose after this page saved it: not saved again, and forgotten here.
        let removed = with_removal(Value::Null, "x", 20.0);
        let stored = vec![server("y")];
        assert!(here.dropped_from(&stored, &removed).is_empty());
        assert_eq!(here.dropped_from(&[], &Value::Null), vec![server("y")]);
        // Removed before this page saved it again: the newer save counts.
        here.saved(server("x"), 30.0);
        assert_eq!(
            here.dropped_from(&[server("y")], &removed),
            vec![server("x")]
        );
    }

    #[test]
    fn adding_importing_and_removals_are_bounded_and_keep_one_per_url_or_name() {
        let list = with_server(vec![server("a")], server("a"));
        assert_eq!(list.len(), 1);
        let mut renamed = server("a");
        renamed.url = "https://other.test/mcp".into();
        let list = with_imported(with_server(list, server("b")), &[renamed.clone()]);
        assert_eq!(list, vec![server("b"), renamed]);
        let mut removed = Value::Null;
        for n in 0..MAX_REMEMBERED + 3 {
            removed = with_removal(removed, &format!("s{n}"), n as f64);
        }
        let map = removed.as_object().unwrap();
        assert_eq!(map.len(), MAX_REMEMBERED);
        assert!(!map.contains_key("s2") && map.contains_key("s3"));
        assert_eq!(with_removal(json!([1]), "a", 1.0), json!({ "a": 1.0 }));
        let mut here = SavedHere::default();
        for n in 0..MAX_REMEMBERED + 1 {
            here.saved(server(&format!("h{n}")), n as f64);
        }
        let dropped = here.dropped_from(&[], &Value::Null);
        assert_eq!(dropped.len(), MAX_REMEMBERED);
        assert_eq!(dropped[0].name, "h1");
    }

    #[test]
    fn imports_the_common_mcp_servers_shape_and_skips_stdio() {
        let doc = r#"{"mcpServers": {
            "remote": {"type": "http", "url": "https://x.test/mcp", "headers": {"Authorization": "Bearer t"}},
            "old": {"serverUrl": "https://y.test/sse", "type": "sse"},
            "local": {"command": "npx", "args": ["server"]}
        }}"#;
        let (s, skipped) = import(doc).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[0].headers,
            [("Authorization".to_string(), "Bearer t".to_string())]
        );
        assert_eq!(s[1].transport, "sse");
        assert_eq!(skipped, ["local"]);
        // Other clients' names for the transports, and a ws: URL without one.
        let doc = r#"{"servers": {
            "a": {"url": "https://a.test/mcp", "transport": "websocket"},
            "b": {"url": "https://b.test/mcp", "type": "streamableHttp"},
            "c": {"url": "WSS://c.test/ws"},
            "d": {"url": "https://d.test/mcp", "type": "something else"}
        }}"#;
        let (s, _) = import(doc).unwrap();
        let transports: Vec<&str> = s.iter().map(|s| s.transport.as_str()).collect();
        assert_eq!(transports, ["websocket", "streamable", "websocket", "auto"]);
        assert!(import("[1]").is_err());
        assert!(import("{").is_err());
    }
}
