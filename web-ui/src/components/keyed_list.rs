//! One keyed list for the whole app: `<KeyedList>` takes the place of Leptos's `<For>`, with
//! the same props and the same behaviour (a row is made once for its key and kept, moved or
//! removed as the list changes), but its list-diffing code is compiled once.
//!
//! Why: `<For>` is generic over the item, the key and the row's view, so the compiler made a
//! copy of its diffing and mounting code for each of the app's lists (a dozen copies, about
//! 7 KB of wasm each). Here the generic part only turns each item into a key and a boxed
//! "make the row" function; the one `<For>` behind it always sees the same types.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::sync::Arc;

/// A row's key: a number or a text, so that every list's keys fit the one type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum RowKey {
    /// A numeric key (a sequence number, an id).
    Number(u64),
    /// A text key (a name, a URI).
    Text(String),
}

impl From<u64> for RowKey {
    fn from(n: u64) -> Self {
        RowKey::Number(n)
    }
}

impl From<u32> for RowKey {
    fn from(n: u32) -> Self {
        RowKey::Number(n.into())
    }
}

impl From<usize> for RowKey {
    fn from(n: usize) -> Self {
        RowKey::Number(n as u64)
    }
}

impl From<String> for RowKey {
    fn from(s: String) -> Self {
        RowKey::Text(s)
    }
}

/// One item of a list, its type erased: its key and the function that makes its row.
struct Row {
    key: RowKey,
    make: Box<dyn FnOnce() -> AnyView + Send>,
}

/// A keyed list: `each` gives the items, `key` names each one, `children` makes an item's row
/// (once, when its key first appears).
#[component]
pub fn KeyedList<IF, I, T, KF, K, EF, N>(each: IF, key: KF, children: EF) -> impl IntoView
where
    IF: Fn() -> I + Send + 'static,
    I: IntoIterator<Item = T>,
    T: Send + 'static,
    KF: Fn(&T) -> K + Send + 'static,
    K: Into<RowKey>,
    EF: Fn(T) -> N + Send + 'static,
    N: IntoView + 'static,
{
    // Shared by the rows, not cloned for each item on each update (a list of 5,000 tools is
    // mapped again at every keystroke of its search). The wrapper only makes it `Send`, which
    // `<For>` asks of its items: the app runs on one thread.
    let children = Arc::new(SendWrapper::new(children));
    let rows = move || {
        each()
            .into_iter()
            .map(|item| {
                let key = key(&item).into();
                let children = children.clone();
                Row {
                    key,
                    make: Box::new(move || (**children)(item).into_any()),
                }
            })
            .collect()
    };
    erased_list(Box::new(rows))
}

/// The one `<For>` of the app.
fn erased_list(rows: Box<dyn Fn() -> Vec<Row> + Send>) -> AnyView {
    view! { <For each=move || rows() key=|row: &Row| row.key.clone() children=|row: Row| (row.make)() /> }
        .into_any()
}

#[cfg(test)]
mod tests {
    use super::RowKey;

    #[test]
    fn numbers_and_texts_are_distinct_keys() {
        assert_eq!(RowKey::from(7u64), RowKey::from(7usize));
        assert_ne!(RowKey::from(7u64), RowKey::from("7".to_string()));
    }
}
