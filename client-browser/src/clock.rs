//! The page's monotonic clock, fed to the sans-IO core as [`Instant`].

use client_core::Instant;
use wasm_bindgen::JsCast;

/// Milliseconds since the page started (`performance.now()`), or 0 where unavailable.
pub fn now() -> Instant {
    let global = js_sys::global();
    let perf = if let Some(w) = global.dyn_ref::<web_sys::Window>() {
        w.performance()
    } else if let Some(w) = global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        w.performance()
    } else {
        None
    };
    Instant(perf.map_or(0.0, |p| p.now()).max(0.0) as u64)
}
