//! The MCP App Views a connection keeps: the View of each tool's last call. It is shown under
//! the tool's runner while that tool is chosen, and hidden (still running, with what it
//! holds) while another tool is, so that going back to the tool finds the View as it was.
//! A View goes, through its teardown, when its tool is called again (a new View takes its
//! place), when it is closed, or when more than [`KEPT_VIEWS`] tools have one.

use client_browser::client_core::types::Tool;
use serde_json::Value;

/// How many tools of a connection keep a View running; past that, the View of the tool
/// called longest ago is asked to tear down. Each is a document with its own scripts.
pub const KEPT_VIEWS: usize = 8;

/// Why a View was asked to tear down when its tool was called again.
pub const CALLED_AGAIN: &str = "the tool was called again";
/// Why a View was asked to tear down when too many tools have one.
pub const TOO_MANY: &str = "more apps are open than the client keeps";

/// Why a View was asked to tear down when the server stopped listing its tool.
pub const UNLISTED: &str = "the server no longer lists the tool";
/// Why the Views of a server were asked to tear down when another server was chosen (they
/// are made again when it is chosen again).
pub const OTHER_SERVER: &str = "another server was chosen";
/// Why the Views of a server were asked to tear down when its connection was closed.
pub const CONNECTION_CLOSED: &str = "the connection was closed";

/// One call's View: its tool, the call's arguments, and whether it is on its way out.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptView {
    /// Tells this View from the others (a new number for each call).
    pub n: u32,
    /// The tool called.
    pub tool: Tool,
    /// The call's arguments (the View is told them).
    pub arguments: Value,
    /// The JSON-RPC id the call went out with, if it went out at once (the View is told it).
    pub call_id: Option<Value>,
    /// Asked to tear down, and why: hidden, and gone once it answered (or after a while).
    pub retiring: Option<&'static str>,
}

/// The Views of one connection, in the order of their calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeptViews {
    next: u32,
    views: Vec<KeptView>,
}

impl KeptViews {
    /// A View for a new call of `tool` with `arguments` (sent with the JSON-RPC id
    /// `call_id`, if known): the one before of the same tool retires, and so does the oldest
    /// running View past [`KEPT_VIEWS`]. Returns its number.
    pub fn called(&mut self, tool: Tool, arguments: Value, call_id: Option<Value>) -> u32 {
        let n = self.next;
        self.next = self.next.wrapping_add(1);
        for v in self.views.iter_mut().filter(|v| v.tool.name == tool.name) {
            v.retiring.get_or_insert(CALLED_AGAIN);
        }
        self.views.push(KeptView {
            n,
            tool,
            arguments,
            call_id,
            retiring: None,
        });
        let running = self.views.iter().filter(|v| v.retiring.is_none()).count();
        if running > KEPT_VIEWS {
            if let Some(oldest) = self.views.iter_mut().find(|v| v.retiring.is_none()) {
                oldest.retiring = Some(TOO_MANY);
            }
        }
        n
    }

    /// The server lists these tools now: the Views of tools it no longer lists retire (a
    /// View outlives its tool's listing only until then). Whether any did.
    pub fn listed(&mut self, tools: &[Tool]) -> bool {
        let mut any = false;
        for v in self.views.iter_mut() {
            if v.retiring.is_none() && !tools.iter().any(|t| t.name == v.tool.name) {
                v.retiring = Some(UNLISTED);
                any = true;
            }
        }
        any
    }

    /// View `n` has gone (it answered its teardown, or was given up on).
    pub fn gone(&mut self, n: u32) {
        self.views.retain(|v| v.n != n);
    }

    /// Why View `n` is on its way out, if it is (a View already gone is).
    pub fn retiring(&self, n: u32) -> Option<&'static str> {
        match self.views.iter().find(|v| v.n == n) {
            Some(v) => v.retiring,
            None => Some("the app has gone"),
        }
    }

    /// Whether `tool` has a View running (not on its way out).
    pub fn open(&self, tool: &str) -> bool {
        self.views
            .iter()
            .any(|v| v.retiring.is_none() && v.tool.name == tool)
    }

    /// All the Views, running or retiring, in the order of their calls.
    pub fn all(&self) -> &[KeptView] {
        &self.views
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str) -> Tool {
        serde_json::from_value(json!({ "name": name, "inputSchema": { "type": "object" } }))
            .expect("a tool")
    }

    fn running(kept: &KeptViews) -> Vec<(&str, u32)> {
        kept.all()
            .iter()
            .filter(|v| v.retiring.is_none())
            .map(|v| (v.tool.name.as_str(), v.n))
            .collect()
    }

    #[test]
    fn a_new_call_retires_the_view_of_the_same_tool_only() {
        let mut kept = KeptViews::default();
        let a = kept.called(tool("a"), json!({ "x": 1 }), None);
        let b = kept.called(tool("b"), json!({}), None);
        let a2 = kept.called(tool("a"), json!({ "x": 2 }), None);
        assert_eq!(running(&kept), [("b", b), ("a", a2)]);
        assert!(kept.open("a") && kept.open("b") && !kept.open("c"));
        // The one before stays, retiring, until it has gone.
        assert_eq!(kept.retiring(a), Some(CALLED_AGAIN));
        assert_eq!(kept.retiring(b), None);
        assert_eq!(kept.all().len(), 3);
        kept.gone(a);
        assert_eq!(kept.all().len(), 2);
        assert!(kept.retiring(a).is_some(), "a View gone counts as retiring");
        assert_eq!(kept.all()[1].arguments, json!({ "x": 2 }));
    }

    #[test]
    fn the_view_of_a_tool_no_longer_listed_retires() {
        let mut kept = KeptViews::default();
        let a = kept.called(tool("a"), json!({}), None);
        let b = kept.called(tool("b"), json!({}), None);
        kept.listed(&[tool("b"), tool("c")]);
        assert_eq!(kept.retiring(a), Some(UNLISTED));
        assert_eq!(kept.retiring(b), None);
        // One already retiring keeps its reason.
        let b2 = kept.called(tool("b"), json!({}), None);
        kept.listed(&[]);
        assert_eq!(kept.retiring(b), Some(CALLED_AGAIN));
        assert_eq!(kept.retiring(b2), Some(UNLISTED));
    }

    #[test]
    fn past_the_bound_the_view_of_the_tool_called_longest_ago_retires() {
        let mut kept = KeptViews::default();
        let first = kept.called(tool("t0"), json!({}), None);
        for i in 1..KEPT_VIEWS {
            kept.called(tool(&format!("t{i}")), json!({}), None);
        }
        assert_eq!(kept.retiring(first), None);
        // Called again, t0 is the newest: t1 is now the oldest.
        let again = kept.called(tool("t0"), json!({}), None);
        assert_eq!(running(&kept).len(), KEPT_VIEWS);
        let newest = kept.called(tool("new"), json!({}), None);
        assert_eq!(running(&kept).len(), KEPT_VIEWS);
        assert_eq!((kept.retiring(again), kept.retiring(newest)), (None, None));
        let names: Vec<&str> = running(&kept).into_iter().map(|(t, _)| t).collect();
        assert!(!names.contains(&"t1"), "{names:?}");
        assert!(names.contains(&"t2"), "{names:?}");
        let t1 = kept.all().iter().find(|v| v.tool.name == "t1").map(|v| v.n);
        assert_eq!(
            kept.retiring(t1.expect("t1 kept until gone")),
            Some(TOO_MANY)
        );
    }
}
