//! What the tools tab shows of a tool (its form as filled in, the call under way with its
//! progress, the last result), kept by the connection rather than by the tab. The tab is
//! built again each time it is opened, and a tool's runner each time the tool is chosen: kept
//! here, a form half filled in, a call still running and its result are all there on return
//! (before, leaving the tab or choosing another tool lost them, and a result that came in
//! meanwhile was never shown).

use crate::components::result_view::ToolResult;
use client_browser::client_core::session::RequestHandle;
use client_browser::client_core::types::ElicitParams;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// How many tools' runs are kept; the one used longest ago goes first (never one whose call
/// is under way). Each may hold a large result.
pub const KEPT: usize = 8;

/// A call's progress as shown: done, total (if known), the server's message.
pub type Progress = (f64, Option<f64>, Option<String>);

/// One tool's form and call, as signals that live as long as the connection.
#[derive(Clone, Copy)]
pub struct ToolRun {
    /// The form's values by field path.
    pub values: RwSignal<BTreeMap<String, String>>,
    /// Whether the arguments are typed as raw JSON.
    pub raw_mode: RwSignal<bool>,
    /// The raw JSON typed.
    pub raw: RwSignal<String>,
    /// Entries typed for the call's `_meta` (a JSON object, or nothing).
    pub meta: RwSignal<String>,
    /// The call under way.
    pub running: RwSignal<Option<RequestHandle>>,
    /// A call asked for from outside the form ("Run again" in the call history), with its
    /// arguments: the runner makes it as it makes its own, once no call of the tool is under
    /// way.
    pub asked: RwSignal<Option<serde_json::Value>>,
    /// Its progress.
    pub progress: RwSignal<Option<Progress>>,
    /// A call running as a task: its status and the server's message about it.
    pub task: RwSignal<Option<(String, Option<String>)>>,
    /// The last result, or why the call failed.
    pub result: RwSignal<Option<Result<ToolResult, String>>>,
    /// How long the last call took, in milliseconds (from Run to its answer).
    pub took_ms: RwSignal<Option<f64>>,
    /// The arguments of the last call (made again by "Retry").
    pub last_args: RwSignal<Option<serde_json::Value>>,
    /// Web pages the server asked the person to open before the call is made again (it
    /// refused the last one with a `URLElicitationRequiredError`).
    pub url_required: RwSignal<Vec<ElicitParams>>,
    /// The pages (their elicitation ids) after whose completion the call was made again by
    /// itself: once per set of pages, however often the runner is shown again.
    pub auto_retried: StoredValue<Vec<String>>,
}

impl ToolRun {
    /// A run kept by nobody (for a runner whose connection is gone).
    pub fn detached(values: BTreeMap<String, String>) -> Self {
        Self::new(values)
    }

    /// Whether the person has made something of this run that following another call in it
    /// would overwrite: values typed (other than the form's `initial` ones), raw JSON or
    /// `_meta` typed, or a call's result (or error) shown.
    pub fn holds_work(&self, initial: &BTreeMap<String, String>) -> bool {
        self.values.with_untracked(|v| v != initial)
            || self.raw_mode.get_untracked()
            || self.meta.with_untracked(|m| !m.trim().is_empty())
            || self.result.with_untracked(Option::is_some)
            || self.last_args.with_untracked(Option::is_some)
            || self.url_required.with_untracked(|u| !u.is_empty())
    }

    /// Lets go of the run's signals (a detached run whose call is over).
    pub fn dispose_detached(self) {
        self.dispose();
    }

    fn new(values: BTreeMap<String, String>) -> Self {
        ToolRun {
            values: RwSignal::new(values),
            raw_mode: RwSignal::new(false),
            raw: RwSignal::new(String::from("{}")),
            meta: RwSignal::new(String::new()),
            running: RwSignal::new(None),
            asked: RwSignal::new(None),
            progress: RwSignal::new(None),
            task: RwSignal::new(None),
            result: RwSignal::new(None),
            took_ms: RwSignal::new(None),
            last_args: RwSignal::new(None),
            url_required: RwSignal::new(Vec::new()),
            auto_retried: StoredValue::new(Vec::new()),
        }
    }

