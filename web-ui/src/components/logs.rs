//! Notifications and server log messages, and the wire log of every JSON-RPC message with a
//! filter and export to a file.

use crate::connection::{Connection, WireLine};
use leptos::prelude::*;

/// The wire log as JSON lines (one message per line, with its direction).
pub fn export_wire(lines: &[WireLine]) -> String {
    lines
        .iter()
        .map(|l| {
            let headers: serde_json::Map<String, serde_json::Value> =
                l.headers.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(redact(k, v)))).collect();
            serde_json::json!({"direction": if l.sent { "sent" } else { "received" }, "status": l.status, "headers": headers, "message": l.message}).to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Hides credentials in logged headers.
pub fn redact(name: &str, value: &str) -> String {
    if name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("cookie") {
        let scheme = value.split_whitespace().next().unwrap_or("");
        format!("{scheme} [redacted]")
    } else {
        value.to_string()
    }
}

/// Offers `text` as a file download.
fn download(name: &str, text: &str) {
    download_text(name, "application/x-ndjson", text);
}

/// Offers `text` of a MIME type as a file download.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    download_blob(name, &blob);
}

/// Offers a blob as a file download.
pub fn download_blob(name: &str, blob: &web_sys::Blob) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return;
    };
    let doc = leptos::prelude::document();
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", name);
        if let Some(a) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&a) {
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Notifications and the wire log of one connection.
#[component]
pub fn LogsPanel(conn: Connection) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let (log, wire) = (conn.log, conn.wire);
    let shown = move || {
        let f = crate::components::tools::lowercase(&filter.get());
        wire.with(|w| {
            w.iter()
                .rev()
                .take(500)
                .map(|l| {
                    let http = match (l.status, l.headers.is_empty()) {
                        (Some(s), _) => format!("HTTP {s} "),
                        _ => String::new(),
                    };
                    let headers = l
                        .headers
                        .iter()
                        .map(|(k, v)| format!("{k}: {}", redact(k, v)))
                        .collect::<Vec<_>>()
                        .join("\n");
                    (l.sent, l.message.to_string(), http, headers)
                })
                .filter(|(_, m, _, _)| {
                    f.is_empty() || crate::components::tools::lowercase(m).contains(&f)
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="logs" aria-label="Logs">
            <h3>"Notifications and log messages"</h3>
            <ul class="notifications">{move || log.get().into_iter().rev().take(200).map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
            <h3>"Wire"</h3>
            <label for="wire-filter">"Filter"</label>
            <input id="wire-filter" type="search" prop:value=filter on:input=move |ev| filter.set(event_target_value(&ev)) />
            <button class="export" on:click=move |_| download("mcp-wire-log.jsonl", &wire.with(|w| export_wire(w)))>"Export"</button>
            <ol class="wire">{move || shown().into_iter().map(|(sent, m, http, headers)| view! {
                <li class:sent=sent>
                    <span class="dir">{if sent { "→" } else { "←" }}</span>
                    <span class="http">{http}</span>
                    <code>{m}</code>
                    {(!headers.is_empty()).then(|| view! { <details class="headers"><summary>"headers"</summary><pre>{headers}</pre></details> })}
                </li>
            }).collect_view()}</ol>
        </section>
    }
}
