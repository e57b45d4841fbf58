//! An argument input (of a prompt or a resource template) with completions from the server.

use crate::connection::Connection;
use leptos::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// The other arguments filled in so far: what `completion/complete` sends as
/// `context.arguments`, so that a server can narrow one argument by another.
pub fn completion_context(
    values: &BTreeMap<String, String>,
    argument: &str,
) -> Vec<(String, String)> {
    values
        .iter()
        .filter(|(name, value)| name.as_str() != argument && !value.is_empty())
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

/// The input for argument `name` of `reference` (a `ref/prompt` or `ref/resource` object),
/// its value kept in `values`. Typing asks the server for completions, shown as the input's
/// suggestions; an answer to an older keystroke never replaces a newer one.
#[component]
pub fn CompletingInput(
    conn: Connection,
    reference: Value,
    name: String,
    id: String,
    /// The ids of the texts that describe it (`aria-describedby`).
    #[prop(default = None)]
    described: Option<String>,
    values: RwSignal<BTreeMap<String, String>>,
) -> impl IntoView {
    let suggestions = RwSignal::new(Vec::<String>::new());
    let asked = StoredValue::new(0u32);
    let list = format!("{id}-list");
    let shown = name.clone();
    let on_input = move |ev| {
        let value = event_target_value(&ev);
        values.update(|m| {
            m.insert(name.clone(), value.clone());
        });
        let Some(client) = conn.client.get_value() else {
            return;
        };
        let context = values.with_untracked(|m| completion_context(m, &name));
        let ask = asked.get_value() + 1;
        asked.set_value(ask);
        let (argument, reference) = (name.clone(), reference.clone());
        leptos::task::spawn_local(async move {
            let context: Vec<(&str, &str)> = context
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let answer = client
                .complete(reference, &argument, &value, &context)
                .await;
            // Only the answer to the newest question, and only while the input is still there.
            if let (Ok(c), true) = (answer, asked.try_get_value() == Some(ask)) {
                suggestions.set(c.values);
            }
        });
    };
    view! {
        <input id=id list=list.clone() aria-describedby=described prop:value=move || values.with(|m| m.get(&shown).cloned().unwrap_or_default()) on:input=on_input />
        <datalist id=list>{move || suggestions.get().into_iter().map(|o| view! { <option value=o></option> }).collect_view()}</datalist>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_the_other_filled_in_arguments() {
        let values = BTreeMap::from([
            ("department".to_string(), "Sales".to_string()),
            ("name".to_string(), "Da".to_string()),
            ("empty".to_string(), String::new()),
        ]);
        assert_eq!(
            completion_context(&values, "name"),
            [("department".to_string(), "Sales".to_string())]
        );
        assert!(completion_context(&BTreeMap::new(), "name").is_empty());
    }
}
