//! The Web Locks bindings (`client_browser::locks`), in headless Chromium: one holder at a
//! time, a waiter granted once the holder lets go, and a waiter that stopped waiting lets go
//! of a grant at once. Observed with `navigator.locks.query()`, polled with a deadline.

#![cfg(target_arch = "wasm32")]

use client_browser::locks::{acquire, acquire_if_free};
use futures_util::future::{select, Either};
use futures_util::FutureExt;
use wasm_bindgen_test::*;

mod common;

use common::lock_names;

wasm_bindgen_test_configure!(run_in_browser);

/// How many locks named `name` are held, and how many requests for it wait.
async fn state_of(name: &str) -> (usize, usize) {
    let (held, pending) = lock_names().await;
    let count = |names: Vec<String>| names.iter().filter(|n| *n == name).count();
    (count(held), count(pending))
}

/// Waits (at most 5 s, polling) until lock `name` is in state `want` (held, pending).
async fn until(name: &str, want: (usize, usize)) {
    for _ in 0..250 {
        if state_of(name).await == want {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("lock {name}: {:?}, wanted {want:?}", state_of(name).await);
}

#[wasm_bindgen_test]
async fn one_holder_at_a_time_and_a_waiter_gets_the_lock_once_it_is_let_go() {
    let name = "test one holder";
    let held = acquire_if_free(name).await.expect("free");
    assert_eq!(state_of(name).await, (1, 0));
    assert!(acquire_if_free(name).await.is_none(), "held: not free");
    let (granted_tx, granted) = futures_channel::oneshot::channel();
    wasm_bindgen_futures::spawn_local(async move {
        let lock = acquire(name).await;
        let _ = granted_tx.send(lock);
    });
    until(name, (1, 1)).await;
    let mut granted = granted;
    assert!((&mut granted).now_or_never().is_none(), "not while held");
    drop(held);
    let second = granted.await.expect("granted once let go");
    assert_eq!(state_of(name).await, (1, 0));
    drop(second);
    until(name, (0, 0)).await;
    assert!(acquire_if_free(name).await.is_some());
}

#[wasm_bindgen_test]
async fn a_waiter_that_stopped_waiting_lets_go_of_its_grant_at_once() {
    let name = "test stopped waiting";
    let held = acquire_if_free(name).await.expect("free");
    // Started, then given up (dropped) before the grant.
    let timer = gloo_timers::future::TimeoutFuture::new(0);
    match select(acquire(name).boxed_local(), timer).await {
        Either::Left(_) => panic!("granted while held"),
        Either::Right(_) => {}
    }
    until(name, (1, 1)).await;
    drop(held);
    // Granted to the request nobody waits for: let go of at once.
    until(name, (0, 0)).await;
    assert!(acquire_if_free(name).await.is_some());
}

#[wasm_bindgen_test]
async fn a_mark_stays_held_for_the_page_and_the_oldest_go_beyond_the_bound() {
    use client_browser::locks::{hold_mark, is_held};
    assert!(!is_held("test mark 0").await);
    hold_mark("test mark 0").await;
    assert!(is_held("test mark 0").await);
    assert_eq!(state_of("test mark 0").await, (1, 0));
    // Marked again: still one holder.
    hold_mark("test mark 0").await;
    assert_eq!(state_of("test mark 0").await, (1, 0));
    assert!(!is_held("test mark 1").await, "only the names marked");
    // A page keeps 64 marks: the first goes once 64 more are taken.
    for i in 1..=64 {
        hold_mark(&format!("test mark {i}")).await;
    }
    until("test mark 0", (0, 0)).await;
    assert!(is_held("test mark 1").await && is_held("test mark 64").await);
}
