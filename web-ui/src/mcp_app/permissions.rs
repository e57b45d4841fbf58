//! The browser capabilities a View asks for (`_meta.ui.permissions`: camera, microphone,
//! geolocation, clipboard write), what its frame is then allowed (its `allow` attribute, the
//! Permissions Policy), what the View is told it was granted
//! (`hostCapabilities.sandbox.permissions`), and the person's answers, kept per connection.
//!
//! Decisions (see the README):
//! - The extension lets a host honour these "by setting appropriate iframe `allow`
//!   attributes". This app asks the person first, before the View is loaded (a frame's policy
//!   is fixed when it loads). The browser's own question, where it has one (the location),
//!   comes in this page's name, and a browser remembers a "yes" for the page: without the
//!   app's question, any server's View would get what the person once gave another. Writing
//!   to the clipboard has no browser question at all.
//! - The camera and the microphone cannot be given. Chromium refuses media capture to a
//!   document whose origin is opaque ("Invalid security origin", with or without `allow`),
//!   and a View's origin here is opaque: the extension's answer is a sandbox proxy on a
//!   second origin, which a client without a server has not got. The View is told it did
//!   not get them; the person is told why.
//! - A View granted something is loaded as `srcdoc`, not as a `data:` URL: Chromium does not
//!   count a `data:` document as a secure context, and the location and the clipboard are
//!   only for those.

use serde_json::{Map, Value};

/// A capability a View may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    /// `camera`
    Camera,
    /// `microphone`
    Microphone,
    /// `geolocation`
    Geolocation,
    /// `clipboardWrite`
    ClipboardWrite,
}

impl Permission {
    /// Every capability, in the order they are listed.
    pub const ALL: [Permission; 4] = [
        Permission::Camera,
        Permission::Microphone,
        Permission::Geolocation,
        Permission::ClipboardWrite,
    ];

    /// Its key in `_meta.ui.permissions` and `hostCapabilities.sandbox.permissions`.
    pub fn key(self) -> &'static str {
        match self {
            Permission::Camera => "camera",
            Permission::Microphone => "microphone",
            Permission::Geolocation => "geolocation",
            Permission::ClipboardWrite => "clipboardWrite",
        }
    }

    /// Its Permissions Policy feature, as the frame's `allow` attribute names it.
    fn feature(self) -> &'static str {
        match self {
            Permission::ClipboardWrite => "clipboard-write",
            other => other.key(),
        }
    }

    /// Whether a View shown here can have it (see the module's decisions): not the camera
    /// and the microphone.
    pub fn grantable(self) -> bool {
        matches!(self, Permission::Geolocation | Permission::ClipboardWrite)
    }

    /// Its name for the person.
    pub fn label(self) -> &'static str {
        match self {
            Permission::Camera => "the camera",
            Permission::Microphone => "the microphone",
            Permission::Geolocation => "your location",
            Permission::ClipboardWrite => "the clipboard (to write to it)",
        }
    }
}

/// What a View's settings (`_meta.ui`) ask for: each known key of its `permissions` whose
/// value is an object (as the extension writes it, `{}`) or `true`. Unknown keys are left out.
pub fn requested(ui: Option<&Value>) -> Vec<Permission> {
    let Some(asked) = ui
        .and_then(|u| u.get("permissions"))
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    Permission::ALL
        .into_iter()
        .filter(|p| {
            asked
                .get(p.key())
                .is_some_and(|v| v.is_object() || *v == Value::Bool(true))
        })
        .collect()
}

/// Those of `asked` a View shown here can have, to ask the person about.
pub fn grantable(asked: &[Permission]) -> Vec<Permission> {
    asked.iter().copied().filter(|p| p.grantable()).collect()
}

/// Those of `asked` a View shown here cannot have, to say so.
pub fn not_grantable(asked: &[Permission]) -> Vec<Permission> {
    asked.iter().copied().filter(|p| !p.grantable()).collect()
}

