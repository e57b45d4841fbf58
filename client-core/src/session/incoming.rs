//! What comes back: response heads and bodies (JSON or SSE), frames, and the messages in them.

use super::exchange::{Body, ERROR_BODY_LIMIT};
use super::*;
use crate::error_body::excerpt;
use crate::jsonrpc::{codes, Response};
use crate::sse::{SseDecoder, SseEventRef};
use crate::types::{ServerNotification, ServerRequest};

impl Session {
    /// How long to wait before opening a lost stream or connection again after `attempts`
    /// attempts: `default_retry`, doubled with each attempt (at most 64 times it).
    fn backoff(&self, attempts: u32) -> Duration {
        Duration::from_millis(self.config.default_retry.as_millis() << attempts.min(6))
    }
}

/// A GET stream that stayed open this long ended for a passing reason: the attempts to open
/// it again start over (milliseconds).
const GET_STREAM_LASTED_MS: u64 = 30_000;

impl Session {
    pub(super) fn on_head(&mut self, tid: TransmitId, head: ResponseHead, now: Instant) {
        let max = self.config.max_message_bytes;
        let Some(ex) = self.exchanges.get_mut(&tid) else {
            return;
        };
        let status = head.status;
        let media = head.media_type();
        let www = head.header("www-authenticate").map(String::from);
        let purpose = ex.purpose;
        if purpose == Purpose::GetStream {
            self.get_stream_answered(now);
            if (200..300).contains(&status) {
                self.get_opened_at = now;
            }
        }
        let Some(ex) = self.exchanges.get_mut(&tid) else {
            return;
        };
        if let Purpose::Call(key) = purpose {
            if self
                .pending
                .get(&key)
                .is_some_and(|p| p.internal == Internal::Initialize)
            {
                self.pending_session_id = head.header("mcp-session-id").map(String::from);
            }
        }
        let resume_id = match purpose {
            Purpose::GetStream => self.get_last_event_id.clone(),
            _ => None,
        };
        ex.head = Some(head);
        let auth = status == 401
            || (status == 403
                && www
                    .as_deref()
                    .is_some_and(|w| w.contains("insufficient_scope")));
        if auth && purpose != Purpose::Fire {
            self.exchanges.remove(&tid);
            self.out.push_back(Output::Abort(tid));
            // A listing sent alongside the probe is refused as the probe will be: the
            // probe's refusal is the one announced (and the listing waits for the login).
            let alongside_probe = matches!(purpose, Purpose::Call(key)
                if self.phase == Phase::Probing
                    && self.pending.get(&key).is_some_and(|p| p.speculative.is_some()));
            if !alongside_probe {
                self.emit(Event::AuthRequired {
                    status,
                    www_authenticate: www.clone(),
                });
            }
            let err = RequestError::Http {
                status,
                body: String::new(),
                www_authenticate: www,
            };
            match purpose {
                Purpose::Call(key) | Purpose::Resume(key) => self.finish(key, Err(err), Some(now)),
                Purpose::SseMain => {
                    self.sse_main = None;
                    self.set_phase(Phase::AuthRequired);
                }
                Purpose::GetStream => {
                    self.get_stream = None;
                    // Opened again with other credentials: at once if they changed while
                    // this stream was being refused, else once they do.
                    if authorization(&self.config.extra_headers)
                        == self.get_authorization.as_deref()
                    {
                        self.get_awaits_credentials = true;
                    } else {
                        self.open_get_stream();
                    }
                }
                _ => {}
            }
            return;
        }
        let body = if !(200..300).contains(&status) {
            Body::Error(Vec::new())
        } else if status == 202 || status == 204 {
            Body::Discard
        } else {
            match media.as_deref() {
                Some("text/event-stream") => {
                    Body::Sse(SseDecoder::with_last_event_id(max, resume_id))
                }
                Some("application/json") if matches!(purpose, Purpose::Call(_) | Purpose::Fire) => {
                    Body::Json(Vec::new())
                }
                _ if purpose == Purpose::Fire || purpose == Purpose::Delete => Body::Discard,
                Some("text/html") => {
                    let what = "the server answered with a web page (content type \"text/html\") where JSON or an event stream was expected: the address may be a website's rather than an MCP endpoint, or a proxy's or login page stood in for the server".into();
                    self.fail_exchange(tid, RequestError::Protocol(what), now);
                    return;
                }
                other => {
                    let what = alloc::format!(
                        "the server answered with content type {:?} where JSON or an event stream was expected",
                        other.unwrap_or("(none)")
                    );
                    self.fail_exchange(tid, RequestError::Protocol(what), now);
                    return;
                }
            }
        };
        let accepted_request = matches!(body, Body::Discard) && matches!(purpose, Purpose::Call(_));
        if let Some(ex) = self.exchanges.get_mut(&tid) {
            ex.body = body;
        }
        if accepted_request && self.wire == WireProtocol::StreamableHttp {
            self.fail_exchange(
                tid,
                RequestError::Protocol(alloc::format!(
                    "HTTP {status} with no body in answer to a request"
                )),
                now,
            );
        } else if accepted_request {
            // 2024-11-05: the response will come on the SSE stream.
            if let Purpose::Call(key) = purpose {
                if let Some(p) = self.pending.get_mut(&key) {
                    if matches!(p.state, PendingState::InFlight(Some(t)) if t == tid) {
                        p.state = PendingState::InFlight(None);
                    }
                }
            }
        }
    }

