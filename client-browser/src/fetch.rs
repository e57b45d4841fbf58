//! Performs the core's HTTP requests with `fetch`, streaming the response body chunk by chunk
//! into the session (a large result is copied into wasm memory once, never buffered twice).

use crate::driver::Inner;
use client_core::http::{HttpRequest, ResponseHead, TransportFailure};
use client_core::session::Input;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Starts one exchange; the outcome is fed back as inputs.
pub(crate) fn start(inner: &Rc<Inner>, req: HttpRequest) {
    let tid = req.id;
    let ctrl = match web_sys::AbortController::new() {
        Ok(c) => c,
        Err(e) => {
            inner.input(Input::TransportError(
                tid,
                TransportFailure::Network(js_message(&e)),
            ));
            return;
        }
    };
    let signal = ctrl.signal();
    inner.aborts.borrow_mut().insert(tid, ctrl);
    let weak = Rc::downgrade(inner);
    let with_credentials = inner.options.with_credentials;
    // Started now: `fetch` is called before this returns, not after the caller's work.
    crate::spawn::spawn_started(async move {
        let result = run(&weak, &req, &signal, with_credentials).await;
        let Some(inner) = weak.upgrade() else { return };
        inner.aborts.borrow_mut().remove(&tid);
        if let Err(failure) = result {
            let failure = if signal.aborted() {
                TransportFailure::Aborted
            } else {
                failure
            };
            inner.input(Input::TransportError(tid, failure));
        }
    });
}

async fn run(
    weak: &std::rc::Weak<Inner>,
    req: &HttpRequest,
    signal: &web_sys::AbortSignal,
    with_credentials: bool,
) -> Result<(), TransportFailure> {
    let auth = weak.upgrade().and_then(|i| i.options.auth.clone());
    // Held until the exchange ends: the page's keepalive quota counts a body until then.
    let keepalive = req
        .keepalive
        .then(|| KeepaliveShare::take(req.body.as_ref().map_or(0, Vec::len)))
        .flatten();
    // A long-lived stream is marked for every page to count (see busy_connections.rs).
    let _stream = if req.may_wait {
        crate::busy_connections::mark_stream_leaving_one_free(weak, &req.url, signal).await?
    } else if req.long_lived {
        crate::busy_connections::mark_stream(&req.url).await
    } else {
        None
    };
    // A DPoP-bound token needs a fresh proof on every request; a `use_dpop_nonce` answer is
    // retried once with the server's nonce (RFC 9449 §9) before the session sees anything.
    let mut attempt = 0;
    let resp = loop {
        attempt += 1;
        let dpop = match &auth {
            Some(a) => a.dpop_proof(req.method.as_str(), &req.url).await,
            None => None,
        };
        // Watched until answered: it may be waiting for a connection (busy_connections.rs).
        let watching = crate::busy_connections::watch(weak, &req.url);
        let resp = send(
            req,
            signal,
            with_credentials,
            dpop.as_deref(),
            keepalive.is_some(),
        )
        .await?;
        drop(watching);
        if attempt == 1 && dpop.is_some() && resp.status() == 401 {
            let h = resp.headers();
            let asks = h
                .get("www-authenticate")
                .ok()
                .flatten()
                .is_some_and(|w| w.contains("use_dpop_nonce"));
            let nonce = h.get("dpop-nonce").ok().flatten();
            if let (true, Some(n), Some(a)) = (asks, nonce, &auth) {
                if a.note_resource_nonce(&n) {
                    continue;
                }
            }
        }
        break resp;
    };
    deliver(weak, req, resp).await
}

/// The bytes of keepalive bodies this page may have in flight. Browsers allow 64 KiB per page
/// and refuse a keepalive fetch beyond it; half is left to the host page's own beacons.
const KEEPALIVE_QUOTA: usize = 32 << 10;

