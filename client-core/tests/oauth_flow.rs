//! The OAuth flow against a scripted authorization server and protected resource, in memory:
//! every discovery path, client identification choice, callback check and refresh.

use client_core::oauth::flow::*;
use client_core::oauth::pkce::b64url;
use client_core::oauth::UrlPolicy;
use client_core::Instant;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Answers by URL; anything else is 404.
#[derive(Default)]
struct World {
    docs: HashMap<String, (u16, Value)>,
    seen: Vec<AuthRequest>,
}

impl World {
    fn at(mut self, url: &str, status: u16, body: Value) -> Self {
        self.docs.insert(url.into(), (status, body));
        self
    }
}

const SERVER: &str = "https://mcp.example.com/api/mcp";
const ISSUER: &str = "https://auth.example.com/tenant1";

fn config() -> AuthConfig {
    AuthConfig {
        server_url: SERVER.into(),
        redirect_uri: "https://app.example.com/oauth/callback.html".into(),
        client_name: "MCP browser client".into(),
        metadata_document_url: None,
        preregistered: vec![],
        application_type: "web".into(),
        policy: UrlPolicy::default(),
        previous_scopes: vec![],
        dpop: false,
    }
}

fn as_meta(extra: Value) -> Value {
    let mut m = json!({
        "issuer": ISSUER,
        "authorization_endpoint": "https://auth.example.com/tenant1/authorize",
        "token_endpoint": "https://auth.example.com/tenant1/token",
        "registration_endpoint": "https://auth.example.com/tenant1/register",
        "code_challenge_methods_supported": ["S256"],
        "scopes_supported": ["files:read", "offline_access"],
        "authorization_response_iss_parameter_supported": true,
    });
    if let (Some(m), Some(e)) = (m.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            if v.is_null() {
                m.remove(k);
            } else {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    m
}

fn standard_world() -> World {
    World::default()
        .at("https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp", 200,
            json!({"resource": SERVER, "authorization_servers": [ISSUER], "scopes_supported": ["files:read"]}))
        .at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({})))
        .at("https://auth.example.com/tenant1/register", 201, json!({"client_id": "dyn-123"}))
        .at("https://auth.example.com/tenant1/token", 200,
            json!({"access_token": "at-1", "token_type": "Bearer", "expires_in": 60, "refresh_token": "rt-1", "scope": "files:read offline_access"}))
}

/// Where a flow stopped.
enum Settled {
    /// Nothing more to do.
    Idle,
    /// It wants the person sent to this URL.
    Navigate(String),
    /// Logged in.
    Done(Box<TokenSet>),
    /// Failed (the error is in the trace).
    Failed,
}

impl Settled {
    fn navigate(self) -> String {
        match self {
            Settled::Navigate(u) => u,
            _ => panic!("expected a navigation"),
        }
    }
    fn tokens(self) -> TokenSet {
        match self {
            Settled::Done(t) => *t,
            _ => panic!("expected tokens"),
        }
    }
}

/// Runs the flow until it navigates, finishes or fails.
fn drive(flow: &mut AuthFlow, world: &mut World, trace: &mut Vec<String>) -> Settled {
    for _ in 0..100 {
        let Some(out) = flow.poll_output() else {
            return Settled::Idle;
        };
        match out {
            AuthOutput::Fetch(req) => {
                let (status, body) = world
                    .docs
                    .get(&req.url)
                    .cloned()
                    .unwrap_or((404, json!({"error": "not_found"})));
                world.seen.push(req.clone());
                flow.handle_response(req.id, status, body.to_string().as_bytes(), Instant(1_000));
            }
            AuthOutput::Navigate(url) => return Settled::Navigate(url),
            AuthOutput::Trace(t) => trace.push(t),
            AuthOutput::Done(t) => return Settled::Done(Box::new(t)),
            AuthOutput::Failed(e) => {
                trace.push(format!("FAILED {e}"));
                return Settled::Failed;
            }
        }
    }
    panic!("flow did not settle");
}

/// A world and a check of the error it must produce.
type Case = (World, fn(&AuthError) -> bool);

