//! The app's components, one concern each.

pub mod app_view;
pub mod asks;
pub mod auth_panel;
pub mod completing_input;
pub mod connect_form;
pub mod copy_button;
pub mod elicitation_ask;
pub mod history;
pub mod kept_app_views;
pub mod keyed_list;
pub mod logs;
pub mod long_text;
pub mod multi_select;
pub mod prompts;
pub mod resources;
pub mod result_view;
pub mod sampling_ask;
pub mod sampling_tool_calls;
pub mod saved_servers;
pub mod send_request;
pub mod server_about;
pub mod server_view;
pub mod settings;
pub mod tasks;
pub mod tool_runner;
pub mod tools;
