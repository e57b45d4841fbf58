//! Reads the deep link parameters of the page address (`?url=…&transport=…`).

/// The `url` query parameter of the page, if present and non-empty.
pub fn server_url() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get("url").filter(|u| !u.is_empty())
}
