//! Searching a list as the person types: an item matches when its text, lower-cased once per
//! listing, holds every word of the query. The tools, resources and prompts tabs search this
//! way.

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

/// What a search looks in for one item: its texts (`None` for one it lacks), joined and
/// lower-cased once per listing, not per keystroke.
pub fn haystack(texts: &[Option<&str>]) -> String {
    let joined: Vec<&str> = texts.iter().flatten().copied().collect();
    lowercase(&joined.join(" "))
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

/// The indices of the items whose haystack holds every word of `query` (see [`matches`](fn@matches)),
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

/// How many a list holds (`3 tools`, `1 tool`) and, while a search is typed, how many of them
/// it found (`19 tools · 3 found`, `· none found`). The line starts with the list's size either
/// way.
pub fn count_line(total: usize, found: Option<usize>, one: &str, many: &str) -> String {
    let listed = crate::words::counted(total, one, many);
    match found {
        None => listed,
        Some(0) => format!("{listed} · none found"),
        Some(n) => format!("{listed} · {n} found"),
    }
}

/// The search box over a list, how many the list holds (and how many match, while a search
/// is typed), and a note when more match than are rendered (`shown` at most).
#[component]
pub fn SearchBox(
    /// The input's id.
    id: &'static str,
    /// What the list holds, for the label and the count: "tools", "resources".
    noun: &'static str,
    /// One of what the list holds, for a count of one: "tool", "resource".
    one: &'static str,
    /// What is typed.
    query: RwSignal<String>,
    /// How many the list holds.
    #[prop(into)]
    total: Signal<usize>,
    /// The indices that match (see [`found_in`]).
    found: Memo<Vec<usize>>,
    /// How many are rendered at most.
    shown: usize,
) -> impl IntoView {
    view! {
        <label for=id>{format!("Search {noun}")}</label>
        <input id=id type="search" aria-keyshortcuts="/" prop:value=query on:input=move |ev| query.set(event_target_value(&ev)) />
        <p class="count" aria-live="polite">{move || {
            let searching = query.with(|q| !q.trim().is_empty());
            count_line(total.get(), searching.then(|| found.with(Vec::len)), one, noun)
        }}</p>
        {move || {
            let n = found.with(Vec::len);
            (n > shown).then(|| view! { <p class="more" role="status">{format!("showing {shown} of {n}: refine the search")}</p> })
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_says_the_lists_size_in_number_and_what_a_search_found() {
        assert_eq!(count_line(19, None, "tool", "tools"), "19 tools");
        assert_eq!(count_line(1, None, "tool", "tools"), "1 tool");
        assert_eq!(count_line(0, None, "prompt", "prompts"), "0 prompts");
        assert_eq!(
            count_line(19, Some(3), "tool", "tools"),
            "19 tools · 3 found"
        );
        assert_eq!(
            count_line(1, Some(0), "resource", "resources"),
            "1 resource · none found"
        );
    }

    #[test]
    fn the_first_items_holding_every_word_are_found_and_follow_the_query() {
        let items = RwSignal::new(vec!["Get Sum", "get-env", "echo", "Get weather"]);
        let haystacks =
            Memo::new(move |_| items.with(|i| i.iter().map(|s| lowercase(s)).collect()));
        let query = RwSignal::new("GET".to_string());
        let found = found_in(haystacks, query);
        assert_eq!(found.get_untracked(), vec![0, 1, 3]);
        assert_eq!(first_found(items, found, 2), vec!["Get Sum", "get-env"]);
        query.set("get  s".into());
        assert_eq!(first_found(items, found, 10), vec!["Get Sum"], "every word");
        query.set("nothing".into());
        assert!(first_found(items, found, 10).is_empty());
        // The list changes under the query.
        query.set(String::new());
        items.set(vec!["one"]);
        assert_eq!(first_found(items, found, 10), vec!["one"]);
    }
}
