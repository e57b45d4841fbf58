//! A "Copy" button: puts a text on the clipboard and says whether it worked.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What became of the last copy.
#[derive(Clone, Debug, PartialEq)]
enum Copied {
    /// Not copied yet.
    No,
    /// On the clipboard.
    Yes,
    /// The browser refused, with what it said.
    Failed(String),
}

/// Copies `text` to the clipboard through the asynchronous Clipboard API. The browser may
/// refuse (no focus, a permission policy, a page that is not a secure context): the error
/// it gave comes back as a sentence.
pub async fn copy_to_clipboard(text: &str) -> Result<(), String> {
    let clipboard = leptos::prelude::window().navigator().clipboard();
    // Without a secure context `navigator.clipboard` is undefined.
    if clipboard.is_undefined() {
        return Err("this page cannot use the clipboard (it is not a secure context)".into());
    }
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .map(|_| ())
        .map_err(|e| match e.dyn_ref::<js_sys::Error>() {
            Some(err) => format!("the browser refused: {}", String::from(err.message())),
            None => "the browser refused".into(),
        })
}

/// A small button that copies `text` (read when clicked) and then says "Copied"; a refusal
/// is said beside it.
#[component]
pub fn CopyButton(
    /// The text to copy.
    text: StoredValue<String>,
    /// What the button says before copying ("Copy", or what is copied: "Copy as curl").
    #[prop(default = "Copy")]
    label: &'static str,
) -> impl IntoView {
    let state = RwSignal::new(Copied::No);
    let copy = move |_| {
        let t = text.get_value();
        leptos::task::spawn_local(async move {
            state.set(match copy_to_clipboard(&t).await {
                Ok(()) => Copied::Yes,
                Err(why) => Copied::Failed(why),
            });
        });
    };
    view! {
        <button type="button" class="copy" title="Copy to the clipboard" on:click=copy>
            {move || if state.get() == Copied::Yes { "Copied" } else { label }}
        </button>
        {move || match state.get() {
            Copied::Failed(why) => Some(view! { <span class="copy-error" role="alert">"Could not copy: " {why}</span> }),
            _ => None,
        }}
    }
}
