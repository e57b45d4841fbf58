//! Resources: the list, templates with a form for their variables (with completions),
//! reading text and binary contents with preview and download, and subscriptions.

use crate::components::completing_input::CompletingInput;
use crate::components::copy_button::CopyButton;
use crate::components::keyed_list::KeyedList;
use crate::components::long_text::{human_bytes, LongText};
use crate::components::result_view::{safe_data_url, AsJson};
use crate::connection::{add_once, note, Connection};
use crate::decoded::Decoded;
use crate::in_flight::InFlight;
use crate::search::{first_found, found_in, SearchBox};
use crate::uri_template;
use client_browser::client_core::types::{
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
};
use client_browser::{CacheMode, CallOptions, Client};
use leptos::prelude::*;
use serde_json::json;
use std::future::Future;

const PREVIEW_IMAGES: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The name a resource's contents are saved under: the last segment of its URI, or
/// `fallback` when that is empty (a URI ending in `/`).
pub fn file_name_of(uri: &str, fallback: &str) -> String {
    match uri.rsplit('/').next() {
        Some(last) if !last.is_empty() => last.to_string(),
        _ => fallback.to_string(),
    }
}

/// Offers base64 data as a file download (never shown: a type the app will not display, such
/// as SVG, is safe to save).
pub fn download_base64(name: &str, mime: &str, b64: &str) {
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

/// Reads a resource as the server has it now (asked for by the person: an earlier answer
/// still fresh in the response cache is replaced), as the request under way of `in_flight`
/// (shown by its URI). `None`: a newer request replaced it, or its view is gone.
pub fn read_now(
    client: &Client,
    opts: CallOptions,
    in_flight: InFlight<String>,
    uri: String,
) -> impl Future<Output = Option<Result<Decoded<ReadResourceResult>, String>>> {
    let opts = CallOptions {
        cache: CacheMode::Refresh,
        ..opts
    };
    let call = client.start("resources/read", Some(json!({ "uri": uri })), opts);
    let read = in_flight.run(call, uri);
    async move {
        let read = read.await?;
        let read = read.and_then(|v| Decoded::decode("resources/read", v));
        Some(read.map_err(|e| crate::doctor::explain(&e)))
    }
}

/// What the resource search looks in (name, title, URI and description), lower-cased:
/// computed once per listing, not per keystroke.
pub fn resource_haystack(r: &Resource) -> String {
    crate::search::haystack(&[
        Some(&r.name),
        r.title.as_deref(),
        Some(&r.uri),
        r.description.as_deref(),
    ])
}

/// What the server says about a resource beyond its name: MIME type, size and when it was
/// last modified, as one short line (`None` when it says none of them).
pub fn resource_facts(r: &Resource) -> Option<String> {
    let modified = r
        .annotations
        .as_ref()
        .and_then(|a| a.last_modified.as_deref())
        .map(|m| format!("modified {m}"));
    let size = r
        .size
        .and_then(|n| usize::try_from(n).ok())
        .map(human_bytes);
    let facts: Vec<String> = [r.mime_type.clone(), size, modified]
        .into_iter()
        .flatten()
        .filter(|f| !f.trim().is_empty())
        .collect();
    (!facts.is_empty()).then(|| facts.join(" · "))
}

/// Most resources rendered at once; the search narrows the rest.
const SHOWN: usize = 500;

/// The resources tab of one connection: the list (with search and subscriptions) and the
/// templates on one side, the contents of the resource read last on the other.
#[component]
pub fn ResourcesPanel(conn: Connection) -> impl IntoView {
    let resources = RwSignal::new(Vec::<Resource>::new());
    let templates = RwSignal::new(Vec::<ResourceTemplate>::new());
    // Kept by the connection: what was read is still shown when the tab is opened again. A
    // read that was under way when the tab was left was cancelled: nothing is shown for it.
    let contents = conn.resource_contents;
    let error = RwSignal::new(None::<String>);
    let query = conn.searches.resources;
    // The URI of the resource shown (or being read): a listed one or a template's.
    let shown = conn.resource_shown;
    if contents.with_untracked(Option::is_none) {
        shown.set(None);
    }
    // Whether what is shown was read again because the server said it was updated.
    let reread = RwSignal::new(false);
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
    let haystacks =
        Memo::new(move |_| resources.with(|r| r.iter().map(resource_haystack).collect::<Vec<_>>()));
    // Indices of the resources that match the search.
    let found = found_in(haystacks, query);
    let visible = move || first_found(resources, found, SHOWN);
    // The listed resource shown, if it is one (its name and description head the contents).
    let shown_resource = Memo::new(move |_| {
        let uri = shown.get()?;
        resources.with(|r| r.iter().find(|r| r.uri == uri).cloned())
    });
    // The read under way (the URI it reads), shown with a Cancel button.
    let reading = InFlight::<String>::new(&conn);
    let (client, updated, subscribed, log) = (conn.client, conn.updated, conn.subscribed, conn.log);
    let time_limit = conn.time_limit;
    let read = move |uri: String, again: bool| {
        let Some(client) = client.get_value() else {
            return;
        };
        // A read asked for clears what was shown; one made again after an update keeps it
        // until the new contents are there.
        if !again {
            contents.set(None);
        }
        shown.set(Some(uri.clone()));
        reread.set(false);
        updated.update(|u| u.retain(|x| *x != uri));
        // The newest click wins: a slow earlier read never replaces what was asked for last.
        let opts = crate::time_limit::call_options(time_limit.get_untracked());
        let read = read_now(&client, opts, reading, uri);
        leptos::task::spawn_local(async move {
            let Some(read) = read.await else {
                return;
            };
            contents.set(Some(read));
            reread.set(again);
        });
    };
    // A link that reads what is shown (the app's own page only).
    let links = crate::deep_link::links_for(&conn);
    // The resource the link that opened the page names, read the first time the tab shows.
    if let Some(uri) = conn
        .linked_resource
        .try_update_untracked(Option::take)
        .flatten()
    {
        read(uri, false);
    }
    // The resource shown is read again when the server says it was updated (a subscribed
    // one), so that what the panel shows follows the server.
    Effect::new(move |_| {
        let Some(uri) = shown.get() else { return };
        if updated.with(|u| u.contains(&uri)) {
            read(uri, true);
        }
    });
    // Offered where the server says it has resource subscriptions. (The panel is made anew
    // when what the server says of itself changes.)
    let can_subscribe = conn.details.with_untracked(|d| {
        d.as_ref()
            .is_some_and(|d| d.capabilities.resources_subscribe())
    });
    // Subscriptions asked for or ended, not yet answered (their button waits).
    let pending = RwSignal::new(Vec::<String>::new());
    let toggle = move |uri: String| {
        let Some(client) = client.get_value() else {
            return;
        };
        let was_on = subscribed.with_untracked(|s| s.contains(&uri));
        pending.update(|p| add_once(p, uri.clone()));
        leptos::task::spawn_local(async move {
            let outcome = if was_on {
                client.unsubscribe_resource(&uri).await
            } else {
                client.subscribe_resource(&uri).await
            };
            // The panel may be gone meanwhile; the connection's state is not.
            let _ = pending.try_update(|p| p.retain(|x| *x != uri));
            match outcome {
                Ok(()) => {
                    note(log, subscription_note(&uri, !was_on));
                    if was_on {
                        subscribed.update(|s| s.retain(|x| *x != uri));
                        updated.update(|u| u.retain(|x| *x != uri));
                    } else {
                        subscribed.update(|s| add_once(s, uri.clone()));
                    }
                }
                Err(e) => {
                    let failed = subscription_failure(&uri, !was_on, &crate::doctor::explain(&e));
                    note(log, failed.clone());
                    let _ = error.try_set(Some(failed));
                }
            }
        });
    };
    view! {
        <section class="resources split" aria-label="Resources">
            <div class="list">
                {move || error.get().map(|e| view! { <p class="call-error" role="alert">{e}</p> })}
                <SearchBox id="resource-search" noun="resources" one="resource" query=query total=Signal::derive(move || resources.with(Vec::len)) found=found shown=SHOWN />
                <ul class="resource-list" aria-label="Resource list" on:keydown=move |ev| { crate::keys::move_focus(&ev, "button.read-resource", crate::keys::Layout::Column); }>
                    <KeyedList each=visible key=|r| r.uri.clone() let:r>
                        {
                            let uri = r.uri.clone();
                            let (u_read, u_sub) = (uri.clone(), uri.clone());
                            let (u_shown, u_updated) = (uri.clone(), uri.clone());
                            let (u_on, u_wait) = (uri.clone(), uri.clone());
                            let is_shown = move || shown.with(|s| s.as_deref() == Some(u_shown.as_str()));
                            let is_on = move || subscribed.with(|s| s.contains(&u_on));
                            let is_on2 = is_on.clone();
                            let waits = move || pending.with(|p| p.contains(&u_wait));
                            view! {
                                <li>
                                    <button class="read-resource" data-uri=uri.clone() aria-current=move || is_shown().to_string() on:click=move |ev| { read(u_read.clone(), false); crate::detail_view::bring_into_view(ev.current_target()); }>
                                        {crate::icons::icon_view(r.icons.as_deref())}
                                        <span class="name">{crate::bidi::contained(r.title.as_deref().unwrap_or(&r.name)).into_owned()}</span>
                                        {move || updated.with(|u| u.contains(&u_updated)).then(|| view! { <span class="hint updated" title="the server said it changed since it was read">"updated"</span> })}
                                    </button>
                                    {can_subscribe.then(|| view! {
                                        <button class="subscribe" aria-pressed=move || is_on().to_string() disabled=waits on:click=move |_| toggle(u_sub.clone())>
                                            {move || if is_on2() { "Unsubscribe" } else { "Subscribe" }}
                                        </button>
                                    })}
                                    <span class="uri" title=uri.clone()>{crate::bidi::contained(&uri).into_owned()}</span>
                                    {r.description.clone().map(|d| { let shown = crate::bidi::contained(&d).into_owned(); view! { <small class="help" title=d>{shown}</small> } })}
                                    {resource_facts(&r).map(|f| view! { <small class="facts">{f}</small> })}
                                </li>
                            }
                        }
                    </KeyedList>
                </ul>
                {move || templates.with(|t| !t.is_empty()).then(|| view! { <h3>"Templates"</h3> })}
                <KeyedList each=move || templates.get() key=|t| t.uri_template.clone() let:t>
                    <TemplateForm conn=conn.clone() template=t on_read=Callback::new(move |u: String| read(u, false)) />
                </KeyedList>
            </div>
            <div class="detail resource-view">
                {move || shown_resource.get().map(|r| view! {
                    <h3>{r.title.clone().unwrap_or(r.name.clone())}</h3>
                    {r.description.clone().map(|d| view! { <p class="help">{d}</p> })}
                })}
                {move || reading.shown().map(|uri| view! {
                    <p class="reading" role="status">"Reading " <bdi>{crate::bidi::contained(&uri).into_owned()}</bdi> "…" <button class="cancel" on:click=move |_| reading.cancel()>"Cancel"</button></p>
                })}
                {move || reread.get().then(|| view! {
                    <p class="reread" role="status">"The server said this resource changed: read again."</p>
                })}
                {
                    move || {
                        let links = links.clone()?;
                        let uri = shown.get().filter(|_| contents.with(|c| matches!(c, Some(Ok(_)))))?;
                        let link = StoredValue::new(links(crate::deep_link::Opens::Resource(&uri), None));
                        Some(view! { <p class="resource-link"><CopyButton text=link label="Copy link to this resource" /></p> })
                    }
                }
                {move || match contents.get() {
                    Some(Ok(Decoded { value, raw })) => view! {
                        <ContentsView contents=value.contents />
                        <AsJson value=raw summary="The contents as JSON" file="resource.json" />
                    }.into_any(),
                    Some(Err(e)) => view! { <p class="call-error" role="alert">{e}</p> }.into_any(),
                    None if shown.with(Option::is_none) => view! { <p class="hint">"Choose a resource, or fill in a template and read it."</p> }.into_any(),
                    None => ().into_any(),
                }}
            </div>
        </section>
    }
}

/// The log line for a subscription made (`on`) or ended.
pub fn subscription_note(uri: &str, on: bool) -> String {
    let uri = crate::bidi::isolated_if_steering(uri);
    if on {
        format!("subscribed to {uri}")
    } else {
        format!("unsubscribed from {uri}")
    }
}

/// What the panel says when subscribing (`on`) or unsubscribing failed.
pub fn subscription_failure(uri: &str, on: bool, why: &str) -> String {
    let what = if on {
        "subscribing to"
    } else {
        "unsubscribing from"
    };
    format!(
        "{what} {} failed: {why}",
        crate::bidi::isolated_if_steering(uri)
    )
}

/// A template's variables as inputs, with completions from the server.
#[component]
fn TemplateForm(
    conn: Connection,
    template: ResourceTemplate,
    on_read: Callback<String>,
) -> impl IntoView {
    let vars = uri_template::variables(&template.uri_template);
    // What was typed is the connection's: still there when the tab is opened again.
    let kept = conn.template_values;
    let key = template.uri_template.clone();
    let values = RwSignal::new(kept.with_untracked(|k| k.get(&key).cloned().unwrap_or_default()));
    Effect::new(move |_| {
        let typed = values.get();
        kept.update_untracked(|k| crate::typed_forms::keep_typed(k, &key, typed));
    });
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
        <form class="template" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); on_read.run(expanded()); crate::detail_view::bring_into_view(ev.current_target()); }>
            <h4>{crate::icons::icon_view(template.icons.as_deref())}<span class="name">{crate::bidi::contained(template.title.as_deref().unwrap_or(&template.name)).into_owned()}</span></h4>
            <p class="uri">{template.uri_template.clone()}</p>
            {inputs}
            <p class="uri">{expanded2}</p>
            <button type="submit">"Read"</button>
        </form>
    }
}

