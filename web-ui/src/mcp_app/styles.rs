//! The app's colours and fonts given to a View as the extension's style variables
//! (`hostContext.styles.variables`), so that a View can look like the page it is shown in,
//! in the light or the dark colours alike.

use serde_json::{json, Map, Value};

/// Each style variable of the extension the app gives, and the CSS property of the app's
/// it is read from (the app's own custom properties, or the page's font).
pub const FROM_APP: &[(&str, &str)] = &[
    ("--color-background-primary", "--bg"),
    ("--color-background-inverse", "--fg"),
    ("--color-text-primary", "--fg"),
    ("--color-text-secondary", "--muted"),
    ("--color-text-inverse", "--bg"),
    ("--color-text-info", "--accent"),
    ("--color-text-danger", "--danger"),
    ("--color-text-success", "--ok"),
    ("--color-text-warning", "--warn"),
    ("--color-border-primary", "--border"),
    ("--color-ring-primary", "--accent"),
    ("--font-sans", "font-family"),
];

/// The ones the app's style sheet fixes: its monospace font and the radius of its corners.
const FIXED: &[(&str, &str)] = &[
    ("--font-mono", "ui-monospace, monospace"),
    ("--border-radius-md", "6px"),
];

/// `hostContext.styles`: the variables of [`FROM_APP`] with the values `read` gives (the
/// computed value of the app's CSS property where the View is shown; one it cannot read,
/// empty, is left out) and the fixed ones.
pub fn host_styles(read: impl Fn(&str) -> String) -> Value {
    let mut variables = Map::new();
    for (variable, property) in FROM_APP {
        let value = read(property);
        let value = value.trim();
        if !value.is_empty() {
            variables.insert((*variable).into(), value.into());
        }
    }
    for (variable, value) in FIXED {
        variables.insert((*variable).into(), (*value).into());
    }
    json!({ "variables": variables })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apps_colours_become_the_extensions_variables_and_unknown_ones_are_left_out() {
        let styles = host_styles(|property| match property {
            "--bg" => " #0d1117".into(),
            "--fg" => "#e6edf3".into(),
            "font-family" => "system-ui, sans-serif".into(),
            _ => String::new(),
        });
        let v = &styles["variables"];
        assert_eq!(v["--color-background-primary"], "#0d1117");
        assert_eq!(v["--color-text-inverse"], "#0d1117");
        assert_eq!(v["--color-text-primary"], "#e6edf3");
        assert_eq!(v["--font-sans"], "system-ui, sans-serif");
        assert_eq!(v["--font-mono"], "ui-monospace, monospace");
        assert!(v.get("--color-text-danger").is_none());
        assert_eq!(v.as_object().map(Map::len), Some(7));
    }
}
