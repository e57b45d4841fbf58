//! The application shell: the connect form, the open connections, and the selected one.

use crate::components::connect_form::ConnectForm;
use crate::components::server_view::{state_label, ServerView};
use crate::connection::{ConnectRequest, Connection};
use leptos::prelude::*;

/// The application.
#[component]
pub fn App(
    /// What to connect to at once (from the page address or the element's attributes).
    link: crate::deep_link::DeepLink,
    /// Which panels to show.
    #[prop(default = crate::embed::Panels::default())]
    panels: crate::embed::Panels,
) -> impl IntoView {
    provide_context(panels.clone());
    let sink = use_context::<Option<crate::embed::EventSink>>().flatten();
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
        let conn = Connection::open(id, req, sink.clone());
        connections.update(|c| c.push(conn));
        selected.set(Some(id));
    });
    if let Some(url) = link.url.clone() {
        open.run(ConnectRequest { url, transport: crate::components::connect_form::parse_transport(&link.transport), ..Default::default() });
    }
    let current = move || {
        let id = selected.get()?;
        connections.with(|c| c.iter().find(|x| x.id == id).cloned())
    };
    view! {
        {panels.connect.then(|| view! { <header class="topbar"><h1>"MCP browser client"</h1></header> })}
        <main class="main">
            {panels.connect.then(|| view! {
                <ConnectForm initial_url=link.url.clone().unwrap_or_default() initial_transport=link.transport.clone() on_connect=open />
                <crate::components::saved_servers::SavedServers servers=saved_servers on_connect=open />
            })}
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
