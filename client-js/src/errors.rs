//! What the JavaScript API throws: `Error` objects named `McpError` whose `kind` says what
//! went wrong, with the server's JSON-RPC `code` and `data`, the HTTP `status`, or the time
//! limit, when there is one, so that a host branches on fields instead of parsing messages.

use client_browser::client_core::session::RequestError;
use client_browser::client_core::ErrorObject;
use client_browser::ClientError;
use wasm_bindgen::prelude::*;

/// The TypeScript shape of the errors.
#[wasm_bindgen(typescript_custom_section)]
const TS_ERROR: &'static str = r#"
/** What every method of McpClient rejects with: an `Error` named "McpError". */
export interface McpError extends Error {
  name: "McpError";
  /** What went wrong:
   * "rpc" (the server answered with a JSON-RPC error: see `code`, `data`),
   * "http" (an HTTP error status: see `status`),
   * "network" (no HTTP response: the server is down, refused, or CORS blocked the page),
   * "timeout" (no answer within `afterMs`; the request was cancelled),
   * "cancelled" (by an AbortSignal or `close()`),
   * "auth-required" (401, or 403 insufficient_scope: see `status`, `wwwAuthenticate`),
   * "auth" (logging in or refreshing failed, or the server refused the new credentials too),
   * "protocol" (the server broke the protocol), "unexpected-result" (a result of the wrong
   * shape), "too-large" (a message over the size limit), "stream-cut" (the response stream
   * ended early and could not be resumed), "session-lost", "session-header-hidden" (CORS hides
   * Mcp-Session-Id), "input-refused" (the input the server asked for was refused: `code`),
   * "unavailable", "closed", "browser" (the browser refused something),
   * "invalid-argument" (an argument or option of the call), "not-approved" (the `approve`
   * hook said no), "subscription-refused" (`subscribeResource`: a 2026-07-28 server left the
   * resource out of what it agreed to send). */
  kind: string;
  /** The JSON-RPC error code ("rpc", "input-refused"). */
  code?: number;
  /** The JSON-RPC error data, if the server sent any. */
  data?: any;
  /** The HTTP status ("http", "auth-required"). */
  status?: number;
  /** The server's WWW-Authenticate challenge, if readable ("auth-required"). */
  wwwAuthenticate?: string;
  /** The time limit that ran out, in milliseconds ("timeout"). */
  afterMs?: number;
}
"#;

/// An `McpError` of `kind` with `message`.
pub(crate) fn api_error(kind: &str, message: &str) -> JsError {
    let e = JsError::new(message);
    let v: JsValue = e.clone().into();
    set(&v, "name", "McpError".into());
    set(&v, "kind", kind.into());
    e
}

/// An argument or option the host passed is not usable.
pub(crate) fn invalid_argument(message: &str) -> JsError {
    api_error("invalid-argument", message)
}

/// The `McpError` for a failed client operation.
pub(crate) fn client_error(e: ClientError) -> JsError {
    let message = e.to_string();
    match e {
        ClientError::Connect(inner) | ClientError::Request(inner) => request_error(inner, &message),
        ClientError::AuthRequired {
            status,
            www_authenticate,
        } => {
            let err = api_error("auth-required", &message);
            let v: JsValue = err.clone().into();
            set(&v, "status", status.into());
            if let Some(w) = www_authenticate {
                set(&v, "wwwAuthenticate", w.into());
            }
            err
        }
        ClientError::Auth(_) => api_error("auth", &message),
        ClientError::UnexpectedResult(_) => api_error("unexpected-result", &message),
        ClientError::Closed => api_error("closed", &message),
        ClientError::Browser(_) => api_error("browser", &message),
        ClientError::SubscriptionRefused { .. } => api_error("subscription-refused", &message),
        ClientError::UnusableUrl { .. } => api_error("invalid-argument", &message),
    }
}

fn request_error(e: RequestError, message: &str) -> JsError {
    let (kind, rpc) = match &e {
        RequestError::Rpc(o) => ("rpc", Some(o)),
        RequestError::InputRefused(o) => ("input-refused", Some(o)),
        RequestError::Http { .. } => ("http", None),
        RequestError::Transport(_) => ("network", None),
        RequestError::Timeout { .. } => ("timeout", None),
        RequestError::Cancelled => ("cancelled", None),
        RequestError::Protocol(_) => ("protocol", None),
        RequestError::TooLarge { .. } => ("too-large", None),
        RequestError::StreamCut => ("stream-cut", None),
        RequestError::SessionLost => ("session-lost", None),
        RequestError::SessionHeaderHidden => ("session-header-hidden", None),
        RequestError::Closed => ("closed", None),
        RequestError::Unavailable(_) => ("unavailable", None),
    };
    let err = api_error(kind, message);
    let v: JsValue = err.clone().into();
    if let Some(ErrorObject { code, data, .. }) = rpc {
        set(&v, "code", (*code as f64).into());
        if let Some(data) = data {
            if let Ok(d) = crate::to_js(data) {
                set(&v, "data", d);
            }
        }
    }
    match e {
        RequestError::Http { status, .. } => set(&v, "status", status.into()),
        RequestError::Timeout { after_ms } => set(&v, "afterMs", (after_ms as f64).into()),
        _ => {}
    }
    err
}

fn set(target: &JsValue, key: &str, value: JsValue) {
    // Setting a property on a fresh `Error` object cannot fail.
    let _ = js_sys::Reflect::set(target, &key.into(), &value);
}
