//! Fuzzes the OAuth flow with a hostile protected resource and authorization server: an
//! arbitrary `WWW-Authenticate` challenge, then arbitrary statuses and bodies for every
//! discovery, registration and token request, and an arbitrary callback. Never panics, never
//! loops, and never asks to fetch or open a URL the guard refuses.
#![no_main]
use client_core::oauth::{check_url, AuthConfig, AuthFlow, AuthOutput, UrlPolicy};
use client_core::Instant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\u{1}');
    let challenge = parts.next().unwrap_or("");
    let config = AuthConfig {
        server_url: "https://mcp.example.com/api/mcp".into(),
        redirect_uri: "https://app.example.com/oauth-callback.html".into(),
        client_name: "fuzz".into(),
        metadata_document_url: Some("https://app.example.com/client-metadata.json".into()),
        preregistered: vec![],
        application_type: "web".into(),
        policy: UrlPolicy::default(),
        previous_scopes: vec![],
        dpop: true,
    };
    let Ok(mut flow) = AuthFlow::new(config, [3; 64], Instant(0)) else {
        return;
    };
    flow.start(Some(challenge));
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 1_000, "output loop");
        let Some(out) = flow.poll_output() else { break };
        match out {
            AuthOutput::Fetch(req) => {
                assert!(
                    check_url(&req.url, UrlPolicy::default()).is_ok(),
                    "fetch of a refused URL: {}",
                    req.url
                );
                let answer = parts.next().unwrap_or("");
                let status = [200u16, 201, 400, 401, 404, 500][answer.len() % 6];
                flow.handle_response(req.id, status, answer.as_bytes(), Instant(steps as u64));
            }
            AuthOutput::Navigate(url) => {
                assert!(
                    check_url(&url, UrlPolicy::default()).is_ok(),
                    "navigation to a refused URL: {url}"
                );
                let query = parts.next().unwrap_or("");
                let params: Vec<(String, String)> = query
                    .split('&')
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                flow.handle_callback(&params, Instant(steps as u64));
            }
            AuthOutput::Trace(_) | AuthOutput::Done(_) | AuthOutput::Failed(_) => {}
        }
    }
});
