//! Change notifications and resource subscriptions. A 2026-07-28 server sends them on one
//! `subscriptions/listen` stream, opened again whenever what the client asks for changes; a
//! resource subscription counts only once the server's acknowledgment of that stream (the
//! filter it agreed to honour) names the resource, as the specification asks a client to
//! check. Legacy servers: `resources/subscribe` and `resources/unsubscribe`.

use crate::client::Client;
use crate::clock::now;
use crate::driver::Reply;
use crate::error::ClientError;
use client_core::session::{RequestError, RequestHandle};
use client_core::types::{Era, ServerCapabilities, SubscriptionFilter};
use client_core::Instant;
use futures_channel::oneshot;
use futures_util::future::{select, Either};
use litemap::LiteMap;
use serde_json::{json, Value};

/// What the client listens for on a modern `subscriptions/listen` stream.
#[derive(Default)]
pub(crate) struct Subscriptions {
    /// The URIs subscribed to (a set: the values are empty).
    resources: LiteMap<String, ()>,
    /// The stream open now.
    listen: Option<RequestHandle>,
    /// When the stream open now was opened.
    opened_at: Instant,
    /// Streams in a row that ended soon after they were opened (see [`Client::watch_listen`]).
    short_lived: u32,
    /// The filter the stream open now asked for.
    asked: Option<SubscriptionFilter>,
    /// What the client listens for changed while the stream open now was not acknowledged
    /// yet: it is opened again once it is (see [`Client::relisten`]).
    due: bool,
}

/// A stream that lasted this long ended for a passing reason: the next is opened after the
/// shortest delay.
const LASTED_MS: u64 = 30_000;
/// Streams in a row that end soon after they were opened before the client stops opening
/// them again (1, 2, 4, … 32 s apart).
const MAX_SHORT_LIVED: u32 = 8;

/// A `subscriptions/listen` stream that lasted `lasted_ms` ended, after `short_lived`
/// streams in a row that ended soon after they were opened: how many ended soon in a row now,
/// and how long to wait before opening the next one (`None`: too many, stop listening).
fn after_listen_ended(short_lived: u32, lasted_ms: u64) -> (u32, Option<u32>) {
    let short_lived = if lasted_ms >= LASTED_MS {
        0
    } else {
        short_lived.saturating_add(1)
    };
    let delay_ms = 1_000u32 << short_lived.saturating_sub(1).min(5);
    (
        short_lived,
        (short_lived <= MAX_SHORT_LIVED).then_some(delay_ms),
    )
}

/// What a `subscriptions/listen` stream asks for: the list changes the server's
/// capabilities say it announces, updates of the `resources` subscribed to, and the states of
/// the `tasks` followed (the Tasks extension). `None` when there is nothing to listen for:
/// followed tasks alone open no stream, as a server that announces no notifications at all
/// is only polled for them.
fn listen_filter<'a>(
    caps: &ServerCapabilities,
    resources: impl Iterator<Item = &'a String>,
    tasks: Vec<String>,
) -> Option<SubscriptionFilter> {
    let resources: Vec<String> = resources.cloned().collect();
    let filter = SubscriptionFilter {
        tools_list_changed: caps.tools_list_changed().then_some(true),
        prompts_list_changed: caps.prompts_list_changed().then_some(true),
        resources_list_changed: caps.resources_list_changed().then_some(true),
        resource_subscriptions: (!resources.is_empty()).then_some(resources),
        ..Default::default()
    };
    let wanted = filter.tools_list_changed.is_some()
        || filter.prompts_list_changed.is_some()
        || filter.resources_list_changed.is_some()
        || filter.resource_subscriptions.is_some();
    wanted.then(|| SubscriptionFilter {
        task_ids: (!tasks.is_empty()).then_some(tasks),
        ..filter
    })
}

/// Whether the stream open now serves as it is, so none is opened: it is still `open`, it
/// asked for the `wanted` filter already, and the caller did not ask for one `anew`.
fn stream_serves(
    anew: bool,
    open: bool,
    asked: Option<&SubscriptionFilter>,
    wanted: Option<&SubscriptionFilter>,
) -> bool {
    !anew && open && wanted.is_some() && asked == wanted
}

