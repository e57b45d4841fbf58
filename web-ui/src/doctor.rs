//! The connection doctor: says in plain words why connecting failed and what the server's
//! owner (or the person) can change.

use client_browser::client_core::http::TransportFailure;
use client_browser::client_core::oauth::guard::UrlError;
use client_browser::client_core::oauth::AuthError;
use client_browser::client_core::session::RequestError;
use client_browser::{AuthFailure, ClientError};

/// A plain explanation of a client error.
pub fn explain(e: &ClientError) -> String {
    match e {
        ClientError::AuthRequired { status: 403, .. } => {
            "The server needs permissions you have not granted (HTTP 403 insufficient_scope). Log in again to grant them.".into()
        }
        ClientError::AuthRequired { .. } => {
            "The server requires authorization (HTTP 401). Log in, or add a bearer token or header.".into()
        }
        ClientError::Auth(a) => explain_auth(a),
        ClientError::Connect(r) | ClientError::Request(r) => explain_request(r),
        other => other.to_string(),
    }
}

/// A plain explanation of a failed login or refresh.
pub fn explain_auth(e: &AuthFailure) -> String {
    // What failed may quote the authorization server (an issuer, its error's description):
    // isolated when it steers text direction, so the advice after it reads as written.
    let text = format!(
        "Login failed: {}.",
        crate::bidi::isolated_if_steering(&e.to_string())
    );
    match e {
        AuthFailure::Flow(AuthError::Url(UrlError::NotHttps(_) | UrlError::PrivateTarget(_))) => format!(
            "{text} For local development, tick \"allow http and loopback authorization servers\" in the connect form and connect again."
        ),
        AuthFailure::TooManyAttempts { attempts, said: Some(said) } if said.error == "use_dpop_nonce" => format!(
            "The server asked for a new DPoP nonce {attempts} times in a row and refused each proof made with the one it gave ({said}). Its owner can check how it hands out nonces; logging in again will not help."
        ),
        AuthFailure::TooManyAttempts { attempts, said } => format!(
            "The server refused the new credentials too, {attempts} times in a row{}. It does not take the tokens its authorization server issues for this address: its owner can check their audience and scopes; logging in again will not help.",
            said.as_ref().map(|s| format!("; it last said: {s}")).unwrap_or_default()
        ),
        AuthFailure::Flow(AuthError::NeedsClientId(_)) => {
            format!("{text} Enter the client id you registered with that server under \"Headers and token\" and connect again.")
        }
        _ => text,
    }
}

