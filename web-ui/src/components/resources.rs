//! Resources: the list, templates with a form for their variables (with completions),
//! reading text and binary contents with preview and download, and subscriptions.

use crate::components::completing_input::CompletingInput;
use crate::components::long_text::LongText;
use crate::components::result_view::safe_data_url;
use crate::connection::{note, Connection};
use crate::in_flight::InFlight;
use crate::uri_template;
use client_browser::client_core::types::{ReadResourceResult, Resource, ResourceTemplate};
use leptos::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;

const PREVIEW_IMAGES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Offers base64 data as a file download.
fn download_base64(name: &str, mime: &str, b64: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(bin) = window.atob(b64.trim()) else {
        return;
    };
    let bytes: Vec<u8> = bin.chars().map(|c| c as u32 as u8).collect();
    let arr = js_sys::Uint8Array::from(bytes.as_slice());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&js_sys::Array::of1(&arr), &opts)
    else {
        return;
    };
    crate::components::logs::download_blob(name, &blob);
}

/// The resources tab of one connection.
#[component]
pub fn ResourcesPanel(conn: Connection) -> impl IntoView {
    let resources = RwSignal::new(Vec::<Resource>::new());
    let templates = RwSignal::new(Vec::<ResourceTemplate>::new());
    let contents = RwSignal::new(None::<Result<ReadResourceResult, String>>);
    let error = RwSignal::new(None::<String>);
    // Listed when the tab opens and again whenever the server says the resources changed.
    crate::connection::list_on_change(
        &conn,
        conn.resources_changed,
        crate::stale_lists::RESOURCES,
        |client| async move {
            let listed = client.list_resources().await;
            (listed, client.list_resource_templates().await.ok())
        },
        move |(listed, listed_templates)| {
            match listed {
                Ok(r) => resources.set(r),
                Err(e) => error.set(Some(crate::doctor::explain(&e))),
            }
            if let Some(t) = listed_templates {
                templates.set(t);
            }
        },
    );
    // The read under way (the URI it reads), shown with a Cancel button.
    let reading = InFlight::<String>::new(&conn);
    let reader = conn.clone();
    let read = move |uri: String| {
        let Some(client) = reader.client.get_value() else {
            return;
        };
        contents.set(None);
        // Asked for: shown as the server has it now, even if an earlier read is still
        // fresh (the answer replaces that one in the response cache).
        let opts = client_browser::CallOptions {
            cache: client_browser::CacheMode::Refresh,
            ..Default::default()
        };
        let params = Some(serde_json::json!({ "uri": uri }));
        let call = client.start("resources/read", params, opts);
        // The newest click wins: a slow earlier read never replaces what was asked for last.
        let read = reading.run(call, uri);
        leptos::task::spawn_local(async move {
            let Some(read) = read.await else {
                return;
            };
            let read = read
                .and_then(|v| client_browser::decode::<ReadResourceResult>("resources/read", v));
            contents.set(Some(read.map_err(|e| crate::doctor::explain(&e))));
        });
    };
    let read2 = read;
    let subscriber = conn.clone();
    let subscribe = move |uri: String| {
        let Some(client) = subscriber.client.get_value() else {
            return;
        };
        let log = subscriber.log;
        leptos::task::spawn_local(async move {
            match client.subscribe_resource(&uri).await {
                Ok(()) => note(log, format!("subscribed to {uri}")),
                Err(e) => note(log, format!("subscribing to {uri} failed: {e}")),
            }
        });
    };
    view! {
        <section class="resources" aria-label="Resources">
            {move || error.get().map(|e| view! { <p class="call-error" role="alert">{e}</p> })}
            <h3>"Resources"</h3>
            <ul class="resource-list">
                <For each=move || resources.get() key=|r| r.uri.clone() let:r>
                    {
                        let (u1, u2) = (r.uri.clone(), r.uri.clone());
                        let read = read;
                        let subscribe = subscribe;
                        view! {
                            <li>
                                <button class="read-resource" data-uri=r.uri.clone() on:click=move |_| read(u1.clone())>{r.title.clone().unwrap_or(r.name.clone())}</button>
                                <span class="uri">{r.uri.clone()}</span>
                                <button class="subscribe" on:click=move |_| subscribe(u2.clone())>"Subscribe"</button>
                            </li>
                        }
                    }
                </For>
            </ul>
            <h3>"Templates"</h3>
            <For each=move || templates.get() key=|t| t.uri_template.clone() let:t>
                <TemplateForm conn=conn.clone() template=t on_read=Callback::new({ let r = read2; move |u: String| r(u) }) />
            </For>
            {move || reading.shown().map(|uri| view! {
                <p class="reading" role="status">"Reading " {uri} "…" <button class="cancel" on:click=move |_| reading.cancel()>"Cancel"</button></p>
            })}
            {move || contents.get().map(|c| match c {
                Ok(r) => view! { <ContentsView result=r /> }.into_any(),
                Err(e) => view! { <p class="call-error" role="alert">{e}</p> }.into_any(),
            })}
        </section>
    }
}

/// A template's variables as inputs, with completions from the server.
#[component]
fn TemplateForm(
    conn: Connection,
    template: ResourceTemplate,
    on_read: Callback<String>,
) -> impl IntoView {
    let vars = uri_template::variables(&template.uri_template);
    let values = RwSignal::new(BTreeMap::<String, String>::new());
    let uri_template = template.uri_template.clone();
    let tpl = uri_template.clone();
    let expanded = move || values.with(|v| uri_template::expand(&tpl, |n| v.get(n).cloned()));
    let expanded2 = expanded.clone();
    let reference = json!({"type": "ref/resource", "uri": uri_template});
    let inputs = vars
        .into_iter()
        .map(|var| {
            let id = format!("tpl-{}-{}", template.name, var);
            view! {
                <label for=id.clone()>{var.clone()}</label>
                <CompletingInput conn=conn.clone() reference=reference.clone() name=var id=id values=values />
            }
        })
        .collect_view();
    view! {
        <form class="template" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); on_read.run(expanded()); }>
            <h4>{template.title.clone().unwrap_or(template.name.clone())}</h4>
            <p class="uri">{template.uri_template.clone()}</p>
            {inputs}
            <p class="uri">{expanded2}</p>
            <button type="submit">"Read"</button>
        </form>
    }
}

/// The contents of a read resource.
#[component]
fn ContentsView(result: ReadResourceResult) -> impl IntoView {
    view! {
        <section class="contents" aria-live="polite">
            {result.contents.into_iter().map(|c| {
                let mime = c.mime_type.clone().unwrap_or_else(|| "application/octet-stream".into());
                let blob_view = c.blob.clone().map(|b| {
                    let image = safe_data_url(&mime, &b, PREVIEW_IMAGES);
                    let (name, m2, b2) = (c.uri.rsplit('/').next().unwrap_or("resource").to_string(), mime.clone(), b.clone());
                    view! {
                        {image.map(|src| view! { <img class="preview" src=src alt="resource preview" /> })}
                        <p>{format!("{} bytes (base64)", b.len())}</p>
                        <button class="download" on:click=move |_| download_base64(&name, &m2, &b2)>"Download"</button>
                    }
                });
                let text_name = c.uri.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or("resource.txt").to_string();
                view! {
                    <article class="resource-contents">
                        <p class="uri">{c.uri.clone()} " · " {mime.clone()}</p>
                        {c.text.clone().map(|t| view! { <LongText text=t pre_class="resource-text" file=text_name.clone() /> })}
                        {blob_view}
                    </article>
                }
            }).collect_view()}
        </section>
    }
}
