//! Which lists a tab shows from answers kept from before, because asking the server again
//! failed (the response cache's stale-if-error): the tab marks them until a listing succeeds.

/// The list methods of each tab that lists something.
pub const TOOLS: &[&str] = &["tools/list"];
/// The resources tab lists both.
pub const RESOURCES: &[&str] = &["resources/list", "resources/templates/list"];
/// The prompts tab.
pub const PROMPTS: &[&str] = &["prompts/list"];

/// One list shown from a kept answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaleList {
    /// The list's method (`tools/list`, ...).
    pub method: String,
    /// How old the kept answer was when it was served.
    pub age_ms: u64,
    /// Why asking the server again failed.
    pub error: String,
}

/// The lists currently shown from kept answers, at most one entry per method.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaleLists(Vec<StaleList>);

impl StaleLists {
    /// A kept answer was served for `method` (replaces what was noted for it before).
    pub fn served(&mut self, method: &str, age_ms: u64, error: &str) {
        self.0.retain(|s| s.method != method);
        self.0.push(StaleList {
            method: method.to_string(),
            age_ms,
            error: error.to_string(),
        });
    }

    /// `methods` are being listed afresh: whatever was noted for them goes (a listing that is
    /// again answered from a kept result notes it again). True if something went.
    pub fn listing(&mut self, methods: &[&str]) -> bool {
        let before = self.0.len();
        self.0.retain(|s| !methods.contains(&s.method.as_str()));
        self.0.len() != before
    }

    /// The oldest kept answer among `methods` (what a tab listing them warns about), if any.
    pub fn among(&self, methods: &[&str]) -> Option<&StaleList> {
        self.0
            .iter()
            .filter(|s| methods.contains(&s.method.as_str()))
            .max_by_key(|s| s.age_ms)
    }

    /// The sentence a tab shows above a list shown from a kept answer.
    pub fn describe(s: &StaleList) -> String {
        let secs = s.age_ms / 1000;
        format!(
            "Not up to date: asking the server again for {} failed ({}). Shown is its answer from {secs} s earlier.",
            s.method, s.error
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_served_list_is_marked_until_it_is_listed_again() {
        let mut s = StaleLists::default();
        assert_eq!(s.among(RESOURCES), None);
        s.served("resources/templates/list", 4_200, "HTTP 503");
        let marked = s.among(RESOURCES).cloned();
        assert_eq!(
            marked.as_ref().map(|m| m.method.as_str()),
            Some("resources/templates/list")
        );
        assert_eq!(s.among(TOOLS), None, "other tabs are not marked");
        assert!(!s.listing(PROMPTS), "listing prompts clears nothing here");
        assert!(s.among(RESOURCES).is_some());
        assert!(s.listing(RESOURCES));
        assert_eq!(s.among(RESOURCES), None);
    }

    #[test]
    fn one_entry_per_method_and_the_oldest_is_shown() {
        let mut s = StaleLists::default();
        s.served("resources/list", 1_000, "a");
        s.served("resources/templates/list", 9_000, "b");
        s.served("resources/list", 2_000, "c");
        assert_eq!(s.0.len(), 2);
        assert_eq!(s.among(RESOURCES).map(|m| m.age_ms), Some(9_000));
        s.listing(&["resources/templates/list"]);
        assert_eq!(s.among(RESOURCES).map(|m| m.error.as_str()), Some("c"));
    }

    #[test]
    fn the_sentence_says_what_failed_and_how_old_the_answer_is() {
        let s = StaleList {
            method: "tools/list".into(),
            age_ms: 61_999,
            error: "the server answered HTTP 503: down".into(),
        };
        assert_eq!(
            StaleLists::describe(&s),
            "Not up to date: asking the server again for tools/list failed (the server answered HTTP 503: down). Shown is its answer from 61 s earlier."
        );
    }
}
