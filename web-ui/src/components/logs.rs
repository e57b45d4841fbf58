//! Notifications and server log messages, and the wire log of every JSON-RPC message with a
//! filter and export to a file.

use crate::components::copy_button::CopyButton;
use crate::components::keyed_list::KeyedList;
use crate::components::long_text::{human_bytes, prefix};
use crate::components::send_request::SendRequest;
use crate::connection::Connection;
use crate::wire_log::{as_curl, export, matches, redact, Notes, WireLine, WireLog};
use leptos::prelude::*;
use std::sync::Arc;

/// Wire lines shown (newest first); the export has all that are kept.
const SHOWN_LINES: usize = 500;
/// Notifications and log messages shown (the newest; more are kept, see `MAX_NOTES`).
const SHOWN_NOTES: usize = 200;
/// Bytes of a message shown in its line; the rest is behind "whole message".
const LINE_BYTES: usize = 4096;

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

/// A time of day (the page's time zone) from milliseconds since the Unix epoch, to the
/// millisecond: `14:03:07.042`.
pub(crate) fn time_of_day(at_ms: f64) -> String {
    let d = js_sys::Date::new(&at_ms.into());
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds(),
        d.get_milliseconds()
    )
}

/// One line of the wire log: when, direction, HTTP status, how long an answer took, the
/// message (its beginning when long, the rest on demand) and the headers.
#[component]
fn WireRow(
    line: Arc<WireLine>,
    /// Where the connection POSTs its messages, when that is one URL (Streamable HTTP): a
    /// message we sent there can be copied as a `curl` command.
    post_url: Memo<Option<String>>,
) -> impl IntoView {
    let copyable = line.sent && !line.is_cut() && !line.headers.is_empty();
    let for_curl = line.clone();
    let curl = move || {
        let url = post_url.get().filter(|_| copyable)?;
        let text = StoredValue::new(as_curl(&url, &for_curl.headers, &for_curl.text));
        Some(
            view! { <span class="copy-curl" title="The POST again as a curl command (the token from $MCP_TOKEN)"><CopyButton text=text label="Copy as curl" /></span> },
        )
    };
    let http = line
        .status
        .map(|s| format!("HTTP {s} "))
        .unwrap_or_default();
    let headers = line
        .headers
        .iter()
        .map(|(k, v)| format!("{k}: {}", redact(k, v)))
        .collect::<Vec<_>>()
        .join("\n");
    // Shown with bidi controls as escapes (a control would turn the rest of a line around);
    // copied and exported as sent.
    let start = prefix(&line.text, LINE_BYTES);
    let more = (start.len() < line.text.len()).then(|| {
        let label = format!("whole message ({})", human_bytes(line.bytes));
        let text = crate::bidi::revealed(&line.text).into_owned();
        view! { <details class="whole"><summary>{label}</summary><code>{text}</code></details> }
    });
    let cut = line.is_cut().then(|| {
        format!(
            "only the first {} of {} is kept; the export says how long it was",
            human_bytes(line.text.len()),
            human_bytes(line.bytes)
        )
    });
    view! {
        <li class:sent=line.sent data-seq=line.seq>
            <time class="at">{time_of_day(line.at_ms)}</time>
            <span class="dir">{if line.sent { "→" } else { "←" }}</span>
            {line.took_ms.map(|ms| view! { <span class="took" title="after its request">{format!("{ms:.0} ms")}</span> })}
            <span class="http">{http}</span>
            <code>{crate::bidi::revealed(start).into_owned()}{more.is_some().then_some(" …")}</code>
            {more}
            {cut.map(|c| view! { <p class="cut">{c}</p> })}
            {(!headers.is_empty()).then(|| view! { <details class="headers"><summary>"headers"</summary><pre>{headers}</pre></details> })}
            {curl}
        </li>
    }
}

/// Notifications and the wire log of one connection.
#[component]
pub fn LogsPanel(conn: Connection) -> impl IntoView {
    let filter = conn.searches.wire;
    let (log, wire) = (conn.log, conn.wire);
    let (url, details) = (conn.url.clone(), conn.details);
    let post_url = Memo::new(move |_| {
        details.with(|d| {
            d.as_ref()
                .filter(|d| {
                    d.wire == client_browser::client_core::session::WireProtocol::StreamableHttp
                })
                .map(|_| url.clone())
        })
    });
    let shown = move || {
        let needle = crate::search::lowercase(&filter.get());
        wire.with(|w| {
            w.lines()
                .rev()
                .filter(|l| matches(l, &needle))
                .take(SHOWN_LINES)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let dropped = move || {
        let n = wire.with(|w| w.dropped());
        (n > 0).then(
            || view! { <p class="dropped">{format!("{n} older messages are no longer kept.")}</p> },
        )
    };
    view! {
        <section class="logs" aria-label="Logs">
            <h3>"Notifications and log messages"</h3>
            <button class="clear-notes" on:click=move |_| log.update(Notes::clear)>"Clear"</button>
            <ul class="notifications">
                <KeyedList each=move || log.with(|l| l.newest(SHOWN_NOTES)) key=|(seq, _)| *seq let:((_, text))>
                    <li>{text}</li>
                </KeyedList>
            </ul>
            <SendRequest conn=conn.clone() />
            <h3>"Wire"</h3>
            <label for="wire-filter">"Filter"</label>
            <input id="wire-filter" type="search" aria-keyshortcuts="/" prop:value=filter on:input=move |ev| filter.set(event_target_value(&ev)) />
            <button class="export" on:click=move |_| download("mcp-wire-log.jsonl", &wire.with(export))>"Export"</button>
            <button class="clear-wire" on:click=move |_| wire.update(WireLog::clear)>"Clear"</button>
            {dropped}
            <ol class="wire">
                <KeyedList each=shown key=|l| l.seq let:line>
                    <WireRow line=line post_url=post_url />
                </KeyedList>
            </ol>
        </section>
    }
}
