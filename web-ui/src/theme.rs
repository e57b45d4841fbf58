//! The app's colour scheme: the system's (the default), or light or dark whatever the system
//! says, chosen in the top bar and kept in the browser (`localStorage`). Applied as a class on
//! the page's root element (`theme-light`, `theme-dark`), which sets the stylesheet's colours.

/// A colour scheme choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Theme {
    /// Follow the system (`prefers-color-scheme`).
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// Every choice, in the order offered.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// Its value in the select and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// What the select says.
    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "as the system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The choice `value` names; anything else is the system's.
    pub fn parse(value: &str) -> Theme {
        Theme::ALL
            .into_iter()
            .find(|t| t.as_str() == value)
            .unwrap_or_default()
    }

    /// The class it puts on the root element, if any.
    fn class(self) -> Option<&'static str> {
        match self {
            Theme::System => None,
            Theme::Light => Some("theme-light"),
            Theme::Dark => Some("theme-dark"),
        }
    }
}

const KEY: &str = "mcp-browser-client.theme";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The choice made last in this browser.
pub fn load() -> Theme {
    storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .map(|v| Theme::parse(&v))
        .unwrap_or_default()
}

/// The event dispatched on the window when the colours are chosen (MCP App Views follow it).
pub const CHANGED_EVENT: &str = "mcp-browser-client-theme";

/// Applies `theme` to the page and keeps it for the next visits (best effort).
pub fn choose(theme: Theme) {
    apply(theme);
    if let (Some(w), Ok(ev)) = (web_sys::window(), web_sys::Event::new(CHANGED_EVENT)) {
        let _ = w.dispatch_event(&ev);
    }
    if let Some(s) = storage() {
        let _ = match theme {
            Theme::System => s.remove_item(KEY),
            other => s.set_item(KEY, other.as_str()),
        };
    }
}

/// Sets the root element's class for `theme`.
pub fn apply(theme: Theme) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = root {
        let classes = root.class_list();
        let _ = classes.remove_2("theme-light", "theme-dark");
        if let Some(class) = theme.class() {
            let _ = classes.add_1(class);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_read_back_and_anything_else_is_the_systems() {
        for t in Theme::ALL {
            assert_eq!(Theme::parse(t.as_str()), t);
        }
        assert_eq!(Theme::parse("purple"), Theme::System);
        assert_eq!(Theme::parse(""), Theme::System);
    }

    #[test]
    fn light_and_dark_put_a_class_the_stylesheet_colours_on_the_page_and_the_systems_none() {
        let styles = include_str!("../../www/styles.css");
        assert_eq!(Theme::System.class(), None);
        for (theme, class) in [(Theme::Light, "theme-light"), (Theme::Dark, "theme-dark")] {
            assert_eq!(theme.class(), Some(class));
            assert!(
                styles.contains(&format!(".{class} {{ --fg:")),
                "the stylesheet sets the colours for .{class}"
            );
        }
    }

    #[test]
    fn each_choice_is_offered_in_words_of_its_own() {
        let labels: std::collections::HashSet<&str> =
            Theme::ALL.iter().map(|t| t.label()).collect();
        assert_eq!(labels.len(), Theme::ALL.len(), "{labels:?}");
        assert!(labels.iter().all(|l| !l.trim().is_empty()), "{labels:?}");
        assert_eq!(Theme::System.label(), "as the system");
    }
}
