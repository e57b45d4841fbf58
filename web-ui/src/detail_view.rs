//! On a narrow screen the tools, prompts and resources tabs put the chosen item's detail (a
//! tool's form, a prompt's form, a resource's contents) under the list instead of beside it.
//! Choosing an item there changed only the list's highlight: what was chosen opened out of
//! sight, below a list as tall as 60 % of the screen. This brings the detail into view when,
//! and only when, the person chose the item and the detail starts outside the window's top
//! third, and moves the focus to it, so that Tab goes on into the form rather than down the
//! list (which would scroll back up to it); beside the list (a wide screen) nothing moves.

use leptos::prelude::request_animation_frame;
use wasm_bindgen::JsCast;

/// Whether a detail starting at `detail_top` (px from the window's top) should be scrolled to,
/// with the list above it ending at `list_bottom`, in a window `window_height` px tall. Only a
/// detail under its list (stacked), and only one whose start the person would not see near
/// the top of the window: above it, or lower than its first third.
pub fn needs_scroll(list_bottom: f64, detail_top: f64, window_height: f64) -> bool {
    let seen = (0.0..=window_height / 3.0).contains(&detail_top);
    stacked(list_bottom, detail_top) && !seen
}

/// Whether a detail starting at `detail_top` is under its list ending at `list_bottom`: it
/// begins where the list ends (a pixel of rounding allowed). Beside the list, it begins level
/// with the list's top, far above the list's end.
pub fn stacked(list_bottom: f64, detail_top: f64) -> bool {
    detail_top >= list_bottom - 1.0
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
        let list_bottom = list.get_bounding_client_rect().bottom();
        let detail_top = detail.get_bounding_client_rect().top();
        if !stacked(list_bottom, detail_top) {
            return;
        }
        let scroll = needs_scroll(list_bottom, detail_top, window_height);
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
    use super::needs_scroll;

    #[test]
    fn a_detail_under_its_list_is_scrolled_to_unless_it_starts_in_the_window_s_top_third() {
        // A phone: the list ends at 700 px; the detail starts right under it.
        assert!(
            needs_scroll(700.0, 716.0, 844.0),
            "starts low in the window"
        );
        assert!(
            needs_scroll(700.0, 1200.0, 844.0),
            "starts below the window"
        );
        assert!(
            needs_scroll(-300.0, -284.0, 844.0),
            "starts above the window (scrolled past)"
        );
        // Its start already near the top: left where it is.
        assert!(!needs_scroll(0.0, 16.0, 844.0));
        assert!(!needs_scroll(-16.0, 0.0, 844.0), "at the very top");
        assert!(
            !needs_scroll(260.0, 281.0, 844.0),
            "at the third's end (281.3 px)"
        );
        assert!(needs_scroll(270.0, 282.0, 844.0), "just past the third");
        // Level with the list's end within a pixel of rounding: still under it.
        assert!(needs_scroll(700.5, 699.5, 844.0));
    }

    #[test]
    fn stacked_is_a_detail_starting_at_its_list_s_end_or_below() {
        use super::stacked;
        assert!(stacked(700.0, 716.0) && stacked(700.0, 699.0) && stacked(-300.0, -284.0));
        assert!(!stacked(700.0, 698.9) && !stacked(900.0, 300.0));
    }

    #[test]
    fn a_detail_beside_its_list_is_never_scrolled_to() {
        // A wide screen: the detail starts level with the list's top, far above its end,
        // wherever the window is scrolled.
        assert!(!needs_scroll(900.0, 300.0, 900.0));
        assert!(!needs_scroll(1500.0, 1000.0, 900.0), "below the window");
        assert!(!needs_scroll(100.0, -400.0, 900.0), "above the window");
        assert!(
            !needs_scroll(700.0, 698.0, 844.0),
            "two pixels above the list's end"
        );
    }
}
