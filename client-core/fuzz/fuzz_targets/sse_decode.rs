//! Fuzzes the SSE decoder: never panics, and splitting the input at any point gives the same
//! events as feeding it whole.
#![no_main]
use client_core::sse::SseDecoder;
use libfuzzer_sys::fuzz_target;

fn run(parts: &[&[u8]]) -> Vec<String> {
    let mut d = SseDecoder::new(256);
    let mut out = Vec::new();
    for p in parts {
        d.push(p);
        while let Some(e) = d.poll() {
            out.push(format!("{e:?}"));
        }
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
    assert_eq!(run(&[body]), run(&[&body[..cut], &body[cut..]]));
});
