//! The call history of a server, each call re-runnable, or editable in its tool's form.
//! The app keeps it in the browser (see [`crate::call_history`]).

use crate::call_history::{duration, shown_arguments};
use crate::components::copy_button::CopyButton;
use crate::components::result_view::ToolResult;
use crate::connection::Connection;
use crate::tool_runs::ToolRun;
use leptos::prelude::*;

/// Past calls, newest first.
#[component]
pub fn HistoryPanel(conn: Connection) -> impl IntoView {
    let history = conn.history;
    let clear = conn.clone();
    // Why the last "Run again" or "Edit" could not be done.
    let refused = RwSignal::new(None::<String>);
    // Each call's link: its tool's form filled with its arguments (the app's own page only).
    let links = crate::deep_link::links_for(&conn);
    view! {
        <section class="history" aria-label="Call history">
            <h3>"History"</h3>
            {move || (!history.with(Vec::is_empty)).then(|| {
                let conn = clear.clone();
                view! {
                    <button class="clear-history" on:click=move |_| conn.clear_history()>"Clear"</button>
                }
            })}
            <ol class="history-list">
                {move || history.get().into_iter().enumerate().rev().map(|(i, h)| {
                    let (again, to_edit) = (conn.clone(), conn.clone());
                    let (tool, args) = (h.tool.clone(), h.arguments.clone());
                    // Made by the tool's runner, as a call made with Run is: its View, the
                    // `_meta` typed there, progress, cancel and the output check apply.
                    let run_again = move |_| match put_in_form(&again, &tool, &args) {
                        Ok(run) => {
                            refused.set(None);
                            run.asked.set(Some(args.clone()));
                        }
                        Err(why) => refused.set(Some(why)),
                    };
                    let (tool, args) = (h.tool.clone(), h.arguments.clone());
                    let edit = move |_| refused.set(put_in_form(&to_edit, &tool, &args).err());
                    let link = links.clone().map(|link| {
                        let args = h.arguments.as_object().filter(|a| !a.is_empty()).map(|_| h.arguments.to_string());
                        StoredValue::new(link(crate::deep_link::Opens::Tool(&h.tool), args.as_deref()))
                    });
                    view! {
                        <li data-index=i>
                            {(h.at_ms > 0.0).then(|| view! { <time class="called-at">{called_at(h.at_ms)}</time> " " })}
                            <code><bdi>{crate::bidi::contained(&h.tool).into_owned()}</bdi> " " {shown_arguments(&h.arguments)}</code> " → " <bdi>{crate::bidi::contained(&h.summary).into_owned()}</bdi>
                            {h.took_ms.map(|ms| view! { <span class="took">{format!(" · {}", duration(ms))}</span> })}
                            <button class="rerun" on:click=run_again>"Run again"</button>
                            <button class="edit-call" on:click=edit>"Edit"</button>
                            {link.map(|text| view! { <span class="call-link"><CopyButton text=text label="Copy link" /></span> })}
                        </li>
                    }
                }).collect_view()}
            </ol>
            {move || refused.get().map(|why| view! { <p class="history-refused" role="status">{why}</p> })}
        </section>
    }
}

/// A call's outcome in the history's words: "ok", "tool error", or the failure.
pub fn summary_of(outcome: &Result<ToolResult, String>) -> String {
    match outcome {
        Ok(r) if r.value.is_error == Some(true) => "tool error".to_string(),
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
/// them exactly), chooses the tool and brings its form into view. Returns the tool's run, or
/// why not in words (the server no longer lists the tool).
fn put_in_form(conn: &Connection, tool: &str, args: &serde_json::Value) -> Result<ToolRun, String> {
    let run = crate::tool_runs::run_with(conn, tool, args)?;
    conn.chosen_tool.set(Some(tool.to_string()));
    // Once the form is drawn.
    request_animation_frame(|| {
        if let Ok(Some(runner)) = document().query_selector(".runner") {
            runner.scroll_into_view();
        }
    });
    Ok(run)
}
