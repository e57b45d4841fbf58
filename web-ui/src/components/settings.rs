//! Per-server settings: the log level asked of the server, the roots offered to it, how long
//! a request may take, a check that the server answers, and whether the call history (and
//! the calls still running as tasks) is kept in the browser.

use crate::connection::Connection;
use crate::words::level_name;
use client_browser::client_core::types::LoggingLevel;
use leptos::prelude::*;

/// The log levels, least severe first.
pub const LEVELS: &[LoggingLevel] = &[
    LoggingLevel::Debug,
    LoggingLevel::Info,
    LoggingLevel::Notice,
    LoggingLevel::Warning,
    LoggingLevel::Error,
    LoggingLevel::Critical,
    LoggingLevel::Alert,
    LoggingLevel::Emergency,
];

/// The settings tab.
#[component]
pub fn SettingsPanel(conn: Connection) -> impl IntoView {
    let status = RwSignal::new(None::<String>);
    // The level the server accepted last (the select shows it when the tab opens again).
    let log_level = conn.log_level;
    let c1 = conn.clone();
    let set_level = move |ev| {
        let value = event_target_value(&ev);
        let Some(level) = LEVELS.iter().copied().find(|l| level_name(*l) == value) else {
            return;
        };
        let Some(client) = c1.client.get_value() else {
            return;
        };
        leptos::task::spawn_local(async move {
            status.set(Some(match client.set_log_level(level).await {
                Ok(()) => {
                    log_level.set(Some(value.clone()));
                    format!("log level: {value}")
                }
                Err(e) => format!("could not set the log level: {e}"),
            }));
        });
    };
    // What is typed is kept by the connection until it is saved: still there when the tab
    // is opened again.
    let (roots, draft) = (conn.roots, conn.roots_draft);
    let roots_text = move || draft.get().unwrap_or_else(|| roots.with(|r| r.join("\n")));
    let c2 = conn.clone();
    let save_roots = move |_| {
        let text = draft
            .get_untracked()
            .unwrap_or_else(|| roots.with_untracked(|r| r.join("\n")));
        let list = match parse_roots(&text) {
            Ok(list) => list,
            Err(why) => {
                status.set(Some(why));
                return;
            }
        };
        c2.roots.set(list);
        draft.set(None);
        if let Some(client) = c2.client.get_value() {
            client.roots_changed();
        }
        status.set(Some("roots updated".into()));
    };
    let time_limit = conn.time_limit;
    // The app's own page keeps its settings in the browser; an embedded widget does not.
    let in_app_page = conn.keeps_history();
    let set_time_limit = move |ev| match crate::time_limit::parse(&event_target_value(&ev)) {
        Ok(secs) => {
            time_limit.set(secs);
            // Kept for the next visits (not in an embedding page's storage).
            if in_app_page {
                crate::time_limit::save(secs);
            }
            status.set(Some(format!(
                "time limit: {secs} s without an answer or progress, for the requests made from now on"
            )));
        }
        Err(why) => status.set(Some(why)),
    };
    let c3 = conn.clone();
    let pinged = RwSignal::new(None::<String>);
    let ping = move |_| {
        let Some(client) = c3.client.get_value() else {
            return;
        };
        let method = client.ping_method();
        pinged.set(Some(format!("{method} sent…")));
        leptos::task::spawn_local(async move {
            let sent = js_sys::Date::now();
            let answer = client.ping().await;
            let ms = js_sys::Date::now() - sent;
            pinged.set(Some(match answer {
                Ok(()) => format!("The server answered {method} in {ms:.0} ms."),
                Err(e) => format!("The server did not answer {method}: {e}"),
            }));
        });
    };
    view! {
        <section class="settings" aria-label="Settings">
            <div class="ping">
                <button type="button" class="ping-server" on:click=ping>"Ping the server"</button>
                {move || pinged.get().map(|s| view! { <span role="status" class="ping-status">{s}</span> })}
            </div>
            <label for="log-level">"Log level asked of the server"</label>
            <select id="log-level" on:change=set_level>
                <option value="">"—"</option>
                {LEVELS.iter().map(|l| level_name(*l)).map(|n| view! { <option value=n selected=move || log_level.get().as_deref() == Some(n)>{n}</option> }).collect_view()}
            </select>
            <label for="time-limit">"Give up on a request after this many seconds without an answer or progress (at most 600 in all)"</label>
            <input id="time-limit" type="number" min="1" max=crate::time_limit::MAX_SECS step="1" prop:value=move || time_limit.get().to_string() on:change=set_time_limit />
            {conn.keeps_history().then(|| {
                let conn = conn.clone();
                let kept = RwSignal::new(crate::call_history::kept_in_browser());
                let toggle = move |ev| {
                    let on = event_target_checked(&ev);
                    crate::call_history::keep_in_browser(on);
                    if !on {
                        crate::kept_tasks::forget_all();
                    }
                    kept.set(on);
                    if on {
                        conn.save_history();
                    }
                    status.set(Some(if on {
                        "the call history is kept in this browser".into()
                    } else {
                        "the call history is no longer kept in this browser; what was kept is removed".into()
                    }));
                };
                view! {
                    <label class="inline"><input type="checkbox" id="keep-history" prop:checked=kept on:change=toggle />
                        " Keep the call history in this browser, and calls still running as tasks so that a reload follows them (with the arguments typed, for every server)"</label>
                }
            })}
            <label for="roots">"Roots offered to the server (one file:// URI per line)"</label>
            <textarea id="roots" rows="3" prop:value=roots_text on:input=move |ev| draft.set(Some(event_target_value(&ev)))></textarea>
            <button class="save-roots" on:click=save_roots>"Save roots"</button>
            {move || status.get().map(|s| view! { <p role="status" class="settings-status">{s}</p> })}
        </section>
    }
}

/// The roots typed one per line (blank lines skipped), or why they cannot be offered: the
/// protocol requires every root to be a `file://` URI.
pub fn parse_roots(text: &str) -> Result<Vec<String>, String> {
    let list: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    match list.iter().find(|l| !is_file_uri(l)) {
        Some(bad) => Err(format!(
            "not saved: a root must be a file:// URI, and this is not: {bad}"
        )),
        None => Ok(list),
    }
}

fn is_file_uri(line: &str) -> bool {
    line.get(..7)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file://"))
        && !line.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::parse_roots;

    #[test]
    fn roots_are_file_uris_one_per_line() {
        let text = "  file:///home/a \n\nFILE:///C:/work\n";
        assert_eq!(
            parse_roots(text),
            Ok(vec!["file:///home/a".to_string(), "FILE:///C:/work".into()])
        );
        assert_eq!(parse_roots(" \n"), Ok(vec![]));
        for bad in [
            "https://example.com/repo",
            "/home/a",
            "file:/x",
            "file:///a b",
            "fïle://x",
        ] {
            let Err(why) = parse_roots(&format!("file:///ok\n{bad}")) else {
                panic!("{bad} accepted")
            };
            assert!(why.contains(bad), "{why}");
        }
    }
}
