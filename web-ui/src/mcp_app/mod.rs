//! MCP Apps (the `io.modelcontextprotocol/ui` extension, stable 2026-01-26): a tool whose
//! `_meta.ui.resourceUri` names a `ui://` resource is shown, from the moment it is called,
//! with that resource's HTML page (the "View") in a sandboxed frame, which talks JSON-RPC
//! with the app over `postMessage`.
//!
//! This module is the host's side of that conversation with no browser in it: which tools
//! have a View (here), the HTML and the Content-Security-Policy it is shown with
//! ([`document`]), how many of its messages are taken ([`budget`]), the app's colours and
//! fonts it is given ([`styles`]), the browser capabilities its frame may ask for
//! ([`permissions`]), and a [`Bridge`] that
//! turns each message of the View into what to do ([`Action`]): answer it, call a tool or
//! read a resource on the server for it, resize its frame, show what it said. The component
//! (`components::app_view`) does the I/O.
//!
//! How the View is isolated (a decision, see the README): the specification asks web hosts
//! for a "sandbox proxy" page on a second origin that loads the View. This client has no
//! server and so no second origin of its own; the View is instead loaded as a `data:`
//! document in an `<iframe sandbox="allow-scripts allow-forms">`. Without
//! `allow-same-origin` its origin is opaque: it cannot reach this page, its storage or its
//! cookies, and the `data:` document does not inherit this page's policy. (A View too large
//! for a URL, or one given browser capabilities (see [`permissions`]), is given as `srcdoc`,
//! with the same sandbox; it inherits the page's policy, if any.) The policy the
//! specification asks for is put into the document itself, as its first
//! `<meta http-equiv>`, ahead of anything of the server's.

use client_browser::client_core::types::Tool;
use serde_json::{json, Map, Value};

pub mod bridge;
pub mod budget;
pub mod document;
pub mod kept;
pub mod permissions;
pub mod styles;

pub use bridge::*;
pub use budget::*;
pub use document::*;
pub use kept::{KeptView, KeptViews};
pub use permissions::{Permission, PermissionAnswers};
pub use styles::host_styles;

/// The extension's identifier, declared in the client's capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of a View's HTML.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The version of the View protocol this host speaks.
pub const PROTOCOL_VERSION: &str = "2026-01-26";

/// What the client declares for the extension (`capabilities.extensions[EXTENSION]`).
pub fn capability() -> Value {
    json!({ "mimeTypes": [MIME_TYPE] })
}

fn ui_meta(tool: &Tool) -> Option<&Map<String, Value>> {
    tool.meta.as_ref()?.get("ui")?.as_object()
}

/// The `ui://` resource that shows `tool`'s results, if it has one: `_meta.ui.resourceUri`,
/// or the older flat `_meta["ui/resourceUri"]`.
pub fn resource_uri(tool: &Tool) -> Option<&str> {
    let nested = ui_meta(tool).and_then(|ui| ui.get("resourceUri"));
    let flat = tool.meta.as_ref().and_then(|m| m.get("ui/resourceUri"));
    nested
        .or(flat)
        .and_then(Value::as_str)
        .filter(|uri| uri.starts_with("ui://"))
}

/// Whether a View may call `tool` (its `_meta.ui.visibility` includes `"app"`, or says
/// nothing).
pub fn callable_by_view(tool: &Tool) -> bool {
    match ui_meta(tool).and_then(|ui| ui.get("visibility")) {
        Some(Value::Array(who)) => who.iter().any(|w| w == "app"),
        _ => true,
    }
}

/// Whether `tool` is meant for Views only (`visibility: ["app"]`): the list marks it.
pub fn for_views_only(tool: &Tool) -> bool {
    matches!(
        ui_meta(tool).and_then(|ui| ui.get("visibility")),
        Some(Value::Array(who)) if !who.iter().any(|w| w == "model")
    )
}

/// A View's settings (`csp`, `prefersBorder`, …) in a `_meta`: its `ui` object. The
/// contents read are asked first; SDKs that declare them when registering the resource put
/// them on its `resources/list` entry, which the host then asks (the extension says so).
pub fn ui_of(meta: Option<&Map<String, Value>>) -> Option<&Value> {
    meta?.get("ui").filter(|ui| ui.is_object())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(v: Value) -> Tool {
        serde_json::from_value(v).expect("a tool")
    }

    fn get_time() -> Tool {
        tool(
            json!({"name": "get-time", "inputSchema": {"type": "object"},
            "_meta": {"ui": {"resourceUri": "ui://get-time/app.html"}}}),
        )
    }

    #[test]
    fn tools_name_their_view_nested_or_flat_and_only_ui_uris() {
        assert_eq!(resource_uri(&get_time()), Some("ui://get-time/app.html"));
        let flat =
            tool(json!({"name": "a", "inputSchema": {}, "_meta": {"ui/resourceUri": "ui://a"}}));
        assert_eq!(resource_uri(&flat), Some("ui://a"));
        let web = tool(
            json!({"name": "a", "inputSchema": {}, "_meta": {"ui": {"resourceUri": "https://x"}}}),
        );
        assert_eq!(resource_uri(&web), None);
        assert_eq!(
            resource_uri(&tool(json!({"name": "a", "inputSchema": {}}))),
            None
        );
    }

    #[test]
    fn visibility_decides_who_may_call() {
        let with = |v: Value| {
            tool(json!({"name": "a", "inputSchema": {}, "_meta": {"ui": {"visibility": v}}}))
        };
        assert!(callable_by_view(&get_time()) && !for_views_only(&get_time()));
        assert!(callable_by_view(&with(json!(["app"]))) && for_views_only(&with(json!(["app"]))));
        assert!(!callable_by_view(&with(json!(["model"]))));
        assert!(!for_views_only(&with(json!(["model", "app"]))));
    }

    #[test]
    fn a_views_settings_are_its_ui_object() {
        let meta = |v: Value| v.as_object().cloned();
        let read = meta(json!({"ui": {"prefersBorder": false}}));
        assert_eq!(ui_of(read.as_ref()), Some(&json!({"prefersBorder": false})));
        assert_eq!(ui_of(meta(json!({"ui": "x"})).as_ref()), None);
        assert_eq!(ui_of(meta(json!({"other": {}})).as_ref()), None);
        assert_eq!(ui_of(None), None);
    }
}
