//! Where a JSON Schema `$ref` leads, inside the schema's own document: `#` (the root),
//! JSON pointers such as `#/$defs/Address` (the form pydantic and most generators emit),
//! plain-name anchors (`#item`, declared with `$anchor`, or draft-07's `$id: "#item"`), and
//! schema resources embedded with an `$id` (a bundled "compound" document, 2020-12 §9.3):
//! `{"$id": "https://example.com/order", "$defs": {"a": {"$id": "address", ...}},
//! "properties": {"to": {"$ref": "address"}}}`. An `$id` sets the base URI its subschemas'
//! references resolve against, and `#/...` pointers and anchors are looked up in the resource
//! they name ([`Resources`]).
//!
//! A reference to another document is never fetched: MCP forbids dereferencing network URIs
//! by default (`basic/index`, "$ref Resolution"), and a schema that needs one is reported, not
//! treated as permissive.

use client_browser::client_core::weburl;
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

/// The JSON Schema dialect a document is written in, named by its root's `$schema`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Dialect {
    /// 2020-12 (MCP's default when `$schema` is absent) or 2019-09.
    #[default]
    Current,
    /// Draft-07 or -06: the keywords beside a `$ref` (its `$id` too) are ignored, and
    /// `dependencies` is a keyword.
    Draft07,
    /// Draft-04: as draft-07, with `id` for `$id`.
    Draft04,
}

impl Dialect {
    /// The dialect `root` names in `$schema` (none: 2020-12), or the URI it names when that is
    /// not one of the standard meta-schemas (a custom one may turn any vocabulary off, and
    /// is never fetched).
    pub fn of(root: &Value) -> Result<Dialect, &str> {
        let Some(uri) = root.get("$schema").and_then(Value::as_str) else {
            return Ok(Dialect::Current);
        };
        let bare = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))
            .unwrap_or("");
        let bare = bare.strip_suffix('#').unwrap_or(bare);
        match bare {
            "json-schema.org/draft/2020-12/schema" | "json-schema.org/draft/2019-09/schema" => {
                Ok(Dialect::Current)
            }
            "json-schema.org/draft-07/schema" | "json-schema.org/draft-06/schema" => {
                Ok(Dialect::Draft07)
            }
            "json-schema.org/draft-04/schema" => Ok(Dialect::Draft04),
            _ => Err(uri),
        }
    }

    /// Whether this is draft-07 or older (`$ref` siblings ignored, `dependencies`).
    pub fn is_draft07_or_older(self) -> bool {
        self != Dialect::Current
    }

    /// The keyword that names a schema's URI (`$id`; draft-04: `id`).
    fn id_keyword(self) -> &'static str {
        if self == Dialect::Draft04 {
            "id"
        } else {
            "$id"
        }
    }
}

/// The schema resources of one document: the root and every subschema with an `$id`, each
/// by its absolute URI (resolved against the enclosing resource's).
pub struct Resources<'a> {
    root: &'a Value,
    /// The document's dialect (draft-07: an `$id` beside a `$ref` sets no base).
    dialect: Dialect,
    /// The root's base URI (its `$id`), or empty.
    root_base: String,
    /// Every embedded resource, by absolute URI without fragment, with the base URI around it.
    embedded: Vec<(String, &'a Value, String)>,
    /// Every `$dynamicAnchor`: the URI of the resource declaring it, its name, the schema, and
    /// the base URI around that schema (found once, so that following a `$dynamicRef` costs
    /// no search).
    dynamic_anchors: Vec<DynamicAnchor<'a>>,
}

/// A `$dynamicAnchor` declared in a document.
struct DynamicAnchor<'a> {
    resource: String,
    name: String,
    schema: &'a Value,
    around: String,
}

