//! Prompts: the list, an argument form with completions, and the returned messages.

use crate::components::completing_input::CompletingInput;
use crate::components::keyed_list::KeyedList;
use crate::components::result_view::ContentView;
use crate::connection::Connection;
use crate::in_flight::InFlight;
use crate::search::{first_found, found_in, SearchBox};
use client_browser::client_core::types::{GetPromptResult, Prompt, PromptArgument};
use leptos::prelude::*;
use serde_json::json;
use std::collections::{BTreeMap, HashMap};

/// The required arguments of `args` left empty in `values`, by name: the prompt is not asked
/// for until each is given (the server would only refuse it).
pub fn missing_arguments(
    args: &[PromptArgument],
    values: &BTreeMap<String, String>,
) -> Vec<String> {
    args.iter()
        .filter(|a| a.required == Some(true))
        .filter(|a| values.get(&a.name).is_none_or(String::is_empty))
        .map(|a| a.name.clone())
        .collect()
}

/// What the prompt search looks in (name, title and description), lower-cased: computed once
/// per listing, not per keystroke.
pub fn haystack(prompt: &Prompt) -> String {
    crate::search::haystack(&[
        Some(&prompt.name),
        prompt.title.as_deref(),
        prompt.description.as_deref(),
    ])
}

/// Most prompts rendered at once; the search narrows the rest.
const SHOWN: usize = 500;

/// The prompts tab of one connection.
#[component]
pub fn PromptsPanel(conn: Connection) -> impl IntoView {
    let prompts = RwSignal::new(Vec::<Prompt>::new());
    // Kept by the connection, like the chosen prompt, while the tab is left.
    let query = conn.searches.prompts;
    let haystacks =
        Memo::new(move |_| prompts.with(|p| p.iter().map(haystack).collect::<Vec<_>>()));
    let found = found_in(haystacks, query);
    let shown = move || first_found(prompts, found, SHOWN);
    // Kept by the connection, with the values typed and the answer, while the tab is left.
    let selected = conn.chosen_prompt;
    // Each prompt's form keeps what was typed in it (see `PromptRunner`).
    let choose = move |name: String| {
        if selected.get_untracked().as_deref() != Some(name.as_str()) {
            selected.set(Some(name));
        }
    };
    let error = RwSignal::new(None::<String>);
    // Listed when the tab opens and again whenever the server says the prompts changed.
    crate::connection::list_on_change(
        &conn,
        conn.prompts_changed,
        crate::stale_lists::PROMPTS,
        |client| async move { client.list_prompts().await },
        move |listed| match listed {
            Ok(p) => prompts.set(p),
            Err(e) => error.set(Some(crate::doctor::explain(&e))),
        },
    );
    let current = move || {
        let name = selected.get()?;
        prompts.with(|p| p.iter().find(|x| x.name == name).cloned())
    };
    view! {
        <section class="prompts split" aria-label="Prompts">
            <div class="list">
                {move || error.get().map(|e| view! { <p class="call-error" role="alert">{e}</p> })}
                <SearchBox id="prompt-search" noun="prompts" one="prompt" query=query total=Signal::derive(move || prompts.with(Vec::len)) found=found shown=SHOWN />
                <ul class="prompt-list" aria-label="Prompt list" on:keydown=move |ev| { crate::keys::move_focus(&ev, "button.prompt", crate::keys::Layout::Column); }>
                    <KeyedList each=shown key=|p| p.name.clone() let:p>
                        {
                            let (name, n2) = (p.name.clone(), p.name.clone());
                            let is_current = move || selected.with(|s| s.as_deref() == Some(n2.as_str()));
                            view! {
                                <li>
                                    <button class="prompt" data-prompt=p.name.clone() aria-current=move || is_current().to_string() on:click=move |ev| { choose(name.clone()); crate::detail_view::bring_into_view(ev.current_target()); }>{crate::icons::icon_view(p.icons.as_deref())}<span class="name">{crate::bidi::contained(p.title.as_deref().unwrap_or(&p.name)).into_owned()}</span></button>
                                    {p.description.clone().map(|d| { let shown = crate::bidi::contained(&d).into_owned(); view! { <small class="help" title=d>{shown}</small> } })}
                                </li>
                            }
                        }
                    </KeyedList>
                </ul>
            </div>
            <div class="detail">
                {move || match current() {
                    Some(p) => view! { <PromptRunner conn=conn.clone() prompt=p /> }.into_any(),
                    None => view! { <p class="hint">"Choose a prompt."</p> }.into_any(),
                }}
            </div>
        </section>
    }
}

