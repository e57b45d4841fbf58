//! How long a request may go without an answer (or progress) before the app gives up on it:
//! a preference kept in the browser (`localStorage`) for every connection, like a desktop
//! client's request timeout. A tool that runs for minutes without reporting progress needs a
//! longer one; the core never lets one request run past its total limit (600 s) either way.

/// The limit when none was chosen, in seconds (the core's default).
pub const DEFAULT_SECS: u32 = 60;
/// The longest limit that can be chosen, in seconds: the core's total limit for a request,
/// progress or not.
pub const MAX_SECS: u32 = 600;

const KEY: &str = "mcp-browser-client.request-time-limit";

/// The limit typed in the settings (whole seconds, 1 to [`MAX_SECS`]), or why not.
pub fn parse(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(s) if (1..=MAX_SECS).contains(&s) => Ok(s),
        _ => Err(format!(
            "not saved: the time limit is a whole number of seconds from 1 to {MAX_SECS}, and this is not: {}",
            text.trim()
        )),
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The limit chosen last (in this browser), or [`DEFAULT_SECS`]; a kept value that is not
/// a valid limit counts as none.
pub fn load() -> u32 {
    storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .and_then(|v| parse(&v).ok())
        .unwrap_or(DEFAULT_SECS)
}

/// Keeps the limit for the next visits (best effort: storage may be full or disabled).
pub fn save(secs: u32) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, &secs.to_string());
    }
}

/// Options for a request the person asked for (a tool call, a read, a prompt): the
/// connection's time limit, `secs`.
pub fn call_options(secs: u32) -> client_browser::CallOptions {
    client_browser::CallOptions {
        timeout: Some(client_browser::client_core::time::Duration::from_secs(
            u64::from(secs),
        )),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_whole_seconds_within_the_total() {
        assert_eq!(parse(" 90 "), Ok(90));
        assert_eq!(parse("1"), Ok(1));
        assert_eq!(parse("600"), Ok(600));
        for bad in ["0", "601", "-5", "1.5", "", "ten", "99999999999"] {
            let Err(why) = parse(bad) else {
                panic!("{bad:?} accepted")
            };
            assert!(why.contains(bad.trim()), "{why}");
        }
    }

    #[test]
    fn a_request_the_person_asks_for_has_the_chosen_limit() {
        use client_browser::client_core::time::Duration;
        assert_eq!(call_options(90).timeout, Some(Duration::from_secs(90)));
        assert_eq!(
            call_options(MAX_SECS).timeout,
            Some(Duration::from_secs(600))
        );
    }
}
