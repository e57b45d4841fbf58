//! Renders a tool result by content type. Server text is always text (never HTML); images and
//! audio only from data with an allowed MIME type; links only http(s), opened with noopener.

use crate::components::long_text::LongText;
use crate::components::resources::{read_now, ContentsView};
use crate::connection::Connection;
use crate::decoded::Decoded;
use crate::in_flight::InFlight;
use client_browser::client_core::types::{
    CallToolResult, ContentBlock, KnownContent, ReadResourceResult,
};
use leptos::prelude::*;

/// Image types shown inline (no SVG: it can carry script).
const IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];
/// Audio types played inline.
const AUDIO_TYPES: &[&str] = &[
    "audio/wav",
    "audio/x-wav",
    "audio/mpeg",
    "audio/ogg",
    "audio/webm",
    "audio/mp4",
];

/// A `data:` URL when the MIME type is allowed and the data looks like base64.
pub fn safe_data_url(mime: &str, data: &str, allowed: &[&str]) -> Option<String> {
    let mime = mime.trim().to_ascii_lowercase();
    let b64 = data
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"+/=\r\n".contains(&b));
    (allowed.contains(&mime.as_str()) && b64).then(|| format!("data:{mime};base64,{}", data.trim()))
}

/// The URL when it is http(s), else `None` (no `javascript:`, `data:`, ...).
pub fn safe_link(uri: &str) -> Option<String> {
    let lower = uri.trim().to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://")).then(|| uri.trim().to_string())
}

/// One content block.
#[component]
pub fn ContentView(block: ContentBlock) -> impl IntoView {
    match block {
        ContentBlock::Known(KnownContent::Text(t)) => {
            view! { <LongText text=t.text pre_class="content text" file="result.txt" json=true /> }
                .into_any()
        }
        // Shown (or played) when of an allowed type, and offered as a file either way.
        ContentBlock::Known(KnownContent::Image(m)) => {
            let shown = match safe_data_url(&m.mime_type, &m.data, IMAGE_TYPES) {
                Some(src) => view! { <img class="content image" src=src alt="image from the server" /> }.into_any(),
                None => view! { <p class="content refused">"An image of type " <bdi>{crate::bidi::contained(&m.mime_type).into_owned()}</bdi> " was not shown."</p> }.into_any(),
            };
            view! { {shown} <MediaDownload name="image" mime=m.mime_type data=m.data /> }.into_any()
        }
        ContentBlock::Known(KnownContent::Audio(m)) => {
            let shown = match safe_data_url(&m.mime_type, &m.data, AUDIO_TYPES) {
                Some(src) => view! { <audio class="content audio" controls src=src></audio> }.into_any(),
                None => view! { <p class="content refused">"Audio of type " <bdi>{crate::bidi::contained(&m.mime_type).into_owned()}</bdi> " was not played."</p> }.into_any(),
            };
            view! { {shown} <MediaDownload name="audio" mime=m.mime_type data=m.data /> }.into_any()
        }
        // An embedded resource: shown like a read one (text, image preview, download).
        ContentBlock::Known(KnownContent::Resource(r)) => {
            view! { <div class="content resource"><ContentsView contents=vec![r.resource] /></div> }
                .into_any()
        }
        ContentBlock::Known(KnownContent::ResourceLink(l)) => {
            let label = crate::bidi::contained(l.title.as_deref().unwrap_or(&l.name)).into_owned();
            view! { <ResourceLinkView label=label uri=l.uri /> }.into_any()
        }
        other => {
            let json = crate::json_text::pretty(&other);
            view! { <LongText text=json pre_class="content other" file="content.json" /> }
                .into_any()
        }
    }
}

/// A "Download" button for an image or audio of a result (base64 `data` of type `mime`).
#[component]
fn MediaDownload(name: &'static str, mime: String, data: String) -> impl IntoView {
    let download = move |_| crate::components::resources::download_base64(name, &mime, &data);
    view! { <button type="button" class="download-media" on:click=download>"Download"</button> }
}

