//! One connected server: its state, what it says about itself, its questions, tools and logs.

use crate::components::{asks::AsksPanel, logs::LogsPanel, tools::ToolsPanel};
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
            {move || details.get().and_then(|d| d.instructions).map(|i| view! {
                <details class="instructions"><summary>"Instructions from the server"</summary><pre>{i}</pre></details>
            })}
            <AsksPanel conn=conn.clone() />
            <ToolsPanel conn=conn.clone() />
            <LogsPanel conn=conn.clone() />
        </section>
    }
}
