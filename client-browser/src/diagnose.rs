//! Tells a CORS failure from an unreachable server, and names what the server must change.
//!
//! A browser reports both as the same opaque `TypeError`. After such a failure we probe:
//! a `no-cors` request succeeds only if the server is reachable (so the failure was CORS);
//! then requests with one custom header at a time find the header the preflight refuses.
//! Each probe POSTs `{}` (not a valid JSON-RPC message, so servers reject it harmlessly).

use client_core::http::{HttpRequest, TransportFailure};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Headers a browser sends without a preflight (CORS-safelisted), compared lower-case.
const SAFELISTED: &[&str] = &["accept", "accept-language", "content-language"];

async fn probe(url: &str, mode: web_sys::RequestMode, headers: &[(&str, &str)]) -> bool {
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_mode(mode);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let Ok(h) = web_sys::Headers::new() else {
        return false;
    };
    for (k, v) in headers {
        let _ = h.append(k, v);
    }
    init.set_headers(&h);
    init.set_body(&"{}".into());
    let Some(window) = js_sys::global().dyn_into::<web_sys::Window>().ok() else {
        return false;
    };
    JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .is_ok()
}

/// Explains why `req` got no response, as precisely as the browser lets us find out.
pub(crate) async fn explain(req: &HttpRequest, original: String) -> TransportFailure {
    let page_https = js_sys::global()
        .dyn_into::<web_sys::Window>()
        .ok()
        .and_then(|w| w.location().protocol().ok())
        .is_some_and(|p| p == "https:");
    if page_https && req.url.starts_with("http://") {
        return TransportFailure::Network(format!(
            "this page is served over https and the browser blocks requests to the http:// server {} (mixed content): use an https:// server URL",
            req.url
        ));
    }
    let isolated = js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if isolated {
        // COEP blocks the no-cors probe below: reachability cannot be told apart from CORS.
        return TransportFailure::Network(format!(
            "the server at {} could not be reached, or it does not allow this page's origin (CORS); this page is cross-origin isolated, so the browser does not say which: {original}",
            req.url
        ));
    }
    if !probe(
        &req.url,
        web_sys::RequestMode::NoCors,
        &[("Content-Type", "text/plain")],
    )
    .await
    {
        return TransportFailure::Network(format!(
            "the server at {} could not be reached (refused, unknown host, or offline): {original}",
            req.url
        ));
    }
    let base = [("Content-Type", "application/json")];
    if !probe(&req.url, web_sys::RequestMode::Cors, &base).await {
        return TransportFailure::Cors(format!(
            "the server is reachable but does not allow this page's origin: it must answer with Access-Control-Allow-Origin (and allow Content-Type in Access-Control-Allow-Headers) for {}",
            req.url
        ));
    }
    for (name, value) in &req.headers {
        let lower = name.to_ascii_lowercase();
        if lower == "content-type" || SAFELISTED.contains(&lower.as_str()) {
            continue;
        }
        if !probe(
            &req.url,
            web_sys::RequestMode::Cors,
            &[base[0], (name.as_str(), value.as_str())],
        )
        .await
        {
            return TransportFailure::Cors(format!(
                "the server's CORS preflight does not allow the request header {name}: add it to Access-Control-Allow-Headers"
            ));
        }
    }
    TransportFailure::Cors(format!(
        "the request was blocked, probably by CORS (for {} {}): {original}",
        req.method.as_str(),
        req.url
    ))
}
