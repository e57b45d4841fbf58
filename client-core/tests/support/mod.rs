//! Shared test helpers.
#![allow(dead_code)]
pub mod peer;
pub mod schema;
