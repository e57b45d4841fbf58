//! Tool calls that run as tasks (2025-11-25 tasks): which tools need one, and following a
//! task from its creation to its result.

use crate::client::{decode, Client, PendingCall};
use crate::error::ClientError;
use crate::options::{CallOptions, ClientEvent, TaskListener};
use client_core::session::{RequestError, RequestHandle};
use client_core::time::Duration;
use client_core::types::Era;
use client_core::types::Task;
use futures_util::future::{Either, FutureExt, LocalBoxFuture, Shared};
use litemap::LiteMap;
use serde_json::{json, Value};

/// How long the server is asked to keep a task-augmented tool call (milliseconds).
pub(crate) const TASK_TTL_MS: u64 = 10 * 60 * 1000;
/// Bounds on the `tasks/get` polling interval the server suggests (milliseconds).
const TASK_POLL_MS: (u64, u64) = (250, 5_000);

/// Tool calls that run as tasks (2025-11-25 tasks).
#[derive(Default)]
pub(crate) struct Tasks {
    /// Tools the last `tools/list` marked `execution.taskSupport: "required"`.
    pub(crate) required: Vec<String>,
    /// Whether the tools were listed since the server last said they changed (else
    /// `required` is not known).
    pub(crate) listed: bool,
    /// How many times the server said the tools changed: a listing counts only if no change
    /// came while it was on its way (its answer may predate the change).
    pub(crate) changes: u64,
    /// The `tools/list` that calls made before the tools were listed wait for: one at a time,
    /// shared by all of them.
    listing: Option<Shared<LocalBoxFuture<'static, ()>>>,
    /// Calls waiting for that listing: each one's handle → what ends its wait (cancelling).
    waiting: LiteMap<RequestHandle, futures_channel::oneshot::Sender<()>>,
    /// Tool calls now running as a task: the call's handle → the task id (for cancelling).
    pub(crate) running: LiteMap<RequestHandle, String>,
    /// Calls whose task the application cancelled: they end as cancelled, whatever the
    /// server then answers to `tasks/result` (server-everything: "no result stored").
    pub(crate) cancelled: Vec<RequestHandle>,
    /// Tasks followed for a caller that wants their states: task id → whom to tell, and the
    /// `lastUpdatedAt` of the state told last.
    followed: LiteMap<String, (TaskListener, Option<String>)>,
    /// Tasks now followed that the server announces the states of: polled at the longest
    /// interval only (the specification still asks to poll; the announcements tell sooner).
    notified: Vec<String>,
    /// Tool calls following a task of the Tasks extension (2026-07-28): what stops following
    /// it when the call is cancelled (the extension lets a client stop polling at once).
    stops: LiteMap<RequestHandle, futures_channel::oneshot::Sender<()>>,
    /// Tasks of the Tasks extension now followed: task id → where the states the server
    /// pushes (`notifications/tasks`, on the `subscriptions/listen` stream) go.
    pushed: LiteMap<String, futures_channel::mpsc::UnboundedSender<Task>>,
    /// States the server announced (`notifications/tasks/status`) of tasks not followed (yet):
    /// the announcement may come before the answer that creates the task. The newest few.
    announced: Vec<Task>,
}

/// How many announced states of tasks not followed are kept.
const ANNOUNCED_KEPT: usize = 16;

impl Tasks {
    /// Whom to tell of `task`'s state, if its task is followed and the state is not older
    /// than the one told last (a poll answered before an announcement that came first).
    fn listener_for(&mut self, task: &Task) -> Option<TaskListener> {
        let (listener, told) = self.followed.get_mut(&task.task_id)?;
        if let (Some(told), Some(now)) = (told.as_deref(), task.last_updated_at.as_deref()) {
            // ISO 8601 times from one server, in one format: their text orders them.
            if now < told {
                return None;
            }
        }
        if task.last_updated_at.is_some() {
            told.clone_from(&task.last_updated_at);
        }
        Some(listener.clone())
    }

    /// Starts following task `task_id` for call `handle` (a task of the Tasks extension):
    /// `on_task` is told its states; the first receiver fires when the call is cancelled,
    /// the second gives the states the server pushes.
    pub(crate) fn follow(
        &mut self,
        handle: RequestHandle,
        task_id: &str,
        on_task: Option<TaskListener>,
    ) -> (
        futures_channel::oneshot::Receiver<()>,
        futures_channel::mpsc::UnboundedReceiver<Task>,
    ) {
        self.running.insert(handle, task_id.to_string());
        if let Some(listener) = on_task {
            self.followed.insert(task_id.to_string(), (listener, None));
        }
        let (stop, stopped) = futures_channel::oneshot::channel();
        self.stops.insert(handle, stop);
        let (push, pushed) = futures_channel::mpsc::unbounded();
        self.pushed.insert(task_id.to_string(), push);
        (stopped, pushed)
    }

