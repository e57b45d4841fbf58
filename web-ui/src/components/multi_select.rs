//! A multi-select: a list of fixed choices (elicitation's multi-select enums, a tool's array
//! of an enum) as one checkbox per choice, each shown by its title.

use crate::bidi::contained;
use crate::components::tool_runner::{described_by, forget_error, FieldNotes};
use crate::schema_form::{chosen_keys, shown_choices, with_choice, Choice, Field};
use leptos::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
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
    let described = described_by(&id, &field);
    let path = Arc::new(field.path.clone());
    let shown = shown_choices(&choices);
    // The chosen keys, read from the field's text once per change (not once per box).
    let p = path.clone();
    let chosen = Memo::new(move |_| {
        values.with(|v| {
            let text = v.get(p.as_str()).map_or("", String::as_str);
            chosen_keys(text)
                .into_iter()
                .map(str::to_owned)
                .collect::<BTreeSet<String>>()
        })
    });
    let choices = Arc::new(choices);
    let boxes = choices
        .iter()
        .zip(shown)
        .enumerate()
        .map(|(i, (choice, text))| {
            let key = Arc::new(choice.key());
            let k = key.clone();
            let checked = move || chosen.with(|c| c.contains(k.as_str()));
            let (p, all) = (path.clone(), choices.clone());
            let toggle = move |ev| {
                let on = event_target_checked(&ev);
                values.update(|m| {
                    let held = m.get(p.as_str()).map_or("", String::as_str);
                    let now = with_choice(held, &all, &key, on);
                    m.insert(p.to_string(), now);
                });
                forget_error(errors, &p);
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
    let error = Signal::derive(move || errors.with(|e| e.get(p.as_str()).cloned()));
    let label = contained(&field.label).into_owned();
    let required = field.required.then_some(" *");
    view! {
        <fieldset class="field choices" id=id.clone() aria-describedby=described>
            // The server's title isolated: the " *" after it stays where the app puts it.
            <legend><bdi>{label}</bdi> {required}</legend>
            {boxes}
            <FieldNotes field=field id=id.clone() error=error />
        </fieldset>
    }
}
