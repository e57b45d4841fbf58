//! The call history of a server, each call re-runnable, or editable in its tool's form.
//! The app keeps it in the browser (see [`crate::call_history`]).

use crate::call_history::{duration, shown_arguments};
use crate::components::result_view::{decode_tool_result, ResultView, ToolResult};
use crate::connection::Connection;
use crate::schema_form::{fields_of, initial_values, values_from};
use leptos::prelude::*;

/// Past calls, newest first.
#[component]
pub fn HistoryPanel(conn: Connection) -> impl IntoView {
    let history = conn.history;
    let clear = conn.clone();
    let rerun = RwSignal::new(None::<Result<ToolResult, String>>);
    view! {
        <section class="history" aria-label="Call history">
            <h3>"History"</h3>
            {move || (!history.with(Vec::is_empty)).then(|| {
                let conn = clear.clone();
                view! {
                    <button class="clear-history" on:click=move |_| { conn.clear_history(); rerun.set(None); }>"Clear"</button>
                }
            })}
            <ol class="history-list">
                {move || history.get().into_iter().enumerate().rev().map(|(i, h)| {
                    let to_edit = conn.clone();
                    let conn = conn.clone();
                    let (tool, args) = (h.tool.clone(), h.arguments.clone());
                    let run_again = move |_| {
                        let Some(client) = conn.client.get_value() else { return };
                        let (tool, args) = (tool.clone(), args.clone());
                        let opts = crate::time_limit::call_options(conn.time_limit.get_untracked());
                        let record = conn.clone();
                        let at_ms = js_sys::Date::now();
                        leptos::task::spawn_local(async move {
                            let r = client.start_tool_call(&tool, args.clone(), opts).await;
                            let outcome = r
                                .and_then(decode_tool_result)
                                .map_err(|e| crate::doctor::explain(&e));
                            record.record_call(tool, args, &outcome, at_ms);
                            rerun.set(Some(outcome));
                        });
                    };
                    let (tool, args) = (h.tool.clone(), h.arguments.clone());
                    let edit = move |_| edit_call(&to_edit, &tool, &args);
                    view! {
                        <li data-index=i>
                            {(h.at_ms > 0.0).then(|| view! { <time class="called-at">{called_at(h.at_ms)}</time> " " })}
                            <code>{h.tool.clone()} " " {shown_arguments(&h.arguments)}</code> " → " {h.summary.clone()}
                            {h.took_ms.map(|ms| view! { <span class="took">{format!(" · {}", duration(ms))}</span> })}
                            <button class="rerun" on:click=run_again>"Run again"</button>
                            <button class="edit-call" on:click=edit>"Edit"</button>
                        </li>
                    }
                }).collect_view()}
            </ol>
            {move || rerun.get().map(|r| match r {
                Ok((c, raw)) => view! { <ResultView result=c raw=raw /> }.into_any(),
                Err(e) => view! { <p class="call-error">{e}</p> }.into_any(),
            })}
        </section>
    }
}

/// A call's outcome in the history's words: "ok", "tool error", or the failure.
pub fn summary_of(outcome: &Result<ToolResult, String>) -> String {
    match outcome {
        Ok((c, _)) if c.is_error == Some(true) => "tool error".to_string(),
        Ok(_) => "ok".to_string(),
        Err(e) => e.clone(),
    }
}

/// When a call was made, in the browser's language: the time of day for a call made today,
/// the date and time for an older one.
fn called_at(at_ms: f64) -> String {
    let at = js_sys::Date::new(&at_ms.into());
    let today = js_sys::Date::new_0().to_date_string();
    let text = if at.to_date_string() == today {
        at.to_locale_time_string("default")
    } else {
        at.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED)
    };
    text.into()
}

/// Puts a past call's arguments into its tool's form (as raw JSON when the form cannot say
/// them exactly), chooses the tool and brings its form into view.
fn edit_call(conn: &Connection, tool: &str, args: &serde_json::Value) {
    let Some(listed) = conn
        .tools
        .with_untracked(|t| t.iter().find(|x| x.name == tool).cloned())
    else {
        crate::connection::note(
            conn.log,
            format!("{tool} cannot be edited: the server no longer lists it"),
        );
        return;
    };
    let fields = fields_of(&listed.input_schema);
    let Some(run) = conn
        .tool_runs
        .try_update_value(|runs| runs.of(tool, || initial_values(&fields)))
    else {
        return;
    };
    match values_from(&fields, args) {
        Some(values) => {
            run.values.set(values);
            run.raw_mode.set(false);
        }
        None => {
            run.raw
                .set(serde_json::to_string_pretty(args).unwrap_or_default());
            run.raw_mode.set(true);
        }
    }
    conn.chosen_tool.set(Some(tool.to_string()));
    // Once the form is drawn.
    request_animation_frame(|| {
        if let Ok(Some(runner)) = document().query_selector(".runner") {
            runner.scroll_into_view();
        }
    });
}
