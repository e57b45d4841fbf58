//! Tool calls a 2026-07-28 server answered with a task (the Tasks extension,
//! `io.modelcontextprotocol/tasks`): the client follows the task with `tasks/get` until it
//! ends, answers what it waits on with `tasks/update`, and gives the caller the result the call
//! came to, as if the server had answered it at once.

use crate::client::{decode, Client, PendingCall};
use crate::error::ClientError;
use crate::options::CallOptions;
use client_core::bidi::Isolated;
use client_core::session::{RequestError, RequestHandle};
use client_core::types::{ServerRequest, Task};
use client_core::ErrorObject;
use futures_util::future::{self, Either};
use futures_util::{FutureExt, StreamExt};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Bounds on the `tasks/get` polling interval the server suggests (milliseconds).
const POLL_MS: (u64, u64) = (250, 5_000);
/// The interval when the server suggests none (milliseconds).
const POLL_DEFAULT_MS: u64 = 1_000;
/// Polls in a row that may fail for want of the server (no response, a 5xx, no answer in
/// time: [`RequestError::server_unavailable`]) before the task is given up on with that
/// failure (a task of either era). `tasks/get` only reads, so asking again is safe; the
/// waits between them grow (1, 2, 4, 5, 5 s), so a task outlives a network that drops for
/// about a quarter of a minute.
pub(crate) const POLL_RETRIES: u32 = 5;

/// The wait before the next poll after `failed` polls in a row failed for want of the
/// server, at least `every` (milliseconds).
pub(crate) fn poll_wait_ms(every: u64, failed: u32) -> u64 {
    if failed == 0 {
        return every;
    }
    let backoff = 1_000u64 << (failed - 1).min(8);
    every.max(backoff.min(POLL_MS.1))
}

/// Whether a poll that failed with `e` may be made again (see [`POLL_RETRIES`]).
pub(crate) fn poll_may_pass(e: &ClientError) -> bool {
    matches!(e, ClientError::Request(r) if r.server_unavailable())
}

/// Most requests one task may wait on over its life (a server that keeps asking is refused,
/// as the core bounds MRTR rounds).
const MAX_INPUTS: usize = 64;

/// The first failure answering what a task waits on, shared with the handlers running.
type InputFailure = Rc<RefCell<Option<ClientError>>>;

/// The server broke the extension's rules.
fn protocol(why: String) -> ClientError {
    ClientError::Request(RequestError::Protocol(why))
}

/// The server answered a `tasks/get` for task `asked` with another task.
pub(crate) fn other_task(asked: &str, answered: &str) -> ClientError {
    protocol(format!(
        "asked for task {asked}, the server answered with task {answered}"
    ))
}

/// Keeps `e` unless a failure is kept already.
fn note_failure(failed: &InputFailure, e: ClientError) {
    failed.borrow_mut().get_or_insert(e);
}

impl Client {
    /// A tool call as sent: its answer, or, where the server answered with a task, what the
    /// task came to.
    pub(crate) fn plain_tool_call(&self, params: Value, opts: CallOptions) -> PendingCall {
        let call = self.start("tools/call", Some(params), opts.clone());
        let handle = call.handle;
        let client = self.clone();
        PendingCall {
            handle,
            fut: async move {
                let answer = call.await?;
                if answer.get("resultType").and_then(Value::as_str) != Some("task") {
                    return Ok(answer);
                }
                client.follow_extension_task(handle, answer, &opts).await
            }
            .boxed_local(),
        }
    }

    /// Follows the task `created` (a `tools/call` answered with `resultType: "task"`) to its
    /// end; `handle` is the call's, which the caller cancels with (the task is then cancelled
    /// with `tasks/cancel`, and following it stops at once, as the extension allows).
    pub(crate) async fn follow_extension_task(
        &self,
        handle: RequestHandle,
        created: Value,
        opts: &CallOptions,
    ) -> Result<Value, ClientError> {
        let task: Task = decode("tools/call", created)?;
        let (stopped, pushed) =
            self.tasks
                .borrow_mut()
                .follow(handle, &task.task_id, opts.on_task.clone());
        // The server is asked to push the task's states on the listen stream (opened again
        // with its id; once the task is over, its id goes with the next change).
        self.relisten();
        let task_id = task.task_id.clone();
        let outcome = self.drive_extension_task(task, opts, stopped, pushed).await;
        if self.tasks.borrow_mut().unfollow(handle, &task_id) {
            return Err(ClientError::Request(RequestError::Cancelled));
        }
        outcome
    }

