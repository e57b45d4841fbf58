//! OAuth in the browser: runs the core's sans-IO [`AuthFlow`] with `fetch`, WebCrypto
//! randomness, and either a full-page redirect or a popup; keeps the tokens and refreshes
//! them.
//!
//! One [`Authorizer`] per server. Give it to [`crate::ClientOptions::auth`] and the
//! [`crate::Client`] sends its access token, refreshes it when the server answers 401, and
//! (in popup mode) logs in again or steps up scopes on 403 `insufficient_scope`.
//!
//! Tokens: the access token lives in memory only. Refresh material (refresh token, client
//! registration) goes to `sessionStorage` by default ([`TokenStorage`]).

mod dpop;
mod http;
mod popup;
mod random;
mod redirect;
mod spent_tokens;
pub(crate) mod storage;
pub mod tab_copies;

pub use popup::{CHANNEL, ENDED_TYPE, MESSAGE_TYPE, TAKEN_TYPE};
pub use redirect::{complete_redirect, has_redirect_callback, RedirectOutcome};
pub use storage::TokenStorage;

use crate::clock::now;
use client_core::bidi::Isolated;
use client_core::oauth::challenge::{mcp_challenge, split_scopes};
use client_core::oauth::{
    AuthConfig, AuthError, AuthFlow, AuthOutput, ClientCredentials, TokenSet, UrlPolicy,
};
use futures_util::future::{FutureExt, LocalBoxFuture, Shared, WeakShared};
use std::cell::RefCell;
use std::rc::Rc;

/// How the person is sent to the authorization server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoginMode {
    /// The whole page goes there and comes back (the app).
    #[default]
    Redirect,
    /// A popup window goes there; a callback page relays the answer (embedded use).
    Popup,
}

/// How logging in works for one server.
#[derive(Debug, Clone)]
pub struct OAuthOptions {
    /// The callback page (`oauth-callback.html` beside the app by default).
    pub redirect_uri: String,
    /// The name authorization servers show.
    pub client_name: String,
    /// Our Client ID Metadata Document, if hosted (used when the server supports it).
    pub metadata_document_url: Option<String>,
    /// Pre-registered clients (an empty `issuer` matches any authorization server).
    pub preregistered: Vec<ClientCredentials>,
    /// Where refresh material is kept.
    pub storage: TokenStorage,
    /// Redirect or popup for logins started by [`Authorizer::login`].
    pub mode: LoginMode,
    /// Allow `http:` and loopback/private authorization servers and metadata (local
    /// development only; off by default).
    pub allow_local: bool,
    /// Most authorization attempts for one request (refreshes, step-ups, logins).
    pub max_attempts: u32,
    /// Popup mode: open the login window by itself when a request needs a login (the
    /// caller runs requests from a click). Off: report [`AuthFailure::NeedsLogin`] and let
    /// the person press a log-in button. Step-ups always open it.
    pub auto_login: bool,
}

impl OAuthOptions {
    /// Defaults for this page: the callback page `oauth-callback.html` next to it.
    pub fn for_page() -> OAuthOptions {
        let base = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.base_uri().ok().flatten())
            .unwrap_or_default();
        let redirect_uri = crate::ascii_url::join_url(&base, "oauth-callback.html")
            .unwrap_or_else(|| "/oauth-callback.html".into());
        OAuthOptions {
            redirect_uri,
            client_name: "MCP browser client".into(),
            metadata_document_url: None,
            preregistered: Vec::new(),
            storage: TokenStorage::Session,
            mode: LoginMode::Redirect,
            allow_local: false,
            max_attempts: 3,
            auto_login: false,
        }
    }
}

/// Why logging in or refreshing did not give tokens.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AuthFailure {
    /// The flow itself failed (discovery, registration, callback checks, token endpoint).
    #[error("{0}")]
    Flow(AuthError),
    /// An HTTP request of the flow got no answer.
    #[error("could not reach {}: {reason}", Isolated(url))]
    Network {
        /// The URL.
        url: String,
        /// What the browser said.
        reason: String,
    },
    /// The browser blocked the login popup.
    #[error("the browser blocked the login window: allow popups for this page, or use the full-page login")]
    PopupBlocked,
    /// The login window closed without an answer.
    #[error("the login window was closed before the login finished (or the authorization server cut it off from this page; then use the full-page login)")]
    PopupClosed,
    /// A newer login to the same server started (e.g. the person clicked "Log in" again)
    /// while this one still waited for its window: that one goes on, this one ends.
    #[error("a newer login to this server took this one's place")]
    Superseded,
    /// A person has to log in (no refresh possible, and this mode does not open windows by itself).
    #[error("you need to log in to this server")]
    NeedsLogin,
    /// The server kept refusing after the allowed attempts, each made with new credentials.
    #[error("the server still refuses after {attempts} authorization attempts{}", said.as_ref().map(|r| format!("; it last said: {r}")).unwrap_or_default())]
    TooManyAttempts {
        /// How many attempts were made.
        attempts: u32,
        /// What the server's last refusal said, if its challenge named an error.
        said: Option<ServerRefusal>,
    },
    /// The browser refused something (storage, navigation, WebCrypto).
    #[error("the browser refused: {0}")]
    Browser(String),
}

/// The error a protected server's refusal names in its `WWW-Authenticate` challenge
/// (RFC 6750 §3: `error`, `error_description`), e.g. `invalid_token (audience mismatch)`:
/// the server's own words on why it refused, for the person who runs it. Untrusted text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerRefusal {
    /// The error code: `invalid_token`, `insufficient_scope`, `use_dpop_nonce`, ...
    pub error: String,
    /// The server's description of it, at most [`ServerRefusal::DESCRIPTION_CHARS`] characters.
    pub description: Option<String>,
}

