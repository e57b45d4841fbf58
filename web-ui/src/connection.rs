//! One server connection as the UI sees it: a `Client` plus reactive state for the views.

use client_browser::client_core::session::{ConnectionState, ServerDetails};
use client_browser::client_core::types::{
    CreateMessageParams, ElicitParams, ReadResourceResult, ServerNotification, Task, Tool,
};
use client_browser::Answer;
use client_browser::{
    Authorizer, CacheMode, Client, ClientError, ClientEvent, ClientOptions, Handlers, ListOptions,
    ListingStop, PendingListing, Transport,
};
use futures_channel::oneshot;
use futures_util::FutureExt;
use leptos::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

pub use crate::stale_lists::StaleLists;
pub use crate::wire_log::{Notes, WireLine, WireLog, MAX_NOTES};

/// Adds a line to a connection's notifications and log messages (the oldest go beyond
/// [`MAX_NOTES`]: a server that logs every second must not grow the tab for ever).
pub fn note(log: RwSignal<Notes>, text: String) {
    log.update(|l| l.push(text, MAX_NOTES));
}

/// Something the server (or one of its MCP App Views) asks the person, waiting for an
/// answer.
#[derive(Clone)]
pub struct Ask {
    /// Unique per connection.
    pub id: u32,
    /// What is asked.
    pub kind: AskKind,
    /// Who asks, when not the server itself (e.g. "The app of get-time").
    pub from: Option<String>,
    reply: Arc<Mutex<Option<oneshot::Sender<Answer>>>>,
    /// What the person has made of its dialog so far (see [`AskDraft`]).
    draft: Arc<Mutex<AskDraft>>,
}

/// What the person has made of a question's dialog so far, kept with the question: its
/// server's view is built again when that server is chosen again, and its dialog starts
/// from this rather than blank.
#[derive(Clone, Debug, Default)]
pub struct AskDraft {
    /// The reply's text (sampling).
    pub text: String,
    /// The tool calls added to the reply (sampling), and how many were ever added (each
    /// call's id is numbered from it).
    pub calls: Vec<crate::sampling_reply::ToolCall>,
    /// See [`AskDraft::calls`].
    pub added: usize,
    /// The tool chosen for the next call to add (sampling; its place among those offered),
    /// and what was typed in its input form, by the tool's place.
    pub call_tool: usize,
    /// See [`AskDraft::call_tool`].
    pub call_values: Option<(usize, BTreeMap<String, String>)>,
    /// The form's values by field path (elicitation), once shown.
    pub values: Option<BTreeMap<String, String>>,
    /// Whether the answer is typed as JSON instead, and that JSON.
    pub typed_mode: bool,
    /// See [`AskDraft::typed_mode`].
    pub typed: String,
}

/// The kinds of question.
#[derive(Clone, Debug)]
pub enum AskKind {
    /// Approve (and possibly edit) a model request.
    Sampling(CreateMessageParams),
    /// Fill a form, or consent to open a URL.
    Elicitation(ElicitParams),
}

impl Ask {
    /// What the person made of the dialog so far (blank at first).
    pub fn draft(&self) -> AskDraft {
        self.draft.lock().map(|d| d.clone()).unwrap_or_default()
    }

    /// Keeps `draft` as what the person made of the dialog so far.
    pub fn keep_draft(&self, draft: AskDraft) {
        if let Ok(mut kept) = self.draft.lock() {
            *kept = draft;
        }
    }

    /// Sends the answer (once).
    pub fn answer(&self, answer: Answer) {
        let tx = self.reply.lock().ok().and_then(|mut r| r.take());
        if let Some(tx) = tx {
            let _ = tx.send(answer);
        }
    }
}

pub use crate::call_history::HistoryEntry;

/// What was typed in the tabs' search boxes: the connection's, so that a tab opened again
/// shows the list as it was left.
#[derive(Clone, Copy)]
pub struct Searches {
    /// The tools tab's search.
    pub tools: RwSignal<String>,
    /// The resources tab's search.
    pub resources: RwSignal<String>,
    /// The prompts tab's search.
    pub prompts: RwSignal<String>,
    /// The logs tab's filter.
    pub wire: RwSignal<String>,
}

/// How many completed URL elicitations a connection remembers (a runner waiting for some
/// retries its call once all are complete).
pub const MAX_COMPLETED_ELICITATIONS: usize = 64;

