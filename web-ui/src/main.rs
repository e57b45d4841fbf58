//! Entry point of the web app: mounts the root component.

mod app;
mod components;
mod connection;
mod deep_link;
mod doctor;
mod saved;
mod schema_check;
mod schema_form;
mod uri_template;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