impl ServerRefusal {
    /// The most characters of a description kept (the rest is cut, marked with `…`).
    pub const DESCRIPTION_CHARS: usize = 300;

    /// The refusal a `WWW-Authenticate` value names, if its Bearer (or DPoP) challenge names
    /// an error.
    pub fn from_challenge(www_authenticate: Option<&str>) -> Option<ServerRefusal> {
        let challenge = mcp_challenge(www_authenticate?)?;
        let error = challenge.error.filter(|e| !e.is_empty())?;
        let description = challenge
            .error_description
            .filter(|d| !d.is_empty())
            .map(|d| match d.char_indices().nth(Self::DESCRIPTION_CHARS) {
                Some((cut, _)) => format!("{}…", &d[..cut]),
                None => d,
            });
        Some(ServerRefusal { error, description })
    }
}

impl std::fmt::Display for ServerRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", Isolated(&self.error))?;
        match &self.description {
            Some(d) => write!(f, " ({})", Isolated(d)),
            None => Ok(()),
        }
    }
}

impl AuthFailure {
    /// [`AuthFailure::TooManyAttempts`] after `attempts`, with what the server's last refusal
    /// (its `WWW-Authenticate` value) said.
    pub fn refused_after(attempts: u32, www_authenticate: Option<&str>) -> AuthFailure {
        AuthFailure::TooManyAttempts {
            attempts,
            said: ServerRefusal::from_challenge(www_authenticate),
        }
    }
}

impl From<AuthError> for AuthFailure {
    fn from(e: AuthError) -> Self {
        AuthFailure::Flow(e)
    }
}

/// Where the flow stopped: the person must go somewhere, or tokens are ready.
enum Stop {
    Navigate(String),
    Done(Box<TokenSet>),
}

/// What a refresh or a popup login comes to, awaited by everyone who waits for it.
type SharedOutcome = LocalBoxFuture<'static, Result<(), AuthFailure>>;
type RefreshFuture = Shared<SharedOutcome>;

/// The popup login to a server under way, which refused requests join (see
/// [`Authorizer::recover`]).
struct RunningLogin {
    /// The challenge it was started for (a step-up's scopes are in it).
    challenge: Option<String>,
    /// Its outcome; weak, so a login no one awaits any more ends (and closes its window).
    outcome: WeakShared<SharedOutcome>,
}

/// How many times a request refused while logins follow one another joins the next one
/// (each newer login ends the earlier; see [`Authorizer::login_popup`]).
const LOGINS_JOINED: usize = 8;
type TraceListener = Rc<dyn Fn(&str)>;

/// Logs in to one MCP server and keeps its tokens.
pub struct Authorizer {
    server_url: String,
    options: OAuthOptions,
    tokens: RefCell<Option<TokenSet>>,
    generation: RefCell<u64>,
    refreshing: RefCell<Option<RefreshFuture>>,
    listeners: RefCell<Vec<TraceListener>>,
    /// The trace so far (the last [`TRACE_KEPT`] lines), carried across a full-page login.
    history: RefCell<Vec<String>>,
    /// The DPoP key (made on first use, kept for the page's life).
    dpop_key: RefCell<Option<Rc<dpop::DpopKey>>>,
    /// The latest `DPoP-Nonce` of the authorization server and of the MCP server.
    dpop_nonces: RefCell<(Option<String>, Option<String>)>,
    /// The Client ID Metadata Document to use as client id (from the options; settable).
    metadata_document_url: RefCell<Option<String>>,
    /// The popup login waiting for its window, if any: hands it the window of a newer login
    /// to this server, which takes its place (see [`Authorizer::login_popup`]). Once that
    /// login ended, its end of the channel is gone (`is_canceled`).
    popup_login: RefCell<Option<futures_channel::oneshot::Sender<web_sys::Window>>>,
    /// The latest popup login started, for requests refused meanwhile to join.
    running_login: RefCell<Option<RunningLogin>>,
}

/// Whether a login under way, started for the challenge `started_for`, would do for a
/// request refused with `www_authenticate`: any would, unless the request needs more scopes
/// (`step_up`); then only one asking for the same.
fn would_do(started_for: Option<&str>, www_authenticate: Option<&str>, step_up: bool) -> bool {
    !step_up || started_for == www_authenticate
}

/// Whether `tokens` are DPoP-bound (RFC 9449).
fn dpop_bound(tokens: &TokenSet) -> bool {
    tokens.dpop || tokens.token_type.eq_ignore_ascii_case("dpop")
}

/// How long a page waits for its storage to bring the refresh token another page left after
/// using up the one this page holds (see [`spent_tokens`]): a handover between pages takes
/// milliseconds.
const STORAGE_CATCH_UP_MS: u32 = 5_000;

/// The name of the Web Lock a page holds while it refreshes `server_url`'s tokens.
fn refresh_lock_name(server_url: &str) -> String {
    format!("mcp-oauth/v1/refresh {server_url}")
}

/// How many trace lines are kept.
const TRACE_KEPT: usize = 200;

