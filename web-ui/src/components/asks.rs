//! Questions from the server: sampling requests (`sampling_ask`), elicitation forms
//! (`elicitation_ask`), and URL elicitations that show the full URL and ask for explicit
//! consent (never prefetched).

use crate::components::elicitation_ask::ElicitationAsk;
use crate::components::keyed_list::KeyedList;
use crate::components::sampling_ask::SamplingAsk;
use crate::connection::{Ask, AskKind, Connection};
use leptos::prelude::*;
use serde_json::json;

/// All open questions of a connection.
#[component]
pub fn AsksPanel(conn: Connection) -> impl IntoView {
    let asks = conn.asks;
    view! {
        <KeyedList each=move || asks.get() key=|a| a.id let:ask>
            <AskView ask=ask />
        </KeyedList>
    }
}

#[component]
fn AskView(ask: Ask) -> impl IntoView {
    match ask.kind.clone() {
        AskKind::Sampling(p) => view! { <SamplingAsk ask=ask.clone() p=p /> }.into_any(),
        AskKind::Elicitation(p) if p.is_url_mode() => {
            let url = p.url.clone().unwrap_or_default();
            let (a1, a2) = (ask.clone(), ask.clone());
            let accept = move || a1.answer(Ok(json!({"action": "accept"})));
            view! {
                <section class="ask url" role="dialog" aria-label="The server asks you to open a URL">
                    <h3>"The server asks you to open a web page"</h3>
                    <p>{p.message.clone()}</p>
                    <UrlToOpen url=url on_open=accept />
                    <button class="decline" on:click=move |_| a2.answer(Ok(json!({"action": "decline"})))>"Decline"</button>
                </section>
            }
            .into_any()
        }
        AskKind::Elicitation(p) => view! { <ElicitationAsk ask=ask.clone() p=p /> }.into_any(),
    }
}

/// A web page the server asks the person to open: the whole address as text (so that it can
/// be checked before going), then an "Open it" link in a new tab, only for an `http(s)`
/// address; any other is refused in words. `on_open` runs when the link is followed.
#[component]
pub fn UrlToOpen(url: String, on_open: impl Fn() + 'static) -> impl IntoView {
    let link = crate::components::result_view::safe_link(&url).map(|href| {
        view! { <a class="open" href=href target="_blank" rel="noopener noreferrer" on:click=move |_| on_open()>"Open it"</a> }
    });
    let refused = link.is_none().then(|| {
        view! { <p class="refused">"This is not an http(s) address, so it will not be opened."</p> }
    });
    view! {
        <p class="full-url">{url}</p>
        {link}
        {refused}
    }
}