/// The contents of a resource: read here, read from a link in a result, or embedded in one.
#[component]
pub fn ContentsView(contents: Vec<ResourceContents>) -> impl IntoView {
    view! {
        <section class="contents" aria-live="polite">
            {contents.into_iter().map(|c| {
                let mime = c.mime_type.clone().unwrap_or_else(|| "application/octet-stream".into());
                let blob_view = c.blob.clone().map(|b| {
                    let image = safe_data_url(&mime, &b, PREVIEW_IMAGES);
                    let (name, m2, b2) = (file_name_of(&c.uri, "resource"), mime.clone(), b.clone());
                    view! {
                        {image.map(|src| view! { <img class="preview" src=src alt="resource preview" /> })}
                        <p class="blob-size">{crate::components::long_text::human_bytes(crate::mcp_app::document::base64_decoded_len(&b))}</p>
                        <button class="download" on:click=move |_| download_base64(&name, &m2, &b2)>"Download"</button>
                    }
                });
                let text_name = file_name_of(&c.uri, "resource.txt");
                view! {
                    <article class="resource-contents">
                        <p class="uri"><bdi>{crate::bidi::contained(&c.uri).into_owned()}</bdi> " · " <bdi>{crate::bidi::contained(&mime).into_owned()}</bdi></p>
                        {c.text.clone().map(|t| view! { <LongText text=t pre_class="resource-text" file=text_name.clone() json=true /> })}
                        {blob_view}
                    </article>
                }
            }).collect_view()}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{matches, query_words};

    #[test]
    fn contents_are_saved_under_the_uris_last_segment_or_the_fallback() {
        assert_eq!(file_name_of("demo://resource/static/4.txt", "f"), "4.txt");
        assert_eq!(
            file_name_of("ui://get-time/mcp-app.html", "f"),
            "mcp-app.html"
        );
        // No name in the URI: the fallback, never an empty file name.
        assert_eq!(
            file_name_of("https://example.com/dir/", "resource"),
            "resource"
        );
        assert_eq!(file_name_of("", "file"), "file");
        assert_eq!(file_name_of("plain", "file"), "plain");
    }

    #[test]
    fn resource_search_looks_in_name_title_uri_and_description() {
        let r: Resource = serde_json::from_value(serde_json::json!({
            "uri": "demo://docs/Readme.md", "name": "readme", "title": "Read Me",
            "description": "How to START"
        }))
        .unwrap();
        let hay = resource_haystack(&r);
        for q in ["readme.md", "DEMO://", "read me", "start how", ""] {
            assert!(matches(&hay, &query_words(q)), "{q:?}");
        }
        for q in ["changelog", "readme changelog"] {
            assert!(!matches(&hay, &query_words(q)), "{q:?}");
        }
    }

    #[test]
    fn facts_name_the_type_size_and_modification_the_server_gave() {
        let r = |v: serde_json::Value| -> Resource { serde_json::from_value(v).unwrap() };
        assert_eq!(
            resource_facts(&r(serde_json::json!({"uri": "a://b"}))),
            None
        );
        assert_eq!(
            resource_facts(&r(serde_json::json!({
                "uri": "a://b", "mimeType": "text/markdown", "size": 2048,
                "annotations": {"lastModified": "2026-11-25T10:00:00Z"}
            }))),
            Some("text/markdown · 2 KB · modified 2026-11-25T10:00:00Z".into())
        );
        assert_eq!(
            resource_facts(&r(
                serde_json::json!({"uri": "a://b", "size": 12, "mimeType": " "})
            )),
            Some("12 bytes".into())
        );
    }

    #[test]
    fn subscription_lines_say_which_way_it_went() {
        assert_eq!(subscription_note("a://b", true), "subscribed to a://b");
        assert_eq!(subscription_note("a://b", false), "unsubscribed from a://b");
        assert_eq!(
            subscription_note("a://\u{202e}b", true),
            "subscribed to \u{2068}a://\u{202e}b\u{2069}"
        );
        assert_eq!(
            subscription_failure("a://b", false, "the server answered HTTP 500"),
            "unsubscribing from a://b failed: the server answered HTTP 500"
        );
        // A URI that turns text around is kept to itself: " failed" reads as written.
        assert_eq!(
            subscription_failure("a://\u{2069}\u{202e}b", true, "HTTP 500"),
            "subscribing to \u{2068}a://\u{202e}b\u{2069} failed: HTTP 500"
        );
    }
}