impl Authorizer {
    /// An authorizer for `server_url`, with whatever refresh material was kept for it.
    pub fn new(server_url: impl Into<String>, options: OAuthOptions) -> Rc<Authorizer> {
        let server_url = server_url.into();
        let kept = storage::load(options.storage, &server_url);
        let metadata_document_url = RefCell::new(options.metadata_document_url.clone());
        Rc::new(Authorizer {
            server_url,
            options,
            metadata_document_url,
            tokens: RefCell::new(kept),
            generation: RefCell::new(0),
            refreshing: RefCell::new(None),
            listeners: RefCell::new(Vec::new()),
            history: RefCell::new(Vec::new()),
            dpop_key: RefCell::new(None),
            dpop_nonces: RefCell::new((None, None)),
            popup_login: RefCell::new(None),
            running_login: RefCell::new(None),
        })
    }

    /// Sets the Client ID Metadata Document URL that logins started from now on use as client
    /// id (`None`: register dynamically), e.g. once the page found its document hosted.
    pub fn set_metadata_document_url(&self, url: Option<String>) {
        *self.metadata_document_url.borrow_mut() = url;
    }

    /// The MCP server this is for.
    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    /// How logins started by [`Authorizer::login`] reach the authorization server.
    pub fn mode(&self) -> LoginMode {
        self.options.mode
    }

    /// Most authorization attempts for one request.
    pub fn max_attempts(&self) -> u32 {
        self.options.max_attempts
    }

    /// Calls `listener` with every step of every flow (the OAuth trace).
    pub fn on_trace(&self, listener: impl Fn(&str) + 'static) {
        self.listeners.borrow_mut().push(Rc::new(listener));
    }

    /// The trace so far.
    pub fn trace_lines(&self) -> Vec<String> {
        self.history.borrow().clone()
    }

    fn trace(&self, line: &str) {
        {
            let mut h = self.history.borrow_mut();
            if h.len() >= TRACE_KEPT {
                h.remove(0);
            }
            h.push(line.to_string());
        }
        let listeners = self.listeners.borrow().clone();
        for l in listeners {
            l(line);
        }
    }

    /// The current tokens (the access token is empty until refreshed after a reload).
    pub fn tokens(&self) -> Option<TokenSet> {
        self.tokens.borrow().clone()
    }

    /// Whether there is anything to authorize with (an access token or a refresh token).
    pub fn has_credentials(&self) -> bool {
        self.tokens
            .borrow()
            .as_ref()
            .is_some_and(|t| !t.access_token.is_empty() || t.refresh_token.is_some())
    }

    /// Increases whenever the tokens change (lets callers tell a stale 401 from a fresh one).
    pub fn generation(&self) -> u64 {
        *self.generation.borrow()
    }

    /// The `Authorization` header value, if there is an access token.
    pub fn authorization_header(&self) -> Option<String> {
        let t = self.tokens.borrow();
        let t = t.as_ref().filter(|t| !t.access_token.is_empty())?;
        let kind = if t.token_type.eq_ignore_ascii_case("bearer") {
            "Bearer"
        } else {
            t.token_type.as_str()
        };
        Some(format!("{kind} {}", t.access_token))
    }

    /// Accepts new tokens (after a login elsewhere, e.g. [`complete_redirect`]). A login
    /// starts a new lineage: tabs copied from this one from now on share its refresh tokens
    /// ([`tab_copies`]), copies made before do not.
    pub fn set_tokens(&self, tokens: TokenSet) {
        if self.options.storage == TokenStorage::Session {
            tab_copies::Lineage::start(&self.server_url);
        }
        self.keep(tokens);
    }

    /// Keeps `tokens` as this page's, here and in storage.
    fn keep(&self, tokens: TokenSet) {
        storage::save(self.options.storage, &self.server_url, &tokens);
        *self.tokens.borrow_mut() = Some(tokens);
        *self.generation.borrow_mut() += 1;
    }

    /// Logs out: forgets the tokens and the client registration for this server, here
    /// and in storage. (Authorization servers offer no standard browser-side revocation
    /// that MCP requires; the tokens simply stop being used.)
    pub fn logout(&self) {
        self.forget();
        self.trace("logged out: tokens and client registration forgotten");
    }

    /// The refresh token kept in this authorizer's storage, if any.
    fn stored_refresh_token(&self) -> Option<String> {
        storage::load(self.options.storage, &self.server_url).and_then(|t| t.refresh_token)
    }

    /// Drops the tokens and the client registration, here and in storage.
    fn forget(&self) {
        tab_copies::Lineage::forget(&self.server_url);
        storage::forget(&self.server_url);
        *self.tokens.borrow_mut() = None;
        *self.generation.borrow_mut() += 1;
    }

    /// Takes the tokens another page of this origin stored for this server, if their refresh
    /// token is not ours: that page refreshed (which used ours up: refresh tokens rotate) or
    /// logged in since. Only with [`TokenStorage::Local`], the one storage pages share, and
    /// not for DPoP-bound tokens. The access token stays that page's: this one refreshes with
    /// the stored refresh token.
    fn adopt_stored(&self) -> bool {
        if self.options.storage != TokenStorage::Local {
            return false;
        }
        let Some(stored) = storage::load(TokenStorage::Local, &self.server_url) else {
            return false;
        };
        if !self.worth_taking(&stored) {
            return false;
        }
        self.trace("another page of this site refreshed or logged in since: using the refresh token it stored");
        *self.tokens.borrow_mut() = Some(stored);
        true
    }

    /// Whether the tokens another page left are worth taking in place of ours: they have a
    /// refresh token that is not ours (ours was then used up), and it is not DPoP-bound (such a
    /// token works only with the key of the page it was issued to; each page makes its own).
    fn worth_taking(&self, other: &TokenSet) -> bool {
        let ours = self
            .tokens
            .borrow()
            .as_ref()
            .and_then(|t| t.refresh_token.clone());
        !dpop_bound(other) && other.refresh_token.is_some() && other.refresh_token != ours
    }

