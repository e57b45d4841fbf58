//! URLs as the browser parses them, with international domain names in their ASCII
//! (Punycode) form. The core's URL parser is built without Unicode tables (they would weigh
//! more than the rest of the headless client), so every URL is passed through the browser's
//! own WHATWG parser before the core sees it.

/// `url` with its host in ASCII form, or `url` unchanged if the browser cannot parse it.
pub fn ascii_url(url: &str) -> String {
    web_sys::Url::new(url)
        .map(|u| u.href())
        .unwrap_or_else(|_| url.to_string())
}

/// `relative` resolved against `base`, by the browser's parser.
pub fn join_url(base: &str, relative: &str) -> Option<String> {
    web_sys::Url::new_with_base(relative, base)
        .ok()
        .map(|u| u.href())
}
