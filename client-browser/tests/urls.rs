//! International domain names, in headless Chromium: the browser's URL parser turns them
//! into ASCII before the core (built without Unicode tables) sees them.

#![cfg(target_arch = "wasm32")]

use client_browser::ascii_url::{ascii_url, join_url};
use client_browser::client_core::oauth::{AuthConfig, AuthFlow, AuthOutput, UrlPolicy};
use client_browser::client_core::Instant;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_era_memory_keeps_no_credentials_query_or_fragment() {
    use client_browser::client_core::types::Era;
    use client_browser::eras::{memory_key, remember, remembered, STORAGE_KEY};
    let cases = [
        ("https://mcp.example/mcp", "https://mcp.example/mcp"),
        (
            "https://mcp.example/mcp?apiKey=s3cret#x",
            "https://mcp.example/mcp",
        ),
        (
            "https://user:pw@mcp.example:8443/a/b?q",
            "https://mcp.example:8443/a/b",
        ),
        ("https://mcp.example?k=a://b@c/d", "https://mcp.example"),
        ("http://h/p@q", "http://h/p@q"),
        ("wss://a@b@h/ws", "wss://h/ws"),
        ("not a url? at all", "not a url"),
        ("", ""),
    ];
    for (url, key) in cases {
        assert_eq!(memory_key(url), key, "{url}");
    }
    remember(
        "https://user:pw@eras.example/mcp?apiKey=s3cret",
        Era::Modern,
    );
    assert_eq!(remembered("https://eras.example/mcp"), Some(Era::Modern));
    assert_eq!(
        remembered("https://eras.example/mcp?other=1"),
        Some(Era::Modern)
    );
    let stored = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .unwrap_or_default();
    assert!(stored.contains("https://eras.example/mcp"), "{stored}");
    assert!(
        !stored.contains("s3cret") && !stored.contains("pw@"),
        "{stored}"
    );
}

/// The era memory holds each server's era apart, in the page and in `localStorage`; a page
/// reads what an earlier visit stored; storage is bounded (a new server when it is full
/// starts it over, a known one is updated in place).
#[wasm_bindgen_test]
fn the_era_memory_holds_each_server_apart_is_read_on_a_later_visit_and_stays_bounded() {
    use client_browser::client_core::types::Era;
    use client_browser::eras::{remember, remembered, STORAGE_KEY};
    let storage = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .expect("localStorage");
    let stored = || -> serde_json::Map<String, serde_json::Value> {
        let text = storage.get_item(STORAGE_KEY).ok().flatten();
        serde_json::from_str(&text.unwrap_or_default()).unwrap_or_default()
    };
    let (a, b) = ("https://a.eras.example/mcp", "https://b.eras.example/mcp");
    remember(a, Era::Legacy);
    remember(b, Era::Modern);
    assert_eq!(
        (remembered(a), remembered(b)),
        (Some(Era::Legacy), Some(Era::Modern))
    );
    assert_eq!(
        (&stored()[a], &stored()[b]),
        (&"legacy".into(), &"modern".into())
    );
    remember(b, Era::Legacy);
    remember(b, Era::Modern);
    assert_eq!(
        (remembered(a), remembered(b)),
        (Some(Era::Legacy), Some(Era::Modern))
    );

    // Storage gone (cleared, or blocked): the page still knows.
    let _ = storage.remove_item(STORAGE_KEY);
    assert_eq!(
        (remembered(a), remembered(b)),
        (Some(Era::Legacy), Some(Era::Modern))
    );

    // What an earlier visit stored, for servers this page never met.
    let earlier = r#"{"https://c.eras.example/mcp": "legacy", "https://d.eras.example/mcp": "modern",
        "https://e.eras.example/mcp": "neither"}"#;
    let _ = storage.set_item(STORAGE_KEY, earlier);
    assert_eq!(remembered("https://c.eras.example/mcp"), Some(Era::Legacy));
    assert_eq!(remembered("https://d.eras.example/mcp"), Some(Era::Modern));
    assert_eq!(remembered("https://e.eras.example/mcp"), None);

    // Full storage: a known server is updated in place, a new one starts it over.
    let full: serde_json::Map<String, serde_json::Value> = (0..256)
        .map(|i| (format!("https://s{i}.eras.example/mcp"), "legacy".into()))
        .collect();
    let _ = storage.set_item(STORAGE_KEY, &serde_json::Value::Object(full).to_string());
    remember("https://s7.eras.example/mcp", Era::Modern);
    let after = stored();
    assert_eq!(after.len(), 256);
    assert_eq!(after["https://s7.eras.example/mcp"], "modern");
    remember("https://new.eras.example/mcp", Era::Legacy);
    let after = stored();
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after["https://new.eras.example/mcp"], "legacy");
}

#[wasm_bindgen_test]
fn international_hosts_become_punycode() {
    assert_eq!(
        ascii_url("https://bücher.example/mcp"),
        "https://xn--bcher-kva.example/mcp"
    );
    assert_eq!(
        ascii_url("https://EXAMPLE.com/mcp"),
        "https://example.com/mcp"
    );
    assert_eq!(ascii_url("not a url"), "not a url");
    assert_eq!(
        join_url("https://app.example/a/index.html", "oauth-callback.html").as_deref(),
        Some("https://app.example/a/oauth-callback.html")
    );
}