    /// Takes the refresh token that a copy of this tab (a duplicated tab, or one opened from
    /// it) passed on after refreshing, if it is not ours: ours was used up by that refresh.
    /// Only with [`TokenStorage::Session`], the storage that copies of a tab start with the
    /// same refresh token in, and not for DPoP-bound tokens (see [`Self::adopt_stored`]).
    async fn adopt_passed_on(&self) {
        if self.options.storage != TokenStorage::Session {
            return;
        }
        let Some(lineage) = tab_copies::Lineage::of(&self.server_url) else {
            return;
        };
        let Some(passed) = lineage.passed_on(&self.server_url).await else {
            return;
        };
        if !self.worth_taking(&passed) {
            return;
        }
        self.trace("a copy of this tab refreshed since: using the refresh token it passed on");
        self.keep(passed);
    }

    /// Keeps newly refreshed tokens, and leaves them for the copies of this tab (see
    /// [`tab_copies`]): both at once, once they are sealed.
    async fn keep_refreshed(&self, tokens: TokenSet) {
        let lineage = (self.options.storage == TokenStorage::Session && !dpop_bound(&tokens))
            .then(|| tab_copies::Lineage::of_or_start(&self.server_url))
            .flatten();
        let sealed = match lineage {
            Some(lineage) => Some((lineage.seal(&self.server_url, &tokens).await, lineage)),
            None => None,
        };
        self.keep(tokens);
        let Some((sealed, lineage)) = sealed else {
            return;
        };
        if let Err(e) = lineage.leave(sealed) {
            self.trace(&format!(
                "could not leave the new refresh token for copies of this tab: {e}"
            ));
        }
    }

    /// Makes sure there is a usable access token: refreshes one that expired (or that a
    /// reload dropped) when a refresh token is at hand.
    pub async fn ensure_fresh(self: &Rc<Self>) -> Result<(), AuthFailure> {
        if self.tokens.borrow().is_none() {
            self.adopt_stored();
        }
        let stale = {
            let t = self.tokens.borrow();
            match t.as_ref() {
                None => return Ok(()),
                Some(t) => {
                    t.access_token.is_empty() || t.expires_at.is_some_and(|e| e <= now().0 + 5_000)
                }
            }
        };
        if stale
            && self
                .tokens
                .borrow()
                .as_ref()
                .is_some_and(|t| t.refresh_token.is_some())
        {
            self.refresh().await
        } else {
            Ok(())
        }
    }

    /// Refreshes the access token. Concurrent callers share one refresh (refresh tokens
    /// rotate: two refreshes with the same one would fail).
    pub async fn refresh(self: &Rc<Self>) -> Result<(), AuthFailure> {
        let running = self.refreshing.borrow().clone();
        let fut = match running {
            Some(f) => f,
            None => {
                let me = self.clone();
                let f = async move {
                    let r = me.do_refresh().await;
                    me.refreshing.borrow_mut().take();
                    r
                }
                .boxed_local()
                .shared();
                *self.refreshing.borrow_mut() = Some(f.clone());
                f
            }
        };
        fut.await
    }

    async fn do_refresh(&self) -> Result<(), AuthFailure> {
        // Pages of this origin that share their tokens (`localStorage`, or copies of one tab
        // with `sessionStorage`) refresh one at a time, each with the newest refresh token: one
        // used twice makes many authorization servers (oidc-provider, those following the
        // OAuth 2.1 advice) revoke the whole grant, for every page.
        let _one_at_a_time = match self.options.storage {
            TokenStorage::Local | TokenStorage::Session => {
                Some(crate::locks::acquire(&refresh_lock_name(&self.server_url)).await)
            }
            TokenStorage::Memory => None,
        };
        let shared = _one_at_a_time.is_some();
        self.adopt_newer().await;
        if shared {
            self.wait_until_unspent().await?;
        }
        let Some(tokens) = self.tokens() else {
            return Err(AuthFailure::NeedsLogin);
        };
        let Some(used) = tokens.refresh_token.clone() else {
            return Err(AuthFailure::NeedsLogin);
        };
        let mut flow = self.new_flow()?;
        flow.refresh(tokens);
        match self.pump(&mut flow).await {
            Ok(Stop::Done(t)) => {
                // Copies of this tab take the new refresh token from here; theirs is used up.
                self.keep_refreshed(*t).await;
                if shared {
                    // Marked before the refresh lock goes (see `spent_tokens`).
                    spent_tokens::mark(&self.server_url, &used).await;
                }
                Ok(())
            }
            Ok(Stop::Navigate(_)) => Err(AuthFailure::Flow(AuthError::Unexpected)),
            Err(AuthFailure::Flow(AuthError::Token { error, .. }))
                if error == "invalid_grant" || error == "invalid_client" =>
            {
                // The grant (or our registration) is gone: start over with a fresh login,
                // which registers again if needed.
                self.trace(&format!(
                    "the refresh was refused ({error}): a new login is needed"
                ));
                if self.stored_refresh_token().is_some_and(|t| t != used) {
                    // Another page logged in meanwhile: its tokens stay (and are taken next).
                    *self.tokens.borrow_mut() = None;
                    *self.generation.borrow_mut() += 1;
                } else {
                    self.forget();
                }
                Err(AuthFailure::NeedsLogin)
            }
            Err(e) => Err(e),
        }
    }

