//! The tasks tab: the server's tasks (2025-11-25 tasks, where the server declares
//! `tasks.list`), their states as they change, cancelling one, and what one came to.

use crate::components::keyed_list::KeyedList;
use crate::components::long_text::LongText;
use crate::components::result_view::{decode_tool_result, ResultView};
use crate::connection::Connection;
use crate::decoded::Decoded;
use crate::server_tasks::{self, TaskOutcome as Outcome};
use client_browser::client_core::types::Task;
use leptos::prelude::*;
use std::time::Duration;

/// How often the list is asked for again while a task shown may still change (the server's
/// status notifications, where it sends them, tell sooner).
const RELIST_EVERY: Duration = Duration::from_secs(3);

/// The tasks tab.
#[component]
pub fn TasksPanel(conn: Connection) -> impl IntoView {
    let (client, tasks) = (conn.client, conn.server_tasks);
    let listing = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let outcome = conn.task_outcome;
    // Tasks whose cancelling was asked for and not answered yet (their button waits).
    let cancelling = RwSignal::new(Vec::<String>::new());
    let can_cancel = conn
        .details
        .with_untracked(|d| d.as_ref().is_some_and(|d| d.capabilities.tasks_cancel()));
    let list = move || {
        if listing.get_untracked() {
            return;
        }
        let Some(client) = client.get_value() else {
            return;
        };
        listing.set(true);
        leptos::task::spawn_local(async move {
            let listed = client.list_tasks().await;
            // The tab may be gone meanwhile; the connection's list is not.
            let _ = listing.try_set(false);
            match listed {
                Ok(listed) => {
                    tasks.update(|t| server_tasks::replace_all(t, listed));
                    let _ = error.try_set(None);
                }
                Err(e) => {
                    let why = format!("Listing the tasks failed: {}", crate::doctor::explain(&e));
                    let _ = error.try_set(Some(why));
                }
            }
        });
    };
    list();
    // Listed again now and then while a task may still change, for as long as the tab is
    // shown.
    if let Ok(every) = set_interval_with_handle(
        move || {
            if tasks.with_untracked(|t| server_tasks::any_running(t)) {
                list();
            }
        },
        RELIST_EVERY,
    ) {
        on_cleanup(move || every.clear());
    }
    let cancel = move |task_id: String| {
        let Some(client) = client.get_value() else {
            return;
        };
        cancelling.update(|c| crate::connection::add_once(c, task_id.clone()));
        leptos::task::spawn_local(async move {
            let answer = client.cancel_task(&task_id).await;
            let _ = cancelling.try_update(|c| c.retain(|x| *x != task_id));
            match answer {
                Ok(state) => tasks.update(|t| server_tasks::merge(t, state)),
                Err(e) => {
                    let why = format!(
                        "Cancelling task {} failed: {}",
                        crate::bidi::isolated_if_steering(&task_id),
                        crate::doctor::explain(&e)
                    );
                    let _ = error.try_set(Some(why));
                }
            }
        });
    };
    let show_result = move |task_id: String| {
        let Some(client) = client.get_value() else {
            return;
        };
        outcome.set(Some(Outcome {
            task_id: task_id.clone(),
            result: None,
        }));
        leptos::task::spawn_local(async move {
            let answer = client
                .task_result(&task_id)
                .await
                .map_err(|e| crate::doctor::explain(&e));
            // Only if this is still the task asked about last.
            let _ = outcome.try_update(|o| {
                if let Some(o) = o.as_mut().filter(|o| o.task_id == task_id) {
                    o.result = Some(answer);
                }
            });
        });
    };
    let rows = move || server_tasks::newest_first(&tasks.get());
    view! {
        <section class="tasks" aria-label="Tasks">
            <p class="help">"Requests the server runs in the background, and their states. A tool that needs a task runs as one from the Tools tab."</p>
            <div class="task-actions">
                <button type="button" class="list-tasks" on:click=move |_| list() disabled=move || listing.get()>
                    {move || if listing.get() { "Listing…" } else { "List again" }}
                </button>
            </div>
            {move || error.get().map(|e| view! { <p class="call-error" role="alert">{e}</p> })}
            {move || tasks.with(Vec::is_empty).then(|| view! { <p class="empty">"The server lists no tasks."</p> })}
            // Scrolls sideways on a narrow screen rather than widening the page.
            <div class="task-table">
            <table class="task-list" hidden=move || tasks.with(Vec::is_empty)>
                <thead>
                    <tr><th>"Task"</th><th>"State"</th><th>"Created"</th><th>"Updated"</th><th>"Kept for"</th><th><span class="visually-hidden">"Actions"</span></th></tr>
                </thead>
                <tbody>
                    <KeyedList each=rows key=|t| format!("{}\n{}\n{}", t.task_id, t.status, t.last_updated_at.as_deref().unwrap_or_default()) let:t>
                        <TaskRow task=t can_cancel=can_cancel cancelling=cancelling on_cancel=cancel on_result=show_result />
                    </KeyedList>
                </tbody>
            </table>
            </div>
            {move || outcome.get().map(|o| view! { <TaskOutcome outcome=o /> })}
        </section>
    }
}

