//! Performs the authorization flow's HTTP requests (discovery, registration, tokens) with
//! `fetch`: whole bodies, a size cap and a deadline, never cookies.

use crate::fetch::js_message;
use client_core::oauth::AuthRequest;
use futures_util::future::{select, Either};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Largest metadata, registration or token answer read: a larger one is cut off there (the
/// rest is not downloaded) and then fails to parse, with a clear message.
pub(crate) const MAX_BODY: usize = 1 << 20;
/// How long one request may take.
const DEADLINE_MS: u32 = 30_000;

/// An answer: status, body, and the `DPoP-Nonce` header if the server sent one.
pub(crate) struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
    /// Whether the body was longer than [`MAX_BODY`] and `body` holds only its start.
    pub cut_off: bool,
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
        let (body, cut_off) = read_capped(&resp).await?;
        Ok::<_, String>(Answer {
            status: resp.status(),
            body,
            cut_off,
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

/// The body of `resp`, read chunk by chunk up to [`MAX_BODY`] bytes, and whether it was longer:
/// a longer one is cut off there and its stream cancelled, so that a hostile server cannot
/// fill the page's memory (a whole-body read such as `arrayBuffer()` would take everything it
/// sends).
async fn read_capped(resp: &web_sys::Response) -> Result<(Vec<u8>, bool), String> {
    let Some(body) = resp.body() else {
        return Ok((Vec::new(), false));
    };
    let reader = web_sys::ReadableStreamDefaultReader::new(&body).map_err(|e| js_message(&e))?;
    let mut bytes = Vec::new();
    loop {
        let step: web_sys::ReadableStreamReadResult = JsFuture::from(reader.read())
            .await
            .map_err(|e| js_message(&e))?
            .unchecked_into();
        if step.get_done().unwrap_or(true) {
            break;
        }
        let chunk = js_sys::Uint8Array::new(&step.get_value());
        let start = bytes.len();
        let take = (chunk.length() as usize).min(MAX_BODY - start);
        bytes.resize(start + take, 0);
        chunk.subarray(0, take as u32).copy_to(&mut bytes[start..]);
        if take < chunk.length() as usize {
            let _ = reader.cancel();
            return Ok((bytes, true));
        }
    }
    Ok((bytes, false))
}
