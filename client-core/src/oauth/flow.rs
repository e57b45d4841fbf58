//! The authorization flow as a sans-IO state machine: discovery, client identification,
//! the authorization request, the callback, the token exchange, and refresh.
//!
//! ```text
//! start(WWW-Authenticate) ─▶ PRM discovery ─▶ AS metadata ─▶ client id ─▶ Navigate(auth URL)
//!     ▲ Fetch/Response pairs for every HTTP step            callback(query) ─▶ token ─▶ Done
//! ```
//! The caller performs each [`AuthOutput::Fetch`] and feeds the answer to
//! [`AuthFlow::handle_response`]; it opens [`AuthOutput::Navigate`] (full page or popup) and
//! feeds the callback's query parameters to [`AuthFlow::handle_callback`]. Everything needed
//! after the redirect is in [`PendingAuthorization`], which serializes.

use super::challenge::{mcp_challenge, split_scopes};
use super::guard::{check_url, UrlPolicy};
use super::metadata::*;
use super::pkce::{b64url, Pkce};
use crate::bidi::Isolated;
use crate::error_body::excerpt;
use crate::time::Instant;
use crate::weburl::Url;
use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenAuthMethod {
    /// Public client: `client_id` in the body, no secret.
    None,
    /// `client_id` and `client_secret` in the body.
    ClientSecretPost,
    /// HTTP Basic with the client id and secret.
    ClientSecretBasic,
}

/// A client identity at one authorization server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientCredentials {
    /// The issuer these credentials belong to.
    pub issuer: String,
    /// The client id (a URL for a Client ID Metadata Document).
    pub client_id: String,
    /// The secret, for confidential clients.
    pub client_secret: Option<String>,
    /// Token endpoint authentication.
    pub auth_method: TokenAuthMethod,
    /// How the id was obtained: `preregistered`, `metadata-document` or `dynamic`.
    pub source: String,
}

/// Configuration of a flow.
#[derive(Debug, Clone)]
pub struct AuthConfig {
    /// The MCP server URL.
    pub server_url: String,
    /// Our redirect URI (the callback page).
    pub redirect_uri: String,
    /// Name shown by authorization servers.
    pub client_name: String,
    /// Our Client ID Metadata Document URL, if we host one.
    pub metadata_document_url: Option<String>,
    /// Known clients, per issuer: pre-registered ones, and earlier registrations to reuse.
    /// One with an empty `issuer` is used at whichever authorization server is found.
    pub preregistered: Vec<ClientCredentials>,
    /// `web` or `native` for Dynamic Client Registration.
    pub application_type: String,
    /// Which URLs are acceptable.
    pub policy: UrlPolicy,
    /// Scopes granted before (kept on step-up).
    pub previous_scopes: Vec<String>,
    /// The caller can sign DPoP proofs with ES256 (RFC 9449). Used when the resource asks for
    /// DPoP (a `DPoP` challenge, or `dpop_bound_access_tokens_required`) and the
    /// authorization server supports ES256.
    pub dpop: bool,
}

/// Tokens and what is needed to refresh them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenSet {
    /// The access token (keep in memory only).
    pub access_token: String,
    /// Token type (`Bearer`).
    pub token_type: String,
    /// When it expires (caller's clock), if the server said.
    pub expires_at: Option<u64>,
    /// The refresh token, if issued.
    pub refresh_token: Option<String>,
    /// Granted scopes.
    pub scope: Option<String>,
    /// The issuer that issued them.
    pub issuer: String,
    /// The token endpoint.
    pub token_endpoint: String,
    /// The client identity used.
    pub client: ClientCredentials,
    /// The `resource` they are for.
    pub resource: String,
    /// DPoP-bound (RFC 9449): every use needs a fresh proof from the same key.
    #[serde(default)]
    pub dpop: bool,
}

/// An HTTP request the caller performs for the flow.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthRequest {
    /// Refer to it in [`AuthFlow::handle_response`].
    pub id: u32,
    /// `GET` or `POST`.
    pub method: &'static str,
    /// URL (already checked by the URL guard).
    pub url: String,
    /// Headers.
    pub headers: Vec<(String, String)>,
    /// Body (JSON or form).
    pub body: Option<String>,
    /// Send a DPoP proof for this method and URL (token requests of a DPoP flow).
    pub dpop: bool,
}