/// A server the person connected to.
#[derive(Clone)]
pub struct Connection {
    /// Unique id.
    pub id: u32,
    /// The URL.
    pub url: String,
    /// Connection state.
    pub state: RwSignal<ConnectionState>,
    /// Why connecting failed, in plain words.
    pub error: RwSignal<Option<String>>,
    /// Why a request waits: the browser's connections to the server are all held by streams
    /// (see `client_browser::busy_connections`). Gone once anything is heard from the server
    /// or the state changes.
    pub waiting_for_connection: RwSignal<Option<String>>,
    /// What the server said about itself.
    pub details: RwSignal<Option<ServerDetails>>,
    /// Its tools.
    pub tools: RwSignal<Vec<Tool>>,
    /// Whether `tools` holds what the server listed (not yet, before its first answer).
    pub tools_listed: RwSignal<bool>,
    /// Notifications and log messages, newest last (the newest [`MAX_NOTES`]; see [`note`]).
    pub log: RwSignal<Notes>,
    /// Every JSON-RPC message (the newest, within the wire log's limits).
    pub wire: RwSignal<WireLog>,
    /// The tool chosen in the tools tab (kept while the tab is left).
    pub chosen_tool: RwSignal<Option<String>>,
    /// The tool whose form was put back as it was before a full-page login (see
    /// [`crate::before_login`]), until the person runs it or dismisses the notice.
    pub restored_form: RwSignal<Option<String>>,
    /// The tool whose form was filled from the link that opened the page (`&args=`), until
    /// the person runs it or dismisses the notice.
    pub linked_form: RwSignal<Option<String>>,
    /// The prompt whose form the link that opened the page filled (`&prompt=…&args=`), until
    /// the person gets it or dismisses the notice.
    pub linked_prompt: RwSignal<Option<crate::components::prompts::PromptFromLink>>,
    /// The URI of the resource the link that opened the page names (`&resource=`), read when
    /// the resources tab is first shown.
    pub linked_resource: RwSignal<Option<String>>,
    /// Each recently chosen tool's form, call and result (see [`crate::tool_runs`]).
    pub tool_runs: StoredValue<crate::tool_runs::ToolRuns>,
    /// The URI of the resource shown in the resources tab, and its contents (kept while the
    /// tab is left; a read still under way then is cancelled).
    pub resource_shown: RwSignal<Option<String>>,
    /// What was typed in the resources tab's template forms, by URI template.
    pub template_values: RwSignal<crate::typed_forms::TypedForms>,
    /// See [`Connection::resource_shown`].
    pub resource_contents:
        RwSignal<Option<Result<crate::decoded::Decoded<ReadResourceResult>, String>>>,
    /// The tab of the server's view shown (kept while another server is chosen).
    pub chosen_tab: RwSignal<crate::components::server_view::Tab>,
    /// The prompt chosen in the prompts tab (kept while the tab is left).
    pub chosen_prompt: RwSignal<Option<String>>,
    /// The values typed for each prompt's arguments, by prompt name (kept while another
    /// prompt is chosen or the tab is left).
    pub prompt_values: RwSignal<crate::typed_forms::TypedForms>,
    /// The prompt last gotten, and what the server answered (shown while it is chosen).
    pub prompt_result: RwSignal<
        Option<(
            String,
            Result<crate::components::prompts::GottenPrompt, String>,
        )>,
    >,
    /// The URL elicitations the server said are complete
    /// (`notifications/elicitation/complete`), the newest [`MAX_COMPLETED_ELICITATIONS`].
    pub completed_elicitations: RwSignal<Vec<String>>,
    /// The server's tasks as last listed in the tasks tab, with the states its status
    /// notifications told since (see [`crate::server_tasks`]).
    pub server_tasks: RwSignal<Vec<Task>>,
    /// What the task asked about last in the tasks tab came to.
    pub task_outcome: RwSignal<Option<crate::server_tasks::TaskOutcome>>,
    /// What was typed in the tabs' search boxes (kept while a tab is left).
    pub searches: Searches,
    /// The logs tab's "Send a request" box: what was typed and the last answer.
    pub request_draft: crate::raw_request::RequestDraft,
    /// Past tool calls, oldest first (see [`crate::call_history`]).
    pub history: RwSignal<Vec<HistoryEntry>>,
    /// Whether [`Connection::history`] is kept in the browser (the app's, not when embedded).
    keeps_history: bool,
    /// The log level the server accepted last (`debug`, ...), if one was asked for.
    pub log_level: RwSignal<Option<String>>,
    /// Roots offered to the server (`file://` URIs).
    pub roots: RwSignal<Vec<String>>,
    /// The roots as typed in the settings tab and not saved yet (kept while the tab is
    /// left); `None`: the box shows [`Connection::roots`].
    pub roots_draft: RwSignal<Option<String>>,
    /// How long a request may go without an answer or progress, in seconds (see
    /// [`crate::time_limit`]).
    pub time_limit: RwSignal<u32>,
    /// Open questions from the server and its MCP App Views.
    pub asks: RwSignal<Vec<Ask>, LocalStorage>,
    /// The id of the last ask.
    ask_ids: StoredValue<u32>,
    /// The client, once created.
    pub client: StoredValue<Option<Client>, LocalStorage>,
    /// OAuth for this server (none with a manual bearer token or over WebSocket).
    pub auth: StoredValue<Option<Rc<Authorizer>>, LocalStorage>,
    /// Every step of every login, for the OAuth trace.
    pub auth_trace: RwSignal<Vec<String>>,
    /// Set when the server wants a login: the challenge it sent, if readable.
    pub auth_needed: RwSignal<Option<Option<String>>>,
    /// Whether we hold tokens for this server.
    pub logged_in: RwSignal<bool>,
    /// Where DOM events go when embedded.
    pub(crate) sink: StoredValue<Option<crate::embed::EventSink>, LocalStorage>,
    /// Listing the tools again after the server said they changed.
    relist: StoredValue<Relist>,
    /// Counts the server's `prompts/list_changed` (the prompts tab lists again on each).
    pub prompts_changed: RwSignal<u32>,
    /// Counts the server's `resources/list_changed` (the resources tab lists again on each).
    pub resources_changed: RwSignal<u32>,
    /// The MCP App View settings (`_meta.ui`) on the server's resource list, by URI, with the
    /// count of `resources_changed` they were listed at (see
    /// [`crate::components::app_view`]).
    pub listed_view_settings: StoredValue<Option<(u32, BTreeMap<String, serde_json::Value>)>>,
    /// The MCP App Views of the tools' last calls (see [`crate::mcp_app::kept`]): kept by the
    /// connection, so that choosing another tool only hides a View.
    pub app_views: RwSignal<crate::mcp_app::KeptViews>,
    /// How each MCP App View shown now is asked to tear down when its server view goes (see
    /// [`Connection::leave`]), by a number for each View shown.
    pub view_leaves: StoredValue<Vec<(u32, OnLeave)>, LocalStorage>,
    /// The MCP App View in picture-in-picture, if one is (by its number in `view_leaves`):
    /// one at a time.
    pub pip_view: RwSignal<Option<u32>>,
    /// The person's answers to the MCP App Views' requests for browser capabilities (camera,
    /// microphone, …), by View resource: asked once per connection (see
    /// [`crate::mcp_app::permissions`]).
    pub app_permissions: StoredValue<crate::mcp_app::PermissionAnswers>,
    /// The URIs of the resources subscribed to (through the resources tab), each once.
    pub subscribed: RwSignal<Vec<String>>,
    /// The URIs of subscribed resources the server said were updated since they were last
    /// read here, each once (the resources tab marks them, and reads the one it shows again).
    pub updated: RwSignal<Vec<String>>,
    /// Lists shown from answers kept from before, because asking the server again failed.
    pub stale: RwSignal<StaleLists>,
    /// The tools with a call under way (marked in the tool list, whichever tool is chosen).
    pub running_tools: RwSignal<Vec<String>>,
    /// Calls followed in the background (a task this tab took over while the tool's form was
    /// in use), by tool: their runs, which no form holds; the tool's form tells of them and
    /// can cancel them.
    pub background_calls: RwSignal<Vec<crate::tool_call::BackgroundCall>>,
    /// The ids of the tasks kept in the browser that this connection follows, or waits to
    /// follow once another tab is done with them (see [`crate::tool_call`]).
    pub followed_tasks: StoredValue<Vec<String>>,
    /// The kept tasks this connection answers for in storage: those it follows, those it
    /// followed to their ends (see [`crate::kept_tasks::TasksHere`]).
    pub tasks_here: StoredValue<crate::kept_tasks::TasksHere>,
}

