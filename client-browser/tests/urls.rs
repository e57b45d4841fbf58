//! International domain names, in headless Chromium: the browser's URL parser turns them
//! into ASCII before the core (built without Unicode tables) sees them.

#![cfg(target_arch = "wasm32")]

use client_browser::ascii_url::{ascii_url, join_url};
use client_browser::client_core::oauth::{AuthConfig, AuthFlow, AuthOutput, UrlPolicy};
use client_browser::client_core::Instant;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_era_memory_keeps_no_credentials_query_or_fragment() {
    use client_browser::client_core::types::Era;
    use client_browser::eras::{memory_key, remember, remembered, STORAGE_KEY};
    let cases = [
        ("https://mcp.example/mcp", "https://mcp.example/mcp"),
        (
            "https://mcp.example/mcp?apiKey=s3cret#x",
            "https://mcp.example/mcp",
        ),
        (
            "https://user:pw@mcp.example:8443/a/b?q",
            "https://mcp.example:8443/a/b",
        ),
        ("https://mcp.example?k=a://b@c/d", "https://mcp.example"),
        ("http://h/p@q", "http://h/p@q"),
        ("wss://a@b@h/ws", "wss://h/ws"),
        ("not a url? at all", "not a url"),
        ("", ""),
    ];
    for (url, key) in cases {
        assert_eq!(memory_key(url), key, "{url}");
    }
    remember(
        "https://user:pw@eras.example/mcp?apiKey=s3cret",
        Era::Modern,
    );
    assert_eq!(remembered("https://eras.example/mcp"), Some(Era::Modern));
    assert_eq!(
        remembered("https://eras.example/mcp?other=1"),
        Some(Era::Modern)
    );
    let stored = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .unwrap_or_default();
    assert!(stored.contains("https://eras.example/mcp"), "{stored}");
    assert!(
        !stored.contains("s3cret") && !stored.contains("pw@"),
        "{stored}"
    );
}

#[wasm_bindgen_test]
fn international_hosts_become_punycode() {
    assert_eq!(
        ascii_url("https://bücher.example/mcp"),
        "https://xn--bcher-kva.example/mcp"
    );
    assert_eq!(
        ascii_url("https://EXAMPLE.com/mcp"),
        "https://example.com/mcp"
    );
    assert_eq!(ascii_url("not a url"), "not a url");
    assert_eq!(
        join_url("https://app.example/a/index.html", "oauth-callback.html").as_deref(),
        Some("https://app.example/a/oauth-callback.html")
    );
}

#[wasm_bindgen_test]
fn an_international_server_can_log_in() {
    let config = AuthConfig {
        server_url: ascii_url("https://bücher.example/mcp"),
        redirect_uri: "https://app.example/oauth-callback.html".into(),
        client_name: "test".into(),
        metadata_document_url: None,
        preregistered: vec![],
        application_type: "web".into(),
        policy: UrlPolicy::default(),
        previous_scopes: vec![],
        dpop: false,
    };
    let mut flow = AuthFlow::new(config, [7; 64], Instant(0)).expect("a valid ASCII URL");
    flow.start(None);
    let first = std::iter::from_fn(|| flow.poll_output()).find_map(|o| match o {
        AuthOutput::Fetch(r) => Some(r.url),
        _ => None,
    });
    assert_eq!(
        first.as_deref(),
        Some("https://xn--bcher-kva.example/.well-known/oauth-protected-resource/mcp")
    );
}
