//! The tool list with search; selecting a tool opens its runner.

use crate::components::kept_app_views::KeptAppViews;
use crate::components::keyed_list::KeyedList;
use crate::components::tool_runner::ToolRunner;
use crate::connection::Connection;
use crate::search::{first_found, found_in, SearchBox};
use client_browser::client_core::types::Tool;
use leptos::prelude::*;

/// What the search looks in (name, title and description), lower-cased: computed once per
/// tool list, not per keystroke.
pub fn haystack(tool: &Tool) -> String {
    crate::search::haystack(&[
        Some(&tool.name),
        tool.title.as_deref(),
        tool.description.as_deref(),
    ])
}

/// Hints the server claims about a tool, as short labels.
pub fn hint_labels(tool: &Tool) -> Vec<&'static str> {
    let Some(a) = &tool.annotations else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if a.read_only_hint == Some(true) {
        out.push("read-only");
    }
    if a.destructive_hint == Some(true) {
        out.push("destructive");
    }
    if a.idempotent_hint == Some(true) {
        out.push("idempotent");
    }
    if a.open_world_hint == Some(true) {
        out.push("open world");
    }
    out
}

/// The chosen tool's name when the server's list, once it came, has no such tool (called
/// when no listed tool is the chosen one).
fn unlisted_choice(chosen: Option<String>, listed: bool) -> Option<String> {
    chosen.filter(|_| listed)
}

/// Most tools rendered at once; the search narrows the rest.
const SHOWN: usize = 500;

/// Tools of one connection.
#[component]
pub fn ToolsPanel(conn: Connection) -> impl IntoView {
    // Kept by the connection, like the search: the chosen tool is still chosen when the tab is opened again.
    let selected = conn.chosen_tool;
    let query = conn.searches.tools;
    let tools = conn.tools;
    let views = conn.app_views;
    let running = conn.running_tools;
    let haystacks = Memo::new(move |_| tools.with(|t| t.iter().map(haystack).collect::<Vec<_>>()));
    // Indices of the tools that match the query.
    let found = found_in(haystacks, query);
    let shown = move || first_found(tools, found, SHOWN);
    // A memo: listing the tools again (the server said they changed) keeps the open runner,
    // and the result on it, unless the chosen tool itself changed.
    let current = Memo::new(move |_| {
        let name = selected.get()?;
        tools.with(|t| t.iter().find(|x| x.name == name).cloned())
    });
    let chosen = Signal::derive(move || current.with(|t| t.as_ref().map(|t| t.name.clone())));
    let views_conn = conn.clone();
    view! {
        <section class="tools split" aria-label="Tools">
            <div class="list">
                <SearchBox id="tool-search" noun="tools" one="tool" query=query total=Signal::derive(move || tools.with(Vec::len)) found=found shown=SHOWN />
                <ul class="tool-list" aria-label="Tool list" on:keydown=move |ev| { crate::keys::move_focus(&ev, "button.tool", crate::keys::Layout::Column); }>
                    <KeyedList each=shown key=|t| t.name.clone() let:tool>
                        {
                            let name = tool.name.clone();
                            let n2 = name.clone();
                            let is_sel = move || selected.get().as_deref() == Some(n2.as_str());
                            view! {
                                <li>
                                    <button class="tool" data-tool=name.clone() aria-current=move || is_sel().to_string() on:click=move |ev| { selected.set(Some(name.clone())); crate::detail_view::bring_into_view(ev.current_target()); }>
                                        {crate::icons::icon_view(tool.icons.as_deref())}
                                        <span class="name">{crate::bidi::contained(tool.title.as_deref().unwrap_or(&tool.name)).into_owned()}</span>
                                        {hint_labels(&tool).into_iter().map(|h| view! { <span class="hint" title="claimed by the server">{h}</span> }).collect_view()}
                                        {crate::mcp_app::resource_uri(&tool).map(|_| view! { <span class="hint app-mark" title="shows its result in an MCP App">{if crate::mcp_app::for_views_only(&tool) { "app only" } else { "app" }}</span> })}
                                        {
                                            // A call of it is under way (maybe while another tool is chosen).
                                            let name = tool.name.clone();
                                            move || running.with(|r| r.contains(&name)).then(|| view! { <span class="hint running" title="a call of this tool is under way">"running"</span> })
                                        }
                                        {
                                            // Its View is kept running (shown when the tool is chosen).
                                            let name = tool.name.clone();
                                            move || views.with(|kept| kept.open(&name)).then(|| view! { <span class="hint app-open" title="its app is open: choose the tool to see it">"open"</span> })
                                        }
                                        {tool.description.as_deref().map(|d| view! { <span class="help">{crate::bidi::contained(d).into_owned()}</span> })}
                                    </button>
                                </li>
                            }
                        }
                    </KeyedList>
                </ul>
            </div>
            <div class="detail">
                {move || match current.get() {
                    Some(tool) => view! { <ToolRunner conn=conn.clone() tool=tool /> }.into_any(),
                    None => match unlisted_choice(selected.get(), conn.tools_listed.get()) {
                        // A link named it, or the server stopped listing it.
                        Some(name) => view! {
                            <p class="hint unlisted-tool" role="status">"This server lists no tool named “" <bdi>{crate::bidi::contained(&name).into_owned()}</bdi> "”. Choose a tool."</p>
                        }.into_any(),
                        None => view! { <p class="hint">"Choose a tool."</p> }.into_any(),
                    },
                }}
                // Under the runner: the chosen tool's View, and the others' kept, hidden.
                <KeptAppViews conn=views_conn chosen=chosen />
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{matches, query_words};

    #[test]
    fn a_chosen_tool_is_unlisted_only_once_the_list_came() {
        assert_eq!(
            unlisted_choice(Some("nope".into()), true).as_deref(),
            Some("nope")
        );
        assert_eq!(unlisted_choice(Some("nope".into()), false), None);
        assert_eq!(unlisted_choice(None, true), None);
    }

    #[test]
    fn search_matches_every_word_in_name_title_or_description_ignoring_case() {
        let tool: Tool = serde_json::from_value(serde_json::json!({
            "name": "get-sum", "title": "Ädd Numbers", "description": "Returns the SUM"
        }))
        .unwrap();
        let hay = haystack(&tool);
        for q in ["sum", "GET ädd", "  returns   numbers ", ""] {
            assert!(matches(&hay, &query_words(q)), "{q:?}");
        }
        for q in ["product", "sum product"] {
            assert!(!matches(&hay, &query_words(q)), "{q:?}");
        }
    }
}