fn explain_request(r: &RequestError) -> String {
    match r {
        RequestError::Transport(TransportFailure::Cors(m)) => format!("Blocked by the browser's CORS rules: {m}."),
        RequestError::Transport(TransportFailure::Network(m)) => format!("Network problem: {m}."),
        RequestError::Http { status: 404, .. } => {
            "Nothing answers MCP at this URL (HTTP 404): check the path (often /mcp, or /sse for older servers).".into()
        }
        RequestError::Http { status: 405, .. } => {
            "The server does not accept MCP requests at this URL (HTTP 405): check the path.".into()
        }
        RequestError::Http { status, body, .. } if *status >= 500 => {
            format!("The server failed (HTTP {status}){}", if body.is_empty() { String::new() } else { format!(": {}", crate::bidi::isolated_if_steering(body)) })
        }
        RequestError::Rpc(e) if e.code == client_browser::client_core::jsonrpc::codes::URL_ELICITATION_REQUIRED => format!(
            "The server needs you to open a web page before it can do this ({}).",
            crate::bidi::isolated_if_steering(&e.message)
        ),
        RequestError::Timeout { after_ms } => format!(
            "No answer or progress from the server in {} s, so the request was cancelled. For a slower server or tool, raise the time limit in Settings.",
            after_ms.div_ceil(1000)
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_browser::ServerRefusal;

    #[test]
    fn explains_common_failures() {
        let cors = ClientError::Connect(RequestError::Transport(TransportFailure::Cors(
            "the server's CORS preflight does not allow the request header Mcp-Method".into(),
        )));
        assert!(explain(&cors).contains("Mcp-Method"));
        let nf = ClientError::Connect(RequestError::Http {
            status: 404,
            body: String::new(),
            www_authenticate: None,
        });
        assert!(explain(&nf).contains("/mcp"));
        let late = explain(&ClientError::Request(RequestError::Timeout {
            after_ms: 2000,
        }));
        assert!(
            late.contains("in 2 s") && late.contains("time limit"),
            "{late}"
        );
        assert!(explain(&ClientError::AuthRequired {
            status: 401,
            www_authenticate: None
        })
        .contains("authorization"));
        assert!(
            explain(&ClientError::Connect(RequestError::SessionHeaderHidden))
                .contains("Access-Control-Expose-Headers")
        );
    }

    #[test]
    fn advice_fits_the_failure_and_no_other() {
        let refused = |url: UrlError| explain_auth(&AuthFailure::Flow(AuthError::Url(url)));
        for url in [
            UrlError::NotHttps("http://as.test".into()),
            UrlError::PrivateTarget("https://10.0.0.1".into()),
        ] {
            let text = refused(url);
            assert!(
                text.starts_with("Login failed: ") && text.contains("allow http and loopback"),
                "{text}"
            );
        }
        let denied = explain_auth(&AuthFailure::Flow(AuthError::Denied {
            error: "access_denied".into(),
            description: None,
        }));
        assert!(
            denied.starts_with("Login failed: ")
                && !denied.contains("allow http")
                && !denied.contains("audience"),
            "{denied}"
        );
        // New credentials refused too: not a failed login, and another login will not help.
        let refused_again = |said: Option<ServerRefusal>| {
            explain(&ClientError::Auth(AuthFailure::TooManyAttempts {
                attempts: 3,
                said,
            }))
        };
        let silent = refused_again(None);
        assert!(
            silent.contains("3 times in a row.")
                && silent.contains("audience")
                && !silent.starts_with("Login failed"),
            "{silent}"
        );
        // With the server's own words, when its challenge named an error.
        let named = refused_again(Some(ServerRefusal {
            error: "invalid_token".into(),
            description: Some("audience mismatch".into()),
        }));
        assert!(
            named.contains("3 times in a row; it last said: invalid_token (audience mismatch). ")
                && named.contains("audience and scopes"),
            "{named}"
        );
        // A server that wants a new DPoP nonce every time: its nonces, not the tokens.
        let nonces = refused_again(Some(ServerRefusal {
            error: "use_dpop_nonce".into(),
            description: None,
        }));
        assert!(
            nonces.contains("new DPoP nonce 3 times in a row")
                && nonces.contains("(use_dpop_nonce)")
                && !nonces.contains("audience"),
            "{nonces}"
        );
        // Only a 5xx is "the server failed"; another status says what the error says.
        let http = |status: u16| {
            explain(&ClientError::Request(RequestError::Http {
                status,
                body: "no".into(),
                www_authenticate: None,
            }))
        };
        assert_eq!(http(500), "The server failed (HTTP 500): no");
        assert!(!http(499).contains("The server failed"), "{}", http(499));
        // Only -32042 asks for a page to be opened.
        let rpc = |code: i64| {
            explain(&ClientError::Request(RequestError::Rpc(
                client_browser::client_core::ErrorObject::new(code, "see the page"),
            )))
        };
        assert_eq!(
            rpc(-32042),
            "The server needs you to open a web page before it can do this (see the page)."
        );
        assert!(!rpc(-32000).contains("open a web page"), "{}", rpc(-32000));
    }

    #[test]
    fn server_text_inside_advice_is_isolated_when_it_steers_direction() {
        let issuer =
            |name: &str| explain_auth(&AuthFailure::Flow(AuthError::NeedsClientId(name.into())));
        let plain = issuer("https://as.example");
        assert!(
            plain.starts_with("Login failed: ") && !plain.contains('\u{2068}'),
            "{plain}"
        );
        let turning = issuer("https://as.example/\u{2069}\u{202e}x");
        assert!(
            turning.starts_with("Login failed: \u{2068}")
                && turning.contains("\u{2069}. Enter the client id")
                && !turning.contains("\u{2069}\u{202e}"),
            "{turning:?}"
        );
        assert!(turning.ends_with("connect again."));
    }

    #[test]
    fn a_failing_servers_body_is_isolated_when_it_steers_direction() {
        let failed = |body: &str| {
            explain(&ClientError::Request(RequestError::Http {
                status: 502,
                body: body.into(),
                www_authenticate: None,
            }))
        };
        assert_eq!(
            failed("bad gateway"),
            "The server failed (HTTP 502): bad gateway"
        );
        assert_eq!(
            failed("a\u{2069}\u{202e}b"),
            "The server failed (HTTP 502): \u{2068}a\u{202e}b\u{2069}"
        );
    }
}