/// What the flow asks of the caller, or reports.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthOutput {
    /// Perform this request.
    Fetch(AuthRequest),
    /// Send the person to this authorization URL (page or popup).
    Navigate(String),
    /// A step, for the OAuth trace a person can read.
    Trace(String),
    /// Logged in.
    Done(TokenSet),
    /// The flow ended without tokens.
    Failed(AuthError),
}

/// Why a flow failed, in words a person can act on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AuthError {
    /// A URL was refused by the guard.
    #[error("refused URL: {0}")]
    Url(#[from] super::guard::UrlError),
    /// The resource metadata names another resource.
    #[error("the protected resource metadata is for {found:?}, not this server ({expected:?})")]
    ResourceMismatch {
        /// What the metadata says.
        found: String,
        /// This server.
        expected: String,
    },
    /// No usable authorization server metadata.
    #[error("no authorization server metadata could be found (tried {})", Isolated(.0))]
    NoAuthServerMetadata(String),
    /// The metadata's issuer differs from the one looked up.
    #[error(
        "the metadata at {} names issuer {found:?}, not {expected:?}",
        Isolated(url)
    )]
    IssuerMismatch {
        /// Where it was fetched.
        url: String,
        /// Its issuer.
        found: String,
        /// The expected issuer.
        expected: String,
    },
    /// PKCE S256 not advertised.
    #[error("the authorization server does not advertise PKCE S256 (code_challenge_methods_supported), so this client will not use it")]
    NoPkce,
    /// No way to get a client id.
    #[error("the authorization server offers no registration and no client id is configured for {}: enter a client id", Isolated(.0))]
    NeedsClientId(String),
    /// Registration failed.
    #[error("client registration failed: HTTP {status}: {}", Isolated(body))]
    Registration {
        /// Status.
        status: u16,
        /// Body excerpt.
        body: String,
    },
    /// The callback's `state` is not ours.
    #[error(
        "the authorization response does not belong to this login (state mismatch); it was ignored"
    )]
    StateMismatch,
    /// The callback's `iss` is wrong or missing.
    #[error("the authorization response came from the wrong authorization server (iss check failed); it was ignored")]
    IssuerCheck,
    /// The authorization server refused.
    #[error("authorization was refused: {}{}", Isolated(error), description.as_ref().map(|d| format!(" ({})", Isolated(d))).unwrap_or_default())]
    Denied {
        /// OAuth error code.
        error: String,
        /// Its description (untrusted text).
        description: Option<String>,
    },
    /// The token endpoint refused.
    #[error("the token request failed: {}{}", Isolated(error), description.as_ref().map(|d| format!(" ({})", Isolated(d))).unwrap_or_default())]
    Token {
        /// OAuth error code, or `http_<status>`.
        error: String,
        /// Description (untrusted text).
        description: Option<String>,
    },
    /// Malformed answer.
    #[error("malformed answer from {}", Isolated(.0))]
    Malformed(String),
    /// Called out of order.
    #[error("the login flow is not waiting for that")]
    Unexpected,
}

/// What must survive the redirect to the authorization server and back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingAuthorization {
    /// The `state` sent.
    pub state: String,
    /// The PKCE verifier.
    pub code_verifier: String,
    /// The issuer recorded before redirecting.
    pub issuer: String,
    /// Whether the AS advertises `iss` in responses.
    pub iss_supported: bool,
    /// The token endpoint.
    pub token_endpoint: String,
    /// The redirect URI used.
    pub redirect_uri: String,
    /// The resource.
    pub resource: String,
    /// The client identity.
    pub client: ClientCredentials,
    /// Scopes requested.
    pub scope: Option<String>,
    /// The token request carries a DPoP proof.
    #[serde(default)]
    pub dpop: bool,
}

#[derive(Debug)]
enum Step {
    Idle,
    Prm {
        urls: Vec<String>,
        next: usize,
        header_scope: Option<String>,
    },
    AsMeta {
        issuer: String,
        urls: Vec<String>,
        next: usize,
        prm: Option<ProtectedResourceMetadata>,
        header_scope: Option<String>,
        legacy: bool,
    },
    Registering {
        meta: AuthServerMetadata,
        scope: Option<String>,
    },
    AwaitingCallback(PendingAuthorization),
    Token(PendingAuthorization),
    Refreshing(TokenSet),
    Finished,
}

