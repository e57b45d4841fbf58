//! Fuzzes the SSE decoder: never panics, and splitting the input at any point gives the same
//! events as feeding it whole, whether events are taken owned after every chunk or borrowed
//! one at a time (the rest waiting across chunks).
#![no_main]
use client_core::sse::SseDecoder;
use libfuzzer_sys::fuzz_target;

fn run(parts: &[&[u8]], one_at_a_time: bool) -> Vec<String> {
    let mut d = SseDecoder::new(256);
    let mut out = Vec::new();
    for p in parts {
        d.push(p);
        if one_at_a_time {
            if let Some(e) = d.poll_ref() {
                out.push(format!("{:?}", e.map(|e| e.to_event())));
            }
            continue;
        }
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
