//! Starting browser tasks without a turn of the event loop in between.

use std::future::Future;
use std::task::{Context, Waker};

/// Runs `task` at once up to its first wait, then leaves the rest to the browser's task queue
/// (`wasm_bindgen_futures::spawn_local`).
///
/// `spawn_local` alone first polls a task after the code running now has finished: a request
/// the task would send waits for that code (e.g. the app's first render, about 10 ms) before
/// it goes out. Here `fetch` is called before this function returns.
///
/// The first poll is given a waker that does nothing; the queued task polls again at once and
/// registers the real one (a future must be ready to be polled again at any time, and one that
/// got ready meanwhile reports it on that poll), so no wake-up is lost.
pub fn spawn_started(task: impl Future<Output = ()> + 'static) {
    let mut task = Box::pin(task);
    if task
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
        .is_pending()
    {
        wasm_bindgen_futures::spawn_local(task);
    }
}
