//! # client-core: a sans-IO Model Context Protocol client
//!
//! `#![no_std]` + `alloc`. This crate does no I/O and reads no clock: the caller feeds it
//! bytes and the current time, and drains what it wants sent, when it next wants to be woken,
//! and events for the application. The browser layer (fetch, WebSocket, timers) lives outside.
//!
//! Modules:
//! - [`bidi`]: server text inside the client's own sentences, kept from reordering them.
//! - [`error_body`]: the start of an HTTP error's body for a message (a web page's words).
//! - [`jsonrpc`]: JSON-RPC 2.0 messages and error codes.
//! - [`types`]: MCP data types for both protocol eras.
//! - [`sse`]: incremental Server-Sent Events decoder.
//! - [`headers`]: Streamable HTTP request metadata headers (`Mcp-Method`, `Mcp-Name`,
//!   `Mcp-Param-*` from `x-mcp-header`).
//! - [`http`]: HTTP request/response values exchanged with the I/O layer.
//! - [`oauth`]: OAuth discovery, PKCE, client registration, token flow, URL guard.
//! - [`session`]: the client state machine (era negotiation, transports' rules, correlation,
//!   timeouts, progress, cancellation, server requests and MRTR).
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod bidi;
pub mod error_body;
pub mod headers;
pub mod http;
pub mod jsonrpc;
pub mod oauth;
pub mod session;
pub mod task_receiver;
/// Incremental Server-Sent Events decoder (the `client-core-sse` crate).
pub use client_core_sse as sse;
pub mod time;
pub mod types;
pub mod weburl;

pub use jsonrpc::{ErrorObject, Message, RequestId};
pub use session::{Session, SessionConfig};
pub use time::Instant;
