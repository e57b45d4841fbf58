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
    let embedded = sink.is_some();
    let connections = RwSignal::new(Vec::<Connection>::new());
    let selected = RwSignal::new(None::<u32>);
    let next_id = StoredValue::new(1u32);
    let saved_servers = RwSignal::new(crate::saved::load());
    // An authorizer holding fresh tokens after a full-page login, for the next `open` of its URL.
    let returned =
        StoredValue::new_local(None::<(std::rc::Rc<client_browser::Authorizer>, Vec<String>)>);
    let open = Callback::new(move |req: ConnectRequest| {
        saved_servers.update(|s| {
            if !s.iter().any(|x| x.url == req.url) {
                s.push(crate::saved::SavedServer {
                    name: req.url.clone(),
                    url: req.url.clone(),
                    transport: crate::components::connect_form::transport_value(req.transport)
                        .into(),
                    headers: req.headers.clone(),
                    allow_local_auth: req.allow_local_auth,
                });
                crate::saved::store(s);
            }
        });
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        let (auth, trace) = returned
            .get_value()
            .filter(|(a, _)| a.server_url() == req.url)
            .unzip();
        returned.set_value(None);
        let conn = Connection::open(id, req, sink.clone(), auth);
        if let Some(lines) = trace {
            conn.auth_trace.update(|t| {
                t.splice(0..0, lines);
            });
        }
        connections.update(|c| c.push(conn));
        selected.set(Some(id));
    });
    let login_result = RwSignal::new(None::<String>);
    let login_trace = RwSignal::new(Vec::<String>::new());
    if client_browser::auth::has_redirect_callback() {
        leptos::task::spawn_local(async move {
            let on_trace = move |line: &str| login_trace.update(|t| t.push(line.to_string()));
            let Some(outcome) = client_browser::auth::complete_redirect(
                crate::oauth_setup::options(false),
                on_trace,
            )
            .await
            else {
                return;
            };
            match (outcome.server_url, outcome.result) {
                (Some(url), Ok(auth)) => {
                    returned.set_value(Some((auth, login_trace.get_untracked())));
                    open.run(ConnectRequest {
                        url,
                        ..Default::default()
                    });
                }
                (_, Err(e)) => login_result.set(Some(crate::doctor::explain_auth(&e))),
                (None, Ok(_)) => {}
            }
        });
    } else if let Some(url) = link.url.clone() {
        open.run(ConnectRequest {
            url,
            transport: crate::components::connect_form::parse_transport(&link.transport),
            allow_local_auth: link.allow_local_auth,
            ..Default::default()
        });
        // The tool the link names is chosen (shown once the server lists it).
        if let Some(tool) = link.tool.clone() {
            connections.with_untracked(|c| c.last().map(|conn| conn.chosen_tool.set(Some(tool))));
        }
    }
    let current = move || {
        let id = selected.get()?;
        connections.with(|c| c.iter().find(|x| x.id == id).cloned())
    };
    // Closes a connection (its session ended on the server: a 2025-era session is deleted)
    // and takes its tab away; the newest one left is shown if it was the one shown.
    let close = move |id: u32| {
        let gone = connections
            .try_update(|c| c.iter().position(|x| x.id == id).map(|i| c.remove(i)))
            .flatten();
        if let Some(client) = gone.and_then(|conn| conn.client.get_value()) {
            client.close();
        }
        if selected.get_untracked() == Some(id) {
            selected.set(connections.with_untracked(|c| c.last().map(|x| x.id)));
        }
    };
    // Embedded for one server (no connect form), there would be no way back: no closing.
    let closable = panels.connect;
    view! {
        {panels.connect.then(|| view! {
            <header class="topbar">
                <h1>"MCP browser client"</h1>
                // The page's own colours: not offered where the app is embedded (the host
                // page's root element is not ours to style).
                {(!embedded).then(ThemeChoice)}
            </header>
        })}
        <main class="main">
            {panels.connect.then(|| view! {
                <ConnectForm initial_url=link.url.clone().unwrap_or_default() initial_transport=link.transport.clone() on_connect=open />
                <crate::components::saved_servers::SavedServers servers=saved_servers on_connect=open />
            })}
            {move || login_result.get().map(|e| view! {
                <section class="login-result" aria-label="Login">
                    <p class="doctor" role="alert" id="login-error">{e}</p>
                    <details class="oauth-trace" open>
                        <summary>"OAuth trace"</summary>
                        <ol>{move || login_trace.get().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ol>
                    </details>
                </section>
            })}
            <nav class="connections" aria-label="Connections">
                <For each=move || connections.get() key=|c| c.id let:conn>
                    {
                        let id = conn.id;
                        let (state, details) = (conn.state, conn.details);
                        let label = format!("Close the connection to {}", conn.url);
                        let url = conn.url.clone();
                        // The server's name once it said it (two tabs to one URL stay apart by
                        // their state; the URL is the tab's tooltip).
                        let name = move || {
                            details.with(|d| d.as_ref().map(|d| d.server_info.title.clone().unwrap_or_else(|| d.server_info.name.clone())))
                                .filter(|n| !n.trim().is_empty())
                                .unwrap_or_else(|| url.clone())
                        };
                        view! {
                            <span class="connection">
                                <button class="connection-tab" title=conn.url.clone() aria-current=move || (selected.get() == Some(id)).to_string()
                                    on:click=move |_| selected.set(Some(id))>
                                    {name} " · " {move || state_label(state.get())}
                                </button>
                                {closable.then(|| view! {
                                    <button class="close-connection" aria-label=label.clone() title=label on:click=move |_| close(id)>"×"</button>
                                })}
                            </span>
                        }
                    }
                </For>
            </nav>
            {move || current().map(|c| view! { <ServerView conn=c /> })}
        </main>
    }
}

/// The colour scheme select of the top bar (see [`crate::theme`]).
#[component]
fn ThemeChoice() -> impl IntoView {
    let chosen = crate::theme::load();
    view! {
        <label class="theme-choice">"Colours "
            <select id="theme" on:change=move |ev| crate::theme::choose(crate::theme::Theme::parse(&event_target_value(&ev)))>
                {crate::theme::Theme::ALL.into_iter().map(|t| view! {
                    <option value=t.as_str() selected=t == chosen>{t.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
