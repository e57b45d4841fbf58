//! The page's title (what the browser's tab says): the server shown, and how many questions
//! the servers are waiting on, so that a tab in the background says when one asks.

/// The app's name, the whole title while no server is shown.
pub const APP_NAME: &str = "MCP browser client";

/// The page's title for the server shown (`server`, its name) and the number of questions
/// (sampling, elicitation, roots) the servers wait on: `(2) Weather · MCP browser client`.
pub fn page_title(server: Option<&str>, questions: usize) -> String {
    let base = match server.map(str::trim).filter(|s| !s.is_empty()) {
        // One line: a name that holds line breaks or other controls is read as spaces.
        Some(name) => {
            let name: String = name
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            format!("{name} · {APP_NAME}")
        }
        None => APP_NAME.to_string(),
    };
    if questions == 0 {
        base
    } else {
        format!("({questions}) {base}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_names_the_server_and_counts_its_questions() {
        assert_eq!(page_title(None, 0), "MCP browser client");
        assert_eq!(page_title(Some("  "), 0), "MCP browser client");
        assert_eq!(
            page_title(Some("Weather"), 0),
            "Weather · MCP browser client"
        );
        assert_eq!(
            page_title(Some("Weather"), 2),
            "(2) Weather · MCP browser client"
        );
        assert_eq!(page_title(None, 1), "(1) MCP browser client");
        assert_eq!(
            page_title(Some("a\nb\u{7}c"), 0),
            "a b c · MCP browser client"
        );
    }
}
