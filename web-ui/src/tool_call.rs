//! A tool call as the tools tab shows it, made from the tool's form or followed again after
//! a reload (a task kept in the browser, see [`crate::kept_tasks`]): its progress and task
//! states go to the tool's run, a task is kept in the browser while it runs (followed by one
//! tab of the browser at a time, see [`crate::tab_lock`]), and its end is shown, added to the
//! history and told to an embedding page.

use crate::components::result_view::decode_tool_result;
use crate::connection::Connection;
use crate::decoded::Decoded;
use crate::kept_tasks::{self, KeptTask};
use crate::schema_form::{fields_of, initial_values};
use crate::tab_lock::{self, HeldLock, TaskLock};
use crate::tool_runs::ToolRun;
use client_browser::client_core::session::{ConnectionState, RequestError};
use client_browser::client_core::types::{Era, ProgressParams, Task};
use client_browser::{CallOptions, ClientError, PendingCall};
use leptos::prelude::*;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The task a call's run keeps in the browser, if any (forgotten when the call ends), and
/// the tab's lock on it (released when the call ends).
#[derive(Clone, Default)]
pub struct KeptCall {
    /// The task's id.
    id: Rc<RefCell<Option<String>>>,
    /// This tab's lock on the task.
    lock: TaskLock,
    /// Followed in a run of its own that no form shows (the tool's form here was in use):
    /// its end is told in the log, and the run goes with it.
    background: bool,
}

/// A call followed in the background: a task this tab took over while its tool's form was in
/// use. Its run is no form's; the tool's form tells of it and can cancel it.
#[derive(Clone)]
pub struct BackgroundCall {
    /// The tool called.
    pub tool: String,
    /// The task's id.
    pub task_id: String,
    /// Its run: the call under way, the task's state.
    pub run: ToolRun,
}

/// What a call of tool `name` with `args`, made at `at_ms`, reports to `run`: progress, and
/// its task's states (a task of a 2026-07-28 server kept in the browser from its first state
/// until the call ends, where the connection keeps history). `base` holds the time limit and
/// `_meta`.
pub fn options(
    conn: &Connection,
    run: ToolRun,
    name: &str,
    args: &Value,
    at_ms: f64,
    base: CallOptions,
) -> (CallOptions, KeptCall) {
    let kept = KeptCall::default();
    // Only a 2026-07-28 server's tasks (the Tasks extension) outlive the connection; a
    // 2025-era server may tie its tasks to the session (server-everything does), which a
    // reload ends.
    let modern = conn
        .details
        .with_untracked(|d| d.as_ref().is_some_and(|d| d.era == Era::Modern));
    let keeps = conn.keeps_history() && modern;
    let (url, tool, arguments) = (conn.url.clone(), name.to_string(), args.clone());
    let kept_here = kept.clone();
    let followed = conn.followed_tasks;
    let tasks_here = conn.tasks_here;
    let opts = CallOptions {
        on_task: Some(Rc::new(move |t: &Task| {
            run.task
                .set(Some((t.status.clone(), t.status_message.clone())));
            if keeps && !t.is_terminal() && kept_here.id.borrow().is_none() {
                kept_here.id.replace(Some(t.task_id.clone()));
                // This tab follows it: another one leaves it alone while this one runs.
                kept_here
                    .lock
                    .claim(tab_lock::task_lock_name(&url, &t.task_id));
                followed.update_value(|f| crate::connection::add_once(f, t.task_id.clone()));
                let task = KeptTask {
                    task_id: t.task_id.clone(),
                    tool: tool.clone(),
                    arguments: arguments.clone(),
                    at_ms,
                };
                kept_tasks::keep(&url, task.clone());
                tasks_here.try_update_value(|here| here.follow(task));
            }
        })),
        on_progress: Some(Rc::new(move |p: ProgressParams| {
            run.progress.set(Some((
                p.progress.as_f64().unwrap_or(0.0),
                p.total.and_then(|t| t.as_f64()),
                p.message,
            )));
        })),
        ..base
    };
    (opts, kept)
}

/// True when a call that ended with `outcome` may still have a task running on the server
/// that a later page can follow: the page closed the client, the network or the login
/// failed. Any other end (a result, the server's error, a cancel) settles it.
fn task_outlives(outcome: &Result<Value, ClientError>) -> bool {
    matches!(
        outcome,
        Err(ClientError::Closed
            | ClientError::AuthRequired { .. }
            | ClientError::Auth(_)
            | ClientError::Request(RequestError::Closed | RequestError::Transport(_)))
    )
}

