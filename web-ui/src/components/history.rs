//! The call history of a server, each call re-runnable, or editable in its tool's form.

use crate::components::result_view::{decode_tool_result, ResultView, ToolResult};
use crate::connection::Connection;
use crate::schema_form::{fields_of, initial_values, values_from};
use leptos::prelude::*;

/// Past calls, newest first.
#[component]
pub fn HistoryPanel(conn: Connection) -> impl IntoView {
    let history = conn.history;
    let rerun = RwSignal::new(None::<Result<ToolResult, String>>);
    view! {
        <section class="history" aria-label="Call history">
            <h3>"History"</h3>
            {move || (!history.with(Vec::is_empty)).then(|| view! {
                <button class="clear-history" on:click=move |_| { history.set(Vec::new()); rerun.set(None); }>"Clear"</button>
            })}
            <ol class="history-list">
                {move || history.get().into_iter().enumerate().rev().map(|(i, h)| {
                    let conn = conn.clone();
                    let (tool, args) = (h.tool.clone(), h.arguments.clone());
                    let run_again = move |_| {
                        let Some(client) = conn.client.get_value() else { return };
                        let (tool, args) = (tool.clone(), args.clone());
                        let opts = crate::time_limit::call_options(conn.time_limit.get_untracked());
                        leptos::task::spawn_local(async move {
                            let r = client.start_tool_call(&tool, args, opts).await;
                            rerun.set(Some(
                                r.and_then(decode_tool_result)
                                    .map_err(|e| crate::doctor::explain(&e)),
                            ));
                        });
                    };
                    let to_edit = conn.clone();
                    let (tool, args) = (h.tool.clone(), h.arguments.clone());
                    let edit = move |_| edit_call(&to_edit, &tool, &args);
                    view! {
                        <li data-index=i>
                            <code>{h.tool.clone()} " " {h.arguments.to_string()}</code> " → " {h.summary.clone()}
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