thread_local! {
    static KEEPALIVE_IN_FLIGHT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A keepalive body's share of the page's quota, given back when dropped.
struct KeepaliveShare(usize);

impl KeepaliveShare {
    /// A share for `bytes`, or none if the quota has no room (the request then goes out
    /// without keepalive, as any other).
    fn take(bytes: usize) -> Option<KeepaliveShare> {
        KEEPALIVE_IN_FLIGHT.with(|used| {
            let after = used.get() + bytes;
            (after <= KEEPALIVE_QUOTA).then(|| {
                used.set(after);
                KeepaliveShare(bytes)
            })
        })
    }
}

impl Drop for KeepaliveShare {
    fn drop(&mut self) {
        KEEPALIVE_IN_FLIGHT.with(|used| used.set(used.get().saturating_sub(self.0)));
    }
}

/// Sends the request once.
async fn send(
    req: &HttpRequest,
    signal: &web_sys::AbortSignal,
    with_credentials: bool,
    dpop: Option<&str>,
    keepalive: bool,
) -> Result<web_sys::Response, TransportFailure> {
    let net = |e: JsValue| TransportFailure::Network(js_message(&e));
    let init = web_sys::RequestInit::new();
    init.set_method(req.method.as_str());
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(if with_credentials {
        web_sys::RequestCredentials::Include
    } else {
        web_sys::RequestCredentials::Omit
    });
    init.set_signal(Some(signal));
    let headers = web_sys::Headers::new().map_err(net)?;
    for (k, v) in &req.headers {
        headers
            .append(k, v)
            .map_err(|e| TransportFailure::Network(format!("header {k}: {}", js_message(&e))))?;
    }
    if let Some(proof) = dpop {
        headers.append("DPoP", proof).map_err(net)?;
    }
    init.set_headers(&headers);
    if let Some(body) = &req.body {
        init.set_body(&js_sys::Uint8Array::from(body.as_slice()));
    }
    if keepalive {
        // Lets what only tells the server something (a cancel, the session's DELETE) finish
        // even while the page unloads.
        let _ = js_sys::Reflect::set(&init, &"keepalive".into(), &true.into());
    }
    let promise = fetch(&req.url, &init)?;
    let resp: web_sys::Response = match JsFuture::from(promise).await {
        Ok(r) => r.unchecked_into(),
        Err(e) if signal.aborted() => return Err(TransportFailure::Network(js_message(&e))),
        Err(e) => return Err(crate::diagnose::explain(req, js_message(&e)).await),
    };
    Ok(resp)
}

/// Feeds the response's head and body into the session.
async fn deliver(
    weak: &std::rc::Weak<Inner>,
    req: &HttpRequest,
    resp: web_sys::Response,
) -> Result<(), TransportFailure> {
    let all_headers = weak.upgrade().is_some_and(|i| i.options.wire_log);
    let headers = resp.headers();
    let head = ResponseHead {
        status: resp.status(),
        headers: if all_headers {
            string_pairs(&headers)
        } else {
            // Just what the session reads: a host call per header, not per header sent.
            client_core::http::RESPONSE_HEADERS_READ
                .iter()
                .filter_map(|&name| Some((name.to_string(), headers.get(name).ok()??)))
                .collect()
        },
    };
    let tid = req.id;
    match weak.upgrade() {
        Some(inner) => inner.input(Input::ResponseHead(tid, head)),
        None => return Ok(()),
    }
    let Some(body) = resp.body() else {
        if let Some(inner) = weak.upgrade() {
            inner.input(Input::BodyEnd(tid));
        }
        return Ok(());
    };
    // The stream's own reader, read to its end. (Not `wasm-streams`: its stream adapter
    // releases the reader's lock on every drop, a measurable cost per request.)
    let interrupted = |e: JsValue| TransportFailure::BodyInterrupted(js_message(&e));
    let reader = web_sys::ReadableStreamDefaultReader::new(&body).map_err(interrupted)?;
    let mut bytes = Vec::new();
    loop {
        let step: web_sys::ReadableStreamReadResult = JsFuture::from(reader.read())
            .await
            .map_err(interrupted)?
            .unchecked_into();
        if step.get_done().unwrap_or(true) {
            break;
        }
        let chunk = js_sys::Uint8Array::new(&step.get_value());
        // One buffer per exchange, reused for every chunk.
        bytes.resize(chunk.length() as usize, 0);
        chunk.copy_to(&mut bytes);
        let Some(inner) = weak.upgrade() else {
            return Ok(());
        };
        if !inner.aborts.borrow().contains_key(&tid) {
            return Ok(()); // aborted by the session meanwhile
        }
        inner.input(Input::BodyChunk(tid, &bytes));
    }
    if let Some(inner) = weak.upgrade() {
        inner.input(Input::BodyEnd(tid));
    }
    Ok(())
}

fn fetch(url: &str, init: &web_sys::RequestInit) -> Result<js_sys::Promise, TransportFailure> {
    let global = js_sys::global();
    if let Some(w) = global.dyn_ref::<web_sys::Window>() {
        Ok(w.fetch_with_str_and_init(url, init))
    } else if let Some(w) = global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        Ok(w.fetch_with_str_and_init(url, init))
    } else {
        Err(TransportFailure::Network("no fetch in this context".into()))
    }
}

/// The message of a JS error value.
pub(crate) fn js_message(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

/// The `[name, value]` string pairs of an iterable JS object (`Headers`, `URLSearchParams`).
pub(crate) fn string_pairs(iterable: &JsValue) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Ok(Some(iter)) = js_sys::try_iter(iterable) {
        for entry in iter.flatten() {
            let pair: js_sys::Array = entry.unchecked_into();
            if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                out.push((k, v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{KeepaliveShare, KEEPALIVE_QUOTA};

    #[test]
    fn keepalive_shares_stay_within_the_quota_and_are_given_back() {
        let big = KEEPALIVE_QUOTA / 2 + 1;
        let first = KeepaliveShare::take(big).expect("room for the first");
        assert!(
            KeepaliveShare::take(big).is_none(),
            "no room for a second: it goes out without keepalive"
        );
        let small = KeepaliveShare::take(KEEPALIVE_QUOTA - big).expect("the rest still fits");
        assert!(KeepaliveShare::take(1).is_none(), "the quota is full");
        drop(first);
        let again = KeepaliveShare::take(big).expect("given back when the first ended");
        drop((small, again));
        assert!(
            KeepaliveShare::take(KEEPALIVE_QUOTA).is_some(),
            "all given back"
        );
        assert!(KeepaliveShare::take(KEEPALIVE_QUOTA + 1).is_none());
    }
}