/// Listing the tools again after `notifications/tools/list_changed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relist {
    /// Not listing.
    Idle,
    /// Listing.
    Running,
    /// Listing, and the list changed again meanwhile: one more listing follows.
    Again,
}

/// Listings in a row at most for changes announced while listing (a server announcing
/// changes without end does not keep the page listing).
const RELIST_ROUNDS: usize = 5;

/// What the connect form collected.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ConnectRequest {
    /// Server URL.
    pub url: String,
    /// Transport.
    pub transport: Transport,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// Bearer token (sent as `Authorization: Bearer …`; no OAuth login then).
    pub bearer: Option<String>,
    /// Local development: allow `http:` and loopback authorization servers.
    pub allow_local_auth: bool,
    /// An OAuth client id registered by hand (for servers without registration).
    pub client_id: Option<String>,
}

/// Asks one MCP App View to tear down, for the reason given, because its server view is about
/// to go; the callback runs once, when the View answered or was given up on. False when it
/// was not asked (not ready yet, or asked already): nothing to wait for.
pub type OnLeave = Rc<dyn Fn(&'static str, Rc<dyn Fn()>) -> bool>;

impl Connection {
    /// The server's name as the app shows it: its title, else its name, once it said it;
    /// else its URL (raw: isolate it where it sits among other text).
    pub fn shown_name(&self) -> String {
        self.details
            .with(|d| {
                d.as_ref().map(|d| {
                    d.server_info
                        .title
                        .clone()
                        .unwrap_or_else(|| d.server_info.name.clone())
                })
            })
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| self.url.clone())
    }

    /// Asks each MCP App View of this connection shown now to tear down, for `reason`: its
    /// server view is about to go (another server was chosen, or this connection closed).
    /// `done` runs once they all answered or were given up on: at once if none was asked.
    pub fn leave(&self, reason: &'static str, done: impl Fn() + 'static) {
        let views: Vec<OnLeave> = self
            .view_leaves
            .try_with_value(|v| v.iter().map(|(_, ask)| ask.clone()).collect())
            .unwrap_or_default();
        // One more than the Views asked, until they all have been: none can end it early.
        let pending = Rc::new(std::cell::Cell::new(1u32));
        let done = Rc::new(done);
        let one_done: Rc<dyn Fn()> = {
            let (pending, done) = (pending.clone(), done.clone());
            Rc::new(move || {
                pending.set(pending.get().saturating_sub(1));
                if pending.get() == 0 {
                    done();
                }
            })
        };
        for ask in views {
            pending.set(pending.get() + 1);
            if !ask(reason, one_done.clone()) {
                pending.set(pending.get() - 1);
            }
        }
        one_done();
    }

    /// Creates the connection and starts connecting.
    /// `authorizer`: one that already holds tokens (after a full-page login).
    pub fn open(
        id: u32,
        req: ConnectRequest,
        sink: Option<crate::embed::EventSink>,
        authorizer: Option<Rc<Authorizer>>,
    ) -> Connection {
        let conn = Connection {
            id,
            url: req.url.clone(),
            state: RwSignal::new(ConnectionState::Connecting),
            error: RwSignal::new(None),
            waiting_for_connection: RwSignal::new(None),
            details: RwSignal::new(None),
            tools: RwSignal::new(Vec::new()),
            tools_listed: RwSignal::new(false),
            log: RwSignal::new(Notes::default()),
            wire: RwSignal::new(WireLog::default()),
            asks: RwSignal::new_local(Vec::new()),
            ask_ids: StoredValue::new(0),
            chosen_tool: RwSignal::new(None),
            restored_form: RwSignal::new(None),
            linked_form: RwSignal::new(None),
            linked_prompt: RwSignal::new(None),
            linked_resource: RwSignal::new(None),
            resource_shown: RwSignal::new(None),
            resource_contents: RwSignal::new(None),
            template_values: RwSignal::new(BTreeMap::new()),
            chosen_tab: RwSignal::new(Default::default()),
            chosen_prompt: RwSignal::new(None),
            prompt_values: RwSignal::new(BTreeMap::new()),
            prompt_result: RwSignal::new(None),
            tool_runs: StoredValue::new(Default::default()),
            history: RwSignal::new(if sink.is_none() {
                crate::call_history::load(&req.url)
            } else {
                Vec::new()
            }),
            keeps_history: sink.is_none(),
            request_draft: crate::raw_request::RequestDraft::new(),
            searches: Searches {
                tools: RwSignal::new(String::new()),
                resources: RwSignal::new(String::new()),
                prompts: RwSignal::new(String::new()),
                wire: RwSignal::new(String::new()),
            },
            server_tasks: RwSignal::new(Vec::new()),
            task_outcome: RwSignal::new(None),
            completed_elicitations: RwSignal::new(Vec::new()),
            log_level: RwSignal::new(None),
            roots: RwSignal::new(Vec::new()),
            roots_draft: RwSignal::new(None),
            time_limit: RwSignal::new(if sink.is_none() {
                crate::time_limit::load()
            } else {
                crate::time_limit::DEFAULT_SECS
            }),
            client: StoredValue::new_local(None),
            auth: StoredValue::new_local(None),
            auth_trace: RwSignal::new(Vec::new()),
            auth_needed: RwSignal::new(None),
            logged_in: RwSignal::new(false),
            sink: StoredValue::new_local(None),
            relist: StoredValue::new(Relist::Idle),
            prompts_changed: RwSignal::new(0),
            resources_changed: RwSignal::new(0),
            listed_view_settings: StoredValue::new(None),
            app_views: RwSignal::new(Default::default()),
            view_leaves: StoredValue::new_local(Vec::new()),
            pip_view: RwSignal::new(None),
            app_permissions: StoredValue::new(Default::default()),
            subscribed: RwSignal::new(Vec::new()),
            updated: RwSignal::new(Vec::new()),
            stale: RwSignal::new(StaleLists::default()),
            running_tools: RwSignal::new(Vec::new()),
            background_calls: RwSignal::new(Vec::new()),
            followed_tasks: StoredValue::new(Vec::new()),
            tasks_here: StoredValue::new(Default::default()),
        };
        let mut o = ClientOptions::new(req.url.clone());
        o.transport = req.transport;
        o.headers = req.headers.clone();
        let manual_token = req.bearer.clone().filter(|t| !t.is_empty());
        if let Some(token) = &manual_token {
            o.headers
                .push(("Authorization".into(), format!("Bearer {token}")));
        }
        if manual_token.is_none() && req.transport != Transport::WebSocket {
            let auth = authorizer.unwrap_or_else(|| {
                let mut options = crate::oauth_setup::options(req.allow_local_auth);
                if sink.is_some() {
                    // Embedded in a host page: a popup, so the host page stays as it is.
                    options.mode = client_browser::LoginMode::Popup;
                }
                if let Some(id) = req.client_id.clone().filter(|c| !c.trim().is_empty()) {
                    options.preregistered.push(
                        client_browser::client_core::oauth::ClientCredentials {
                            issuer: String::new(),
                            client_id: id.trim().to_string(),
                            client_secret: None,
                            auth_method: client_browser::client_core::oauth::TokenAuthMethod::None,
                            source: "preregistered".into(),
                        },
                    );
                }
                Authorizer::new(req.url.clone(), options)
            });
            let trace = conn.auth_trace;
            auth.on_trace(move |line| trace.update(|t| t.push(line.to_string())));
            conn.logged_in.set(auth.has_credentials());
            conn.auth.set_value(Some(auth.clone()));
            o.auth = Some(auth);
        }
        o.wire_log = true;
        o.timeout = client_browser::client_core::time::Duration::from_secs(u64::from(
            conn.time_limit.get_untracked(),
        ));
        // The era found last time: a return visit skips the era probe.
        o.remember_era = true;
        o.handlers = conn.handlers();
        // Tools with a View are shown with it (MCP Apps, see crate::mcp_app).
        o.extensions.insert(
            crate::mcp_app::EXTENSION.into(),
            crate::mcp_app::capability(),
        );
        let client = Client::new(o);
        let (state, log, wire, stale) = (conn.state, conn.log, conn.wire, conn.stale);
        let waiting = conn.waiting_for_connection;
        let url = req.url.clone();
        let sink2 = sink.clone();
        let this = conn.clone();
        client.on_event(move |e| match e {
            ClientEvent::State(s) => {
                if waiting.with_untracked(Option::is_some) {
                    waiting.set(None);
                }
                state.set(*s)
            }
            // Announced once the client could not get credentials by itself (a refresh, a
            // popup login of its own), whether connecting or for any later request.
            ClientEvent::LoginNeeded {
                www_authenticate, ..
            } => this.login_needed(www_authenticate.clone()),
            ClientEvent::Notification(n) => {
                match n {
                    ServerNotification::ToolListChanged => this.tools_changed(),
                    ServerNotification::PromptListChanged => {
                        this.prompts_changed.update(|n| *n += 1)
                    }
                    ServerNotification::ResourceListChanged => {
                        this.resources_changed.update(|n| *n += 1)
                    }
                    // Kept for subscribed resources only: a server naming others cannot make
                    // the set grow.
                    ServerNotification::ResourceUpdated(u)
                        if this.subscribed.with_untracked(|s| s.contains(&u.uri)) =>
                    {
                        let uri = u.uri.clone();
                        this.updated.update(|s| add_once(s, uri))
                    }
                    ServerNotification::TaskStatus(t) => {
                        let t = t.clone();
                        this.server_tasks
                            .update(|tasks| crate::server_tasks::merge(tasks, t))
                    }
                    ServerNotification::Other { method, params }
                        if method == "notifications/elicitation/complete" =>
                    {
                        let id = params
                            .as_ref()
                            .and_then(|p| p.get("elicitationId"))
                            .and_then(serde_json::Value::as_str);
                        if let Some(id) = id {
                            let id = id.to_string();
                            this.completed_elicitations.update(|c| {
                                if c.len() == MAX_COMPLETED_ELICITATIONS {
                                    c.remove(0);
                                }
                                add_once(c, id)
                            });
                        }
                    }
                    _ => {}
                }
                if let Some(sink) = &sink2 {
                    (sink.0)("notification", notification_detail(&url, n));
                }
                note(log, describe(n))
            }
            ClientEvent::Warning(w) => note(log, format!("warning: {w}")),
            ClientEvent::ConnectionsBusy { server, streams } => {
                let why = client_browser::busy_connections::explain(server, *streams);
                note(log, format!("warning: {why}"));
                waiting.set(Some(why));
            }
            ClientEvent::Cached { method, fresh_for } => {
                note(log, describe_cached(method, fresh_for.as_millis()))
            }
            ClientEvent::ServedStale { method, age, error } => {
                let age = age.as_millis();
                stale.update(|s| s.served(method, age, error));
                if let Some(sink) = &sink2 {
                    (sink.0)("stale", stale_detail(&url, method, age, error));
                }
                note(log, describe_stale(method, age, error))
            }
            ClientEvent::Wire {
                sent,
                status,
                headers,
                message,
            } => {
                if !*sent && waiting.with_untracked(Option::is_some) {
                    waiting.set(None);
                }
                let now = js_sys::Date::now();
                wire.update(|w| w.push(*sent, *status, headers.clone(), message, now))
            }
            ClientEvent::Progress(..) => {}
        });
        conn.client.set_value(Some(client.clone()));
        conn.sink.set_value(sink);
        conn.restore_typed_form();
        conn.connect();
        conn
    }

    /// Keeps what is typed in the chosen tool's form for the page's return from a full-page
    /// login.
    fn keep_typed_form(&self) {
        let Some(tool) = self.chosen_tool.get_untracked() else {
            return;
        };
        let Some(run) = self.tool_runs.with_value(|r| r.find(&tool)) else {
            return;
        };
        crate::before_login::keep(&crate::before_login::TypedForm {
            url: self.url.clone(),
            tool,
            values: run.values.get_untracked(),
            raw_mode: run.raw_mode.get_untracked(),
            raw: run.raw.get_untracked(),
        });
    }

    /// Puts back the form kept before a full-page login to this server, if any: the tool is
    /// chosen again (shown once the server lists it) with what was typed.
    fn restore_typed_form(&self) {
        let Some(form) = crate::before_login::take(&self.url) else {
            return;
        };
        let run = self
            .tool_runs
            .try_update_value(|r| r.of(&form.tool, BTreeMap::new));
        if let Some(run) = run {
            run.values.set(form.values);
            run.raw_mode.set(form.raw_mode);
            run.raw.set(form.raw);
        }
        self.chosen_tool.set(Some(form.tool.clone()));
        self.restored_form.set(Some(form.tool));
    }

    /// Connects (or connects again, e.g. after a popup login) and lists the tools.
    pub fn connect(&self) {
        let Some(client) = self.client.get_value() else {
            return;
        };
        let c = self.clone();
        let sink = self.sink.get_value();
        self.error.set(None);
        // Started now, so the first request goes out before the page renders (the app's
        // first render takes about 10 ms, and a deep link connects while it runs).
        client_browser::spawn_started(async move {
            // The tool list is asked for as connecting starts, not once connected: while
            // the server's era is being probed the session sends it alongside the probe, so
            // a 2026-07-28 server answers both in one round trip (otherwise it waits in the
            // session for the connection). A connection that fails stops it.
            let given_up = std::cell::Cell::new(false);
            let stop = std::cell::RefCell::new(None::<ListingStop>);
            let connecting = async {
                let result = client.reconnect().await;
                match &result {
                    // The page updates while the server answers the tool list (the list
                    // was asked for first: rendering the server's details before would
                    // delay it by a frame's work).
                    Ok(details) => c.show_connected(details.clone(), sink.as_ref()),
                    Err(_) => {
                        given_up.set(true);
                        if let Some(stop) = stop.borrow().as_ref() {
                            stop.stop();
                        }
                    }
                }
                result
            };
            let listing = async {
                if given_up.get() {
                    return Err(ClientError::Closed);
                }
                let pending = c.start_tools_listing(&client);
                *stop.borrow_mut() = Some(pending.stop.clone());
                pending.await
            };
            let (connected, tools) = futures_util::join!(connecting, listing);
            match connected {
                Ok(_) => {
                    c.show_tools(&client, tools);
                    // Calls of an earlier page still running as tasks are followed again.
                    crate::tool_call::resume_kept_tasks(&c);
                }
                Err(e) => {
                    // Refused before the session started (it never changes state then): the
                    // connection has failed, not "connecting".
                    if matches!(e, ClientError::UnusableUrl { .. }) {
                        c.state.set(ConnectionState::Failed);
                    }
                    // A refusal for want of a login was announced (`login_needed`) already.
                    let message = crate::doctor::explain(&e);
                    if let Some(sink) = &sink {
                        (sink.0)("error", json!({ "url": c.url, "message": message }));
                    }
                    c.error.set(Some(message));
                }
            }
        });
    }

    /// The server refused a request (or the connection) for want of a login: shows the
    /// login button (with the server's challenge, once it is known), and the first time
    /// tells an embedding page (`auth-required`) and looks for our client metadata document,
    /// which the login may use.
    fn login_needed(&self, www_authenticate: Option<String>) {
        let first = self.auth_needed.get_untracked().is_none();
        if first || www_authenticate.is_some() {
            self.auth_needed.set(Some(www_authenticate));
        }
        if !first {
            return;
        }
        if let Some(sink) = self.sink.get_value() {
            (sink.0)("auth-required", json!({ "url": self.url }));
        }
        if let Some(auth) = self.auth.get_value() {
            leptos::task::spawn_local(async move {
                let found = crate::oauth_setup::metadata_document().await;
                auth.set_metadata_document_url(found);
            });
        }
    }

    /// Shows a successful connection: login state, the `connected` event
    /// for an embedding page, and the server's details.
    fn show_connected(&self, details: ServerDetails, sink: Option<&crate::embed::EventSink>) {
        self.auth_needed.set(None);
        self.logged_in
            .set(self.auth.get_value().is_some_and(|a| a.has_credentials()));
        if let Some(sink) = sink {
            let detail = json!({
                "url": self.url,
                "era": details.era,
                "protocolVersion": details.protocol_version,
                "serverInfo": details.server_info,
            });
            (sink.0)("connected", detail);
        }
        self.details.set(Some(details));
    }

    /// Starts a login: the page goes to the authorization server and comes back (the app),
    /// or a popup does and the connection is made again here (embedded).
    pub fn login(&self) {
        let Some(auth) = self.auth.get_value() else {
            return;
        };
        let www = self.auth_needed.get_untracked().flatten();
        if auth.mode() == client_browser::LoginMode::Redirect {
            // The page goes away: what was typed comes back with it.
            self.keep_typed_form();
        }
        let c = self.clone();
        leptos::task::spawn_local(async move {
            // A full-page login may wait for the look for our metadata document; a popup must
            // open within the click (no await first), with what was found by then.
            if auth.mode() == client_browser::LoginMode::Redirect {
                auth.set_metadata_document_url(crate::oauth_setup::metadata_document().await);
            }
            match auth.login(www.as_deref()).await {
                // Popup: logged in here. Full page: the page is leaving.
                Ok(()) if auth.mode() == client_browser::LoginMode::Popup => c.connect(),
                Ok(()) => {}
                // The person clicked "Log in" again: the newer login goes on and says how it
                // ends; this one has nothing to say (the trace has a line for it).
                Err(client_browser::AuthFailure::Superseded) => {}
                Err(e) => c.error.set(Some(crate::doctor::explain_auth(&e))),
            }
        });
    }

    /// Logs out: forgets this server's tokens and registration, and disconnects.
    pub fn logout(&self) {
        let Some(auth) = self.auth.get_value() else {
            return;
        };
        auth.logout();
        if let Some(client) = self.client.get_value() {
            client.close();
        }
        self.logged_in.set(false);
        self.details.set(None);
        self.tools.set(Vec::new());
        self.tools_listed.set(false);
        self.error
            .set(Some("Logged out. Log in again to use this server.".into()));
        self.auth_needed.set(Some(None));
    }

    /// Adds a tool call made at `at_ms` (milliseconds since the epoch) that has just ended
    /// with `outcome` to the history (and to the browser's, see [`crate::call_history`]);
    /// returns how long it took, in milliseconds.
    pub fn record_call(
        &self,
        tool: String,
        arguments: Value,
        outcome: &Result<crate::components::result_view::ToolResult, String>,
        at_ms: f64,
    ) -> f64 {
        let took = js_sys::Date::now() - at_ms;
        let entry = HistoryEntry {
            tool,
            arguments,
            summary: crate::components::history::summary_of(outcome),
            at_ms,
            took_ms: Some(took),
        };
        if self.keeps_history {
            let written = self
                .history
                .try_update(|h| crate::call_history::record(&self.url, h, entry))
                .flatten();
            if let Some(written) = written {
                crate::tab_sync::history_written_here(self, &written);
            }
        } else {
            self.history.update(|h| crate::call_history::push(h, entry));
        }
        took
    }

    /// Another tab of the app (or another connection of this page to the same server)
    /// changed the stored histories from `before` to `after` (see
    /// [`crate::call_history::after_change_elsewhere`]): the calls it made to this server come
    /// in, a history it cleared is cleared here, and calls of this page that its write
    /// dropped are written back ([`crate::call_history::write_back`]).
    pub fn history_changed_elsewhere(
        &self,
        before: Option<&serde_json::Value>,
        after: Option<&serde_json::Value>,
    ) {
        if !self.keeps_history || !crate::call_history::kept_in_browser() {
            return;
        }
        let next = self.history.try_with_untracked(|h| {
            crate::call_history::after_change_elsewhere(h, &self.url, before, after)
        });
        if let Some(Some(next)) = next {
            self.history.set(next);
        }
        let (was, is) = (
            before.and_then(|d| d.get(&self.url)),
            after.and_then(|d| d.get(&self.url)),
        );
        if is.is_some() && is != was {
            let merged = self
                .history
                .try_with_untracked(|h| crate::call_history::write_back(&self.url, h));
            if let Some(Some(merged)) = merged {
                self.history.set(merged);
            }
        }
    }

    /// Another tab of the app wrote the kept tasks: those this connection answers for are
    /// put right where its write, over a copy of storage that lagged, got them wrong (see
    /// [`crate::kept_tasks::mended`]).
    pub fn tasks_changed_elsewhere(&self) {
        if !self.keeps_history {
            return;
        }
        if let Some(here) = self.tasks_here.try_get_value() {
            crate::kept_tasks::mend(&self.url, &here);
        }
    }

    /// Empties the history, the browser's too.
    pub fn clear_history(&self) {
        self.history.set(Vec::new());
        if self.keeps_history {
            if let Some(written) = crate::call_history::clear(&self.url) {
                crate::tab_sync::history_written_here(self, &written);
            }
        }
    }

    /// Whether this connection's history may be kept in the browser (the app's; not when
    /// embedded in another page).
    pub fn keeps_history(&self) -> bool {
        self.keeps_history
    }

    /// Writes the history to the browser (when it keeps it; see [`crate::call_history`]).
    pub fn save_history(&self) {
        if self.keeps_history {
            self.history
                .with_untracked(|h| crate::call_history::save(&self.url, h));
        }
    }

    /// The server said its tool list changed: lists the tools again, one listing at a time
    /// (changes announced during a listing are picked up by one more).
    pub fn tools_changed(&self) {
        match self.relist.get_value() {
            Relist::Idle => self.relist.set_value(Relist::Running),
            Relist::Running | Relist::Again => {
                self.relist.set_value(Relist::Again);
                return;
            }
        }
        let c = self.clone();
        leptos::task::spawn_local(async move {
            for _ in 0..RELIST_ROUNDS {
                c.refresh_tools().await;
                if c.relist.get_value() != Relist::Again {
                    break;
                }
                c.relist.set_value(Relist::Running);
            }
            c.relist.set_value(Relist::Idle);
        });
    }

    /// Reloads the tool list.
    pub async fn refresh_tools(&self) {
        let Some(client) = self.client.get_value() else {
            return;
        };
        let outcome = self.start_tools_listing(&client).await;
        self.show_tools(&client, outcome);
    }

    /// Starts reading the tool list (every page; the first one goes out now).
    fn start_tools_listing(&self, client: &Client) -> PendingListing {
        self.stale
            .maybe_update(|s| s.listing(crate::stale_lists::TOOLS));
        let options = ListOptions {
            cache: CacheMode::Use,
            ..Default::default()
        };
        client.start_listing("tools/list", "tools", options)
    }

    /// Shows a tool list as read, or why it could not be.
    fn show_tools(&self, client: &Client, outcome: Result<Vec<Value>, ClientError>) {
        let tools = outcome.and_then(|items| {
            items
                .into_iter()
                .map(|item| client_browser::decode::<Tool>("tools/list", item))
                .collect::<Result<Vec<Tool>, ClientError>>()
        });
        match tools {
            Ok(tools) => {
                self.tools.set(tools);
                self.tools_listed.set(true);
            }
            Err(e) => {
                note(self.log, format!("tools/list failed: {e}"));
                // The connection failed after it was made (connected from a kept discover
                // result that the server's first answer refuted, and then no server; a lost
                // session that could not be started again), or the server wants a login for
                // its tools though not for connecting: say why, where a failed connect is
                // said.
                if client.state() == ConnectionState::Failed
                    || matches!(e, ClientError::AuthRequired { .. })
                {
                    self.error.set(Some(crate::doctor::explain(&e)));
                }
            }
        }
    }

    /// Asks the person `kind` for `from` (`None`: the server): its id among the asks, and its
    /// answer once given. The dialog goes when it is answered, or when the answer is no
    /// longer awaited (the future dropped) or the ask removed (then the answer is "cancel").
    pub fn ask(
        &self,
        kind: AskKind,
        from: Option<String>,
    ) -> (u32, impl std::future::Future<Output = Answer> + 'static) {
        let asks = self.asks;
        let (tx, rx) = oneshot::channel();
        let id = self.ask_ids.get_value() + 1;
        self.ask_ids.set_value(id);
        asks.update(|a| {
            a.push(Ask {
                id,
                kind,
                from,
                reply: Arc::new(Mutex::new(Some(tx))),
                draft: Arc::default(),
            })
        });
        let answer = async move {
            // The dialog goes when the request is answered, or when it is dropped
            // unanswered (the server cancelled the task it ran as).
            let _dismiss = DismissAsk { asks, id };
            rx.await.unwrap_or_else(|_| Ok(json!({"action": "cancel"})))
        };
        (id, answer)
    }

    fn handlers(&self) -> Handlers {
        let roots = self.roots;
        let (c1, c2) = (self.clone(), self.clone());
        Handlers {
            sampling: Some(client_browser::typed_handler(
                move |p: CreateMessageParams| c1.ask(AskKind::Sampling(p), None).1.boxed_local(),
            )),
            elicitation: Some(client_browser::typed_handler(move |p: ElicitParams| {
                c2.ask(AskKind::Elicitation(p), None).1.boxed_local()
            })),
            roots: Some(Rc::new(move || {
                let list: Vec<Value> = roots
                    .get_untracked()
                    .into_iter()
                    .map(|uri| json!({ "uri": uri }))
                    .collect();
                async move { Ok(json!({ "roots": list })) }.boxed_local()
            })),
            // The person can answer a sampling request with tool calls (see asks.rs).
            sampling_tools: true,
        }
    }
}

