//! HTTP values exchanged between the session and the I/O layer that performs them.

use alloc::string::String;
use alloc::vec::Vec;

/// Identifies one HTTP exchange the session asked for; responses refer back to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TransmitId(pub u64);

/// HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    /// POST a JSON-RPC message.
    Post,
    /// GET an SSE stream.
    Get,
    /// DELETE a session.
    Delete,
}

impl HttpMethod {
    /// The method token.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Post => "POST",
            HttpMethod::Get => "GET",
            HttpMethod::Delete => "DELETE",
        }
    }
}

/// An HTTP request for the I/O layer to perform.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    /// Refer to this exchange in the inputs that follow.
    pub id: TransmitId,
    /// The method.
    pub method: HttpMethod,
    /// Absolute URL.
    pub url: String,
    /// Header names and values (names in canonical case; compare case-insensitively).
    pub headers: Vec<(String, String)>,
    /// The body, if any.
    pub body: Option<Vec<u8>>,
    /// The request only tells the server something (a notification, a small response to a
    /// server request, a `tasks/cancel`, the session's DELETE) and is small
    /// ([`KEEPALIVE_BODY_LIMIT`]): it should reach the server even if the page unloads as it
    /// goes out (fetch's `keepalive`). A person who aborts a call and closes the tab still
    /// cancels it; leaving the page still ends the session.
    pub keepalive: bool,
    /// The request opens a stream that only waits for what the server may send of its own
    /// accord (the legacy standalone GET stream; a `subscriptions/listen` stream, unless it
    /// replaces one still open): the session does without it meanwhile. An I/O layer may
    /// hold it back, e.g. while it would take the last connection a browser opens to the
    /// server over HTTP/1.1 (requests would then have none).
    pub may_wait: bool,
    /// The response is a stream that stays open (the standalone GET stream, the HTTP+SSE
    /// stream, a resumed response stream, a `subscriptions/listen` stream): it holds its
    /// connection for as long as it is open.
    pub long_lived: bool,
}

/// The largest body of a [`HttpRequest::keepalive`] request. Browsers allow 64 KiB of
/// keepalive bodies in flight per page; what only tells the server something is far smaller
/// (a larger one, such as a sampling answer with an image, goes out as usual).
pub const KEEPALIVE_BODY_LIMIT: usize = 8 << 10;

impl HttpRequest {
    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }
}

/// The status line and headers of a response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResponseHead {
    /// HTTP status code.
    pub status: u16,
    /// Header names and values as received.
    pub headers: Vec<(String, String)>,
}

/// The response headers the session reads. An I/O layer may hand over just these (reading
/// every header costs a host call per header in a browser); hand over all of them when the
/// application shows the wire traffic.
pub const RESPONSE_HEADERS_READ: &[&str] = &["content-type", "mcp-session-id", "www-authenticate"];

impl ResponseHead {
    /// A head with a status and headers.
    pub fn new(status: u16, headers: &[(&str, &str)]) -> Self {
        ResponseHead {
            status,
            headers: headers
                .iter()
                .map(|(k, v)| ((*k).into(), (*v).into()))
                .collect(),
        }
    }

    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    /// The media type of `Content-Type`, lower-cased, without parameters.
    pub fn media_type(&self) -> Option<String> {
        let ct = self.header("content-type")?;
        let main = ct.split(';').next().unwrap_or("").trim();
        Some(main.to_ascii_lowercase())
    }
}

fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Why an HTTP exchange failed below HTTP (as reported by the I/O layer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportFailure {
    /// The request never got a response: refused, DNS, offline, or blocked by CORS (a
    /// browser cannot tell these apart; the I/O layer may probe and say which).
    Network(String),
    /// The response was blocked by CORS (diagnosed by the I/O layer).
    Cors(String),
    /// The body stream broke after the response started.
    BodyInterrupted(String),
    /// The exchange was aborted because the session asked for it.
    Aborted,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_tokens_are_the_ones_fetch_sends() {
        assert_eq!(HttpMethod::Post.as_str(), "POST");
        assert_eq!(HttpMethod::Get.as_str(), "GET");
        assert_eq!(HttpMethod::Delete.as_str(), "DELETE");
    }
}
