//! Entry point of the web app: mounts the root component with the page's deep link.

fn main() {
    console_error_panic_hook::set_once();
    let link = web_ui::deep_link::read();
    web_ui::keys::install_search_shortcut();
    web_ui::theme::apply(web_ui::theme::load());
    leptos::mount::mount_to_body(move || leptos::view! { <web_ui::app::App link=link.clone() /> });
}
