//! Server-supplied schemas are hostile input: whatever schema and value arrive, the checker and
//! the form builder answer (a verdict, fields) without panicking and within their bounds.
//! Native only (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::{json, Map, Value};
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
