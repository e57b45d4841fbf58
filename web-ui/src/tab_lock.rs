//! Which tab of this browser follows a task kept in the browser ([`crate::kept_tasks`]): the
//! one that holds the task's Web Lock ([`client_browser::locks`]). The lock is held while a
//! call follows the task and released when the tab closes, so another tab of the same site
//! that waits for it takes the task over then, and two tabs never follow one task both. In a
//! browser without Web Locks every tab goes its own way, as before.
//!
//! A tab that followed a task to its end forgets it in `localStorage`, but another tab may be
//! granted the task's lock before its copy of `localStorage` says so: Chromium brings one
//! tab's writes to the others on a path of their own, not ordered with Web Locks (see
//! [`client_browser::locks::hold_mark`]). So that tab also holds a second lock, the task's
//! "settled" mark, from before it releases the task's lock until it closes; a tab granted the
//! task's lock asks for the marks ([`settled_elsewhere`]), which the lock manager answers in
//! order.

pub use client_browser::locks::{acquire, acquire_if_free, HeldLock};
use std::cell::RefCell;
use std::rc::Rc;

/// The name of the lock of task `task_id` of the server at `url`.
pub fn task_lock_name(url: &str, task_id: &str) -> String {
    format!("mcp-browser-client.task {url} {task_id}")
}

/// The name of the mark that says task `task_id` of the server at `url` was followed to its
/// end by a tab that is still open.
pub fn settled_mark_name(url: &str, task_id: &str) -> String {
    format!("mcp-browser-client.task-settled {url} {task_id}")
}

/// Marks task `task_id` of `url` settled (followed to its end here), then releases `lock`, the
/// task's lock, for any tab that waits for it.
pub fn settle(lock: TaskLock, url: &str, task_id: &str) {
    let name = settled_mark_name(url, task_id);
    wasm_bindgen_futures::spawn_local(async move {
        client_browser::locks::hold_mark(&name).await;
        lock.release();
    });
}

/// True when a tab of this browser (this one included) followed task `task_id` of `url` to its
/// end, whatever this page's `localStorage` says yet.
pub async fn settled_elsewhere(url: &str, task_id: &str) -> bool {
    client_browser::locks::is_held(&settled_mark_name(url, task_id)).await
}

/// The lock of a task a call follows: asked for when the call's task is kept, released when
/// the call ends (also before it was granted: a grant that comes later is released at once).
#[derive(Clone, Default)]
pub struct TaskLock(Rc<RefCell<Slot>>);

#[derive(Default)]
enum Slot {
    /// Not asked for, or not granted yet.
    #[default]
    Empty,
    /// Held (kept for its release when dropped: never read).
    Held(#[allow(dead_code)] HeldLock),
    /// Released: the call ended.
    Released,
}

impl TaskLock {
    /// Holds `lock` until [`TaskLock::release`] (at once if released already).
    pub fn hold(&self, lock: HeldLock) {
        let mut slot = self.0.borrow_mut();
        if matches!(*slot, Slot::Empty) {
            *slot = Slot::Held(lock);
        }
    }

    /// Asks for lock `name` (free unless another tab follows the task too) and holds it.
    pub fn claim(&self, name: String) {
        let this = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let lock = acquire(&name).await;
            this.hold(lock);
        });
    }

    /// Releases the lock, or the one granted later.
    pub fn release(&self) {
        let held = std::mem::replace(&mut *self.0.borrow_mut(), Slot::Released);
        drop(held);
    }
}
