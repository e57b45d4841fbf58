//! Server-supplied schemas are hostile input: whatever schema and value arrive, the checker and
//! the form builder answer (a verdict, fields) without panicking and within their bounds.
//! Also: a JSON text shown indented is the same JSON, only its whitespace moved.
//! Native only (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use web_ui::json_text::formatted;
use web_ui::schema_check::{check, Verdict};
use web_ui::schema_form::{build_arguments, fields_of, initial_values};
use web_ui::schema_pattern;

/// Keywords the checker and the form read, so generated schemas exercise them.
const KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "$ref",
    "$defs",
    "definitions",
    "$anchor",
    "$schema",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minProperties",
    "maxProperties",
    "default",
    "title",
    "a",
    "b",
];

/// Pieces of regular expressions, including broken ones.
const PATTERN_PIECES: &[&str] = &[
    "a", "(", ")", "(?:", "(?=", "(?<n>", "(?<=", "[", "]", "[^", "\\", "\\d", "\\1", "*", "+",
    "?", "{", "}", "{2}", "{1,}", "{,3}", "|", "^", "$", ".", "é", "\\k<n>",
];

/// Whether every `)` closes an open `(` and none stays open.
fn balanced(pattern: &str) -> bool {
    let mut depth = 0i32;
    for c in pattern.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..100).prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        prop::sample::select(vec![
            "string",
            "object",
            "array",
            "integer",
            "number",
            "null",
            "boolean",
            "#",
            "#/$defs/a",
            "#/properties/a",
            "#/definitions/b",
            "#a",
            "https://example.com/s",
            "http://json-schema.org/draft-07/schema#",
            "a",
            "b",
            "",
            "^a",
            "(",
        ])
        .prop_map(Value::from),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYWORDS.to_vec()), inner), 0..6).prop_map(
                |entries| {
                    let map: Map<String, Value> = entries
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect();
                    Value::Object(map)
                }
            ),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn any_schema_and_value_get_a_verdict(schema in json_value(), value in json_value()) {
        let verdict = check(&schema, &value);
        if let Verdict::Invalid(m) | Verdict::NotChecked(m) = &verdict {
            prop_assert!(!m.is_empty());
        }
        // The same input, the same verdict.
        prop_assert_eq!(check(&schema, &value), verdict);
    }

    #[test]
    fn any_pattern_is_read_without_panicking(
        pattern in prop::collection::vec(prop::sample::select(PATTERN_PIECES.to_vec()), 0..24)
    ) {
        let pattern: String = pattern.concat();
        if let Ok(repeats) = schema_pattern::cost(&pattern) {
            prop_assert!(repeats as usize <= pattern.len());
            // Without classes or escapes, and with balanced groups (the browser refuses the
            // others), nothing accepted repeats a group that ends in a quantifier.
            let plain = !pattern.contains('[') && !pattern.contains('\\');
            if plain && balanced(&pattern) {
                prop_assert!(!pattern.contains("+)+") && !pattern.contains("*)*"), "{}", pattern);
            }
        }
    }

    #[test]
    fn any_schema_gives_a_form_that_builds(schema in json_value()) {
        let fields = fields_of(&schema);
        let _ = build_arguments(&fields, &initial_values(&fields));
    }
}

#[test]
fn true_and_empty_schemas_accept_anything() {
    for value in [json!(null), json!([1, {"a": "b"}]), json!("x")] {
        assert_eq!(check(&json!(true), &value), Verdict::Valid);
        assert_eq!(check(&json!({}), &value), Verdict::Valid);
    }
}

/// Strings with what JSON escapes and what the indenter reacts to outside strings.
fn tricky_string() -> impl Strategy<Value = String> {
    "[a-z \\n\\t\"\\\\{}\\[\\],:\u{e9}\u{1f600}]{0,10}"
}

fn text_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        tricky_string().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((tricky_string(), inner), 0..5)
                .prop_map(|e| Value::Object(e.into_iter().collect())),
        ]
    })
}

/// `json` without the whitespace outside its strings.
fn without_whitespace(json: &str) -> String {
    let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
    for c in json.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            out.push(c);
        } else if !c.is_ascii_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn indented_json_text_is_the_same_json(v in text_json()) {
        let sent = serde_json::to_string(&v).unwrap();
        match formatted(&sent) {
            Some(shown) => {
                prop_assert!(v.is_object() || v.is_array());
                // Read back by the same parser as the text sent (serde_json's float parsing
                // may differ from the value generated in the last bit: not ours to judge).
                prop_assert_eq!(
                    serde_json::from_str::<Value>(&shown).unwrap(),
                    serde_json::from_str::<Value>(&sent).unwrap()
                );
                prop_assert_eq!(without_whitespace(&shown), sent);
            }
            None => prop_assert!(!(v.is_object() || v.is_array())),
        }
    }
}
