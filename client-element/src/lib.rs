//! `<mcp-client>`: the app as a custom element for any web page. It renders inside a Shadow
//! DOM (host CSS cannot reach in; its CSS cannot leak out) and reports what happens as DOM
//! events: `connected`, `tool-result`, `auth-required`, `error`, `notification` (every
//! notification the server sends: `{ url, method, params }`), and `stale` (a list or read
//! answered by a result kept from before because the server could not be asked again:
//! `{ url, method, ageMs, error }`) (`event.detail` is JSON).
//!
//! Attributes: `server` (URL to connect to), `transport` (`auto`, `streamable`, `sse`,
//! `websocket`), `panels` (comma list of `connect`, `resources`, `prompts`, `logs`, `tasks`; tools are
//! always shown), `theme` (`light`, `dark`, or absent for the system's), `tool` (the tool
//! shown first, its form open), `allow-local-auth`
//! (local development: `http:`/loopback authorization servers). A server that asks for a
//! login shows a log-in button that opens a popup; host `oauth-callback.html` (from the
//! package) on the page's origin.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_ui::embed::{EventSink, Panels};

/// The app's stylesheet, scoped to the shadow root (`:root` becomes `:host`), with inherited
/// properties reset so host styles do not bleed in through inheritance.
fn shadow_css() -> String {
    let base = include_str!("../../www/styles.css").replace(":root", ":host");
    format!(":host {{ all: initial; display: block; }}\n{base}\n.mcp-root {{ color: var(--fg); background: var(--bg); font-family: system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif; }}")
}

#[wasm_bindgen(inline_js = r#"
export function define_element(mount) {
  if (customElements.get('mcp-client')) return;
  class McpClientElement extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      const host = document.createElement('div');
      host.className = 'mcp-root';
      root.append(style, host);
      mount(this, style, host);
    }
  }
  customElements.define('mcp-client', McpClientElement);
}
"#)]
extern "C" {
    fn define_element(
        mount: &Closure<
            dyn FnMut(web_sys::HtmlElement, web_sys::HtmlElement, web_sys::HtmlElement),
        >,
    );
}

fn mount(element: web_sys::HtmlElement, style: web_sys::HtmlElement, root: web_sys::HtmlElement) {
    style.set_text_content(Some(&shadow_css()));
    let attr = |n: &str| element.get_attribute(n).filter(|v| !v.is_empty());
    if let Some(theme) = attr("theme") {
        let _ = root.class_list().add_1(&format!("theme-{theme}"));
    }
    let link = web_ui::deep_link::DeepLink {
        url: attr("server"),
        transport: attr("transport").unwrap_or_else(|| "auto".into()),
        tool: attr("tool"),
        allow_local_auth: element.has_attribute("allow-local-auth"),
    };
    let panels = Panels::parse(attr("panels").as_deref());
    let target = element.clone();
    let sink = EventSink::new(move |name, detail| {
        let init = web_sys::CustomEventInit::new();
        init.set_bubbles(true);
        init.set_composed(true);
        let detail = detail
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .unwrap_or(JsValue::NULL);
        init.set_detail(&detail);
        if let Ok(ev) = web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
            let _ = target.dispatch_event(&ev);
        }
    });
    let handle = leptos::mount::mount_to(root, move || {
        provide_context(Some(sink.clone()));
        view! { <web_ui::app::App link=link.clone() panels=panels.clone() /> }
    });
    // The element lives as long as the page.
    handle.forget();
}

use serde::Serialize as _;

/// Defines `<mcp-client>` when the module is initialised.
#[wasm_bindgen(start)]
pub fn start() {
    let mount = Closure::<
        dyn FnMut(web_sys::HtmlElement, web_sys::HtmlElement, web_sys::HtmlElement),
    >::new(mount);
    define_element(&mount);
    mount.forget();
}
