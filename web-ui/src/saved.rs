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
        assert!(import("[1]").is_err());
        assert!(import("{").is_err());
    }
}
