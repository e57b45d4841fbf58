//! The application shell: the connect form, the open connections, and the selected one.

use crate::components::connect_form::ConnectForm;
use crate::components::keyed_list::KeyedList;
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
    // A URL typed without its scheme (`localhost:3000/mcp`) gets it, as in the form.
    let link = crate::deep_link::DeepLink {
        url: link.url.map(|u| crate::typed_url::with_scheme(&u)),
        ..link
    };
    let sink = use_context::<Option<crate::embed::EventSink>>().flatten();
    let embedded = sink.is_some();
    // The element that embeds the app closes these when it is taken off its page.
    let open_clients = use_context::<crate::embed::OpenClients>();
    let connections = RwSignal::new(Vec::<Connection>::new());
    let selected = RwSignal::new(None::<u32>);
    let next_id = StoredValue::new(1u32);
    // The saved servers are kept in the browser by the app's own page; an embedded widget
    // keeps them for the page's life (an embedding page's storage is not the app's).
    let saved_servers = RwSignal::new(if embedded {
        Vec::new()
    } else {
        crate::saved::load()
    });
    let saved_here = StoredValue::new(crate::saved::SavedHere::default());
    // The app's own page shares its storage with the app's other tabs (an embedding page's
    // storage is not the app's).
    if !embedded {
        crate::tab_sync::keep_in_step(connections, saved_servers, saved_here);
    }
    // An authorizer holding fresh tokens after a full-page login, for the next `open` of its URL.
    let returned =
        StoredValue::new_local(None::<(std::rc::Rc<client_browser::Authorizer>, Vec<String>)>);
    // The server views on the page: the one shown, and those on their way out.
    let mounted = RwSignal::new(Vec::<Mounted>::new());
    let next_mount = StoredValue::new(0u32);
    // Shows connection `next` (or none). The server view shown until then goes: hidden at
    // once, and kept until its MCP App Views answered their teardown (asked for `reason`);
    // with `closing`, its client is closed then (a View may still call a tool to save what
    // it holds).
    let show = move |next: Option<u32>, reason: &'static str, closing: bool| {
        let now = mounted.with_untracked(|m| m.iter().find(|m| !m.leaving).cloned());
        if !closing && now.as_ref().map(|m| m.conn.id) == next {
            selected.set(next);
            return;
        }
        if let Some(m) = now {
            let key = m.key;
            mounted.update(|all| {
                for x in all.iter_mut().filter(|x| x.key == key) {
                    x.leaving = true;
                }
            });
            let client = closing.then(|| m.conn.client.get_value()).flatten();
            m.conn.leave(reason, move || {
                mounted.try_update(|all| all.retain(|x| x.key != key));
                if let Some(client) = &client {
                    client.close();
                }
            });
        }
        let conn = next
            .and_then(|id| connections.with_untracked(|c| c.iter().find(|x| x.id == id).cloned()));
        if let Some(conn) = conn {
            let key = next_mount.get_value();
            next_mount.set_value(key.wrapping_add(1));
            // First on the page: where an id is on both views for a moment, the one shown
            // has it (the first in the document wins).
            mounted.update(|all| {
                all.insert(
                    0,
                    Mounted {
                        key,
                        conn,
                        leaving: false,
                    },
                )
            });
        }
        selected.set(next);
    };
    let open = Callback::new(move |req: ConnectRequest| {
        let server = crate::saved::SavedServer {
            name: req.url.clone(),
            url: req.url.clone(),
            transport: crate::components::connect_form::transport_value(req.transport).into(),
            headers: req.headers.clone(),
            allow_local_auth: req.allow_local_auth,
        };
        // A URL no MCP transport can use (a deep link's `javascript:…`, `ftp://…`) is not
        // kept: its connection ends at once, saying why.
        if client_browser::check_server_url(&req.url).is_ok() {
            if embedded {
                saved_servers.update(|s| *s = crate::saved::with_server(std::mem::take(s), server));
            } else if let Some(servers) = crate::saved::add(server.clone()) {
                saved_here.update_value(|h| h.saved(server, js_sys::Date::now()));
                saved_servers.set(servers);
            }
        }
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        let (auth, trace) = returned
            .get_value()
            .filter(|(a, _)| a.server_url() == req.url)
            .unzip();
        returned.set_value(None);
        let conn = Connection::open(id, req, sink.clone(), auth);
        if let (Some(open), Some(client)) = (&open_clients, conn.client.get_value()) {
            open.add(client);
        }
        if let Some(lines) = trace {
            conn.auth_trace.update(|t| {
                t.splice(0..0, lines);
            });
        }
        connections.update(|c| c.push(conn));
        show(Some(id), crate::mcp_app::kept::OTHER_SERVER, false);
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
        // A server saved in this browser connects as from the saved list: with the headers
        // saved with it (they go to that URL only, as when it is clicked there), and its
        // transport unless the link names one. So a reload of the address, which follows
        // the server shown, comes back as it was.
        let saved = saved_servers.with_untracked(|s| s.iter().find(|s| s.url == url).cloned());
        let (transport, allow_local_auth, headers) = match saved.filter(|_| !embedded) {
            Some(s) if link.transport == "auto" => (s.transport, s.allow_local_auth, s.headers),
            Some(s) => (link.transport.clone(), s.allow_local_auth, s.headers),
            None => (
                link.transport.clone(),
                link.allow_local_auth,
                link.headers.clone(),
            ),
        };
        open.run(ConnectRequest {
            url,
            transport: crate::components::connect_form::parse_transport(&transport),
            allow_local_auth,
            headers,
            ..Default::default()
        });
        // What the link names beyond the server, in the connection just opened.
        if let Some(conn) = connections.with_untracked(|c| c.last().cloned()) {
            open_what_the_link_names(&conn, &link, &panels);
        }
    }
    // The address follows the server shown (`?url=…`, as a link to it), so that a reload or
    // a bookmark comes back to it; with none shown, or one whose URL holds a credential
    // (kept out of the browser's history), the page's own. Replaced, not pushed: Back
    // leaves the app as before. The app's own page only: an embedding page's address is its
    // own.
    if let Some(page) = crate::deep_link::this_page().filter(|_| !embedded) {
        Effect::new(move |_| {
            let shown = selected
                .get()
                .and_then(|id| connections.with(|c| c.iter().find(|x| x.id == id).cloned()));
            let address = match shown {
                Some(conn) if !crate::deep_link::holds_a_secret(&conn.url) => {
                    let transport = conn
                        .details
                        .with(|d| crate::deep_link::transport_for(d.as_ref()));
                    crate::deep_link::server_address(&page, &conn.url, transport)
                }
                _ => page.clone(),
            };
            crate::deep_link::show_address(&address);
        });
    }
    // Closes a connection (its session ended on the server: a 2025-era session is deleted)
    // and takes its tab away; the newest one left is shown if it was the one shown (the
    // closed one's MCP App Views are asked to tear down first).
    let close = move |id: u32| {
        let gone = connections
            .try_update(|c| c.iter().position(|x| x.id == id).map(|i| c.remove(i)))
            .flatten();
        if selected.get_untracked() == Some(id) {
            let next = connections.with_untracked(|c| c.last().map(|x| x.id));
            show(next, crate::mcp_app::kept::CONNECTION_CLOSED, true);
        } else if let Some(client) = gone.and_then(|conn| conn.client.get_value()) {
            client.close();
        }
    };
    // The page's title names the server shown and counts the questions the servers wait on
    // (a tab in the background says when one asks). The app's own page only: an embedding
    // page's title is its own.
    if !embedded {
        Effect::new(move |_| {
            let shown = selected.get().and_then(|id| {
                connections.with(|all| all.iter().find(|c| c.id == id).map(Connection::shown_name))
            });
            let questions: usize =
                connections.with(|all| all.iter().map(|c| c.asks.with(Vec::len)).sum());
            document().set_title(&crate::page_title::page_title(shown.as_deref(), questions));
        });
    }
    // Embedded for one server (no connect form), there would be no way back: no closing.
    let closable = panels.connect;
    view! {
        {panels.connect.then(|| view! {
            <header class="topbar">
                <h1>{crate::page_title::APP_NAME}</h1>
                // The page's own colours: not offered where the app is embedded (the host
                // page's root element is not ours to style).
                {(!embedded).then(ThemeChoice)}
            </header>
        })}
        <main class="main">
            {panels.connect.then(|| view! {
                <ConnectForm initial_url=link.url.clone().unwrap_or_default() initial_transport=link.transport.clone() on_connect=open />
                <crate::components::saved_servers::SavedServers servers=saved_servers saved_here in_browser=!embedded on_connect=open />
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
                <KeyedList each=move || connections.get() key=|c| c.id let:conn>
                    {
                        let id = conn.id;
                        let state = conn.state;
                        let label = format!("Close the connection to {}", conn.url);
                        // The server's name once it said it (two tabs to one URL stay apart by
                        // their state; the URL is the tab's tooltip).
                        let named = conn.clone();
                        let name = move || crate::bidi::contained(&named.shown_name()).into_owned();
                        view! {
                            <span class="connection">
                                <button class="connection-tab" title=conn.url.clone() aria-current=move || (selected.get() == Some(id)).to_string()
                                    on:click=move |_| show(Some(id), crate::mcp_app::kept::OTHER_SERVER, false)>
                                    <bdi>{name}</bdi> " · " {move || state_label(state.get())}
                                    {
                                        // Its questions waiting, seen from another server's view.
                                        let asks = conn.asks;
                                        move || {
                                            let n = asks.with(Vec::len);
                                            (n > 0).then(|| view! { <span class="waiting-asks">" · " {crate::words::counted(n, "question", "questions")}</span> })
                                        }
                                    }
                                </button>
                                {closable.then(|| view! {
                                    <button class="close-connection" aria-label=label.clone() title=label on:click=move |_| close(id)>"×"</button>
                                })}
                            </span>
                        }
                    }
                </KeyedList>
            </nav>
            // The one shown, and those on their way out (hidden).
            <KeyedList each=move || mounted.get() key=|m| m.key children=move |m| {
                let key = m.key;
                let leaving = move || mounted.with(|all| all.iter().any(|x| x.key == key && x.leaving));
                view! { <div class="server-slot" hidden=leaving><ServerView conn=m.conn /></div> }
            } />
        </main>
    }
}

/// Opens in `conn` (the connection a link just opened) what the link names beyond its server:
/// a tool's or a prompt's form (filled with the link's arguments, nothing sent) or a
/// resource, to be read when its tab shows. A tool comes before a prompt, and either before
/// a resource, for the tab shown and for the arguments; a tab the page does not show is not
/// opened.
fn open_what_the_link_names(
    conn: &Connection,
    link: &crate::deep_link::DeepLink,
    panels: &crate::embed::Panels,
) {
    use crate::components::prompts::{values_from_link, PromptFromLink};
    use crate::components::server_view::Tab;
    // The tool is chosen (shown once the server lists it), its form filled with the
    // arguments, once, when the tools are listed.
    if let Some(tool) = link.tool.clone() {
        conn.chosen_tool.set(Some(tool.clone()));
        if let Some(args) = link.args.clone() {
            let filled = StoredValue::new(false);
            let conn = conn.clone();
            Effect::new(move |_| {
                if conn.tools_listed.get() && !filled.get_value() {
                    filled.set_value(true);
                    if crate::tool_runs::run_from_link(&conn, &tool, &args).is_ok() {
                        conn.linked_form.set(Some(tool.clone()));
                    }
                }
            });
        }
    }
    // The prompt is chosen in the prompts tab, its form filled with the arguments (said above
    // the form, unless they put nothing in it); nothing is asked for.
    if let Some(prompt) = link.prompt.clone().filter(|_| panels.prompts) {
        if link.tool.is_none() {
            conn.chosen_tab.set(Tab::Prompts);
        }
        conn.chosen_prompt.set(Some(prompt.clone()));
        let args = link.args.as_deref().filter(|_| link.tool.is_none());
        let notice = match args.map(values_from_link) {
            None => None,
            Some(Ok(values)) if values.is_empty() => None,
            Some(Ok(values)) => {
                conn.prompt_values
                    .update(|kept| crate::typed_forms::keep_typed(kept, &prompt, values));
                Some(PromptFromLink {
                    prompt,
                    unread: None,
                })
            }
            Some(Err(why)) => Some(PromptFromLink {
                prompt,
                unread: Some(why),
            }),
        };
        if notice.is_some() {
            conn.linked_prompt.set(notice);
        }
    }
    // The resource is read once the resources tab is shown: at once, unless the link also
    // names a tool or a prompt.
    if let Some(uri) = link.resource.clone().filter(|_| panels.resources) {
        if link.tool.is_none() && link.prompt.is_none() {
            conn.chosen_tab.set(Tab::Resources);
        }
        conn.linked_resource.set(Some(uri));
    }
}

/// A server view on the page: its connection, and whether it is on its way out (hidden, and
/// kept until its MCP App Views answered their teardown).
#[derive(Clone)]
struct Mounted {
    key: u32,
    conn: Connection,
    leaving: bool,
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
