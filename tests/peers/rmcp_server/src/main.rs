//! An MCP server on the official Rust SDK (`rmcp`), Streamable HTTP at `/mcp` on
//! 127.0.0.1:PORT (the first argument, else `$PORT`). It speaks 2026-07-28 and the legacy eras
//! (with sessions and resumable streams), or with the argument `legacy` only the legacy eras
//! (up to 2025-11-25). Its streams ask for 3 s between reconnections (the SDK's default). It
//! answers browsers' CORS preflights and offers a few tools, a resource and a prompt: enough
//! for the end-to-end tests to list and run them, answer its question, follow its progress
//! and see its prompt list change: `POST /toggle` (not MCP, for the tests) adds or takes away
//! a second prompt and says so on each `subscriptions/listen` stream (2026-07-28) and to each
//! session (legacy eras, on its GET stream).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use tokio::sync::broadcast;

use rmcp::{
    handler::server::{
        tool::{InputResponses as ToolInputResponses, RequestState},
        wrapper::Parameters,
    },
    model::*,
    service::{RequestContext, RoleServer, SubscriptionContext},
    tool, tool_handler, tool_router, ErrorData, Peer, ServerHandler,
};
use schemars::JsonSchema;
use serde::Deserialize;

/// The server: its tools come from `#[tool_router]`, the rest from the handler below.
#[derive(Clone)]
struct TestServer;

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// What to say back.
    message: String,
}

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// First number.
    a: f64,
    /// Second number.
    b: f64,
}

#[derive(Deserialize, JsonSchema)]
struct CountArgs {
    /// How many steps (at most 20).
    steps: u32,
}

/// The protocol versions this run offers (all it knows, or the legacy ones only).
static VERSIONS: OnceLock<Vec<ProtocolVersion>> = OnceLock::new();

/// Whether the second prompt, `limerick`, is listed now (`POST /toggle` turns it).
static LIMERICK: AtomicBool = AtomicBool::new(false);

/// Tells every open `subscriptions/listen` stream that the prompt list changed.
fn prompt_changes() -> &'static broadcast::Sender<()> {
    static CHANGES: OnceLock<broadcast::Sender<()>> = OnceLock::new();
    CHANGES.get_or_init(|| broadcast::channel(16).0)
}

/// The legacy sessions' clients, to tell of a change (the newest 16; each adds itself when
/// it lists the prompts).
static SESSIONS: Mutex<Vec<Peer<RoleServer>>> = Mutex::new(Vec::new());

/// `POST /toggle`: adds the prompt `limerick`, or takes it away, and tells the clients.
async fn toggle() -> String {
    let listed = !LIMERICK.fetch_xor(true, Ordering::SeqCst);
    let _ = prompt_changes().send(());
    let sessions = SESSIONS.lock().map(|s| s.clone()).unwrap_or_default();
    for client in sessions {
        let _ = client.notify_prompt_list_changed().await;
    }
    format!("limerick {}", if listed { "listed" } else { "taken away" })
}

/// The question `greet` asks, as an elicitation with one required string, `name`.
fn name_question() -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: "What is your name?".into(),
        requested_schema: ElicitationSchema::builder()
            .required_string("name")
            .build()
            .expect("a schema of one string"),
    }
}

/// The greeting for an elicitation's answer (`action`, `content`), or why there is none.
fn greeting(answer: &serde_json::Value) -> String {
    match answer.get("action").and_then(|a| a.as_str()) {
        Some("accept") => match answer.pointer("/content/name").and_then(|n| n.as_str()) {
            Some(name) => format!("Hello, {name}!"),
            None => "accepted, but no name".into(),
        },
        Some(other) => format!("no greeting: the question was answered with {other}"),
        None => "no greeting: the answer had no action".into(),
    }
}

