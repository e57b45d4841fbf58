//! Keeps the app's tabs in step where they share `localStorage`. Each tab writes a whole
//! list (a server's call history, the saved servers), so a tab that wrote from what it read
//! at load would undo what another tab wrote since. A tab therefore hears what another tab
//! of the app wrote (the `storage` event, which only the other tabs get) and updates what it
//! shows: the calls made there to the servers it is connected to come in (a history cleared
//! there is cleared here; one dropped there to make room for other servers is not; calls of
//! this tab that its write dropped, written over a copy of storage that lagged, are written
//! back), and the saved servers become that tab's list (with a server this tab saved put
//! back, where that write dropped it without a removal on purpose, see
//! [`crate::saved::SavedHere`]). The kept tasks are read when needed and written change by
//! change; a write of theirs that, made over a lagging copy, dropped a task this tab follows
//! or kept one it followed to its end is put right. Two connections of one page to the same
//! server are kept in step the same way ([`history_written_here`]).

use crate::call_history::Written;
use crate::connection::Connection;
use crate::saved::{SavedHere, SavedServer};
use leptos::prelude::*;
use std::cell::Cell;

thread_local! {
    /// The page's connections, once [`keep_in_step`] follows them.
    static CONNECTIONS: Cell<Option<RwSignal<Vec<Connection>>>> = const { Cell::new(None) };
}

/// Connection `writer` of this page wrote `written` to the stored histories: the page's other
/// connections to its server take it in as they would another tab's write (the `storage`
/// event reaches only the other tabs), so that two connections to one server show one
/// history. Nothing happens where the page's connections are not followed (embedded).
pub fn history_written_here(writer: &Connection, written: &Written) {
    let Some(connections) = CONNECTIONS.get() else {
        return;
    };
    for conn in connections.try_get_untracked().unwrap_or_default() {
        if conn.id != writer.id && conn.url == writer.url {
            conn.history_changed_elsewhere(Some(&written.before), Some(&written.after));
        }
    }
}

/// Follows the other tabs' writes for `connections` and `saved` (for the page's life);
/// `saved_here` holds the servers this page saved.
pub fn keep_in_step(
    connections: RwSignal<Vec<Connection>>,
    saved: RwSignal<Vec<SavedServer>>,
    saved_here: StoredValue<SavedHere>,
) {
    CONNECTIONS.set(Some(connections));
    let handle = window_event_listener(leptos::ev::storage, move |e| {
        // No key: the whole storage was cleared (nothing to take in; the pages' own lists
        // stay, as when keeping history is turned off).
        let Some(key) = e.key() else { return };
        if key == crate::call_history::KEY {
            let parse = crate::per_server::parsed;
            let (before, after) = (parse(e.old_value()), parse(e.new_value()));
            for conn in connections.try_get_untracked().unwrap_or_default() {
                conn.history_changed_elsewhere(before.as_ref(), after.as_ref());
            }
        } else if key == crate::kept_tasks::KEY {
            for conn in connections.try_get_untracked().unwrap_or_default() {
                conn.tasks_changed_elsewhere();
            }
        } else if key == crate::saved::KEY {
            let servers = saved_here.try_update_value(crate::saved::after_change_elsewhere);
            let _ = saved.try_set(servers.unwrap_or_else(crate::saved::load));
        }
    });
    // The listener stays for the page's life (dropping the handle does not remove it).
    drop(handle);
}
