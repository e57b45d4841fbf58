//! A `date-time` field: the browser's date and time picker, in the person's own time zone,
//! for a value sent as RFC 3339 with that zone's offset (see [`crate::date_time`]).

use crate::date_time::{is_rfc3339, local_text, rfc3339_from_local};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// The wall-clock time, in this browser's time zone, of the RFC 3339 date-time `text`, as the
/// local input takes it; `None` if the browser cannot read it as one.
fn local_of(text: &str) -> Option<String> {
    if !is_rfc3339(text) {
        return None;
    }
    let d = js_sys::Date::new(&JsValue::from_str(text));
    if d.get_time().is_nan() || !(0..=9999).contains(&d.get_full_year()) {
        return None;
    }
    Some(local_text(
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds(),
    ))
}

/// The offset east of UTC, in minutes, that this browser's time zone has at the wall-clock
/// time `local` (it differs across the year where clocks change).
fn offset_at(local: &str) -> Option<i32> {
    let d = js_sys::Date::new(&JsValue::from_str(local));
    (!d.get_time().is_nan()).then(|| -(d.get_timezone_offset() as i32))
}

/// The input of a `date-time` field whose text (what is sent) is `value`. A value the picker
/// cannot show (a default that is not a date-time with its zone) gets a text box instead, so
/// that nothing held is hidden; under the picker, the exact text that will be sent.
#[component]
pub fn DateTimeInput(
    id: String,
    /// The ids of the texts that describe it (`aria-describedby`).
    described: Option<String>,
    #[prop(into)] value: Signal<String>,
    set: Callback<String>,
) -> impl IntoView {
    let first = value.get_untracked();
    if !first.is_empty() && local_of(&first).is_none() {
        return view! {
            <input id=id type="text" aria-describedby=described prop:value=value on:input=move |ev| set.run(event_target_value(&ev)) />
        }
        .into_any();
    }
    let on_input = move |ev| {
        let local = event_target_value(&ev);
        let sent = offset_at(&local)
            .and_then(|offset| rfc3339_from_local(&local, offset))
            .unwrap_or_default();
        set.run(sent);
    };
    view! {
        <input id=id type="datetime-local" step="1" aria-describedby=described prop:value=move || local_of(&value.get()).unwrap_or_default() on:input=on_input />
        {move || {
            let v = value.get();
            (!v.is_empty()).then(|| view! { <small class="help sent-as">"Sent as " <code>{v}</code></small> })
        }}
    }
    .into_any()
}
