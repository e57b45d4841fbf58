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
    /// The arguments to put in that tool's form (JSON text, as the link carried it), never
    /// sent by themselves: the person reads them and presses Run.
    pub args: Option<String>,
    /// Local development: allow `http:`/loopback authorization servers. Only an embedding
    /// page can set it (the element's `allow-local-auth` attribute), never a page address.
    pub allow_local_auth: bool,
    /// Headers sent with every request to `url` (an access token the embedding page holds).
    /// Only an embedding page can set them (the element's `headers` property), never a page
    /// address; they go to this server only, not to another one connected from the form.
    pub headers: Vec<(String, String)>,
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
        args: get("args").filter(|_| get("tool").is_some()),
        allow_local_auth: false,
        headers: Vec::new(),
    }
}

/// What a query value must escape: everything but the characters `encodeURIComponent` keeps.
const QUERY_VALUE: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// The address of the app at `page` (its origin and path) that connects to `url` with
/// `transport` (`auto` is left out) and opens `tool`'s form, filled with `args` (JSON text)
/// if given: a link to share a tool, or a call to make.
pub fn link_to(page: &str, url: &str, transport: &str, tool: &str, args: Option<&str>) -> String {
    let enc = |v: &str| percent_encoding::utf8_percent_encode(v, QUERY_VALUE).to_string();
    let mut link = format!("{page}?url={}", enc(url));
    if transport != "auto" {
        link.push_str(&format!("&transport={}", enc(transport)));
    }
    link.push_str(&format!("&tool={}", enc(tool)));
    if let Some(args) = args {
        link.push_str(&format!("&args={}", enc(args)));
    }
    link
}

/// What makes links to `conn`'s tools on the app's own page, `link(tool, args)` (see
/// [`link_to`]); none where the app is embedded (the page's address is the host's).
pub fn links_for(
    conn: &crate::connection::Connection,
) -> Option<impl Fn(&str, Option<&str>) -> String + Clone + Send + Sync + 'static> {
    use leptos::prelude::WithUntracked;
    let embedded = leptos::prelude::use_context::<Option<crate::embed::EventSink>>()
        .flatten()
        .is_some();
    let page = this_page().filter(|_| !embedded)?;
    let transport = conn
        .details
        .with_untracked(|d| d.as_ref().map(|d| transport_of(d.wire)))
        .unwrap_or("auto");
    let url = conn.url.clone();
    Some(move |tool: &str, args: Option<&str>| link_to(&page, &url, transport, tool, args))
}

/// The transport to name in a link for the wire a connection ended up on.
pub fn transport_of(wire: client_browser::client_core::session::WireProtocol) -> &'static str {
    use client_browser::client_core::session::WireProtocol;
    match wire {
        WireProtocol::StreamableHttp => "auto",
        WireProtocol::HttpSse => "sse",
        WireProtocol::Frames => "websocket",
    }
}

/// The address of this page without its query and fragment.
pub fn this_page() -> Option<String> {
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_to_a_tool_names_the_server_transport_and_tool_escaped() {
        assert_eq!(
            link_to(
                "https://app.example/",
                "http://127.0.0.1:3001/mcp?k=a&b",
                "auto",
                "get-sum",
                None
            ),
            "https://app.example/?url=http%3A%2F%2F127.0.0.1%3A3001%2Fmcp%3Fk%3Da%26b&tool=get-sum"
        );
        assert_eq!(
            link_to(
                "https://app.example/x/",
                "ws://h/mcp",
                "websocket",
                "a b/é",
                None
            ),
            "https://app.example/x/?url=ws%3A%2F%2Fh%2Fmcp&transport=websocket&tool=a%20b%2F%C3%A9"
        );
        // The arguments, escaped whole: `&`, `=`, `#` and `+` in them stay theirs.
        assert_eq!(
            link_to(
                "https://app.example/",
                "http://h/mcp",
                "auto",
                "echo",
                Some(r#"{"message":"a&b=c #1 + ü"}"#)
            ),
            "https://app.example/?url=http%3A%2F%2Fh%2Fmcp&tool=echo&args=%7B%22message%22%3A%22a%26b%3Dc%20%231%20%2B%20%C3%BC%22%7D"
        );
    }

    #[test]
    fn a_link_names_the_transport_the_connection_ended_up_on() {
        use client_browser::client_core::session::WireProtocol;
        // Streamable HTTP is what "auto" tries first, so the link leaves it out.
        assert_eq!(transport_of(WireProtocol::StreamableHttp), "auto");
        assert_eq!(transport_of(WireProtocol::HttpSse), "sse");
        assert_eq!(transport_of(WireProtocol::Frames), "websocket");
    }
}