impl<'a> Resources<'a> {
    /// Finds the resources of `root` (a bounded search, like the anchors').
    pub fn of(root: &'a Value) -> Resources<'a> {
        let dialect = Dialect::of(root).unwrap_or(Dialect::Current);
        let root_base = join_id("", root, dialect);
        let mut found = Found {
            dialect,
            ..Found::default()
        };
        collect(root, &root_base, &mut found, true);
        Resources {
            root,
            dialect,
            root_base,
            embedded: found.embedded,
            dynamic_anchors: found.dynamic_anchors,
        }
    }

    /// The base URI of the document's root (its `$id`, or empty when it has none).
    pub fn root_base(&self) -> &str {
        &self.root_base
    }

    /// The base URI inside `schema`, which sits in a resource whose base URI is `base`.
    pub fn base_of(&self, base: &str, schema: &Value) -> String {
        join_id(base, schema, self.dialect)
    }

    /// Resolves `reference` found in a schema whose base URI is `base`: what it leads to, and
    /// the base URI around it (its own `$id`, if any, applies inside it, as for any schema).
    pub fn resolve(&self, base: &str, reference: &str) -> (Target<'a>, String) {
        let (uri, fragment) = match reference.split_once('#') {
            Some((uri, fragment)) => (uri, fragment),
            None => (reference, ""),
        };
        let resource_uri = if uri.is_empty() {
            base.to_string()
        } else {
            match absolute(base, uri) {
                Some(u) => u,
                None => return (Target::External, String::new()),
            }
        };
        let resource = if resource_uri == self.root_base {
            Some((self.root, ""))
        } else {
            self.embedded
                .iter()
                .find(|(u, _, _)| *u == resource_uri)
                .map(|(_, r, around)| (*r, around.as_str()))
        };
        let Some((resource, around)) = resource else {
            return (Target::External, String::new());
        };
        match in_resource(resource, around, fragment, self.dialect) {
            Some((target, base)) => (Target::Found(target), base),
            None => (Target::Missing, String::new()),
        }
    }

    /// Where a `$dynamicRef` to the dynamic anchor `name` leads in the dynamic `scope` (the
    /// base URIs of the resources evaluation passed through, outermost first): the first of
    /// them that declares `$dynamicAnchor: name`, with the base URI around it.
    pub fn dynamic<'s>(
        &self,
        scope: impl Iterator<Item = &'s str>,
        name: &str,
    ) -> Option<(&'a Value, String)> {
        let mut scope = scope;
        scope.find_map(|uri| {
            self.dynamic_anchors
                .iter()
                .find(|d| d.resource == uri && d.name == name)
                .map(|d| (d.schema, d.around.clone()))
        })
    }
}

/// `uri` resolved against `base` (or taken as absolute when there is no base), without a
/// fragment; `None` if it is not a URI this resolver understands.
fn absolute(base: &str, uri: &str) -> Option<String> {
    let parsed = if base.is_empty() {
        weburl::parse(uri)
    } else {
        weburl::join(&weburl::parse(base).ok()?, uri)
    }
    .ok()?;
    let text = parsed.as_str();
    Some(text.split_once('#').map_or(text, |(u, _)| u).to_string())
}

/// The base URI inside `schema` (its `$id` resolved against `base`), or `base`.
fn join_id(base: &str, schema: &Value, dialect: Dialect) -> String {
    if dialect.is_draft07_or_older() && schema.get("$ref").is_some() {
        return base.to_string(); // draft-07 ignores what stands beside a `$ref`
    }
    match schema.get(dialect.id_keyword()).and_then(Value::as_str) {
        // Draft-07's `$id: "#name"` is an anchor, not a new base.
        Some(id) if !id.starts_with('#') => absolute(base, id).unwrap_or_else(|| base.into()),
        _ => base.to_string(),
    }
}

/// Keywords whose value is a schema (`items` also a list of them, in draft-07).
const SCHEMA_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "items",
    "contentSchema",
];
/// Keywords whose value is a list of schemas.
const SCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value is a map of schemas (`dependencies`: of schemas or name lists).
const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "$defs",
    "definitions",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// The schemas directly inside the schema object `m`: the values of the keywords that hold
/// a schema, a list or a map of them. What other keywords hold is data (`const`, `enum`,
/// `examples`, ...) or unknown: an `$id` or an anchor there names nothing (the JSON Schema
/// Test Suite's `unknownKeyword`).
fn subschemas(m: &serde_json::Map<String, Value>) -> Vec<&Value> {
    let mut out = Vec::new();
    for (k, v) in m {
        let k = k.as_str();
        match v {
            Value::Array(list) if SCHEMA_LIST_KEYWORDS.contains(&k) => out.extend(list),
            Value::Object(map) if SCHEMA_MAP_KEYWORDS.contains(&k) => out.extend(map.values()),
            _ if SCHEMA_KEYWORDS.contains(&k) => out.push(v),
            _ => {}
        }
    }
    out
}

/// What [`collect`] finds.
#[derive(Default)]
struct Found<'a> {
    dialect: Dialect,
    embedded: Vec<(String, &'a Value, String)>,
    dynamic_anchors: Vec<DynamicAnchor<'a>>,
    /// Objects and arrays visited (bounded like the anchor search).
    visited: usize,
}

fn collect<'a>(at: &'a Value, base: &str, found: &mut Found<'a>, is_root: bool) {
    found.visited += 1;
    if found.visited > MAX_ANCHOR_SEARCH {
        return;
    }
    let Value::Object(m) = at else {
        return; // `true`, `false` or not a schema
    };
    let here = join_id(base, at, found.dialect);
    if !is_root && here != base {
        found.embedded.push((here.clone(), at, base.to_string()));
    }
    if let Some(name) = m.get("$dynamicAnchor").and_then(Value::as_str) {
        found.dynamic_anchors.push(DynamicAnchor {
            resource: here.clone(),
            name: name.to_string(),
            schema: at,
            around: base.to_string(),
        });
    }
    for v in subschemas(m) {
        collect(v, &here, found, false);
    }
}

