//! Runs one tool: a form generated from its input schema (or raw JSON), progress, cancel,
//! and the result.

use crate::components::copy_button::CopyButton;
use crate::components::date_time_input::DateTimeInput;
use crate::components::long_text::LongText;
use crate::components::multi_select::MultiSelect;
use crate::components::result_view::ResultView;
use crate::connection::Connection;
use crate::decoded::Decoded;
use crate::schema_check::checked_arguments;
use crate::schema_form::{fields_of, initial_values, shown_choices, Field, FieldKind, TextInput};
use crate::tool_call;
use crate::tool_runs::ToolRun;
use crate::typed_json::typed_object;
use client_browser::client_core::types::{check_request_meta, ElicitParams, Tool};
use client_browser::CallOptions;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// The error keys of the runner's own boxes (the arguments as JSON, the `_meta` entries).
/// A field's key starts with `[` only as `["`, a name written as a JSON string, so a property
/// named `raw` or `meta` keeps its errors apart from these.
const RAW_ERROR: &str = "[raw]";
const META_ERROR: &str = "[meta]";

/// One tool's form and run state. The state is the connection's (see
/// [`crate::tool_runs`]): what was typed, a call under way and the last result are still
/// there when the tool is chosen again.
#[component]
pub fn ToolRunner(conn: Connection, tool: Tool) -> impl IntoView {
    let fields = fields_of(&tool.input_schema);
    let this_run = conn
        .tool_runs
        .try_update_value(|runs| runs.of(&tool.name, || initial_values(&fields)))
        .unwrap_or_else(|| ToolRun::detached(initial_values(&fields)));
    let ToolRun {
        values,
        raw_mode,
        raw,
        meta,
        running,
        asked,
        progress,
        task,
        result,
        took_ms,
        last_args,
        url_required,
        auto_retried,
    } = this_run;
    let errors = RwSignal::new(BTreeMap::<String, String>::new());
    let name = tool.name.clone();
    let output_schema = tool.output_schema.clone();
    let fields_for_run = fields.clone();
    let input_schema = tool.input_schema.clone();
    let conn_run = conn.clone();
    // A tool with an MCP App shows it from the moment it is called: a new View for each call,
    // kept by the connection (see `KeptAppViews`), the one before asked to tear down.
    let app_tool = crate::mcp_app::resource_uri(&tool)
        .is_some()
        .then(|| tool.clone());
    // Makes the call with `args` (from the form, or the last call's for "Retry") and the
    // `_meta` entries typed, checked before (see `request_meta`).
    let call_with = move |args: serde_json::Value| {
        let entries = match request_meta(&meta.get_untracked()) {
            Ok(entries) => entries,
            Err(why) => {
                errors.set(BTreeMap::from([(META_ERROR.to_string(), why)]));
                return;
            }
        };
        let Some(client) = conn_run.client.get_value() else {
            return;
        };
        progress.set(None);
        task.set(None);
        result.set(None);
        took_ms.set(None);
        url_required.set(Vec::new());
        last_args.set(Some(args.clone()));
        let at_ms = js_sys::Date::now();
        let base = CallOptions {
            meta: entries,
            ..crate::time_limit::call_options(conn_run.time_limit.get_untracked())
        };
        let (opts, kept) = tool_call::options(&conn_run, this_run, &name, &args, at_ms, base);
        let call = client.start_tool_call(&name, args.clone(), opts);
        if let Some(tool) = &app_tool {
            // The id it went out with, if it went out at once (its View is told it).
            let id = client.wire_id(call.handle);
            conn_run
                .app_views
                .update(|views| _ = views.called(tool.clone(), args.clone(), id));
        }
        tool_call::follow(&conn_run, this_run, name.clone(), args, call, at_ms, kept);
    };
    let call_again = call_with.clone();
    // The last call made again (after the web pages the server asked for were opened).
    let retry = move || {
        if running.get_untracked().is_none() {
            if let Some(args) = last_args.get_untracked() {
                call_again(args);
            }
        }
    };
    // Made again by itself once the server says every page it asked for is done, once per
    // set of pages (a server that refuses again with the same pages gets no loop).
    let completed = conn.completed_elicitations;
    let retried = auto_retried;
    let auto_retry = retry.clone();
    Effect::new(move |_| {
        let ids: Vec<String> =
            url_required.with(|r| r.iter().filter_map(|e| e.elicitation_id.clone()).collect());
        let all_done = !ids.is_empty() && completed.with(|c| ids.iter().all(|id| c.contains(id)));
        if all_done && retried.with_value(|r| *r != ids) {
            retried.set_value(ids);
            auto_retry();
        }
    });
    // A call asked for from outside the form ("Run again" in the history) is made here, so
    // that it is shown, cancelled, checked and recorded as one made with Run; after the call
    // under way, if there is one.
    let asked_call = call_with.clone();
    Effect::new(move |_| {
        if running.with(Option::is_some) {
            return;
        }
        if let Some(args) = asked.get() {
            asked.set(None);
            errors.set(BTreeMap::new());
            asked_call(args);
        }
    });
    let (restored, linked) = (conn.restored_form, conn.linked_form);
    let run = move || {
        // One call at a time per tool (the Run button is disabled meanwhile; Ctrl+Enter too).
        if running.get_untracked().is_some() {
            return;
        }
        // Run: the notices about the form put back after a login, or filled from a link,
        // have done their work.
        restored.set(None);
        linked.set(None);
        let args = if raw_mode.get_untracked() {
            match typed_object(&raw.get_untracked()) {
                Ok(entries) => serde_json::Value::Object(entries),
                Err(e) => {
                    errors.set(BTreeMap::from([(
                        RAW_ERROR.to_string(),
                        format!("Enter the arguments as a JSON object: this is {e}."),
                    )]));
                    return;
                }
            }
        } else {
            // Form arguments are checked against the input schema before they are sent (raw
            // JSON goes as typed, to let a server's own validation be tried).
            match checked_arguments(&fields_for_run, &values.get_untracked(), &input_schema) {
                Ok(a) => a,
                Err(e) => {
                    errors.set(e);
                    return;
                }
            }
        };
        errors.set(BTreeMap::new());
        call_with(args);
    };
    let run_by_key = run.clone();
    // Ctrl+Enter (⌘+Enter) anywhere in the form runs the tool, as in code editors and HTTP
    // clients.
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run_by_key();
        }
    };
    let conn_cancel = conn.clone();
    let cancel = move |_| {
        if let (Some(h), Some(client)) = (running.get_untracked(), conn_cancel.client.get_value()) {
            client.cancel(h);
        }
    };
    view! {
        <article class="runner" aria-label=format!("Run {}", tool.name) on:keydown=on_key>
            <h3>{tool.title.clone().unwrap_or_else(|| tool.name.clone())}</h3>
            <p class="tool-name"><bdi>{crate::bidi::contained(&tool.name).into_owned()}</bdi> " "
            {
                // A link that opens this tool's form on this server (the app's own page only:
                // embedded, the page's address is the host's).
                crate::deep_link::links_for(&conn).map(|links| {
                    let name = tool.name.clone();
                    let link = move |args: Option<&str>| links(crate::deep_link::Opens::Tool(&name), args);
                    let to_tool = StoredValue::new(link(None));
                    // With the arguments as they stand, while there are any the form can say
                    // (or raw JSON typed): a call for someone else to read and run.
                    let fields = fields.clone();
                    let with_args = move || {
                        link_arguments(&fields, &values.get(), raw_mode.get(), &raw.get())
                            .map(|args| StoredValue::new(link(Some(&args))))
                    };
                    view! {
                        <span class="tool-link"><CopyButton text=to_tool label="Copy link to this tool" /></span>
                        {move || with_args().map(|text| view! { " " <span class="call-link"><CopyButton text=text label="Copy link with these arguments" /></span> })}
                    }
                })
            }
            </p>
            {
                let (restored, this) = (conn.restored_form, tool.name.clone());
                move || (restored.get().as_deref() == Some(this.as_str())).then(|| view! {
                    <p class="restored" role="status">
                        "What you typed before logging in is back. The call was not made: run it again when ready. "
                        <button type="button" class="dismiss" on:click=move |_| restored.set(None)>"OK"</button>
                    </p>
                })
            }
            {
                // Arguments a link put in: whoever made the link chose them.
                let this = tool.name.clone();
                move || (linked.get().as_deref() == Some(this.as_str())).then(|| view! {
                    <p class="from-link" role="status">
                        "The arguments below came with the link that opened this page. Nothing has been sent: read them before you run the tool. "
                        <button type="button" class="dismiss" on:click=move |_| linked.set(None)>"OK"</button>
                    </p>
                })
            }
            {tool.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            <BackgroundCalls conn=conn.clone() tool=tool.name.clone() />
            {
                // The whole definition as the server listed it (schemas, annotations,
                // execution, `_meta`, fields we do not know), drawn when opened.
                let definition = crate::json_text::pretty(&tool);
                let file = format!("{}.json", tool.name);
                let open = RwSignal::new(false);
                view! {
                    <details class="tool-definition" on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                        <summary>"Definition as listed (JSON)"</summary>
                        {move || open.get().then(|| view! { <LongText text=definition.clone() pre_class="tool-json" file=file.clone() /> })}
                    </details>
                }
            }
            <label class="raw-toggle"><input type="checkbox" prop:checked=raw_mode on:change=move |ev| raw_mode.set(event_target_checked(&ev)) /> "Raw JSON (sent as typed, not checked)"</label>
            <Show when=move || raw_mode.get() fallback=move || view! {
                <FieldsView fields=fields.clone() values=values errors=errors prefix="arg" multiline=true />
                {move || errors.with(|e| e.get("").cloned()).map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            }>
                <textarea class="raw" aria-label="Arguments as JSON" rows="8" prop:value=raw on:input=move |ev| raw.set(event_target_value(&ev))></textarea>
                {move || errors.with(|e| e.get(RAW_ERROR).cloned()).map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            </Show>
            <details class="call-meta" open=!meta.get_untracked().trim().is_empty()>
                <summary>"_meta of the call"</summary>
                <label for="call-meta">"Entries added to the request's _meta, as a JSON object (e.g. W3C trace context: traceparent); the client's own are added on top"</label>
                <textarea id="call-meta" class="call-meta-json" rows="3" placeholder="{\"traceparent\": \"00-…\"}" prop:value=meta on:input=move |ev| meta.set(event_target_value(&ev))></textarea>
                {move || errors.with(|e| e.get(META_ERROR).cloned()).map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            </details>
            <div class="actions">
                <button class="run" title="Run (Ctrl+Enter)" on:click=move |_| run() disabled=move || running.get().is_some()>"Run"</button>
                <Show when=move || running.get().is_some()>
                    <button class="cancel" on:click=cancel>"Cancel"</button>
                </Show>
            </div>
            {move || progress.get().map(|(p, total, msg)| view! {
                <div class="progress">
                    <progress max=total.unwrap_or(0.0).to_string() value=p.to_string() aria-label="Progress"></progress>
                    <span>{match total { Some(t) => format!("{p} / {t}"), None => format!("{p}") }} " " {msg.unwrap_or_default()}</span>
                </div>
            })}
            {move || task.get().map(|(status, message)| view! {
                // The server's status and message, each kept to itself (see `bidi`).
                <p class="task-status" role="status">"Task " <bdi>{crate::bidi::contained(&status).into_owned()}</bdi> {message.map(|m| view! { ": " <bdi>{crate::bidi::contained(&m).into_owned()}</bdi> })}</p>
            })}
            {move || result.get().map(|r| match r {
                Ok(Decoded { value: c, raw }) => view! { <ResultView result=c output_schema=output_schema.clone() raw=raw /> }.into_any(),
                Err(e) => view! { <p class="call-error" role="alert">{e}</p> }.into_any(),
            })}
            {move || took_ms.get().filter(|_| result.with(Option::is_some)).map(|ms| view! {
                <p class="took">{format!("Answered in {}", crate::call_history::duration(ms))}</p>
            })}
            {move || {
                let pages = url_required.get();
                let retry = retry.clone();
                (!pages.is_empty()).then(|| view! { <UrlRequired pages=pages completed=completed retry=retry /> })
            }}
        </article>
    }
}

/// The calls of tool `tool` followed in the background (tasks this tab took over while the
/// form was in use): each one's task, its state, and a button that cancels it. Without this,
/// the tool list said "running" and nothing here told of the call or could stop it.
#[component]
fn BackgroundCalls(conn: Connection, tool: String) -> impl IntoView {
    let calls = conn.background_calls;
    let client = conn.client;
    let these = move || {
        calls.with(|c| {
            c.iter()
                .filter(|c| c.tool == tool)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    move || {
        these()
            .into_iter()
            .map(|call| {
                let run = call.run;
                let asked = RwSignal::new(false);
                let cancel = move |_| {
                    if let (Some(h), Some(client)) = (run.running.try_get_untracked().flatten(), client.get_value()) {
                        asked.set(true);
                        client.cancel(h);
                    }
                };
                let state = move || {
                    run.task
                        .try_get()
                        .flatten()
                        .map(|(status, message)| match message {
                            Some(m) => format!("{status}: {m}"),
                            None => status,
                        })
                        .unwrap_or_else(|| "working".into())
                };
                view! {
                    <p class="background-call" role="status">
                        "An earlier call of this tool is still running as task " <code>{call.task_id.clone()}</code>
                        " (" {state} "), followed in the background: the form here is yours, and the call's end goes to the history. "
                        <button type="button" class="cancel-background" on:click=cancel disabled=move || asked.get()>
                            {move || if asked.get() { "Cancelling…" } else { "Cancel that call" }}
                        </button>
                    </p>
                }
            })
            .collect_view()
    }
}

/// The web pages a server asked the person to open before a call is made again
/// (`URLElicitationRequiredError`): each one's message and whole URL, a link to open it
/// (`http(s)` only, never fetched by the app), whether the server said it is done, and
/// "Retry".
#[component]
fn UrlRequired(
    pages: Vec<ElicitParams>,
    completed: RwSignal<Vec<String>>,
    retry: impl Fn() + Clone + 'static,
) -> impl IntoView {
    let items = pages
        .into_iter()
        .map(|p| {
            let url = p.url.clone().unwrap_or_default();
            let id = p.elicitation_id.clone().unwrap_or_default();
            let done = move || completed.with(|c| c.contains(&id));
            view! {
                <li>
                    <p>{p.message.clone()}</p>
                    <crate::components::asks::UrlToOpen url=url on_open=|| () />
                    {move || done().then(|| view! { <span class="hint done">"done, the server says"</span> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="url-required" role="alert">
            <h4>"The server needs you to open a web page first"</h4>
            <ul>{items}</ul>
            <p class="help">"When you are done there, make the call again. It is made again by itself once the server says every page is done."</p>
            <button type="button" class="retry" on:click=move |_| retry()>"Retry"</button>
        </section>
    }
}

/// The generated form fields (also used for elicitation forms and for a tool call answering
/// a sampling request). Each input's id is `{prefix}-{path}` (`arg-city` by default): a form
/// that can be on the page beside a tool's own gives another prefix.
#[component]
pub fn FieldsForm(
    fields: Vec<Field>,
    values: RwSignal<BTreeMap<String, String>>,
    errors: RwSignal<BTreeMap<String, String>>,
    #[prop(into, default = "arg".into())] prefix: String,
    /// A plain string is a box that grows with its lines (a tool's input: a file's content,
    /// a query), not one line where Enter sends the form (elicitation's short answers).
    #[prop(optional)]
    multiline: bool,
) -> impl IntoView {
    view! { <FieldsView fields=fields values=values errors=errors prefix=prefix multiline=multiline /> }
}

/// The generated form fields.
#[component]
fn FieldsView(
    fields: Vec<Field>,
    values: RwSignal<BTreeMap<String, String>>,
    errors: RwSignal<BTreeMap<String, String>>,
    #[prop(into)] prefix: String,
    multiline: bool,
) -> impl IntoView {
    fields
        .into_iter()
        .map(|f| view! { <FieldView field=f values=values errors=errors prefix=prefix.clone() multiline=multiline /> })
        .collect_view()
}

/// One field.
#[component]
fn FieldView(
    field: Field,
    values: RwSignal<BTreeMap<String, String>>,
    errors: RwSignal<BTreeMap<String, String>>,
    prefix: String,
    /// A plain string gets a box that grows with its lines (see [`FieldsForm`]).
    multiline: bool,
) -> impl IntoView {
    let path = field.path.clone();
    let id = format!("{prefix}-{}", field.id);
    let p1 = path.clone();
    let value = move || values.with(|v| v.get(&p1).cloned().unwrap_or_default());
    let p2 = path.clone();
    let set = move |v: String| {
        values.update(|m| {
            m.insert(p2.clone(), v);
        });
        forget_error(errors, &p2);
    };
    let p3 = path.clone();
    let error = move || errors.with(|e| e.get(&p3).cloned());
    if let FieldKind::List(item) = &field.kind {
        if let FieldKind::Enum(choices) = item.as_ref() {
            let choices = choices.clone();
            return view! { <MultiSelect field=field choices=choices id=id values=values errors=errors /> }
                .into_any();
        }
    }
    // The server's title isolated: the " *" after it stays where the app puts it.
    let label = view! { <bdi>{crate::bidi::contained(&field.label).into_owned()}</bdi> {field.required.then_some(" *")} };
    let described = described_by(&id, &field);
    let input = match field.kind.clone() {
        FieldKind::Object(inner) => {
            return view! {
                <fieldset class="object"><legend>{label}</legend>
                    <FieldsView fields=inner values=values errors=errors prefix=prefix multiline=multiline />
                </fieldset>
            }
            .into_any()
        }
        FieldKind::Boolean => {
            let set = set.clone();
            view! { <input id=id.clone() aria-describedby=described.clone() type="checkbox" prop:checked=move || value() == "true"
            on:change=move |ev| set(event_target_checked(&ev).to_string()) /> }
            .into_any()
        }
        FieldKind::Enum(options) => {
            let set = set.clone();
            view! {
                <select id=id.clone() aria-describedby=described.clone() prop:value=value on:change=move |ev| set(event_target_value(&ev))>
                    <option value="">"—"</option>
                    {options.iter().zip(shown_choices(&options)).map(|(o, text)| {
                        view! { <option value=o.key()>{crate::bidi::contained(&text).into_owned()}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        FieldKind::Number | FieldKind::Integer => {
            let set = set.clone();
            let step = if field.kind == FieldKind::Integer {
                "1"
            } else {
                "any"
            };
            view! { <input id=id.clone() aria-describedby=described.clone() type="number" step=step prop:value=value on:input=move |ev| set(event_target_value(&ev)) /> }.into_any()
        }
        FieldKind::List(_) | FieldKind::Json => {
            let set = set.clone();
            // (A list of choices is a multi-select, above.)
            let hint = match &field.kind {
                FieldKind::List(_) => "one item per line",
                _ => "JSON",
            };
            view! { <textarea id=id.clone() aria-describedby=described.clone() rows="3" placeholder=hint prop:value=value on:input=move |ev| set(event_target_value(&ev))></textarea> }.into_any()
        }
        FieldKind::Text if field.input_type == TextInput::DateTime => {
            let set = Callback::new(set.clone());
            view! { <DateTimeInput id=id.clone() described=described.clone() value=Signal::derive(value.clone()) set=set /> }
                .into_any()
        }
        FieldKind::Text if multiline && field.input_type == TextInput::Plain => {
            let set = set.clone();
            view! { <textarea id=id.clone() aria-describedby=described.clone() class="text" rows="1" prop:value=value on:input=move |ev| set(event_target_value(&ev))></textarea> }.into_any()
        }
        FieldKind::Text => {
            let set = set.clone();
            let kind = field.input_type.html_type();
            view! { <input id=id.clone() aria-describedby=described.clone() type=kind prop:value=value on:input=move |ev| set(event_target_value(&ev)) /> }.into_any()
        }
    };
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            {input}
            <FieldNotes field=field id=id error=Signal::derive(error) />
        </div>
    }
    .into_any()
}

/// What is said under a field's input: its description, its limits (their ids are the ones
/// [`described_by`] names) and the error of the last check before sending, if any.
#[component]
pub(crate) fn FieldNotes(
    field: Field,
    /// The input's element id.
    id: String,
    error: Signal<Option<String>>,
) -> impl IntoView {
    view! {
        {field.description.map(|d| view! { <small class="help" id=format!("{id}-help")>{d}</small> })}
        {field.limits.map(|l| view! { <small class="help limits" id=format!("{id}-limits")>{crate::bidi::contained(&l).into_owned()}</small> })}
        {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
    }
}

/// The arguments a link to a call carries (JSON text): the raw JSON box's text as typed, or
/// the form's arguments as they would be sent; none while the form has none to say (all
/// empty) or holds a value it cannot send (its error shows on Run).
pub fn link_arguments(
    fields: &[Field],
    values: &BTreeMap<String, String>,
    raw_mode: bool,
    raw: &str,
) -> Option<String> {
    if raw_mode {
        return (!raw.trim().is_empty()).then(|| raw.to_string());
    }
    match crate::schema_form::build_arguments(fields, values) {
        Ok(serde_json::Value::Object(args)) if !args.is_empty() => {
            Some(serde_json::Value::Object(args).to_string())
        }
        _ => None,
    }
}

/// Takes back the error shown for the field at `path` once its value changes: it was about
/// the value before (the check before sending runs again on the next Send or Run).
pub(crate) fn forget_error(errors: RwSignal<BTreeMap<String, String>>, path: &str) {
    if errors.with_untracked(|e| e.contains_key(path)) {
        errors.update(|e| {
            e.remove(path);
        });
    }
}

/// The ids of the texts that describe the input `id` of `field` (its description, its
/// limits), for its `aria-describedby`: a screen reader reads them with the input.
pub(crate) fn described_by(id: &str, field: &Field) -> Option<String> {
    let ids: Vec<String> = [
        field.description.as_ref().map(|_| format!("{id}-help")),
        field.limits.as_ref().map(|_| format!("{id}-limits")),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!ids.is_empty()).then(|| ids.join(" "))
}

/// The `_meta` entries typed for a call: nothing when the box is empty, else a JSON object
/// whose entries the client may send (see [`check_request_meta`]), or why not in words.
pub fn request_meta(
    typed: &str,
) -> Result<Option<serde_json::Map<String, serde_json::Value>>, String> {
    if typed.trim().is_empty() {
        return Ok(None);
    }
    match typed_object(typed) {
        Ok(entries) => check_request_meta(&entries)
            .map(|()| Some(entries))
            .map_err(|e| format!("Not sent: {e}.")),
        Err(e) => Err(format!(
            "Not sent: the _meta of the call must be a JSON object: this is {e}."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{link_arguments, request_meta};
    use crate::schema_form::fields_of;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[test]
    fn a_link_carries_the_arguments_the_form_would_send_or_the_raw_json_typed() {
        let fields = fields_of(&json!({"properties": {
            "a": {"type": "integer"}, "b": {"type": "string"}}}));
        let values = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let sent = link_arguments(&fields, &values(&[("a", "7"), ("b", "x & y")]), false, "");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&sent.expect("arguments")).unwrap(),
            json!({"a": 7, "b": "x & y"})
        );
        // Nothing typed, or a value the form cannot send: no link with arguments.
        assert_eq!(link_arguments(&fields, &values(&[]), false, ""), None);
        assert_eq!(
            link_arguments(&fields, &values(&[("a", "seven")]), false, ""),
            None
        );
        // Raw JSON goes as typed (the form's values aside), unless there is none.
        assert_eq!(
            link_arguments(&fields, &values(&[("a", "7")]), true, "{\"a\": [1,"),
            Some("{\"a\": [1,".to_string())
        );
        assert_eq!(
            link_arguments(&fields, &values(&[("a", "7")]), true, "  \n"),
            None
        );
    }

    #[test]
    fn the_calls_meta_is_an_object_the_client_may_send_or_nothing() {
        assert_eq!(request_meta("  "), Ok(None));
        let tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        let typed = format!(r#"{{"traceparent": "{tp}", "example.com/tag": 1}}"#);
        let entries = request_meta(&typed).expect("sendable").expect("entries");
        assert_eq!(entries["traceparent"], json!(tp));
        for refused in [
            r#"[1]"#,
            "{",
            r#"{"progressToken": 1}"#,
            r#"{"traceparent": "x"}"#,
        ] {
            let why = request_meta(refused).expect_err(refused);
            assert!(why.starts_with("Not sent: "), "{why}");
        }
    }
}
