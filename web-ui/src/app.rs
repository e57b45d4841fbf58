//! The root component. For now: the server URL form (filled from `?url=`) and the protocol
//! versions the core speaks. Connecting lands with the browser transports.

use client_core::types::{LEGACY_VERSIONS, MODERN_VERSIONS};
use leptos::prelude::*;

/// The application shell.
#[component]
pub fn App() -> impl IntoView {
    let (url, set_url) = signal(crate::deep_link::server_url().unwrap_or_default());
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
                    placeholder="http://127.0.0.1:3001/mcp"
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
