//! The async `Client` API on top of the session and the browser I/O.

use crate::auth::AuthFailure;
use crate::clock::now;
use crate::driver::{Inner, Reply};
use crate::error::ClientError;
use crate::options::{CallOptions, ClientEvent, ClientOptions};
use client_core::bidi::Isolated;
use client_core::session::{
    CacheMode, ConnectionState, RequestError, RequestHandle, RequestOptions, ServerDetails,
};
use client_core::types::*;
use client_core::Session;
use futures_channel::oneshot;
use futures_util::future::{select, Either, FutureExt, LocalBoxFuture};
use litemap::LiteMap;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// An MCP client connected to one server. Cheap to clone; all clones share the connection.
/// It closes by itself (as [`Client::close`] does) once the last clone is dropped and no call
/// of it is awaited any more: nothing could use it then. An event listener that holds a clone
/// keeps it open.
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Rc<Inner>,
    pub(crate) subscriptions: Rc<RefCell<crate::subscriptions::Subscriptions>>,
    pub(crate) retries: Rc<RefCell<Retries>>,
    pub(crate) tasks: Rc<RefCell<crate::tasks::Tasks>>,
    /// Shared by the application's clones (and the calls they await), not by the client's
    /// own background work ([`Client::in_background`]): the last one dropped closes.
    #[allow(dead_code, reason = "held for what its drop does")]
    handles: Option<Rc<LastHandle>>,
}

/// Closes the connection when dropped, i.e. when the last handle of the application goes.
/// It holds the connection itself: nothing else may (a 2025-era session's streams do not).
struct LastHandle(Rc<Inner>);

impl Drop for LastHandle {
    fn drop(&mut self) {
        // Closed in a moment, not here: the last handle can go while the client is busy (in a
        // listener it calls, say), and closing borrows the session.
        let inner = self.0.clone();
        wasm_bindgen_futures::spawn_local(async move { inner.close() });
    }
}

/// A request in flight: await it for the raw result (type it with [`decode`]), or cancel it
/// with [`Client::cancel`].
pub struct PendingCall {
    /// The request's handle (for [`Client::cancel`]; stays valid across an authorization retry).
    pub handle: RequestHandle,
    pub(crate) fut: LocalBoxFuture<'static, Result<Value, ClientError>>,
}

impl Future for PendingCall {
    type Output = Result<Value, ClientError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.fut.as_mut().poll(cx)
    }
}

fn reply(r: Result<Reply, oneshot::Canceled>) -> Result<Value, ClientError> {
    match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => Err(ClientError::Closed),
    }
}

/// `params` with the caller's `_meta` entries added ([`CallOptions::meta`]); the session adds
/// its own on top when it sends the request. Params that are not an object (never the case
/// in MCP) are left as they are.
fn with_meta(
    params: Option<Value>,
    meta: Option<&serde_json::Map<String, Value>>,
) -> Option<Value> {
    let Some(meta) = meta.filter(|m| !m.is_empty()) else {
        return params;
    };
    let mut obj = match params {
        None => serde_json::Map::new(),
        Some(Value::Object(m)) => m,
        other => return other,
    };
    match obj.get_mut("_meta") {
        Some(Value::Object(m)) => m.extend(meta.clone()),
        _ => {
            obj.insert("_meta".into(), Value::Object(meta.clone()));
        }
    }
    Some(Value::Object(obj))
}

/// What the client tracks for requests made again (after a login, or as a task).
#[derive(Default)]
pub(crate) struct Retries {
    /// Token generation whose `Authorization` header the session sends.
    applied: Option<u64>,
    /// A request made again: its first handle → the handle of its latest attempt.
    pub(crate) aliases: LiteMap<RequestHandle, RequestHandle>,
    /// First handles of requests cancelled (so no retry goes out).
    cancelled: LiteMap<RequestHandle, ()>,
}

impl Retries {
    /// The handle of the latest attempt of the request first made as `first`, found through
    /// the chain of aliases (a call made after listing tools, then again after a login, ...);
    /// `first` itself if it was not made again. At most four links are followed.
    fn latest_attempt(&self, first: RequestHandle) -> RequestHandle {
        let mut current = first;
        for _ in 0..4 {
            match self.aliases.get(&current) {
                Some(next) => current = *next,
                None => break,
            }
        }
        current
    }
}

