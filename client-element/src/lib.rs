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
//! shown first, its form open), `prompt` (the prompt shown first, in the prompts tab, where
//! `panels` has `prompts`), `resource` (a URI: that resource read and shown first, where
//! `panels` has `resources`), `allow-local-auth`
//! (local development: `http:`/loopback authorization servers). A server that asks for a
//! login shows a log-in button that opens a popup; host `oauth-callback.html` (from the
//! package) on the page's origin.
//!
//! Property: `headers` (what `new Headers(…)` takes: an object, pairs or a `Headers`), sent
//! with every request to `server`, e.g. `{ Authorization: 'Bearer …' }` for a token the host
//! page holds. A property, not an attribute, so that a secret stays out of the page's markup;
//! checked as `fetch` checks headers when set (a bad name or value throws there).
//!
//! Lifecycle: taken off the page, the element closes its connections; put back, it connects
//! again; moved, it stays as it is. A change of an attribute makes the widget again from the
//! new values, except `theme`, which only recolours it; so does setting `headers`.

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
// The attributes read when the widget is made; a change to one after makes it again, except
// `theme`, which only recolours it.
const MADE_FROM = ['server', 'transport', 'panels', 'tool', 'prompt', 'resource', 'allow-local-auth'];
export function define_element(mount) {
  if (customElements.get('mcp-client')) return;
  class McpClientElement extends HTMLElement {
    static observedAttributes = [...MADE_FROM, 'theme'];
    // Headers for every request to `server` (a token the host page holds): checked as fetch
    // checks them (a bad name or value throws at the host's own line), kept as pairs, never
    // an attribute (a secret stays out of the markup). Setting them makes the widget again.
    get headers() {
      return this._headers ? Object.fromEntries(this._headers) : null;
    }
    set headers(value) {
      this._headers = value == null ? null : [...new Headers(value)];
      this._changed();
    }
    connectedCallback() {
      // Set on the element before this script defined it: an own property hides the
      // accessor; taken through it now.
      if (Object.prototype.hasOwnProperty.call(this, 'headers')) {
        const value = this.headers;
        delete this.headers;
        this.headers = value;
      }
      // Moved within the page (taken out and put back at once): kept as it is.
      if (this._made) return;
      const root = this.shadowRoot || this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      const host = document.createElement('div');
      host.className = 'mcp-root';
      root.replaceChildren(style, host);
      this._host = host;
      this._theme();
      this._made = mount(this, style, host);
    }
    disconnectedCallback() {
      // Taken off the page: its connections close (their sessions end on the server), once
      // it is clear that this is not a move (connectedCallback then runs in the same task).
      queueMicrotask(() => {
        if (!this.isConnected) this._takeDown();
      });
    }
    attributeChangedCallback(name, before, now) {
      if (!this._made || before === now) return;
      if (name === 'theme') return this._theme();
      this._changed();
    }
    _changed() {
      // Several attributes (or the headers) set together make the widget again once.
      if (!this._made || this._remake) return;
      this._remake = true;
      queueMicrotask(() => {
        this._remake = false;
        if (!this.isConnected || !this._made) return;
        this._takeDown();
        this.connectedCallback();
      });
    }
    _theme() {
      const host = this._host;
      for (const c of [...host.classList]) if (c.startsWith('theme-')) host.classList.remove(c);
      // Only the themes there are; anything else is the system's (and never throws).
      const theme = this.getAttribute('theme');
      if (theme === 'light' || theme === 'dark') host.classList.add(`theme-${theme}`);
    }
    _takeDown() {
      const made = this._made;
      this._made = null;
      if (!made) return;
      const [close, letGo] = made;
      // Its connections close first: what awaited them ends (as closed) while the widget's
      // state is still there; the widget itself goes once that has run.
      close();
      setTimeout(letGo, 0);
    }
  }
  customElements.define('mcp-client', McpClientElement);
}
"#)]
extern "C" {
    fn define_element(
        mount: &Closure<
            dyn FnMut(web_sys::HtmlElement, web_sys::HtmlElement, web_sys::HtmlElement) -> JsValue,
        >,
    );
}

/// Makes the widget in `root` from `element`'s attributes (the element's script sets the
/// theme); returns the two functions that take it down again: one closes its connections, the
/// other lets the widget go (called once what awaited those connections has ended).
fn mount(
    element: web_sys::HtmlElement,
    style: web_sys::HtmlElement,
    root: web_sys::HtmlElement,
) -> JsValue {
    style.set_text_content(Some(&shadow_css()));
    let attr = |n: &str| element.get_attribute(n).filter(|v| !v.is_empty());
    let link = web_ui::deep_link::DeepLink {
        url: attr("server"),
        transport: attr("transport").unwrap_or_else(|| "auto".into()),
        tool: attr("tool"),
        prompt: attr("prompt"),
        resource: attr("resource"),
        args: None,
        allow_local_auth: element.has_attribute("allow-local-auth"),
        headers: headers_of(&element),
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
    // An owner of our own, so that letting the widget go cleans up all it made, whatever
    // else still holds on to the mount's owner.
    let owner = Owner::new();
    let clients = web_ui::embed::OpenClients::default();
    let given = clients.clone();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root, move || {
            provide_context(Some(sink.clone()));
            provide_context(given);
            view! { <web_ui::app::App link=link.clone() panels=panels.clone() /> }
        })
    });
    let close = Closure::once_into_js(move || clients.close_all());
    let let_go = Closure::once_into_js(move || {
        drop(handle);
        owner.cleanup();
    });
    js_sys::Array::of2(&close, &let_go).into()
}

/// The element's type in the package's declarations: `document.querySelector('mcp-client')`
/// and `createElement('mcp-client')` give it, with its `headers` property typed.
#[wasm_bindgen(typescript_custom_section)]
const ELEMENT_TYPES: &str = r#"
/** The `<mcp-client>` element, defined once this module's `init()` has run. */
export interface McpClientElement extends HTMLElement {
  /**
   * Headers sent with every request to the `server` attribute's server (e.g. a token the
   * host page holds: `{ Authorization: 'Bearer …' }`). Set: what `new Headers(…)` takes
   * (a bad name or value throws); setting them makes the widget again. Read: the headers
   * set (names in lower case), or `null`.
   */
  get headers(): Record<string, string> | null;
  set headers(value: HeadersInit | null | undefined);
}

declare global {
  interface HTMLElementTagNameMap {
    'mcp-client': McpClientElement;
  }
}
"#;

/// The element's `headers` property as name and value pairs (its setter checked them).
fn headers_of(element: &web_sys::HtmlElement) -> Vec<(String, String)> {
    let Ok(value) = js_sys::Reflect::get(element, &"headers".into()) else {
        return Vec::new();
    };
    if !value.is_object() {
        return Vec::new();
    }
    js_sys::Object::entries(value.unchecked_ref())
        .iter()
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

use serde::Serialize as _;

/// Defines `<mcp-client>` when the module is initialised.
#[wasm_bindgen(start)]
pub fn start() {
    let mount = Closure::<
        dyn FnMut(web_sys::HtmlElement, web_sys::HtmlElement, web_sys::HtmlElement) -> JsValue,
    >::new(mount);
    define_element(&mount);
    mount.forget();
}