    fn dispose(self) {
        self.values.dispose();
        self.raw_mode.dispose();
        self.raw.dispose();
        self.meta.dispose();
        self.running.dispose();
        self.asked.dispose();
        self.progress.dispose();
        self.task.dispose();
        self.result.dispose();
        self.took_ms.dispose();
        self.last_args.dispose();
        self.url_required.dispose();
        self.auto_retried.dispose();
    }
}

/// The runs of a connection's tools, the most recently used last.
pub struct ToolRuns {
    /// Owns the runs' signals: not the tab's (which goes when the tab is left).
    owner: Owner,
    runs: Vec<(String, ToolRun)>,
}

impl Default for ToolRuns {
    fn default() -> Self {
        ToolRuns {
            owner: Owner::new(),
            runs: Vec::new(),
        }
    }
}

impl ToolRuns {
    /// The run of `tool`, now the most recently used; made with `initial` values if there is
    /// none (and then the run used longest ago that is neither under way nor asked for goes,
    /// past [`KEPT`]).
    pub fn of(
        &mut self,
        tool: &str,
        initial: impl FnOnce() -> BTreeMap<String, String>,
    ) -> ToolRun {
        let run = match self.runs.iter().position(|(name, _)| name == tool) {
            Some(i) => self.runs.remove(i).1,
            None => self.owner.with(|| ToolRun::new(initial())),
        };
        self.runs.push((tool.to_string(), run));
        if self.runs.len() > KEPT {
            let idle = self.runs.iter().position(|(_, r)| {
                r.running.with_untracked(Option::is_none) && r.asked.with_untracked(Option::is_none)
            });
            if let Some(i) = idle.filter(|i| *i + 1 < self.runs.len()) {
                self.runs.remove(i).1.dispose();
            }
        }
        run
    }

    /// The run of `tool`, if one is kept (nothing changes).
    pub fn find(&self, tool: &str) -> Option<ToolRun> {
        self.runs
            .iter()
            .find(|(name, _)| name == tool)
            .map(|(_, run)| *run)
    }

    /// The tools whose runs are kept, the most recently used last.
    pub fn kept(&self) -> Vec<&str> {
        self.runs.iter().map(|(name, _)| name.as_str()).collect()
    }
}

/// The run of listed tool `tool` with `args` in its form (as raw JSON when the form cannot
/// say them exactly), or why not in words (the server no longer lists the tool).
pub fn run_with(
    conn: &crate::connection::Connection,
    tool: &str,
    args: &serde_json::Value,
) -> Result<ToolRun, String> {
    use crate::schema_form::{fields_of, initial_values, values_from};
    let Some(listed) = conn
        .tools
        .with_untracked(|t| t.iter().find(|x| x.name == tool).cloned())
    else {
        return Err(format!(
            "The server no longer lists {tool}, so its form cannot be filled in. \"Send a request\" in the Logs tab can still make the call."
        ));
    };
    let fields = fields_of(&listed.input_schema);
    let run = conn
        .tool_runs
        .try_update_value(|runs| runs.of(tool, || initial_values(&fields)))
        .ok_or_else(|| "The connection is gone.".to_string())?;
    match values_from(&fields, args) {
        Some(values) => {
            run.values.set(values);
            run.raw_mode.set(false);
        }
        None => {
            run.raw
                .set(serde_json::to_string_pretty(args).unwrap_or_default());
            run.raw_mode.set(true);
        }
    }
    Ok(run)
}

