//! The tool calls a person adds to the answer of a sampling request that offers tools: pick
//! an offered tool, fill its input in a form made from its schema, add the call; the calls
//! added are listed and can be removed. What the answer may hold is checked when it is sent
//! (see [`crate::sampling_reply`]).

use crate::components::keyed_list::KeyedList;
use crate::sampling_reply::{call_id, OfferedTool, ToolCall, MAX_TOOL_CALLS};
use crate::schema_check::checked_arguments;
use crate::schema_form::{fields_of, initial_values};
use leptos::prelude::*;
use std::collections::BTreeMap;

/// The calls of `tools` added to the answer of ask `ask` (kept in `calls`; `added` counts
/// the calls ever added, which numbers them, so that a removed call's id is never given
/// again). `chosen` is the tool whose input form is shown (its place in `tools`), `typed`
/// what was typed in that form (by the tool's place): the dialog's, so that a form built
/// again starts from them. `required` says that the request asks for at least one.
#[component]
pub fn SamplingToolCalls(
    ask: u32,
    tools: Vec<OfferedTool>,
    calls: RwSignal<Vec<ToolCall>>,
    added: RwSignal<usize>,
    chosen: RwSignal<usize>,
    typed: RwSignal<Option<(usize, BTreeMap<String, String>)>>,
    required: bool,
) -> impl IntoView {
    let select_id = format!("sampling-tool-{ask}");
    let legend = if required {
        "Tool calls in the reply (the server requires at least one)"
    } else {
        "Tool calls in the reply (optional)"
    };
    let options = tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            view! { <option value=i.to_string() selected=chosen.get_untracked() == i>{t.name.clone()}</option> }
        })
        .collect_view();
    let tools = StoredValue::new(tools);
    // The chosen tool's description and input form, made again when another is chosen.
    let form = move || {
        let index = chosen.get();
        let Some(tool) = tools.with_value(|t| t.get(index).cloned()) else {
            return ().into_any();
        };
        let description = tool.description.clone();
        let fields = fields_of(&tool.input_schema);
        let values = RwSignal::new(
            typed
                .get_untracked()
                .filter(|(of, _)| *of == index)
                .map_or_else(|| initial_values(&fields), |(_, v)| v),
        );
        Effect::new(move |_| typed.set(Some((index, values.get()))));
        let errors = RwSignal::new(BTreeMap::<String, String>::new());
        let f2 = fields.clone();
        let add = move |_| {
            if calls.with_untracked(Vec::len) >= MAX_TOOL_CALLS {
                errors.set(BTreeMap::from([(
                    String::new(),
                    format!("A reply holds at most {MAX_TOOL_CALLS} tool calls."),
                )]));
                return;
            }
            match checked_arguments(&f2, &values.get_untracked(), &tool.input_schema) {
                Ok(input) => {
                    errors.set(BTreeMap::new());
                    let n = added.get_untracked() + 1;
                    added.set(n);
                    let call = ToolCall {
                        id: call_id(ask, n),
                        name: tool.name.clone(),
                        input,
                    };
                    calls.update(|c| c.push(call));
                }
                Err(e) => errors.set(e),
            }
        };
        view! {
            {description.map(|d| view! { <p class="help tool-description">{d}</p> })}
            <crate::components::tool_runner::FieldsForm fields=fields values=values errors=errors prefix=format!("sampling-{ask}-arg") multiline=true />
            {move || errors.with(|e| e.get("").cloned()).map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <button type="button" class="add-tool-call" on:click=add>"Add this call"</button>
        }
        .into_any()
    };
    view! {
        <fieldset class="sampling-tool-calls">
            <legend>{legend}</legend>
            <ol class="tool-calls" aria-label="Tool calls added">
                <KeyedList each=move || calls.get() key=|c| c.id.clone() let:call>
                    <AddedCall call=call calls=calls />
                </KeyedList>
            </ol>
            <label for=select_id.clone()>"Tool to call"</label>
            <select id=select_id class="sampling-tool" on:change=move |ev| {
                chosen.set(event_target_value(&ev).parse().unwrap_or(0))
            }>{options}</select>
            {form}
        </fieldset>
    }
}

/// One call added: the tool, its input as JSON text, and a button that takes it out.
#[component]
fn AddedCall(call: ToolCall, calls: RwSignal<Vec<ToolCall>>) -> impl IntoView {
    let input = serde_json::to_string(&call.input).unwrap_or_default();
    let remove_label = format!("Remove the call of {}", call.name);
    let id = call.id.clone();
    view! {
        <li class="tool-call" data-id=call.id.clone()>
            <code class="tool-call-name">{crate::bidi::contained(&call.name).into_owned()}</code>" "
            <code class="tool-call-input">{input}</code>" "
            <button type="button" class="remove-tool-call" aria-label=remove_label
                on:click=move |_| calls.update(|c| c.retain(|x| x.id != id))>"Remove"</button>
        </li>
    }
}
