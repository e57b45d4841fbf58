//! A server's elicitation request in form mode put to the person: a form made from the
//! requested schema (the answer checked against it), or the content typed as JSON; sent,
//! declined or cancelled.

use crate::connection::{Ask, AskDraft};
use crate::schema_check::checked_arguments;
use crate::schema_form::{build_arguments, fields_of, initial_values};
use crate::typed_json::typed_object;
use client_core::types::ElicitParams;
use leptos::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;

/// The form of elicitation request `p`, answered through `ask`.
#[component]
pub fn ElicitationAsk(ask: Ask, p: ElicitParams) -> impl IntoView {
    let schema = p
        .requested_schema
        .clone()
        .unwrap_or(json!({"type": "object"}));
    let fields = fields_of(&schema);
    // Starts from what the person made of it before its server's view was built again.
    let draft = ask.draft();
    let values = RwSignal::new(draft.values.unwrap_or_else(|| initial_values(&fields)));
    let errors = RwSignal::new(BTreeMap::<String, String>::new());
    // The content typed as JSON instead, sent as typed (to try the server's own checks).
    let typed_mode = RwSignal::new(draft.typed_mode);
    let typed = RwSignal::new(draft.typed);
    let keeper = ask.clone();
    Effect::new(move |_| {
        keeper.keep_draft(AskDraft {
            values: Some(values.get()),
            typed_mode: typed_mode.get(),
            typed: typed.get(),
            ..Default::default()
        })
    });
    let (a1, a2, a3) = (ask.clone(), ask.clone(), ask.clone());
    let f2 = fields.clone();
    let f3 = fields.clone();
    let checked = schema.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if typed_mode.get_untracked() {
            match typed_object(&typed.get_untracked()) {
                Ok(content) => a1.answer(Ok(json!({"action": "accept", "content": content}))),
                Err(e) => errors.set(BTreeMap::from([(
                    String::new(),
                    format!("Enter the content to send as a JSON object: this is {e}."),
                )])),
            }
            return;
        }
        // The specification asks clients to validate the answer against the schema.
        match checked_arguments(&f2, &values.get_untracked(), &checked) {
            Ok(content) => a1.answer(Ok(json!({"action": "accept", "content": content}))),
            Err(e) => errors.set(e),
        }
    };
    let switch = move |ev| {
        let on = event_target_checked(&ev);
        if on {
            // It starts from what the form holds.
            let content =
                build_arguments(&f3, &values.get_untracked()).unwrap_or_else(|_| json!({}));
            typed.set(serde_json::to_string_pretty(&content).unwrap_or_default());
        }
        errors.set(BTreeMap::new());
        typed_mode.set(on);
    };
    view! {
        <form class="ask elicitation" aria-label="The server asks for information" on:submit=submit>
            <h3>"The server asks for information"</h3>
            <p>{p.message.clone()}</p>
            <div class="elicitation-fields" hidden=move || typed_mode.get()>
                <crate::components::tool_runner::FieldsForm fields=fields values=values errors=errors />
            </div>
            <label class="raw-toggle"><input type="checkbox" class="elicitation-typed-toggle" prop:checked=typed_mode on:change=switch /> "Type the content as JSON (sent as typed, not checked)"</label>
            {move || typed_mode.get().then(|| view! {
                <textarea class="elicitation-typed" aria-label="The content to send, as JSON" rows="6" prop:value=typed on:input=move |ev| typed.set(event_target_value(&ev))></textarea>
            })}
            {move || errors.with(|e| e.get("").cloned()).map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <button type="submit" class="accept">"Send"</button>
            <button type="button" class="decline" on:click=move |_| a2.answer(Ok(json!({"action": "decline"})))>"Decline"</button>
            <button type="button" class="cancel" on:click=move |_| a3.answer(Ok(json!({"action": "cancel"})))>"Cancel"</button>
        </form>
    }
}
