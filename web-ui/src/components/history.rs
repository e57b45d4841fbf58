//! The call history of a server, each call re-runnable.

use crate::components::result_view::{decode_tool_result, ResultView, ToolResult};
use crate::connection::Connection;
use leptos::prelude::*;

/// Past calls, newest first.
#[component]
pub fn HistoryPanel(conn: Connection) -> impl IntoView {
    let history = conn.history;
    let rerun = RwSignal::new(None::<Result<ToolResult, String>>);
    view! {
        <section class="history" aria-label="Call history">
            <h3>"History"</h3>
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
                    view! {
                        <li data-index=i>
                            <code>{h.tool.clone()} " " {h.arguments.to_string()}</code> " → " {h.summary.clone()}
                            <button class="rerun" on:click=run_again>"Run again"</button>
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
