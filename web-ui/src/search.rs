//! Searching a list as the person types: an item matches when its text, lower-cased once per
//! listing, holds every word of the query. The tools and resources tabs search this way.

use leptos::prelude::*;

/// Lower-cases text for search. ASCII text (most tool names and descriptions) in place;
/// other text in the browser with the engine's own Unicode data (the standard library's case
/// tables would add ~10 KB to the app, and a host call per tool slows a long list down).
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    {
        String::from(js_sys::JsString::from(s).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        s.to_lowercase()
    }
}

/// The words of a search query, lower-cased.
pub fn query_words(query: &str) -> Vec<String> {
    lowercase(query)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// True when a haystack (an item's searchable text, lower-cased) holds every word of the query.
pub fn matches(haystack: &str, words: &[String]) -> bool {
    words.iter().all(|w| haystack.contains(w.as_str()))
}

/// The indices of the items whose haystack holds every word of `query` (see [`matches`]),
/// kept current as either changes.
pub fn found_in(haystacks: Memo<Vec<String>>, query: RwSignal<String>) -> Memo<Vec<usize>> {
    let words = Memo::new(move |_| query_words(&query.get()));
    Memo::new(move |_| {
        words.with(|w| {
            haystacks.with(|h| {
                h.iter()
                    .enumerate()
                    .filter(|(_, hay)| matches(hay, w))
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>()
            })
        })
    })
}

/// The first `limit` of `items` at the `found` indices (see [`found_in`]), for rendering.
pub fn first_found<T: Clone + Send + Sync + 'static>(
    items: RwSignal<Vec<T>>,
    found: Memo<Vec<usize>>,
    limit: usize,
) -> Vec<T> {
    found.with(|f| {
        items.with(|all| {
            f.iter()
                .take(limit)
                .filter_map(|&i| all.get(i).cloned())
                .collect()
        })
    })
}