    async fn drive_extension_task(
        &self,
        mut task: Task,
        opts: &CallOptions,
        mut stopped: futures_channel::oneshot::Receiver<()>,
        mut pushed: futures_channel::mpsc::UnboundedReceiver<Task>,
    ) -> Result<Value, ClientError> {
        // `inputRequests` keys handed to the application: a key names one request for the
        // task's whole life, and polls repeat it until it is answered.
        let mut asked: Vec<String> = Vec::new();
        // The first failure answering what the task waits on (a refusal, an update that
        // failed): the task cannot go on. Seen at the next poll.
        let failed: InputFailure = Rc::default();
        // A backstop, as the extension allows: the task's time to live (or, unlimited, ten
        // minutes), or the call's own time limit if longer; then the task is given up on.
        let limit_ms = task.ttl_ms().unwrap_or(crate::tasks::TASK_TTL_MS).max(
            opts.timeout
                .unwrap_or(self.inner.options.timeout)
                .as_millis(),
        );
        let given_up_at = js_sys::Date::now() + limit_ms as f64;
        // Polls failed in a row for want of the server.
        let mut failed_polls: u32 = 0;
        loop {
            self.report_task(&task);
            match task.status.as_str() {
                "completed" => return completed_result(&task),
                "failed" => return Err(failed_error(&task)),
                "cancelled" => return Err(ClientError::Request(RequestError::Cancelled)),
                "input_required" => self.ask_for_input(&task, &mut asked, opts, &failed),
                _ => {}
            }
            let failure = failed.borrow_mut().take();
            let outcome = match failure {
                Some(e) => Err(e),
                None if js_sys::Date::now() >= given_up_at => {
                    Err(ClientError::Request(RequestError::Timeout {
                        after_ms: limit_ms,
                    }))
                }
                None => Ok(()),
            };
            if let Err(e) = outcome {
                // The task cannot go on without what was refused, or is given up on.
                self.cancel_task_quietly(&task.task_id);
                return Err(e);
            }
            // Polled at the longest interval while the server pushes the task's states.
            let every = if self.task_pushed(&task.task_id) {
                POLL_MS.1
            } else {
                task.poll_interval
                    .unwrap_or(POLL_DEFAULT_MS)
                    .clamp(POLL_MS.0, POLL_MS.1)
            };
            let every = poll_wait_ms(every, failed_polls);
            let params = json!({ "taskId": task.task_id });
            let poll = Box::pin(async move {
                gloo_timers::future::TimeoutFuture::new(every as u32).await;
                let get = CallOptions {
                    meta: opts.meta.clone(),
                    ..CallOptions::default()
                };
                self.start("tasks/get", Some(params), get).await
            });
            let state = match future::select(poll, future::select(pushed.next(), &mut stopped))
                .await
            {
                // A poll lost for want of the server: asked again (the task goes on there).
                Either::Left((Err(e), _)) if poll_may_pass(&e) && failed_polls < POLL_RETRIES => {
                    failed_polls += 1;
                    continue;
                }
                Either::Left((state, _)) => decode("tasks/get", state?)?,
                Either::Right((Either::Left((Some(state), _)), _)) => {
                    // A state older than the one known (a poll answered after it) is skipped.
                    let older = matches!(
                        (&state.last_updated_at, &task.last_updated_at),
                        (Some(new), Some(known)) if new < known
                    );
                    if older {
                        continue;
                    }
                    state
                }
                // Not pushed any more (cannot happen while following): the polls go on.
                Either::Right((Either::Left((None, _)), poll)) => decode("tasks/get", poll.await?)?,
                // The call was cancelled.
                Either::Right((Either::Right((Ok(()), _)), _)) => {
                    return Err(ClientError::Request(RequestError::Cancelled))
                }
                // The client closed (its stop dropped, see `Tasks::closed`).
                Either::Right((Either::Right((Err(_), _)), _)) => {
                    return Err(ClientError::Request(RequestError::Closed))
                }
            };
            // A state came (polled or pushed): the server is there.
            failed_polls = 0;
            if state.task_id != task.task_id {
                self.cancel_task_quietly(&task.task_id);
                return Err(other_task(&task.task_id, &state.task_id));
            }
            task = state;
        }
    }

    /// Hands each request the task waits on that was not handed over yet to the application's
    /// handler; each answer goes to the server at once with `tasks/update` (the server may
    /// take a part of them). A refusal, or an update that fails, is kept in `failed`.
    fn ask_for_input(
        &self,
        task: &Task,
        asked: &mut Vec<String>,
        opts: &CallOptions,
        failed: &InputFailure,
    ) {
        let Some(requests) = task.input_requests() else {
            return;
        };
        for (key, request) in requests {
            if asked.contains(key) {
                continue;
            }
            if asked.len() == MAX_INPUTS {
                let why = format!(
                    "task {} asked for input more than {MAX_INPUTS} times",
                    task.task_id
                );
                note_failure(failed, protocol(why));
                return;
            }
            asked.push(key.clone());
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            let handler = match ServerRequest::decode(method, request.get("params").cloned()) {
                Ok(request) => self.inner.handler_for(request),
                Err(e) => {
                    let why = format!(
                        "malformed input request {key:?} of task {}: {e}",
                        task.task_id
                    );
                    note_failure(failed, protocol(why));
                    return;
                }
            };
            let client = self.clone();
            let failed = failed.clone();
            let key = key.clone();
            let task_id = task.task_id.clone();
            let meta = opts.meta.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let answer = match handler {
                    Some(handler) => handler.await,
                    None => Err(crate::driver::not_handled()),
                };
                let outcome = match answer {
                    Ok(answer) => {
                        let update = CallOptions {
                            meta,
                            ..CallOptions::default()
                        };
                        let params =
                            json!({ "taskId": task_id, "inputResponses": { key: answer } });
                        client
                            .start("tasks/update", Some(params), update)
                            .await
                            .map(|_| ())
                    }
                    Err(e) => Err(ClientError::Request(RequestError::InputRefused(e))),
                };
                if let Err(e) = outcome {
                    // Unread once the call is over.
                    note_failure(&failed, e);
                }
            });
        }
    }
}

