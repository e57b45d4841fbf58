//! Web Locks (`navigator.locks`): one holder at a time, across every page of this origin
//! (tabs, windows, frames). Used where pages of one origin must not both do something: refresh
//! the OAuth tokens they share (a refresh token used twice makes many authorization servers
//! revoke the grant), or follow the same task (the app).
//!
//! The bindings are written here: web-sys has `LockManager` only behind its unstable-APIs
//! flag, which would apply to the whole build. Where the browser has no Web Locks (or refuses
//! them, e.g. in an opaque origin) a lock is a stand-in that holds nothing: each page goes its
//! own way.

use futures_channel::oneshot;
use futures_util::future::{select, Either};
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The page's `navigator.locks`.
    type LockManager;
    /// `navigator.locks.request(name, options, callback)`.
    #[wasm_bindgen(method)]
    fn request(
        this: &LockManager,
        name: &str,
        options: &JsValue,
        callback: &JsValue,
    ) -> js_sys::Promise;
    /// `navigator.locks.query()`: the locks held and asked for, by every page of this origin.
    #[wasm_bindgen(method)]
    fn query(this: &LockManager) -> js_sys::Promise;
}

/// A Web Lock this page holds, released when dropped (a stand-in that holds nothing where the
/// browser has no Web Locks).
pub struct HeldLock(Option<js_sys::Function>);

impl Drop for HeldLock {
    fn drop(&mut self) {
        if let Some(release) = self.0.take() {
            let _ = release.call0(&JsValue::UNDEFINED);
        }
    }
}

/// The page's lock manager, if the browser has one.
fn lock_manager() -> Option<LockManager> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let locks = js_sys::Reflect::get(&navigator, &"locks".into()).ok()?;
    locks.is_object().then(|| locks.unchecked_into())
}

/// Lock `name` once no other holder has it (waits meanwhile, however long).
pub async fn acquire(name: &str) -> HeldLock {
    request(name, false).await.unwrap_or(HeldLock(None))
}

/// Lock `name` if nobody (this page included) holds it now; `None` if somebody does.
pub async fn acquire_if_free(name: &str) -> Option<HeldLock> {
    request(name, true).await
}

/// Marks this page holds at most ([`hold_mark`]; the oldest let go first): a mark tells the
/// page granted a lock what happened just before, so only the last few matter.
const MAX_MARKS: usize = 64;

thread_local! {
    /// The marks this page holds, oldest first.
    static MARKS: RefCell<VecDeque<HeldLock>> = const { RefCell::new(VecDeque::new()) };
}

/// Holds lock `name` as a mark, for every page of this origin to see ([`is_held`]) while this
/// page is open (unless a page holds it already).
///
/// What one page writes to `localStorage` reaches the others on a path of its own in Chromium,
/// not ordered with Web Locks: a page granted a lock may read what was stored before the
/// page that released it wrote (measured with a probe: about a third of such reads were
/// stale). A mark taken before the release is seen in order: the lock manager answers both.
pub async fn hold_mark(name: &str) {
    if let Some(mark) = acquire_if_free(name).await {
        MARKS.with_borrow_mut(|marks| {
            marks.push_back(mark);
            while marks.len() > MAX_MARKS {
                marks.pop_front();
            }
        });
    }
}

/// True when a page of this origin (this one included) holds lock `name` now.
pub async fn is_held(name: &str) -> bool {
    held_names().await.iter().any(|held| held == name)
}

/// The names of the locks held now by the pages of this origin (none where the browser has no
/// Web Locks or refuses them).
pub async fn held_names() -> Vec<String> {
    let Some(locks) = lock_manager() else {
        return Vec::new();
    };
    let Ok(snapshot) = wasm_bindgen_futures::JsFuture::from(locks.query()).await else {
        return Vec::new();
    };
    let held = js_sys::Reflect::get(&snapshot, &"held".into()).unwrap_or_default();
    if !js_sys::Array::is_array(&held) {
        return Vec::new();
    }
    js_sys::Array::from(&held)
        .iter()
        .filter_map(|lock| {
            js_sys::Reflect::get(&lock, &"name".into())
                .ok()?
                .as_string()
        })
        .collect()
}

/// Asks for lock `name` (only if free, with `if_free`): the lock once granted, `None` if it
/// was not free, a stand-in where Web Locks are missing or refused.
async fn request(name: &str, if_free: bool) -> Option<HeldLock> {
    let Some(locks) = lock_manager() else {
        return Some(HeldLock(None));
    };
    let (granted_tx, granted) = oneshot::channel::<Option<js_sys::Function>>();
    // Called with the lock (or `null`: not free). The lock is held until the promise it
    // returns settles: its `resolve` is the release.
    let callback = Closure::once_into_js(move |lock: JsValue| -> JsValue {
        if lock.is_null() {
            let _ = granted_tx.send(None);
            return JsValue::UNDEFINED;
        }
        let mut granted_tx = Some(granted_tx);
        js_sys::Promise::new(&mut |resolve, _reject| {
            if let Some(tx) = granted_tx.take() {
                // Nobody waits any longer: released at once.
                if let Err(Some(resolve)) = tx.send(Some(resolve)) {
                    let _ = resolve.call0(&JsValue::UNDEFINED);
                }
            }
        })
        .into()
    });
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"ifAvailable".into(), &if_free.into());
    let requested = locks.request(name, &options, &callback);
    // The request's promise rejects when the browser refuses it (e.g. an opaque origin): the
    // callback is then never called. It settles otherwise only after the release.
    let (refused_tx, refused) = oneshot::channel::<()>();
    wasm_bindgen_futures::spawn_local(async move {
        if wasm_bindgen_futures::JsFuture::from(requested)
            .await
            .is_err()
        {
            let _ = refused_tx.send(());
        }
    });
    match select(granted, refused).await {
        Either::Left((Ok(lock), _)) => lock.map(|release| HeldLock(Some(release))),
        Either::Right((Ok(()), _)) | Either::Left((Err(_), _)) => Some(HeldLock(None)),
        // The request settled first (not free: the callback ran before): its answer.
        Either::Right((Err(_), granted)) => match granted.await {
            Ok(lock) => lock.map(|release| HeldLock(Some(release))),
            Err(_) => Some(HeldLock(None)),
        },
    }
}
