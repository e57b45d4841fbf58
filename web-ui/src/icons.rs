//! The icons a server gives itself, its tools, resources, resource templates and prompts
//! (`icons`, 2025-11-25 and later): which one the app shows on a light page and which on a
//! dark one.
//!
//! Only an icon inside the message is shown: a `data:` URI of a raster image type. A remote
//! icon is never loaded (fetching it would tell a third party who looks at the list, and
//! when), and SVG is not shown (it can carry script, which the specification asks clients to
//! guard against).

use client_browser::client_core::types::Icon;
use leptos::prelude::*;

/// The starts of the `data:` URIs shown (compared without regard to case).
const SHOWN_TYPES: [&str; 4] = [
    "data:image/png;base64,",
    "data:image/jpeg;base64,",
    "data:image/gif;base64,",
    "data:image/webp;base64,",
];

/// The icon shown for one item: the one for a light page and the one for a dark page (the
/// same when the server gave none made for either).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownIcon {
    /// On a light page.
    pub light: String,
    /// On a dark page.
    pub dark: String,
}

/// `icon`'s source if the app shows it: a `data:` URI of an allowed raster type, with no
/// character that could end the attribute it is written into.
fn inline(icon: &Icon) -> Option<&str> {
    let allowed = SHOWN_TYPES.iter().any(|t| {
        icon.src
            .get(..t.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(t))
    });
    (allowed && !icon.src.contains(['"', '\'', '<', '>', ' '])).then_some(icon.src.as_str())
}

/// The icon for a page of `theme` (`"light"` or `"dark"`): the first one shown that is made
/// for it, else the first made for any theme, else the first made for the other theme (on
/// most backgrounds better than none).
fn for_theme<'a>(icons: &'a [Icon], theme: &str) -> Option<&'a str> {
    let first = |wanted: &dyn Fn(Option<&str>) -> bool| {
        icons
            .iter()
            .filter(|i| wanted(i.theme.as_deref()))
            .find_map(inline)
    };
    first(&|t| t == Some(theme))
        .or_else(|| first(&|t| t != Some("light") && t != Some("dark")))
        .or_else(|| first(&|_| true))
}

/// The icon the app shows for an item with `icons`, if one of them can be shown.
pub fn shown_icon(icons: Option<&[Icon]>) -> Option<ShownIcon> {
    let icons = icons?;
    Some(ShownIcon {
        light: for_theme(icons, "light")?.to_string(),
        dark: for_theme(icons, "dark")?.to_string(),
    })
}

/// The view of an item's icon, 16 px square, before its name: one image, or two where the
/// server made one for each theme (the stylesheet shows the one for the page's colours, and
/// follows them when they change). Nothing if none can be shown.
pub fn icon_view(icons: Option<&[Icon]>) -> Option<AnyView> {
    let ShownIcon { light, dark } = shown_icon(icons)?;
    Some(if light == dark {
        view! { <img class="icon" src=light alt="" width="16" height="16" /> }.into_any()
    } else {
        view! {
            <img class="icon for-light" src=light alt="" width="16" height="16" />
            <img class="icon for-dark" src=dark alt="" width="16" height="16" />
        }
        .into_any()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &str = "data:image/png;base64,iVBORw0KGgo=";
    const GIF: &str = "data:image/GIF;base64,R0lGODlh";
    const JPEG: &str = "data:image/jpeg;base64,/9j/4AAQ";

    fn icon(src: &str, theme: Option<&str>) -> Icon {
        serde_json::from_value(serde_json::json!({"src": src, "theme": theme})).expect("an icon")
    }

    fn shown(icons: &[Icon]) -> Option<(String, String)> {
        shown_icon(Some(icons)).map(|s| (s.light, s.dark))
    }

    #[test]
    fn only_inline_raster_images_are_shown() {
        for src in [
            PNG,
            GIF,
            JPEG,
            "data:image/webp;base64,UklGR",
            "DATA:IMAGE/PNG;BASE64,iVBO",
        ] {
            assert_eq!(inline(&icon(src, None)), Some(src), "{src}");
        }
        for src in [
            "https://icons.example/tool.png",
            "data:image/svg+xml;base64,PHN2Zz4=",
            "data:image/png,not-base64",
            "data:text/html;base64,PHNjcmlwdD4=",
            "data:image/png;base64,a\"onerror=\"x",
            "data:image/png;base64,a b",
            "data:image/png;base64,<x>",
            "data:image/png;base64,'",
            "data:",
            "",
        ] {
            assert_eq!(inline(&icon(src, None)), None, "{src}");
        }
        assert_eq!(shown_icon(None), None);
        assert_eq!(shown(&[]), None);
        assert_eq!(shown(&[icon("https://x.example/i.png", None)]), None);
    }

    #[test]
    fn the_first_icon_shown_serves_both_themes_when_none_is_made_for_one() {
        let icons = [
            icon("https://remote.example/i.png", None),
            icon(PNG, None),
            icon(GIF, None),
        ];
        assert_eq!(shown(&icons), Some((PNG.into(), PNG.into())));
    }

    #[test]
    fn an_icon_made_for_a_theme_is_shown_on_it_before_one_for_any() {
        let icons = [
            icon(JPEG, None),
            icon(GIF, Some("dark")),
            icon(PNG, Some("light")),
        ];
        assert_eq!(shown(&icons), Some((PNG.into(), GIF.into())));
        // Made for one theme only: the other gets the one for any theme.
        let icons = [icon(GIF, Some("dark")), icon(JPEG, None)];
        assert_eq!(shown(&icons), Some((JPEG.into(), GIF.into())));
        // Made for the other theme is still better than nothing.
        let icons = [icon(GIF, Some("dark"))];
        assert_eq!(shown(&icons), Some((GIF.into(), GIF.into())));
        // A theme the specification does not name counts as any.
        let icons = [icon(GIF, Some("sepia")), icon(PNG, Some("light"))];
        assert_eq!(shown(&icons), Some((PNG.into(), GIF.into())));
        // One that cannot be shown is passed over, whatever its theme.
        let icons = [
            icon("https://remote.example/dark.png", Some("dark")),
            icon(JPEG, Some("dark")),
            icon(PNG, None),
        ];
        assert_eq!(shown(&icons), Some((PNG.into(), JPEG.into())));
    }
}