/// The run of listed tool `tool` with the arguments a link carried (`text`, JSON) in its
/// form: a JSON object as [`run_with`] puts any arguments, anything else as the raw JSON
/// box's text, as the link gave it (the check before sending then says what is wrong with
/// it). Nothing is sent: the person reads them and presses Run.
pub fn run_from_link(
    conn: &crate::connection::Connection,
    tool: &str,
    text: &str,
) -> Result<ToolRun, String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(args @ serde_json::Value::Object(_)) => run_with(conn, tool, &args),
        _ => {
            let run = run_with(conn, tool, &serde_json::Value::Object(Default::default()))?;
            run.raw.set(text.to_string());
            run.raw_mode.set(true);
            Ok(run)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_kept_with_what_was_typed_and_the_oldest_idle_one_goes() {
        let mut runs = ToolRuns::default();
        let first = runs.of("a", || BTreeMap::from([("x".to_string(), "1".to_string())]));
        first.values.update(|v| {
            v.insert("x".into(), "typed".into());
        });
        // Chosen again: the same run, with what was typed (not the initial values).
        let again = runs.of("a", || panic!("made again"));
        assert_eq!(again.values.get_untracked()["x"], "typed");
        // "a" is under way; filling past the bound evicts the oldest idle run, never "a".
        first
            .running
            .set(Some(client_browser::client_core::session::RequestHandle(1)));
        for i in 0..KEPT {
            runs.of(&format!("t{i}"), BTreeMap::new);
        }
        assert_eq!(runs.kept().len(), KEPT);
        assert_eq!(runs.kept()[0], "a");
        assert!(!runs.kept().contains(&"t0"));
        assert_eq!(runs.kept().last(), Some(&"t7"));
    }

    #[test]
    fn the_run_just_chosen_stays_when_every_other_is_under_way_and_an_evicted_run_lets_go() {
        let mut runs = ToolRuns::default();
        let handle = client_browser::client_core::session::RequestHandle(1);
        let evicted = runs.of("idle", BTreeMap::new);
        for i in 0..KEPT {
            // Under way, or asked for from outside ("Run again"): neither goes.
            let run = runs.of(&format!("busy{i}"), BTreeMap::new);
            if i % 2 == 0 {
                run.running.set(Some(handle));
            } else {
                run.asked.set(Some(serde_json::json!({})));
            }
        }
        // "idle" went to make room, and its signals with it.
        assert!(!runs.kept().contains(&"idle"));
        assert!(evicted.values.try_get_untracked().is_none(), "disposed");
        assert!(runs.find("idle").is_none());
        // Every kept run is under way or asked for: the one chosen now is kept beyond the bound.
        let chosen = runs.of("new", BTreeMap::new);
        assert_eq!(runs.kept().len(), KEPT + 1);
        assert_eq!(runs.kept().last(), Some(&"new"));
        assert!(chosen.values.try_get_untracked().is_some());
        let found = runs.find("busy2").expect("kept");
        assert_eq!(found.running.get_untracked(), Some(handle));
        assert_eq!(runs.kept().last(), Some(&"new"), "find changes nothing");
        assert!(runs.find("busy").is_none());
    }

    #[test]
    fn a_detached_run_lets_go_of_its_signals() {
        let run = ToolRun::detached(BTreeMap::new());
        assert!(run.result.try_get_untracked().is_some());
        run.dispose_detached();
        assert!(run.result.try_get_untracked().is_none());
        assert!(run.values.try_get_untracked().is_none());
        assert!(run.auto_retried.try_get_value().is_none());
    }

    #[test]
    fn a_run_holds_the_persons_work_once_anything_differs_from_a_form_just_opened() {
        let initial = BTreeMap::from([("x".to_string(), "1".to_string())]);
        let fresh = || ToolRun::detached(initial.clone());
        assert!(!fresh().holds_work(&initial));
        let typed = fresh();
        typed
            .values
            .update(|v| _ = v.insert("x".into(), "2".into()));
        assert!(typed.holds_work(&initial));
        let raw = fresh();
        raw.raw_mode.set(true);
        assert!(raw.holds_work(&initial));
        let meta = fresh();
        meta.meta.set(r#"{"traceparent":"x"}"#.into());
        assert!(meta.holds_work(&initial));
        let blank_meta = fresh();
        blank_meta.meta.set("  ".into());
        assert!(!blank_meta.holds_work(&initial));
        let shown = fresh();
        shown.result.set(Some(Err("failed".into())));
        assert!(shown.holds_work(&initial));
        let ran = fresh();
        ran.last_args.set(Some(serde_json::json!({})));
        assert!(ran.holds_work(&initial));
    }
}