fn failure(flow: &mut AuthFlow) -> Option<AuthError> {
    std::iter::from_fn(|| flow.poll_output()).find_map(|o| match o {
        AuthOutput::Failed(e) => Some(e),
        _ => None,
    })
}

fn query(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn random() -> [u8; 64] {
    let mut r = [0u8; 64];
    for (i, b) in r.iter_mut().enumerate() {
        *b = (i * 7 + 3) as u8;
    }
    r
}

fn callback(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn full_login_with_discovery_dcr_pkce_and_resource() {
    let mut world = standard_world();
    let mut flow = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    flow.start(Some(
        r#"Bearer resource_metadata="https://mcp.example.com/prm-missing", scope="files:read""#,
    ));
    let mut trace = vec![];
    let nav = drive(&mut flow, &mut world, &mut trace).navigate();
    let urls: Vec<_> = world.seen.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://mcp.example.com/prm-missing",
            "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp",
            "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            "https://auth.example.com/tenant1/register",
        ]
    );
    let reg: Value = serde_json::from_str(world.seen[4].body.as_deref().unwrap()).unwrap();
    assert_eq!(
        reg["redirect_uris"],
        json!(["https://app.example.com/oauth/callback.html"])
    );
    assert_eq!(reg["token_endpoint_auth_method"], "none");
    assert_eq!(reg["application_type"], "web");

    let q = query(&nav);
    assert!(nav.starts_with("https://auth.example.com/tenant1/authorize?"));
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], "dyn-123");
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["resource"], SERVER);
    assert_eq!(
        q["scope"], "files:read offline_access",
        "challenge scope, plus offline_access the AS offers"
    );
    let pending = flow.pending().unwrap().clone();
    assert_eq!(
        b64url(&Sha256::digest(pending.code_verifier.as_bytes())),
        q["code_challenge"]
    );
    assert_eq!(pending.issuer, ISSUER);
    assert!(trace.iter().any(|t| t.contains("registering dynamically")));

    // The pending record survives a full-page redirect.
    let stored = serde_json::to_string(&pending).unwrap();
    let mut flow = AuthFlow::resume(
        config(),
        serde_json::from_str(&stored).unwrap(),
        Instant(5_000),
    )
    .unwrap();
    flow.handle_callback(
        &callback(&[("code", "c-1"), ("state", &q["state"]), ("iss", ISSUER)]),
        Instant(5_000),
    );
    let tokens = drive(&mut flow, &mut world, &mut trace).tokens();
    assert_eq!(tokens.access_token, "at-1");
    assert_eq!(tokens.refresh_token.as_deref(), Some("rt-1"));
    assert_eq!(tokens.expires_at, Some(1_000 + 60_000));
    let token_req = world.seen.last().unwrap();
    let form: HashMap<String, String> =
        url::form_urlencoded::parse(token_req.body.as_deref().unwrap().as_bytes())
            .into_owned()
            .collect();
    assert_eq!(form["grant_type"], "authorization_code");
    assert_eq!(form["code"], "c-1");
    assert_eq!(form["code_verifier"], pending.code_verifier);
    assert_eq!(form["resource"], SERVER);
    assert_eq!(form["client_id"], "dyn-123");
}

fn login_until_callback(world: &mut World, cfg: AuthConfig) -> (AuthFlow, HashMap<String, String>) {
    let mut flow = AuthFlow::new(cfg, random(), Instant(0)).unwrap();
    flow.start(None);
    let nav = drive(&mut flow, world, &mut vec![]).navigate();
    let q = query(&nav);
    (flow, q)
}