    /// Ends an exchange early with an error for whatever it carried.
    fn fail_exchange(&mut self, tid: TransmitId, err: RequestError, now: Instant) {
        let Some(ex) = self.exchanges.remove(&tid) else {
            return;
        };
        self.out.push_back(Output::Abort(tid));
        match ex.purpose {
            Purpose::Call(key) | Purpose::Resume(key) => {
                if self.is_current(key, tid) {
                    self.finish(key, Err(err), Some(now));
                }
            }
            Purpose::SseMain => {
                self.sse_main = None;
                if self.phase == Phase::AwaitingEndpoint {
                    self.fail_connect(err);
                }
            }
            Purpose::GetStream => {
                self.get_stream = None;
                self.emit(Event::Warning(alloc::format!(
                    "the server's event stream failed: {err}"
                )));
                // A GET stream that failed before answering no longer holds requests up.
                self.get_stream_answered(now);
            }
            Purpose::Fire | Purpose::Delete => {}
        }
    }

    /// The request whose answer exchange `tid` carries: under way, or ended with its JSON
    /// body being dispatched.
    fn request_answered_by(&self, tid: TransmitId) -> Option<u64> {
        match self.exchanges.get(&tid).map(|ex| ex.purpose) {
            Some(Purpose::Call(key)) => Some(key),
            Some(_) => None,
            None => self
                .dispatching
                .as_ref()
                .filter(|d| d.tid == tid)
                .map(|d| d.call),
        }
    }

    fn is_current(&self, key: u64, tid: TransmitId) -> bool {
        self.pending
            .get(&key)
            .is_some_and(|p| matches!(p.state, PendingState::InFlight(Some(t)) if t == tid))
    }

