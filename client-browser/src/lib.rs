//! # client-browser: browser I/O for `client-core`, and the async MCP `Client`
//!
//! The core decides; this crate moves bytes. It performs the core's HTTP requests with
//! `fetch` (streaming response bodies through `ReadableStream`, cancelling with
//! `AbortController`), carries frames over a `WebSocket`, arms timers, and exposes a small
//! async [`Client`] for applications (no `Send` bounds: it lives on the page's thread).
//!
//! ```ignore
//! let client = Client::connect(ClientOptions::new("https://example.com/mcp")).await?;
//! let tools = client.list_tools().await?;
//! let result = client.call_tool("echo", serde_json::json!({"message": "hi"})).await?;
//! ```

pub mod ascii_url;
pub mod auth;
pub mod busy_connections;
mod client;
mod clock;
mod diagnose;
pub mod discoveries;
mod driver;
pub mod eras;
mod error;
mod fetch;
mod listen_handover;
mod listing;
pub mod locks;
pub mod options;
mod page_hide;
mod session_config;
mod spawn;
mod subscriptions;
mod task_extension;
mod tasks;
mod websocket;

pub use auth::{AuthFailure, Authorizer, LoginMode, OAuthOptions, ServerRefusal, TokenStorage};
pub use client::{completion_params, decode, Client, PendingCall};
pub use error::{check_server_url, ClientError};
pub use listing::{ListOptions, ListingStop, PendingListing};
pub use options::{
    typed_handler, Answer, CallOptions, ClientEvent, ClientOptions, Handlers, TaskListener,
    Transport,
};
pub use spawn::spawn_started;

pub use client_core;
/// How a request uses the response cache (see [`CallOptions::cache`]).
pub use client_core::session::CacheMode;
