//! Checks `structuredContent` against a tool's `outputSchema`, for the visible verdict.
//!
//! A deliberately small JSON Schema subset (type, enum, const, required, properties,
//! additionalProperties: false, items, min/max, minLength/maxLength, min/maxItems) keeps the
//! app small; a schema using anything else (`$ref`, composition, conditionals, patterns) is
//! reported as "not checked" rather than guessed at.

use serde_json::Value;

/// The verdict shown next to structured content.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The content matches.
    Valid,
    /// The first mismatch found, with its JSON path.
    Invalid(String),
    /// The schema uses a keyword this checker does not evaluate.
    NotChecked(String),
}

const UNSUPPORTED: &[&str] = &[
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "pattern",
    "patternProperties",
    "dependentSchemas",
    "prefixItems",
    "contains",
    "format",
];

/// Checks `value` against `schema`.
pub fn check(schema: &Value, value: &Value) -> Verdict {
    if let Some(k) = find_unsupported(schema) {
        return Verdict::NotChecked(format!("the schema uses {k}"));
    }
    match validate(schema, value, "$") {
        Ok(()) => Verdict::Valid,
        Err(e) => Verdict::Invalid(e),
    }
}

fn find_unsupported(schema: &Value) -> Option<String> {
    let obj = schema.as_object()?;
    for k in UNSUPPORTED {
        if obj.contains_key(*k) {
            return Some((*k).to_string());
        }
    }
    let nested = obj
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values());
    nested
        .chain(obj.get("items"))
        .chain(obj.get("additionalProperties").filter(|a| a.is_object()))
        .find_map(find_unsupported)
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => {
            v.as_i64().is_some()
                || v.as_u64().is_some()
                || v.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => true,
    }
}

fn validate(schema: &Value, v: &Value, at: &str) -> Result<(), String> {
    let Some(s) = schema.as_object() else {
        return if schema == &Value::Bool(false) {
            Err(format!("{at}: no value is allowed"))
        } else {
            Ok(())
        };
    };
    match s.get("type") {
        Some(Value::String(t)) if !type_matches(t, v) => return Err(format!("{at}: expected {t}")),
        Some(Value::Array(ts))
            if !ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, v)) =>
        {
            return Err(format!(
                "{at}: expected one of {}",
                Value::Array(ts.clone())
            ))
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.contains(v) {
            return Err(format!("{at}: not one of the allowed values"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            return Err(format!("{at}: expected {c}"));
        }
    }
    if let Some(n) = v.as_f64() {
        if s.get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            return Err(format!("{at}: below the minimum"));
        }
        if s.get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            return Err(format!("{at}: above the maximum"));
        }
    }
    if let Some(text) = v.as_str() {
        let len = text.chars().count() as u64;
        if s.get("minLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| len < m)
            || s.get("maxLength")
                .and_then(Value::as_u64)
                .is_some_and(|m| len > m)
        {
            return Err(format!("{at}: length out of range"));
        }
    }
    if let Some(items) = v.as_array() {
        let n = items.len() as u64;
        if s.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| n < m)
            || s.get("maxItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| n > m)
        {
            return Err(format!("{at}: number of items out of range"));
        }
        if let Some(item_schema) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                validate(item_schema, item, &format!("{at}[{i}]"))?;
            }
        }
    }
    if let Some(obj) = v.as_object() {
        if let Some(Value::Array(req)) = s.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !obj.contains_key(r) {
                    return Err(format!("{at}: missing required property {r:?}"));
                }
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (k, val) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(ps, val, &format!("{at}.{k}"))?,
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        return Err(format!("{at}: unexpected property {k:?}"))
                    }
                    Some(extra @ Value::Object(_)) => validate(extra, val, &format!("{at}.{k}"))?,
                    _ => {}
                },
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn verdicts() {
        let schema = json!({"type": "object", "required": ["temp"], "additionalProperties": false, "properties": {
            "temp": {"type": "number", "minimum": -100}, "tags": {"type": "array", "items": {"type": "string"}},
            "unit": {"enum": ["C", "F"]}}});
        assert_eq!(
            check(&schema, &json!({"temp": 21.5, "tags": ["a"], "unit": "C"})),
            Verdict::Valid
        );
        assert!(
            matches!(check(&schema, &json!({"tags": []})), Verdict::Invalid(m) if m.contains("temp"))
        );
        assert!(
            matches!(check(&schema, &json!({"temp": "hot"})), Verdict::Invalid(m) if m.contains("$.temp"))
        );
        assert!(
            matches!(check(&schema, &json!({"temp": 1, "tags": [1]})), Verdict::Invalid(m) if m.contains("$.tags[0]"))
        );
        assert!(matches!(
            check(&schema, &json!({"temp": 1, "x": 1})),
            Verdict::Invalid(_)
        ));
        assert!(matches!(
            check(&schema, &json!({"temp": 1, "unit": "K"})),
            Verdict::Invalid(_)
        ));
        assert!(matches!(
            check(&json!({"oneOf": []}), &json!(1)),
            Verdict::NotChecked(_)
        ));
        assert_eq!(
            check(&json!({"type": "integer"}), &json!(3.0)),
            Verdict::Valid
        );
    }
}