/// The result a completed task came to (what the call would have answered at once).
fn completed_result(task: &Task) -> Result<Value, ClientError> {
    match task.result() {
        Some(result @ Value::Object(_)) => Ok(result.clone()),
        _ => Err(ClientError::UnexpectedResult(format!(
            "task {} completed without its result",
            Isolated(&task.task_id)
        ))),
    }
}

/// The error a failed task ended with (the JSON-RPC error the call would have had).
fn failed_error(task: &Task) -> ClientError {
    let error = task
        .error()
        .and_then(|e| serde_json::from_value::<ErrorObject>(e.clone()).ok())
        .unwrap_or_else(|| {
            ErrorObject::new(
                client_core::jsonrpc::codes::INTERNAL_ERROR,
                task.status_message
                    .clone()
                    .unwrap_or_else(|| format!("task {} failed", Isolated(&task.task_id))),
            )
        });
    ClientError::Request(RequestError::Rpc(error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_core::http::TransportFailure;

    #[test]
    fn polls_lost_for_want_of_the_server_are_asked_again_later_and_later() {
        assert_eq!(poll_wait_ms(250, 0), 250);
        let waits: Vec<u64> = (1..=POLL_RETRIES).map(|n| poll_wait_ms(250, n)).collect();
        assert_eq!(waits, [1_000, 2_000, 4_000, 5_000, 5_000]);
        // Never sooner than the interval the task asks for, nor later than the longest.
        assert_eq!(poll_wait_ms(5_000, 1), 5_000);
        assert_eq!(poll_wait_ms(250, u32::MAX), 5_000);
    }

    #[test]
    fn only_a_poll_lost_for_want_of_the_server_is_made_again() {
        let lost = ClientError::Request(RequestError::Transport(TransportFailure::Network(
            "reset".into(),
        )));
        assert!(poll_may_pass(&lost));
        let busy = ClientError::Request(RequestError::Http {
            status: 503,
            body: String::new(),
            www_authenticate: None,
        });
        assert!(poll_may_pass(&busy));
        assert!(poll_may_pass(&ClientError::Request(
            RequestError::Timeout { after_ms: 30_000 }
        )));
        // The server's answer, a refusal, a close: the end.
        let forgot = ClientError::Request(RequestError::Rpc(ErrorObject::new(
            -32602,
            String::from("no task"),
        )));
        assert!(!poll_may_pass(&forgot));
        let refused = ClientError::Request(RequestError::Http {
            status: 403,
            body: String::new(),
            www_authenticate: None,
        });
        assert!(!poll_may_pass(&refused));
        assert!(!poll_may_pass(&ClientError::Request(RequestError::Closed)));
        assert!(!poll_may_pass(&ClientError::Closed));
    }

    fn task(extra: Value) -> Task {
        let mut task = json!({ "taskId": "t\u{202e}1", "status": "completed" });
        if let (Some(task), Some(extra)) = (task.as_object_mut(), extra.as_object()) {
            task.extend(extra.clone());
        }
        serde_json::from_value(task).expect("a task")
    }

    #[test]
    fn a_completed_task_gives_its_result_object_and_nothing_else() {
        let done = task(json!({ "result": { "content": [] } }));
        assert_eq!(completed_result(&done).ok(), Some(json!({ "content": [] })));
        for extra in [
            json!({}),
            json!({ "result": "text" }),
            json!({ "result": null }),
        ] {
            let e = completed_result(&task(extra.clone())).expect_err("no result object");
            assert!(matches!(e, ClientError::UnexpectedResult(_)), "{extra}");
            assert!(
                e.to_string()
                    .contains("task \u{2068}t\u{202e}1\u{2069} completed without"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_failed_task_gives_its_error_or_its_message_or_says_it_failed() {
        let rpc = |e: ClientError| match e {
            ClientError::Request(RequestError::Rpc(e)) => (e.code, e.message),
            other => panic!("not a JSON-RPC error: {other}"),
        };
        let with_error = task(json!({ "error": { "code": -32000, "message": "out of ink" } }));
        assert_eq!(
            rpc(failed_error(&with_error)),
            (-32000, "out of ink".into())
        );
        // A malformed error: the status message, else the client's words.
        let said = task(json!({ "error": "bad", "statusMessage": "the printer caught fire" }));
        assert_eq!(
            rpc(failed_error(&said)),
            (-32603, "the printer caught fire".into())
        );
        assert_eq!(
            rpc(failed_error(&task(json!({})))),
            (-32603, "task \u{2068}t\u{202e}1\u{2069} failed".into())
        );
    }
}
