//! Reads the deep link parameters of the page address (`?url=…&transport=…&tool=…`).

/// What the page address asks for.
#[derive(Debug, Clone, Default)]
pub struct DeepLink {
    /// Server URL to connect to at once.
    pub url: Option<String>,
    /// Transport (`auto`, `streamable`, `sse`, `websocket`).
    pub transport: String,
    /// The tool to show first (its form open), once the server lists it.
    pub tool: Option<String>,
    /// Local development: allow `http:`/loopback authorization servers. Only an embedding
    /// page can set it (the element's `allow-local-auth` attribute), never a page address.
    pub allow_local_auth: bool,
}

/// The deep link of the current page.
pub fn read() -> DeepLink {
    let params = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok());
    let get = |k: &str| {
        params
            .as_ref()
            .and_then(|p| p.get(k))
            .filter(|v| !v.is_empty())
    };
    DeepLink {
        url: get("url"),
        transport: get("transport").unwrap_or_else(|| "auto".into()),
        tool: get("tool"),
        allow_local_auth: false,
    }
}
