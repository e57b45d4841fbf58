//! One connected server: its state, what it says about itself, its questions, tools and logs.

use crate::components::{
    asks::AsksPanel, auth_panel::AuthPanel, history::HistoryPanel, logs::LogsPanel,
    prompts::PromptsPanel, resources::ResourcesPanel, settings::SettingsPanel, tools::ToolsPanel,
};
use crate::connection::Connection;
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
    let (state, details, error) = (conn.state, conn.details, conn.error);
    view! {
        <section class="server" aria-label=format!("Server {}", conn.url)>
            <header class="server-head">
                <span class=move || format!("state {}", state_label(state.get()).replace(' ', "-")) id="connection-state">
                    {move || state_label(state.get())}
                </span>
                <span class="url">{conn.url.clone()}</span>
                {move || details.get().map(|d| view! {
                    <span class="server-name">{d.server_info.title.clone().unwrap_or(d.server_info.name.clone())} " " {d.server_info.version.clone()}</span>
                    <span class="era">{format!("{:?} era · {} · {:?}", d.era, d.protocol_version, d.wire)}</span>
                })}
            </header>
            {move || error.get().map(|e| view! { <p class="doctor" role="alert">{e}</p> })}
            <AuthPanel conn=conn.clone() />
            {move || details.get().and_then(|d| d.instructions).map(|i| view! {
                <details class="instructions"><summary>"Instructions from the server"</summary><pre>{i}</pre></details>
            })}
            <AsksPanel conn=conn.clone() />
            <Tabs conn=conn.clone() />
        </section>
    }
}

/// The tabs of a server view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tab {
    Tools,
    Resources,
    Prompts,
    Logs,
    Settings,
}

#[component]
fn Tabs(conn: Connection) -> impl IntoView {
    let tab = RwSignal::new(Tab::Tools);
    let details = conn.details;
    let panels = use_context::<crate::embed::Panels>().unwrap_or_default();
    let button = move |t: Tab, label: &'static str| {
        view! {
            <button role="tab" id=format!("tab-{}", label.to_ascii_lowercase()) aria-selected=move || (tab.get() == t).to_string() on:click=move |_| tab.set(t)>{label}</button>
        }
    };
    view! {
        <div role="tablist" class="tabs" aria-label="Server features">
            {button(Tab::Tools, "Tools")}
            {panels.resources.then(|| button(Tab::Resources, "Resources"))}
            {panels.prompts.then(|| button(Tab::Prompts, "Prompts"))}
            {panels.logs.then(|| button(Tab::Logs, "Logs"))}
            {panels.connect.then(|| button(Tab::Settings, "Settings"))}
        </div>
        <div role="tabpanel">
            {move || {
                // Wait for the handshake before listing anything.
                details.get()?;
                Some(match tab.get() {
                    Tab::Tools => view! { <ToolsPanel conn=conn.clone() /><HistoryPanel conn=conn.clone() /> }.into_any(),
                    Tab::Resources => view! { <ResourcesPanel conn=conn.clone() /> }.into_any(),
                    Tab::Prompts => view! { <PromptsPanel conn=conn.clone() /> }.into_any(),
                    Tab::Logs => view! { <LogsPanel conn=conn.clone() /> }.into_any(),
                    Tab::Settings => view! { <SettingsPanel conn=conn.clone() /> }.into_any(),
                })
            }}
        </div>
    }
}
