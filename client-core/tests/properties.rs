//! Property tests over the decoders: no input panics, chunking never changes the result,
//! and what we encode decodes back to the same value.

use client_core::headers::{decode_header_value, encode_header_value};
use client_core::jsonrpc::{ErrorObject, Message, RequestId};
use client_core::sse::SseDecoder;
use proptest::prelude::*;
use serde_json::{json, Value};

fn decode_in_chunks(
    bytes: &[u8],
    cuts: &[usize],
    limit: usize,
) -> (Vec<String>, Option<String>, usize) {
    let mut d = SseDecoder::new(limit);
    let mut out = Vec::new();
    let mut errors = 0;
    let mut start = 0;
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    points.push(bytes.len());
    for p in points {
        d.push(&bytes[start..p.max(start)]);
        start = p.max(start);
        while let Some(e) = d.poll() {
            match e {
                Ok(ev) => out.push(format!("{:?}|{}|{:?}", ev.event, ev.data, ev.id)),
                Err(_) => errors += 1,
            }
        }
    }
    (out, d.last_event_id().map(String::from), errors)
}

fn sse_text() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        "data: [a-z{}\":, ]{0,12}".prop_map(String::from),
        "data:[é😀x]{0,4}".prop_map(String::from),
        Just("data".to_string()),
        "id: [0-9a-z]{0,4}".prop_map(String::from),
        "event: [a-z]{1,6}".prop_map(String::from),
        "retry: [0-9]{1,5}".prop_map(String::from),
        ": comment[a-z ]{0,5}".prop_map(String::from),
        Just(String::new()),
    ];
    let eol = prop_oneof![Just("\n"), Just("\r"), Just("\r\n")];
    (any::<bool>(), prop::collection::vec((line, eol), 0..30)).prop_map(|(bom, lines)| {
        let mut s = if bom {
            "\u{feff}".to_string()
        } else {
            String::new()
        };
        for (l, e) in lines {
            s.push_str(&l);
            s.push_str(e);
        }
        s.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn sse_chunking_does_not_change_events(text in sse_text(), cuts in prop::collection::vec(any::<usize>(), 0..12)) {
        let whole = decode_in_chunks(&text, &[], 1 << 20);
        let chunked = decode_in_chunks(&text, &cuts, 1 << 20);
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn sse_byte_at_a_time_equals_whole(text in sse_text()) {
        let cuts: Vec<usize> = (0..text.len()).collect();
        prop_assert_eq!(decode_in_chunks(&text, &[], 1 << 20), decode_in_chunks(&text, &cuts, 1 << 20));
    }

    #[test]
    fn sse_never_panics_and_respects_the_limit(bytes in prop::collection::vec(any::<u8>(), 0..2000), cuts in prop::collection::vec(any::<usize>(), 0..8)) {
        let (events, _, _) = decode_in_chunks(&bytes, &cuts, 64);
        for e in events {
            // "{event:?}|{data}|{id:?}": the data part is bounded by the limit.
            let data_len = e.split('|').nth(1).map_or(0, str::len);
            prop_assert!(data_len <= 64 * 4);
        }
    }

    #[test]
    fn jsonrpc_decode_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = Message::decode(&bytes, 256);
        let _ = Message::decode_batch(&bytes, 1 << 20);
    }

    #[test]
    fn jsonrpc_decode_never_panics_on_json_shaped_input(v in arb_json()) {
        let bytes = serde_json::to_vec(&v).unwrap();
        if let Ok(m) = Message::decode(&bytes, 1 << 20) {
            prop_assert_eq!(Message::decode(&m.encode(), 1 << 20).unwrap(), m);
        }
    }

    #[test]
    fn jsonrpc_messages_round_trip(id in arb_id(), method in "[a-z/_]{1,20}", params in arb_json(), is_err in any::<bool>(), code in any::<i64>()) {
        let params = match params { Value::Object(_) | Value::Array(_) => Some(params), _ => None };
        let msgs = [
            Message::request(id.clone(), method.clone(), params.clone()),
            Message::notification(method.clone(), params.clone()),
            if is_err {
                Message::error(Some(id.clone()), ErrorObject { code, message: method.clone(), data: params.clone() })
            } else {
                Message::result(id.clone(), params.clone().unwrap_or(json!({})))
            },
        ];
        for m in msgs {
            prop_assert_eq!(Message::decode(&m.encode(), 1 << 20).unwrap(), m);
        }
    }

    #[test]
    fn challenge_parser_and_url_guard_never_panic(h in "[ -~]{0,80}", u in "(https?://)?[ -~]{0,40}") {
        let _ = client_core::oauth::challenge::parse_challenges(&h);
        let _ = client_core::oauth::challenge::bearer(&h);
        let _ = client_core::oauth::check_url(&u, client_core::oauth::UrlPolicy::default());
    }

    #[test]
    fn urls_with_hostile_hosts_never_panic(
        u in "(https?:|HTTP:)?(//|\\\\|/)?([a-zA-Z0-9@:.%-]|%[0-9a-fA-F]{2}|é|\t){0,14}(/[ -~]{0,6})?"
    ) {
        let _ = client_core::weburl::parse(&u);
        let _ = client_core::oauth::check_url(&u, client_core::oauth::UrlPolicy::default());
        if let Ok(base) = client_core::weburl::parse("https://example.com/mcp") {
            let _ = client_core::weburl::join(&base, &u);
        }
    }

    #[test]
    fn quoted_challenge_params_round_trip(v in "[ -~]{0,30}") {
        let quoted = v.replace('\\', "\\\\").replace('"', "\\\"");
        let header = format!("Bearer scope=\"{quoted}\", error=\"x\"");
        let b = client_core::oauth::challenge::bearer(&header).expect("a bearer challenge");
        prop_assert_eq!(b.scope.as_deref(), Some(v.as_str()));
        prop_assert_eq!(b.error.as_deref(), Some("x"));
    }

    #[test]
    fn header_values_round_trip_and_are_header_safe(s in any::<String>()) {
        let enc = encode_header_value(&s);
        prop_assert!(enc.bytes().all(|b| (0x20..=0x7e).contains(&b) || b == b'\t'));
        prop_assert!(!enc.starts_with(' ') && !enc.ends_with(' '));
        prop_assert_eq!(decode_header_value(&enc), Some(s));
    }
}

fn arb_id() -> impl Strategy<Value = RequestId> {
    prop_oneof![
        any::<i64>().prop_map(RequestId::Number),
        "[ -~]{0,10}".prop_map(RequestId::String)
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[ -~é]{0,8}".prop_map(Value::String),
        Just(Value::String("2.0".into())),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("jsonrpc".to_string()),
                    Just("id".to_string()),
                    Just("method".to_string()),
                    Just("result".to_string()),
                    Just("error".to_string()),
                    Just("params".to_string()),
                    "[a-z]{1,4}".prop_map(String::from)
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
