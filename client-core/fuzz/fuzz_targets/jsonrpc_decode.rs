//! Fuzzes JSON-RPC decoding: never panics; whatever decodes re-encodes to the same message.
#![no_main]
use client_core::jsonrpc::Message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(msgs) = Message::decode_batch(data, 1 << 20) {
        for m in msgs {
            let again = Message::decode(&m.encode(), 1 << 20).expect("our own encoding decodes");
            assert_eq!(again, m);
        }
    }
});
