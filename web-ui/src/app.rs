//! The application shell: the connect form, the open connections, and the selected one.

use crate::components::connect_form::ConnectForm;
use crate::components::server_view::{state_label, ServerView};
use crate::connection::{ConnectRequest, Connection};
use leptos::prelude::*;

/// The application.
#[component]
pub fn App() -> impl IntoView {
    let connections = RwSignal::new(Vec::<Connection>::new());
    let selected = RwSignal::new(None::<u32>);
    let next_id = StoredValue::new(1u32);
    let saved_servers = RwSignal::new(crate::saved::load());
    let open = Callback::new(move |req: ConnectRequest| {
        saved_servers.update(|s| {
            if !s.iter().any(|x| x.url == req.url) {
                s.push(crate::saved::SavedServer {
                    name: req.url.clone(),
                    url: req.url.clone(),
                    transport: crate::components::connect_form::transport_value(req.transport).into(),
                    headers: req.headers.clone(),
                });
                crate::saved::store(s);
            }
        });
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        let conn = Connection::open(id, req);
        connections.update(|c| c.push(conn));
        selected.set(Some(id));
    });
    let link = crate::deep_link::read();
    if let Some(url) = link.url.clone() {
        open.run(ConnectRequest { url, transport: crate::components::connect_form::parse_transport(&link.transport), ..Default::default() });
    }
    let current = move || {
        let id = selected.get()?;
        connections.with(|c| c.iter().find(|x| x.id == id).cloned())
    };
    view! {
        <header class="topbar"><h1>"MCP browser client"</h1></header>
        <main class="main">
            <ConnectForm initial_url=link.url.unwrap_or_default() initial_transport=link.transport on_connect=open />
            <crate::components::saved_servers::SavedServers servers=saved_servers on_connect=open />
            <nav class="connections" aria-label="Connections">
                <For each=move || connections.get() key=|c| c.id let:conn>
                    {
                        let id = conn.id;
                        let state = conn.state;
                        view! {
                            <button class="connection-tab" aria-current=move || (selected.get() == Some(id)).to_string()
                                on:click=move |_| selected.set(Some(id))>
                                {conn.url.clone()} " · " {move || state_label(state.get())}
                            </button>
                        }
                    }
                </For>
            </nav>
            {move || current().map(|c| view! { <ServerView conn=c /> })}
        </main>
    }
}