/// `work`, unless `inner`'s client is closed first: then `None`, and `work` is dropped (a
/// login window it opened is closed with it).
async fn unless_closed<T>(inner: &Inner, work: impl Future<Output = T>) -> Option<T> {
    match select(Box::pin(work), inner.closed()).await {
        Either::Left((done, _)) => Some(done),
        Either::Right(_) => None,
    }
}

/// `headers` with `authorization` (the authorizer's current `Authorization` value, if it has
/// one) in place of any `Authorization` header among them; without one, `headers` as they are.
fn with_authorization(
    mut headers: Vec<(String, String)>,
    authorization: Option<String>,
) -> Vec<(String, String)> {
    if let Some(value) = authorization {
        headers.retain(|(k, _)| !k.eq_ignore_ascii_case("authorization"));
        headers.push(("Authorization".into(), value));
    }
    headers
}

impl Client {
    /// Connects: detects the era and transport, handshakes, and resolves once ready.
    pub async fn connect(options: ClientOptions) -> Result<Client, ClientError> {
        let client = Client::new(options);
        client.reconnect().await?;
        Ok(client)
    }

    /// A client that is not connected yet (see [`Client::reconnect`]); lets the caller add
    /// event listeners first.
    pub fn new(options: ClientOptions) -> Client {
        let cfg = crate::session_config::session_config(
            &options,
            crate::ascii_url::ascii_url(&options.url),
            || crate::eras::remembered(&options.url),
            |credentials| crate::discoveries::kept(&options.url, js_sys::Date::now(), credentials),
        );
        let inner = Rc::new(Inner {
            session: RefCell::new(Session::new(cfg)),
            options,
            waiters: RefCell::new(LiteMap::new()),
            progress: RefCell::new(LiteMap::new()),
            aborts: RefCell::new(LiteMap::new()),
            timer: RefCell::new(None),
            listeners: RefCell::new(Vec::new()),
            connected: RefCell::new(None),
            socket: RefCell::new(None),
            auth: RefCell::new(None),
            received_tasks: RefCell::new(Default::default()),
            task_handlers: RefCell::new(LiteMap::new()),
            listen_acks: RefCell::default(),
            handover: RefCell::default(),
            page_hide: RefCell::new(None),
            held_back: RefCell::default(),
            closing: RefCell::default(),
        });
        *inner.page_hide.borrow_mut() = crate::page_hide::PageHideListener::watch(&inner);
        let tasks: Rc<RefCell<crate::tasks::Tasks>> = Rc::default();
        let changes = tasks.clone();
        inner
            .listeners
            .borrow_mut()
            .push(Rc::new(move |e: &ClientEvent| {
                // Which tools need a task is known again once they are listed again (by the
                // application, or before the next call).
                match e {
                    ClientEvent::Notification(ServerNotification::ToolListChanged) => {
                        let mut tasks = changes.borrow_mut();
                        tasks.listed = false;
                        tasks.changes += 1;
                    }
                    // A task's new state, told at once to whoever follows the task (else kept
                    // for when it does: the announcement may come before the task's creation).
                    ClientEvent::Notification(ServerNotification::TaskStatus(task)) => {
                        let listener = changes.borrow_mut().announced(task);
                        if let Some(listener) = listener {
                            listener(task);
                        }
                    }
                    // A task of the Tasks extension: to the call following it.
                    ClientEvent::Notification(ServerNotification::TaskUpdated(task)) => {
                        changes.borrow_mut().pushed(task);
                    }
                    // Its tasks of the Tasks extension are no longer followed.
                    ClientEvent::State(ConnectionState::Closed) => changes.borrow_mut().closed(),
                    _ => {}
                }
            }));
        let handles = Some(Rc::new(LastHandle(inner.clone())));
        Client {
            inner,
            subscriptions: Rc::default(),
            retries: Rc::default(),
            tasks,
            handles,
        }
    }

    /// A clone for the client's own work that lasts as long as the connection (a stream kept
    /// open, say): it does not keep the client open once the application has let it go.
    pub(crate) fn in_background(&self) -> Client {
        Client {
            handles: None,
            ..self.clone()
        }
    }

