//! Entry point of the web app: mounts the root component.

mod app;
mod deep_link;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