/// The acknowledgments of the open `subscriptions/listen` streams (the filter the server
/// agreed to honour, as JSON), recorded by the driver as they arrive, and the subscribers
/// waiting for one. At most a few streams at a time: plain vectors. A waiter hears the
/// acknowledged filter, or why the stream ended without one (the same [`Reply`] type as a
/// request's waiter, which keeps the code small).
#[derive(Default)]
pub(crate) struct ListenAcks {
    acknowledged: Vec<(RequestHandle, Value)>,
    waiting: Vec<(RequestHandle, oneshot::Sender<Reply>)>,
}

impl ListenAcks {
    /// The server acknowledged `stream` with the filter it agreed to honour.
    pub(crate) fn acknowledged(&mut self, stream: RequestHandle, honoured: Value) {
        self.tell(stream, || Ok(honoured.clone()));
        self.acknowledged.retain(|(s, _)| *s != stream);
        self.acknowledged.push((stream, honoured));
    }

    /// A request ended (`failure` says why, if it failed): if it was a stream, whoever still
    /// waits for its acknowledgment hears why.
    pub(crate) fn ended(&mut self, stream: RequestHandle, failure: Option<&RequestError>) {
        if self.acknowledged.is_empty() && self.waiting.is_empty() {
            return;
        }
        self.acknowledged.retain(|(s, _)| *s != stream);
        self.tell(stream, || {
            Err(failure.cloned().unwrap_or_else(|| {
                RequestError::Protocol(
                    "the server ended the subscriptions/listen stream before acknowledging it"
                        .into(),
                )
            }))
        });
    }

    /// Answers everyone waiting for `stream`.
    fn tell(&mut self, stream: RequestHandle, answer: impl Fn() -> Reply) {
        let mut i = 0;
        while i < self.waiting.len() {
            if self.waiting[i].0 == stream {
                let _ = self.waiting.swap_remove(i).1.send(answer());
            } else {
                i += 1;
            }
        }
    }

    /// What the server agreed to send on `stream`, if it acknowledged it already.
    fn honoured(&self, stream: RequestHandle) -> Option<&Value> {
        self.acknowledged
            .iter()
            .find(|(s, _)| *s == stream)
            .map(|(_, honoured)| honoured)
    }

    /// Whether the server acknowledged `stream` with a filter that lists task `task_id`.
    fn lists_task(&self, stream: RequestHandle, task_id: &str) -> bool {
        self.honoured(stream).is_some_and(|f| {
            f["taskIds"]
                .as_array()
                .is_some_and(|ids| ids.iter().any(|id| id == task_id))
        })
    }

    /// The acknowledgment of `stream` if it came already, else a receiver for it.
    fn wait(&mut self, stream: RequestHandle) -> Result<Value, oneshot::Receiver<Reply>> {
        if let Some(honoured) = self.honoured(stream) {
            return Ok(honoured.clone());
        }
        let (tx, rx) = oneshot::channel();
        self.waiting.push((stream, tx));
        Err(rx)
    }
}

/// How many times a subscriber follows its stream being replaced by a newer one (each
/// subscription or unsubscription meanwhile replaces it) before giving up.
const MAX_STREAM_REPLACEMENTS: usize = 8;