    /// (Re)connects, e.g. after the user logged in and headers changed. With
    /// [`ClientOptions::auth`], a stale access token is refreshed first, and a 401 is
    /// answered by refreshing (or, in popup mode, logging in) and connecting again, at most
    /// the authorizer's `max_attempts` times: a server that refuses those credentials too
    /// ends it with [`AuthFailure::TooManyAttempts`].
    pub async fn reconnect(&self) -> Result<ServerDetails, ClientError> {
        crate::error::check_server_url(&self.inner.options.url)?;
        let result = self.reconnect_recovering().await;
        self.inner.announce_login_needed(&result);
        result
    }

    /// [`Client::reconnect`] without the [`ClientEvent::LoginNeeded`] announcement.
    async fn reconnect_recovering(&self) -> Result<ServerDetails, ClientError> {
        let mut attempts = 0;
        loop {
            let generation = match &self.inner.options.auth {
                Some(auth) => {
                    if let Err(e) = auth.ensure_fresh().await {
                        self.inner.emit(ClientEvent::Warning(format!(
                            "could not refresh the access token: {e}"
                        )));
                    }
                    self.apply_auth();
                    auth.generation()
                }
                None => 0,
            };
            let result = self.connect_once().await;
            let (
                Some(auth),
                Err(ClientError::AuthRequired {
                    status,
                    www_authenticate,
                }),
            ) = (&self.inner.options.auth, &result)
            else {
                return result;
            };
            if attempts >= auth.max_attempts() {
                // With no attempt allowed, the server's refusal as it is (the application
                // answers it); after attempts that each got new credentials, that the server
                // refuses those too (a new login would not help), as a request says.
                return match attempts {
                    0 => result,
                    _ => Err(ClientError::Auth(AuthFailure::refused_after(
                        attempts,
                        www_authenticate.as_deref(),
                    ))),
                };
            }
            attempts += 1;
            let recovering = auth.recover(*status, www_authenticate.as_deref(), generation);
            match unless_closed(&self.inner, recovering).await {
                None => return Err(ClientError::Closed),
                Some(Ok(())) => continue,
                Some(Err(AuthFailure::NeedsLogin)) => return result,
                Some(Err(e)) => return Err(ClientError::Auth(e)),
            }
        }
    }

    async fn connect_once(&self) -> Result<ServerDetails, ClientError> {
        // A closed client connects no more (the session ignores `connect`).
        if self.state() == ConnectionState::Closed {
            return Err(ClientError::Closed);
        }
        let (tx, rx) = oneshot::channel();
        *self.inner.connected.borrow_mut() = Some(tx);
        self.inner.session.borrow_mut().connect(now());
        self.inner.drive();
        let details = match rx.await {
            Ok(Ok(d)) => d,
            Ok(Err(e)) => {
                return Err(match ClientError::from(e) {
                    ClientError::Request(r) => ClientError::Connect(r),
                    other => other,
                })
            }
            Err(_) => return Err(ClientError::Closed),
        };
        if details.era == Era::Modern {
            self.reopen_listen(true);
        }
        Ok(details)
    }

    /// Puts the authorizer's current access token into the session's headers.
    fn apply_auth(&self) {
        let Some(auth) = &self.inner.options.auth else {
            return;
        };
        let generation = auth.generation();
        if self.retries.borrow().applied == Some(generation) {
            return;
        }
        let headers = with_authorization(
            self.inner.options.headers.clone(),
            auth.authorization_header(),
        );
        self.inner.session.borrow_mut().set_extra_headers(headers);
        self.retries.borrow_mut().applied = Some(generation);
    }

    /// Replaces the extra headers sent on every HTTP request (e.g. `Authorization`). A
    /// legacy server's event stream refused for want of authorization is opened again with
    /// a new `Authorization`.
    pub fn set_headers(&self, headers: Vec<(String, String)>) {
        self.inner.session.borrow_mut().set_extra_headers(headers);
        self.inner.drive();
    }

    /// What the server told us when we connected.
    pub fn server(&self) -> Option<ServerDetails> {
        self.inner.session.borrow().server_details().cloned()
    }

    /// The JSON-RPC id request `handle` went out with, while it is under way (see
    /// [`client_core::Session::wire_id`]); e.g. for an MCP App View, told the id of the call
    /// it shows.
    pub fn wire_id(&self, handle: RequestHandle) -> Option<Value> {
        let session = self.inner.session.borrow();
        let id = session.wire_id(handle)?;
        serde_json::to_value(id).ok()
    }

