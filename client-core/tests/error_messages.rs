//! Error messages put server text in as an isolate when it holds bidi controls, so that an
//! override in it cannot turn the client's own words after it around (" (code -32000)"), and
//! an isolate closer in it cannot close an isolate around the message. Plain text stays as
//! it is.

use client_core::jsonrpc::{DecodeError, Message};
use client_core::oauth::flow::AuthError;
use client_core::session::RequestError;
use client_core::{ErrorObject, RequestId};

/// An override after two isolate closers that close nothing, as a hostile server sends it.
const HOSTILE: &str = "abc\u{2069}\u{2069}\u{202e}def";
/// What a message shows in its place: the closers dropped, the rest as one isolate.
const SHOWN: &str = "\u{2068}abc\u{202e}def\u{2069}";

#[test]
fn a_json_rpc_error_message_is_isolated_before_its_code() {
    let e = ErrorObject::new(-32000, HOSTILE);
    assert_eq!(e.to_string(), format!("{SHOWN} (code -32000)"));
    assert_eq!(
        RequestError::Rpc(e.clone()).to_string(),
        format!("the server returned an error: {SHOWN} (code -32000)")
    );
    assert_eq!(
        RequestError::InputRefused(e).to_string(),
        format!("the input the server asked for was refused: {SHOWN} (code -32000)")
    );
    // Plain messages read as written.
    assert_eq!(
        ErrorObject::new(-32601, "Method not found").to_string(),
        "Method not found (code -32601)"
    );
}

#[test]
fn a_string_request_id_is_isolated_inside_its_quotes() {
    assert_eq!(
        RequestId::String(HOSTILE.into()).to_string(),
        format!("\"{SHOWN}\"")
    );
    assert_eq!(RequestId::String("a-1".into()).to_string(), "\"a-1\"");
}

#[test]
fn an_http_error_body_is_isolated() {
    let e = RequestError::Http {
        status: 500,
        body: HOSTILE.into(),
        www_authenticate: None,
    };
    assert_eq!(
        e.to_string(),
        format!("the server answered HTTP 500: {SHOWN}")
    );
}

#[test]
fn invalid_json_names_the_parsers_words_isolated() {
    // serde_json quotes no text of the input, but its message is isolated all the same.
    let Err(e) = Message::decode(b"{\"a\":", 1024) else {
        panic!("decoded a cut message")
    };
    assert!(matches!(e, DecodeError::InvalidJson(_)));
    assert!(!e.to_string().contains('\u{2068}'), "{e}");
    assert_eq!(
        DecodeError::InvalidJson(HOSTILE.into()).to_string(),
        format!("invalid JSON: {SHOWN}")
    );
}

#[test]
fn authorization_server_text_is_isolated() {
    let cases = [
        (
            AuthError::Denied {
                error: HOSTILE.into(),
                description: Some(HOSTILE.into()),
            },
            format!("authorization was refused: {SHOWN} ({SHOWN})"),
        ),
        (
            AuthError::Token {
                error: "invalid_grant".into(),
                description: Some(HOSTILE.into()),
            },
            format!("the token request failed: invalid_grant ({SHOWN})"),
        ),
        (
            AuthError::Registration {
                status: 400,
                body: HOSTILE.into(),
            },
            format!("client registration failed: HTTP 400: {SHOWN}"),
        ),
        (
            AuthError::Malformed(HOSTILE.into()),
            format!("malformed answer from {SHOWN}"),
        ),
        (
            AuthError::NeedsClientId(HOSTILE.into()),
            format!("the authorization server offers no registration and no client id is configured for {SHOWN}: enter a client id"),
        ),
        (
            AuthError::NoAuthServerMetadata(HOSTILE.into()),
            format!("no authorization server metadata could be found (tried {SHOWN})"),
        ),
        (
            AuthError::IssuerMismatch {
                url: HOSTILE.into(),
                found: "b".into(),
                expected: "c".into(),
            },
            format!("the metadata at {SHOWN} names issuer \"b\", not \"c\""),
        ),
    ];
    for (error, shown) in cases {
        assert_eq!(error.to_string(), shown);
    }
    // Text quoted with `{:?}` shows the controls escaped.
    let quoted = AuthError::ResourceMismatch {
        found: HOSTILE.into(),
        expected: "x".into(),
    }
    .to_string();
    assert!(quoted.contains("\\u{202e}"), "{quoted}");
}
