//! Era negotiation and (re)connection: `server/discover` first, `initialize` as the legacy
//! fallback, the 2024-11-05 HTTP+SSE transport as the last resort, and the legacy GET stream.

use super::*;
use crate::bidi::Isolated;
use crate::jsonrpc::codes;
use crate::types::{DiscoverResult, InitializeResult, LEGACY_VERSIONS, MODERN_VERSIONS};

impl Session {
    /// Starts era detection: probe with `server/discover` unless the caller remembers a
    /// legacy server.
    pub(super) fn start_handshake(&mut self, now: Instant) {
        if self.config.era_hint == Some(Era::Legacy) && !self.probed {
            self.start_initialize(now);
        } else if !self.connect_from_kept_discover(now) {
            self.start_probe(now);
        }
    }

    /// Connects in the modern era from the `server/discover` result the caller kept
    /// ([`SessionConfig::known_discover`]), sending nothing; `false` if there is none that
    /// can be used. Streamable HTTP only: the other wires have their own openings.
    fn connect_from_kept_discover(&mut self, now: Instant) -> bool {
        if self.probed || self.wire != WireProtocol::StreamableHttp {
            return false;
        }
        // Taken: a later connection (after logging in, after a failure) probes.
        let Some(kept) = self.config.known_discover.take() else {
            return false;
        };
        let Ok(d) = DiscoverResult::deserialize(&kept) else {
            return false;
        };
        let Some(version) = d.modern_version() else {
            return false;
        };
        self.discover_unverified = true;
        // Every connection goes through `Connecting`, this one too (for an instant), so that
        // an application sees the same states whichever way it connected.
        self.set_phase(Phase::Probing);
        self.become_modern(version, d, now);
        true
    }

    /// Whether the first answer after connecting from a kept discover result shows that the
    /// server is no longer what that result described (and clears the doubt once it is
    /// answered in the modern era). A JSON-RPC error other than an unsupported version is a
    /// modern answer; HTTP refusals other than for authorization, an unreachable server, a
    /// body that is not MCP or a cut stream are not.
    pub(super) fn kept_discover_refuted(&mut self, outcome: &Result<Value, RequestError>) -> bool {
        let refuted = match outcome {
            Ok(_) => false,
            Err(RequestError::Rpc(e)) => e.code == codes::UNSUPPORTED_PROTOCOL_VERSION,
            Err(RequestError::Http { status, .. }) => !matches!(status, 401 | 403),
            Err(
                RequestError::Transport(_) | RequestError::Protocol(_) | RequestError::StreamCut,
            ) => true,
            // Not an answer from the server (or one about authorization): still unconfirmed.
            Err(_) => return false,
        };
        self.discover_unverified = false;
        refuted
    }

    /// The kept discover result was refuted: probe as for an unknown server (the spec: probe
    /// again when a cached era fails), and send every request that was in flight again once
    /// connected. The application learns what the server is now from the events that follow
    /// ([`Event::Discovered`], [`Event::Connected`] or [`Event::ConnectFailed`]).
    pub(super) fn reprobe_after_kept_discover(&mut self, key: u64, now: Instant) {
        if let Some(p) = self.pending.get_mut(&key) {
            p.state = PendingState::InFlight(None);
        }
        self.requeue_in_flight();
        self.cache.clear();
        self.start_probe(now);
    }