/// A login (or refresh) in progress. Drain [`AuthFlow::poll_output`] after every call.
#[derive(Debug)]
pub struct AuthFlow {
    config: AuthConfig,
    server: Url,
    resource: String,
    step: Step,
    out: VecDeque<AuthOutput>,
    next_id: u32,
    in_flight: Option<u32>,
    random: [u8; 64],
    now: Instant,
    /// The resource asked for DPoP.
    wants_dpop: bool,
}

fn form(pairs: &[(&str, &str)]) -> String {
    crate::weburl::form_body(pairs)
}

impl AuthFlow {
    /// A flow for `config`; `random` supplies 64 random bytes (PKCE verifier and `state`).
    pub fn new(config: AuthConfig, random: [u8; 64], now: Instant) -> Result<AuthFlow, AuthError> {
        let server = crate::weburl::parse(&config.server_url)
            .map_err(|_| AuthError::Malformed(config.server_url.clone()))?;
        let resource = canonical_resource(&server);
        Ok(AuthFlow {
            config,
            server,
            resource,
            step: Step::Idle,
            out: VecDeque::new(),
            next_id: 1,
            in_flight: None,
            random,
            now,
            wants_dpop: false,
        })
    }

    /// The next output.
    pub fn poll_output(&mut self) -> Option<AuthOutput> {
        self.out.pop_front()
    }

    /// What to keep across the redirect (while waiting for the callback).
    pub fn pending(&self) -> Option<&PendingAuthorization> {
        match &self.step {
            Step::AwaitingCallback(p) => Some(p),
            _ => None,
        }
    }

    /// A flow that continues after a full-page redirect.
    pub fn resume(
        config: AuthConfig,
        pending: PendingAuthorization,
        now: Instant,
    ) -> Result<AuthFlow, AuthError> {
        let mut f = AuthFlow::new(config, [0; 64], now)?;
        f.step = Step::AwaitingCallback(pending);
        Ok(f)
    }

    /// Starts after a 401/403 from the MCP server, with its `WWW-Authenticate` header.
    pub fn start(&mut self, www_authenticate: Option<&str>) {
        self.wants_dpop = www_authenticate.and_then(super::challenge::dpop).is_some();
        let challenge = www_authenticate.and_then(mcp_challenge).unwrap_or_default();
        let mut header_url = None;
        if let Some(u) = &challenge.resource_metadata {
            match check_url(u, self.config.policy) {
                Ok(_) => header_url = Some(u.as_str()),
                Err(e) => self.trace(format!("ignored resource_metadata {u:?}: {e}")),
            }
        }
        let urls = protected_resource_metadata_urls(&self.server, header_url);
        self.step = Step::Prm {
            urls,
            next: 0,
            header_scope: challenge.scope.clone(),
        };
        self.next_prm();
    }

    /// Refreshes tokens (rotation: a new refresh token replaces the old one).
    pub fn refresh(&mut self, tokens: TokenSet) {
        let Some(rt) = tokens.refresh_token.clone() else {
            self.fail(AuthError::Token {
                error: "no_refresh_token".into(),
                description: None,
            });
            return;
        };
        let mut pairs = alloc::vec![
            ("grant_type", "refresh_token"),
            ("refresh_token", rt.as_str()),
            ("resource", tokens.resource.as_str())
        ];
        if let Some(s) = &tokens.scope {
            pairs.push(("scope", s.as_str()));
        }
        let (body, headers) = self.token_auth(&tokens.client, &pairs);
        let url = tokens.token_endpoint.clone();
        self.trace(format!("refreshing the access token at {url}"));
        let dpop = tokens.dpop;
        self.step = Step::Refreshing(tokens);
        self.fetch_with("POST", url, headers, Some(body), dpop);
    }

    fn trace(&mut self, s: String) {
        self.out.push_back(AuthOutput::Trace(s));
    }

    fn fail(&mut self, e: AuthError) {
        self.trace(format!("failed: {e}"));
        self.step = Step::Finished;
        self.out.push_back(AuthOutput::Failed(e));
    }

    fn fetch(
        &mut self,
        method: &'static str,
        url: String,
        headers: Vec<(String, String)>,
        body: Option<String>,
    ) {
        self.fetch_with(method, url, headers, body, false);
    }