    pub(super) fn on_chunk(&mut self, tid: TransmitId, bytes: &[u8], now: Instant) {
        let max = self.config.max_message_bytes;
        let Some(ex) = self.exchanges.get_mut(&tid) else {
            return;
        };
        match &mut ex.body {
            Body::Json(buf) => {
                if buf.len() + bytes.len() > max {
                    self.fail_exchange(tid, RequestError::TooLarge { limit: max }, now);
                    return;
                }
                buf.extend_from_slice(bytes);
            }
            Body::Sse(_) => {
                // The decoder leaves the exchange while its events are handled (they borrow
                // from it and handling needs the whole session); it goes back unless handling
                // ended the exchange.
                let purpose = ex.purpose;
                let Body::Sse(mut dec) = core::mem::replace(&mut ex.body, Body::Pending) else {
                    return;
                };
                dec.push_with(bytes, |ev| {
                    if !self.exchanges.contains_key(&tid) {
                        return; // handling an earlier event ended the exchange
                    }
                    match ev {
                        Ok(ev) => self.on_sse_event(tid, purpose, ev, now),
                        Err(e) => match purpose {
                            Purpose::Call(_) | Purpose::Resume(_) => {
                                self.fail_exchange(tid, RequestError::TooLarge { limit: max }, now);
                            }
                            _ => self.emit(Event::Warning(e.to_string())),
                        },
                    }
                });
                if let Some(ex) = self.exchanges.get_mut(&tid) {
                    ex.body = Body::Sse(dec);
                }
            }
            Body::Error(buf) => {
                let room = ERROR_BODY_LIMIT.saturating_sub(buf.len());
                buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
            }
            Body::Pending | Body::Discard => {}
        }
    }

    fn on_sse_event(
        &mut self,
        tid: TransmitId,
        purpose: Purpose,
        ev: SseEventRef<'_>,
        now: Instant,
    ) {
        if self
            .exchanges
            .get_mut(&tid)
            .is_some_and(|ex| ex.repeats_resumed_event(ev.id))
        {
            return; // replayed from the event named in Last-Event-ID: handled already
        }
        if purpose == Purpose::GetStream {
            if let Some(id) = ev.id {
                if self.get_last_event_id.as_deref() != Some(id) {
                    self.get_last_event_id = Some(String::from(id));
                }
            }
            self.get_reconnects = 0;
        }
        if purpose == Purpose::SseMain && ev.event == Some("endpoint") {
            self.sse_reopens = 0;
            self.on_endpoint_event(ev.data, now);
            return;
        }
        if ev.data.is_empty() || !matches!(ev.event, None | Some("message")) {
            return; // priming event, or an event type that carries no JSON-RPC
        }
        match Message::decode_batch(ev.data.as_bytes(), self.config.max_message_bytes) {
            Ok(msgs) => {
                for m in msgs {
                    self.on_message(m, Some(tid), now);
                }
            }
            Err(e) => {
                let err = RequestError::Protocol(alloc::format!(
                    "malformed message in the event stream: {e}"
                ));
                match purpose {
                    Purpose::Call(_) | Purpose::Resume(_) => self.fail_exchange(tid, err, now),
                    _ => self.emit(Event::Warning(err.to_string())),
                }
            }
        }
    }