    /// Ends what [`Tasks::follow`] started; true when the call was cancelled meanwhile.
    pub(crate) fn unfollow(&mut self, handle: RequestHandle, task_id: &str) -> bool {
        self.stops.remove(&handle);
        self.followed.remove(task_id);
        self.pushed.remove(task_id);
        self.end(handle)
    }

    /// The client closed: the calls following a task of the Tasks extension stop at once
    /// (their stops dropped: they end as closed, not at their next poll).
    pub(crate) fn closed(&mut self) {
        self.stops.clear();
    }

    /// Takes a state the server pushed (`notifications/tasks`): to the call following its
    /// task, if any (else dropped: nobody asked for it any more).
    pub(crate) fn pushed(&mut self, task: &Task) {
        if let Some(push) = self.pushed.get(&task.task_id) {
            let _ = push.unbounded_send(task.clone());
        }
    }

    /// The tasks of the Tasks extension followed now (asked for on the listen stream).
    pub(crate) fn pushed_ids(&self) -> Vec<String> {
        self.pushed.keys().cloned().collect()
    }

    /// Forgets call `handle`'s task; true when the call was cancelled meanwhile.
    fn end(&mut self, handle: RequestHandle) -> bool {
        self.running.remove(&handle);
        let before = self.cancelled.len();
        self.cancelled.retain(|h| *h != handle);
        self.cancelled.len() < before
    }

    /// Marks call `handle` cancelled: it ends as cancelled, and stops following its task of
    /// the Tasks extension at once (if it follows one).
    fn mark_cancelled(&mut self, handle: RequestHandle) {
        self.cancelled.push(handle);
        if let Some(stop) = self.stops.remove(&handle) {
            let _ = stop.send(());
        }
    }

    /// The tool calls following task `task_id`, marked cancelled: the application asked the
    /// server to cancel the task (see [`Tasks::cancel_refused`]).
    fn cancel_calls_of(&mut self, task_id: &str) -> Vec<RequestHandle> {
        let calls: Vec<RequestHandle> = self
            .running
            .iter()
            .filter(|(_, id)| id.as_str() == task_id)
            .map(|(handle, _)| *handle)
            .collect();
        for handle in &calls {
            self.mark_cancelled(*handle);
        }
        calls
    }

    /// The server did not cancel the task of `calls` (it was over already, say): they end
    /// as their task did, not as cancelled.
    fn cancel_refused(&mut self, calls: &[RequestHandle]) {
        self.cancelled.retain(|h| !calls.contains(h));
    }

    /// Starts following task `task_id` (2025-11-25 tasks), which call `handle` created:
    /// `on_task` is told its states. Returns the state the server announced before the
    /// answer that created the task came, if it did (the server then announces its states:
    /// it is polled at the longest interval).
    fn follow_call_task(
        &mut self,
        handle: RequestHandle,
        task_id: &str,
        on_task: Option<&TaskListener>,
    ) -> Option<Task> {
        self.running.insert(handle, task_id.to_string());
        if let Some(listener) = on_task {
            self.followed
                .insert(task_id.to_string(), (listener.clone(), None));
        }
        let i = self.announced.iter().position(|t| t.task_id == task_id)?;
        self.notified.push(task_id.to_string());
        Some(self.announced.remove(i))
    }

    /// Ends what [`Tasks::follow_call_task`] started but the call's own entry (see
    /// [`Tasks::end`]).
    fn unfollow_call_task(&mut self, task_id: &str) {
        self.followed.remove(task_id);
        self.notified.retain(|id| id != task_id);
    }

    /// Remembers which tools must run as tasks, from a page of a `tools/list` result.
    pub(crate) fn note_required(&mut self, first_page: bool, tools: &[Value]) {
        if first_page {
            self.required.clear();
        }
        self.required.extend(tools.iter().filter_map(|tool| {
            let support = tool.get("execution")?.get("taskSupport")?.as_str()?;
            (support == "required").then(|| tool.get("name")?.as_str().map(str::to_string))?
        }));
    }

    /// A listing of the tools that began when the server had said `changes_before` times
    /// that they changed has ended (read whole, or failed: then which need a task is not
    /// known, and calls are made as they are): the tools count as listed, unless the server
    /// said they changed while the listing was on its way (its answer may predate that).
    pub(crate) fn tools_listed(&mut self, changes_before: u64) {
        self.listed = self.changes == changes_before;
    }

    /// Takes a state the server announced: whom to tell of it now, or kept until its task
    /// is followed.
    pub(crate) fn announced(&mut self, task: &Task) -> Option<TaskListener> {
        if self.running.values().any(|id| *id == task.task_id)
            && !self.notified.contains(&task.task_id)
        {
            self.notified.push(task.task_id.clone());
        }
        if self.followed.contains_key(&task.task_id) {
            return self.listener_for(task);
        }
        self.announced.retain(|t| t.task_id != task.task_id);
        if self.announced.len() == ANNOUNCED_KEPT {
            self.announced.remove(0);
        }
        self.announced.push(task.clone());
        None
    }
}