    fn fetch_with(
        &mut self,
        method: &'static str,
        url: String,
        headers: Vec<(String, String)>,
        body: Option<String>,
        dpop: bool,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        self.in_flight = Some(id);
        self.out.push_back(AuthOutput::Fetch(AuthRequest {
            id,
            method,
            url,
            headers,
            body,
            dpop,
        }));
    }

    fn get_json(&mut self, url: String) {
        self.fetch(
            "GET",
            url,
            alloc::vec![("Accept".into(), "application/json".into())],
            None,
        );
    }

    fn next_prm(&mut self) {
        let Step::Prm { urls, next, .. } = &mut self.step else {
            return;
        };
        if let Some(url) = urls.get(*next).cloned() {
            *next += 1;
            self.trace(format!("looking for protected resource metadata at {url}"));
            self.get_json(url);
        } else {
            // 2025-03-26 servers: no resource metadata; the server's origin is the issuer.
            let header_scope = match &self.step {
                Step::Prm { header_scope, .. } => header_scope.clone(),
                _ => None,
            };
            let issuer = self.server.origin();
            self.trace(format!("no protected resource metadata; trying the server's origin {issuer} as authorization server (2025-03-26)"));
            self.start_as(issuer, None, header_scope, true);
        }
    }

    fn start_as(
        &mut self,
        issuer: String,
        prm: Option<ProtectedResourceMetadata>,
        header_scope: Option<String>,
        legacy: bool,
    ) {
        let url = match check_url(&issuer, self.config.policy) {
            Ok(u) => u,
            Err(e) => return self.fail(e.into()),
        };
        let urls = auth_server_metadata_urls(&url);
        self.step = Step::AsMeta {
            issuer,
            urls,
            next: 0,
            prm,
            header_scope,
            legacy,
        };
        self.next_as();
    }

    fn next_as(&mut self) {
        let Step::AsMeta {
            urls, next, legacy, ..
        } = &mut self.step
        else {
            return;
        };
        if let Some(url) = urls.get(*next).cloned() {
            *next += 1;
            self.trace(format!(
                "looking for authorization server metadata at {url}"
            ));
            self.get_json(url);
            return;
        }
        let (legacy, tried) = (*legacy, urls.join(", "));
        if legacy {
            self.trace("no metadata: using the default endpoints /authorize, /token, /register (2025-03-26)".into());
            let meta = AuthServerMetadata::legacy_defaults(&self.server);
            let scope = match &self.step {
                Step::AsMeta { header_scope, .. } => header_scope.clone(),
                _ => None,
            };
            self.step = Step::Registering {
                meta: meta.clone(),
                scope,
            };
            self.register(meta);
        } else {
            self.fail(AuthError::NoAuthServerMetadata(tried));
        }
    }

