//! One connected server: its state, what it says about itself, its questions, tools and logs.

use crate::components::{
    asks::AsksPanel, auth_panel::AuthPanel, history::HistoryPanel, logs::LogsPanel,
    prompts::PromptsPanel, resources::ResourcesPanel, server_about::ServerAbout,
    settings::SettingsPanel, tasks::TasksPanel, tools::ToolsPanel,
};
use crate::connection::Connection;
use crate::stale_lists::{self, StaleLists};
use client_browser::client_core::session::ConnectionState;
use leptos::prelude::*;

/// A short label for a connection state.
pub fn state_label(s: ConnectionState) -> &'static str {
    match s {
        ConnectionState::Idle => "idle",
        ConnectionState::Connecting => "connecting",
        ConnectionState::Connected => "connected",
        ConnectionState::Reconnecting => "reconnecting",
        ConnectionState::AuthRequired => "authorization needed",
        ConnectionState::Failed => "error",
        ConnectionState::Closed => "closed",
    }
}

/// The whole view of one connection.
#[component]
pub fn ServerView(conn: Connection) -> impl IntoView {
    // For what is shown inside that needs the connection without being handed it (a
    // resource link in a result reads the resource through it).
    provide_context(conn.clone());
    let (state, details, error) = (conn.state, conn.details, conn.error);
    let waiting = conn.waiting_for_connection;
    view! {
        <section class="server" aria-label=format!("Server {}", conn.url)>
            <header class="server-head">
                <span class=move || format!("state {}", state_label(state.get()).replace(' ', "-")) id="connection-state">
                    {move || state_label(state.get())}
                </span>
                <span class="url">{conn.url.clone()}</span>
                {move || details.get().map(|d| view! {
                    <h2 class="server-name">{crate::icons::icon_view(d.server_info.icons.as_deref())}<bdi>{crate::bidi::contained(d.server_info.title.as_deref().unwrap_or(&d.server_info.name)).into_owned()}</bdi> " " <bdi>{crate::bidi::contained(&d.server_info.version).into_owned()}</bdi></h2>
                    <span class="era">{format!("{} era · {} · {}", crate::words::era_name(d.era), d.protocol_version, crate::words::wire_name(d.wire))}</span>
                })}
            </header>
            {move || error.get().map(|e| view! { <p class="doctor" role="alert">{e}</p> })}
            {move || waiting.get().map(|w| view! { <p class="doctor waiting-for-connection" role="status">{w}</p> })}
            {
                let again = conn.clone();
                // Not for a URL no transport can use: connecting again would fail alike.
                let usable = client_browser::check_server_url(&conn.url).is_ok();
                move || (usable && state.get() == ConnectionState::Failed).then(|| {
                    let again = again.clone();
                    view! { <button class="connect-again" on:click=move |_| again.connect()>"Connect again"</button> }
                })
            }
            <AuthPanel conn=conn.clone() />
            {move || details.get().and_then(|d| d.instructions).map(|i| view! {
                <details class="instructions"><summary>"Instructions from the server"</summary><pre>{i}</pre></details>
            })}
            {move || details.get().map(|d| view! { <ServerAbout details=d /> })}
            <AsksPanel conn=conn.clone() />
            <Tabs conn=conn.clone() />
        </section>
    }
}

/// The tabs of a server view.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Tab {
    /// Its tools (the first shown).
    #[default]
    Tools,
    /// Its resources and templates.
    Resources,
    /// Its prompts.
    Prompts,
    /// Its tasks (where it lists them).
    Tasks,
    /// The log and the wire log.
    Logs,
    /// The settings of the connection.
    Settings,
}

impl Tab {
    /// The id of the tab's button (`tab-tools`, ...), which labels the panel.
    fn id(self) -> &'static str {
        match self {
            Tab::Tools => "tab-tools",
            Tab::Resources => "tab-resources",
            Tab::Prompts => "tab-prompts",
            Tab::Tasks => "tab-tasks",
            Tab::Logs => "tab-logs",
            Tab::Settings => "tab-settings",
        }
    }

    /// The list methods the tab shows the answers of.
    fn lists(self) -> &'static [&'static str] {
        match self {
            Tab::Tools => stale_lists::TOOLS,
            Tab::Resources => stale_lists::RESOURCES,
            Tab::Prompts => stale_lists::PROMPTS,
            Tab::Tasks | Tab::Logs | Tab::Settings => &[],
        }
    }
}