    /// The connection state.
    pub fn state(&self) -> ConnectionState {
        self.inner.session.borrow().state()
    }

    /// Calls `listener` for every [`ClientEvent`].
    pub fn on_event(&self, listener: impl Fn(&ClientEvent) + 'static) {
        self.inner.listeners.borrow_mut().push(Rc::new(listener));
    }

    /// Starts any request; await the returned [`PendingCall`]. With
    /// [`ClientOptions::auth`], a request refused with 401/403 is retried once the
    /// authorizer got new credentials (at most its `max_attempts` times).
    pub fn start(&self, method: &str, params: Option<Value>, opts: CallOptions) -> PendingCall {
        self.apply_auth();
        let Some(auth) = self.inner.options.auth.clone() else {
            let (handle, rx) = self.send(method, params, &opts);
            let inner = self.inner.clone();
            return PendingCall {
                handle,
                fut: async move {
                    let outcome = reply(rx.await);
                    inner.announce_login_needed(&outcome);
                    outcome
                }
                .boxed_local(),
            };
        };
        let mut generation = auth.generation();
        let (handle, first) = self.send(method, params.clone(), &opts);
        let client = self.clone();
        let method = method.to_string();
        let fut = async move {
            let mut rx = first;
            let mut attempts = 0;
            let outcome = loop {
                let result = reply(rx.await);
                let Err(ClientError::AuthRequired {
                    status,
                    www_authenticate,
                }) = &result
                else {
                    break result;
                };
                if client.retries.borrow().cancelled.contains_key(&handle) {
                    break Err(ClientError::Request(RequestError::Cancelled));
                }
                if attempts >= auth.max_attempts() {
                    break Err(ClientError::Auth(AuthFailure::refused_after(
                        attempts,
                        www_authenticate.as_deref(),
                    )));
                }
                attempts += 1;
                let recovering = auth.recover(*status, www_authenticate.as_deref(), generation);
                match unless_closed(&client.inner, recovering).await {
                    None => break Err(ClientError::Closed),
                    Some(Ok(())) => {}
                    Some(Err(AuthFailure::NeedsLogin)) => break result,
                    Some(Err(e)) => break Err(ClientError::Auth(e)),
                }
                if client.retries.borrow().cancelled.contains_key(&handle) {
                    break Err(ClientError::Request(RequestError::Cancelled));
                }
                client.apply_auth();
                generation = auth.generation();
                let (next, next_rx) = client.send(&method, params.clone(), &opts);
                client.retries.borrow_mut().aliases.insert(handle, next);
                rx = next_rx;
            };
            {
                let mut r = client.retries.borrow_mut();
                r.aliases.remove(&handle);
                r.cancelled.remove(&handle);
            }
            client.inner.announce_login_needed(&outcome);
            outcome
        };
        PendingCall {
            handle,
            fut: fut.boxed_local(),
        }
    }

    /// Sends one attempt of a request.
    fn send(
        &self,
        method: &str,
        params: Option<Value>,
        opts: &CallOptions,
    ) -> (RequestHandle, oneshot::Receiver<Reply>) {
        let (tx, rx) = oneshot::channel();
        let params = with_meta(params, opts.meta.as_ref());
        let ropts = RequestOptions {
            timeout: opts.timeout,
            no_timeout: false,
            progress: opts.on_progress.is_some(),
            cache: opts.cache,
        };
        let handle = self
            .inner
            .session
            .borrow_mut()
            .request(method, params, ropts, now());
        self.inner.waiters.borrow_mut().insert(handle, tx);
        if let Some(cb) = opts.on_progress.clone() {
            self.inner.progress.borrow_mut().insert(handle, cb);
        }
        self.inner.drive();
        (handle, rx)
    }

    /// Sends any request and waits for its result, as the server sent it (type it with
    /// [`decode`]).
    pub async fn request(&self, method: &str, params: Option<Value>) -> Result<Value, ClientError> {
        self.start(method, params, CallOptions::default()).await
    }

    /// Cancels a request started with [`Client::start`] or [`Client::call_tool_with`].
    pub fn cancel(&self, handle: RequestHandle) {
        if self.cancel_waiting_call(handle) {
            return;
        }
        // A request made again (the call after listing tools, an attempt after a login) is
        // found through the chain of aliases from its first handle.
        let current = self.retries.borrow().latest_attempt(handle);
        if self.cancel_call_task(handle) || (current != handle && self.cancel_call_task(current)) {
            return;
        }
        if self.inner.options.auth.is_some() {
            self.retries.borrow_mut().cancelled.insert(handle, ());
        }
        self.inner.session.borrow_mut().cancel(current, now());
        self.inner.drive();
    }