    /// Feeds the answer to the last [`AuthOutput::Fetch`].
    pub fn handle_response(&mut self, id: u32, status: u16, body: &[u8], now: Instant) {
        if self.in_flight != Some(id) {
            return;
        }
        self.in_flight = None;
        self.now = now;
        let step = core::mem::replace(&mut self.step, Step::Finished);
        match step {
            Step::Prm {
                urls,
                next,
                header_scope,
            } => {
                let (url, parsed) =
                    self.metadata_answer::<ProtectedResourceMetadata>(&urls, next, status, body);
                match parsed {
                    Some(prm) if !resource_matches(&prm.resource, &self.server) => {
                        self.fail(AuthError::ResourceMismatch {
                            found: prm.resource,
                            expected: self.resource.clone(),
                        })
                    }
                    Some(prm) => {
                        match prm.authorization_servers.first().cloned() {
                            Some(issuer) => {
                                // RFC 8707/9728: send the identifier exactly as published.
                                self.resource = prm.resource.clone();
                                if prm.dpop_bound_access_tokens_required == Some(true) {
                                    self.wants_dpop = true;
                                }
                                self.trace(format!("resource metadata from {url} names authorization server {issuer}"));
                                self.start_as(issuer, Some(prm), header_scope, false);
                            }
                            None => self.fail(AuthError::Malformed(format!(
                                "{url} (no authorization_servers)"
                            ))),
                        }
                    }
                    None => {
                        self.step = Step::Prm {
                            urls,
                            next,
                            header_scope,
                        };
                        self.next_prm();
                    }
                }
            }
            Step::AsMeta {
                issuer,
                urls,
                next,
                prm,
                header_scope,
                legacy,
            } => {
                let (url, parsed) =
                    self.metadata_answer::<AuthServerMetadata>(&urls, next, status, body);
                match parsed {
                    Some(meta) if meta.issuer != issuer && !legacy => {
                        self.fail(AuthError::IssuerMismatch {
                            url,
                            found: meta.issuer,
                            expected: issuer,
                        })
                    }
                    Some(meta) => {
                        if meta.issuer != issuer {
                            // 2025-03-26 servers: the origin was only a guess at the issuer.
                            self.trace(format!(
                                "2025-03-26 compatibility: the metadata names issuer {}; using it",
                                meta.issuer
                            ));
                        }
                        for e in [
                            Some(&meta.authorization_endpoint),
                            Some(&meta.token_endpoint),
                            meta.registration_endpoint.as_ref(),
                        ]
                        .into_iter()
                        .flatten()
                        {
                            if let Err(err) = check_url(e, self.config.policy) {
                                return self.fail(err.into());
                            }
                        }
                        if !meta.supports_s256() {
                            return self.fail(AuthError::NoPkce);
                        }
                        if self.wants_dpop {
                            let usable = self.config.dpop && meta.supports_dpop_es256();
                            self.trace(if usable {
                                "the resource asks for DPoP: tokens will be bound to this page's key (ES256)".into()
                            } else {
                                "the resource asks for DPoP, but the authorization server does not offer ES256 proofs (or this client cannot sign): asking for Bearer tokens".into()
                            });
                            self.wants_dpop = usable;
                        }
                        let scope = self.choose_scope(header_scope, prm.as_ref(), &meta);
                        self.step = Step::Registering {
                            meta: meta.clone(),
                            scope,
                        };
                        self.register(meta);
                    }
                    None => {
                        self.step = Step::AsMeta {
                            issuer,
                            urls,
                            next,
                            prm,
                            header_scope,
                            legacy,
                        };
                        self.next_as();
                    }
                }
            }
            Step::Registering { meta, scope } => {
                if !(200..300).contains(&status) {
                    return self.fail(AuthError::Registration {
                        status,
                        body: excerpt(body),
                    });
                }
                let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
                let Some(client_id) = v.get("client_id").and_then(Value::as_str) else {
                    return self.fail(AuthError::Malformed(
                        "the registration response (no client_id)".into(),
                    ));
                };
                let secret = v
                    .get("client_secret")
                    .and_then(Value::as_str)
                    .map(String::from);
                let method = match v.get("token_endpoint_auth_method").and_then(Value::as_str) {
                    Some("client_secret_basic") => TokenAuthMethod::ClientSecretBasic,
                    Some("client_secret_post") => TokenAuthMethod::ClientSecretPost,
                    _ if secret.is_some() => TokenAuthMethod::ClientSecretBasic,
                    _ => TokenAuthMethod::None,
                };
                let client = ClientCredentials {
                    issuer: meta.issuer.clone(),
                    client_id: client_id.into(),
                    client_secret: secret,
                    auth_method: method,
                    source: "dynamic".into(),
                };
                self.trace(format!("registered dynamically as client {client_id}"));
                self.authorize(meta, client, scope);
            }
            Step::Token(p) => self.on_token(
                status,
                body,
                p.client,
                p.token_endpoint,
                p.issuer,
                p.resource,
                None,
            ),
            Step::Refreshing(t) => self.on_token(
                status,
                body,
                t.client,
                t.token_endpoint,
                t.issuer,
                t.resource,
                t.refresh_token,
            ),
            other => self.step = other,
        }
    }

    /// The URL a metadata answer came from, traced with its status, and the document if it
    /// is one (anything but a 200 with valid JSON of that shape counts as absent).
    fn metadata_answer<T: serde::de::DeserializeOwned>(
        &mut self,
        urls: &[String],
        next: usize,
        status: u16,
        body: &[u8],
    ) -> (String, Option<T>) {
        let url = urls
            .get(next.saturating_sub(1))
            .cloned()
            .unwrap_or_default();
        self.trace(format!("  → HTTP {status}"));
        let parsed = if status == 200 {
            crate::types::from_json::<T>(body).ok()
        } else {
            None
        };
        (url, parsed)
    }