#[component]
fn Tabs(conn: Connection) -> impl IntoView {
    // The connection's: the same tab is shown when its server is chosen again.
    let tab = conn.chosen_tab;
    let (details, stale, pip) = (conn.details, conn.stale, conn.pip_view);
    let panels = use_context::<crate::embed::Panels>().unwrap_or_default();
    let button = move |t: Tab, label: &'static str| {
        let marked = move || stale.with(|s| s.among(t.lists()).is_some());
        view! {
            // Only the chosen tab is in the Tab order; the arrow keys go to the others.
            <button role="tab" id=t.id() aria-selected=move || (tab.get() == t).to_string() tabindex=move || if tab.get() == t { "0" } else { "-1" } on:click=move |_| tab.set(t)>
                {label}
                {move || marked().then(|| view! { <span class="stale-mark" title="Not up to date: asking the server again failed">" (not up to date)"</span> })}
            </button>
        }
    };
    let notice_conn = conn.clone();
    let lists_tasks =
        move || details.with(|d| d.as_ref().is_some_and(|d| d.capabilities.tasks_list()));
    // Whether the handshake is done (a change of the details themselves builds nothing again).
    let ready = Memo::new(move |_| details.with(Option::is_some));
    view! {
        // The arrow keys choose the tab they move to (the tabs are cheap to show).
        <div role="tablist" class="tabs" aria-label="Server features" on:keydown=move |ev| {
            if let Some(t) = crate::keys::move_focus(&ev, "[role=tab]", crate::keys::Layout::Row) {
                t.click();
            }
        }>
            {button(Tab::Tools, "Tools")}
            {panels.resources.then(|| button(Tab::Resources, "Resources"))}
            {panels.prompts.then(|| button(Tab::Prompts, "Prompts"))}
            // Where the server lists its tasks (it says so once connected).
            {move || (panels.tasks && lists_tasks()).then(|| button(Tab::Tasks, "Tasks"))}
            {panels.logs.then(|| button(Tab::Logs, "Logs"))}
            {panels.connect.then(|| button(Tab::Settings, "Settings"))}
        </div>
        {move || stale.with(|s| s.among(tab.get().lists()).cloned()).map(|s| {
            let again = notice_conn.clone();
            let t = tab.get_untracked();
            view! {
                <p class="stale-notice" role="status">
                    {StaleLists::describe(&s)} " "
                    <button class="ask-again" on:click=move |_| ask_again(&again, t)>"Ask again"</button>
                </p>
            }
        })}
        // The tools tab is built once (after the handshake) and only hidden while another tab
        // is shown: an MCP App View keeps running with what it holds, and the list its
        // scroll. The other tabs are built each time they are shown (cheap). With a View in
        // picture-in-picture, the tab is only made invisible ("away"), so that the View,
        // which alone is visible in it, stays in view over the other tabs.
        <div role="tabpanel" aria-labelledby=Tab::Tools.id()
            hidden=move || tab.get() != Tab::Tools && pip.with(Option::is_none)
            class:away=move || tab.get() != Tab::Tools && pip.with(Option::is_some)>
            {
                let conn = conn.clone();
                move || ready.get().then(|| view! { <ToolsPanel conn=conn.clone() /><HistoryPanel conn=conn.clone() /> })
            }
        </div>
        <div role="tabpanel" aria-labelledby=move || tab.get().id() hidden=move || tab.get() == Tab::Tools>
            {move || {
                // Wait for the handshake before listing anything.
                if !ready.get() {
                    return None;
                }
                Some(match tab.get() {
                    Tab::Tools => ().into_any(),
                    Tab::Resources => view! { <ResourcesPanel conn=conn.clone() /> }.into_any(),
                    Tab::Prompts => view! { <PromptsPanel conn=conn.clone() /> }.into_any(),
                    Tab::Tasks => view! { <TasksPanel conn=conn.clone() /> }.into_any(),
                    Tab::Logs => view! { <LogsPanel conn=conn.clone() /> }.into_any(),
                    Tab::Settings => view! { <SettingsPanel conn=conn.clone() /> }.into_any(),
                })
            }}
        </div>
    }
}

/// Lists a tab's lists again (the person asked, after a listing was answered from kept results).
fn ask_again(conn: &Connection, tab: Tab) {
    match tab {
        Tab::Tools => conn.tools_changed(),
        Tab::Resources => conn.resources_changed.update(|n| *n += 1),
        Tab::Prompts => conn.prompts_changed.update(|n| *n += 1),
        Tab::Tasks | Tab::Logs | Tab::Settings => {}
    }
}