/// Lists with `client` now and again each time `changed` moves (the server said the list
/// changed); `apply` gets a listing's answer only if no newer listing started since. `methods`
/// are the list methods `list` calls (their stale marks go when a listing starts).
pub fn list_on_change<T, F, Fut>(
    conn: &Connection,
    changed: RwSignal<u32>,
    methods: &'static [&'static str],
    list: F,
    apply: impl Fn(T) + Clone + 'static,
) where
    T: 'static,
    F: Fn(Client) -> Fut + Clone + 'static,
    Fut: std::future::Future<Output = T> + 'static,
{
    let (client, stale) = (conn.client, conn.stale);
    let generation = StoredValue::new(0u32);
    Effect::new(move |_| {
        let now = changed.get();
        generation.set_value(now);
        stale.maybe_update(|s| s.listing(methods));
        let (list, apply) = (list.clone(), apply.clone());
        leptos::task::spawn_local(async move {
            let Some(Some(client)) = client.try_get_value() else {
                return;
            };
            let listed = list(client).await;
            // No newer listing started since, and the panel that asked is still there.
            if generation.try_get_value() == Some(now) {
                apply(listed);
            }
        });
    });
}

/// Removes a request's dialog when dropped.
struct DismissAsk {
    asks: RwSignal<Vec<Ask>, LocalStorage>,
    id: u32,
}