    pub(super) fn on_end(
        &mut self,
        tid: TransmitId,
        failure: Option<TransportFailure>,
        now: Instant,
    ) {
        let Some(mut ex) = self.exchanges.remove(&tid) else {
            return;
        };
        if let Body::Sse(dec) = &mut ex.body {
            dec.finish();
        }
        let status = ex.status();
        match ex.purpose {
            Purpose::Delete => {}
            Purpose::Fire => {
                if self
                    .awaiting_initialized
                    .as_ref()
                    .is_some_and(|(t, _)| *t == tid)
                {
                    self.initialized_acked = true;
                    self.try_finish_handshake(now);
                }
                if let Some(f) = failure {
                    self.emit(Event::Warning(alloc::format!(
                        "a message to the server was not delivered: {f:?}"
                    )));
                } else if let (Some(s), Body::Error(body)) = (status, &ex.body) {
                    let text = excerpt(body);
                    self.emit(Event::Warning(alloc::format!(
                        "the server rejected a message with HTTP {s}: {text}"
                    )));
                }
            }
            Purpose::Call(key) | Purpose::Resume(key) => {
                if !self.is_current(key, tid) {
                    return;
                }
                match (failure, &ex.body) {
                    (Some(f), _) if ex.head.is_none() => {
                        self.finish(key, Err(RequestError::Transport(f)), Some(now))
                    }
                    (Some(_), Body::Sse(_)) | (None, Body::Sse(_)) => {
                        let last = ex.last_event_id().map(String::from);
                        let retry = ex.retry_ms();
                        self.stream_cut(key, last, retry, now);
                    }
                    (Some(f), _) => self.finish(key, Err(RequestError::Transport(f)), Some(now)),
                    (None, Body::Json(bytes)) => {
                        match Message::decode_batch(bytes, self.config.max_message_bytes) {
                            Ok(msgs) => {
                                self.dispatching = Some(EndedExchange {
                                    tid,
                                    call: key,
                                    head: if self.config.wire_log {
                                        ex.head.clone()
                                    } else {
                                        None
                                    },
                                });
                                for m in msgs {
                                    self.on_message(m, Some(tid), now);
                                }
                                self.dispatching = None;
                                if self.pending.get(&key).is_some_and(|p| matches!(p.state, PendingState::InFlight(Some(t)) if t == tid)) {
                                    self.finish(key, Err(RequestError::Protocol("the response body did not answer the request".into())), Some(now));
                                }
                            }
                            Err(e) => self.finish(
                                key,
                                Err(RequestError::Protocol(alloc::format!(
                                    "malformed JSON body: {e}"
                                ))),
                                Some(now),
                            ),
                        }
                    }
                    (None, Body::Error(_))
                        if matches!(ex.purpose, Purpose::Resume(_))
                            && matches!(status, Some(502..=504)) =>
                    {
                        // The server is not back yet (a gateway answers for it while it
                        // restarts): try again later from the same event, bounded.
                        self.stream_cut(key, None, None, now);
                    }
                    (None, Body::Error(body)) => {
                        let body = body.clone();
                        let head = ex.head.clone().unwrap_or_default();
                        self.on_error_status(key, tid, &head, &body, now);
                    }
                    (None, _) => {}
                }
            }
            Purpose::GetStream => {
                self.get_stream = None;
                if let Some(id) = ex.last_event_id() {
                    self.get_last_event_id = Some(id.into());
                }
                if let Some(ms) = ex.retry_ms() {
                    self.get_retry_ms = Some(ms);
                }
                match (status, &ex.body) {
                    (Some(405), _) => {} // the server offers no standalone stream
                    (Some(s), Body::Error(body)) => {
                        if self.is_session_lost(s, body) {
                            self.on_session_lost(now);
                        } else if s >= 500
                            && self.phase == Phase::Ready
                            && self.get_reconnects < self.config.max_stream_reconnects
                        {
                            // A server error may pass (a restart, an overloaded proxy): retry, bounded.
                            self.get_reconnects += 1;
                            let delay = self.backoff(self.get_reconnects);
                            self.schedule(now + delay, Timer::ReopenGet);
                        } else if s >= 500 && self.phase == Phase::Ready {
                            // Still failing: opened again once the server answers a request.
                            self.get_given_up = true;
                            self.emit(Event::Warning(alloc::format!(
                                "the server's event stream could not be kept open (HTTP {s}); opened again after the next request answered"
                            )));
                        } else {
                            self.emit(Event::Warning(alloc::format!(
                                "the server refused its event stream: HTTP {s}"
                            )));
                        }
                    }
                    _ => {
                        // A stream that stayed open a while ended for a passing reason (an
                        // idle timeout of a proxy, say): the attempts start over. One that
                        // ends soon after it opened, or never opened (a server restarting),
                        // is opened again later each time, and given up with a warning.
                        let opened = status.is_some_and(|s| (200..300).contains(&s));
                        if opened && (now - self.get_opened_at).as_millis() >= GET_STREAM_LASTED_MS
                        {
                            self.get_reconnects = 0;
                        }
                        if self.phase == Phase::Ready
                            && self.get_reconnects < self.config.max_stream_reconnects
                        {
                            let delay = self
                                .get_retry_ms
                                .map_or(self.backoff(self.get_reconnects), Duration::from_millis);
                            self.get_reconnects += 1;
                            self.schedule(now + delay, Timer::ReopenGet);
                        } else if self.phase == Phase::Ready {
                            self.get_given_up = true;
                            let why = failure.as_ref().map_or_else(
                                || String::from("it kept ending"),
                                |f| RequestError::Transport(f.clone()).to_string(),
                            );
                            self.emit(Event::Warning(alloc::format!(
                                "the server's event stream could not be kept open ({why}); opened again after the next request answered"
                            )));
                        }
                    }
                }
            }
            Purpose::SseMain => {
                self.sse_main = None;
                let err = match (failure, status) {
                    (Some(f), _) => RequestError::Transport(f),
                    (None, Some(s)) if !(200..300).contains(&s) => {
                        let body = match &ex.body {
                            Body::Error(b) => excerpt(b),
                            _ => String::new(),
                        };
                        RequestError::Http {
                            status: s,
                            body,
                            www_authenticate: None,
                        }
                    }
                    _ => RequestError::StreamCut,
                };
                // Opening the stream again after the session was lost: a server restarting
                // (or a proxy in front of it) may refuse for a moment. Tried again a few
                // times, later each time, as a lost GET stream is.
                let passing = match &err {
                    RequestError::Http { status, .. } => *status >= 500,
                    _ => true,
                };
                match self.phase {
                    Phase::AwaitingEndpoint
                        if passing
                            && self.reinit_used
                            && self.sse_reopens < self.config.max_stream_reconnects =>
                    {
                        self.sse_reopens += 1;
                        let delay = ex
                            .retry_ms()
                            .map_or(self.backoff(self.sse_reopens), Duration::from_millis);
                        self.emit(Event::Warning(alloc::format!(
                            "the server's event stream could not be opened again ({err}); trying again in {} ms",
                            delay.as_millis()
                        )));
                        self.schedule(now + delay, Timer::ReopenSse);
                    }
                    Phase::AwaitingEndpoint | Phase::Initializing => self.fail_connect(err),
                    Phase::Ready => self.on_session_lost(now),
                    _ => {}
                }
            }
        }
    }

