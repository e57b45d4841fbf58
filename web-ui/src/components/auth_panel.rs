//! Authorization for one server: the log-in button when the server asks for it, the login
//! state with log out, and the OAuth trace (every URL tried and its answer, the client
//! identification chosen, the scopes asked), all as text.

use crate::connection::Connection;
use leptos::prelude::*;

/// The authorization panel (nothing when the server never asked for a login).
#[component]
pub fn AuthPanel(conn: Connection) -> impl IntoView {
    let (needed, logged_in, trace) = (conn.auth_needed, conn.logged_in, conn.auth_trace);
    let has_auth = conn.auth.get_value().is_some();
    let (c1, c2) = (conn.clone(), conn.clone());
    let scopes = move || {
        let _ = logged_in.get();
        conn.auth
            .get_value()
            .and_then(|a| a.tokens())
            .and_then(|t| t.scope)
            .unwrap_or_default()
    };
    view! {
        {has_auth.then(|| view! {
            <section class="auth" aria-label="Authorization">
                {move || needed.get().map(|_| view! {
                    <div class="auth-needed" role="alert">
                        <p>"This server needs you to log in."</p>
                        <button id="login" on:click={let c = c1.clone(); move |_| c.login()}>"Log in"</button>
                    </div>
                })}
                {move || logged_in.get().then(|| view! {
                    <p class="auth-ok" id="auth-status">"Logged in" {move || { let s = scopes(); if s.is_empty() { String::new() } else { format!(" (scopes: {s})") } }}</p>
                    <button id="logout" on:click={let c = c2.clone(); move |_| c.logout()}>"Log out and forget credentials"</button>
                })}
                {move || (!trace.get().is_empty()).then(|| view! {
                    <details class="oauth-trace" open=move || needed.get().is_some()>
                        <summary>"OAuth trace"</summary>
                        <ol id="oauth-trace">{move || trace.get().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ol>
                    </details>
                })}
            </section>
        })}
    }
}