/// How long to wait between `tasks/get` polls of a task whose server suggests `suggested`
/// milliseconds (its `pollInterval`; a second if it does not), within [`TASK_POLL_MS`]; the
/// longest interval when the server `announced` the task's states (the specification still
/// asks to poll; the announcements tell sooner).
fn poll_every_ms(announced: bool, suggested: Option<u64>) -> u64 {
    if announced {
        return TASK_POLL_MS.1;
    }
    suggested
        .unwrap_or(1_000)
        .clamp(TASK_POLL_MS.0, TASK_POLL_MS.1)
}

/// Whether a server with `capabilities` accepts task-augmented tool calls (its
/// `tasks.requests.tools.call`).
fn accepts_task_calls(capabilities: &client_core::types::ServerCapabilities) -> bool {
    capabilities
        .tasks
        .as_ref()
        .and_then(|t| t.get("requests")?.get("tools")?.get("call"))
        .is_some()
}

/// Task `task_id` as `tasks/get` answered for it (`state`), made the answer that created it
/// would have been in the session's era (`modern`: 2026-07-28, the Tasks extension), to be
/// followed as that answer is (see [`Client::resume_task`]). An answer about another task
/// is an error.
fn resumed_task(task_id: &str, mut state: Value, modern: bool) -> Result<Value, ClientError> {
    let told = state.get("taskId").and_then(Value::as_str);
    if told != Some(task_id) {
        return Err(crate::task_extension::other_task(
            task_id,
            told.unwrap_or("(none)"),
        ));
    }
    if !modern {
        return Ok(json!({ "task": state }));
    }
    if let Value::Object(fields) = &mut state {
        fields.insert("resultType".into(), json!("task"));
    }
    Ok(state)
}

/// `tools/call` params asking for a task.
pub(crate) fn as_task(mut params: Value) -> Value {
    params["task"] = json!({ "ttl": TASK_TTL_MS });
    params
}

impl Client {
    /// If the call `handle` became a task, asks the server to cancel the task (the call then
    /// ends with what `tasks/result` answers for a cancelled task) and returns true.
    pub(crate) fn cancel_call_task(&self, handle: RequestHandle) -> bool {
        let task = self.tasks.borrow().running.get(&handle).cloned();
        if let Some(task_id) = task {
            self.tasks.borrow_mut().mark_cancelled(handle);
            self.cancel_task_quietly(&task_id);
            return true;
        }
        false
    }

    /// Asks the server to cancel a task without waiting for its answer; the listeners are
    /// told if that fails. Sent before this returns, so closing the client right after still
    /// lets it reach the server (the session lets a `tasks/cancel` finish as it closes).
    pub(crate) fn cancel_task_quietly(&self, task_id: &str) {
        let client = self.clone();
        let sent = self.start(
            "tasks/cancel",
            Some(json!({ "taskId": task_id })),
            CallOptions::default(),
        );
        wasm_bindgen_futures::spawn_local(async move {
            match sent.await {
                // The client closed: after sending it (its answer is not read), or before
                // (nothing is left to cancel from here).
                Ok(_) | Err(ClientError::Request(RequestError::Closed)) => {}
                Err(e) => client.inner.emit(ClientEvent::Warning(format!(
                    "could not cancel the task: {e}"
                ))),
            }
        });
    }

    /// Lists the server's tasks (`tasks/list`, every page; offered where the server declares
    /// `tasks.list`), as the server reports them.
    pub async fn list_tasks(&self) -> Result<Vec<Task>, ClientError> {
        self.list_typed("tasks/list", "tasks").await
    }

    /// The state of one of the server's tasks now (`tasks/get`).
    pub async fn get_task(&self, task_id: &str) -> Result<Task, ClientError> {
        let state = self
            .request("tasks/get", Some(json!({ "taskId": task_id })))
            .await?;
        decode("tasks/get", state)
    }