    fn choose_scope(
        &mut self,
        header: Option<String>,
        prm: Option<&ProtectedResourceMetadata>,
        meta: &AuthServerMetadata,
    ) -> Option<String> {
        let mut scopes: Vec<String> = match (header, prm.and_then(|p| p.scopes_supported.clone())) {
            (Some(h), _) => split_scopes(&h),
            (None, Some(s)) => s,
            (None, None) => Vec::new(),
        };
        for s in &self.config.previous_scopes {
            if !scopes.contains(s) {
                scopes.push(s.clone());
            }
        }
        if meta
            .scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == "offline_access"))
            && !scopes.iter().any(|s| s == "offline_access")
            && !scopes.is_empty()
        {
            scopes.push("offline_access".into());
        }
        let chosen = (!scopes.is_empty()).then(|| scopes.join(" "));
        self.trace(match &chosen {
            Some(s) => format!("requesting scopes: {s}"),
            None => "requesting no particular scope".into(),
        });
        chosen
    }

    fn register(&mut self, meta: AuthServerMetadata) {
        let scope = match &self.step {
            Step::Registering { scope, .. } => scope.clone(),
            _ => None,
        };
        let known = self
            .config
            .preregistered
            .iter()
            .find(|c| c.issuer == meta.issuer)
            .or_else(|| {
                self.config
                    .preregistered
                    .iter()
                    .find(|c| c.issuer.is_empty())
            });
        if let Some(mut c) = known.cloned() {
            c.issuer = meta.issuer.clone();
            let how = if c.source == "dynamic" {
                "the client registered earlier"
            } else {
                "the pre-registered client"
            };
            self.trace(format!("using {how} {}", c.client_id));
            return self.authorize(meta, c, scope);
        }
        if let (Some(true), Some(url)) = (
            meta.client_id_metadata_document_supported,
            self.config.metadata_document_url.clone(),
        ) {
            self.trace(format!(
                "using the Client ID Metadata Document {url} as client id"
            ));
            let c = ClientCredentials {
                issuer: meta.issuer.clone(),
                client_id: url,
                client_secret: None,
                auth_method: TokenAuthMethod::None,
                source: "metadata-document".into(),
            };
            return self.authorize(meta, c, scope);
        }
        if let Some(reg) = meta.registration_endpoint.clone() {
            self.trace(format!("registering dynamically at {reg}"));
            let body = serde_json::json!({
                "client_name": self.config.client_name,
                "redirect_uris": [self.config.redirect_uri],
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": "none",
                "application_type": self.config.application_type,
            });
            let headers = alloc::vec![
                ("Content-Type".into(), "application/json".into()),
                ("Accept".into(), "application/json".into())
            ];
            return self.fetch("POST", reg, headers, Some(body.to_string()));
        }
        self.fail(AuthError::NeedsClientId(meta.issuer));
    }

    fn authorize(
        &mut self,
        meta: AuthServerMetadata,
        client: ClientCredentials,
        scope: Option<String>,
    ) {
        let mut verifier_bytes = [0u8; 32];
        verifier_bytes.copy_from_slice(&self.random[..32]);
        let pkce = Pkce::from_random(&verifier_bytes);
        let state = b64url(&self.random[32..]);
        let Ok(mut url) = crate::weburl::parse(&meta.authorization_endpoint) else {
            return self.fail(AuthError::Malformed(meta.authorization_endpoint));
        };
        url.append_query_pairs(&[
            ("response_type", "code"),
            ("client_id", &client.client_id),
            ("redirect_uri", &self.config.redirect_uri),
            ("code_challenge", &pkce.challenge),
            ("code_challenge_method", "S256"),
            ("state", &state),
            ("resource", &self.resource),
        ]);
        if let Some(s) = &scope {
            url.append_query_pairs(&[("scope", s)]);
        }
        let pending = PendingAuthorization {
            state,
            code_verifier: pkce.verifier,
            issuer: meta.issuer.clone(),
            iss_supported: meta.authorization_response_iss_parameter_supported == Some(true),
            token_endpoint: meta.token_endpoint.clone(),
            redirect_uri: self.config.redirect_uri.clone(),
            resource: self.resource.clone(),
            client,
            scope,
            dpop: self.wants_dpop,
        };
        self.trace(format!(
            "sending the person to {}",
            meta.authorization_endpoint
        ));
        self.step = Step::AwaitingCallback(pending);
        self.out.push_back(AuthOutput::Navigate(url.into()));
    }

    /// Feeds the callback's query parameters (`code`, `state`, `iss`, or `error`, ...).
    pub fn handle_callback(&mut self, params: &[(String, String)], now: Instant) {
        self.now = now;
        let Step::AwaitingCallback(p) = &self.step else {
            self.out
                .push_back(AuthOutput::Failed(AuthError::Unexpected));
            return;
        };
        let p = p.clone();
        let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if get("state") != Some(p.state.as_str()) {
            // Not ours: do not act on it, and keep waiting for the real answer.
            self.trace("ignored an authorization response with a foreign state".into());
            self.out
                .push_back(AuthOutput::Failed(AuthError::StateMismatch));
            return;
        }
        match get("iss") {
            Some(iss) if iss != p.issuer => return self.fail(AuthError::IssuerCheck),
            None if p.iss_supported => return self.fail(AuthError::IssuerCheck),
            _ => {}
        }
        if let Some(error) = get("error") {
            return self.fail(AuthError::Denied {
                error: error.into(),
                description: get("error_description").map(String::from),
            });
        }
        let Some(code) = get("code") else {
            return self.fail(AuthError::Malformed(
                "the authorization response (no code)".into(),
            ));
        };
        let pairs = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", p.redirect_uri.as_str()),
            ("code_verifier", p.code_verifier.as_str()),
            ("resource", p.resource.as_str()),
        ];
        let (body, headers) = self.token_auth(&p.client, &pairs);
        let url = p.token_endpoint.clone();
        self.trace(format!("exchanging the code at {url}"));
        let dpop = p.dpop;
        self.step = Step::Token(p);
        self.fetch_with("POST", url, headers, Some(body), dpop);
    }

    fn token_auth(
        &self,
        client: &ClientCredentials,
        pairs: &[(&str, &str)],
    ) -> (String, Vec<(String, String)>) {
        let mut all: Vec<(&str, &str)> = pairs.to_vec();
        let mut headers = alloc::vec![
            (
                "Content-Type".to_string(),
                "application/x-www-form-urlencoded".to_string()
            ),
            ("Accept".to_string(), "application/json".to_string()),
        ];
        match (client.auth_method, &client.client_secret) {
            (TokenAuthMethod::ClientSecretBasic, Some(secret)) => {
                let enc = crate::weburl::form_encode;
                let creds = format!("{}:{}", enc(&client.client_id), enc(secret));
                use base64::Engine;
                let b = base64::engine::general_purpose::STANDARD.encode(creds.as_bytes());
                headers.push(("Authorization".into(), format!("Basic {b}")));
            }
            (TokenAuthMethod::ClientSecretPost, Some(secret)) => {
                all.push(("client_id", &client.client_id));
                all.push(("client_secret", secret));
            }
            _ => all.push(("client_id", &client.client_id)),
        }
        (form(&all), headers)
    }

    #[allow(clippy::too_many_arguments)]
    fn on_token(
        &mut self,
        status: u16,
        body: &[u8],
        client: ClientCredentials,
        token_endpoint: String,
        issuer: String,
        resource: String,
        old_refresh: Option<String>,
    ) {
        let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        if !(200..300).contains(&status) {
            let error = v
                .get("error")
                .and_then(Value::as_str)
                .map(String::from)
                .unwrap_or_else(|| format!("http_{status}"));
            let description = v
                .get("error_description")
                .and_then(Value::as_str)
                .map(String::from);
            return self.fail(AuthError::Token { error, description });
        }
        let Some(access) = v.get("access_token").and_then(Value::as_str) else {
            return self.fail(AuthError::Malformed(
                "the token response (no access_token)".into(),
            ));
        };
        let tokens = TokenSet {
            access_token: access.into(),
            token_type: v
                .get("token_type")
                .and_then(Value::as_str)
                .unwrap_or("Bearer")
                .into(),
            expires_at: v
                .get("expires_in")
                .and_then(Value::as_u64)
                .map(|s| self.now.0.saturating_add(s.saturating_mul(1000))),
            refresh_token: v
                .get("refresh_token")
                .and_then(Value::as_str)
                .map(String::from)
                .or(old_refresh),
            scope: v.get("scope").and_then(Value::as_str).map(String::from),
            issuer,
            token_endpoint,
            client,
            resource,
            dpop: v
                .get("token_type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.eq_ignore_ascii_case("dpop")),
        };
        self.trace("got an access token".into());
        self.step = Step::Finished;
        self.out.push_back(AuthOutput::Done(tokens));
    }
}
