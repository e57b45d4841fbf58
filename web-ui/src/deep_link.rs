//! Reads the deep link parameters of the page address (`?url=…&transport=…&tool=…`, or
//! `…&prompt=…`, or `…&resource=…`), and makes such links.

/// What the page address asks for.
#[derive(Debug, Clone, Default)]
pub struct DeepLink {
    /// Server URL to connect to at once.
    pub url: Option<String>,
    /// Transport (`auto`, `streamable`, `sse`, `websocket`).
    pub transport: String,
    /// The tool to show first (its form open), once the server lists it.
    pub tool: Option<String>,
    /// The prompt to show first (its form open, in the prompts tab), once the server lists
    /// it. A link names a tool or a prompt; given both, the tool's form gets the arguments.
    pub prompt: Option<String>,
    /// The URI of a resource to read and show (in the resources tab) once connected. Unlike
    /// a call, a read only retrieves, so the link reads it at once.
    pub resource: Option<String>,
    /// The arguments to put in that tool's or prompt's form (JSON text, as the link carried
    /// it), never sent by themselves: the person reads them and presses Run (Get prompt).
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
        prompt: get("prompt"),
        resource: get("resource"),
        args: get("args").filter(|_| get("tool").is_some() || get("prompt").is_some()),
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

/// What a link opens on the server it connects to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opens<'a> {
    /// The form of the tool of this name.
    Tool(&'a str),
    /// The form of the prompt of this name (in the prompts tab).
    Prompt(&'a str),
    /// The contents of the resource of this URI, read (in the resources tab).
    Resource(&'a str),
}

/// The address of the app at `page` (its origin and path) that connects to `url` with
/// `transport` (`auto` is left out) and opens a tool's or prompt's form, filled with `args`
/// (JSON text) if given, or reads a resource: a link to share a tool, prompt or resource, or
/// a call to make.
pub fn link_to(
    page: &str,
    url: &str,
    transport: &str,
    opens: Opens<'_>,
    args: Option<&str>,
) -> String {
    let mut link = server_address(page, url, transport);
    match opens {
        Opens::Tool(tool) => link.push_str(&format!("&tool={}", enc(tool))),
        Opens::Prompt(prompt) => link.push_str(&format!("&prompt={}", enc(prompt))),
        Opens::Resource(uri) => link.push_str(&format!("&resource={}", enc(uri))),
    }
    if let Some(args) = args {
        link.push_str(&format!("&args={}", enc(args)));
    }
    link
}

/// A query value escaped as `encodeURIComponent` escapes it.
fn enc(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, QUERY_VALUE).to_string()
}

/// The address of the app at `page` (its origin and path) that connects to `url` with
/// `transport` (`auto` is left out): what the address bar shows while that server is shown.
pub fn server_address(page: &str, url: &str, transport: &str) -> String {
    let mut address = format!("{page}?url={}", enc(url));
    if transport != "auto" {
        address.push_str(&format!("&transport={}", enc(transport)));
    }
    address
}

/// Words that, in a query parameter's name (lower-cased, without `-`, `_` and `.`), mark
/// its value as a credential: `api_key`, `access_token`, `X-Amz-Signature`, `auth`, ….
const SECRET_NAME_PARTS: &[&str] = &[
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "pwd",
    "auth",
    "sig",
    "session",
    "credential",
    "jwt",
    "bearer",
    "code",
];

/// Whether `url` carries what looks like a credential: a user name or password before its
/// host, or a query parameter named for one (see [`SECRET_NAME_PARTS`]). Such a URL is not
/// put in the address bar, where the browser's history (and any history sync) would keep it;
/// a false alarm only means a reload does not come back to that server.
pub fn holds_a_secret(url: &str) -> bool {
    // Parsed as the browser will (one that does not parse is never connected to).
    let Ok(url) = client_browser::client_core::weburl::parse(url) else {
        return false;
    };
    if !url.username().is_empty() || url.password().is_some() {
        return true;
    }
    url.query().unwrap_or_default().split('&').any(|pair| {
        let name = pair.split('=').next().unwrap_or_default().replace('+', " ");
        let name: String = percent_encoding::percent_decode_str(&name)
            .decode_utf8_lossy()
            // ASCII only: the words looked for are, and `to_lowercase` would bring the
            // Unicode case tables into the wasm (16 KB).
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | '.' | ' '))
            .collect();
        SECRET_NAME_PARTS.iter().any(|part| name.contains(part))
    })
}