#[tool_router]
impl TestServer {
    #[tool(description = "Says the message back")]
    async fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        format!("rmcp echo: {}", args.message)
    }

    #[tool(description = "Adds two numbers")]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> String {
        format!("{}", args.a + args.b)
    }

    #[tool(description = "Counts to the number of steps, reporting progress at each")]
    async fn count(
        &self,
        Parameters(args): Parameters<CountArgs>,
        meta: RequestMetaObject,
        client: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let steps = args.steps.min(20);
        if let Some(token) = meta.get_progress_token() {
            for step in 1..=steps {
                let _ = client
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), step as f64)
                            .with_total(steps as f64)
                            .with_message(format!("step {step} of {steps}")),
                    )
                    .await;
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
        Ok(format!("counted to {steps}"))
    }

    #[tool(description = "Asks your name, then greets you")]
    async fn greet(
        &self,
        RequestState(state): RequestState,
        ToolInputResponses(responses): ToolInputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let modern = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        let text = if modern {
            // 2026-07-28: one MRTR round; the question comes back answered on the retry.
            match state.as_deref() {
                None => {
                    let mut requests = InputRequests::new();
                    requests.insert(
                        "name".to_string(),
                        InputRequest::Elicitation(ElicitRequest::new(name_question())),
                    );
                    return Ok(
                        InputRequiredResult::new(Some(requests), Some("asked".into())).into(),
                    );
                }
                Some("asked") => {
                    let answer =
                        responses
                            .as_ref()
                            .and_then(|r| r.get("name"))
                            .ok_or_else(|| {
                                ErrorData::invalid_params(
                                    "the retry has no answer named name",
                                    None,
                                )
                            })?;
                    greeting(&serde_json::to_value(answer).unwrap_or_default())
                }
                Some(other) => {
                    return Err(ErrorData::invalid_params(
                        format!("unknown requestState {other:?}"),
                        None,
                    ))
                }
            }
        } else {
            // Older eras: a request from the server to the client, on the call's stream.
            let answer = context
                .peer
                .create_elicitation(name_question())
                .await
                .map_err(|e| ErrorData::internal_error(format!("elicitation failed: {e}"), None))?;
            greeting(&serde_json::to_value(answer).unwrap_or_default())
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }

    #[tool(description = "Always fails, as a tool error")]
    async fn fail(&self) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text("this tool always fails")])
    }
}

#[tool_handler]
impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .enable_prompts_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("rmcp-test-server", "0.1.0"))
        .with_instructions("A test server built on the Rust SDK.")
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(
            VERSIONS
                .get()
                .cloned()
                .unwrap_or_else(|| ProtocolVersion::KNOWN_VERSIONS.to_vec()),
        )
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = prompt_changes().subscribe();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                change = changes.recv() => match change {
                    Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        let _ = context.sink().notify_prompt_list_changed().await;
                    }
                    Err(broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            "memo://greeting",
            "greeting",
        )
        .with_mime_type("text/plain")]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != "memo://greeting" {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}", request.uri),
                None,
            ));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            "Hello from the Rust SDK",
            "memo://greeting",
        )])
        .into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if context.peer.peer_info().is_some() {
            // A legacy session (it began with `initialize`): told of changes from now on.
            if let Ok(mut sessions) = SESSIONS.lock() {
                sessions.push(context.peer.clone());
                let over = sessions.len().saturating_sub(16);
                sessions.drain(..over);
            }
        }
        let topic = || {
            Some(vec![PromptArgument::new("topic")
                .with_description("What the poem is about")
                .with_required(true)])
        };
        let mut prompts = vec![Prompt::new("haiku", Some("A haiku about a topic"), topic())];
        if LIMERICK.load(Ordering::SeqCst) {
            prompts.push(Prompt::new(
                "limerick",
                Some("A limerick about a topic"),
                topic(),
            ));
        }
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let topic = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("topic"))
            .and_then(|t| t.as_str())
            .unwrap_or("nothing")
            .to_string();
        let form = match request.name.as_ref() {
            "haiku" => "haiku",
            "limerick" if LIMERICK.load(Ordering::SeqCst) => "limerick",
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt {other}"),
                    None,
                ))
            }
        };
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Write a {form} about {topic}."),
        )])
        .into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    use rmcp::transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    };
    // The port: the first argument that is a number, else $PORT (as the fault proxy gives it).
    let args: Vec<String> = std::env::args().skip(1).collect();
    let port: u16 = args
        .iter()
        .find_map(|a| a.parse().ok())
        .or_else(|| std::env::var("PORT").ok()?.parse().ok())
        .unwrap_or(8931);
    let legacy_only = args.iter().any(|a| a == "legacy");
    let _ = VERSIONS.set(
        ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .filter(|v| !legacy_only || v.has_initialize())
            .cloned()
            .collect(),
    );
    let service: StreamableHttpService<TestServer, LocalSessionManager> =
        StreamableHttpService::new(
            || Ok(TestServer),
            Default::default(),
            StreamableHttpServerConfig::default(),
        );
    // Browsers on another origin (the app's page) may call it: answer preflights, let any
    // header through, and let the page read the MCP headers of the answers.
    let cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods(tower_http::cors::Any)
        .allow_headers(tower_http::cors::Any)
        .expose_headers(tower_http::cors::Any);
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .route("/toggle", axum::routing::post(toggle))
        .layer(cors);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("bind 127.0.0.1");
    axum::serve(listener, app).await.expect("serve");
}
