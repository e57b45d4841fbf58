//! The run loop: feeds browser I/O into the sans-IO session and performs what it outputs.
//!
//! After every input the loop drains all outputs (the session is never borrowed while
//! application code runs), then re-arms the single timer for `poll_timeout`.

use crate::clock::now;
use crate::error::ClientError;
use crate::options::{ClientEvent, ClientOptions};
use client_core::http::TransmitId;
use client_core::session::{
    ConnectionState, Direction, Event, Input, Output, RequestError, RequestHandle, ServerDetails,
    ServerRequestId,
};
use client_core::task_receiver::{self, TaskAnswer, TaskReceiver};
use client_core::types::{Era, ProgressParams, ServerNotification, ServerRequest};
use client_core::{ErrorObject, Session};
use futures_channel::oneshot;
use futures_util::future::{AbortHandle, Abortable};
use litemap::LiteMap;
use std::cell::RefCell;
use std::rc::Rc;

/// Completion of one request.
pub(crate) type Reply = Result<serde_json::Value, RequestError>;

/// A progress callback.
pub(crate) type ProgressCallback = Rc<dyn Fn(ProgressParams)>;
/// An event listener.
pub(crate) type Listener = Rc<dyn Fn(&ClientEvent)>;

/// Shared state behind a [`crate::Client`].
pub(crate) struct Inner {
    pub session: RefCell<Session>,
    pub options: ClientOptions,
    pub waiters: RefCell<LiteMap<RequestHandle, oneshot::Sender<Reply>>>,
    pub progress: RefCell<LiteMap<RequestHandle, ProgressCallback>>,
    pub aborts: RefCell<LiteMap<TransmitId, web_sys::AbortController>>,
    /// The armed timer and the instant (ms) it fires at.
    pub timer: RefCell<Option<(gloo_timers::callback::Timeout, u64)>>,
    pub listeners: RefCell<Vec<Listener>>,
    pub connected: RefCell<Option<oneshot::Sender<Result<ServerDetails, RequestError>>>>,
    pub socket: RefCell<Option<crate::websocket::Socket>>,
    pub auth: RefCell<Option<(u16, Option<String>)>>,
    /// Sampling and elicitation requests the server asked to run as tasks.
    pub received_tasks: RefCell<TaskReceiver>,
    /// The handlers of those tasks, by task id (stopped when the server cancels the task).
    pub task_handlers: RefCell<LiteMap<String, AbortHandle>>,
    /// Acknowledgments of the `subscriptions/listen` streams (see `subscriptions.rs`).
    pub listen_acks: RefCell<crate::subscriptions::ListenAcks>,
    /// The listen streams being replaced (see `listen_handover.rs`).
    pub handover: RefCell<crate::listen_handover::Handover>,
    /// Closes the client when the person leaves the page (see `page_hide.rs`).
    pub page_hide: RefCell<Option<crate::page_hide::PageHideListener>>,
    /// This client's stream held back for want of a free connection, if one is (see
    /// `busy_connections.rs`).
    pub held_back: RefCell<crate::busy_connections::HeldBack>,
    /// Told when the client is closed (see [`Inner::closed`]).
    pub closing: RefCell<Vec<oneshot::Sender<()>>>,
}

impl Inner {
    /// Closes the connection (ends a legacy session with DELETE).
    pub fn close(self: &Rc<Self>) {
        self.session.borrow_mut().close(now());
        self.drive();
        self.timer.borrow_mut().take();
        for closing in self.closing.take() {
            let _ = closing.send(());
        }
    }