/// True when a call that ended with `outcome` was cut short by its client's close (the page
/// left, the connection was closed, the person logged out), not by anything about the call.
/// A call whose task was kept is then not over: the page that follows the task to its end
/// records it, once.
fn closed_before_its_end(outcome: &Result<Value, ClientError>) -> bool {
    matches!(
        outcome,
        Err(ClientError::Closed | ClientError::Request(RequestError::Closed))
    )
}

/// Shows `call` (of tool `name` with `args`, made at `at_ms`) under way in `run`, and its end
/// when it comes: the result or why it failed, how long it took, pages the server asks to
/// open first; the history (unless its client's close cut short a call whose task goes on)
/// and an embedding page (`tool-result`) are told.
pub fn follow(
    conn: &Connection,
    run: ToolRun,
    name: String,
    args: Value,
    call: PendingCall,
    at_ms: f64,
    kept: KeptCall,
) {
    run.running.set(Some(call.handle));
    conn.running_tools
        .update(|r| crate::connection::add_once(r, name.clone()));
    let conn = conn.clone();
    leptos::task::spawn_local(async move {
        let r = call.await;
        let _ = conn.running_tools.try_update(|r| r.retain(|t| *t != name));
        let kept_id = kept.id.borrow_mut().take();
        let unfinished = kept_id.is_some() && closed_before_its_end(&r);
        if let Some(id) = &kept_id {
            if task_outlives(&r) {
                // Another tab may follow it from now on.
                conn.tasks_here.try_update_value(|here| here.let_go(id));
                kept.lock.release();
            } else {
                conn.tasks_here.try_update_value(|here| here.settle(id));
                kept_tasks::forget(&conn.url, id);
                // A tab that waits for it is granted the lock, and sees the mark.
                tab_lock::settle(kept.lock.clone(), &conn.url, id);
            }
            unfollow(&conn, id);
        }
        run.running.set(None);
        // The result (or error) now says how the task ended.
        run.task.set(None);
        // Web pages to open before the call is made again (-32042).
        let required = r
            .as_ref()
            .err()
            .and_then(ClientError::url_elicitations_required);
        let outcome = r
            .and_then(decode_tool_result)
            .map_err(|e| crate::doctor::explain(&e));
        // The result as the server sent it.
        if let (Some(sink), Ok(Decoded { raw, .. })) = (conn.sink.get_value(), &outcome) {
            (sink.0)(
                "tool-result",
                serde_json::json!({ "tool": name, "result": raw }),
            );
        }
        // Not recorded while its task goes on: a reload recorded "the session is closed"
        // beside the result the next page came to.
        let took = if unfinished {
            js_sys::Date::now() - at_ms
        } else {
            conn.record_call(name.clone(), args, &outcome, at_ms)
        };
        if kept.background {
            // Cut short by a close, it is not over: nothing to tell yet.
            if !unfinished {
                let end = if outcome.is_ok() {
                    "its result"
                } else {
                    "how it failed"
                };
                crate::connection::note(
                    conn.log,
                    format!("the call of {} followed in the background came to its end: {end} is in the history", crate::bidi::isolated_if_steering(&name)),
                );
            }
            // No form tells of it any longer: then its signals go.
            let _ = conn
                .background_calls
                .try_update(|calls| calls.retain(|c| Some(&c.task_id) != kept_id.as_ref()));
            return run.dispose_detached();
        }
        run.took_ms.set(Some(took));
        run.url_required.set(required.unwrap_or_default());
        run.result.set(Some(outcome));
    });
}

