//! A multi-select: a list of fixed choices (elicitation's multi-select enums, a tool's array
//! of an enum) as one checkbox per choice, each shown by its title.

use crate::bidi::contained;
use crate::schema_form::{chosen_keys, shown_choices, with_choice, Choice, Field};
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The `choices` of `field` as checkboxes, in a group named by the field's label. The form
/// holds the chosen keys, one per line (see [`with_choice`]); its check before sending says
/// what the schema asks beyond that (how many, at least or at most).
#[component]
pub fn MultiSelect(
    field: Field,
    choices: Vec<Choice>,
    /// The group's element id; each box's is this with `-1`, `-2`… after it.
    id: String,
    values: RwSignal<BTreeMap<String, String>>,
    errors: RwSignal<BTreeMap<String, String>>,
) -> impl IntoView {
    let described = crate::components::tool_runner::described_by(&id, &field);
    let path = Arc::new(field.path);
    let shown = shown_choices(&choices);
    let choices = Arc::new(choices);
    let boxes = choices
        .iter()
        .zip(shown)
        .enumerate()
        .map(|(i, (choice, text))| {
            let key = Arc::new(choice.key());
            let (p, k) = (path.clone(), key.clone());
            let checked = move || {
                values.with(|v| chosen_keys(v.get(p.as_str()).map_or("", String::as_str)).contains(&k.as_str()))
            };
            let (p, all) = (path.clone(), choices.clone());
            let toggle = move |ev| {
                let on = event_target_checked(&ev);
                values.update(|m| {
                    let held = m.get(p.as_str()).map_or("", String::as_str);
                    let now = with_choice(held, &all, &key, on);
                    m.insert(p.to_string(), now);
                });
                crate::components::tool_runner::forget_error(errors, &p);
            };
            view! {
                <label class="choice">
                    <input type="checkbox" id=format!("{id}-{}", i + 1) prop:checked=checked on:change=toggle />
                    <bdi>{contained(&text).into_owned()}</bdi>
                </label>
            }
        })
        .collect_view();
    let p = path.clone();
    let error = move || errors.with(|e| e.get(p.as_str()).cloned());
    view! {
        <fieldset class="field choices" id=id.clone() aria-describedby=described>
            // The server's title isolated: the " *" after it stays where the app puts it.
            <legend><bdi>{contained(&field.label).into_owned()}</bdi> {field.required.then_some(" *")}</legend>
            {boxes}
            {field.description.map(|d| view! { <small class="help" id=format!("{id}-help")>{d}</small> })}
            {field.limits.map(|l| view! { <small class="help limits" id=format!("{id}-limits")>{crate::bidi::contained(&l).into_owned()}</small> })}
            {move || error().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </fieldset>
    }
}
