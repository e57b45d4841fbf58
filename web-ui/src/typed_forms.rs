//! What was typed in forms that the person may leave and come back to (a resource
//! template's variables, a prompt's arguments), kept by the connection per form.

use std::collections::BTreeMap;

/// Forms whose typed values a connection keeps (a server may list thousands).
pub const KEPT_FORMS: usize = 64;

/// What was typed in each form, by the form's key (a URI template, a prompt's name).
pub type TypedForms = BTreeMap<String, BTreeMap<String, String>>;

/// Keeps `typed` as what was typed in the form `key` (forgotten once empty; a new form's
/// values are not kept once [`KEPT_FORMS`] are).
pub fn keep_typed(kept: &mut TypedForms, key: &str, mut typed: BTreeMap<String, String>) {
    typed.retain(|_, v| !v.is_empty());
    if typed.is_empty() {
        kept.remove(key);
    } else if kept.contains_key(key) || kept.len() < KEPT_FORMS {
        kept.insert(key.to_string(), typed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_are_kept_per_form_and_bounded() {
        let mut kept = BTreeMap::new();
        let typed = |v: &str| BTreeMap::from([("id".to_string(), v.to_string())]);
        keep_typed(&mut kept, "a://{id}", typed("7"));
        assert_eq!(kept["a://{id}"]["id"], "7");
        keep_typed(&mut kept, "a://{id}", typed(""));
        assert!(kept.is_empty());
        for n in 0..KEPT_FORMS + 5 {
            keep_typed(&mut kept, &format!("t{n}://{{id}}"), typed("1"));
        }
        assert_eq!(kept.len(), KEPT_FORMS);
        // One already kept is still updated.
        keep_typed(&mut kept, "t0://{id}", typed("2"));
        assert_eq!(kept["t0://{id}"]["id"], "2");
    }
}