impl Drop for DismissAsk {
    fn drop(&mut self) {
        let id = self.id;
        self.asks.try_update(|a| a.retain(|x| x.id != id));
    }
}

/// One line for the log when a request was answered from the response cache.
pub fn describe_cached(method: &str, fresh_for_ms: u64) -> String {
    let secs = fresh_for_ms.div_ceil(1000);
    format!("{method}: answered from the cache, no request sent (the server said it stays fresh for {secs} s more)")
}

/// The `detail` of the `notification` event an embedding page gets: the server's URL and the
/// notification as `{ method, params }`.
pub fn notification_detail(url: &str, n: &ServerNotification) -> serde_json::Value {
    let mut detail = json!({ "url": url, "method": n.method() });
    if let Some(params) = n.params() {
        detail["params"] = params;
    }
    detail
}

/// The `detail` of the `stale` event an embedding page gets when a result kept from before
/// answered because asking the server again failed.
pub fn stale_detail(url: &str, method: &str, age_ms: u64, error: &str) -> serde_json::Value {
    json!({ "url": url, "method": method, "ageMs": age_ms, "error": error })
}

/// The log line for a result served from the cache after asking the server again failed.
pub fn describe_stale(method: &str, age_ms: u64, error: &str) -> String {
    let secs = age_ms / 1000;
    format!("{method}: the server could not be asked again ({error}); showing the answer received {secs} s ago")
}