    /// Asks the server to cancel one of its tasks (`tasks/cancel`; offered where the server
    /// declares `tasks.cancel`) and returns the task's state after. A tool call of ours that
    /// is following that task then ends as cancelled.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Task, ClientError> {
        let calls = self.tasks.borrow_mut().cancel_calls_of(task_id);
        let answer = self
            .request("tasks/cancel", Some(json!({ "taskId": task_id })))
            .await;
        if answer.is_err() {
            self.tasks.borrow_mut().cancel_refused(&calls);
        }
        decode("tasks/cancel", answer?)
    }

    /// What a task's request came to (`tasks/result`): the result the request itself would
    /// have had (a `tools/call` result for a task-augmented tool call), or its error. The
    /// server answers once the task is over, so this waits for a running task (within the
    /// request time limit).
    pub async fn task_result(&self, task_id: &str) -> Result<Value, ClientError> {
        self.request("tasks/result", Some(json!({ "taskId": task_id })))
            .await
    }

    /// True when tool `name` must be called as a task and the server accepts that (its
    /// `tasks.requests.tools.call` capability); otherwise it is called plainly.
    pub(crate) fn runs_as_task(&self, name: &str) -> bool {
        // The list first: it is usually empty, and the details are cloned to be read.
        self.tasks.borrow().required.iter().any(|t| t == name) && self.accepts_task_calls()
    }

    /// True when the server accepts task-augmented tool calls but the tools were never
    /// listed, so which of them need a task is not known.
    pub(crate) fn task_support_unknown(&self) -> bool {
        !self.tasks.borrow().listed && self.accepts_task_calls()
    }

    fn accepts_task_calls(&self) -> bool {
        self.server()
            .is_some_and(|d| accepts_task_calls(&d.capabilities))
    }

    /// A tool call made before the tools were listed, on a server that accepts
    /// task-augmented calls: waits for a listing of the tools (which tells the tools that need
    /// a task; one listing serves every call made meanwhile), then makes the call. The
    /// returned handle cancels the wait, then the call.
    pub(crate) fn list_then_call(
        &self,
        name: &str,
        arguments: Value,
        opts: CallOptions,
    ) -> PendingCall {
        let handle = self.inner.session.borrow_mut().reserve_handle();
        let listing = self.tools_listing();
        let (stop, stopped) = futures_channel::oneshot::channel();
        self.tasks.borrow_mut().waiting.insert(handle, stop);
        let client = self.clone();
        let name = name.to_string();
        let fut = async move {
            let cancelled = matches!(
                futures_util::future::select(listing, stopped).await,
                Either::Right(_)
            );
            // Gone from `waiting` when cancelled meanwhile.
            if cancelled || client.tasks.borrow_mut().waiting.remove(&handle).is_none() {
                return Err(ClientError::Request(RequestError::Cancelled));
            }
            // With what the listing told (even if the tools changed again meanwhile).
            let call = client.start_listed_tool_call(&name, arguments, opts);
            client
                .retries
                .borrow_mut()
                .aliases
                .insert(handle, call.handle);
            let outcome = call.await;
            client.retries.borrow_mut().aliases.remove(&handle);
            outcome
        };
        // Runs on its own, like any started request: the call is made once the list is in,
        // whether or not (or whenever) the caller polls the returned call.
        let (done, outcome) = futures_channel::oneshot::channel();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = done.send(fut.await);
        });
        PendingCall {
            handle,
            fut: async move { outcome.await.unwrap_or(Err(ClientError::Closed)) }.boxed_local(),
        }
    }

    /// The listing of the tools now in flight for calls that wait for one, or a new one.
    fn tools_listing(&self) -> Shared<LocalBoxFuture<'static, ()>> {
        if let Some(listing) = &self.tasks.borrow().listing {
            return listing.clone();
        }
        let client = self.clone();
        let listing = async move {
            let changes = client.tasks.borrow().changes;
            if client.list_all("tools/list", "tools").await.is_err() {
                // Not known, then: the calls are made as they are.
                client.tasks.borrow_mut().tools_listed(changes);
            }
            client.tasks.borrow_mut().listing = None;
        }
        .boxed_local()
        .shared();
        self.tasks.borrow_mut().listing = Some(listing.clone());
        // Runs to its end even when every call waiting for it was cancelled (it then lets go
        // of the client it holds).
        wasm_bindgen_futures::spawn_local(listing.clone());
        listing
    }

    /// Ends the wait of a call made before the tools were listed (it ends as cancelled);
    /// false when `handle` is not such a call.
    pub(crate) fn cancel_waiting_call(&self, handle: RequestHandle) -> bool {
        let stop = self.tasks.borrow_mut().waiting.remove(&handle);
        stop.map(|s| s.send(())).is_some()
    }

    /// Awaits the answer to a task-augmented call and follows the task it created; `handle`
    /// is the one the caller cancels with.
    pub(crate) async fn finish_task_call(
        self,
        handle: RequestHandle,
        first: PendingCall,
        opts: CallOptions,
    ) -> Result<Value, ClientError> {
        let created = first.await?;
        self.follow_task_to_end(handle, created, opts).await
    }

    /// [`Client::follow_task`], then the end of following: a call cancelled meanwhile ends
    /// as cancelled, whatever the server answered.
    async fn follow_task_to_end(
        self,
        handle: RequestHandle,
        created: Value,
        opts: CallOptions,
    ) -> Result<Value, ClientError> {
        let outcome = self.follow_task(handle, created, opts).await;
        if self.tasks.borrow_mut().end(handle) {
            return Err(ClientError::Request(RequestError::Cancelled));
        }
        outcome
    }

    /// Follows a task a tool call of an earlier connection created (its id kept, say, across
    /// a reload of the page, as the Tasks extension recommends) to what it comes to, as the
    /// call itself would have: its states go to [`CallOptions::on_task`], requests it waits
    /// on to the handlers, and cancelling the returned call (its handle) cancels the task.
    /// The server must still know the task: a 2026-07-28 server keeps it for its time to
    /// live; a 2025-11-25 server may tie it to the session it was created in.
    pub fn resume_task(&self, task_id: &str, opts: CallOptions) -> PendingCall {
        let get = CallOptions {
            meta: opts.meta.clone(),
            ..CallOptions::default()
        };
        let first = self.start("tasks/get", Some(json!({ "taskId": task_id })), get);
        let handle = first.handle;
        // Cancelled before the server answers, the task is cancelled too.
        let task_id = task_id.to_string();
        self.tasks
            .borrow_mut()
            .running
            .insert(handle, task_id.clone());
        let client = self.clone();
        let fut = async move {
            let first = first.await;
            if client.tasks.borrow_mut().end(handle) {
                return Err(ClientError::Request(RequestError::Cancelled));
            }
            let modern = client.server().is_some_and(|d| d.era == Era::Modern);
            let created = resumed_task(&task_id, first?, modern)?;
            client.follow_task_to_end(handle, created, opts).await
        };
        PendingCall {
            handle,
            fut: fut.boxed_local(),
        }
    }

    /// Follows the task a task-augmented call created to its result: `tasks/result` (which
    /// the server answers once the task is over) while `tasks/get` reports progress.
    pub(crate) async fn follow_task(
        &self,
        handle: RequestHandle,
        created: Value,
        opts: CallOptions,
    ) -> Result<Value, ClientError> {
        // A task of the Tasks extension (2026-07-28): the task's fields inlined.
        if created.get("resultType").and_then(Value::as_str) == Some("task") {
            return self.follow_extension_task(handle, created, &opts).await;
        }
        // A server may also answer a task-augmented call with the plain result.
        let Some(task) = created.get("task") else {
            return Ok(created);
        };
        let task: Task = decode("tools/call", task.clone())?;
        let task_id = task.task_id.clone();
        let announced =
            self.tasks
                .borrow_mut()
                .follow_call_task(handle, &task_id, opts.on_task.as_ref());
        self.report_task(&task);
        if let Some(state) = announced {
            self.report_task(&state);
        }
        let outcome = self.follow_task_to_result(task, opts).await;
        self.tasks.borrow_mut().unfollow_call_task(&task_id);
        outcome
    }

    /// Tells the caller following `task` (if any) of this state of it, unless it is older
    /// than the one told last.
    pub(crate) fn report_task(&self, task: &Task) {
        let listener = self.tasks.borrow_mut().listener_for(task);
        if let Some(listener) = listener {
            listener(task);
        }
    }

    /// [`Client::follow_task`] once the task is known.
    async fn follow_task_to_result(
        &self,
        task: Task,
        opts: CallOptions,
    ) -> Result<Value, ClientError> {
        let wait = CallOptions {
            // The result may take as long as the task lives.
            timeout: Some(Duration::from_millis(
                task.ttl_ms().unwrap_or(TASK_TTL_MS).max(
                    opts.timeout
                        .unwrap_or(self.inner.options.timeout)
                        .as_millis(),
                ),
            )),
            on_progress: opts.on_progress.clone(),
            on_task: None,
            cache: Default::default(),
            // The task's requests belong to the caller's trace too.
            meta: opts.meta.clone(),
        };
        let result = self.start(
            "tasks/result",
            Some(json!({ "taskId": task.task_id })),
            wait,
        );
        let result_handle = result.handle;
        let polling = self.poll_task(task, opts.meta).boxed_local();
        match futures_util::future::select(result, polling).await {
            Either::Left((outcome, _)) => outcome,
            // Over: the result is on its way.
            Either::Right((Ok(()), result)) => result.await,
            // The task is gone (expired, or the server forgot it): stop waiting.
            Either::Right((Err(e), _)) => {
                self.cancel(result_handle);
                Err(e)
            }
        }
    }

    /// Polls `tasks/get` at the server's suggested interval (bounded) until the task is over,
    /// at the longest interval once the server announces the task's states; each poll
    /// carries the caller's `_meta` entries (its trace context).
    async fn poll_task(
        &self,
        mut task: Task,
        meta: Option<serde_json::Map<String, Value>>,
    ) -> Result<(), ClientError> {
        use crate::task_extension::{poll_may_pass, poll_wait_ms, POLL_RETRIES};
        // Polls failed in a row for want of the server (made again, as for the extension's).
        let mut failed_polls: u32 = 0;
        while !task.is_terminal() {
            let announced = self.tasks.borrow().notified.contains(&task.task_id);
            let every = poll_wait_ms(poll_every_ms(announced, task.poll_interval), failed_polls);
            gloo_timers::future::TimeoutFuture::new(every as u32).await;
            let poll = CallOptions {
                meta: meta.clone(),
                ..CallOptions::default()
            };
            let state = match self
                .start("tasks/get", Some(json!({ "taskId": task.task_id })), poll)
                .await
            {
                Err(e) if poll_may_pass(&e) && failed_polls < POLL_RETRIES => {
                    failed_polls += 1;
                    continue;
                }
                state => state?,
            };
            failed_polls = 0;
            task = decode("tasks/get", state)?;
            self.report_task(&task);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    const CALL: RequestHandle = RequestHandle(7);

    fn task(id: &str, status: &str, updated: Option<&str>) -> Task {
        let mut t = json!({"taskId": id, "status": status});
        if let Some(at) = updated {
            t["lastUpdatedAt"] = json!(at);
        }
        serde_json::from_value(t).expect("a valid task")
    }

    /// A listener that records the statuses it is told.
    fn recorder() -> (TaskListener, Rc<RefCell<Vec<String>>>) {
        let heard = Rc::new(RefCell::new(Vec::new()));
        let h = heard.clone();
        (
            Rc::new(move |t: &Task| h.borrow_mut().push(t.status.clone())),
            heard,
        )
    }

    fn tell(listener: Option<TaskListener>, t: &Task) {
        if let Some(l) = listener {
            l(t);
        }
    }

    /// Tells `t` to whoever follows its task, as `Client::report_task` does: true if told.
    fn report(tasks: &mut Tasks, t: &Task) -> bool {
        let listener = tasks.listener_for(t);
        listener.map(|l| l(t)).is_some()
    }

    #[test]
    fn a_followed_task_is_told_its_states_in_order_and_never_an_older_one() {
        let mut tasks = Tasks::default();
        let (listener, heard) = recorder();
        let _ = tasks.follow(CALL, "t1", Some(listener));
        let at = |status, time| task("t1", status, Some(time));
        assert!(report(&mut tasks, &at("working", "2026-01-01T00:00:02Z")));
        // A poll answered before an announcement that came first: older, not told.
        assert!(!report(
            &mut tasks,
            &at("submitted", "2026-01-01T00:00:01Z")
        ));
        // The same time again, and a state without a time, are told.
        assert!(report(
            &mut tasks,
            &at("input_required", "2026-01-01T00:00:02Z")
        ));
        assert!(report(&mut tasks, &task("t1", "working", None)));
        // A state without a time does not make older ones acceptable again.
        assert!(!report(
            &mut tasks,
            &at("submitted", "2026-01-01T00:00:01Z")
        ));
        assert!(report(&mut tasks, &at("completed", "2026-01-01T00:00:03Z")));
        assert_eq!(
            *heard.borrow(),
            ["working", "input_required", "working", "completed"]
        );
        assert!(
            !report(&mut tasks, &task("t2", "working", None)),
            "not followed"
        );
    }

    #[test]
    fn states_the_server_pushes_go_to_the_call_following_the_task() {
        let mut tasks = Tasks::default();
        let (_stopped, mut pushed) = tasks.follow(CALL, "t1", None);
        assert_eq!(tasks.pushed_ids(), ["t1"]);
        assert_eq!(tasks.running.get(&CALL).map(String::as_str), Some("t1"));
        tasks.pushed(&task("t1", "working", None));
        tasks.pushed(&task("other", "working", None));
        assert_eq!(
            pushed.try_recv().ok().map(|t| t.task_id),
            Some("t1".to_string())
        );
        assert_eq!(
            pushed.try_recv().err(),
            Some(futures_channel::mpsc::TryRecvError::Empty),
            "only t1's state came"
        );
        assert!(!tasks.unfollow(CALL, "t1"), "not cancelled");
        assert!(tasks.pushed_ids().is_empty());
        assert!(tasks.running.is_empty());
        // Once unfollowed, its states go nowhere.
        tasks.pushed(&task("t1", "completed", None));
        assert_eq!(
            pushed.try_recv().err(),
            Some(futures_channel::mpsc::TryRecvError::Closed),
            "the sender is gone"
        );
    }

    #[test]
    fn a_cancelled_call_stops_following_at_once_and_ends_as_cancelled() {
        let mut tasks = Tasks::default();
        let (mut stopped, _pushed) = tasks.follow(CALL, "t1", None);
        let (mut other, _) = tasks.follow(RequestHandle(8), "t2", None);
        tasks.mark_cancelled(CALL);
        assert_eq!(stopped.try_recv(), Ok(Some(())));
        assert_eq!(other.try_recv(), Ok(None), "the other call goes on");
        assert!(tasks.unfollow(CALL, "t1"), "cancelled meanwhile");
        assert!(!tasks.unfollow(CALL, "t1"), "told once");
        assert!(!tasks.unfollow(RequestHandle(8), "t2"));
    }

    #[test]
    fn closing_ends_every_follow_at_once() {
        let mut tasks = Tasks::default();
        let (mut stopped, _pushed) = tasks.follow(CALL, "t1", None);
        tasks.closed();
        assert!(stopped.try_recv().is_err(), "the stop was dropped");
    }

    #[test]
    fn ending_a_call_says_whether_it_was_cancelled() {
        let mut tasks = Tasks::default();
        tasks.running.insert(CALL, "t1".into());
        tasks.cancelled.push(RequestHandle(8));
        assert!(!tasks.end(CALL));
        assert!(tasks.running.is_empty());
        tasks.mark_cancelled(CALL);
        assert!(tasks.end(CALL));
        assert_eq!(tasks.cancelled, [RequestHandle(8)], "only CALL's mark went");
    }

    #[test]
    fn an_announced_state_of_a_task_not_followed_is_kept_the_newest_few() {
        let mut tasks = Tasks::default();
        for i in 0..=ANNOUNCED_KEPT {
            assert!(tasks
                .announced(&task(&format!("t{i}"), "working", None))
                .is_none());
        }
        assert_eq!(tasks.announced.len(), ANNOUNCED_KEPT);
        assert_eq!(tasks.announced[0].task_id, "t1", "the oldest went");
        // A newer state of a kept task replaces its older one, and makes room for nothing else.
        assert!(tasks.announced(&task("t5", "completed", None)).is_none());
        assert_eq!(tasks.announced.len(), ANNOUNCED_KEPT);
        assert_eq!(tasks.announced[0].task_id, "t1");
        let t5: Vec<_> = tasks
            .announced
            .iter()
            .filter(|t| t.task_id == "t5")
            .collect();
        assert_eq!(t5.len(), 1);
        assert_eq!(t5[0].status, "completed");
        assert!(tasks.notified.is_empty(), "none of them runs");
    }

    #[test]
    fn an_announced_state_of_a_followed_task_is_told_and_its_polling_slows() {
        let mut tasks = Tasks::default();
        let (listener, heard) = recorder();
        let _ = tasks.follow(CALL, "t1", Some(listener));
        let t = task("t1", "working", Some("2026-01-01T00:00:02Z"));
        tell(tasks.announced(&t), &t);
        tell(tasks.announced(&t), &t);
        assert_eq!(*heard.borrow(), ["working", "working"]);
        assert_eq!(tasks.notified, ["t1"], "noted once");
        assert!(tasks.announced.is_empty(), "told, not kept");
        // An older state announced late is neither told nor kept.
        assert!(tasks
            .announced(&task("t1", "submitted", Some("2026-01-01T00:00:01Z")))
            .is_none());
        assert!(tasks.announced.is_empty());
        // A task that runs for a call but that nobody listens to is noted, and kept.
        tasks.running.insert(RequestHandle(8), "t2".into());
        assert!(tasks.announced(&task("t2", "working", None)).is_none());
        assert_eq!(tasks.notified, ["t1", "t2"]);
        assert_eq!(tasks.announced.len(), 1);
    }

    #[test]
    fn cancelling_a_task_marks_the_calls_following_it_and_a_refusal_unmarks_them() {
        let mut tasks = Tasks::default();
        let (mut stopped, _) = tasks.follow(CALL, "t1", None);
        tasks.running.insert(RequestHandle(8), "t1".into());
        tasks.running.insert(RequestHandle(9), "t2".into());
        tasks.cancelled.push(RequestHandle(10));
        let calls = tasks.cancel_calls_of("t1");
        assert_eq!(calls, [CALL, RequestHandle(8)]);
        assert_eq!(stopped.try_recv(), Ok(Some(())), "following stops at once");
        assert_eq!(tasks.cancelled, [RequestHandle(10), CALL, RequestHandle(8)]);
        // The server refused (the task was over already): they end as the task did; a call
        // cancelled on its own stays so.
        tasks.cancel_refused(&calls);
        assert_eq!(tasks.cancelled, [RequestHandle(10)]);
        assert!(tasks.cancel_calls_of("none").is_empty());
    }

    #[test]
    fn a_call_task_followed_takes_the_state_announced_before_it_came() {
        let mut tasks = Tasks::default();
        assert!(tasks.announced(&task("t0", "working", None)).is_none());
        assert!(tasks
            .announced(&task("t1", "input_required", None))
            .is_none());
        let (listener, heard) = recorder();
        let early = tasks.follow_call_task(CALL, "t1", Some(&listener));
        assert_eq!(early.map(|t| t.status).as_deref(), Some("input_required"));
        assert_eq!(tasks.running.get(&CALL).map(String::as_str), Some("t1"));
        assert_eq!(tasks.notified, ["t1"], "the server announces t1's states");
        assert_eq!(tasks.announced.len(), 1, "t0's state is still kept");
        assert_eq!(tasks.announced[0].task_id, "t0");
        assert!(report(&mut tasks, &task("t1", "working", None)));
        assert_eq!(*heard.borrow(), ["working"]);
        // Nothing announced: nothing taken, and polled as the server suggests.
        assert!(tasks
            .follow_call_task(RequestHandle(8), "t2", None)
            .is_none());
        assert_eq!(tasks.notified, ["t1"]);
        assert!(!report(&mut tasks, &task("t2", "working", None)));
        tasks.notified.push("t3".into());
        tasks.unfollow_call_task("t1");
        assert!(!report(&mut tasks, &task("t1", "working", None)));
        assert_eq!(tasks.notified, ["t3"], "only t1's note went");
    }

    #[test]
    fn which_tools_need_a_task_is_read_page_by_page() {
        let mut tasks = Tasks::default();
        let tool = |name: &str, support: &str| json!({"name": name, "execution": {"taskSupport": support}});
        tasks.note_required(
            true,
            &[
                tool("slow", "required"),
                tool("maybe", "optional"),
                tool("never", "forbidden"),
                json!({"name": "plain"}),
                json!({"execution": {"taskSupport": "required"}}),
            ],
        );
        assert_eq!(tasks.required, ["slow"]);
        tasks.note_required(false, &[tool("slower", "required")]);
        assert_eq!(tasks.required, ["slow", "slower"], "a later page adds");
        tasks.note_required(true, &[tool("new", "required")]);
        assert_eq!(tasks.required, ["new"], "a first page starts over");
    }

    #[test]
    fn a_listing_counts_only_if_the_tools_did_not_change_meanwhile() {
        let mut tasks = Tasks {
            changes: 3,
            ..Default::default()
        };
        tasks.tools_listed(3);
        assert!(tasks.listed);
        tasks.tools_listed(2);
        assert!(!tasks.listed, "a change came while it was on its way");
    }

    #[test]
    fn a_server_accepts_task_calls_only_when_it_says_so_for_tools_call() {
        let caps = |v: Value| -> client_core::types::ServerCapabilities {
            serde_json::from_value(v).expect("valid capabilities")
        };
        assert!(accepts_task_calls(&caps(
            json!({"tasks": {"requests": {"tools": {"call": {}}}}})
        )));
        for no in [
            json!({}),
            json!({"tasks": {}}),
            json!({"tasks": {"list": {}, "cancel": {}}}),
            json!({"tasks": {"requests": {"sampling": {"createMessage": {}}}}}),
            json!({"tasks": {"requests": {"tools": {}}}}),
        ] {
            assert!(!accepts_task_calls(&caps(no.clone())), "{no}");
        }
    }

    #[test]
    fn a_resumed_task_is_followed_as_the_answer_that_created_it() {
        let state = json!({"taskId": "t1", "status": "working"});
        assert_eq!(
            resumed_task("t1", state.clone(), false).ok(),
            Some(json!({"task": {"taskId": "t1", "status": "working"}}))
        );
        assert_eq!(
            resumed_task("t1", state.clone(), true).ok(),
            Some(json!({"taskId": "t1", "status": "working", "resultType": "task"}))
        );
        for other in [
            json!({"taskId": "t2"}),
            json!({"status": "working"}),
            json!("t1"),
        ] {
            let e =
                resumed_task("t1", other.clone(), true).expect_err("an answer about another task");
            assert!(e.to_string().contains("asked for task t1"), "{other}: {e}");
        }
    }

    #[test]
    fn polls_follow_the_servers_interval_within_bounds_and_slow_once_announced() {
        assert_eq!(poll_every_ms(false, None), 1_000);
        assert_eq!(poll_every_ms(false, Some(300)), 300);
        assert_eq!(poll_every_ms(false, Some(1)), TASK_POLL_MS.0);
        assert_eq!(poll_every_ms(false, Some(60_000)), TASK_POLL_MS.1);
        assert_eq!(poll_every_ms(true, Some(300)), TASK_POLL_MS.1);
        assert_eq!(poll_every_ms(true, None), TASK_POLL_MS.1);
    }

    #[test]
    fn a_task_call_asks_the_server_to_keep_it_ten_minutes() {
        assert_eq!(
            as_task(json!({"name": "slow"})),
            json!({"name": "slow", "task": {"ttl": 600_000}})
        );
    }
}