#[test]
fn callbacks_with_a_wrong_state_or_issuer_are_refused() {
    let mut world = standard_world();
    let (mut flow, q) = login_until_callback(&mut world, config());
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", "forged"), ("iss", ISSUER)]),
        Instant(1),
    );
    assert_eq!(failure(&mut flow), Some(AuthError::StateMismatch));
    assert!(
        flow.pending().is_some(),
        "a foreign response does not end the login"
    );
    flow.handle_callback(
        &callback(&[
            ("code", "c"),
            ("state", &q["state"]),
            ("iss", "https://evil.example.com"),
        ]),
        Instant(1),
    );
    assert_eq!(failure(&mut flow), Some(AuthError::IssuerCheck));

    // iss is required when the server advertises it, even on error responses.
    let (mut flow, q) = login_until_callback(&mut world, config());
    flow.handle_callback(
        &callback(&[("error", "access_denied"), ("state", &q["state"])]),
        Instant(1),
    );
    assert_eq!(failure(&mut flow), Some(AuthError::IssuerCheck));
    let (mut flow, q) = login_until_callback(&mut world, config());
    flow.handle_callback(
        &callback(&[
            ("error", "access_denied"),
            ("error_description", "<b>no</b>"),
            ("state", &q["state"]),
            ("iss", ISSUER),
        ]),
        Instant(1),
    );
    assert!(
        matches!(failure(&mut flow), Some(AuthError::Denied { error, .. }) if error == "access_denied")
    );
    assert!(
        world.seen.iter().all(|r| !r.url.ends_with("/token")),
        "no code was ever sent to the token endpoint"
    );
}

#[test]
fn iss_is_optional_when_not_advertised_but_checked_when_present() {
    let mut world = standard_world().at(
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        200,
        as_meta(json!({"authorization_response_iss_parameter_supported": null})),
    );
    let (mut flow, q) = login_until_callback(&mut world, config());
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", &q["state"])]),
        Instant(1),
    );
    assert!(matches!(
        drive(&mut flow, &mut world, &mut vec![]),
        Settled::Done(_)
    ));
    let (mut flow, q) = login_until_callback(&mut world, config());
    flow.handle_callback(
        &callback(&[
            ("code", "c"),
            ("state", &q["state"]),
            ("iss", "https://auth.example.com/tenant1/"),
        ]),
        Instant(1),
    );
    assert_eq!(
        failure(&mut flow),
        Some(AuthError::IssuerCheck),
        "no normalisation before comparing"
    );
}

#[test]
fn metadata_is_validated() {
    let cases: Vec<Case> = vec![
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({"issuer": "https://honest.example.com"}))),
            |e| matches!(e, AuthError::IssuerMismatch { .. })),
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({"code_challenge_methods_supported": ["plain"]}))),
            |e| matches!(e, AuthError::NoPkce)),
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({"code_challenge_methods_supported": null}))),
            |e| matches!(e, AuthError::NoPkce)),
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({"token_endpoint": "http://auth.example.com/token"}))),
            |e| matches!(e, AuthError::Url(_))),
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({"token_endpoint": "https://169.254.169.254/token"}))),
            |e| matches!(e, AuthError::Url(_))),
        (standard_world().at("https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp", 200, json!({"resource": "https://other.example.com/mcp", "authorization_servers": [ISSUER]})),
            |e| matches!(e, AuthError::ResourceMismatch { .. })),
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 404, json!({})),
            |e| matches!(e, AuthError::NoAuthServerMetadata(_))),
        (standard_world().at("https://auth.example.com/.well-known/openid-configuration/tenant1", 200, as_meta(json!({"registration_endpoint": null}))),
            |e| matches!(e, AuthError::NeedsClientId(_))),
        (standard_world().at("https://auth.example.com/tenant1/register", 400, json!({"error": "invalid_redirect_uri"})),
            |e| matches!(e, AuthError::Registration { status: 400, .. })),
    ];
    for (i, (mut world, check)) in cases.into_iter().enumerate() {
        let mut flow = AuthFlow::new(config(), random(), Instant(0)).unwrap();
        flow.start(None);
        let mut trace = vec![];
        assert!(
            matches!(drive(&mut flow, &mut world, &mut trace), Settled::Failed),
            "case {i} did not fail: {trace:?}"
        );
        let last = trace.last().cloned().unwrap_or_default();
        // Re-run to capture the error value.
        let mut flow2 = AuthFlow::new(config(), random(), Instant(0)).unwrap();
        flow2.start(None);
        let err = loop {
            match flow2.poll_output() {
                Some(AuthOutput::Fetch(r)) => {
                    let (s, b) = world.docs.get(&r.url).cloned().unwrap_or((404, json!({})));
                    flow2.handle_response(r.id, s, b.to_string().as_bytes(), Instant(0));
                }
                Some(AuthOutput::Failed(e)) => break e,
                Some(_) => {}
                None => panic!("case {i}: no failure ({last})"),
            }
        };
        assert!(check(&err), "case {i}: {err}");
    }
}

