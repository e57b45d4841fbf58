//! Server text that may be huge (a tool result, a resource, structured content): the page
//! shows its beginning at once and the whole only when asked, and offers it as a file. Laying
//! out 50 MB of text freezes a tab for many seconds; 256 KB takes a frame.

use crate::components::copy_button::CopyButton;
use crate::components::logs::download_text;
use leptos::prelude::*;

/// How much of a text is shown before "Show all" (bytes, cut at a character boundary).
pub const SHOWN_BYTES: usize = 256 * 1024;

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
pub fn prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A byte count for people, rounded to the nearest unit: "812 bytes", "256 KB", "50.0 MB".
pub fn human_bytes(n: usize) -> String {
    const KB: usize = 1024;
    const MB: usize = 1024 * KB;
    if n < KB {
        crate::words::counted(n, "byte", "bytes")
    } else if n < MB {
        format!("{} KB", (n + KB / 2) / KB)
    } else {
        // Integer arithmetic: one decimal without the float formatter.
        let tenths = (n * 10 + MB / 2) / MB;
        format!("{}.{} MB", tenths / 10, tenths % 10)
    }
}

/// Text in a `<pre>`: all of it when short, else its first [`SHOWN_BYTES`] with what was left
/// out, a "Show all" button and a download of the whole (named `file`). Either way the whole
/// can be copied.
#[component]
pub fn LongText(
    /// The text, shown as text (never HTML).
    text: String,
    /// The `<pre>`'s class.
    #[prop(into)]
    pre_class: String,
    /// The download's file name.
    #[prop(into)]
    file: String,
    /// Indent the text when it is a JSON object or array (many tools answer JSON as text;
    /// see [`crate::json_text`]), with "as sent" to see it exactly as it came. Copy and
    /// download take what is shown.
    #[prop(optional)]
    json: bool,
) -> impl IntoView {
    if let Some(indented) = json.then(|| crate::json_text::formatted(&text)).flatten() {
        return json_text(text, indented, pre_class, file);
    }
    if text.len() <= SHOWN_BYTES {
        let copy = StoredValue::new(text.clone());
        return view! {
            <div class="copyable">
                <pre class=pre_class>{text}</pre>
                <CopyButton text=copy />
            </div>
        }
        .into_any();
    }
    let all = RwSignal::new(false);
    let text = StoredValue::new(text);
    let total = text.with_value(|t| t.len());
    let shown = move || {
        text.with_value(|t| {
            if all.get() {
                t.clone()
            } else {
                prefix(t, SHOWN_BYTES).to_string()
            }
        })
    };
    let download = move |_| text.with_value(|t| download_text(&file, "text/plain", t));
    view! {
        <pre class=pre_class>{shown}</pre>
        <p class="cut" role="status">
            {move || if all.get() {
                format!("All {} shown.", human_bytes(total))
            } else {
                format!("Showing the first {} of {}.", human_bytes(SHOWN_BYTES), human_bytes(total))
            }}
            " "
            {move || (!all.get()).then(|| view! { <button type="button" class="show-all" on:click=move |_| all.set(true)>"Show all"</button> })}
            " "
            <button type="button" class="download-text" on:click=download>"Download"</button>
            " "
            <CopyButton text=text />
        </p>
    }
    .into_any()
}

/// `text` that is JSON, shown `indented` with "as sent" to see it exactly as it came (see
/// [`LongText`]'s `json`).
fn json_text(text: String, indented: String, pre_class: String, file: String) -> AnyView {
    let as_sent = RwSignal::new(false);
    let file = match file.rsplit_once('.') {
        Some((stem, _)) => format!("{stem}.json"),
        None => format!("{file}.json"),
    };
    view! {
        <div class="json-text">
            <label class="as-sent"><input type="checkbox" prop:checked=as_sent on:change=move |ev| as_sent.set(event_target_checked(&ev)) /> " as sent"</label>
            {move || {
                let shown = if as_sent.get() { text.clone() } else { indented.clone() };
                view! { <LongText text=shown pre_class=format!("{pre_class} json") file=file.clone() /> }
            }}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_never_splits_a_character() {
        assert_eq!(prefix("short", 10), "short");
        assert_eq!(prefix("abcdef", 3), "abc");
        // "é" is two bytes: a cut inside it keeps the text before it.
        assert_eq!(prefix("aé", 2), "a");
        assert_eq!(prefix("aé", 3), "aé");
        // A four-byte character cut anywhere inside.
        for max in 1..4 {
            assert_eq!(prefix("🦀x", max), "");
        }
        assert_eq!(prefix("🦀x", 4), "🦀");
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_bytes(812), "812 bytes");
        assert_eq!(human_bytes(256 * 1024), "256 KB");
        assert_eq!(human_bytes(1025), "1 KB");
        assert_eq!(human_bytes(1536), "2 KB");
        assert_eq!(human_bytes((20 << 20) + 100), "20.0 MB");
        assert_eq!(human_bytes(50 << 20), "50.0 MB");
        assert_eq!(human_bytes((3 << 20) / 2), "1.5 MB");
    }
}
