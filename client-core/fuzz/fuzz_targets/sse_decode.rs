//! Fuzzes the SSE decoder: never panics, and splitting the input at any point gives the same
//! events as feeding it whole, whether events are queued and taken owned (`push`/`poll`) or
//! handed over borrowed as they are decoded (`push_with`).
#![no_main]
use client_core::sse::SseDecoder;
use libfuzzer_sys::fuzz_target;

fn run(parts: &[&[u8]], borrowed: bool) -> Vec<String> {
    let mut d = SseDecoder::new(256);
    let mut out = Vec::new();
    for p in parts {
        if borrowed {
            d.push_with(p, |e| out.push(format!("{:?}", e.map(|e| e.to_event()))));
            continue;
        }
        d.push(p);
        while let Some(e) = d.poll() {
            out.push(format!("{e:?}"));
        }
    }
    while let Some(e) = d.poll() {
        out.push(format!("{e:?}"));
    }
    out.push(format!("{:?}{:?}", d.last_event_id(), d.retry_ms()));
    out
}

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let cut = data[0] as usize % data.len();
    let body = &data[1..];
    let cut = cut.min(body.len());
    let whole = run(&[body], false);
    assert_eq!(whole, run(&[&body[..cut], &body[cut..]], false));
    let bytes: Vec<&[u8]> = body.chunks(1 + cut % 7).collect();
    assert_eq!(whole, run(&bytes, true));
});
