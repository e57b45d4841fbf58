//! The page's monotonic clock, fed to the sans-IO core as [`Instant`].

use client_core::Instant;
use wasm_bindgen::JsCast;

thread_local! {
    /// The global `performance` object, looked up once (every input reads the clock).
    static PERFORMANCE: Option<web_sys::Performance> = {
        let global = js_sys::global();
        if let Some(w) = global.dyn_ref::<web_sys::Window>() {
            w.performance()
        } else if let Some(w) = global.dyn_ref::<web_sys::WorkerGlobalScope>() {
            w.performance()
        } else {
            None
        }
    };
}

/// Milliseconds since the page started (`performance.now()`), or 0 where unavailable.
pub fn now() -> Instant {
    let ms = PERFORMANCE.with(|p| p.as_ref().map_or(0.0, |p| p.now()));
    Instant(ms.max(0.0) as u64)
}
