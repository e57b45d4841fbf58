//! Where a JSON Schema `$ref` leads, inside the schema's own document: `#` (the root),
//! JSON pointers such as `#/$defs/Address` (the form pydantic and most generators emit) and
//! plain-name anchors (`#item`, declared with `$anchor`).
//!
//! A reference to another document is never fetched: MCP forbids dereferencing network URIs
//! by default (`basic/index`, "$ref Resolution"), and a schema that needs one is reported, not
//! treated as permissive.

use serde_json::Value;

/// Most objects searched for a `$anchor` (a bound against hostile schemas).
const MAX_ANCHOR_SEARCH: usize = 10_000;

/// What a `$ref` leads to.
#[derive(Debug, PartialEq)]
pub enum Target<'a> {
    /// The schema it names, in the same document.
    Found(&'a Value),
    /// Another document (never fetched).
    External,
    /// Nothing in this document has that name.
    Missing,
}

/// Resolves `reference` (the value of a `$ref`) against the document `root`.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Target<'a> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Target::External;
    };
    // A URI fragment is percent-encoded (`#/$defs/a%20b`).
    let fragment = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
    let found = match fragment.strip_prefix('/') {
        None if fragment.is_empty() => Some(root),
        None => find_anchor(root, &fragment, &mut 0),
        Some(pointer) => pointer.split('/').try_fold(root, |at, token| {
            let token = token.replace("~1", "/").replace("~0", "~");
            match at {
                Value::Object(m) => m.get(&token),
                Value::Array(a) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            }
        }),
    };
    found.map_or(Target::Missing, Target::Found)
}

/// The subschema declaring `$anchor: name`, searched depth-first.
fn find_anchor<'a>(at: &'a Value, name: &str, seen: &mut usize) -> Option<&'a Value> {
    *seen += 1;
    if *seen > MAX_ANCHOR_SEARCH {
        return None;
    }
    match at {
        Value::Object(m) => {
            if m.get("$anchor").and_then(Value::as_str) == Some(name) {
                return Some(at);
            }
            m.values().find_map(|v| find_anchor(v, name, seen))
        }
        Value::Array(a) => a.iter().find_map(|v| find_anchor(v, name, seen)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn local_references_resolve_and_others_are_named() {
        let doc = json!({
            "$defs": {"Address": {"type": "object"}, "a/b~c": {"const": 1}, "sp ace": {"const": 2},
                      "Item": {"$anchor": "item", "type": "string"}},
            "prefixItems": [{"const": "first"}]
        });
        assert_eq!(resolve(&doc, "#"), Target::Found(&doc));
        assert_eq!(
            resolve(&doc, "#/$defs/Address"),
            Target::Found(&json!({"type": "object"}))
        );
        assert_eq!(
            resolve(&doc, "#/$defs/a~1b~0c"),
            Target::Found(&json!({"const": 1}))
        );
        assert_eq!(
            resolve(&doc, "#/$defs/sp%20ace"),
            Target::Found(&json!({"const": 2}))
        );
        assert_eq!(
            resolve(&doc, "#/prefixItems/0"),
            Target::Found(&json!({"const": "first"}))
        );
        assert_eq!(resolve(&doc, "#item"), Target::Found(&doc["$defs"]["Item"]));
        for missing in [
            "#/$defs/Nope",
            "#/prefixItems/7",
            "#/prefixItems/x",
            "#nope",
            "#/$defs/Address/type/x",
        ] {
            assert_eq!(resolve(&doc, missing), Target::Missing, "{missing}");
        }
        for external in ["https://example.com/s.json", "other.json#/$defs/A", "urn:x"] {
            assert_eq!(resolve(&doc, external), Target::External, "{external}");
        }
    }
}
