//! Benchmark only: exposes the client core's SSE decoder to the benchmark page
//! (`tests/bench/run.mjs`, "SSE decoding"). It is built like the shipped package (release
//! profile, `scripts/release-wasm.sh`, wasm-opt -Oz), but kept out of the package so that the
//! package's public API holds no benchmark helpers.

use client_core_sse::SseDecoder;
use wasm_bindgen::prelude::wasm_bindgen;

/// Decodes `data` as an SSE stream the way the transport feeds the decoder: `chunk` bytes at
/// a time, each copied from the JS array into one reused buffer in wasm memory, its events
/// handed over borrowed. Returns the number of events decoded.
#[wasm_bindgen(js_name = decode)]
pub fn decode(data: &js_sys::Uint8Array, chunk: u32) -> u32 {
    let mut decoder = SseDecoder::new(1 << 20);
    let mut events = 0;
    let mut bytes = Vec::new();
    let (len, chunk) = (data.length(), chunk.max(1));
    let mut at = 0;
    while at < len {
        let piece = data.subarray(at, len.min(at.saturating_add(chunk)));
        bytes.resize(piece.length() as usize, 0);
        piece.copy_to(&mut bytes);
        decoder.push_with(&bytes, |event| {
            if event.is_ok() {
                events += 1;
            }
        });
        at = at.saturating_add(chunk);
    }
    events
}
