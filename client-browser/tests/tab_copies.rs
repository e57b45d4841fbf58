//! Refresh tokens passed on between copies of a tab (`client_browser::auth::tab_copies`), in
//! headless Chromium: what one copy leaves is read back by the copies of the same login only,
//! never in the clear, and a record that was tampered with is read as nothing (no panic).

#![cfg(target_arch = "wasm32")]

use client_browser::auth::tab_copies::Lineage;
use client_browser::client_core::oauth::{ClientCredentials, TokenAuthMethod, TokenSet};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn tokens(refresh: &str) -> TokenSet {
    TokenSet {
        access_token: "access-never-kept".into(),
        token_type: "Bearer".into(),
        expires_at: Some(1),
        refresh_token: Some(refresh.into()),
        scope: Some("mcp".into()),
        issuer: "https://as.example".into(),
        token_endpoint: "https://as.example/token".into(),
        client: ClientCredentials {
            issuer: "https://as.example".into(),
            client_id: "client-1".into(),
            client_secret: None,
            auth_method: TokenAuthMethod::None,
            source: "dynamic".into(),
        },
        resource: "https://mcp.example/mcp".into(),
        dpop: false,
    }
}

fn local() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Every localStorage value whose key starts with `prefix`.
fn local_values(prefix: &str) -> Vec<(String, String)> {
    let s = local();
    (0..s.length().unwrap())
        .filter_map(|i| s.key(i).unwrap())
        .filter(|k| k.starts_with(prefix))
        .map(|k| {
            let v = s.get_item(&k).unwrap().unwrap();
            (k, v)
        })
        .collect()
}

#[wasm_bindgen_test]
async fn what_one_copy_passes_on_the_others_read_sealed() {
    let server = "https://mcp.example/passed-on";
    let lineage = Lineage::start(server).expect("a lineage");
    assert_eq!(Lineage::of(server), Some(lineage.clone()));
    // Kept in `sessionStorage` as `<id>.<key>`; a lineage in a log shows its id, never its key.
    let kept = web_sys::window()
        .unwrap()
        .session_storage()
        .unwrap()
        .unwrap()
        .get_item(&format!("mcp-oauth/v1/lineage/{server}"))
        .unwrap()
        .expect("the lineage kept in sessionStorage");
    let (id, key) = kept.split_once('.').expect("<id>.<key>");
    let logged = format!("{lineage:?}");
    assert!(logged.contains(id) && !logged.contains(key), "{logged}");
    assert!(lineage.passed_on(server).await.is_none(), "nothing yet");
    lineage
        .leave(lineage.seal(server, &tokens("rt-2")).await)
        .unwrap();
    let read = lineage.passed_on(server).await.expect("read back");
    assert_eq!(read.refresh_token.as_deref(), Some("rt-2"));
    assert_eq!(read.access_token, "", "the access token is not passed on");
    assert_eq!(read.expires_at, None);
    // Sealed: neither token in the clear.
    let kept = local_values("mcp-oauth/v1/handover/");
    assert!(!kept.is_empty());
    assert!(kept
        .iter()
        .all(|(_, v)| !v.contains("rt-2") && !v.contains("access-never-kept")));
    // A newer one replaces it.
    lineage
        .leave(lineage.seal(server, &tokens("rt-3")).await)
        .unwrap();
    let read = lineage.passed_on(server).await.unwrap();
    assert_eq!(read.refresh_token.as_deref(), Some("rt-3"));
    // Read for another server (the URL is bound into the seal): nothing.
    assert!(lineage
        .passed_on("https://other.example/mcp")
        .await
        .is_none());
    // Forgetting (logging out) removes both the lineage and what it passed on.
    Lineage::forget(server);
    assert_eq!(Lineage::of(server), None);
    assert!(lineage.passed_on(server).await.is_none());
}

