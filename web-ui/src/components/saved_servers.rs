//! The saved servers: connect with one click, remove, export and import.

use crate::components::keyed_list::KeyedList;
use crate::connection::ConnectRequest;
use crate::saved::{self, SavedHere, SavedServer};
use crate::words::counted;
use leptos::prelude::*;

/// Saved servers list with import and export.
#[component]
pub fn SavedServers(
    servers: RwSignal<Vec<SavedServer>>,
    /// The servers this page saved (see [`SavedHere`]).
    saved_here: StoredValue<SavedHere>,
    /// Whether the list is kept in the browser (the app's own page), or for the page's life
    /// only (an embedded widget).
    in_browser: bool,
    on_connect: Callback<ConnectRequest>,
) -> impl IntoView {
    let import_text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<String>);
    let import = move |_| match saved::import(&import_text.get_untracked()) {
        Ok((new, skipped)) => {
            let n = new.len();
            if in_browser {
                servers.set(saved::add_imported(&new));
                let now = js_sys::Date::now();
                saved_here.update_value(|h| new.into_iter().for_each(|x| h.saved(x, now)));
            } else {
                servers.update(|s| *s = saved::with_imported(std::mem::take(s), &new));
            }
            message.set(Some(if skipped.is_empty() {
                format!("imported {}", counted(n, "server", "servers"))
            } else {
                format!(
                    "imported {}; skipped {} that a browser cannot run: {}",
                    counted(n, "server", "servers"),
                    skipped.len(),
                    skipped.join(", ")
                )
            }));
        }
        Err(e) => message.set(Some(e)),
    };
    view! {
        <details class="saved">
            <summary>{move || format!("Saved servers ({})", servers.with(Vec::len))}</summary>
            <ul class="saved-list">
                <KeyedList each=move || servers.get() key=|s| s.name.clone() let:s>
                    {
                        let (s1, name) = (s.clone(), s.name.clone());
                        view! {
                            <li>
                                <button class="connect-saved" on:click=move |_| on_connect.run(ConnectRequest {
                                    url: s1.url.clone(),
                                    transport: crate::components::connect_form::parse_transport(&s1.transport),
                                    headers: s1.headers.clone(),
                                    allow_local_auth: s1.allow_local_auth,
                                    ..Default::default()
                                })>{s.name.clone()}</button>
                                <span class="uri">{s.url.clone()}</span>
                                <button class="remove" aria-label=format!("Remove {}", s.name) on:click=move |_| if in_browser {
                                    servers.set(saved::remove(&name));
                                } else {
                                    servers.update(|l| l.retain(|x| x.name != name));
                                }>"Remove"</button>
                            </li>
                        }
                    }
                </KeyedList>
            </ul>
            <button class="export-servers" on:click=move |_| crate::components::logs::download_text("mcp-servers.json", "application/json", &saved::export(&servers.get_untracked()))>"Export"</button>
            <label for="import-servers">"Import (paste a config with \"mcpServers\")"</label>
            <textarea id="import-servers" rows="4" prop:value=import_text on:input=move |ev| import_text.set(event_target_value(&ev))></textarea>
            <button class="import-servers" on:click=import>"Import"</button>
            {move || message.get().map(|m| view! { <p class="import-message" role="status">{m}</p> })}
        </details>
    }
}