/// One task in the list: its id, state (with the server's message), times and actions.
#[component]
fn TaskRow(
    task: Task,
    can_cancel: bool,
    cancelling: RwSignal<Vec<String>>,
    on_cancel: impl Fn(String) + Copy + 'static,
    on_result: impl Fn(String) + Copy + 'static,
) -> impl IntoView {
    let id = task.task_id.clone();
    let waits = {
        let id = id.clone();
        move || cancelling.with(|c| c.contains(&id))
    };
    let cancel_button = (can_cancel && !task.is_terminal()).then(|| {
        let id = id.clone();
        view! {
            <button type="button" class="cancel-task" aria-label=format!("Cancel task {id}") disabled=waits on:click=move |_| on_cancel(id.clone())>"Cancel"</button>
        }
    });
    let result_button = server_tasks::has_result(&task).then(|| {
        let id = id.clone();
        view! { <button type="button" class="task-result" aria-label=format!("Result of task {id}") on:click=move |_| on_result(id.clone())>"Result"</button> }
    });
    let status_class = format!("task-state {}", css_word(&task.status));
    view! {
        <tr class="task" data-task-id=id.clone()>
            <td><code class="task-id">{id.clone()}</code></td>
            <td>
                <span class=status_class>{task.status.clone()}</span>
                {task.status_message.clone().map(|m| view! { <span class="task-message">{m}</span> })}
            </td>
            <td>{when(task.created_at.as_deref())}</td>
            <td>{when(task.last_updated_at.as_deref())}</td>
            <td>{server_tasks::kept_for(&task)}</td>
            <td class="task-buttons">{cancel_button}{result_button}</td>
        </tr>
    }
}

/// What a task came to: a tool result as the tools tab shows one, any other result as JSON,
/// or why there is none.
#[component]
fn TaskOutcome(outcome: Outcome) -> impl IntoView {
    let body = match outcome.result {
        None => view! { <p class="busy" role="status">"Asking the server…"</p> }.into_any(),
        Some(Err(e)) => view! { <p class="call-error" role="alert">{e}</p> }.into_any(),
        Some(Ok(value)) => match decode_tool_result(value.clone()) {
            Ok(Decoded { value: result, raw }) => {
                view! { <ResultView result=result raw=raw /> }.into_any()
            }
            Err(_) => {
                let json = crate::json_text::pretty(&value);
                view! { <LongText text=json pre_class="raw-json" file="task-result.json" /> }
                    .into_any()
            }
        },
    };
    view! {
        <section class="task-outcome" aria-label="Task result">
            <h4>"Result of task " <code>{outcome.task_id}</code></h4>
            {body}
        </section>
    }
}

/// A time the server gave (ISO 8601) as a time of day here, the whole time on hover; the
/// text as it came when it does not read as a time.
fn when(iso: Option<&str>) -> impl IntoView {
    let iso = iso.unwrap_or_default().to_string();
    let ms = js_sys::Date::parse(&iso);
    let shown = if ms.is_nan() {
        iso.clone()
    } else {
        crate::components::logs::time_of_day(ms)
    };
    view! { <time datetime=iso.clone() title=iso>{shown}</time> }
}

/// A status as a class name: letters and `_` only (the status is the server's text).
fn css_word(status: &str) -> String {
    status
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(32)
        .collect()
}