    fn is_session_lost(&self, status: u16, body: &[u8]) -> bool {
        if self.session_id().is_none() || self.wire != WireProtocol::StreamableHttp {
            return false;
        }
        status == 404
            || (status == 400
                && String::from_utf8_lossy(body)
                    .to_ascii_lowercase()
                    .contains("session"))
    }

    fn on_error_status(
        &mut self,
        key: u64,
        tid: TransmitId,
        head: &ResponseHead,
        body: &[u8],
        now: Instant,
    ) {
        let decoded = Message::decode(body, ERROR_BODY_LIMIT);
        if let (true, Ok(msg)) = (self.config.wire_log, &decoded) {
            // The server's JSON-RPC answer came with an error status (a 2026-07-28 server
            // answers a request it refuses with 400 and an error): logged like any other.
            self.emit(Event::Wire {
                direction: Direction::Received,
                transmit: Some(tid),
                status: Some(head.status),
                headers: head.headers.clone(),
                message: msg.to_value(),
            });
        }
        let internal = self.pending.get(&key).map(|p| p.internal);
        if internal != Some(Internal::Initialize) && self.is_session_lost(head.status, body) {
            if let Some(p) = self.pending.get_mut(&key) {
                p.state = PendingState::InFlight(None);
            }
            self.on_session_lost(now);
            return;
        }
        let session_hidden = matches!(
            &self.flavor,
            Flavor::Legacy {
                session_id: None,
                ..
            }
        ) && self.wire == WireProtocol::StreamableHttp
            && head.status == 400
            && String::from_utf8_lossy(body)
                .to_ascii_lowercase()
                .contains("session");
        if session_hidden {
            self.finish(key, Err(RequestError::SessionHeaderHidden), Some(now));
            return;
        }
        let rpc = match decoded {
            // Connected from a kept discover result and not answered yet: an error tied to no
            // request (`"id": null`) that is no modern protocol error is this HTTP request's
            // refusal by a server outside the modern era (server-everything's "Server not
            // initialized"), so it counts as the HTTP status and refutes the kept result.
            Ok(Message::Response(Response {
                id: None,
                outcome: Err(e),
            })) if self.discover_unverified
                && !crate::jsonrpc::codes::is_modern_protocol_error(e.code) =>
            {
                None
            }
            Ok(Message::Response(Response {
                outcome: Err(e), ..
            })) => Some(e),
            _ => None,
        };
        let err = match rpc {
            Some(e) => RequestError::Rpc(e),
            None => RequestError::Http {
                status: head.status,
                body: excerpt(body),
                www_authenticate: head.header("www-authenticate").map(String::from),
            },
        };
        self.finish(key, Err(err), Some(now));
    }

