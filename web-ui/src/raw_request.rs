//! What the logs tab's "Send a request" box sends: a method and its params as typed, checked
//! before anything goes out.

use crate::typed_json::typed_object;
use leptos::prelude::*;
use serde_json::Value;

/// What the box holds, kept by the connection so that leaving the logs tab loses neither
/// what was typed nor the last answer.
#[derive(Clone, Copy)]
pub struct RequestDraft {
    /// The method typed.
    pub method: RwSignal<String>,
    /// The params typed (JSON).
    pub params: RwSignal<String>,
    /// Sent as a notification.
    pub notification: RwSignal<bool>,
    /// The last answer as formatted JSON, or what went wrong in words.
    pub outcome: RwSignal<Option<Result<String, String>>>,
}

impl RequestDraft {
    /// An empty box.
    pub fn new() -> Self {
        RequestDraft {
            method: RwSignal::new(String::new()),
            params: RwSignal::new(String::new()),
            notification: RwSignal::new(false),
            outcome: RwSignal::new(None),
        }
    }
}

impl Default for RequestDraft {
    fn default() -> Self {
        Self::new()
    }
}

/// Methods offered as suggestions (any other may be typed: an extension's, a newer one).
pub const SUGGESTED: &[&str] = &[
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "tasks/list",
    "tasks/get",
    "tasks/result",
    "completion/complete",
    "ping",
    "server/discover",
];

/// Methods the client sends itself, at the right moment, and that would confuse the
/// connection if sent by hand.
const THE_CLIENTS_OWN: &[&str] = &["initialize", "notifications/initialized"];

/// The longest method name accepted.
const MAX_METHOD: usize = 200;

/// The method and params typed, or why they cannot be sent. The params are a JSON object,
/// or nothing (an empty box); a notification's method starts with `notifications/`.
pub fn parse(
    method: &str,
    params: &str,
    notification: bool,
) -> Result<(String, Option<Value>), String> {
    let method = method.trim();
    if method.is_empty() {
        return Err("Type the method to send, e.g. tools/list.".into());
    }
    if method.len() > MAX_METHOD || method.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("A method name has no spaces and is at most 200 characters long.".into());
    }
    if THE_CLIENTS_OWN.contains(&method) {
        return Err(format!(
            "The client sends {method} itself when it connects; use \"Connect again\" instead."
        ));
    }
    if notification != method.starts_with("notifications/") {
        return Err(if notification {
            "A notification's method starts with notifications/.".into()
        } else {
            "A method starting with notifications/ is a notification: tick \"as a notification\"."
                .into()
        });
    }
    let params = params.trim();
    if params.is_empty() {
        return Ok((method.to_string(), None));
    }
    match typed_object(params) {
        Ok(entries) => Ok((method.to_string(), Some(Value::Object(entries)))),
        Err(e) => Err(format!(
            "The params must be a JSON object, or left empty: this is {e}."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_is_a_method_and_an_object_or_nothing() {
        assert_eq!(
            parse(" tools/list ", "", false),
            Ok(("tools/list".into(), None))
        );
        assert_eq!(
            parse("tasks/get", r#"{"taskId": "t1"}"#, false),
            Ok(("tasks/get".into(), Some(json!({"taskId": "t1"}))))
        );
        assert_eq!(
            parse("notifications/roots/list_changed", "", true),
            Ok(("notifications/roots/list_changed".into(), None))
        );
        for (method, params, notification) in [
            ("", "", false),
            ("tools list", "", false),
            ("initialize", "{}", false),
            ("notifications/initialized", "", true),
            ("tools/list", "[1]", false),
            ("tools/list", "{", false),
            ("notifications/x", "", false),
            ("tools/list", "", true),
        ] {
            let refused = parse(method, params, notification);
            assert!(
                refused.is_err(),
                "{method:?} {params:?} {notification}: {refused:?}"
            );
        }
        assert!(parse(&"m".repeat(201), "", false).is_err());
        assert!(
            parse(&"m".repeat(MAX_METHOD), "", false).is_ok(),
            "at the bound"
        );
    }
}
