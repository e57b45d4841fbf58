//! What an embedding page configures, and the DOM events the app sends it.

use client_browser::client_core::session::ConnectionState;
use leptos::prelude::*;
use std::cell::RefCell;
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

/// The clients of an embedded app's connections, for the element it is embedded in to close
/// when a host takes it off the page: 2025-era sessions end on the server, and no stream is
/// left holding one of the few connections a browser opens to a server. Given by the element
/// as context; the standalone page has none (it lives as long as the page).
#[derive(Clone)]
pub struct OpenClients(send_wrapper::SendWrapper<Rc<RefCell<Vec<client_browser::Client>>>>);

impl Default for OpenClients {
    fn default() -> Self {
        OpenClients(send_wrapper::SendWrapper::new(Rc::default()))
    }
}

impl OpenClients {
    /// Adds the client of a new connection (those already closed are let go).
    pub fn add(&self, client: client_browser::Client) {
        let mut all = self.0.borrow_mut();
        all.retain(|c| c.state() != ConnectionState::Closed);
        all.push(client);
    }

    /// Closes every one. What awaited their requests ends then (as closed), while the app's
    /// reactive state is still there to take the outcome; the element lets the app go only
    /// after that.
    pub fn close_all(&self) {
        let all = std::mem::take(&mut *self.0.borrow_mut());
        for client in all {
            client.close();
        }
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