    /// Takes the refresh token another page of this origin left, if newer than ours (see
    /// [`Self::adopt_stored`] and [`Self::adopt_passed_on`]).
    async fn adopt_newer(&self) {
        self.adopt_stored();
        self.adopt_passed_on().await;
    }

    /// Waits (at most [`STORAGE_CATCH_UP_MS`]) while the refresh token at hand is one that
    /// another open page of this origin used up: this page's storage does not show yet the one
    /// that page left (see [`spent_tokens`]). Refreshing with it would revoke the grant.
    async fn wait_until_unspent(&self) -> Result<(), AuthFailure> {
        if !self.holds_spent_token().await {
            return Ok(());
        }
        self.trace("another page of this site used this refresh token up: waiting for this page's storage to bring the one it left");
        let deadline = now().0 + u64::from(STORAGE_CATCH_UP_MS);
        let mut watch = spent_tokens::StorageWatch::new();
        loop {
            // Changes are heard from the watch's start; one that came before is read now.
            self.adopt_newer().await;
            if !self.holds_spent_token().await {
                return Ok(());
            }
            let left = deadline.saturating_sub(now().0).min(u64::from(u32::MAX)) as u32;
            let heard = match watch.as_mut() {
                Some(watch) => left > 0 && watch.changed(left).await,
                None => false,
            };
            if !heard {
                self.trace("the refresh token another page left never reached this page's storage: a new login is needed");
                return Err(AuthFailure::NeedsLogin);
            }
        }
    }

    /// Whether the refresh token at hand was used up by an open page of this origin.
    async fn holds_spent_token(&self) -> bool {
        match self.tokens().and_then(|t| t.refresh_token) {
            Some(token) => spent_tokens::is_spent(&self.server_url, &token).await,
            None => false,
        }
    }

    /// After the server refused a request (`status` 401 or 403) that was sent with the
    /// tokens of `sent_generation`: gets credentials that may work. Refreshes on 401 when
    /// it can; otherwise logs in (popup mode) or says a login is needed (redirect mode).
    /// On 403 `insufficient_scope` it asks for the challenge's scopes on top of the
    /// granted ones (step-up). Requests refused while a popup login is under way wait for
    /// it rather than each opening one.
    pub async fn recover(
        self: &Rc<Self>,
        status: u16,
        www_authenticate: Option<&str>,
        sent_generation: u64,
    ) -> Result<(), AuthFailure> {
        if self.generation() != sent_generation && self.has_credentials() {
            return Ok(()); // someone else already got new tokens
        }
        if self.tokens.borrow().is_none() {
            self.adopt_stored();
        }
        let challenge = www_authenticate.and_then(mcp_challenge).unwrap_or_default();
        let step_up = status == 403 && challenge.error.as_deref() == Some("insufficient_scope");
        if !step_up
            && self
                .tokens
                .borrow()
                .as_ref()
                .is_some_and(|t| t.refresh_token.is_some())
        {
            match self.refresh().await {
                Ok(()) => return Ok(()),
                Err(AuthFailure::NeedsLogin) => {}
                Err(e) => return Err(e),
            }
        }
        if step_up {
            self.trace(&format!(
                "the server needs more scopes ({}): asking for them",
                challenge.scope.as_deref().unwrap_or("unspecified")
            ));
        }
        // A step-up uses a popup even in redirect mode: leaving the page would lose the
        // request the person just made.
        let open = step_up || (self.options.mode == LoginMode::Popup && self.options.auto_login);
        if open {
            self.join_login_popup(www_authenticate, step_up).await
        } else {
            Err(AuthFailure::NeedsLogin)
        }
    }

    /// Logs in, in the configured mode. Popup: resolves once logged in. Redirect: sends the
    /// page away (it resolves only if something fails first); finish on return with
    /// [`complete_redirect`].
    pub async fn login(self: &Rc<Self>, www_authenticate: Option<&str>) -> Result<(), AuthFailure> {
        match self.options.mode {
            LoginMode::Popup => self.login_popup(www_authenticate).await,
            LoginMode::Redirect => self.login_redirect(www_authenticate).await,
        }
    }

    /// Logs in through a popup window, whatever the configured mode (e.g. a step-up in
    /// the app, so the page and its state stay). A popup login to this server still
    /// waiting for its window ends with [`AuthFailure::Superseded`] as this one starts;
    /// requests refused meanwhile that waited for it wait for this one instead.
    pub async fn login_popup(
        self: &Rc<Self>,
        www_authenticate: Option<&str>,
    ) -> Result<(), AuthFailure> {
        let me = self.clone();
        let challenge = www_authenticate.map(str::to_owned);
        let asked = challenge.clone();
        let outcome = async move { me.popup_login_alone(asked.as_deref()).await }
            .boxed_local()
            .shared();
        // Known before it starts: the login it ends passes its waiting requests on to it.
        *self.running_login.borrow_mut() = outcome
            .downgrade()
            .map(|outcome| RunningLogin { challenge, outcome });
        outcome.await
    }

    /// The latest popup login to this server, if someone still awaits it: the challenge it
    /// was started for, and its outcome (ready if it ended).
    fn latest_login(&self) -> Option<(Option<String>, Shared<SharedOutcome>)> {
        let running = self.running_login.borrow();
        let running = running.as_ref()?;
        Some((running.challenge.clone(), running.outcome.upgrade()?))
    }