/// Shows `address` (of this page's origin) in the browser's address bar in place of the
/// page's own, without loading it and without a new entry in the history.
pub fn show_address(address: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if window.location().href().ok().as_deref() == Some(address) {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address));
    }
}

/// What makes links to `conn`'s tools, prompts and resources on the app's own page,
/// `link(opens, args)` (see [`link_to`]); none where the app is embedded (the page's address
/// is the host's).
pub fn links_for(
    conn: &crate::connection::Connection,
) -> Option<impl Fn(Opens<'_>, Option<&str>) -> String + Clone + Send + Sync + 'static> {
    use leptos::prelude::WithUntracked;
    let embedded = leptos::prelude::use_context::<Option<crate::embed::EventSink>>()
        .flatten()
        .is_some();
    let page = this_page().filter(|_| !embedded)?;
    let transport = conn.details.with_untracked(|d| transport_for(d.as_ref()));
    let url = conn.url.clone();
    Some(move |opens: Opens<'_>, args: Option<&str>| link_to(&page, &url, transport, opens, args))
}

/// The transport to name in a link to a connection with these details: `auto` until it
/// is connected.
pub fn transport_for(
    details: Option<&client_browser::client_core::session::ServerDetails>,
) -> &'static str {
    details.map_or("auto", |d| transport_of(d.wire))
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
                Opens::Tool("get-sum"),
                None
            ),
            "https://app.example/?url=http%3A%2F%2F127.0.0.1%3A3001%2Fmcp%3Fk%3Da%26b&tool=get-sum"
        );
        assert_eq!(
            link_to(
                "https://app.example/x/",
                "ws://h/mcp",
                "websocket",
                Opens::Tool("a b/é"),
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
                Opens::Tool("echo"),
                Some(r#"{"message":"a&b=c #1 + ü"}"#)
            ),
            "https://app.example/?url=http%3A%2F%2Fh%2Fmcp&tool=echo&args=%7B%22message%22%3A%22a%26b%3Dc%20%231%20%2B%20%C3%BC%22%7D"
        );
        // A prompt, by `prompt=` instead of `tool=`.
        assert_eq!(
            link_to(
                "https://app.example/",
                "http://h/mcp",
                "sse",
                Opens::Prompt("args-prompt"),
                Some(r#"{"city":"Zürich"}"#)
            ),
            "https://app.example/?url=http%3A%2F%2Fh%2Fmcp&transport=sse&prompt=args-prompt&args=%7B%22city%22%3A%22Z%C3%BCrich%22%7D"
        );
        // A resource, by its URI, escaped whole.
        assert_eq!(
            link_to(
                "https://app.example/",
                "http://h/mcp",
                "auto",
                Opens::Resource("demo://resource/dynamic/text/3?x=1&y=#z"),
                None
            ),
            "https://app.example/?url=http%3A%2F%2Fh%2Fmcp&resource=demo%3A%2F%2Fresource%2Fdynamic%2Ftext%2F3%3Fx%3D1%26y%3D%23z"
        );
    }

    #[test]
    fn a_url_with_a_credential_in_its_query_or_before_its_host_holds_a_secret() {
        for url in [
            "https://mcp.example.com/mcp?api_key=abc",
            "https://mcp.example.com/mcp?x=1&apiKey=abc",
            "https://mcp.example.com/mcp?ACCESS-TOKEN=abc",
            "https://mcp.example.com/mcp?X-Amz-Signature=abc&X-Amz-Credential=d",
            "https://mcp.example.com/mcp?%61uth=abc",
            "https://mcp.example.com/mcp?client_secret",
            "https://user:pass@mcp.example.com/mcp",
            "https://user@mcp.example.com/mcp",
        ] {
            assert!(holds_a_secret(url), "{url}");
        }
        for url in [
            "https://mcp.example.com/mcp",
            "http://127.0.0.1:3001/mcp?profile=dev&region=eu",
            "https://mcp.example.com/mcp/user@example.com",
            "https://mcp.example.com/mcp?q=token#api_key=1",
            "https://mcp.example.com/a@b?x=1",
        ] {
            assert!(!holds_a_secret(url), "{url}");
        }
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
