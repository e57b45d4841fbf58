//! Errors of the [`crate::Client`] API, with messages a user can act on.

use client_core::bidi::Isolated;
use client_core::session::RequestError;

/// Why a client operation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClientError {
    /// Connecting failed (see the inner error; network and CORS problems are explained).
    #[error("could not connect: {0}")]
    Connect(RequestError),
    /// The server needs authorization (HTTP 401 or 403 `insufficient_scope`).
    #[error("the server requires authorization{}", www_authenticate.as_ref().map(|w| format!(" ({})", Isolated(w))).unwrap_or_default())]
    AuthRequired {
        /// 401, or 403 for `insufficient_scope`.
        status: u16,
        /// The `WWW-Authenticate` challenge, if the server exposed it to the page.
        www_authenticate: Option<String>,
    },
    /// Logging in or refreshing failed.
    #[error("authorization failed: {0}")]
    Auth(crate::auth::AuthFailure),
    /// A request failed.
    #[error("{0}")]
    Request(RequestError),
    /// The server answered with a result of an unexpected shape.
    #[error("unexpected result from the server: {0}")]
    UnexpectedResult(String),
    /// The client was closed.
    #[error("the client is closed")]
    Closed,
    /// A 2026-07-28 server left a resource out when it acknowledged the subscription stream:
    /// it will not send updates of it (servers that offer them declare `resources.subscribe`).
    #[error("the server does not send updates of {}: it left the resource out when it acknowledged the subscription (servers that support resource subscriptions declare resources.subscribe)", Isolated(uri))]
    SubscriptionRefused {
        /// The resource.
        uri: String,
    },
    /// Something the browser refused (e.g. no `fetch` in this context).
    #[error("the browser refused: {0}")]
    Browser(String),
    /// The server URL names a scheme no MCP transport uses (`javascript:`, `file:`, …).
    #[error(
        "{url:?} is not an MCP server URL: it must start with http://, https://, ws:// or wss://"
    )]
    UnusableUrl {
        /// The URL as given.
        url: String,
    },
}

/// Whether `url` can be a server's address, checked before anything is sent or kept (the
/// client's `reconnect` refuses such a URL, and an application asks before it saves a
/// server the user named). It cannot when it names a scheme other than http(s) or ws(s). A
/// URL with no scheme is relative to the page, and the browser resolves it (an endpoint on
/// the page's own origin).
pub fn check_server_url(url: &str) -> Result<(), ClientError> {
    let url = url.trim();
    // A scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:` (RFC 3986).
    let scheme = url.split_once(':').map(|(s, _)| s).filter(|s| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    let known = ["http", "https", "ws", "wss"];
    match scheme {
        Some(scheme) if !known.iter().any(|k| scheme.eq_ignore_ascii_case(k)) => {
            Err(ClientError::UnusableUrl {
                url: url.to_string(),
            })
        }
        _ => Ok(()),
    }
}

impl ClientError {
    /// The URL elicitations the server asks the user to complete before the request is made
    /// again, when it refused it with a `URLElicitationRequiredError` (`-32042`); see
    /// [`client_core::types::url_elicitations_required`].
    pub fn url_elicitations_required(&self) -> Option<Vec<client_core::types::ElicitParams>> {
        match self {
            ClientError::Request(RequestError::Rpc(e)) => {
                client_core::types::url_elicitations_required(e)
            }
            _ => None,
        }
    }
}

impl From<RequestError> for ClientError {
    fn from(e: RequestError) -> Self {
        match e {
            RequestError::Http {
                status: status @ (401 | 403),
                www_authenticate,
                ..
            } => ClientError::AuthRequired {
                status,
                www_authenticate,
            },
            other => ClientError::Request(other),
        }
    }
}

#[cfg(test)]
mod url_tests {
    use super::*;

    #[test]
    fn only_web_schemes_are_server_urls() {
        for ok in [
            "http://127.0.0.1:3000/mcp",
            "HTTPS://example.com/mcp",
            "ws://localhost/ws",
            "wss://example.com/",
            "/mcp",
            "mcp",
            "//example.com/mcp",
            "?x=a:b",
            // Not schemes: a first character other than a letter, a character no scheme has.
            "9p:x",
            "a_b:x",
        ] {
            assert!(check_server_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            " javascript:alert(1)",
            "data:text/html,x",
            "file:///etc/passwd",
            "blob:https://example.com/x",
            "ftp://example.com/",
            "localhost:3000/mcp",
        ] {
            assert!(
                matches!(check_server_url(bad), Err(ClientError::UnusableUrl { .. })),
                "{bad}"
            );
        }
    }
}

#[cfg(test)]
mod elicitation_tests {
    use super::*;
    use client_core::ErrorObject;

    #[test]
    fn only_a_json_rpc_refusal_asking_for_pages_names_them() {
        let mut refusal = ErrorObject::new(-32042, "open this page first");
        refusal.data = Some(serde_json::json!({ "elicitations": [{
            "mode": "url", "elicitationId": "e1", "url": "https://a.test/consent",
            "message": "Consent"
        }] }));
        let asked = ClientError::Request(RequestError::Rpc(refusal.clone()))
            .url_elicitations_required()
            .expect("pages asked for");
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].elicitation_id.as_deref(), Some("e1"));
        // The same data in any other failure asks for nothing.
        let http = ClientError::Request(RequestError::Http {
            status: 400,
            body: refusal.message.clone(),
            www_authenticate: None,
        });
        assert_eq!(http.url_elicitations_required(), None);
        assert_eq!(ClientError::Closed.url_elicitations_required(), None);
    }
}

#[cfg(test)]
mod message_tests {
    use super::*;
    use crate::auth::AuthFailure;

    /// An override after an isolate closer that closes nothing, as a hostile server sends it;
    /// and what a message shows in its place (one isolate, the closer dropped).
    const HOSTILE: &str = "a\u{2069}\u{202e}b";
    const SHOWN: &str = "\u{2068}a\u{202e}b\u{2069}";

    #[test]
    fn server_text_in_a_message_is_isolated() {
        let challenge = ClientError::AuthRequired {
            status: 401,
            www_authenticate: Some(HOSTILE.into()),
        };
        assert_eq!(
            challenge.to_string(),
            format!("the server requires authorization ({SHOWN})")
        );
        let refused = ClientError::SubscriptionRefused {
            uri: HOSTILE.into(),
        };
        assert!(
            refused.to_string().starts_with(&format!(
                "the server does not send updates of {SHOWN}: it left"
            )),
            "{refused}"
        );
        let unreachable = AuthFailure::Network {
            url: HOSTILE.into(),
            reason: "TypeError: Failed to fetch".into(),
        };
        assert_eq!(
            unreachable.to_string(),
            format!("could not reach {SHOWN}: TypeError: Failed to fetch")
        );
        // Plain text reads as written.
        let plain = ClientError::AuthRequired {
            status: 401,
            www_authenticate: Some("Bearer".into()),
        };
        assert_eq!(
            plain.to_string(),
            "the server requires authorization (Bearer)"
        );
    }
}
