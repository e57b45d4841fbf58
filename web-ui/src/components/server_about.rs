//! What the server declared about itself when connecting: protocol, identity, capabilities
//! (read as a short list, and whole as JSON).

use crate::components::long_text::LongText;
use crate::components::result_view::safe_link;
use client_browser::client_core::session::ServerDetails;
use client_browser::client_core::types::ServerCapabilities;
use leptos::prelude::*;
use serde_json::{json, Value};

/// The capabilities a server declared, one line each in the order of the specification,
/// with the options it set (`resources (subscribe, list changes)`); experimental
/// capabilities and extensions by name. Names come from the server: shown as text.
pub fn capability_summary(c: &ServerCapabilities) -> Vec<String> {
    let with = |name: &str, v: &Option<Value>, options: &[(&str, &str)]| {
        let v = v.as_ref()?;
        let set: Vec<&str> = options
            .iter()
            .filter(|(key, _)| v.get(*key).and_then(Value::as_bool) == Some(true))
            .map(|(_, said)| *said)
            .collect();
        Some(if set.is_empty() {
            name.to_string()
        } else {
            format!("{name} ({})", set.join(", "))
        })
    };
    let names = |what: &str, v: &Option<Value>| {
        // Each name kept to itself: an override in one does not turn the ", " after it around.
        let keys: Vec<std::borrow::Cow<'_, str>> = v
            .as_ref()?
            .as_object()?
            .keys()
            .map(|k| crate::bidi::isolated_if_steering(k))
            .collect();
        (!keys.is_empty()).then(|| format!("{what}: {}", keys.join(", ")))
    };
    let task_requests = |v: &Option<Value>| {
        // `tasks.requests.tools.call` and the like, as "tools/call".
        let requests = v.as_ref()?.get("requests")?.as_object()?;
        let mut methods = Vec::new();
        for (area, calls) in requests {
            for call in calls.as_object().into_iter().flat_map(|o| o.keys()) {
                methods.push(
                    crate::bidi::isolated_if_steering(&format!("{area}/{call}")).into_owned(),
                );
            }
        }
        Some(if methods.is_empty() {
            "tasks".to_string()
        } else {
            format!("tasks ({})", methods.join(", "))
        })
    };
    let changes = [("listChanged", "list changes")];
    [
        with("tools", &c.tools, &changes),
        with(
            "resources",
            &c.resources,
            &[("subscribe", "subscribe"), ("listChanged", "list changes")],
        ),
        with("prompts", &c.prompts, &changes),
        with("logging", &c.logging, &[]),
        with("completions", &c.completions, &[]),
        task_requests(&c.tasks),
        names("experimental", &c.experimental),
        names("extensions", &c.extensions),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// "What the server declared", folded: protocol, identity and capabilities.
#[component]
pub fn ServerAbout(details: ServerDetails) -> impl IntoView {
    let info = &details.server_info;
    let declared = crate::json_text::pretty(&json!({
        "protocolVersion": details.protocol_version,
        "serverInfo": info,
        "capabilities": details.capabilities,
    }));
    let summary = capability_summary(&details.capabilities);
    let website = info.website_url.as_deref().and_then(safe_link);
    view! {
        <details class="server-about">
            <summary>"What the server declared"</summary>
            <dl>
                <dt>"Protocol"</dt>
                <dd>{format!("{} ({} era, {})", details.protocol_version, crate::words::era_name(details.era), crate::words::wire_name(details.wire))}</dd>
                <dt>"Server"</dt>
                <dd><bdi>{crate::bidi::contained(info.title.as_deref().unwrap_or(&info.name)).into_owned()}</bdi> " " <bdi>{crate::bidi::contained(&info.version).into_owned()}</bdi> {info.title.is_some().then(|| view! { " (" <bdi>{crate::bidi::contained(&info.name).into_owned()}</bdi> ")" })}</dd>
                {info.description.clone().map(|d| view! { <dt>"Description"</dt><dd>{d}</dd> })}
                {website.map(|href| view! { <dt>"Website"</dt><dd><a href=href.clone() target="_blank" rel="noopener noreferrer">{href.clone()}</a></dd> })}
                <dt>"Capabilities"</dt>
                <dd>
                    {if summary.is_empty() {
                        view! { <span class="hint">"none"</span> }.into_any()
                    } else {
                        view! { <ul class="capabilities">{summary.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}</ul> }.into_any()
                    }}
                </dd>
            </dl>
            <details class="declared-raw">
                <summary>"As JSON"</summary>
                <LongText text=declared pre_class="declared-json" file="server.json" />
            </details>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_read_as_a_short_list() {
        let c: ServerCapabilities = serde_json::from_value(json!({
            "tools": { "listChanged": true },
            "resources": { "subscribe": true, "listChanged": false },
            "prompts": {},
            "logging": {},
            "tasks": { "requests": { "tools": { "call": {} } }, "list": {} },
            "experimental": { "x-trace": {}, "<b>": {} },
        }))
        .unwrap();
        assert_eq!(
            capability_summary(&c),
            [
                "tools (list changes)",
                "resources (subscribe)",
                "prompts",
                "logging",
                "tasks (tools/call)",
                "experimental: x-trace, <b>",
            ]
        );
        assert!(capability_summary(&ServerCapabilities::default()).is_empty());
    }

    #[test]
    fn a_name_that_steers_direction_is_kept_to_itself() {
        let c: ServerCapabilities = serde_json::from_value(json!({
            "tasks": { "requests": { "tools\u{202e}": { "call": {} }, "b": { "c": {} } } },
            "experimental": { "a\u{2069}\u{202e}": {}, "b": {} },
        }))
        .unwrap();
        assert_eq!(
            capability_summary(&c),
            [
                "tasks (\u{2068}tools\u{202e}/call\u{2069}, b/c)",
                "experimental: \u{2068}a\u{202e}\u{2069}, b",
            ]
        );
    }
}