#[wasm_bindgen_test]
async fn another_login_cannot_read_it_and_a_tampered_record_is_nothing() {
    let server = "https://mcp.example/tampered";
    for (k, _) in local_values("mcp-oauth/v1/handover/") {
        local().remove_item(&k).unwrap();
    }
    let ours = Lineage::start(server).unwrap();
    ours.leave(ours.seal(server, &tokens("rt-ours")).await)
        .unwrap();
    // A new login in this tab starts another lineage, which does not read the old one's.
    let next = Lineage::start(server).unwrap();
    assert_ne!(next, ours);
    assert!(next.passed_on(server).await.is_none());
    // Damaged in any way, it reads as nothing.
    let mut records = local_values("mcp-oauth/v1/handover/");
    assert_eq!(records.len(), 1, "only what `ours` passed on");
    let (key, value) = records.remove(0);
    // Kept as `<at>.<iv>.<data>`, standard base64.
    let parts: Vec<&str> = value.split('.').collect();
    assert_eq!(parts.len(), 3, "{value}");
    let (at, iv, data) = (parts[0], parts[1], parts[2]);
    // The first ciphertext byte changed (the seal's tag no longer matches).
    let first = if data.starts_with('A') { 'B' } else { 'A' };
    let flipped = format!("{first}{}", &data[1..]);
    for damaged in [
        "not a record".to_string(),
        String::new(),
        format!("{at}.{iv}"),
        format!("{at}.{iv}.{data}.more"),
        format!("soon.{iv}.{data}"),
        format!("{at}.!!.{data}"),
        format!("{at}.AAAA.{data}"),
        format!("{at}.{iv}.{flipped}"),
        format!("{at}.{iv}.\u{1F600}"),
    ] {
        local().set_item(&key, &damaged).unwrap();
        assert!(ours.passed_on(server).await.is_none(), "{damaged}");
    }
    // Put back as it was, it reads again.
    local().set_item(&key, &value).unwrap();
    let read = ours.passed_on(server).await.expect("the record as written");
    assert_eq!(read.refresh_token.as_deref(), Some("rt-ours"));
    Lineage::forget(server);
}

#[wasm_bindgen_test]
async fn what_could_not_be_sealed_and_records_unused_for_30_days_are_removed() {
    let server = "https://mcp.example/stale";
    let lineage = Lineage::start(server).unwrap();
    lineage
        .leave(lineage.seal(server, &tokens("rt-old")).await)
        .unwrap();
    // Not sealed (WebCrypto refused): what was left before, now used up, goes.
    assert!(lineage.leave(Err("refused".into())).is_err());
    assert!(lineage.passed_on(server).await.is_none());
    // Other lineages' records: one not rewritten for 30 days and a minute goes when a record
    // is written, one a minute short of 30 days stays.
    let minute = 60 * 1000;
    let thirty_days = 30 * 24 * 60 * minute;
    let now = js_sys::Date::now() as u64;
    let old = "mcp-oauth/v1/handover/old-lineage";
    let recent = "mcp-oauth/v1/handover/recent-lineage";
    let record = |at: u64| format!("{at}.AAAAAAAAAAAAAAAA.AAAA");
    local()
        .set_item(old, &record(now - thirty_days - minute))
        .unwrap();
    local()
        .set_item(recent, &record(now - thirty_days + minute))
        .unwrap();
    lineage
        .leave(lineage.seal(server, &tokens("rt-new")).await)
        .unwrap();
    assert_eq!(local().get_item(old).unwrap(), None);
    assert!(local().get_item(recent).unwrap().is_some());
    let read = lineage.passed_on(server).await.unwrap();
    assert_eq!(read.refresh_token.as_deref(), Some("rt-new"));
    local().remove_item(recent).unwrap();
    Lineage::forget(server);
}

#[wasm_bindgen_test]
async fn a_tab_without_a_lineage_starts_one_when_it_first_passes_tokens_on_and_keeps_it_after() {
    // Tokens kept before lineages existed: the tab has none until it first passes tokens on.
    let server = "https://mcp.example/kept-before-lineages";
    Lineage::forget(server);
    assert_eq!(Lineage::of(server), None);
    let started = Lineage::of_or_start(server).expect("a lineage started");
    assert_eq!(
        Lineage::of(server),
        Some(started.clone()),
        "kept for copies"
    );
    assert_eq!(
        Lineage::of_or_start(server),
        Some(started.clone()),
        "the same one, not another"
    );
    Lineage::forget(server);
}
