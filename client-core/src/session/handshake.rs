//! Era negotiation and (re)connection: `server/discover` first, `initialize` as the legacy
//! fallback, the 2024-11-05 HTTP+SSE transport as the last resort, and the legacy GET stream.

use super::*;
use crate::jsonrpc::codes;
use crate::types::{DiscoverResult, InitializeResult, LEGACY_VERSIONS, MODERN_VERSIONS};

impl Session {
    /// Starts era detection: probe with `server/discover` unless the caller remembers a
    /// legacy server.
    pub(super) fn start_handshake(&mut self, now: Instant) {
        if self.config.era_hint == Some(Era::Legacy) && !self.probed {
            self.start_initialize(now);
        } else {
            self.start_probe(now);
        }
    }

    fn start_probe(&mut self, now: Instant) {
        self.probed = true;
        self.flavor = Flavor::Unknown;
        self.set_phase(Phase::Probing);
        let opts = RequestOptions::default();
        let key = self.add_pending(Internal::Probe, "server/discover".into(), None, &opts, now);
        self.send_pending(key, now);
        if self.wire == WireProtocol::Frames {
            self.schedule(now + self.config.probe_timeout, Timer::ProbeTimeout);
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
        let base = crate::url_text::parse(&self.config.endpoint);
        let joined = base.as_ref().ok().and_then(|b| {
            crate::url_text::join(b, data.trim())
                .ok()
                .map(|u| (b.clone(), u))
        });
        match joined {
            Some((base, url)) if base.origin() == url.origin() => {
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
                    if let Some(v) = MODERN_VERSIONS
                        .iter()
                        .find(|v| d.supported_versions.iter().any(|s| s == *v))
                    {
                        self.become_modern(v, d, now);
                    } else if d
                        .supported_versions
                        .iter()
                        .any(|s| LEGACY_VERSIONS.contains(&s.as_str()))
                    {
                        self.start_initialize(now);
                    } else {
                        let list = d.supported_versions.join(", ");
                        self.fail_connect(RequestError::Unavailable(alloc::format!(
                            "the server supports only protocol versions [{list}], none of which this client speaks"
                        )));
                    }
                }
                // Not a discover result: not a modern server.
                Err(_) => self.start_initialize(now),
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
                    _ if supported.iter().any(|s| LEGACY_VERSIONS.contains(&s.as_str())) => self.start_initialize(now),
                    _ => self.fail_connect(RequestError::Unavailable(alloc::format!(
                        "the server supports only protocol versions [{}], none of which this client speaks",
                        supported.join(", ")
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
                self.start_initialize(now);
            }
            Err(RequestError::Unavailable(_) | RequestError::Cancelled) => {}
            Err(_) => self.start_initialize(now),
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
                    "malformed initialize result: {e}"
                ))),
            },
            Err(RequestError::Rpc(e))
                if codes::is_modern_protocol_error(e.code) && !self.probed =>
            {
                // The remembered era was wrong: this is a modern server.
                self.start_probe(now);
            }
            Err(RequestError::Http {
                status: 401 | 403, ..
            }) => self.set_phase(Phase::AuthRequired),
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
            Err(RequestError::Unavailable(_) | RequestError::Cancelled) => {}
            Err(e) => self.fail_connect(e),
        }
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
            // Open the GET stream now and wait for its answer too: servers send requests
            // (elicitation, sampling) that belong to no request on it, and drop them while it
            // is not open yet.
            self.awaiting_get_head = false;
            if self.wire == WireProtocol::StreamableHttp && self.config.open_get_stream {
                self.get_reconnects = 0;
                self.open_get_stream();
                self.awaiting_get_head = self.get_stream.is_some();
            }
            // Do not wait forever on a server that never answers the notification.
            self.schedule(now + self.config.probe_timeout, Timer::InitializedWait);
            return;
        }
        self.finish_legacy_handshake(details, now);
    }

    /// Ends the legacy handshake once the server accepted `notifications/initialized` and the
    /// GET stream answered (or failed, or was never opened).
    pub(super) fn try_finish_handshake(&mut self, now: Instant) {
        if !self.initialized_acked || (self.awaiting_get_head && self.get_stream.is_some()) {
            return;
        }
        if let Some((_, details)) = self.awaiting_initialized.take() {
            self.timers
                .retain(|(_, t)| !matches!(t, Timer::InitializedWait));
            if self.phase == Phase::Initializing {
                self.finish_legacy_handshake(details, now);
            }
        }
    }

    /// The legacy handshake is complete: connected, GET stream, log level.
    pub(super) fn finish_legacy_handshake(&mut self, details: ServerDetails, now: Instant) {
        let has_logging = details.capabilities.logging.is_some();
        self.connected(details, now);
        if self.wire == WireProtocol::StreamableHttp && self.config.open_get_stream {
            self.get_reconnects = 0;
            self.open_get_stream();
        }
        if let (Some(level), true) = (self.config.log_level, has_logging) {
            let opts = RequestOptions::default();
            let params = serde_json::json!({ "level": level });
            let key = self.add_pending(
                Internal::Quiet,
                "logging/setLevel".into(),
                Some(params),
                &opts,
                now,
            );
            self.send_pending(key, now);
        }
    }

    fn connected(&mut self, details: ServerDetails, now: Instant) {
        self.details = Some(details.clone());
        self.set_phase(Phase::Ready);
        self.emit(Event::Connected(alloc::boxed::Box::new(details)));
        let queued: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| matches!(p.state, PendingState::Queued))
            .map(|(k, _)| *k)
            .collect();
        for key in queued {
            self.send_pending(key, now);
        }
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
        let Some(h) = self.legacy_get_headers(last_event_id) else {
            return;
        };
        let tid = self.push_http(
            Purpose::GetStream,
            HttpMethod::Get,
            self.config.endpoint.clone(),
            h,
            None,
        );
        self.get_stream = Some(tid);
    }

    /// The legacy session is gone (404, or 400 naming the session): start one fresh
    /// `initialize` and replay what was in flight; give up if that already happened.
    pub(super) fn on_session_lost(&mut self, now: Instant) {
        if matches!(self.phase, Phase::Initializing | Phase::AwaitingEndpoint) {
            return;
        }
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
        for key in in_flight {
            if let Some(PendingState::InFlight(Some(tid))) =
                self.pending.get(&key).map(|p| &p.state)
            {
                let tid = *tid;
                self.exchanges.remove(&tid);
                self.out.push_back(Output::Abort(tid));
            }
            if let Some(p) = self.pending.get_mut(&key) {
                p.state = PendingState::Queued;
            }
        }
        if let Some(tid) = self.get_stream.take() {
            self.exchanges.remove(&tid);
            self.out.push_back(Output::Abort(tid));
        }
        self.timers
            .retain(|(_, t)| !matches!(t, Timer::ReopenGet | Timer::Resume { .. }));
        self.get_last_event_id = None;
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