#[test]
fn client_identity_preregistered_then_metadata_document_then_dcr() {
    let mut world = standard_world();
    let mut cfg = config();
    cfg.metadata_document_url = Some("https://app.example.com/oauth/client-metadata.json".into());
    cfg.preregistered = vec![ClientCredentials {
        issuer: ISSUER.into(),
        client_id: "pre id".into(),
        client_secret: Some("s3cr&t".into()),
        auth_method: TokenAuthMethod::ClientSecretBasic,
        source: "preregistered".into(),
    }];
    let (mut flow, q) = login_until_callback(&mut world, cfg.clone());
    assert_eq!(q["client_id"], "pre id");
    assert_eq!(q["scope"], "files:read offline_access");
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", &q["state"]), ("iss", ISSUER)]),
        Instant(1),
    );
    assert!(matches!(
        drive(&mut flow, &mut world, &mut vec![]),
        Settled::Done(_)
    ));
    let token = world.seen.last().unwrap();
    let auth = token
        .headers
        .iter()
        .find(|(k, _)| k == "Authorization")
        .map(|(_, v)| v.clone())
        .unwrap();
    use base64::Engine;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(auth.trim_start_matches("Basic "))
        .unwrap();
    assert_eq!(String::from_utf8(decoded).unwrap(), "pre+id:s3cr%26t");
    assert!(!token.body.as_deref().unwrap().contains("client_secret"));

    // Pre-registered credentials for another issuer are not used; CIMD is, when advertised.
    cfg.preregistered[0].issuer = "https://other-issuer.example.com".into();
    let mut world = standard_world().at(
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        200,
        as_meta(json!({"client_id_metadata_document_supported": true})),
    );
    let (_, q) = login_until_callback(&mut world, cfg.clone());
    assert_eq!(
        q["client_id"],
        "https://app.example.com/oauth/client-metadata.json"
    );
    assert!(world.seen.iter().all(|r| !r.url.ends_with("/register")));
    // Without CIMD support: Dynamic Client Registration.
    let mut world = standard_world();
    let (_, q) = login_until_callback(&mut world, cfg);
    assert_eq!(q["client_id"], "dyn-123");
}

#[test]
fn scopes_come_from_prm_when_the_challenge_has_none_and_may_be_omitted() {
    let mut world = standard_world();
    let (_, q) = login_until_callback(&mut world, config());
    assert_eq!(q["scope"], "files:read offline_access");
    let mut world = standard_world().at(
        "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp",
        200,
        json!({"resource": SERVER, "authorization_servers": [ISSUER]}),
    );
    let (_, q) = login_until_callback(&mut world, config());
    assert!(
        !q.contains_key("scope"),
        "no scope anywhere: the parameter is omitted"
    );
}