impl Client {
    /// Subscribes to updates of a resource (legacy: `resources/subscribe`; modern: adds it to
    /// the `subscriptions/listen` filter and waits for the server's acknowledgment). Updates
    /// arrive as [`crate::ClientEvent::Notification`] with `ResourceUpdated`. A modern server
    /// that leaves the resource out of its acknowledgment (it does not support resource
    /// subscriptions) is [`ClientError::SubscriptionRefused`], and the resource is not kept.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        match self.server().map(|d| d.era) {
            Some(Era::Modern) => {
                self.subscriptions
                    .borrow_mut()
                    .resources
                    .insert(uri.to_string(), ());
                self.relisten();
                let honoured = self.acknowledged_filter().await.and_then(|f| {
                    let listed = f["resourceSubscriptions"].as_array();
                    if listed.is_some_and(|l| l.iter().any(|u| u == uri)) {
                        Ok(())
                    } else {
                        Err(ClientError::SubscriptionRefused {
                            uri: uri.to_string(),
                        })
                    }
                });
                if honoured.is_err() {
                    self.subscriptions.borrow_mut().resources.remove(uri);
                }
                honoured
            }
            _ => self
                .request("resources/subscribe", Some(json!({ "uri": uri })))
                .await
                .map(|_| ()),
        }
    }

    /// Stops updates of a resource.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        match self.server().map(|d| d.era) {
            Some(Era::Modern) => {
                self.subscriptions.borrow_mut().resources.remove(uri);
                self.relisten();
                Ok(())
            }
            _ => self
                .request("resources/unsubscribe", Some(json!({ "uri": uri })))
                .await
                .map(|_| ()),
        }
    }

    /// Opens the modern notification stream again with what the client listens for now.
    /// While the stream open now awaits the server's acknowledgment, the change waits for it:
    /// changes in a row (several tasks followed at once) open one more stream, not one each.
    pub(crate) fn relisten(&self) {
        let mut subs = self.subscriptions.borrow_mut();
        // (A stream that ended unacknowledged, e.g. when the connection was lost, waits for
        // nothing: a new one is opened at once.)
        let awaiting = subs.listen.is_some_and(|s| {
            self.inner.session.borrow().is_under_way(s)
                && self.inner.listen_acks.borrow().honoured(s).is_none()
        });
        if awaiting {
            subs.due = true;
            return;
        }
        drop(subs);
        self.reopen_listen(false);
    }

    /// Opens the stream again if a change waits for `stream`'s acknowledgment (see
    /// [`Client::relisten`]), now that it came.
    fn reopen_if_due(&self, stream: RequestHandle) {
        let due = {
            let subs = self.subscriptions.borrow();
            subs.due && subs.listen == Some(stream)
        };
        if due {
            self.reopen_listen(false);
        }
    }

    /// (Re)opens the modern notification stream with the current filter; unless it would ask
    /// for what the stream open now asks for already (with `anew`: in any case, the stream open
    /// now is over or belongs to an earlier connection).
    pub(crate) fn reopen_listen(&self, anew: bool) {
        let Some(details) = self.server() else { return };
        let mut subs = self.subscriptions.borrow_mut();
        subs.due = false;
        let tasks = self.tasks.borrow().pushed_ids();
        let filter = listen_filter(&details.capabilities, subs.resources.keys(), tasks);
        let wanted = filter.is_some();
        let open = subs
            .listen
            .is_some_and(|s| self.inner.session.borrow().is_under_way(s));
        if stream_serves(anew, open, subs.asked.as_ref(), filter.as_ref()) {
            return;
        }
        // The stream open now stays open until its successor is acknowledged, and a moment
        // more (see `listen_handover.rs`); with no successor, it closes now.
        let old = subs.listen.take().filter(|_| open);
        subs.asked = None;
        let closing = if wanted {
            self.inner.handover.borrow_mut().retire(old)
        } else {
            let mut all = self.inner.handover.borrow_mut().take_all();
            all.extend(old);
            all
        };
        self.inner.close_streams(closing);
        if let Some(filter) = filter {
            subs.asked = Some(filter.clone());
            let stream = self.inner.session.borrow_mut().listen(filter, now());
            subs.listen = Some(stream);
            subs.opened_at = now();
            drop(subs);
            self.inner.handover.borrow_mut().replaced_by(stream);
            self.watch_listen(stream);
            self.watch_acknowledgment(stream);
        } else {
            drop(subs);
        }
        self.inner.drive();
    }

    /// Once the server acknowledges `stream`, opens it again if a change waits for that.
    fn watch_acknowledgment(&self, stream: RequestHandle) {
        let Err(ack) = self.inner.listen_acks.borrow_mut().wait(stream) else {
            return;
        };
        let client = self.in_background();
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(Ok(_)) = ack.await {
                client.reopen_if_due(stream);
            }
        });
    }

    /// Opens the stream again when `stream` ends while it is still the one wanted (the server
    /// ended it, the connection was cut or lost, the server restarted): the server's
    /// notifications would stop without a word otherwise. Later each time while streams end
    /// soon after they were opened, and not at all once the server refused one (a JSON-RPC
    /// error) or too many in a row ended that way; a warning says so each time.
    fn watch_listen(&self, stream: RequestHandle) {
        let (tx, ended) = oneshot::channel();
        self.inner.waiters.borrow_mut().insert(stream, tx);
        let client = self.in_background();
        wasm_bindgen_futures::spawn_local(async move {
            let Ok(outcome) = ended.await else { return };
            let delay_ms = {
                let mut subs = client.subscriptions.borrow_mut();
                if subs.listen != Some(stream) {
                    return; // replaced or ended by the client itself
                }
                let why = match &outcome {
                    // Closed, or the connection failed (connecting again listens again).
                    Err(
                        RequestError::Closed
                        | RequestError::Cancelled
                        | RequestError::Unavailable(_),
                    ) => return,
                    Err(e @ RequestError::Rpc(_)) => {
                        subs.listen = None;
                        drop(subs);
                        client.inner.emit(crate::ClientEvent::Warning(format!(
                            "the server refused to send notifications (subscriptions/listen: {e}); list changes and resource updates will not be heard"
                        )));
                        return;
                    }
                    Err(e) => e.to_string(),
                    Ok(_) => "the server ended it".to_string(),
                };
                let lasted = now().0.saturating_sub(subs.opened_at.0);
                let (short_lived, delay_ms) = after_listen_ended(subs.short_lived, lasted);
                subs.short_lived = short_lived;
                let Some(delay_ms) = delay_ms else {
                    subs.listen = None;
                    drop(subs);
                    client.inner.emit(crate::ClientEvent::Warning(format!(
                        "the notification stream (subscriptions/listen) keeps ending ({why}); not listening any more"
                    )));
                    return;
                };
                drop(subs);
                client.inner.emit(crate::ClientEvent::Warning(format!(
                    "the notification stream (subscriptions/listen) ended ({why}); listening again in {} s",
                    delay_ms / 1000
                )));
                delay_ms
            };
            gloo_timers::future::TimeoutFuture::new(delay_ms).await;
            if client.subscriptions.borrow().listen == Some(stream) {
                client.reopen_listen(true);
            }
        });
    }

    /// Whether the server agreed to push the states of task `task_id` on the stream open now
    /// (`notifications/tasks`; its acknowledgment lists the task).
    pub(crate) fn task_pushed(&self, task_id: &str) -> bool {
        let Some(stream) = self.subscriptions.borrow().listen else {
            return false;
        };
        self.inner.listen_acks.borrow().lists_task(stream, task_id)
    }

    /// What the server agreed to send on the stream open now, once it acknowledged it; if the
    /// stream is replaced meanwhile, its successor's. Bounded by the client's timeout.
    async fn acknowledged_filter(&self) -> Result<Value, ClientError> {
        let limit = self.inner.options.timeout.as_millis();
        for _ in 0..MAX_STREAM_REPLACEMENTS {
            let Some(stream) = self.subscriptions.borrow().listen else {
                return Err(ClientError::Request(RequestError::Closed));
            };
            let waited = self.inner.listen_acks.borrow_mut().wait(stream);
            let reply = match waited {
                Ok(honoured) => Ok(Ok(honoured)),
                Err(ack) => {
                    let timer =
                        gloo_timers::future::TimeoutFuture::new(limit.min(u32::MAX as u64) as u32);
                    // A stream held back for want of a connection is not acknowledged until one
                    // frees: said at once rather than after the time limit.
                    let held_back = crate::busy_connections::held_back(&self.inner);
                    match select(ack, select(timer, Box::pin(held_back))).await {
                        Either::Left((reply, _)) => reply,
                        Either::Right((Either::Left(_), _)) => {
                            return Err(ClientError::Request(RequestError::Timeout {
                                after_ms: limit,
                            }))
                        }
                        Either::Right((Either::Right(((server, streams), _)), _)) => {
                            return Err(ClientError::Request(RequestError::Unavailable(
                                crate::busy_connections::subscription_waits(&server, streams),
                            )))
                        }
                    }
                }
            };
            if reply.as_ref().is_ok_and(Result::is_ok) {
                // A change waited for this acknowledgment: the stream opened for it tells.
                self.reopen_if_due(stream);
            }
            if self.subscriptions.borrow().listen != Some(stream) {
                // Replaced by a newer stream (another subscription changed the filter): that
                // one's acknowledgment tells.
                continue;
            }
            match reply {
                Ok(Ok(honoured)) => return Ok(honoured),
                Ok(Err(e)) => return Err(e.into()),
                Err(_) => return Err(ClientError::Closed),
            }
        }
        Err(ClientError::Request(RequestError::Protocol(
            "the subscriptions/listen stream was replaced too often to see it acknowledged".into(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: RequestHandle = RequestHandle(1);
    const B: RequestHandle = RequestHandle(2);

    /// What `rx` was told, if it was told already.
    fn told(rx: &mut oneshot::Receiver<Reply>) -> Option<Reply> {
        rx.try_recv().ok().flatten()
    }

    #[test]
    fn streams_that_keep_ending_are_opened_again_later_each_time_then_no_more() {
        // A stream that lasted ends for a passing reason: the next opens after a second,
        // and the count of short-lived ones starts over.
        assert_eq!(after_listen_ended(0, LASTED_MS), (0, Some(1_000)));
        assert_eq!(after_listen_ended(5, LASTED_MS + 1), (0, Some(1_000)));
        // Short-lived ones in a row wait 1, 2, 4, ... 32 s, then 32 s, then stop.
        let mut short_lived = 0;
        let mut delays = Vec::new();
        while let (n, Some(delay)) = after_listen_ended(short_lived, LASTED_MS - 1) {
            assert_eq!(n, short_lived + 1);
            short_lived = n;
            delays.push(delay);
            assert!(delays.len() <= 20, "never stops: {delays:?}");
        }
        assert_eq!(
            delays,
            [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 32_000, 32_000]
        );
        assert_eq!(delays.len() as u32, MAX_SHORT_LIVED);
        assert_eq!(after_listen_ended(0, 0), (1, Some(1_000)));
        assert_eq!(after_listen_ended(u32::MAX, 0), (u32::MAX, None));
    }

    #[test]
    fn an_acknowledgment_that_came_already_is_had_at_once() {
        let mut acks = ListenAcks::default();
        acks.acknowledged(A, json!({"toolsListChanged": true}));
        assert_eq!(acks.wait(A).ok(), Some(json!({"toolsListChanged": true})));
        assert!(acks.wait(B).is_err(), "B was not acknowledged");
        // A later acknowledgment of the same stream replaces the first.
        acks.acknowledged(A, json!({"promptsListChanged": true}));
        assert_eq!(acks.wait(A).ok(), Some(json!({"promptsListChanged": true})));
        assert_eq!(acks.acknowledged.len(), 1);
    }

    #[test]
    fn waiters_hear_their_own_streams_acknowledgment() {
        let mut acks = ListenAcks::default();
        let (Err(mut a1), Err(mut a2), Err(mut b)) = (acks.wait(A), acks.wait(A), acks.wait(B))
        else {
            panic!("nothing was acknowledged yet");
        };
        acks.acknowledged(A, json!({"resourceSubscriptions": ["file:///a"]}));
        for rx in [&mut a1, &mut a2] {
            assert_eq!(
                told(rx),
                Some(Ok(json!({"resourceSubscriptions": ["file:///a"]})))
            );
        }
        assert_eq!(told(&mut b), None, "B's waiter still waits");
        assert_eq!(acks.waiting.len(), 1);
    }

    #[test]
    fn a_stream_that_ends_unacknowledged_tells_its_waiters_why() {
        let mut acks = ListenAcks::default();
        let (Err(mut a), Err(mut b)) = (acks.wait(A), acks.wait(B)) else {
            panic!("nothing was acknowledged yet");
        };
        acks.ended(A, Some(&RequestError::Timeout { after_ms: 5 }));
        assert_eq!(
            told(&mut a),
            Some(Err(RequestError::Timeout { after_ms: 5 }))
        );
        assert_eq!(told(&mut b), None);
        acks.ended(B, None);
        match told(&mut b) {
            Some(Err(RequestError::Protocol(why))) => {
                assert!(why.contains("before acknowledging"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        assert!(acks.waiting.is_empty());
    }

    #[test]
    fn an_ended_stream_is_acknowledged_no_more() {
        let mut acks = ListenAcks::default();
        acks.acknowledged(A, json!({}));
        acks.acknowledged(B, json!({"toolsListChanged": true}));
        acks.ended(A, None);
        assert!(acks.wait(A).is_err(), "A's acknowledgment went with it");
        assert_eq!(acks.wait(B).ok(), Some(json!({"toolsListChanged": true})));
    }

    #[test]
    fn a_task_is_pushed_only_on_a_stream_whose_acknowledgment_lists_it() {
        let mut acks = ListenAcks::default();
        assert!(!acks.lists_task(A, "t1"), "not acknowledged yet");
        acks.acknowledged(
            A,
            json!({"toolsListChanged": true, "taskIds": ["t0", "t1"]}),
        );
        acks.acknowledged(B, json!({"taskIds": "t2"}));
        assert!(acks.lists_task(A, "t1") && acks.lists_task(A, "t0"));
        assert!(!acks.lists_task(A, "t2"), "not asked for, or refused");
        assert!(!acks.lists_task(B, "t2"), "not a list");
        assert!(!acks.lists_task(B, "t1"), "another stream's");
    }

    /// Capabilities announcing `listChanged` for the given lists.
    fn announcing(lists: &[&str]) -> ServerCapabilities {
        let mut caps = json!({});
        for list in lists {
            caps[*list] = json!({"listChanged": true});
        }
        serde_json::from_value(caps).expect("capabilities")
    }

    /// The filter for capabilities announcing `lists`, these resources and tasks.
    fn filter(lists: &[&str], resources: &[&str], tasks: &[&str]) -> Option<SubscriptionFilter> {
        let resources: Vec<String> = resources.iter().map(|r| r.to_string()).collect();
        let tasks = tasks.iter().map(|t| t.to_string()).collect();
        listen_filter(&announcing(lists), resources.iter(), tasks)
    }

    #[test]
    fn the_filter_asks_for_each_list_the_server_announces_changes_of() {
        for (lists, expected) in [
            (&["tools"][..], json!({"toolsListChanged": true})),
            (&["prompts"][..], json!({"promptsListChanged": true})),
            (&["resources"][..], json!({"resourcesListChanged": true})),
            (
                &["tools", "prompts", "resources"][..],
                json!({"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true}),
            ),
        ] {
            let f = filter(lists, &[], &[]).expect("something to listen for");
            assert_eq!(serde_json::to_value(f).ok(), Some(expected), "{lists:?}");
        }
        // `listChanged: false`, or a list without the flag, is not asked for.
        let caps: ServerCapabilities = serde_json::from_value(
            json!({"tools": {"listChanged": false}, "prompts": {}, "resources": {"subscribe": true}}),
        )
        .expect("capabilities");
        assert_eq!(listen_filter(&caps, [].iter(), vec![]), None);
    }

    #[test]
    fn the_filter_names_the_resources_subscribed_to_and_the_tasks_followed() {
        let f = filter(&[], &["file:///a", "file:///b"], &["t1"]).expect("resources");
        assert_eq!(
            serde_json::to_value(f).ok(),
            Some(json!({"resourceSubscriptions": ["file:///a", "file:///b"], "taskIds": ["t1"]}))
        );
        let f = filter(&["tools"], &[], &["t1", "t2"]).expect("tools");
        assert_eq!(f.task_ids, Some(vec!["t1".into(), "t2".into()]));
        assert_eq!(f.resource_subscriptions, None, "none subscribed to");
        assert_eq!(filter(&["tools"], &[], &[]).and_then(|f| f.task_ids), None);
    }

    #[test]
    fn followed_tasks_alone_open_no_stream() {
        assert_eq!(filter(&[], &[], &["t1"]), None);
        assert_eq!(filter(&[], &[], &[]), None);
    }

    #[test]
    fn the_open_stream_serves_while_it_asked_for_what_is_wanted() {
        let tools = filter(&["tools"], &[], &[]);
        let more = filter(&["tools"], &["file:///a"], &[]);
        assert!(stream_serves(false, true, tools.as_ref(), tools.as_ref()));
        assert!(
            !stream_serves(true, true, tools.as_ref(), tools.as_ref()),
            "asked anew"
        );
        assert!(
            !stream_serves(false, false, tools.as_ref(), tools.as_ref()),
            "over"
        );
        assert!(
            !stream_serves(false, true, tools.as_ref(), more.as_ref()),
            "wants more"
        );
        assert!(
            !stream_serves(false, true, more.as_ref(), tools.as_ref()),
            "wants less"
        );
        assert!(
            !stream_serves(false, true, None, None),
            "nothing wanted: the stream open now closes"
        );
    }

    #[test]
    fn the_end_of_an_ordinary_request_changes_nothing() {
        let mut acks = ListenAcks::default();
        acks.ended(A, None);
        assert!(acks.acknowledged.is_empty() && acks.waiting.is_empty());
    }
}