/// What `fragment` (without its `#`) names inside `resource` (whose surroundings have the
/// base URI `around`): the resource itself, a JSON pointer into it, or a plain-name anchor;
/// with the base URI around what it names.
fn in_resource<'a>(
    resource: &'a Value,
    around: &str,
    fragment: &str,
    dialect: Dialect,
) -> Option<(&'a Value, String)> {
    // A URI fragment is percent-encoded (`#/$defs/a%20b`).
    let fragment = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
    match fragment.strip_prefix('/') {
        None if fragment.is_empty() => Some((resource, around.to_string())),
        None => {
            let found = find_anchor(resource, &fragment, dialect, &mut 0, true)?;
            let base = if core::ptr::eq(found, resource) {
                around.to_string()
            } else {
                join_id(around, resource, dialect)
            };
            Some((found, base))
        }
        Some(pointer) => {
            let mut base = around.to_string();
            let mut at = resource;
            for token in pointer.split('/') {
                let token = token.replace("~1", "/").replace("~0", "~");
                // Each schema passed on the way may set the base of what it contains.
                base = join_id(&base, at, dialect);
                at = match at {
                    Value::Object(m) => m.get(&token)?,
                    Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
                    _ => return None,
                };
            }
            Some((at, base))
        }
    }
}

/// The subschema declaring `$anchor: name` (or `$dynamicAnchor: name`, which is a plain
/// anchor too, or draft-07's `$id: "#name"`), searched depth-first within one resource (not
/// inside embedded resources of their own).
fn find_anchor<'a>(
    at: &'a Value,
    name: &str,
    dialect: Dialect,
    seen: &mut usize,
    top: bool,
) -> Option<&'a Value> {
    *seen += 1;
    if *seen > MAX_ANCHOR_SEARCH {
        return None;
    }
    match at {
        Value::Object(m) => {
            let id = m.get(dialect.id_keyword()).and_then(Value::as_str);
            if !top && id.is_some_and(|i| !i.starts_with('#')) {
                return None; // another resource
            }
            let named = |k: &str| m.get(k).and_then(Value::as_str) == Some(name);
            if named("$anchor")
                || named("$dynamicAnchor")
                || id.and_then(|i| i.strip_prefix('#')) == Some(name)
            {
                return Some(at);
            }
            subschemas(m)
                .into_iter()
                .find_map(|v| find_anchor(v, name, dialect, seen, false))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resources_and_anchors_are_looked_for_among_the_first_ten_thousand_schemas_only() {
        // The root and `defs` schemas in its `$defs`, the last one `last`.
        let doc = |defs: usize, last: Value| {
            let mut map = serde_json::Map::new();
            for i in 0..defs {
                let schema = if i + 1 == defs {
                    last.clone()
                } else {
                    json!({"type": "integer"})
                };
                map.insert(format!("d{i:05}"), schema);
            }
            json!({"$defs": map})
        };
        let embedded = json!({"$id": "https://example.com/last", "type": "string"});
        let within = doc(MAX_ANCHOR_SEARCH - 1, embedded.clone());
        let beyond = doc(MAX_ANCHOR_SEARCH, embedded);
        let uri = "https://example.com/last";
        assert!(matches!(resolve(&within, uri), Target::Found(_)));
        assert_eq!(resolve(&beyond, uri), Target::External);
        let anchored = json!({"$anchor": "last", "type": "string"});
        let within = doc(MAX_ANCHOR_SEARCH - 1, anchored.clone());
        let beyond = doc(MAX_ANCHOR_SEARCH, anchored);
        assert!(matches!(resolve(&within, "#last"), Target::Found(_)));
        assert_eq!(resolve(&beyond, "#last"), Target::Missing);
    }

    #[test]
    fn the_dialect_is_the_standard_meta_schema_named_however_it_is_spelled() {
        let of = |uri: &str| Dialect::of(&json!({"$schema": uri})).map_err(String::from);
        for uri in [
            "https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft/2020-12/schema#",
            "https://json-schema.org/draft/2019-09/schema",
        ] {
            assert_eq!(of(uri), Ok(Dialect::Current), "{uri}");
        }
        assert_eq!(Dialect::of(&json!({})), Ok(Dialect::Current));
        assert_eq!(
            of("http://json-schema.org/draft-07/schema#"),
            Ok(Dialect::Draft07)
        );
        assert_eq!(
            of("https://json-schema.org/draft-06/schema"),
            Ok(Dialect::Draft07)
        );
        assert_eq!(
            of("http://json-schema.org/draft-04/schema#"),
            Ok(Dialect::Draft04)
        );
        // A custom meta-schema, whatever its name says.
        let custom = "http://localhost:1234/draft2020-12/metaschema-no-validation.json";
        assert_eq!(of(custom), Err(custom.into()));
        assert_eq!(
            of("json-schema.org/draft/2020-12/schema"),
            Err("json-schema.org/draft/2020-12/schema".into())
        );
    }

    /// Where `reference` leads from the root of `doc`.
    fn resolve<'a>(doc: &'a Value, reference: &str) -> Target<'a> {
        let resources = Resources::of(doc);
        resources.resolve(resources.root_base(), reference).0
    }

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
