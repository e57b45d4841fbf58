//! Arrow keys through a row of tabs or a column of list items, as the WAI-ARIA authoring
//! practices describe them: the arrows move to the neighbour, Home and End to the ends. Tabs
//! go round (and the tab moved to is chosen); a list stops at its ends.

use wasm_bindgen::JsCast;

/// Where a key moves the focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// To the item before.
    Back,
    /// To the item after.
    On,
    /// To the first item.
    First,
    /// To the last item.
    Last,
}

/// Which way the items run: a row of tabs or a column of list items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Left and right arrows; the ends wrap round.
    Row,
    /// Up and down arrows; the ends stop.
    Column,
}

/// The move a key (a `KeyboardEvent.key`) makes in `layout`, if any.
pub fn key_move(key: &str, layout: Layout) -> Option<Move> {
    match (key, layout) {
        ("ArrowLeft", Layout::Row) | ("ArrowUp", Layout::Column) => Some(Move::Back),
        ("ArrowRight", Layout::Row) | ("ArrowDown", Layout::Column) => Some(Move::On),
        ("Home", _) => Some(Move::First),
        ("End", _) => Some(Move::Last),
        _ => None,
    }
}

/// The index `m` moves to from `from` among `len` items (`len` > 0).
pub fn moved(from: usize, len: usize, m: Move, layout: Layout) -> usize {
    let last = len.saturating_sub(1);
    match (m, layout) {
        (Move::First, _) => 0,
        (Move::Last, _) => last,
        (Move::Back, Layout::Row) if from == 0 => last,
        (Move::On, Layout::Row) if from >= last => 0,
        (Move::Back, _) => from.saturating_sub(1),
        (Move::On, _) => (from + 1).min(last),
    }
}

/// Handles a keydown on a container of items (those matching `items`, a CSS selector):
/// moves the focus from the focused item as the key says, and returns the item now focused
/// (for tabs, to choose it). Other keys, and keys while no item has the focus (typing in a
/// field inside), are left alone.
pub fn move_focus(
    ev: &web_sys::KeyboardEvent,
    items: &str,
    layout: Layout,
) -> Option<web_sys::HtmlElement> {
    let m = key_move(&ev.key(), layout)?;
    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.shift_key() {
        return None;
    }
    let container = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let focused = leptos::prelude::document().active_element()?;
    let list = container.query_selector_all(items).ok()?;
    let all: Vec<web_sys::HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let from = all.iter().position(|e| {
        let e: &web_sys::Element = e.as_ref();
        *e == focused
    })?;
    let to = all.get(moved(from, all.len(), m, layout))?;
    ev.prevent_default();
    let _ = to.focus();
    Some(to.clone())
}

/// The search boxes "/" goes to: the one in the tab shown (each tab has at most one; the
/// tools tab stays on the page, hidden, while another is shown).
const SEARCH_BOXES: &str =
    "[role=tabpanel]:not([hidden], .away) :is(#tool-search, #resource-search, #prompt-search, #wire-filter)";

/// Whether a key typed where the focus is (`tag`, upper case as the DOM names it, and
/// whether it is editable) is the "/" shortcut to the search box rather than text: "/"
/// without Ctrl, Alt or Meta, outside anything one types in.
pub fn is_search_shortcut(key: &str, modifiers: bool, tag: &str, editable: bool) -> bool {
    key == "/" && !modifiers && !editable && !matches!(tag, "INPUT" | "TEXTAREA" | "SELECT")
}

/// "/" anywhere on the page (outside a field) puts the focus in the search box of the tab
/// shown, as on many developer sites. For the app's own page (the element's search boxes are
/// in its shadow root, and the host page's keys are not ours).
pub fn install_search_shortcut() {
    let handle = leptos::prelude::window_event_listener(leptos::ev::keydown, |ev| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
        let (tag, editable) = target
            .map(|t| (t.tag_name(), t.is_content_editable()))
            .unwrap_or_default();
        let modifiers = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        if !is_search_shortcut(&ev.key(), modifiers, &tag, editable) {
            return;
        }
        let search = leptos::prelude::document()
            .query_selector(SEARCH_BOXES)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(search) = search {
            ev.prevent_default();
            let _ = search.focus();
        }
    });
    // The listener stays for the page's life (dropping the handle does not remove it).
    drop(handle);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_goes_to_the_search_box_only_outside_fields() {
        assert!(is_search_shortcut("/", false, "BODY", false));
        assert!(is_search_shortcut("/", false, "BUTTON", false));
        assert!(!is_search_shortcut("/", false, "INPUT", false));
        assert!(!is_search_shortcut("/", false, "TEXTAREA", false));
        assert!(!is_search_shortcut("/", false, "SELECT", false));
        assert!(!is_search_shortcut("/", false, "DIV", true));
        assert!(!is_search_shortcut("/", true, "BODY", false));
        assert!(!is_search_shortcut("?", false, "BODY", false));
    }

    #[test]
    fn arrows_run_along_the_layout_only() {
        assert_eq!(key_move("ArrowDown", Layout::Column), Some(Move::On));
        assert_eq!(key_move("ArrowUp", Layout::Column), Some(Move::Back));
        assert_eq!(key_move("ArrowRight", Layout::Column), None);
        assert_eq!(key_move("ArrowRight", Layout::Row), Some(Move::On));
        assert_eq!(key_move("ArrowDown", Layout::Row), None);
        assert_eq!(key_move("Home", Layout::Row), Some(Move::First));
        assert_eq!(key_move("End", Layout::Column), Some(Move::Last));
        assert_eq!(key_move("a", Layout::Column), None);
    }

    #[test]
    fn a_row_wraps_round_and_a_column_stops() {
        assert_eq!(moved(0, 5, Move::Back, Layout::Row), 4);
        assert_eq!(moved(4, 5, Move::On, Layout::Row), 0);
        assert_eq!(moved(0, 5, Move::Back, Layout::Column), 0);
        assert_eq!(moved(4, 5, Move::On, Layout::Column), 4);
        assert_eq!(moved(2, 5, Move::On, Layout::Column), 3);
        assert_eq!(moved(2, 5, Move::Back, Layout::Row), 1);
        assert_eq!(
            moved(2, 5, Move::On, Layout::Row),
            3,
            "wraps only at the end"
        );
        assert_eq!(moved(2, 5, Move::First, Layout::Column), 0);
        assert_eq!(moved(2, 5, Move::Last, Layout::Row), 4);
        assert_eq!(moved(0, 1, Move::On, Layout::Row), 0);
    }
}