#[wasm_bindgen_test]
fn an_international_server_can_log_in() {
    let config = AuthConfig {
        server_url: ascii_url("https://bücher.example/mcp"),
        redirect_uri: "https://app.example/oauth-callback.html".into(),
        client_name: "test".into(),
        metadata_document_url: None,
        preregistered: vec![],
        application_type: "web".into(),
        policy: UrlPolicy::default(),
        previous_scopes: vec![],
        dpop: false,
    };
    let mut flow = AuthFlow::new(config, [7; 64], Instant(0)).expect("a valid ASCII URL");
    flow.start(None);
    let first = std::iter::from_fn(|| flow.poll_output()).find_map(|o| match o {
        AuthOutput::Fetch(r) => Some(r.url),
        _ => None,
    });
    assert_eq!(
        first.as_deref(),
        Some("https://xn--bcher-kva.example/.well-known/oauth-protected-resource/mcp")
    );
}

#[wasm_bindgen_test]
fn discover_results_are_kept_public_fresh_bounded_and_without_secrets() {
    use client_browser::discoveries::{forget, keep, kept, Freshness, STORAGE_KEY};
    use serde_json::json;
    let storage = || {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .expect("localStorage")
    };
    let fresh = |fresh_for_ms, public| Freshness {
        fresh_for_ms,
        public,
        with_credentials: false,
    };
    let _ = storage().remove_item(STORAGE_KEY);
    let result = json!({"supportedVersions": ["2026-07-28"], "cacheScope": "public"});
    let now = 1_000_000.0;
    let url = "https://user:pw@kept.example/mcp?apiKey=s3cret";
    keep(url, &result, fresh(60_000, true), now);
    assert_eq!(
        kept("https://kept.example/mcp", now + 59_999.0, false),
        Some(result.clone())
    );
    assert_eq!(
        kept("https://kept.example/mcp", now + 60_000.0, false),
        None,
        "stale"
    );
    assert_eq!(
        kept(
            "https://kept.example/mcp",
            now - 86_400_001.0 + 60_000.0,
            false
        ),
        None,
        "clock set back"
    );
    // Fresh for two days, the server says: kept for a day, the longest honoured.
    let day = 86_400_000.0;
    keep(url, &result, fresh(2 * 86_400_000, true), now);
    assert_eq!(
        kept(url, now + day - 1.0, false),
        Some(result.clone()),
        "a day"
    );
    assert_eq!(kept(url, now + day, false), None, "not longer");
    let kept_text = || {
        storage()
            .get_item(STORAGE_KEY)
            .ok()
            .flatten()
            .unwrap_or_default()
    };
    let stored = kept_text();
    assert!(
        !stored.contains("s3cret") && !stored.contains("pw@"),
        "{stored}"
    );

    // Private, stale or huge results are not kept, and replace (forget) what was.
    keep(url, &result, fresh(60_000, false), now);
    assert_eq!(kept(url, now, false), None, "private");
    keep(url, &result, fresh(60_000, true), now);
    keep(url, &result, fresh(0, true), now);
    assert_eq!(kept(url, now, false), None, "ttl 0");
    assert!(!kept_text().contains("kept.example"), "{}", kept_text());
    // 32 KiB serialized is the most kept.
    let largest = json!({"instructions": "x".repeat((32 << 10) - 19)});
    assert_eq!(largest.to_string().len(), 32 << 10);
    keep(url, &largest, fresh(60_000, true), now);
    assert_eq!(kept(url, now, false), Some(largest), "the largest kept");
    let huge = json!({"supportedVersions": ["2026-07-28"], "instructions": "x".repeat(40_000)});
    keep(url, &huge, fresh(60_000, true), now);
    assert_eq!(kept(url, now, false), None, "too large");
    keep(url, &json!("not an object"), fresh(60_000, true), now);
    assert_eq!(kept(url, now, false), None, "not a result");
    keep(url, &result, fresh(60_000, true), now);
    forget("https://kept.example/mcp#frag");
    assert_eq!(kept(url, now, false), None, "forgotten");

    // A result the server gave only with credentials serves only a connection that has them.
    let creds = Freshness {
        with_credentials: true,
        ..fresh(60_000, true)
    };
    keep(url, &result, creds, now);
    assert_eq!(kept(url, now, false), None, "no credentials now");
    assert_eq!(kept(url, now, true), Some(result.clone()));
    forget(url);

    // Keeping one result drops the others no longer fresh, including one that goes stale
    // at that very moment.
    keep(
        "https://brief.example/mcp",
        &result,
        fresh(1_000, true),
        now,
    );
    keep(url, &result, fresh(60_000, true), now + 1_000.0);
    assert!(!kept_text().contains("brief.example"), "{}", kept_text());
    forget(url);

    // Bounded: the entry closest to expiry makes room.
    for i in 0..40u64 {
        keep(
            &format!("https://s{i}.example/mcp"),
            &result,
            fresh(60_000 + i, true),
            now,
        );
    }
    assert_eq!(kept("https://s0.example/mcp", now, false), None);
    assert!(kept("https://s39.example/mcp", now, false).is_some());
    let map: serde_json::Value = serde_json::from_str(
        &storage()
            .get_item(STORAGE_KEY)
            .ok()
            .flatten()
            .unwrap_or_default(),
    )
    .expect("JSON");
    assert_eq!(map.as_object().map(|m| m.len()), Some(32));

    // Whatever a script wrote there is read safely.
    for junk in [
        "not json",
        "[1,2]",
        r#"{"https://j.example/mcp": {"until": "x", "result": {}}}"#,
    ] {
        storage().set_item(STORAGE_KEY, junk).expect("writable");
        assert_eq!(kept("https://j.example/mcp", now, false), None, "{junk}");
        keep("https://j.example/mcp", &result, fresh(1_000, true), now);
        assert_eq!(
            kept("https://j.example/mcp", now, false),
            Some(result.clone()),
            "{junk}"
        );
    }
    let _ = storage().remove_item(STORAGE_KEY);
}
