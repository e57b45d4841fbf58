//! When a tab's panel is narrow (a narrow window, or the `<mcp-client>` element in a narrow
//! column), the tools, prompts and resources tabs put the chosen item's detail (a tool's
//! form, a prompt's form, a resource's contents) under the list instead of beside it.
//! Choosing an item there changed only the list's highlight: what was chosen opened out of
//! sight, below a list as tall as 60 % of the screen. This brings the detail into view when,
//! and only when, the person chose the item and the detail starts outside the window's top
//! third, and moves the focus to it, so that Tab goes on into the form rather than down the
//! list (which would scroll back up to it); beside the list nothing moves.

use leptos::prelude::request_animation_frame;
use wasm_bindgen::JsCast;

/// Whether the detail is under its list rather than beside it: it starts left of the list's
/// right edge at `list_right` (a pixel of rounding allowed); beside it, it starts right of
/// that edge, past the gap between them. Read across, not down, so that it holds wherever the
/// page is scrolled (a sticky detail beside a list scrolled out of sight is still beside it).
pub fn stacked(list_right: f64, detail_left: f64) -> bool {
    detail_left < list_right - 1.0
}

/// Whether a detail under its list, starting at `detail_top` (px from the window's top) in a
/// window `window_height` px tall, should be scrolled to: its start is not where the person
/// sees it, near the top of the window (it is above the window, or lower than its first
/// third).
pub fn needs_scroll(detail_top: f64, window_height: f64) -> bool {
    !(0.0..=window_height / 3.0).contains(&detail_top)
}

/// After the person chose an item with `chosen` (the item's button, inside a `.split` of a
/// `.list` and a `.detail`): once the detail is drawn, if it is under the list, moves the
/// focus to its heading (the detail itself when it has none) and scrolls it to the window's
/// top if [`needs_scroll`] says so.
pub fn bring_into_view(chosen: Option<web_sys::EventTarget>) {
    let Some(split) = chosen
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest(".split").ok().flatten())
    else {
        return;
    };
    request_animation_frame(move || {
        let part = |selector: &str| split.query_selector(selector).ok().flatten();
        let (Some(list), Some(detail)) = (part(":scope > .list"), part(":scope > .detail")) else {
            return;
        };
        let window_height = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        let detail_box = detail.get_bounding_client_rect();
        if !stacked(list.get_bounding_client_rect().right(), detail_box.left()) {
            return;
        }
        let scroll = needs_scroll(detail_box.top(), window_height);
        let target = detail
            .query_selector("h2, h3")
            .ok()
            .flatten()
            .unwrap_or_else(|| detail.clone());
        if !target.has_attribute("tabindex") {
            // Focusable from the script only, not a stop for Tab.
            let _ = target.set_attribute("tabindex", "-1");
        }
        if let Ok(target) = target.dyn_into::<web_sys::HtmlElement>() {
            let _ = target.focus();
        }
        if scroll {
            detail.scroll_into_view();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{needs_scroll, stacked};

    #[test]
    fn a_detail_is_stacked_when_it_starts_left_of_the_list_s_right_edge() {
        // Under the list: both start at the panel's left edge.
        assert!(stacked(376.0, 16.0));
        // Beside it: past the list's right edge and the 16 px gap.
        assert!(!stacked(528.0, 544.0));
        // Within a pixel of the edge (rounding): beside.
        assert!(!stacked(528.0, 527.0) && stacked(528.0, 526.9));
    }

    #[test]
    fn a_stacked_detail_is_scrolled_to_unless_it_starts_in_the_window_s_top_third() {
        assert!(needs_scroll(716.0, 844.0), "starts low in the window");
        assert!(needs_scroll(1200.0, 844.0), "starts below the window");
        assert!(
            needs_scroll(-284.0, 844.0),
            "starts above the window (scrolled past)"
        );
        assert!(needs_scroll(-0.5, 844.0), "half a pixel above it");
        // Its start already near the top: left where it is.
        assert!(!needs_scroll(16.0, 844.0));
        assert!(!needs_scroll(0.0, 844.0), "at the very top");
        assert!(!needs_scroll(281.0, 844.0), "at the third's end (281.3 px)");
        assert!(needs_scroll(282.0, 844.0), "just past the third");
    }
}
