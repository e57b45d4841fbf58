//! Questions from the server: sampling requests to approve or reject (with an editable reply,
//! and calls of the tools the request offers),
//! elicitation forms rendered from the requested schema, and URL elicitations that show the
//! full URL and ask for explicit consent (never prefetched).

use crate::components::sampling_tool_calls::SamplingToolCalls;
use crate::connection::{Ask, AskKind, Connection};
use crate::sampling_reply::{self, callable_tools, ToolCall, ToolChoice};
use crate::sampling_summary::{message_line, settings};
use crate::schema_check::{check, error_by_field, Verdict};
use crate::schema_form::{build_arguments, fields_of, initial_values};
use leptos::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;

/// All open questions of a connection.
#[component]
pub fn AsksPanel(conn: Connection) -> impl IntoView {
    let asks = conn.asks;
    view! {
        <For each=move || asks.get() key=|a| a.id let:ask>
            <AskView ask=ask />
        </For>
    }
}

#[component]
fn AskView(ask: Ask) -> impl IntoView {
    match ask.kind.clone() {
        AskKind::Sampling(p) => {
            let prompt: Vec<String> = p.messages.iter().map(message_line).collect();
            let facts = settings(&p);
            let reply = RwSignal::new(String::new());
            let choice = ToolChoice::of(&p);
            let tools = callable_tools(&p);
            let calls = RwSignal::new(Vec::<ToolCall>::new());
            // The whole result typed as JSON instead, sent as typed.
            let typed_mode = RwSignal::new(false);
            let typed = RwSignal::new(String::new());
            let problem = RwSignal::new(None::<String>);
            let a1 = ask.clone();
            let a2 = ask.clone();
            let asks = format!(
                "{} asks for a model reply",
                ask.from.as_deref().unwrap_or("The server")
            );
            let offered = StoredValue::new(tools.clone());
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
                view! { <SamplingToolCalls ask=ask.id tools=tools calls=calls required=required /> }
            });
            let reply_id = format!("sampling-reply-{}", ask.id);
            view! {
                <section class="ask sampling" role="dialog" aria-label=asks.clone()>
                    <h3>{asks.clone()}</h3>
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
            .into_any()
        }
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
        AskKind::Elicitation(p) => {
            let schema = p
                .requested_schema
                .clone()
                .unwrap_or(json!({"type": "object"}));
            let fields = fields_of(&schema);
            let values = RwSignal::new(initial_values(&fields));
            let errors = RwSignal::new(BTreeMap::<String, String>::new());
            // The content typed as JSON instead, sent as typed (to try the server's own checks).
            let typed_mode = RwSignal::new(false);
            let typed = RwSignal::new(String::new());
            let (a1, a2, a3) = (ask.clone(), ask.clone(), ask.clone());
            let f2 = fields.clone();
            let f3 = fields.clone();
            let checked = schema.clone();
            let submit = move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                if typed_mode.get_untracked() {
                    match serde_json::from_str::<serde_json::Value>(&typed.get_untracked()) {
                        Ok(content) if content.is_object() => {
                            a1.answer(Ok(json!({"action": "accept", "content": content})))
                        }
                        _ => errors.set(BTreeMap::from([(
                            String::new(),
                            "Enter the content to send as a JSON object.".to_string(),
                        )])),
                    }
                    return;
                }
                match build_arguments(&f2, &values.get_untracked()) {
                    // The specification asks clients to validate the answer against the schema.
                    Ok(content) => match check(&checked, &content) {
                        Verdict::Invalid(m) => errors.set(BTreeMap::from([error_by_field(&m)])),
                        _ => a1.answer(Ok(json!({"action": "accept", "content": content}))),
                    },
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
            .into_any()
        }
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
