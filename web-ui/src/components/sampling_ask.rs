//! A server's (or a View's) sampling request put to the person: the conversation and the
//! request's settings, a reply to write, calls of the tools the request offers, or the whole
//! result typed as JSON; approved (sent) or rejected.

use crate::components::sampling_tool_calls::SamplingToolCalls;
use crate::connection::{Ask, AskDraft};
use crate::sampling_reply::{self, callable_tools, ToolChoice};
use crate::sampling_summary::{message_line, settings};
use client_core::types::CreateMessageParams;
use leptos::prelude::*;

/// The dialog of sampling request `p`, answered through `ask`.
#[component]
pub fn SamplingAsk(ask: Ask, p: CreateMessageParams) -> impl IntoView {
    let prompt: Vec<String> = p.messages.iter().map(message_line).collect();
    let facts = settings(&p);
    // Starts from what the person made of it before its server's view was built again.
    let draft = ask.draft();
    let reply = RwSignal::new(draft.text);
    let choice = ToolChoice::of(&p);
    let tools = callable_tools(&p);
    let calls = RwSignal::new(draft.calls);
    let added = RwSignal::new(draft.added);
    let (call_tool, call_values) = (
        RwSignal::new(draft.call_tool),
        RwSignal::new(draft.call_values),
    );
    // The whole result typed as JSON instead, sent as typed.
    let typed_mode = RwSignal::new(draft.typed_mode);
    let typed = RwSignal::new(draft.typed);
    let problem = RwSignal::new(None::<String>);
    let keeper = ask.clone();
    Effect::new(move |_| {
        keeper.keep_draft(AskDraft {
            text: reply.get(),
            calls: calls.get(),
            added: added.get(),
            call_tool: call_tool.get(),
            call_values: call_values.get(),
            typed_mode: typed_mode.get(),
            typed: typed.get(),
            values: None,
        })
    });
    let a1 = ask.clone();
    let a2 = ask.clone();
    let asks = format!(
        "{} asks for a model reply",
        ask.from.as_deref().unwrap_or("The server")
    );
    let offered = StoredValue::new(tools.clone());
    // A refusal said goes once the answer changes (a call added or removed, the text edited).
    Effect::new(move |_| {
        calls.track();
        reply.track();
        problem.set(None);
    });
    let approve = move |_| {
        let answer = if typed_mode.get_untracked() {
            sampling_reply::typed_reply(&typed.get_untracked())
        } else {
            let text = reply.get_untracked();
            offered.with_value(|o| {
                calls.with_untracked(|c| sampling_reply::reply(&text, c, choice, o))
            })
        };
        match answer {
            Ok(answer) => a1.answer(Ok(answer)),
            Err(e) => problem.set(Some(e.to_string())),
        }
    };
    let switch = move |ev| {
        let on = event_target_checked(&ev);
        if on {
            let text = reply.get_untracked();
            typed.set(offered.with_value(|o| {
                calls.with_untracked(|c| sampling_reply::typed_draft(&text, c, choice, o))
            }));
        }
        problem.set(None);
        typed_mode.set(on);
    };
    let tool_calls = (!tools.is_empty()).then(|| {
        let required = choice == ToolChoice::Required;
        view! { <SamplingToolCalls ask=ask.id tools=tools calls=calls added=added chosen=call_tool typed=call_values required=required /> }
    });
    let reply_id = format!("sampling-reply-{}", ask.id);
    view! {
        <section class="ask sampling" role="dialog" aria-label=asks.clone()>
            <h3><bdi>{crate::bidi::contained(ask.from.as_deref().unwrap_or("The server")).into_owned()}</bdi> " asks for a model reply"</h3>
            {p.system_prompt.clone().map(|s| view! { <p class="system">"System: " {s}</p> })}
            <ul class="messages">{prompt.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
            <dl class="sampling-settings">
                {facts.into_iter().map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> }).collect_view()}
            </dl>
            <div class="sampling-answer" hidden=move || typed_mode.get()>
                <label for=reply_id.clone()>"Reply to send"</label>
                <textarea id=reply_id class="sampling-reply" rows="3" prop:value=reply on:input=move |ev| reply.set(event_target_value(&ev))></textarea>
                {tool_calls}
            </div>
            <label class="raw-toggle"><input type="checkbox" class="sampling-typed-toggle" prop:checked=typed_mode on:change=switch /> "Type the whole result as JSON (sent as typed, not checked)"</label>
            {move || typed_mode.get().then(|| view! {
                <textarea class="sampling-typed" aria-label="The result to send, as JSON" rows="8" prop:value=typed on:input=move |ev| typed.set(event_target_value(&ev))></textarea>
            })}
            {move || problem.get().map(|p| view! { <p class="field-error sampling-problem" role="alert">{p}</p> })}
            <button class="approve" on:click=approve>"Approve and send"</button>
            <button class="reject" on:click=move |_| a2.answer(Err(client_browser::client_core::ErrorObject::new(-1, "the user rejected the sampling request")))>"Reject"</button>
        </section>
    }
}