    /// For a request the server refused with `www_authenticate`: waits for the popup login
    /// to this server under way if it would do, so requests refused at once open one
    /// window, not one each; else starts one. Any login would do, unless the request needs
    /// more scopes (`step_up`): then one started for the same challenge. A login a newer
    /// one ended (the person pressed "Log in" again) passes the wait on to that one,
    /// whatever it asks for.
    async fn join_login_popup(
        self: &Rc<Self>,
        www_authenticate: Option<&str>,
        step_up: bool,
    ) -> Result<(), AuthFailure> {
        let mut superseded = false;
        for _ in 0..LOGINS_JOINED {
            let joinable = self.latest_login().filter(|(challenge, outcome)| {
                superseded
                    || (outcome.peek().is_none()
                        && would_do(challenge.as_deref(), www_authenticate, step_up))
            });
            let outcome = match joinable {
                Some((_, running)) => {
                    self.trace(
                        "a login to this server is already under way: this request waits for it",
                    );
                    running.await
                }
                None => self.login_popup(www_authenticate).await,
            };
            match outcome {
                Err(AuthFailure::Superseded) => superseded = true,
                outcome => return outcome,
            }
        }
        Err(AuthFailure::Superseded)
    }

    /// One popup login (see [`Self::login_popup`]).
    async fn popup_login_alone(
        self: &Rc<Self>,
        www_authenticate: Option<&str>,
    ) -> Result<(), AuthFailure> {
        let window = popup::Popup::open()?;
        // A login to this server still waiting for its window ends now: the person started
        // this one instead (its window may have been closed unseen, or cut off from this
        // page). The two windows have one name, so this one may be that login's window,
        // which then stays open.
        let (superseded, taken_over) = futures_channel::oneshot::channel();
        if let Some(earlier) = self.popup_login.replace(Some(superseded)) {
            let _ = earlier.send(window.window().clone());
        }
        let newer_window = async {
            match taken_over.await {
                Ok(newer) => newer,
                // Never taken over (the authorizer forgot this login): wait on.
                Err(_) => std::future::pending().await,
            }
        };
        let flow = self.popup_flow(&window, www_authenticate);
        let result =
            match futures_util::future::select(Box::pin(flow), Box::pin(newer_window)).await {
                futures_util::future::Either::Left((result, _)) => result,
                futures_util::future::Either::Right((newer, _)) => {
                    if window.is(&newer) {
                        window.leave_open();
                    }
                    Err(AuthFailure::Superseded)
                }
            };
        // This login's wait is over (its receiver dropped with the `select`): its place is
        // freed unless a newer login holds it.
        {
            let mut waiting = self.popup_login.borrow_mut();
            if waiting.as_ref().is_some_and(|s| s.is_canceled()) {
                *waiting = None;
            }
        }
        drop(window);
        match &result {
            Err(AuthFailure::Superseded) => {
                self.trace("a newer login to this server took this one's place: this one ended")
            }
            Err(e) => self.trace(&format!("login failed: {e}")),
            Ok(()) => {}
        }
        result
    }

    async fn popup_flow(
        self: &Rc<Self>,
        window: &popup::Popup,
        www: Option<&str>,
    ) -> Result<(), AuthFailure> {
        // A registration the server no longer knows is replaced once (re-registration).
        for attempt in 0..2 {
            let mut flow = self.new_flow()?;
            flow.start(www);
            let mut stop = self.pump(&mut flow).await;
            // The `state` of the answer this login took: its callback page is told how the
            // login ended (one cut off from this page cannot see it otherwise).
            let mut taken: Option<String> = None;
            let ended = |error: Option<&str>, taken: &Option<String>| {
                if let Some(state) = taken {
                    popup::tell_callback_page(popup::ENDED_TYPE, state, error);
                }
            };
            loop {
                match stop {
                    Ok(Stop::Done(t)) => {
                        self.set_tokens(*t);
                        ended(None, &taken);
                        return Ok(());
                    }
                    Ok(Stop::Navigate(url)) => {
                        window.navigate(&url)?;
                        stop = loop {
                            let query = window.callback(&|line| self.trace(line)).await?;
                            let awaited = flow.pending().map(|p| p.state.clone());
                            flow.handle_callback(&parse_query(&query), now());
                            // The flow no longer awaits an answer once it took this one as
                            // its login's (its `state` matched).
                            if let (None, Some(state)) = (flow.pending(), awaited) {
                                popup::tell_callback_page(popup::TAKEN_TYPE, &state, None);
                                taken = Some(state);
                            }
                            match self.pump(&mut flow).await {
                                // Not our login's answer: keep waiting for the real one.
                                Err(AuthFailure::Flow(AuthError::StateMismatch)) => continue,
                                other => break other,
                            }
                        };
                    }
                    Err(AuthFailure::Flow(AuthError::Token { error, .. }))
                        if error == "invalid_client" && attempt == 0 =>
                    {
                        self.trace("the authorization server no longer knows our client: registering again");
                        self.forget();
                        break;
                    }
                    Err(e) => {
                        ended(Some(&e.to_string()), &taken);
                        return Err(e);
                    }
                }
            }
        }
        Err(AuthFailure::Flow(AuthError::Unexpected))
    }

    async fn login_redirect(self: &Rc<Self>, www: Option<&str>) -> Result<(), AuthFailure> {
        let mut flow = self.new_flow()?;
        flow.start(www);
        let result = match self.pump(&mut flow).await {
            Ok(Stop::Navigate(url)) => match flow.pending() {
                Some(p) => redirect::leave(self, p.clone(), &url),
                None => Err(AuthFailure::Flow(AuthError::Unexpected)),
            },
            Ok(Stop::Done(t)) => {
                self.set_tokens(*t);
                Ok(())
            }
            Err(e) => Err(e),
        };
        if let Err(e) = &result {
            self.trace(&format!("login failed: {e}"));
        }
        result
    }

