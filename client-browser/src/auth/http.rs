//! Performs the authorization flow's HTTP requests (discovery, registration, tokens) with
//! `fetch`: whole bodies, a size cap and a deadline, never cookies.

use crate::fetch::js_message;
use client_core::oauth::AuthRequest;
use futures_util::future::{select, Either};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Largest metadata, registration or token answer read (larger ones are cut off and then
/// fail to parse, with a clear message).
const MAX_BODY: usize = 1 << 20;
/// How long one request may take.
const DEADLINE_MS: u32 = 30_000;

/// An answer: status, body, and the `DPoP-Nonce` header if the server sent one.
pub(crate) struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
    pub dpop_nonce: Option<String>,
}

/// Sends `req` (with `extra` headers, e.g. a DPoP proof); the answer, or why the browser could
/// not get one.
pub(crate) async fn perform(req: &AuthRequest, extra: &[(&str, String)]) -> Result<Answer, String> {
    let init = web_sys::RequestInit::new();
    init.set_method(req.method);
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    // A redirect on a discovery or token request is not followed (the URL guard checked
    // the original URL only).
    init.set_redirect(web_sys::RequestRedirect::Error);
    let ctrl = web_sys::AbortController::new().map_err(|e| js_message(&e))?;
    init.set_signal(Some(&ctrl.signal()));
    let headers = web_sys::Headers::new().map_err(|e| js_message(&e))?;
    for (k, v) in &req.headers {
        headers.append(k, v).map_err(|e| js_message(&e))?;
    }
    for (k, v) in extra {
        headers.append(k, v).map_err(|e| js_message(&e))?;
    }
    init.set_headers(&headers);
    if let Some(body) = &req.body {
        init.set_body(&wasm_bindgen::JsValue::from_str(body));
    }
    let window = web_sys::window().ok_or("no window")?;
    let promise = window.fetch_with_str_and_init(&req.url, &init);
    let work = async move {
        let resp: web_sys::Response = JsFuture::from(promise)
            .await
            .map_err(|e| {
                format!(
                    "{} (network error, or the server does not allow this page's origin by CORS)",
                    js_message(&e)
                )
            })?
            .unchecked_into();
        let dpop_nonce = resp.headers().get("dpop-nonce").ok().flatten();
        let buf = JsFuture::from(resp.array_buffer().map_err(|e| js_message(&e))?)
            .await
            .map_err(|e| js_message(&e))?;
        let bytes = js_sys::Uint8Array::new(&buf);
        let len = (bytes.length() as usize).min(MAX_BODY);
        Ok::<_, String>(Answer {
            status: resp.status(),
            body: bytes.subarray(0, len as u32).to_vec(),
            dpop_nonce,
        })
    };
    let timer = gloo_timers::future::TimeoutFuture::new(DEADLINE_MS);
    match select(Box::pin(work), timer).await {
        Either::Left((r, _)) => r,
        Either::Right(_) => {
            ctrl.abort();
            Err(format!("no answer within {} s", DEADLINE_MS / 1000))
        }
    }
}