/// Follows each task this browser kept for `conn`'s server (calls of an earlier page that
/// were still running) to its end, shown in its tool's run (its form filled in with the
/// call's arguments; a tool's MCP App in a new View) as if the call were still under way;
/// once the tools are listed (the form is built from the tool's schema). A task that another
/// connection of this browser follows (in another tab, or in this one) is left to it, and
/// followed here once that connection is gone.
pub fn resume_kept_tasks(conn: &Connection) {
    if !conn.keeps_history() {
        return;
    }
    // Those this connection follows already, or waits for, are left as they are.
    let kept: Vec<KeptTask> = kept_tasks::load(&conn.url)
        .into_iter()
        .filter(|k| !conn.followed_tasks.with_value(|f| f.contains(&k.task_id)))
        .collect();
    if kept.is_empty() {
        return;
    }
    conn.followed_tasks.update_value(|f| {
        f.extend(kept.iter().map(|k| k.task_id.clone()));
    });
    let conn = conn.clone();
    leptos::task::spawn_local(async move {
        let mut here = Vec::new();
        let mut elsewhere = Vec::new();
        for kept in kept {
            let name = tab_lock::task_lock_name(&conn.url, &kept.task_id);
            match tab_lock::acquire_if_free(&name).await {
                // Followed to its end by a tab whose write this page's storage lacks yet.
                Some(_) if tab_lock::settled_elsewhere(&conn.url, &kept.task_id).await => {
                    unfollow(&conn, &kept.task_id)
                }
                Some(lock) => here.push((kept, lock)),
                None => elsewhere.push(kept),
            }
        }
        if let Some((first, _)) = here.first() {
            let tools: Vec<&str> = here.iter().map(|(k, _)| k.tool.as_str()).collect();
            crate::connection::note(
                conn.log,
                format!(
                    "following again the calls of an earlier visit still running as tasks: {}",
                    tools.join(", ")
                ),
            );
            // Shown at once where no tool is chosen yet (a reload): the first of them.
            if conn.chosen_tool.with_untracked(Option::is_none) {
                conn.chosen_tool.set(Some(first.tool.clone()));
            }
        }
        for (kept, lock) in here {
            resume(&conn, kept, lock);
        }
        if !elsewhere.is_empty() {
            let tools: Vec<&str> = elsewhere.iter().map(|k| k.tool.as_str()).collect();
            crate::connection::note(
                conn.log,
                format!(
                    "calls still running as tasks that another connection of this browser follows (in another tab, or in this one): {} (followed here if that connection closes)",
                    tools.join(", ")
                ),
            );
        }
        for kept in elsewhere {
            leptos::task::spawn_local(take_over(conn.clone(), kept));
        }
    });
}

/// Task `task_id` is no longer followed (nor waited for) by `conn`.
fn unfollow(conn: &Connection, task_id: &str) {
    conn.followed_tasks
        .try_update_value(|f| f.retain(|t| t != task_id));
}

/// Follows task `kept`, which another connection followed (of another tab, or of this one),
/// once that connection is gone (its lock released): unless it followed the task to its end,
/// or this connection is over.
async fn take_over(conn: Connection, kept: KeptTask) {
    let lock = tab_lock::acquire(&tab_lock::task_lock_name(&conn.url, &kept.task_id)).await;
    let connected = conn.state.try_get_untracked() == Some(ConnectionState::Connected);
    let still_kept = || {
        kept_tasks::load(&conn.url)
            .iter()
            .any(|k| k.task_id == kept.task_id)
    };
    if !connected || !still_kept() || tab_lock::settled_elsewhere(&conn.url, &kept.task_id).await {
        // Over, left to the next connect, or followed to its end by the other tab (whose
        // write this page's storage may lack yet).
        return unfollow(&conn, &kept.task_id);
    }
    crate::connection::note(
        conn.log,
        format!(
            "following again the call of {} still running as a task (the connection that followed it is gone)",
            kept.tool
        ),
    );
    resume(&conn, kept, lock);
}