/// A resource link: its name and URI (a web link for an http(s) URI) and, within a
/// connection's view, a button that reads it (`resources/read`) and shows its contents below:
/// a linked resource need not be in the server's resource list.
#[component]
fn ResourceLinkView(label: String, uri: String) -> impl IntoView {
    let contents = RwSignal::new(None::<Result<Decoded<ReadResourceResult>, String>>);
    let reader = use_context::<Connection>().map(|conn| {
        let reading = InFlight::<String>::new(&conn);
        let target = uri.clone();
        let read = move |_| {
            let Some(client) = conn.client.get_value() else {
                return;
            };
            contents.set(None);
            let opts = crate::time_limit::call_options(conn.time_limit.get_untracked());
            let read = read_now(&client, opts, reading, target.clone());
            leptos::task::spawn_local(async move {
                if let Some(read) = read.await {
                    contents.set(Some(read));
                }
            });
        };
        view! {
            " "
            <button type="button" class="read-link" on:click=read>"Read"</button>
            {move || reading.shown().map(|_| view! {
                <span class="reading" role="status">"Reading…"</span>
                <button type="button" class="cancel" on:click=move |_| reading.cancel()>"Cancel"</button>
            })}
        }
    });
    let name = match safe_link(&uri) {
        Some(href) => {
            view! { <a href=href target="_blank" rel="noopener noreferrer">{label}</a> }.into_any()
        }
        None => view! { <span class="name">{label}</span> }.into_any(),
    };
    view! {
        <div class="content link">
            {name} " " <span class="uri">{crate::bidi::contained(&uri).into_owned()}</span>
            {reader}
            {move || contents.get().map(|c| match c {
                Ok(Decoded { value, raw }) => view! {
                    <ContentsView contents=value.contents />
                    <AsJson value=raw summary="The contents as JSON" file="resource.json" />
                }.into_any(),
                Err(e) => view! { <p class="call-error" role="alert">{e}</p> }.into_any(),
            })}
        </div>
    }
}

/// A decoded `tools/call` result beside the JSON it came as (see [`ResultView`]'s `raw`).
pub type ToolResult = Decoded<CallToolResult>;

/// Decodes a `tools/call` result, keeping the JSON it came as.
pub fn decode_tool_result(
    value: serde_json::Value,
) -> Result<ToolResult, client_browser::ClientError> {
    ToolResult::decode("tools/call", value)
}

/// A whole answer as the server sent it (also `_meta` and fields this client does not know),
/// under a closed `summary`, formatted only once opened; saved as `file`.
#[component]
pub fn AsJson(
    /// The answer as it came ([`Decoded::raw`]).
    value: serde_json::Value,
    /// What the closed box says ("The result as JSON").
    summary: &'static str,
    /// The file name it is saved under.
    file: &'static str,
) -> impl IntoView {
    let value = StoredValue::new(value);
    let open = RwSignal::new(false);
    let shown = move || {
        open.get().then(|| {
            let json = value.with_value(crate::json_text::pretty);
            view! { <LongText text=json pre_class="raw-json" file=file /> }
        })
    };
    view! {
        <details class="raw-result" on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>{summary}</summary>
            {shown}
        </details>
    }
}

/// A whole tool result, with `isError` marked and `structuredContent` as formatted JSON,
/// checked against the tool's `outputSchema` when it has one.
#[component]
pub fn ResultView(
    result: CallToolResult,
    #[prop(default = None)] output_schema: Option<serde_json::Value>,
    /// The result as it came, offered as JSON.
    raw: serde_json::Value,
) -> impl IntoView {
    use crate::schema_check::{check, Verdict};
    let is_error = result.is_error.unwrap_or(false);
    let verdict = match (&result.structured_content, &output_schema) {
        (Some(content), Some(schema)) => Some(check(schema, content)),
        (None, Some(_)) if !is_error => Some(Verdict::Invalid(
            "the tool declares an output schema but returned no structured content".into(),
        )),
        _ => None,
    };
    let verdict_view = verdict.map(|v| match v {
        Verdict::Valid => view! { <p class="verdict valid">"✓ matches the tool's output schema"</p> }.into_any(),
        Verdict::Invalid(m) => view! { <p class="verdict invalid" role="alert">"✗ does not match the tool's output schema: " {m}</p> }.into_any(),
        Verdict::NotChecked(m) => view! { <p class="verdict unchecked">"Output schema not checked: " {m}</p> }.into_any(),
    });
    let structured = result
        .structured_content
        .as_ref()
        .map(crate::json_text::pretty);
    view! {
        <section class="result" class:error=is_error aria-live="polite">
            {is_error.then(|| view! { <p class="badge error">"The tool reported an error"</p> })}
            {result.content.into_iter().map(|b| view! { <ContentView block=b /> }).collect_view()}
            {structured.map(|s| view! { <h4>"Structured content"</h4><LongText text=s pre_class="structured" file="structured-content.json" /> })}
            {verdict_view}
            <AsJson value=raw summary="The result as JSON" file="result.json" />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_safe_media_and_links() {
        assert!(safe_data_url("image/png", "iVBORw0KGgo=", IMAGE_TYPES).is_some());
        assert!(safe_data_url("image/svg+xml", "PHN2Zz4=", IMAGE_TYPES).is_none());
        assert!(safe_data_url("image/png", "\"><script>", IMAGE_TYPES).is_none());
        assert_eq!(
            safe_link("https://x.test/a").as_deref(),
            Some("https://x.test/a")
        );
        assert!(safe_link("javascript:alert(1)").is_none());
        assert!(safe_link(" JavaScript:alert(1)").is_none());
        assert!(safe_link("data:text/html,hi").is_none());
    }
}
