//! The MCP browser client app, as a library: the standalone page (`main.rs`) and the
//! `<mcp-client>` element (crate `client-element`) both mount it.

pub mod app;
pub mod before_login;
pub mod call_history;
pub mod components;
pub mod connection;
pub mod deep_link;
pub mod doctor;
pub mod embed;
pub mod in_flight;
pub mod json_text;
pub mod kept_tasks;
pub mod keys;
pub mod mcp_app;
pub mod oauth_setup;
pub mod per_server;
pub mod raw_request;
pub mod sampling_reply;
pub mod sampling_summary;
pub mod saved;
pub mod schema_check;
pub mod schema_form;
pub mod schema_pattern;
pub mod schema_ref;
pub mod search;
pub mod server_tasks;
pub mod stale_lists;
pub mod tab_lock;
pub mod tab_sync;
pub mod theme;
pub mod time_limit;
pub mod tool_call;
pub mod tool_runs;
pub mod typed_json;
pub mod uri_template;
pub mod wire_log;