/// Follows task `kept` in its tool's run, holding `lock` until the call ends; unless a call
/// of the tool is under way here (the task is then left kept for the next connect).
fn resume(conn: &Connection, kept: KeptTask, lock: HeldLock) {
    let unfollow = || unfollow(conn, &kept.task_id);
    let Some(client) = conn.client.get_value() else {
        return unfollow();
    };
    let tool = conn
        .tools
        .with_untracked(|tools| tools.iter().find(|t| t.name == kept.tool).cloned());
    let busy = conn
        .tool_runs
        .try_with_value(|runs| runs.find(&kept.tool))
        .flatten()
        .is_some_and(|run| run.running.with_untracked(Option::is_some));
    if busy {
        crate::connection::note(
            conn.log,
            format!(
                "the call of {0} still running as a task is left for the next connect: a call of {0} is under way here",
                kept.tool
            ),
        );
        return unfollow();
    }
    // A form the person uses here (typed in, or showing a call's result: this tab took the
    // task over from one that closed) is left as it is; the task is followed in a run no
    // form shows, its end told in the log and recorded in the history.
    let initial = tool
        .as_ref()
        .map(|t| initial_values(&fields_of(&t.input_schema)))
        .unwrap_or_default();
    let in_use = conn
        .tool_runs
        .try_with_value(|runs| runs.find(&kept.tool))
        .flatten()
        .is_some_and(|run| run.holds_work(&initial));
    let run = if in_use {
        crate::connection::note(
            conn.log,
            format!(
                "the call of {} still running as a task is followed in the background: its form here holds what you made of it",
                kept.tool
            ),
        );
        let run = ToolRun::detached(BTreeMap::new());
        // The tool's form tells of it, and can cancel it.
        conn.background_calls.update(|calls| {
            calls.push(BackgroundCall {
                tool: kept.tool.clone(),
                task_id: kept.task_id.clone(),
                run,
            })
        });
        Some(run)
    } else {
        // Its form holds the call's arguments again, as before the reload (a tool no longer
        // listed still gets its run: the result is shown there and in the history).
        match crate::tool_runs::run_with(conn, &kept.tool, &kept.arguments) {
            Ok(run) => Some(run),
            Err(_) => conn
                .tool_runs
                .try_update_value(|runs| runs.of(&kept.tool, Default::default)),
        }
    };
    let Some(run) = run else {
        return unfollow();
    };
    run.progress.set(None);
    run.result.set(None);
    run.took_ms.set(None);
    run.url_required.set(Vec::new());
    run.last_args.set(Some(kept.arguments.clone()));
    run.task
        .set(Some(("working".into(), Some("followed again".into()))));
    let base = crate::time_limit::call_options(conn.time_limit.get_untracked());
    let (opts, mut kept_call) = options(conn, run, &kept.tool, &kept.arguments, kept.at_ms, base);
    kept_call.background = in_use;
    kept_call.id.replace(Some(kept.task_id.clone()));
    kept_call.lock.hold(lock);
    conn.tasks_here
        .try_update_value(|here| here.follow(kept.clone()));
    let call = client.resume_task(&kept.task_id, opts);
    // A tool with an MCP App shows the call in a new View, as when it was called (not one
    // followed in the background: the View here is the person's).
    if let Some(tool) = tool.filter(|t| !in_use && crate::mcp_app::resource_uri(t).is_some()) {
        let args = kept.arguments.clone();
        conn.app_views
            .update(|views| _ = views.called(tool, args, None));
    }
    follow(
        conn,
        run,
        kept.tool,
        kept.arguments,
        call,
        kept.at_ms,
        kept_call,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_browser::client_core::http::TransportFailure;

    #[test]
    fn a_task_outlives_a_closed_page_or_a_lost_network_but_not_an_answer() {
        let lost = Err(ClientError::Request(RequestError::Transport(
            TransportFailure::Network("down".into()),
        )));
        assert!(task_outlives(&lost));
        assert!(task_outlives(&Err(ClientError::Request(
            RequestError::Closed
        ))));
        assert!(task_outlives(&Err(ClientError::Closed)));
        assert!(!task_outlives(&Ok(Value::Null)));
        assert!(!task_outlives(&Err(ClientError::Request(
            RequestError::Cancelled
        ))));
        let refused =
            client_browser::client_core::ErrorObject::new(-32602, String::from("no task"));
        assert!(!task_outlives(&Err(ClientError::Request(
            RequestError::Rpc(refused)
        ))));
    }

    #[test]
    fn only_a_close_cuts_a_call_short_before_its_end() {
        assert!(closed_before_its_end(&Err(ClientError::Closed)));
        assert!(closed_before_its_end(&Err(ClientError::Request(
            RequestError::Closed
        ))));
        // A lost network is an end the person saw; the server's answers are ends.
        let lost = Err(ClientError::Request(RequestError::Transport(
            TransportFailure::Network("down".into()),
        )));
        assert!(!closed_before_its_end(&lost));
        assert!(!closed_before_its_end(&Ok(Value::Null)));
        assert!(!closed_before_its_end(&Err(ClientError::Request(
            RequestError::Cancelled
        ))));
    }
}