/// Adds `item` to a small set kept as a vector (a few URIs: no tree needed), unless there.
pub fn add_once(set: &mut Vec<String>, item: String) {
    if !set.contains(&item) {
        set.push(item);
    }
}

/// One line for the notifications log.
fn describe(n: &ServerNotification) -> String {
    match n {
        ServerNotification::LoggingMessage(m) => {
            let data = m
                .data
                .as_str()
                .map(String::from)
                .unwrap_or_else(|| m.data.to_string());
            format!(
                "[{}] {}{}",
                crate::words::level_name(m.level),
                m.logger
                    .as_deref()
                    .map(|l| format!("{l}: "))
                    .unwrap_or_default(),
                data
            )
        }
        ServerNotification::ToolListChanged => "the tool list changed".into(),
        ServerNotification::PromptListChanged => "the prompt list changed".into(),
        ServerNotification::ResourceListChanged => "the resource list changed".into(),
        ServerNotification::ResourceUpdated(u) => format!("resource updated: {}", u.uri),
        ServerNotification::SubscriptionsAcknowledged(_) => "listening for changes".into(),
        ServerNotification::Cancelled(c) => format!(
            "the server cancelled a request: {}",
            c.reason.as_deref().unwrap_or("")
        ),
        ServerNotification::Progress(p) => format!("progress {}", p.progress),
        ServerNotification::Other { method, params }
            if method == "notifications/elicitation/complete" =>
        {
            format!(
                "the server says the web page it asked you to open is done (elicitation {})",
                params
                    .as_ref()
                    .and_then(|p| p.get("elicitationId"))
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("?")
            )
        }
        ServerNotification::TaskStatus(t) | ServerNotification::TaskUpdated(t) => format!(
            "task {}: {}{}",
            t.task_id,
            t.status,
            t.status_message
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ),
        ServerNotification::Other { method, .. } => method.clone(),
    }
}
