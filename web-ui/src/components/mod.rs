//! The app's components, one concern each.

pub mod asks;
pub mod connect_form;
pub mod logs;
pub mod prompts;
pub mod resources;
pub mod result_view;
pub mod server_view;
pub mod tool_runner;
pub mod tools;
