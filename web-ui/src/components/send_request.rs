//! "Send a request" in the logs tab: any method with its params as JSON, for what the other
//! tabs do not offer (an extension's methods, a task asked about by its id). What was typed
//! and the last answer are the connection's: they are still there when the tab is opened
//! again (a request still under way when the tab is left is cancelled, like a read's).

use crate::components::long_text::LongText;
use crate::connection::Connection;
use crate::in_flight::InFlight;
use crate::raw_request::{parse, SUGGESTED};
use leptos::prelude::*;

/// The box, its answer (as JSON) or why there is none.
#[component]
pub fn SendRequest(conn: Connection) -> impl IntoView {
    let crate::raw_request::RequestDraft {
        method,
        params,
        notification,
        outcome,
    } = conn.request_draft;
    let in_flight = InFlight::<String>::new(&conn);
    let (client, time_limit) = (conn.client, conn.time_limit);
    let send = move || {
        let typed = parse(
            &method.get_untracked(),
            &params.get_untracked(),
            notification.get_untracked(),
        );
        let (m, p) = match typed {
            Ok(typed) => typed,
            Err(why) => {
                outcome.set(Some(Err(why)));
                return;
            }
        };
        let Some(client) = client.get_value() else {
            return;
        };
        if notification.get_untracked() {
            client.notify(&m, p);
            outcome.set(Some(Ok(format!(
                "{m} sent (a notification gets no answer)"
            ))));
            return;
        }
        outcome.set(None);
        // Always asked of the server (a kept answer is not what someone typing a request
        // wants to see); the fresh answer is kept for the other tabs.
        let opts = client_browser::CallOptions {
            cache: client_browser::CacheMode::Refresh,
            ..crate::time_limit::call_options(time_limit.get_untracked())
        };
        let answer = in_flight.run(client.start(&m, p, opts), m);
        leptos::task::spawn_local(async move {
            let Some(answer) = answer.await else { return };
            outcome.set(Some(
                answer
                    .map(|v| crate::json_text::pretty(&v))
                    .map_err(|e| crate::doctor::explain(&e)),
            ));
        });
    };
    view! {
        <section class="send-request" aria-label="Send a request">
            <h3>"Send a request"</h3>
            <p class="help">"Any method with its params, for what the other tabs do not offer (an extension's methods, a task by its id). It goes out like any other request, with the era's headers, and shows in the wire log."</p>
            <label for="raw-method">"Method"</label>
            <input id="raw-method" list="raw-methods" autocomplete="off" spellcheck="false" prop:value=method on:input=move |ev| method.set(event_target_value(&ev)) />
            <datalist id="raw-methods">
                {SUGGESTED.iter().map(|m| view! { <option value=*m></option> }).collect_view()}
            </datalist>
            <label for="raw-params">"Params (a JSON object, or nothing)"</label>
            <textarea id="raw-params" rows="3" spellcheck="false" prop:value=params on:input=move |ev| params.set(event_target_value(&ev))
                on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) { ev.prevent_default(); send() }></textarea>
            <label class="inline"><input type="checkbox" id="raw-notification" prop:checked=notification on:change=move |ev| notification.set(event_target_checked(&ev)) /> " as a notification (no answer)"</label>
            <button type="button" class="send-raw" on:click=move |_| send()>"Send"</button>
            {move || in_flight.shown().map(|m| view! {
                <p class="busy" role="status">{format!("{m} sent, waiting for the answer… ")}
                    <button type="button" class="cancel-raw" on:click=move |_| in_flight.cancel()>"Cancel"</button>
                </p>
            })}
            {move || outcome.get().map(|o| match o {
                Ok(json) => view! { <LongText text=json pre_class="raw-answer" file="answer.json" /> }.into_any(),
                Err(why) => view! { <p class="call-error" role="alert">{why}</p> }.into_any(),
            })}
        </section>
    }
}
