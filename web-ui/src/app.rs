//! The root component. For now: the server URL form and what the core knows of eras.

use client_core::types::{LEGACY_VERSIONS, MODERN_VERSIONS};
use leptos::prelude::*;

/// The application shell.
#[component]
pub fn App() -> impl IntoView {
    let (url, set_url) = signal(initial_server_url());
    view! {
        <header class="topbar">
            <h1>"MCP browser client"</h1>
        </header>
        <main class="main">
            <form class="connect" on:submit=|ev| ev.prevent_default()>
                <label for="server-url">"Server URL"</label>
                <input
                    id="server-url"
                    type="url"
                    prop:value=url
                    on:input=move |ev| set_url.set(event_target_value(&ev))
                />
            </form>
            <p class="versions">
                "Speaks " {MODERN_VERSIONS.join(", ")} " (modern) and "
                {LEGACY_VERSIONS.join(", ")} " (legacy)."
            </p>
        </main>
    }
}

/// The server URL from `?url=` in the page address, if any.
fn initial_server_url() -> String {
    let search = web_sys_search().unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("url="))
        .map(|v| js_decode(v))
        .unwrap_or_default()
}

fn web_sys_search() -> Option<String> {
    leptos::prelude::window().location().search().ok()
}

fn js_decode(v: &str) -> String {
    leptos::wasm_bindgen::JsValue::from_str(v);
    js_sys_decode(v).unwrap_or_else(|| v.to_string())
}

fn js_sys_decode(v: &str) -> Option<String> {
    leptos::web_sys::js_sys::decode_uri_component(v).ok().map(String::from)
}
