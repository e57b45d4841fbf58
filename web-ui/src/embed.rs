//! What an embedding page configures, and the DOM events the app sends it.

use leptos::prelude::*;
use std::rc::Rc;

/// Sends a named event with a JSON detail to the embedding page (a `CustomEvent` on the
/// `<mcp-client>` element). Absent in the standalone page. (`SendWrapper`: reactive values
/// must be `Send`; the page has one thread.)
#[derive(Clone)]
pub struct EventSink(pub send_wrapper::SendWrapper<Rc<EmitFn>>);

/// The function behind an [`EventSink`]: event name and JSON detail.
pub type EmitFn = dyn Fn(&str, serde_json::Value);

impl EventSink {
    /// A sink calling `f`.
    pub fn new(f: impl Fn(&str, serde_json::Value) + 'static) -> Self {
        EventSink(send_wrapper::SendWrapper::new(Rc::new(f)))
    }
}

/// Sends an event if the app is embedded.
pub fn emit(name: &str, detail: serde_json::Value) {
    if let Some(sink) = use_context::<Option<EventSink>>().flatten() {
        (sink.0)(name, detail);
    }
}

/// Which panels an embedding page shows (all by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Panels {
    /// The connect form and saved servers.
    pub connect: bool,
    /// Resources tab.
    pub resources: bool,
    /// Prompts tab.
    pub prompts: bool,
    /// Logs tab.
    pub logs: bool,
    /// Tasks tab (where the server lists its tasks).
    pub tasks: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            connect: true,
            resources: true,
            prompts: true,
            logs: true,
            tasks: true,
        }
    }
}

impl Panels {
    /// From a `panels="tools,resources"` attribute (tools are always shown).
    pub fn parse(attr: Option<&str>) -> Panels {
        match attr {
            None => Panels::default(),
            Some(a) => {
                let has = |n: &str| a.split([',', ' ']).any(|p| p.trim() == n);
                Panels {
                    connect: has("connect"),
                    resources: has("resources"),
                    prompts: has("prompts"),
                    logs: has("logs"),
                    tasks: has("tasks"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_attribute() {
        assert_eq!(Panels::parse(None), Panels::default());
        let p = Panels::parse(Some("tools, logs"));
        assert!(p.logs && !p.connect && !p.resources && !p.prompts && !p.tasks);
        assert!(Panels::parse(Some("tasks")).tasks);
    }
}
