//! The MCP App Views a connection keeps (see [`crate::mcp_app::kept`]), under the tool's
//! runner: the chosen tool's View shown, the others hidden but still running. A server view
//! built again (its server chosen again) makes each View again when its tool is chosen.

use crate::components::app_view::AppView;
use crate::components::keyed_list::KeyedList;
use crate::connection::Connection;
use crate::mcp_app::Ending;
use leptos::prelude::*;
use std::rc::Rc;

/// The connection's Views, each shown while its tool is the `chosen` one.
#[component]
pub fn KeptAppViews(conn: Connection, chosen: Signal<Option<String>>) -> impl IntoView {
    let views = conn.app_views;
    // The tools listed again: the Views of tools no longer listed go.
    let tools = conn.tools;
    Effect::new(move |_| {
        // Not a read of the Views (a new View is no reason to look again); they are told of a
        // change only when one retired.
        tools.with(|listed| views.maybe_update(|kept| kept.listed(listed)));
    });
    let each = move || {
        views.with(|kept| {
            kept.all()
                .iter()
                .map(|v| {
                    (
                        v.n,
                        v.tool.clone(),
                        (v.arguments.clone(), v.call_id.clone()),
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <KeyedList each=each key=|(n, _, _)| *n children=move |(n, tool, (arguments, call_id))| {
            let name = tool.name.clone();
            let visible = Signal::derive(move || chosen.with(|c| c.as_deref() == Some(name.as_str())));
            let retiring = Signal::derive(move || views.with(|kept| kept.retiring(n)));
            // Made once first shown: the Views kept hidden are not all made again at once when
            // their server is chosen again, only as their tools are.
            let seen = Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || visible.get());
            // One never made has nothing to tear down: asked to go, it goes at once.
            Effect::new(move |_| {
                if !seen.get() && retiring.with(Option::is_some) {
                    views.try_update(|kept| kept.gone(n));
                }
            });
            let conn = conn.clone();
            move || seen.get().then(|| {
                let ending = ending_of(&conn, &tool.name);
                // Runs from a timer too, maybe once the connection is gone.
                let on_gone: Rc<dyn Fn()> = Rc::new(move || {
                    views.try_update(|kept| kept.gone(n));
                });
                view! { <AppView conn=conn.clone() tool=tool.clone() arguments=arguments.clone() call_id=call_id.clone() ending=ending retiring=retiring visible=visible on_gone=on_gone /> }
            })
        } />
    }
}

/// How the last call of `tool` ended, from its run (kept by the connection): its result, or
/// why it failed. Nothing while it is under way, or once the run is no longer kept.
fn ending_of(conn: &Connection, tool: &str) -> Signal<Option<Ending>> {
    let run = conn
        .tool_runs
        .try_with_value(|runs| runs.find(tool))
        .flatten();
    Signal::derive(move || {
        run?.result
            .try_with(|r| {
                r.as_ref().map(|r| match r {
                    Ok(r) => Ending::Result(r.raw.clone()),
                    Err(why) => Ending::Cancelled(why.clone()),
                })
            })
            .flatten()
    })
}