    /// A fresh flow for this server, with new randomness.
    fn new_flow(&self) -> Result<AuthFlow, AuthFailure> {
        let random = random::random_bytes().map_err(AuthFailure::Browser)?;
        Ok(AuthFlow::new(self.config(), random, now())?)
    }

    /// The flow configuration for this server and the current tokens.
    fn config(&self) -> AuthConfig {
        let tokens = self.tokens.borrow();
        let mut known = self.options.preregistered.clone();
        if let Some(t) = tokens.as_ref().filter(|t| t.client.source == "dynamic") {
            known.push(t.client.clone());
        }
        let local = self.options.allow_local;
        AuthConfig {
            server_url: crate::ascii_url::ascii_url(&self.server_url),
            redirect_uri: self.options.redirect_uri.clone(),
            client_name: self.options.client_name.clone(),
            metadata_document_url: self.metadata_document_url.borrow().clone(),
            preregistered: known,
            application_type: "web".into(),
            policy: UrlPolicy {
                allow_http: local,
                allow_private: local,
            },
            dpop: dpop::available(),
            previous_scopes: tokens
                .as_ref()
                .and_then(|t| t.scope.as_deref())
                .map(split_scopes)
                .unwrap_or_default(),
        }
    }

    /// Runs the flow until the person must go somewhere or tokens are ready, performing
    /// its requests and passing its trace on.
    async fn pump(&self, flow: &mut AuthFlow) -> Result<Stop, AuthFailure> {
        loop {
            let Some(out) = flow.poll_output() else {
                return Err(AuthFailure::Flow(AuthError::Unexpected));
            };
            match out {
                AuthOutput::Trace(t) => self.trace(&t),
                AuthOutput::Navigate(url) => return Ok(Stop::Navigate(url)),
                AuthOutput::Done(t) => return Ok(Stop::Done(Box::new(t))),
                AuthOutput::Failed(e) => return Err(AuthFailure::Flow(e)),
                AuthOutput::Fetch(req) => match self.send(&req).await {
                    Ok(a) => {
                        if a.cut_off {
                            self.trace(&format!(
                                "  → the answer is longer than {} KiB: read no further",
                                http::MAX_BODY >> 10
                            ));
                        }
                        flow.handle_response(req.id, a.status, &a.body, now())
                    }
                    Err(reason) if req.method == "GET" => {
                        // Discovery: a missing document often comes without CORS headers;
                        // treat it as absent and try the next location.
                        self.trace(&format!("  → no answer: {reason}"));
                        flow.handle_response(req.id, 0, b"", now());
                    }
                    Err(reason) => {
                        let e = AuthFailure::Network {
                            url: req.url.clone(),
                            reason,
                        };
                        self.trace(&format!("failed: {e}"));
                        return Err(e);
                    }
                },
            }
        }
    }
}

impl Authorizer {
    /// Sends one request of the flow; a token request of a DPoP flow carries a proof, and
    /// is sent once more with the server's nonce if it asks for one (RFC 9449 §8).
    async fn send(&self, req: &client_core::oauth::AuthRequest) -> Result<http::Answer, String> {
        if !req.dpop {
            return http::perform(req, &[]).await;
        }
        let key = self.dpop_key().await?;
        let mut answer = None;
        for _ in 0..2 {
            let nonce = self.dpop_nonces.borrow().0.clone();
            let proof = key
                .proof(req.method, &req.url, None, nonce.as_deref())
                .await?;
            let a = http::perform(req, &[("DPoP", proof)]).await?;
            let asks_nonce =
                a.status == 400 && String::from_utf8_lossy(&a.body).contains("use_dpop_nonce");
            let fresh = a.dpop_nonce.clone().filter(|n| Some(n) != nonce.as_ref());
            if let Some(n) = &a.dpop_nonce {
                self.dpop_nonces.borrow_mut().0 = Some(n.clone());
            }
            let retry = asks_nonce && fresh.is_some();
            answer = Some(a);
            if !retry {
                break;
            }
            self.trace("  → the authorization server asks for a DPoP nonce: sending again with it");
        }
        answer.ok_or_else(|| "no answer".into())
    }

    async fn dpop_key(&self) -> Result<Rc<dpop::DpopKey>, String> {
        if let Some(k) = self.dpop_key.borrow().clone() {
            return Ok(k);
        }
        let key = Rc::new(dpop::DpopKey::generate().await?);
        *self.dpop_key.borrow_mut() = Some(key.clone());
        Ok(key)
    }

    /// The `DPoP` header for an MCP request, when the tokens are DPoP-bound (a fresh proof
    /// each time, with the access token's hash and the server's latest nonce).
    pub async fn dpop_proof(&self, method: &str, url: &str) -> Option<String> {
        let token = self
            .tokens
            .borrow()
            .as_ref()
            .filter(|t| t.dpop && !t.access_token.is_empty())
            .map(|t| t.access_token.clone())?;
        let key = self.dpop_key().await.ok()?;
        let nonce = self.dpop_nonces.borrow().1.clone();
        key.proof(method, url, Some(&token), nonce.as_deref())
            .await
            .ok()
    }

    /// Remembers the MCP server's `DPoP-Nonce`; true if it is new (worth a retry).
    pub fn note_resource_nonce(&self, nonce: &str) -> bool {
        let mut n = self.dpop_nonces.borrow_mut();
        let new = n.1.as_deref() != Some(nonce);
        n.1 = Some(nonce.to_string());
        new
    }
}