    /// A response stream ended before its response: resume it (legacy, with an event id),
    /// send the request again (bounded), or give up.
    fn stream_cut(
        &mut self,
        key: u64,
        last_event_id: Option<String>,
        retry_ms: Option<u64>,
        now: Instant,
    ) {
        let legacy = matches!(self.flavor, Flavor::Legacy { .. })
            && self.wire == WireProtocol::StreamableHttp;
        let max_resumes = self.config.max_stream_reconnects;
        let max_reissues = self.config.max_reissues;
        let Some(p) = self.pending.get_mut(&key) else {
            return;
        };
        // A resumption that brought no new event (or none at all) resumes from where the
        // stream before it stopped, after the reconnection time the server set last.
        if retry_ms.is_some() {
            p.resume_retry_ms = retry_ms;
        }
        match last_event_id.or_else(|| p.resume_from.clone()) {
            Some(id) if legacy && p.resumes < max_resumes => {
                p.resumes += 1;
                p.resume_from = Some(id.clone());
                p.state = PendingState::Resuming;
                let delay = p
                    .resume_retry_ms
                    .map_or(self.config.default_retry, Duration::from_millis);
                self.schedule(
                    now + delay,
                    Timer::Resume {
                        key,
                        last_event_id: id,
                    },
                );
            }
            _ if p.internal == Internal::No
                && p.method != "subscriptions/listen"
                && p.reissues < max_reissues =>
            {
                p.reissues += 1;
                self.send_pending(key, now);
            }
            _ => self.finish(key, Err(RequestError::StreamCut), Some(now)),
        }
    }

    /// Reopens a cut response stream with `Last-Event-ID` (legacy Streamable HTTP).
    pub(super) fn resume_stream(&mut self, key: u64, last_event_id: String) {
        if !self
            .pending
            .get(&key)
            .is_some_and(|p| matches!(p.state, PendingState::Resuming))
        {
            return;
        }
        let Some(h) = self.legacy_get_headers(Some(last_event_id.clone())) else {
            return;
        };
        let tid = self.push_http(
            Purpose::Resume(key),
            HttpMethod::Get,
            self.config.endpoint.clone(),
            h,
            None,
        );
        if let Some(ex) = self.exchanges.get_mut(&tid) {
            ex.body = Body::Pending;
            ex.resumed_from = Some(last_event_id);
        }
        if let Some(p) = self.pending.get_mut(&key) {
            p.state = PendingState::InFlight(Some(tid));
        }
    }

    pub(super) fn on_frame(&mut self, bytes: &[u8], now: Instant) {
        match Message::decode_batch(bytes, self.config.max_message_bytes) {
            Ok(msgs) => {
                for m in msgs {
                    self.on_message(m, None, now);
                }
            }
            Err(e) => self.emit(Event::Warning(alloc::format!(
                "malformed message from the server: {e}"
            ))),
        }
    }