#[test]
fn a_2025_03_26_server_without_metadata_uses_default_endpoints() {
    let mut world = World::default()
        .at(
            "https://mcp.example.com/register",
            201,
            json!({"client_id": "legacy-client"}),
        )
        .at(
            "https://mcp.example.com/token",
            200,
            json!({"access_token": "legacy-at"}),
        );
    let (mut flow, q) = login_until_callback(&mut world, config());
    let urls: Vec<_> = world.seen.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp",
            "https://mcp.example.com/.well-known/oauth-protected-resource",
            "https://mcp.example.com/.well-known/oauth-authorization-server",
            "https://mcp.example.com/.well-known/openid-configuration",
            "https://mcp.example.com/register",
        ]
    );
    assert_eq!(q["client_id"], "legacy-client");
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", &q["state"])]),
        Instant(1),
    );
    let t = drive(&mut flow, &mut world, &mut vec![]).tokens();
    assert_eq!(t.access_token, "legacy-at");

    // The challenge's scope is asked for on this path too.
    let mut world = World::default().at(
        "https://mcp.example.com/register",
        201,
        json!({"client_id": "legacy-client"}),
    );
    let mut flow = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    flow.start(Some(r#"Bearer scope="files:read""#));
    let q = query(&drive(&mut flow, &mut world, &mut vec![]).navigate());
    assert_eq!(q["scope"], "files:read");
}

#[test]
fn refresh_rotates_and_reports_invalid_grant() {
    let mut world = standard_world();
    let (mut flow, q) = login_until_callback(&mut world, config());
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", &q["state"]), ("iss", ISSUER)]),
        Instant(1),
    );
    let tokens = drive(&mut flow, &mut world, &mut vec![]).tokens();

    world.docs.insert(
        "https://auth.example.com/tenant1/token".into(),
        (
            200,
            json!({"access_token": "at-2", "refresh_token": "rt-2", "expires_in": 10}),
        ),
    );
    let mut r = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    r.refresh(tokens.clone());
    let t2 = drive(&mut r, &mut world, &mut vec![]).tokens();
    assert_eq!(
        (t2.access_token.as_str(), t2.refresh_token.as_deref()),
        ("at-2", Some("rt-2"))
    );
    let form: HashMap<String, String> = url::form_urlencoded::parse(
        world
            .seen
            .last()
            .unwrap()
            .body
            .as_deref()
            .unwrap()
            .as_bytes(),
    )
    .into_owned()
    .collect();
    assert_eq!(form["grant_type"], "refresh_token");
    assert_eq!(form["refresh_token"], "rt-1");
    assert_eq!(form["resource"], SERVER);

    // No rotation: the old refresh token is kept.
    world.docs.insert(
        "https://auth.example.com/tenant1/token".into(),
        (200, json!({"access_token": "at-3"})),
    );
    let mut r = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    r.refresh(t2);
    let t3 = drive(&mut r, &mut world, &mut vec![]).tokens();
    assert_eq!(t3.refresh_token.as_deref(), Some("rt-2"));

    world.docs.insert(
        "https://auth.example.com/tenant1/token".into(),
        (
            400,
            json!({"error": "invalid_grant", "error_description": "expired"}),
        ),
    );
    let mut r = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    r.refresh(t3);
    let mut trace = vec![];
    assert!(matches!(
        drive(&mut r, &mut world, &mut trace),
        Settled::Failed
    ));
    assert!(trace.last().unwrap().contains("invalid_grant"));
}

#[test]
fn a_hostile_resource_metadata_url_in_the_challenge_is_ignored() {
    let mut world = standard_world();
    let mut flow = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    flow.start(Some(
        r#"Bearer resource_metadata="http://169.254.169.254/latest/meta-data""#,
    ));
    let mut trace = vec![];
    assert!(matches!(
        drive(&mut flow, &mut world, &mut trace),
        Settled::Navigate(_)
    ));
    assert!(world.seen.iter().all(|r| !r.url.contains("169.254")));
    assert!(trace
        .iter()
        .any(|t| t.contains("ignored resource_metadata")));
}

#[test]
fn the_resource_is_sent_exactly_as_the_metadata_publishes_it() {
    // A pathless identifier must not gain a trailing "/" on its way to the AS.
    let mut world = standard_world().at(
        "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp",
        200,
        json!({"resource": "https://mcp.example.com", "authorization_servers": [ISSUER]}),
    );
    let (mut flow, q) = login_until_callback(&mut world, config());
    assert_eq!(q["resource"], "https://mcp.example.com");
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", &q["state"]), ("iss", ISSUER)]),
        Instant(1),
    );
    let t = drive(&mut flow, &mut world, &mut vec![]).tokens();
    assert_eq!(t.resource, "https://mcp.example.com");
    let token_request = world
        .seen
        .last()
        .and_then(|r| r.body.clone())
        .unwrap_or_default();
    assert!(
        token_request.contains("resource=https%3A%2F%2Fmcp.example.com&")
            || token_request.ends_with("resource=https%3A%2F%2Fmcp.example.com"),
        "{token_request}"
    );
}