    fn start_probe(&mut self, now: Instant) {
        self.probed = true;
        self.flavor = Flavor::Unknown;
        self.set_phase(Phase::Probing);
        // A probe again (another version): what went alongside the last one goes again.
        self.requeue_speculative();
        let opts = RequestOptions::default();
        let key = self.add_pending(Internal::Probe, "server/discover".into(), None, &opts, now);
        self.send_pending(key, now);
        if self.wire == WireProtocol::Frames {
            self.schedule(now + self.config.probe_timeout, Timer::ProbeTimeout);
        }
        let waiting: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| {
                p.internal == Internal::No
                    && matches!(p.state, PendingState::Queued)
                    && self.may_speculate(&p.method)
            })
            .map(|(k, _)| *k)
            .collect();
        for key in waiting {
            self.send_pending(key, now);
        }
    }

    /// Whether a request with this method goes out alongside the era probe rather than
    /// waiting for it. Streamable HTTP's backward compatibility makes the first modern
    /// request the probe, and `server/discover` optional (2026-07-28, versioning): so the
    /// listings an application asks for while the probe is under way are sent at once, in
    /// the modern era, and a modern server answers both in one round trip. Only listings:
    /// they change nothing, so a legacy server that runs one anyway (a stateless one may)
    /// does no harm, and they are sent again once it is connected. Never a tool call or
    /// anything else that acts.
    pub(super) fn may_speculate(&self, method: &str) -> bool {
        self.phase == Phase::Probing
            && self.wire == WireProtocol::StreamableHttp
            && self.flavor == Flavor::Unknown
            && matches!(
                method,
                "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list"
            )
    }

    /// The requests sent alongside the probe (and not settled yet).
    fn speculative_keys(&self) -> Vec<u64> {
        self.pending
            .iter()
            .filter(|(_, p)| p.speculative.is_some())
            .map(|(k, _)| *k)
            .collect()
    }

    /// Takes the requests sent alongside the probe off the wire (their exchanges aborted,
    /// answers held for the probe dropped) and queues them, to be sent again once connected.
    pub(super) fn requeue_speculative(&mut self) {
        for key in self.speculative_keys() {
            self.requeue(key);
        }
    }

    /// The probe found a modern server: the requests sent alongside it in the version now
    /// spoken stand (an answer held for the probe is delivered now), the others (sent in
    /// another version) go again.
    fn settle_speculation(&mut self, now: Instant) {
        let version = self.modern_version().map(String::from);
        for key in self.speculative_keys() {
            let Some(p) = self.pending.get_mut(&key) else {
                continue;
            };
            if p.speculative != version {
                self.requeue(key);
                continue;
            }
            p.speculative = None;
            if matches!(p.state, PendingState::Held(_)) {
                let held = core::mem::replace(&mut p.state, PendingState::InFlight(None));
                if let PendingState::Held(outcome) = held {
                    self.finish(key, outcome, Some(now));
                }
            }
        }
    }

    pub(super) fn start_initialize(&mut self, now: Instant) {
        self.flavor = Flavor::Unknown;
        self.set_phase(Phase::Initializing);
        let params = serde_json::json!({
            "protocolVersion": LEGACY_VERSIONS[0],
            "capabilities": self.config.capabilities,
            "clientInfo": self.config.client_info,
        });
        let opts = RequestOptions::default();
        let key = self.add_pending(
            Internal::Initialize,
            "initialize".into(),
            Some(params),
            &opts,
            now,
        );
        self.send_pending(key, now);
    }

    /// Opens the 2024-11-05 HTTP+SSE stream; `initialize` follows the `endpoint` event.
    pub(super) fn open_http_sse(&mut self, _now: Instant) {
        self.tried_http_sse = true;
        self.wire = WireProtocol::HttpSse;
        self.flavor = Flavor::Unknown;
        self.set_phase(Phase::AwaitingEndpoint);
        let mut h = self.base_headers();
        h.push(("Accept".into(), "text/event-stream".into()));
        let tid = self.push_http(
            Purpose::SseMain,
            HttpMethod::Get,
            self.config.endpoint.clone(),
            h,
            None,
        );
        self.sse_main = Some(tid);
    }

    /// The `endpoint` event of the HTTP+SSE transport arrived.
    pub(super) fn on_endpoint_event(&mut self, data: &str, now: Instant) {
        let base = crate::weburl::parse(&self.config.endpoint);
        let joined = base.as_ref().ok().and_then(|b| {
            crate::weburl::join(b, data.trim())
                .ok()
                .map(|u| (b.clone(), u))
        });
        match joined {
            Some((base, url)) if base.same_origin(&url) => {
                self.post_url = url.into();
                if self.phase == Phase::AwaitingEndpoint {
                    self.start_initialize(now);
                }
            }
            _ => {
                let err = RequestError::Protocol(alloc::format!(
                    "the endpoint event names {data:?}, which is not a URL on the server's origin"
                ));
                self.fail_connect(err);
            }
        }
    }

    pub(super) fn on_probe_outcome(&mut self, outcome: Result<Value, RequestError>, now: Instant) {
        self.timers
            .retain(|(_, t)| !matches!(t, Timer::ProbeTimeout));
        if self.phase != Phase::Probing {
            return;
        }
        match outcome {
            Ok(value) => match DiscoverResult::deserialize(&value) {
                Ok(d) => {
                    if let Some(v) = d.modern_version() {
                        self.announce_discovered(value);
                        self.become_modern(v, d, now);
                    } else if d
                        .supported_versions
                        .iter()
                        .any(|s| LEGACY_VERSIONS.contains(&s.as_str()))
                    {
                        self.fall_back_to_initialize(now);
                    } else {
                        let list = Isolated(d.supported_versions.join(", "));
                        self.fail_connect(RequestError::Unavailable(alloc::format!(
                            "the server supports only protocol versions [{list}], none of which this client speaks"
                        )));
                    }
                }
                // Not a discover result: not a modern server.
                Err(_) => self.fall_back_to_initialize(now),
            },
            Err(RequestError::Rpc(e)) if e.code == codes::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported: Vec<String> = e
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(|s| Deserialize::deserialize(s).ok())
                    .unwrap_or_default();
                // Prefer another version we speak; else the same one again (the server may
                // have refused it in passing): either way, one retry only.
                let offered = |v: &&&str| supported.iter().any(|s| s == **v);
                let modern = MODERN_VERSIONS
                    .iter()
                    .find(|v| offered(v) && **v != self.probe_version)
                    .or_else(|| MODERN_VERSIONS.iter().find(|v| offered(v)));
                match modern {
                    Some(v) if !self.probe_retried => {
                        self.probe_retried = true;
                        self.probe_version = (*v).into();
                        self.start_probe(now);
                    }
                    _ if supported.iter().any(|s| LEGACY_VERSIONS.contains(&s.as_str())) => self.fall_back_to_initialize(now),
                    _ => self.fail_connect(RequestError::Unavailable(alloc::format!(
                        "the server supports only protocol versions [{}], none of which this client speaks",
                        Isolated(supported.join(", "))
                    ))),
                }
            }
            Err(RequestError::Rpc(e)) if codes::is_modern_protocol_error(e.code) => {
                self.fail_connect(RequestError::Rpc(e));
            }
            Err(RequestError::Http {
                status: 401 | 403, ..
            }) => self.set_phase(Phase::AuthRequired),
            Err(e @ RequestError::Transport(_)) => {
                // Maybe a legacy server whose CORS rules reject the modern headers: try it.
                self.probe_transport_failure = Some(e);
                self.fall_back_to_initialize(now);
            }
            Err(RequestError::Unavailable(_) | RequestError::Closed | RequestError::Cancelled) => {}
            Err(_) => self.fall_back_to_initialize(now),
        }
    }

    /// The probe found no modern server: `initialize` next, or, when `initialize` was refused
    /// just before the probe (sent first on a remembered era), what follows that refusal.
    fn fall_back_to_initialize(&mut self, now: Instant) {
        match self.hinted_refusal.take() {
            None => self.start_initialize(now),
            Some(refusal) => {
                self.set_phase(Phase::Initializing);
                self.on_initialize_outcome(Err(refusal), now);
            }
        }
    }

    pub(super) fn on_initialize_outcome(
        &mut self,
        outcome: Result<Value, RequestError>,
        now: Instant,
    ) {
        if self.phase != Phase::Initializing {
            return;
        }
        match outcome {
            Ok(value) => match InitializeResult::deserialize(&value) {
                Ok(init) if LEGACY_VERSIONS.contains(&init.protocol_version.as_str()) => {
                    self.become_legacy(init, now)
                }
                Ok(init) => self.fail_connect(RequestError::Unavailable(alloc::format!(
                    "the server chose protocol version {:?}, which this client does not speak",
                    init.protocol_version
                ))),
                Err(e) => self.fail_connect(RequestError::Protocol(alloc::format!(
                    "malformed initialize result: {}",
                    Isolated(e)
                ))),
            },
            Err(RequestError::Http {
                status: 401 | 403, ..
            }) => self.set_phase(Phase::AuthRequired),
            // `initialize` went first because this server was remembered as legacy, and it
            // was refused: the server may have changed era, so probe now as for an unknown
            // server (the spec: re-probe when a cached era fails), whatever the refusal looks
            // like (a modern server need not answer `initialize` with a modern error code).
            Err(e @ (RequestError::Rpc(_) | RequestError::Http { .. }))
                if self.config.era_hint == Some(Era::Legacy)
                    && !self.probed
                    && !self.tried_http_sse =>
            {
                self.hinted_refusal = Some(e);
                self.start_probe(now);
            }
            Err(RequestError::Http {
                status: 400 | 404 | 405,
                ..
            }) if self.config.transport == TransportMode::Auto
                && self.wire == WireProtocol::StreamableHttp
                && !self.tried_http_sse =>
            {
                self.open_http_sse(now);
            }
            Err(e @ RequestError::Transport(_)) => {
                let first = self.probe_transport_failure.take();
                self.fail_connect(first.unwrap_or(e));
            }
            Err(RequestError::Unavailable(_) | RequestError::Closed | RequestError::Cancelled) => {}
            Err(e) => self.fail_connect(e),
        }
    }

    /// Emits [`Event::Discovered`] with the result's caching hints (2026-07-28 "Caching":
    /// only a complete result is cacheable; a missing, negative or non-integer `ttlMs` means
    /// immediately stale).
    fn announce_discovered(&mut self, result: Value) {
        let complete = result
            .get("resultType")
            .is_none_or(|t| t.as_str() == Some("complete"));
        let (ttl, public) = cache::caching_hints(&result);
        let fresh_for = if complete {
            ttl
        } else {
            Duration::from_millis(0)
        };
        self.emit(Event::Discovered {
            result,
            fresh_for,
            public,
        });
    }

    fn become_modern(&mut self, version: &str, d: DiscoverResult, now: Instant) {
        self.flavor = Flavor::Modern {
            version: version.into(),
        };
        let details = ServerDetails {
            era: Era::Modern,
            protocol_version: version.into(),
            wire: self.wire,
            server_info: d.server_info().unwrap_or_default(),
            capabilities: d.capabilities,
            instructions: d.instructions,
        };
        self.connected(details, now);
    }

    fn become_legacy(&mut self, init: InitializeResult, now: Instant) {
        let session_id = self.pending_session_id.take();
        self.flavor = Flavor::Legacy {
            version: init.protocol_version.clone(),
            session_id,
        };
        let details = ServerDetails {
            era: Era::Legacy,
            protocol_version: init.protocol_version,
            wire: self.wire,
            server_info: init.server_info,
            capabilities: init.capabilities,
            instructions: init.instructions,
        };
        self.notify("notifications/initialized", None);
        if self.wire != WireProtocol::Frames {
            // Wait for the server to accept `notifications/initialized` before sending anything
            // else: servers (server-everything among them) add tools when it arrives, and a
            // `tools/list` racing ahead of it would miss them.
            let tid = TransmitId(self.next_transmit - 1);
            self.awaiting_initialized = Some((tid, details));
            self.initialized_acked = false;
            // Open the GET stream now; requests that may make the server send something on
            // it wait for its answer (see `may_send`): servers send requests (elicitation,
            // sampling) that belong to no request on it, and drop them while it is not open.
            self.awaiting_get_head = false;
            if self.wire == WireProtocol::StreamableHttp && self.config.open_get_stream {
                self.get_reconnects = 0;
                self.open_get_stream();
                self.awaiting_get_head = self.get_stream.is_some();
            }
            // Do not wait forever on a server that never answers the notification (nor on a
            // GET stream that never answers; one timer, this handshake's).
            self.cancel_initialized_wait();
            self.schedule(now + self.config.probe_timeout, Timer::InitializedWait);
            return;
        }
        self.finish_legacy_handshake(details, now);
    }

    /// Ends the legacy handshake once the server accepted `notifications/initialized`.
    /// Requests that need the GET stream wait for it to answer as well (see
    /// [`Session::get_stream_answered`]).
    pub(super) fn try_finish_handshake(&mut self, now: Instant) {
        if !self.initialized_acked {
            return;
        }
        if let Some((_, details)) = self.awaiting_initialized.take() {
            if !self.get_head_pending() {
                self.cancel_initialized_wait();
            }
            if self.phase == Phase::Initializing {
                self.finish_legacy_handshake(details, now);
            }
        }
    }

    /// The GET stream opened with the handshake answered (or failed, or is given up on):
    /// the requests held for it go out.
    pub(super) fn get_stream_answered(&mut self, now: Instant) {
        if !self.awaiting_get_head {
            return;
        }
        self.awaiting_get_head = false;
        if self.awaiting_initialized.is_none() {
            self.cancel_initialized_wait();
        }
        if self.phase == Phase::Ready {
            self.send_queued(now);
        }
    }

    fn cancel_initialized_wait(&mut self) {
        self.timers
            .retain(|(_, t)| !matches!(t, Timer::InitializedWait));
    }

    /// The handshake's GET stream is open but has not answered yet.
    pub(super) fn get_head_pending(&self) -> bool {
        self.awaiting_get_head && self.get_stream.is_some()
    }

    /// Whether a request with this method may be sent now. Once connected, everything may,
    /// except while the handshake's GET stream has not answered: servers drop the requests
    /// that belong to no client request (elicitation, sampling, roots) while that stream is
    /// not open, and a tool call or a read may make them send one. Listings, `ping` and
    /// completions make them send nothing of the kind, so they go out at once: the first
    /// `tools/list` does not wait a round trip for the GET stream.
    pub(super) fn may_send(&self, method: &str) -> bool {
        self.phase == Phase::Ready
            && (!self.get_head_pending()
                || matches!(
                    method,
                    "tools/list"
                        | "resources/list"
                        | "resources/templates/list"
                        | "prompts/list"
                        | "ping"
                        | "completion/complete"
                ))
    }

    /// Sends the queued requests that may go out now.
    fn send_queued(&mut self, now: Instant) {
        let queued: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| matches!(p.state, PendingState::Queued) && self.may_send(&p.method))
            .map(|(k, _)| *k)
            .collect();
        for key in queued {
            self.send_pending(key, now);
        }
    }

    /// The legacy handshake is complete: connected, GET stream, log level.
    pub(super) fn finish_legacy_handshake(&mut self, details: ServerDetails, now: Instant) {
        let has_logging = details.capabilities.logging.is_some();
        self.connected(details, now);
        // Opened now unless it was refused for want of credentials during the handshake
        // (then it is asked for again once they change, see `set_extra_headers`).
        if self.wire == WireProtocol::StreamableHttp
            && self.config.open_get_stream
            && !self.get_awaits_credentials
        {
            self.get_reconnects = 0;
            self.open_get_stream();
        }
        if let (Some(level), true) = (self.config.log_level, has_logging) {
            self.send_quiet(
                "logging/setLevel",
                serde_json::json!({ "level": level }),
                now,
            );
        }
        // A fresh session (after one was lost, or connecting again) knows nothing of the
        // subscriptions made in the one before: without this the server's updates would stop.
        for uri in self.legacy_subscriptions.clone() {
            self.send_quiet(
                "resources/subscribe",
                serde_json::json!({ "uri": uri }),
                now,
            );
        }
    }

    /// Sends a request of the session's own whose answer nobody waits for (a failure is a
    /// warning), now or once the handshake lets it go.
    fn send_quiet(&mut self, method: &str, params: Value, now: Instant) {
        let opts = RequestOptions::default();
        let key = self.add_pending(Internal::Quiet, method.into(), Some(params), &opts, now);
        if self.may_send(method) {
            self.send_pending(key, now);
        }
    }

    /// A `resources/subscribe` or `resources/unsubscribe` succeeded: the legacy subscriptions
    /// to make again in a fresh session follow it.
    pub(super) fn note_subscription(&mut self, method: &str, params: Option<&Value>) {
        let Some(uri) = params.and_then(|p| p["uri"].as_str()) else {
            return;
        };
        let subscriptions = &mut self.legacy_subscriptions;
        if method == "resources/subscribe" {
            if !subscriptions.iter().any(|u| u == uri) {
                subscriptions.push(uri.into());
            }
        } else {
            subscriptions.retain(|u| u != uri);
        }
    }

    fn connected(&mut self, details: ServerDetails, now: Instant) {
        self.frames_reopens = 0;
        self.details = Some(details.clone());
        self.set_phase(Phase::Ready);
        self.emit(Event::Connected(alloc::boxed::Box::new(details)));
        self.settle_speculation(now);
        self.send_queued(now);
    }

    pub(super) fn fail_connect(&mut self, err: RequestError) {
        self.set_phase(Phase::Failed);
        let keys: Vec<u64> = self.pending.keys().copied().collect();
        for key in keys {
            self.abandon(key, "connection failed");
            self.finish_err(
                key,
                RequestError::Unavailable(alloc::format!("not connected: {err}")),
            );
        }
        self.emit(Event::ConnectFailed(err));
    }

    /// Headers of a legacy GET (the standalone stream, or a resumption), or `None` outside a
    /// legacy session.
    pub(super) fn legacy_get_headers(
        &self,
        last_event_id: Option<String>,
    ) -> Option<Vec<(String, String)>> {
        let Flavor::Legacy {
            version,
            session_id,
        } = &self.flavor
        else {
            return None;
        };
        let mut h = self.base_headers();
        h.push(("Accept".into(), "text/event-stream".into()));
        // Meaningless on a GET, and harmless: it makes a browser's CORS preflight for this GET
        // ask for the same headers as the session's POSTs. Browsers keep one preflight result
        // per URL, so a GET preflight that asked for fewer headers would replace the POSTs'
        // and cost the next POST a preflight round trip of its own.
        h.push(("Content-Type".into(), "application/json".into()));
        if version.as_str() >= "2025-06-18" {
            h.push(("MCP-Protocol-Version".into(), version.clone()));
        }
        if let Some(sid) = session_id {
            h.push(("Mcp-Session-Id".into(), sid.clone()));
        }
        if let Some(id) = last_event_id {
            h.push(("Last-Event-ID".into(), id));
        }
        Some(h)
    }

    /// Opens (or reopens) the legacy standalone GET stream.
    pub(super) fn open_get_stream(&mut self) {
        let handshake = self.phase == Phase::Initializing && self.awaiting_initialized.is_some();
        if !(self.phase == Phase::Ready || handshake) || self.get_stream.is_some() {
            return;
        }
        let last_event_id = self.get_last_event_id.clone();
        let Some(h) = self.legacy_get_headers(last_event_id.clone()) else {
            return;
        };
        let tid = self.push_http(
            Purpose::GetStream,
            HttpMethod::Get,
            self.config.endpoint.clone(),
            h,
            None,
        );
        if let Some(ex) = self.exchanges.get_mut(&tid) {
            ex.resumed_from = last_event_id;
        }
        self.get_stream = Some(tid);
        self.get_awaits_credentials = false;
        self.get_authorization = authorization(&self.config.extra_headers).map(String::from);
    }

    /// Takes the application's requests that are on the wire off it (their exchanges
    /// aborted) and queues them, to be sent again once connected.
    fn requeue_in_flight(&mut self) {
        let in_flight: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| {
                p.internal == Internal::No
                    && !matches!(
                        p.state,
                        PendingState::Queued | PendingState::AwaitingInput { .. }
                    )
            })
            .map(|(k, _)| *k)
            .collect();
        for key in in_flight {
            self.requeue(key);
        }
    }

    /// Takes one request off the wire (its exchange aborted, a held answer dropped) and
    /// queues it.
    fn requeue(&mut self, key: u64) {
        if let Some(PendingState::InFlight(Some(tid))) = self.pending.get(&key).map(|p| &p.state) {
            let tid = *tid;
            self.exchanges.remove(&tid);
            self.out.push_back(Output::Abort(tid));
        }
        if let Some(p) = self.pending.get_mut(&key) {
            p.state = PendingState::Queued;
            p.speculative = None;
        }
    }

    /// The legacy session is gone (404, or 400 naming the session): start one fresh
    /// `initialize` and replay what was in flight; give up if that already happened.
    pub(super) fn on_session_lost(&mut self, now: Instant) {
        if matches!(self.phase, Phase::Initializing | Phase::AwaitingEndpoint) {
            return;
        }
        if self.reinit_used {
            self.set_phase(Phase::Failed);
            for key in self.pending.keys().copied().collect::<Vec<_>>() {
                self.abandon(key, "session lost");
                self.finish_err(key, RequestError::SessionLost);
            }
            self.emit(Event::ConnectFailed(RequestError::SessionLost));
            return;
        }
        self.reinit_used = true;
        self.requeue_in_flight();
        if let Some(tid) = self.get_stream.take() {
            self.exchanges.remove(&tid);
            self.out.push_back(Output::Abort(tid));
        }
        self.timers
            .retain(|(_, t)| !matches!(t, Timer::ReopenGet | Timer::Resume { .. }));
        self.get_last_event_id = None;
        self.get_retry_ms = None;
        if let Flavor::Legacy { session_id, .. } = &mut self.flavor {
            *session_id = None;
        }
        if self.wire == WireProtocol::HttpSse {
            if let Some(tid) = self.sse_main.take() {
                self.exchanges.remove(&tid);
                self.out.push_back(Output::Abort(tid));
            }
            self.open_http_sse(now);
        } else {
            self.start_initialize(now);
        }
    }
}