    /// The frames connection (WebSocket) closed. Once connected, it is opened again (at once,
    /// then later each time while it cannot be, up to `max_stream_reconnects` attempts in a
    /// row), like a lost event stream: requests on their way fail (the server may or may not
    /// have run them), those made meanwhile wait for the new connection. Before that, or
    /// past the attempts, the connection fails.
    pub(super) fn on_frames_closed(&mut self, why: String, now: Instant) {
        if matches!(self.phase, Phase::Closed | Phase::Failed) {
            return;
        }
        let err = RequestError::Transport(TransportFailure::Network(why));
        let reopening = self.details.is_some()
            && matches!(
                self.phase,
                Phase::Ready | Phase::Opening | Phase::Probing | Phase::Initializing
            );
        if !reopening || self.frames_reopens >= self.config.max_stream_reconnects {
            self.fail_connect(err);
            return;
        }
        self.timers
            .retain(|(_, t)| !matches!(t, Timer::ProbeTimeout | Timer::InitializedWait));
        // Nothing on the closed connection will be answered.
        let lost: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| !matches!(p.state, PendingState::Queued))
            .map(|(k, _)| *k)
            .collect();
        for key in lost {
            match self.pending.get(&key).map(|p| p.internal) {
                Some(Internal::No) => self.finish_err(key, err.clone()),
                _ => {
                    self.remove_pending(key);
                }
            }
        }
        let first = self.phase == Phase::Ready;
        self.set_phase(Phase::Opening);
        if first {
            self.emit(Event::Warning(alloc::format!(
                "the connection closed ({err}); opening it again"
            )));
            self.frames_reopens = 1;
            self.out.push_back(Output::OpenFrames);
        } else {
            let delay = self.backoff(self.frames_reopens);
            self.frames_reopens += 1;
            self.emit(Event::Warning(alloc::format!(
                "the connection could not be opened again ({err}); trying again in {} ms",
                delay.as_millis()
            )));
            self.schedule(now + delay, Timer::ReopenFrames);
        }
    }

    /// One JSON-RPC message from the server, from whichever stream or body carried it.
    pub(super) fn on_message(&mut self, msg: Message, from: Option<TransmitId>, now: Instant) {
        if self.config.wire_log {
            let head = from.and_then(|t| {
                self.exchanges
                    .get(&t)
                    .and_then(|e| e.head.clone())
                    .or_else(|| {
                        self.dispatching
                            .as_ref()
                            .filter(|d| d.tid == t)
                            .and_then(|d| d.head.clone())
                    })
            });
            let (status, headers) =
                head.map_or((None, Vec::new()), |h| (Some(h.status), h.headers));
            self.emit(Event::Wire {
                direction: Direction::Received,
                transmit: from,
                status,
                headers,
                message: msg.to_value(),
            });
        }
        match msg {
            Message::Response(Response {
                id: Some(id),
                outcome,
            }) => {
                let key = self.by_rpc_id.get(&id).copied();
                let live = key.filter(|k| {
                    self.pending.get(k).is_some_and(|p| {
                        matches!(p.state, PendingState::InFlight(_) | PendingState::Resuming)
                    })
                });
                match live {
                    Some(key) => self.finish(key, outcome.map_err(RequestError::Rpc), Some(now)),
                    None => self.emit(Event::Warning(alloc::format!(
                        "ignored a response to unknown request id {id}"
                    ))),
                }
            }
            Message::Response(Response { id: None, outcome }) => {
                // In a request's own answer: that request's refusal (a server that could not
                // read its id).
                let key = from.and_then(|t| self.request_answered_by(t));
                match (key, outcome) {
                    (Some(key), Err(e)) => self.finish(key, Err(RequestError::Rpc(e)), Some(now)),
                    (_, Err(e)) => self.emit(Event::Warning(alloc::format!(
                        "the server reported an error: {e}"
                    ))),
                    (_, Ok(_)) => {}
                }
            }
            Message::Request(req) => self.on_server_request(req, from),
            Message::Notification(n) => self.on_notification(n, now),
        }
    }

    fn on_server_request(&mut self, req: crate::jsonrpc::Request, from: Option<TransmitId>) {
        if req.method == "ping" {
            self.send_fire(Message::result(req.id, Value::Object(Map::new())), "");
            return;
        }
        let caps = &self.config.capabilities;
        let declared = match req.method.as_str() {
            "sampling/createMessage" => caps.sampling.is_some(),
            "elicitation/create" => caps.elicitation.is_some(),
            "roots/list" => caps.roots.is_some(),
            _ => true,
        };
        if !declared {
            let e = ErrorObject::new(
                codes::METHOD_NOT_FOUND,
                alloc::format!("the client did not declare support for {}", req.method),
            );
            self.send_fire(Message::error(Some(req.id), e), "");
            return;
        }
        match ServerRequest::decode(&req.method, req.params) {
            Ok(request) => {
                let id = ServerRequestId(self.next_server_request);
                self.next_server_request += 1;
                self.server_requests
                    .insert(id, ServerRequestOrigin::Legacy(req.id));
                let related =
                    from.and_then(|t| self.exchanges.get(&t))
                        .and_then(|ex| match ex.purpose {
                            Purpose::Call(k) | Purpose::Resume(k) => Some(RequestHandle(k)),
                            _ => None,
                        });
                self.emit(Event::ServerRequest {
                    id,
                    request,
                    related,
                });
            }
            Err(e) => {
                let e =
                    ErrorObject::new(codes::INVALID_PARAMS, alloc::format!("invalid params: {e}"));
                self.send_fire(Message::error(Some(req.id), e), "");
            }
        }
    }

    fn on_notification(&mut self, n: crate::jsonrpc::Notification, now: Instant) {
        let sub_id = n
            .params
            .as_ref()
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta_keys::SUBSCRIPTION_ID))
            .and_then(|v| RequestId::deserialize(v).ok());
        let notification = match ServerNotification::decode(&n.method, n.params) {
            Ok(x) => x,
            Err(e) => {
                self.emit(Event::Warning(alloc::format!(
                    "malformed {} notification: {e}",
                    n.method
                )));
                return;
            }
        };
        // A change makes what the cache holds of it stale before anyone hears of it (an
        // application relisting on this notification must reach the server).
        self.cache.evict_for(&notification);
        match notification {
            ServerNotification::Progress(progress) => {
                let key = self
                    .pending
                    .iter()
                    .find(|(_, p)| p.progress_token.as_ref() == Some(&progress.progress_token))
                    .map(|(k, _)| *k);
                let Some(key) = key else { return };
                let reset = self.config.reset_timeout_on_progress;
                let max = self.config.max_request_duration;
                if let Some(p) = self.pending.get_mut(&key) {
                    if reset {
                        if let Some(t) = p.timeout {
                            let hard = p.started + max;
                            p.deadline = Some(core::cmp::min(now + t, hard));
                        }
                    }
                }
                self.emit(Event::Progress {
                    handle: RequestHandle(key),
                    progress,
                });
            }
            ServerNotification::Cancelled(c) => {
                if let Some(rid) = &c.request_id {
                    self.server_requests
                        .retain(|_, o| !matches!(o, ServerRequestOrigin::Legacy(r) if r == rid));
                }
                self.emit(Event::Notification {
                    subscription: None,
                    notification: ServerNotification::Cancelled(c),
                });
            }
            other => {
                let subscription = sub_id
                    .and_then(|id| self.by_rpc_id.get(&id))
                    .map(|k| RequestHandle(*k));
                self.emit(Event::Notification {
                    subscription,
                    notification: other,
                });
            }
        }
    }
}