#[test]
fn a_2025_03_26_server_may_name_another_issuer_in_its_root_metadata() {
    // No resource metadata: the server's origin is only a guess at the issuer, so the
    // metadata found there may name a longer one (the conformance suite's backcompat case).
    let mut world = World::default()
        .at(
            "https://mcp.example.com/.well-known/oauth-authorization-server",
            200,
            json!({
                "issuer": "https://mcp.example.com/oauth",
                "authorization_endpoint": "https://mcp.example.com/oauth/authorize",
                "token_endpoint": "https://mcp.example.com/oauth/token",
                "registration_endpoint": "https://mcp.example.com/oauth/register",
                "code_challenge_methods_supported": ["S256"],
            }),
        )
        .at(
            "https://mcp.example.com/oauth/register",
            201,
            json!({"client_id": "c-1"}),
        );
    let (_, q) = login_until_callback(&mut world, config());
    assert_eq!(q["client_id"], "c-1");
    // With resource metadata naming the issuer, a mismatch still fails (see metadata_is_validated).
}

/// Logs in after `challenge`; returns the token request and the tokens.
fn login_after(
    challenge: &str,
    world: &mut World,
    cfg: AuthConfig,
) -> (AuthRequest, TokenSet, Vec<String>) {
    let mut trace = vec![];
    let mut flow = AuthFlow::new(cfg, random(), Instant(0)).unwrap();
    flow.start(Some(challenge));
    let q = query(&drive(&mut flow, world, &mut trace).navigate());
    flow.handle_callback(
        &callback(&[("code", "c"), ("state", &q["state"]), ("iss", ISSUER)]),
        Instant(1),
    );
    let tokens = drive(&mut flow, world, &mut trace).tokens();
    (world.seen.last().cloned().unwrap(), tokens, trace)
}