    /// Every item of a paginated list (`tools/list` → `"tools"`, ...), following
    /// `nextCursor` for at most `max_pages` pages; items as the server sent them.
    pub async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, ClientError> {
        self.list_all_with(method, key, CacheMode::Use).await
    }

    pub(crate) async fn list_typed<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        key: &str,
    ) -> Result<Vec<T>, ClientError> {
        self.list_all(method, key)
            .await?
            .into_iter()
            .map(|item| decode(method, item))
            .collect()
    }

    /// Lists every tool (following pagination, at most `max_pages` pages).
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        self.list_typed("tools/list", "tools").await
    }

    /// Lists every resource.
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ClientError> {
        self.list_typed("resources/list", "resources").await
    }

    /// Lists every resource template.
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ClientError> {
        self.list_typed("resources/templates/list", "resourceTemplates")
            .await
    }

    /// Lists every prompt.
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ClientError> {
        self.list_typed("prompts/list", "prompts").await
    }

    /// Calls a tool.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<CallToolResult, ClientError> {
        self.call_tool_with(name, arguments, CallOptions::default())
            .await
    }

    /// Calls a tool with a timeout and/or a progress callback. To cancel, use
    /// [`Client::start_tool_call`] and [`Client::cancel`].
    pub async fn call_tool_with(
        &self,
        name: &str,
        arguments: Value,
        opts: CallOptions,
    ) -> Result<CallToolResult, ClientError> {
        decode(
            "tools/call",
            self.start_tool_call(name, arguments, opts).await?,
        )
    }

    /// Starts a tool call and returns it in flight (with its handle for cancelling).
    ///
    /// A tool that the last [`Client::list_tools`] marked `execution.taskSupport: "required"`
    /// is called as a task when the server accepts task-augmented tool calls (2025-11-25
    /// tasks): the server answers with a task, which is followed with `tasks/get` (reported
    /// to [`CallOptions::on_task`]) and `tasks/result` (the call's result); cancelling the
    /// call cancels the task. On such a server, a call made before the tools were listed
    /// (or after the server said they changed) lists them first (a tool that needs a task is
    /// refused when called plainly); calls made meanwhile wait for the same listing.
    pub fn start_tool_call(&self, name: &str, arguments: Value, opts: CallOptions) -> PendingCall {
        if self.task_support_unknown() {
            return self.list_then_call(name, arguments, opts);
        }
        self.start_listed_tool_call(name, arguments, opts)
    }

    /// [`Client::start_tool_call`] with what is known of the tools now, without listing them.
    pub(crate) fn start_listed_tool_call(
        &self,
        name: &str,
        arguments: Value,
        opts: CallOptions,
    ) -> PendingCall {
        let params = json!({ "name": name, "arguments": arguments });
        if !self.runs_as_task(name) {
            // Only a 2026-07-28 server answers with a task of the Tasks extension.
            let legacy = self
                .inner
                .session
                .borrow()
                .server_details()
                .is_some_and(|d| d.era == Era::Legacy);
            if legacy {
                return self.start("tools/call", Some(params), opts);
            }
            return self.plain_tool_call(params, opts);
        }
        let first = self.start(
            "tools/call",
            Some(crate::tasks::as_task(params)),
            opts.clone(),
        );
        let handle = first.handle;
        PendingCall {
            handle,
            fut: self
                .clone()
                .finish_task_call(handle, first, opts)
                .boxed_local(),
        }
    }

    /// Reads a resource.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        let r = self
            .request("resources/read", Some(json!({ "uri": uri })))
            .await?;
        decode("resources/read", r)
    }

    /// Gets a prompt with arguments.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: HashMap<String, String>,
    ) -> Result<GetPromptResult, ClientError> {
        let r = self
            .request(
                "prompts/get",
                Some(json!({ "name": name, "arguments": arguments })),
            )
            .await?;
        decode("prompts/get", r)
    }

    /// Asks for completions of an argument (`reference` is a `ref/prompt` or
    /// `ref/resource` object). `context` holds the values of the other arguments filled in so
    /// far (sent as `context.arguments`), so that a server can narrow one argument by another.
    pub async fn complete(
        &self,
        reference: Value,
        argument: &str,
        value: &str,
        context: &[(&str, &str)],
    ) -> Result<Completion, ClientError> {
        let params = completion_params(reference, argument, value, context);
        let r = self.request("completion/complete", Some(params)).await?;
        decode::<CompleteResult>("completion/complete", r).map(|r| r.completion)
    }

    /// Sets the minimum log level: sent in every later request's `_meta` (modern), and with
    /// `logging/setLevel` (legacy).
    pub async fn set_log_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        self.inner.session.borrow_mut().set_log_level(Some(level));
        if self.server().map(|d| d.era) == Some(Era::Legacy) {
            self.request("logging/setLevel", Some(json!({ "level": level })))
                .await?;
        }
        Ok(())
    }

    /// Sends a notification (e.g. `notifications/roots/list_changed`).
    pub fn notify(&self, method: &str, params: Option<Value>) {
        self.inner.session.borrow_mut().notify(method, params);
        self.inner.drive();
    }

    /// Tells the server the roots offered to it changed: `notifications/roots/list_changed`
    /// to a legacy server; nothing to a 2026-07-28 server, whose protocol removed that
    /// notification (it asks for the roots with the requests that need them, so the next one
    /// sees the change).
    pub fn roots_changed(&self) {
        if self.server().map(|d| d.era) != Some(Era::Modern) {
            self.notify("notifications/roots/list_changed", None);
        }
    }

    /// Checks the server is alive: `ping` to a legacy server; `server/discover` to a
    /// 2026-07-28 server, whose protocol removed `ping` (discovery is the one request every
    /// such server answers).
    pub async fn ping(&self) -> Result<(), ClientError> {
        self.request(self.ping_method(), None).await.map(|_| ())
    }

    /// The request [`Client::ping`] sends to this server: `ping`, or `server/discover` to a
    /// 2026-07-28 server.
    pub fn ping_method(&self) -> &'static str {
        match self.server().map(|d| d.era) {
            Some(Era::Modern) => "server/discover",
            _ => "ping",
        }
    }

    /// Closes the connection (ends a legacy session with DELETE). Done by itself when the
    /// person leaves the page.
    pub fn close(&self) {
        self.inner.close();
    }
}