/// The pairs of a query string (with or without the leading `?`).
pub(crate) fn parse_query(query: &str) -> Vec<(String, String)> {
    match web_sys::UrlSearchParams::new_with_str(query) {
        Ok(params) => crate::fetch::string_pairs(&params),
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_core::oauth::{ClientCredentials, TokenAuthMethod};

    fn tokens(token_type: &str, dpop: bool) -> TokenSet {
        TokenSet {
            access_token: "a".into(),
            token_type: token_type.into(),
            expires_at: None,
            refresh_token: Some("r".into()),
            scope: None,
            issuer: "https://as.example".into(),
            token_endpoint: "https://as.example/token".into(),
            client: ClientCredentials {
                issuer: "https://as.example".into(),
                client_id: "c".into(),
                client_secret: None,
                auth_method: TokenAuthMethod::None,
                source: "dynamic".into(),
            },
            resource: "https://mcp.example/mcp".into(),
            dpop,
        }
    }

    #[test]
    fn tokens_are_dpop_bound_when_asked_for_so_or_typed_so() {
        assert!(!dpop_bound(&tokens("Bearer", false)));
        assert!(dpop_bound(&tokens("Bearer", true)));
        assert!(dpop_bound(&tokens("DPoP", false)));
        assert!(
            dpop_bound(&tokens("dpop", false)),
            "token types are case-insensitive"
        );
    }

    #[test]
    fn a_refused_request_waits_for_any_login_unless_it_needs_more_scopes_than_that_asks_for() {
        let admin = Some(r#"Bearer error="insufficient_scope", scope="mcp:admin""#);
        let other = Some(r#"Bearer error="insufficient_scope", scope="mcp:other""#);
        let plain = Some(r#"Bearer resource_metadata="https://s.example/.well-known/x""#);
        for started_for in [None, plain, admin] {
            assert!(would_do(started_for, plain, false));
            assert!(would_do(started_for, None, false));
        }
        assert!(would_do(admin, admin, true));
        assert!(!would_do(other, admin, true));
        assert!(!would_do(plain, admin, true));
        assert!(!would_do(None, admin, true));
    }

    #[test]
    fn each_server_has_its_own_refresh_lock() {
        assert_eq!(
            refresh_lock_name("https://mcp.example/mcp"),
            "mcp-oauth/v1/refresh https://mcp.example/mcp"
        );
        assert_ne!(
            refresh_lock_name("https://a.example/mcp"),
            refresh_lock_name("https://b.example/mcp")
        );
    }

    #[test]
    fn a_flow_error_is_told_as_the_flow_said_it() {
        let e = AuthError::NoAuthServerMetadata("https://as.example".into());
        assert_eq!(AuthFailure::from(e.clone()).to_string(), e.to_string());
    }

    #[test]
    fn a_refusal_is_what_the_servers_challenge_names() {
        let www = r#"Bearer resource_metadata="https://r.example/.well-known/oauth-protected-resource", error="invalid_token", error_description="audience is https://other.example""#;
        let said = ServerRefusal::from_challenge(Some(www)).expect("named");
        assert_eq!(said.error, "invalid_token");
        assert_eq!(
            said.description.as_deref(),
            Some("audience is https://other.example")
        );
        assert_eq!(
            said.to_string(),
            "invalid_token (audience is https://other.example)"
        );
        // A DPoP challenge counts as well; an error without description is told alone.
        let nonce =
            ServerRefusal::from_challenge(Some(r#"DPoP algs="ES256", error="use_dpop_nonce""#));
        assert_eq!(
            nonce.map(|r| r.to_string()).as_deref(),
            Some("use_dpop_nonce")
        );
        // No error named, no challenge, another scheme, an empty error: nothing said.
        for www in [
            Some(r#"Bearer resource_metadata="https://r.example/m""#),
            None,
            Some(r#"Basic realm="x", error="invalid_token""#),
            Some(r#"Bearer error="""#),
        ] {
            assert_eq!(ServerRefusal::from_challenge(www), None, "{www:?}");
        }
    }

    #[test]
    fn a_long_description_is_cut_and_hostile_text_kept_apart() {
        let long = "é".repeat(ServerRefusal::DESCRIPTION_CHARS + 50);
        let www = format!(r#"Bearer error="invalid_token", error_description="{long}""#);
        let said = ServerRefusal::from_challenge(Some(&www)).expect("named");
        let kept = said.description.expect("a description");
        assert_eq!(kept.chars().count(), ServerRefusal::DESCRIPTION_CHARS + 1);
        assert!(kept.ends_with('…'), "{kept}");
        // Text that turns the direction of what follows is isolated in the message.
        let www = "Bearer error=\"invalid_token\", error_description=\"\u{202E}gnorw\"";
        let said = ServerRefusal::from_challenge(Some(www)).expect("named");
        let failure = AuthFailure::TooManyAttempts {
            attempts: 3,
            said: Some(said),
        };
        let text = failure.to_string();
        assert!(
            text.starts_with(
                "the server still refuses after 3 authorization attempts; it last said: invalid_token ("
            ),
            "{text}"
        );
        assert!(text.contains("\u{2068}\u{202E}gnorw\u{2069}"), "{text:?}");
        let silent = AuthFailure::TooManyAttempts {
            attempts: 2,
            said: None,
        };
        assert_eq!(
            silent.to_string(),
            "the server still refuses after 2 authorization attempts"
        );
    }
}