#[component]
fn PromptRunner(conn: Connection, prompt: Prompt) -> impl IntoView {
    // What was typed is the connection's, per prompt: still there when the prompt is chosen
    // again; so is its answer, unless another prompt was gotten meanwhile.
    let (kept, result) = (conn.prompt_values, conn.prompt_result);
    let key = prompt.name.clone();
    let values = RwSignal::new(kept.with_untracked(|k| k.get(&key).cloned().unwrap_or_default()));
    Effect::new(move |_| {
        let typed = values.get();
        kept.update_untracked(|k| crate::typed_forms::keep_typed(k, &key, typed));
    });
    let args = prompt.arguments.clone().unwrap_or_default();
    // The required arguments a Get found empty: each says so until it is filled.
    let refused = RwSignal::new(Vec::<String>::new());
    let reference = json!({"type": "ref/prompt", "name": prompt.name});
    let inputs = args
        .iter()
        .map(|a| {
            let id = format!("prompt-arg-{}", a.name);
            // The server's title isolated: the " *" after it stays where the app puts it.
            let title = crate::bidi::contained(a.title.as_deref().unwrap_or(&a.name)).into_owned();
            let label = view! { <bdi>{title}</bdi> {(a.required == Some(true)).then_some(" *")} };
            let help = format!("{id}-help");
            let described = a.description.as_ref().map(|_| help.clone());
            let name = a.name.clone();
            let unfilled = move || {
                refused.with(|r| r.contains(&name))
                    && values.with(|v| v.get(&name).is_none_or(String::is_empty))
            };
            view! {
                <div class="field">
                    <label for=id.clone()>{label}</label>
                    <CompletingInput conn=conn.clone() reference=reference.clone() name=a.name.clone() id=id described=described values=values />
                    {a.description.clone().map(|d| view! { <small class="help" id=help>{d}</small> })}
                    {move || unfilled().then(|| view! { <span class="field-error" role="alert">"required"</span> })}
                </div>
            }
        })
        .collect_view();
    // The request under way, shown with a Cancel button; a newer one replaces it.
    let getting = InFlight::<()>::new(&conn);
    let required = args.clone();
    let name = prompt.name.clone();
    let shown_name = prompt.name.clone();
    let get = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let missing = values.with_untracked(|v| missing_arguments(&required, v));
        let nothing_missing = missing.is_empty();
        refused.set(missing);
        if !nothing_missing {
            return;
        }
        let Some(client) = conn.client.get_value() else {
            return;
        };
        let args: HashMap<String, String> = values
            .get_untracked()
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect();
        result.set(None);
        let params = json!({ "name": name, "arguments": args });
        let gotten = name.clone();
        let opts = crate::time_limit::call_options(conn.time_limit.get_untracked());
        let call = client.start("prompts/get", Some(params), opts);
        let got = getting.run(call, ());
        leptos::task::spawn_local(async move {
            let Some(got) = got.await else {
                return;
            };
            let got = got.and_then(|v| client_browser::decode::<GetPromptResult>("prompts/get", v));
            result.set(Some((gotten, got.map_err(|e| crate::doctor::explain(&e)))));
        });
    };
    view! {
        <form class="prompt-runner" on:submit=get>
            <h3>{prompt.title.clone().unwrap_or(prompt.name.clone())}</h3>
            {prompt.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            {inputs}
            <div class="actions">
                <button type="submit" class="get-prompt">"Get prompt"</button>
                <Show when=move || getting.shown().is_some()>
                    <span class="reading" role="status">"Getting the prompt…"</span>
                    <button type="button" class="cancel" on:click=move |_| getting.cancel()>"Cancel"</button>
                </Show>
            </div>
            {move || result.get().filter(|(of, _)| *of == shown_name).map(|(_, r)| match r {
                Ok(p) => view! {
                    <ol class="prompt-messages">
                        {p.messages.into_iter().map(|m| view! { <li><span class="role">{format!("{:?}", m.role)}</span><ContentView block=m.content /></li> }).collect_view()}
                    </ol>
                }.into_any(),
                Err(e) => view! { <p class="call-error" role="alert">{e}</p> }.into_any(),
            })}
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{matches, query_words};

    #[test]
    fn prompt_search_looks_in_name_title_and_description() {
        let p: Prompt = serde_json::from_value(json!({"name": "code_review",
            "title": "Revue de Code", "description": "Reviews a diff for bugs"}))
        .unwrap();
        let hay = haystack(&p);
        let found = |q: &str| matches(&hay, &query_words(q));
        assert!(["code_review", "revue", "DIFF bugs", ""]
            .into_iter()
            .all(found));
        assert!(!["summarise", "review tests"].into_iter().any(found));
    }

    #[test]
    fn a_required_argument_left_empty_is_missing() {
        let arg = |name: &str, required: Option<bool>| {
            serde_json::from_value::<PromptArgument>(json!({"name": name, "required": required}))
                .unwrap()
        };
        let args = [
            arg("city", Some(true)),
            arg("state", None),
            arg("zip", Some(false)),
            arg("code", Some(true)),
        ];
        let mut values = BTreeMap::new();
        assert_eq!(missing_arguments(&args, &values), ["city", "code"]);
        values.insert("city".to_string(), "Lisbon".to_string());
        values.insert("code".to_string(), String::new());
        assert_eq!(missing_arguments(&args, &values), ["code"]);
        // What is sent is what was typed: spaces are a value.
        values.insert("code".to_string(), " ".to_string());
        assert!(missing_arguments(&args, &values).is_empty());
    }
}
