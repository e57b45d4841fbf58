//! Prompts: the list, an argument form with completions, and the returned messages.

use crate::components::completing_input::CompletingInput;
use crate::components::copy_button::CopyButton;
use crate::components::keyed_list::KeyedList;
use crate::components::result_view::{AsJson, ContentView};
use crate::connection::Connection;
use crate::decoded::Decoded;
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

/// A prompt's form filled (or not) from the link that opened the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptFromLink {
    /// The prompt the link named.
    pub prompt: String,
    /// Why the link's arguments were not put in the form, where they were not.
    pub unread: Option<String>,
}

/// A `prompts/get` answer: its messages and description shown, the whole as it came.
pub type GottenPrompt = Decoded<GetPromptResult>;

/// The values a link's `args` (JSON text) put in a prompt's form. A prompt's arguments are
/// text, so a number or a boolean goes in as it is written and `null` leaves the argument
/// out; anything else says why it cannot go in (and then nothing of it does).
pub fn values_from_link(text: &str) -> Result<BTreeMap<String, String>, String> {
    use serde_json::Value;
    let Ok(Value::Object(args)) = serde_json::from_str::<Value>(text) else {
        return Err("they are not a JSON object".into());
    };
    let mut values = BTreeMap::new();
    for (name, value) in args {
        let text = match value {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Null => continue,
            Value::Array(_) | Value::Object(_) => {
                return Err(format!("“{}” is not text", crate::bidi::contained(&name)))
            }
        };
        values.insert(name, text);
    }
    Ok(values)
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

/// The link arguments (JSON text) of the values typed in a prompt's form, if any is: the
/// non-empty ones, as the prompt would be asked for with them.
pub fn link_values(values: &BTreeMap<String, String>) -> Option<String> {
    let typed: serde_json::Map<String, serde_json::Value> = values
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    (!typed.is_empty()).then(|| serde_json::Value::Object(typed).to_string())
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
    // Whether `prompts` holds what the server listed (a chosen prompt it lacks says so then).
    let listed = RwSignal::new(false);
    // Listed when the tab opens and again whenever the server says the prompts changed.
    crate::connection::list_on_change(
        &conn,
        conn.prompts_changed,
        crate::stale_lists::PROMPTS,
        |client| async move { client.list_prompts().await },
        move |answer| match answer {
            Ok(p) => {
                prompts.set(p);
                listed.set(true);
            }
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
                    // A prompt chosen by a link that this server does not list.
                    None => match selected.get().filter(|_| listed.get()) {
                        Some(name) => view! {
                            <p class="hint unlisted-prompt" role="status">"This server lists no prompt named “" <bdi>{crate::bidi::contained(&name).into_owned()}</bdi> "”. Choose a prompt."</p>
                        }.into_any(),
                        None => view! { <p class="hint">"Choose a prompt."</p> }.into_any(),
                    },
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
    let linked = conn.linked_prompt;
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
        // Get: the notice about arguments from a link has done its work.
        linked.set(None);
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
            let got = got.and_then(|v| GottenPrompt::decode("prompts/get", v));
            result.set(Some((gotten, got.map_err(|e| crate::doctor::explain(&e)))));
        });
    };
    view! {
        <form class="prompt-runner" on:submit=get>
            <h3>{prompt.title.clone().unwrap_or(prompt.name.clone())}</h3>
            <p class="prompt-name"><bdi>{crate::bidi::contained(&prompt.name).into_owned()}</bdi> " "
            {
                // Links that open this prompt's form on this server, and with the values as
                // they stand while any is typed (the app's own page only).
                crate::deep_link::links_for(&conn).map(|links| {
                    let name = prompt.name.clone();
                    let link = move |args: Option<&str>| links(crate::deep_link::Opens::Prompt(&name), args);
                    let to_prompt = StoredValue::new(link(None));
                    let with_values = move || {
                        link_values(&values.get()).map(|args| StoredValue::new(link(Some(&args))))
                    };
                    view! {
                        <span class="prompt-link"><CopyButton text=to_prompt label="Copy link to this prompt" /></span>
                        {move || with_values().map(|text| view! { " " <span class="call-link"><CopyButton text=text label="Copy link with these arguments" /></span> })}
                    }
                })
            }
            </p>
            {
                // Arguments a link put in (whoever made the link chose them), or could not.
                let this = prompt.name.clone();
                move || linked.get().filter(|l| l.prompt == this).map(|l| {
                    let said = match l.unread {
                        None => "The arguments below came with the link that opened this page. Nothing has been asked for: read them before you get the prompt. ".to_string(),
                        Some(why) => format!("The link that opened this page carried arguments for this prompt that cannot go in its form ({why}), so none did. "),
                    };
                    view! {
                        <p class="from-link" role="status">
                            {said}
                            <button type="button" class="dismiss" on:click=move |_| linked.set(None)>"OK"</button>
                        </p>
                    }
                })
            }
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
                Ok(Decoded { value: p, raw }) => view! {
                    {p.description.map(|d| view! { <p class="prompt-description">{d}</p> })}
                    <ol class="prompt-messages">
                        {p.messages.into_iter().map(|m| view! { <li><span class="role">{crate::words::role_name(m.role)}</span><ContentView block=m.content /></li> }).collect_view()}
                    </ol>
                    <AsJson value=raw summary="The prompt as JSON" file="prompt.json" />
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

    #[test]
    fn a_links_arguments_fill_a_prompts_text_fields() {
        let values = values_from_link(r#"{"city":"Zürich","days":3,"metric":true,"zip":null}"#);
        assert_eq!(
            values,
            Ok(BTreeMap::from([
                ("city".to_string(), "Zürich".to_string()),
                ("days".to_string(), "3".to_string()),
                ("metric".to_string(), "true".to_string()),
            ]))
        );
        // What cannot go in a text field says so, and nothing of it goes in.
        assert_eq!(
            values_from_link(r#"{"city":"Oslo","tags":["a"]}"#),
            Err("“tags” is not text".to_string())
        );
        for not_an_object in ["[1]", "\"x\"", "{broken", ""] {
            assert_eq!(
                values_from_link(not_an_object),
                Err("they are not a JSON object".to_string())
            );
        }
    }

    #[test]
    fn a_link_carries_the_typed_values_and_only_those() {
        let mut values = BTreeMap::from([("city".to_string(), String::new())]);
        assert_eq!(link_values(&values), None);
        values.insert("style".to_string(), "terse & \"short\"".to_string());
        let text = link_values(&values);
        assert_eq!(text.as_deref(), Some(r#"{"style":"terse & \"short\""}"#));
        // And a link made of them fills the form as it was.
        let back = values_from_link(&text.unwrap_or_default());
        values.remove("city");
        assert_eq!(back, Ok(values));
    }
}