/// The names of `permissions` joined for a sentence ("a, b and c").
pub fn listed(permissions: &[Permission]) -> String {
    let names: Vec<&str> = permissions.iter().map(|p| p.label()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The frame's `allow` attribute for `granted`, if any: each feature for whatever origin the
/// View's document has (it is opaque: the `data:` URL's, or a sandboxed `srcdoc`'s, which
/// the default allowlist, the frame's `src` origin, would not match).
pub fn allow_attribute(granted: &[Permission]) -> Option<String> {
    (!granted.is_empty()).then(|| {
        granted
            .iter()
            .map(|p| format!("{} *", p.feature()))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// What the View is told it was granted (`hostCapabilities.sandbox.permissions`).
pub fn granted_capability(granted: &[Permission]) -> Value {
    Value::Object(
        granted
            .iter()
            .map(|p| (p.key().to_string(), Value::Object(Map::new())))
            .collect(),
    )
}

/// The most answers a connection keeps (one per View resource and set of capabilities
/// asked); past that, the oldest is forgotten and asked again.
pub const MAX_ANSWERS: usize = 64;

/// The person's answers on one connection: whether the View of a resource may have what it
/// asked for. Asked again when the same resource asks for something else.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PermissionAnswers {
    answers: Vec<(String, Vec<Permission>, bool)>,
}

impl PermissionAnswers {
    /// The answer given for the View of `uri` asking for `asked`, if the person gave one.
    pub fn answer_for(&self, uri: &str, asked: &[Permission]) -> Option<bool> {
        self.answers
            .iter()
            .find(|(u, a, _)| u == uri && a == asked)
            .map(|(_, _, allowed)| *allowed)
    }

    /// The person answered `allowed` for the View of `uri` asking for `asked`.
    pub fn record(&mut self, uri: &str, asked: &[Permission], allowed: bool) {
        self.answers.retain(|(u, _, _)| u != uri);
        if self.answers.len() >= MAX_ANSWERS {
            self.answers.remove(0);
        }
        self.answers
            .push((uri.to_string(), asked.to_vec(), allowed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn known_capabilities_asked_as_objects_are_read_in_one_order() {
        let ui = json!({"permissions": {
            "geolocation": {}, "camera": {}, "clipboardWrite": true,
            "microphone": false, "usb": {}, "Camera": {}
        }});
        assert_eq!(
            requested(Some(&ui)),
            vec![
                Permission::Camera,
                Permission::Geolocation,
                Permission::ClipboardWrite
            ]
        );
        assert!(requested(Some(&json!({"permissions": ["camera"]}))).is_empty());
        assert!(requested(Some(&json!({"csp": {}}))).is_empty());
        assert!(requested(None).is_empty());
    }

    #[test]
    fn the_frame_is_allowed_exactly_what_was_granted() {
        assert_eq!(allow_attribute(&[]), None);
        assert_eq!(
            allow_attribute(&[Permission::Microphone, Permission::ClipboardWrite]).as_deref(),
            Some("microphone *; clipboard-write *")
        );
        assert_eq!(
            granted_capability(&[Permission::Camera, Permission::ClipboardWrite]),
            json!({"camera": {}, "clipboardWrite": {}})
        );
        assert_eq!(granted_capability(&[]), json!({}));
        assert_eq!(
            listed(&[
                Permission::Camera,
                Permission::Microphone,
                Permission::Geolocation
            ]),
            "the camera, the microphone and your location"
        );
        assert_eq!(listed(&[Permission::Camera]), "the camera");
    }

    #[test]
    fn only_the_location_and_the_clipboard_can_be_granted_here() {
        let asked = Permission::ALL;
        assert_eq!(
            grantable(&asked),
            vec![Permission::Geolocation, Permission::ClipboardWrite]
        );
        assert_eq!(
            not_grantable(&asked),
            vec![Permission::Camera, Permission::Microphone]
        );
        assert!(grantable(&[Permission::Camera]).is_empty());
    }

    #[test]
    fn answers_hold_for_the_same_resource_asking_the_same_and_are_bounded() {
        let mut answers = PermissionAnswers::default();
        let cam = [Permission::Camera];
        assert_eq!(answers.answer_for("ui://a", &cam), None);
        answers.record("ui://a", &cam, true);
        assert_eq!(answers.answer_for("ui://a", &cam), Some(true));
        // Asking for more is asked again; another resource is asked on its own.
        assert_eq!(
            answers.answer_for("ui://a", &[Permission::Camera, Permission::Microphone]),
            None
        );
        assert_eq!(answers.answer_for("ui://b", &cam), None);
        // A new answer replaces the one before.
        answers.record("ui://a", &cam, false);
        assert_eq!(answers.answer_for("ui://a", &cam), Some(false));
        for i in 0..MAX_ANSWERS {
            answers.record(&format!("ui://n{i}"), &cam, true);
        }
        assert_eq!(answers.answer_for("ui://a", &cam), None);
        assert_eq!(answers.answer_for("ui://n0", &cam), Some(true));
        assert_eq!(answers.answers.len(), MAX_ANSWERS);
    }
}