/// The parameters of `completion/complete` (see [`Client::complete`]).
pub fn completion_params(
    reference: Value,
    argument: &str,
    value: &str,
    context: &[(&str, &str)],
) -> Value {
    let mut params = json!({ "ref": reference, "argument": { "name": argument, "value": value } });
    if !context.is_empty() {
        let arguments: serde_json::Map<String, Value> = context
            .iter()
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect();
        params["context"] = json!({ "arguments": arguments });
    }
    params
}

/// Types a raw result (or list item) of `method`; a result of the wrong shape is a
/// [`ClientError::UnexpectedResult`] that names the method and what was wrong. Takes the
/// value or a reference to it (a caller that keeps the value as it came need not copy it).
pub fn decode<T: serde::de::DeserializeOwned>(
    method: &str,
    v: impl std::borrow::Borrow<Value>,
) -> Result<T, ClientError> {
    T::deserialize(v.borrow()).map_err(|e| {
        ClientError::UnexpectedResult(format!("malformed {method} result: {}", Isolated(e)))
    })
}

/// Whether these headers carry an `Authorization` header.
pub(crate) fn has_authorization(headers: &[(String, String)]) -> bool {
    headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("authorization"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(v: Value) -> serde_json::Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => panic!("an object"),
        }
    }

    #[test]
    fn the_callers_meta_is_added_to_the_params() {
        let m = meta(json!({"trace": "t1"}));
        assert_eq!(
            with_meta(Some(json!({"name": "echo"})), Some(&m)),
            Some(json!({"name": "echo", "_meta": {"trace": "t1"}}))
        );
        assert_eq!(
            with_meta(None, Some(&m)),
            Some(json!({"_meta": {"trace": "t1"}})),
            "a request without params gets some"
        );
        // The params' own `_meta` keeps its other entries; the caller's win where both say.
        assert_eq!(
            with_meta(
                Some(json!({"_meta": {"trace": "old", "progressToken": 3}})),
                Some(&m)
            ),
            Some(json!({"_meta": {"trace": "t1", "progressToken": 3}}))
        );
        // A `_meta` that is not an object is replaced.
        assert_eq!(
            with_meta(Some(json!({"_meta": "x"})), Some(&m)),
            Some(json!({"_meta": {"trace": "t1"}}))
        );
    }

    #[test]
    fn without_meta_the_params_stay_as_they_are() {
        let empty = serde_json::Map::new();
        for params in [None, Some(json!({"name": "echo"})), Some(json!([1, 2]))] {
            assert_eq!(with_meta(params.clone(), None), params);
            assert_eq!(with_meta(params.clone(), Some(&empty)), params);
        }
        // Params that are not an object are not touched either.
        let m = meta(json!({"trace": "t1"}));
        assert_eq!(with_meta(Some(json!([1])), Some(&m)), Some(json!([1])));
    }

    #[test]
    fn a_reply_becomes_the_callers_result() {
        assert_eq!(
            reply(Ok(Ok(json!({"ok": true})))).ok(),
            Some(json!({"ok": true}))
        );
        assert!(matches!(
            reply(Ok(Err(RequestError::Cancelled))),
            Err(ClientError::Request(RequestError::Cancelled))
        ));
        assert!(matches!(
            reply(Err(oneshot::Canceled)),
            Err(ClientError::Closed)
        ));
    }

    #[test]
    fn a_request_made_again_is_found_from_its_first_handle() {
        let h = RequestHandle;
        let mut r = Retries::default();
        assert_eq!(r.latest_attempt(h(1)), h(1), "not made again");
        r.aliases.insert(h(1), h(5));
        r.aliases.insert(h(5), h(9));
        r.aliases.insert(h(2), h(3));
        assert_eq!(r.latest_attempt(h(1)), h(9), "listed first, then logged in");
        assert_eq!(r.latest_attempt(h(5)), h(9));
        assert_eq!(r.latest_attempt(h(2)), h(3));
        // A chain that loops (it should not) ends after four links instead of hanging.
        r.aliases.insert(h(9), h(1));
        assert_eq!(r.latest_attempt(h(1)), h(5));
        // Four links are followed, not three.
        let mut r = Retries::default();
        for i in 1..5 {
            r.aliases.insert(h(i), h(i + 1));
        }
        assert_eq!(r.latest_attempt(h(1)), h(5));
    }

    #[test]
    fn the_authorizers_token_replaces_any_authorization_header() {
        let header = |k: &str, v: &str| (k.to_string(), v.to_string());
        let headers = vec![
            header("X-Api-Key", "k"),
            header("authorization", "Bearer old"),
            header("AUTHORIZATION", "Basic x"),
        ];
        assert_eq!(
            with_authorization(headers.clone(), Some("Bearer new".into())),
            vec![
                header("X-Api-Key", "k"),
                header("Authorization", "Bearer new")
            ]
        );
        assert_eq!(
            with_authorization(headers.clone(), None),
            headers,
            "without a token, the application's own header stays"
        );
    }

    #[test]
    fn completion_params_carry_the_other_arguments_as_context() {
        let reference = json!({"type": "ref/prompt", "name": "greet"});
        assert_eq!(
            completion_params(reference.clone(), "name", "Al", &[]),
            json!({"ref": reference, "argument": {"name": "name", "value": "Al"}})
        );
        assert_eq!(
            completion_params(
                reference.clone(),
                "city",
                "Pa",
                &[("country", "FR"), ("lang", "fr")]
            ),
            json!({
                "ref": reference,
                "argument": {"name": "city", "value": "Pa"},
                "context": {"arguments": {"country": "FR", "lang": "fr"}}
            })
        );
    }

    #[test]
    fn a_malformed_result_names_its_method_and_what_was_wrong() {
        let ok: Result<CallToolResult, _> = decode(
            "tools/call",
            json!({"content": [{"type": "text", "text": "hi"}]}),
        );
        assert!(ok.is_ok());
        let wrong: Result<CallToolResult, _> = decode("tools/call", json!({"content": 7}));
        match wrong {
            Err(ClientError::UnexpectedResult(message)) => {
                assert!(
                    message.starts_with("malformed tools/call result: "),
                    "{message}"
                );
                assert!(message.contains("invalid type"), "{message}");
            }
            other => panic!("not an unexpected result: {:?}", other.map(|_| ())),
        }
    }
}