#[test]
fn dpop_is_used_when_the_resource_asks_and_the_server_supports_es256() {
    let dpop_as = |w: World| {
        w.at(
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            200,
            as_meta(json!({"dpop_signing_alg_values_supported": ["ES256"]})),
        )
        .at(
            "https://auth.example.com/tenant1/token",
            200,
            json!({"access_token": "at", "token_type": "DPoP", "refresh_token": "rt"}),
        )
    };
    let mut cfg = config();
    cfg.dpop = true;
    let prm = "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp";
    let challenge = format!(r#"DPoP resource_metadata="{prm}", algs="ES256""#);

    // A DPoP challenge: the token request carries a proof, and the tokens are DPoP-bound.
    let (req, tokens, trace) = login_after(&challenge, &mut dpop_as(standard_world()), cfg.clone());
    assert!(req.dpop && tokens.dpop);
    assert!(trace.iter().any(|t| t.contains("bound to this page's key")));
    // Refreshing a DPoP-bound token needs a proof too.
    let mut flow = AuthFlow::new(cfg.clone(), random(), Instant(0)).unwrap();
    flow.refresh(tokens);
    let refresh = std::iter::from_fn(|| flow.poll_output())
        .find_map(|o| match o {
            AuthOutput::Fetch(r) => Some(r),
            _ => None,
        })
        .unwrap();
    assert!(refresh.dpop);

    // The resource requires it in its metadata, after a Bearer challenge: DPoP as well.
    let world = dpop_as(standard_world()).at(prm, 200, json!({"resource": SERVER, "authorization_servers": [ISSUER], "dpop_bound_access_tokens_required": true}));
    let (req, _, _) = login_after(
        &format!(r#"Bearer resource_metadata="{prm}""#),
        &mut { world },
        cfg.clone(),
    );
    assert!(req.dpop);

    // The resource does not ask: Bearer, even though the server could.
    let (req, _, _) = login_after(
        &format!(r#"Bearer resource_metadata="{prm}""#),
        &mut dpop_as(standard_world()),
        cfg.clone(),
    );
    assert!(!req.dpop);

    // The server offers no ES256, or the client cannot sign: Bearer, and the trace says why.
    let (req, _, trace) = login_after(&challenge, &mut standard_world(), cfg.clone());
    assert!(!req.dpop);
    assert!(trace.iter().any(|t| t.contains("asking for Bearer tokens")));
    cfg.dpop = false;
    let (req, _, _) = login_after(&challenge, &mut dpop_as(standard_world()), cfg);
    assert!(!req.dpop);
}

#[test]
fn the_challenges_scope_comes_first_earlier_scopes_are_kept_and_offline_access_only_where_offered()
{
    // Step-up: the challenge asks for more than the resource lists; what was granted
    // before is asked for again (once), and offline_access, which the AS offers.
    let mut world = standard_world();
    let mut cfg = config();
    cfg.previous_scopes = vec!["files:read".into(), "mail:send".into()];
    let mut flow = AuthFlow::new(cfg, random(), Instant(0)).unwrap();
    flow.start(Some(
        r#"Bearer error="insufficient_scope", scope="files:write files:read""#,
    ));
    let q = query(&drive(&mut flow, &mut world, &mut vec![]).navigate());
    assert_eq!(
        q["scope"],
        "files:write files:read mail:send offline_access"
    );
    // An AS that does not offer offline_access is not asked for it.
    let mut world = standard_world().at(
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        200,
        as_meta(json!({"scopes_supported": ["files:read"]})),
    );
    let (_, q) = login_until_callback(&mut world, config());
    assert_eq!(q["scope"], "files:read");
}

/// The token request of a login whose dynamic registration answered `registered`.
fn token_request_after_registering(registered: Value) -> AuthRequest {
    let mut world =
        standard_world().at("https://auth.example.com/tenant1/register", 201, registered);
    let (request, _, _) = login_after("Bearer", &mut world, config());
    // Each request of the flow had an id of its own (an answer is matched by it).
    let mut ids: Vec<u32> = world.seen.iter().map(|r| r.id).collect();
    ids.dedup();
    assert_eq!(ids.len(), world.seen.len(), "request ids repeat");
    assert!(request.url.ends_with("/token"));
    request
}

fn form_of(request: &AuthRequest) -> HashMap<String, String> {
    url::form_urlencoded::parse(request.body.as_deref().unwrap_or("").as_bytes())
        .into_owned()
        .collect()
}

fn authorization_of(request: &AuthRequest) -> Option<&str> {
    request
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| v.as_str())
}

#[test]
fn a_client_secret_from_registration_goes_the_way_the_server_registered() {
    // client_secret_post: in the form, beside the id.
    let r = token_request_after_registering(json!({
        "client_id": "dyn-123", "client_secret": "s3 cr:t",
        "token_endpoint_auth_method": "client_secret_post"
    }));
    let form = form_of(&r);
    assert_eq!(
        (form["client_id"].as_str(), form["client_secret"].as_str()),
        ("dyn-123", "s3 cr:t")
    );
    assert_eq!(authorization_of(&r), None);
    // client_secret_basic, named or implied by a secret: HTTP Basic of the form-encoded id
    // and secret (RFC 6749 §2.3.1); neither in the form.
    for registered in [
        json!({"client_id": "dyn-123", "client_secret": "s3 cr:t", "token_endpoint_auth_method": "client_secret_basic"}),
        json!({"client_id": "dyn-123", "client_secret": "s3 cr:t"}),
    ] {
        let r = token_request_after_registering(registered);
        use base64::Engine;
        let expected = base64::engine::general_purpose::STANDARD.encode("dyn-123:s3+cr%3At");
        assert_eq!(
            authorization_of(&r),
            Some(format!("Basic {expected}").as_str())
        );
        let form = form_of(&r);
        assert!(!form.contains_key("client_secret"));
        assert!(!form.contains_key("client_id"));
    }
    // No secret: a public client, its id in the form.
    let r = token_request_after_registering(json!({"client_id": "dyn-123"}));
    assert_eq!(form_of(&r)["client_id"], "dyn-123");
    assert!(!form_of(&r).contains_key("client_secret"));
    assert_eq!(authorization_of(&r), None);
}

#[test]
fn a_refused_registration_says_what_the_server_answered() {
    let mut world = standard_world().at(
        "https://auth.example.com/tenant1/register",
        400,
        json!({"error": "invalid_redirect_uri", "error_description": "not on the list"}),
    );
    let mut flow = AuthFlow::new(config(), random(), Instant(0)).unwrap();
    flow.start(None);
    let mut trace = vec![];
    assert!(matches!(
        drive(&mut flow, &mut world, &mut trace),
        Settled::Failed
    ));
    let said = trace.last().cloned().unwrap_or_default();
    assert!(said.contains("400"), "{said}");
    assert!(said.contains("invalid_redirect_uri"), "{said}");
}