    /// Resolves once the client is closed (at once if it is already), so that work the
    /// client waits for outside the session (a login) stops with it.
    pub fn closed(&self) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        if self.session.borrow().state() == ConnectionState::Closed {
            let _ = tx.send(());
        } else {
            let mut closing = self.closing.borrow_mut();
            // Those whose waiting ended (a login done) are let go: one a login otherwise.
            closing.retain(|tx| !tx.is_canceled());
            closing.push(tx);
        }
        rx
    }

    /// Feeds one input and runs the loop.
    pub fn input(self: &Rc<Self>, input: Input<'_>) {
        self.session.borrow_mut().handle_input(input, now());
        self.drive();
    }

    /// Drains the session's outputs and acts on them until none are left.
    pub fn drive(self: &Rc<Self>) {
        loop {
            let batch: Vec<Output> = {
                let mut s = self.session.borrow_mut();
                std::iter::from_fn(|| s.poll_output()).collect()
            };
            if batch.is_empty() {
                break;
            }
            for out in batch {
                self.perform(out);
            }
        }
        self.arm_timer();
    }

    fn perform(self: &Rc<Self>, out: Output) {
        match out {
            Output::Http(req) => crate::fetch::start(self, req),
            Output::Abort(tid) => {
                if let Some(ctrl) = self.aborts.borrow_mut().remove(&tid) {
                    ctrl.abort();
                }
            }
            Output::OpenFrames => crate::websocket::open(self),
            Output::Frame(bytes) => crate::websocket::send(self, &bytes),
            Output::CloseFrames => crate::websocket::close(self),
            Output::Event(e) => self.on_event(e),
        }
    }

    /// Makes sure a timer fires no later than the session's next deadline. A timer already
    /// armed for that deadline or an earlier one is kept: waking early is harmless (the
    /// session finds nothing due and the timer is armed again), and it spares creating and
    /// cancelling a browser timer on every input (each request moves the deadline).
    fn arm_timer(self: &Rc<Self>) {
        let Some(at) = self.session.borrow().poll_timeout() else {
            return;
        };
        if self
            .timer
            .borrow()
            .as_ref()
            .is_some_and(|(_, armed)| *armed <= at.0)
        {
            return;
        }
        let delay = at.0.saturating_sub(now().0).min(i32::MAX as u64) as u32;
        let weak = Rc::downgrade(self);
        let timeout = gloo_timers::callback::Timeout::new(delay, move || {
            if let Some(inner) = weak.upgrade() {
                inner.timer.borrow_mut().take();
                inner.input(Input::Timeout);
            }
        });
        // Replacing the old timer drops (cancels) it.
        *self.timer.borrow_mut() = Some((timeout, at.0));
    }

    /// Closes listen streams a newer one replaced (see `listen_handover.rs`). What closing
    /// them outputs is performed at the next drive.
    pub(crate) fn close_streams(&self, streams: Vec<RequestHandle>) {
        let mut session = self.session.borrow_mut();
        for stream in streams {
            session.cancel(stream, now());
        }
    }

    /// Closes them once what the server wrote on them before has had time to arrive.
    fn close_streams_later(self: &Rc<Self>, streams: Vec<RequestHandle>) {
        if streams.is_empty() {
            return;
        }
        let weak = Rc::downgrade(self);
        wasm_bindgen_futures::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(crate::listen_handover::OVERLAP_MS).await;
            if let Some(inner) = weak.upgrade() {
                inner.close_streams(streams);
                inner.drive();
            }
        });
    }

    pub(crate) fn emit(&self, e: ClientEvent) {
        let listeners: Vec<_> = self.listeners.borrow().clone();
        for l in listeners {
            l(&e);
        }
    }

    /// Announces [`ClientEvent::LoginNeeded`] when a request ended refused for want of
    /// authorization that could not be got without the user.
    pub(crate) fn announce_login_needed<T>(&self, outcome: &Result<T, ClientError>) {
        if let Err(ClientError::AuthRequired {
            status,
            www_authenticate,
        }) = outcome
        {
            self.emit(ClientEvent::LoginNeeded {
                status: *status,
                www_authenticate: www_authenticate.clone(),
            });
        }
    }

    fn on_event(self: &Rc<Self>, e: Event) {
        match e {
            Event::Response { handle, result } => {
                self.progress.borrow_mut().remove(&handle);
                self.listen_acks
                    .borrow_mut()
                    .ended(handle, result.as_ref().err());
                let replaced = self.handover.borrow_mut().ended(handle);
                self.close_streams(replaced);
                if let Some(tx) = self.waiters.borrow_mut().remove(&handle) {
                    let _ = tx.send(result);
                }
            }
            Event::Discovered {
                result,
                fresh_for,
                public,
            } => {
                if self.options.remember_era {
                    let session = self.session.borrow();
                    let headers = &session.config().extra_headers;
                    let freshness = crate::discoveries::Freshness {
                        fresh_for_ms: fresh_for.as_millis(),
                        public,
                        with_credentials: crate::client::has_authorization(headers),
                    };
                    drop(session);
                    let now = js_sys::Date::now();
                    crate::discoveries::keep(&self.options.url, &result, freshness, now);
                }
            }
            Event::Connected(details) => {
                if self.options.remember_era {
                    crate::eras::remember(&self.options.url, details.era);
                    if details.era == Era::Legacy {
                        crate::discoveries::forget(&self.options.url);
                    }
                }
                if let Some(tx) = self.connected.borrow_mut().take() {
                    let _ = tx.send(Ok(*details));
                }
            }
            Event::ConnectFailed(err) => {
                if self.options.remember_era {
                    crate::discoveries::forget(&self.options.url);
                }
                if let Some(tx) = self.connected.borrow_mut().take() {
                    let _ = tx.send(Err(err));
                }
            }
            Event::AuthRequired {
                status,
                www_authenticate,
            } => {
                // Kept for the connect under way: it fails when the session stops for want
                // of authorization (`State(AuthRequired)`, below). A refusal the session
                // connects through (the 2025 era's event stream, asked for beside the
                // handshake) does not fail it.
                *self.auth.borrow_mut() = Some((status, www_authenticate));
            }
            Event::State(s) => {
                // Closed while connecting: the connect under way ends (`ClientError::Closed`,
                // its channel dropped) instead of waiting for an answer that cannot come.
                if s == ConnectionState::Closed {
                    self.connected.borrow_mut().take();
                }
                if s == ConnectionState::AuthRequired {
                    if let Some(tx) = self.connected.borrow_mut().take() {
                        let (status, www) = self.auth.borrow().clone().unwrap_or((401, None));
                        let _ = tx.send(Err(RequestError::Http {
                            status,
                            body: String::new(),
                            www_authenticate: www,
                        }));
                    }
                }
                self.emit(ClientEvent::State(s));
            }
            Event::Progress { handle, progress } => {
                let cb = self.progress.borrow().get(&handle).cloned();
                if let Some(cb) = cb {
                    cb(progress.clone());
                }
                self.emit(ClientEvent::Progress(handle, progress));
            }
            Event::Notification {
                subscription,
                notification,
            } => {
                if let (Some(stream), ServerNotification::SubscriptionsAcknowledged(ack)) =
                    (subscription, &notification)
                {
                    let honoured = serde_json::to_value(&ack.notifications).unwrap_or_default();
                    self.listen_acks.borrow_mut().acknowledged(stream, honoured);
                    let replaced = self.handover.borrow_mut().acknowledged(stream);
                    self.close_streams_later(replaced);
                } else if let Some(stream) = subscription {
                    if !self.handover.borrow_mut().first_copy(stream, &notification) {
                        return;
                    }
                }
                self.emit(ClientEvent::Notification(notification))
            }
            Event::ServerRequest { id, request, .. } => self.on_server_request(id, request),
            Event::ToolRejected { name, reason } => self.emit(ClientEvent::Warning(format!(
                "tool {name:?} was left out: {reason}"
            ))),
            Event::Warning(w) => self.emit(ClientEvent::Warning(w)),
            Event::Cached {
                method, fresh_for, ..
            } => self.emit(ClientEvent::Cached { method, fresh_for }),
            Event::ServedStale {
                method, age, error, ..
            } => self.emit(ClientEvent::ServedStale {
                method,
                age,
                error: error.to_string(),
            }),
            Event::Wire {
                direction,
                message,
                status,
                headers,
                ..
            } => self.emit(ClientEvent::Wire {
                sent: direction == Direction::Sent,
                status,
                headers,
                message,
            }),
        }
    }

    /// Runs the application's handler for a server request and answers with its result.
    fn on_server_request(self: &Rc<Self>, id: ServerRequestId, request: ServerRequest) {
        if let ServerRequest::Other { method, params } = &request {
            if TaskReceiver::handles(method) {
                let answers = self.received_tasks.borrow_mut().handle(
                    id,
                    method,
                    params.as_ref(),
                    now(),
                    &wall_clock(),
                );
                self.stop_cancelled_task_handlers();
                self.answer(answers);
                return;
            }
        }
        // Tasks are a 2025-11-25 feature: a modern (2026-07-28) server's request is answered
        // as it is, even if it carries a `task` field.
        let legacy = self
            .session
            .borrow()
            .server_details()
            .is_some_and(|d| d.era == client_core::types::Era::Legacy);
        let h = &self.options.handlers;
        // Not one that offers tools to a client without `sampling.tools` (refused at once).
        let takes_it = h.sampling_tools || !request.offers_tools();
        let as_task = match &request {
            ServerRequest::Sampling(p) | ServerRequest::Elicitation(p) if legacy && takes_it => {
                TaskReceiver::wants_task(p).then(|| p.clone())
            }
            _ => None,
        };
        let fut = self.handler_for(request);
        let fut = match (as_task, fut) {
            (Some(params), Some(handler)) => return self.run_as_task(id, &params, handler),
            (_, fut) => fut,
        };
        let weak = Rc::downgrade(self);
        wasm_bindgen_futures::spawn_local(async move {
            let answer = match fut {
                Some(f) => f.await,
                None => Err(not_handled()),
            };
            if let Some(inner) = weak.upgrade() {
                inner.session.borrow_mut().answer(id, answer, now());
                inner.drive();
            }
        });
    }

    /// The application's handler run for a request the server made (the answer it will give),
    /// or `None` when the application has no handler for it. Used for the requests of the
    /// server's own JSON-RPC messages, of MRTR rounds and of tasks waiting for input.
    pub(crate) fn handler_for(
        &self,
        request: ServerRequest,
    ) -> Option<futures_util::future::LocalBoxFuture<'static, crate::options::Answer>> {
        let h = &self.options.handlers;
        match request {
            // Tools offered to a client that did not declare `sampling.tools`: the
            // specification asks for an error, not a reply without them.
            ServerRequest::Sampling(_)
                if !h.sampling_tools && request.offers_tools() && h.sampling.is_some() =>
            {
                let e = ErrorObject::new(
                    client_core::jsonrpc::codes::INVALID_PARAMS,
                    "this client did not declare sampling.tools: it takes no sampling request \
                     that offers tools",
                );
                Some(Box::pin(async move { Err(e) }))
            }
            ServerRequest::Sampling(p) => h.sampling.as_ref().map(|f| f(p)),
            ServerRequest::Elicitation(p) => h.elicitation.as_ref().map(|f| f(p)),
            ServerRequest::ListRoots => h.roots.as_ref().map(|f| f()),
            ServerRequest::Other { .. } => None,
        }
    }

    /// A task-augmented request (2025-11-25 tasks): answered at once with the task, while the
    /// handler runs; the server polls the task and fetches the handler's result.
    fn run_as_task(
        self: &Rc<Self>,
        id: ServerRequestId,
        params: &serde_json::Value,
        handler: futures_util::future::LocalBoxFuture<'static, crate::options::Answer>,
    ) {
        let created = self
            .received_tasks
            .borrow_mut()
            .create(params, now(), &wall_clock());
        let task_id = match created {
            Ok((task_id, answer)) => {
                self.answer(vec![(id, Ok(answer))]);
                task_id
            }
            Err(e) => {
                self.answer(vec![(id, Err(e))]);
                return;
            }
        };
        let (stop, registration) = AbortHandle::new_pair();
        self.task_handlers
            .borrow_mut()
            .insert(task_id.clone(), stop);
        let weak = Rc::downgrade(self);
        wasm_bindgen_futures::spawn_local(async move {
            // Stopped (Err) when the server cancelled the task.
            let outcome = Abortable::new(handler, registration).await;
            let Some(inner) = weak.upgrade() else { return };
            inner.task_handlers.borrow_mut().remove(&task_id);
            if let Ok(outcome) = outcome {
                let mut tasks = inner.received_tasks.borrow_mut();
                let was_running = tasks.is_running(&task_id);
                let answers = tasks.finish(&task_id, outcome, &wall_clock());
                // The new state, told at once (the server need not wait for its next poll).
                let ended = was_running.then(|| tasks.task_state(&task_id)).flatten();
                drop(tasks);
                inner.answer(answers);
                if let Some(state) = ended {
                    inner
                        .session
                        .borrow_mut()
                        .notify(task_receiver::STATUS_NOTIFICATION, Some(state));
                }
                inner.drive();
            }
        });
    }

    /// Stops the handlers of tasks that no longer run (the server cancelled them).
    fn stop_cancelled_task_handlers(&self) {
        let tasks = self.received_tasks.borrow();
        self.task_handlers.borrow_mut().retain(|task_id, stop| {
            let running = tasks.is_running(task_id);
            if !running {
                stop.abort();
            }
            running
        });
    }

    /// Hands answers to the session. Called from inside the run loop, which then sends them
    /// (elsewhere, call [`Inner::drive`] after).
    fn answer(&self, answers: Vec<TaskAnswer>) {
        let mut session = self.session.borrow_mut();
        for (id, answer) in answers {
            session.answer(id, answer, now());
        }
    }
}

/// The answer to a request the application has no handler for.
pub(crate) fn not_handled() -> ErrorObject {
    ErrorObject::new(
        client_core::jsonrpc::codes::METHOD_NOT_FOUND,
        "this client does not handle that request",
    )
}

/// The wall-clock time as ISO 8601 (for tasks' `createdAt` and `lastUpdatedAt`).
fn wall_clock() -> String {
    js_sys::Date::new_0()
        .to_iso_string()
        .as_string()
        .unwrap_or_default()
}
