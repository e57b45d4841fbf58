//! Fuzzes the session with arbitrary response bodies (JSON or SSE, any status) for the probe
//! and for a request: never panics, never loops, and every request ends or stays pending.
#![no_main]
use client_core::http::ResponseHead;
use client_core::session::{Input, Output, RequestOptions};
use client_core::{Instant, Session, SessionConfig};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let status = [200u16, 202, 400, 401, 404, 500][data[0] as usize % 6];
    let ct = ["application/json", "text/event-stream", "text/html"][data[1] as usize % 3];
    let body = &data[2..];
    let mut cfg = SessionConfig::new("http://127.0.0.1:1/mcp");
    cfg.max_message_bytes = 4096;
    let mut s = Session::new(cfg);
    let now = Instant(0);
    s.connect(now);
    let _ = s.request("tools/list", None, RequestOptions::default(), now);
    for round in 0..8 {
        let mut sent = Vec::new();
        let mut n = 0;
        while let Some(o) = s.poll_output() {
            n += 1;
            assert!(n < 10_000, "output loop");
            if let Output::Http(r) = o {
                sent.push(r.id);
            }
        }
        if sent.is_empty() {
            break;
        }
        for id in sent {
            s.handle_input(
                Input::ResponseHead(id, ResponseHead::new(status, &[("content-type", ct)])),
                now,
            );
            let cut = body.len() / (round + 2);
            s.handle_input(Input::BodyChunk(id, &body[..cut]), now);
            s.handle_input(Input::BodyChunk(id, &body[cut..]), now);
            s.handle_input(Input::BodyEnd(id), now);
        }
    }
    s.handle_input(Input::Timeout, Instant(u64::MAX / 2));
    while s.poll_output().is_some() {}
});
