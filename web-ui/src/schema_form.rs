//! Turns a tool's `inputSchema` into form fields, and form text back into arguments.
//!
//! Pure logic (no DOM), so it is unit-tested natively. The schema is read, never rewritten.
//! Local `$ref`s are followed, and an optional value spelled as an alternative with `null`
//! (`anyOf: [X, {"type": "null"}]`, as pydantic writes `X | None`) is a nullable X; what the
//! form cannot express otherwise (other composition, arrays of objects) falls back to a raw
//! JSON field for that property.

use crate::schema_ref::{Resources, Target};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What kind of input a field needs.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// Free text.
    Text,
    /// A number (may be fractional).
    Number,
    /// A whole number.
    Integer,
    /// A checkbox.
    Boolean,
    /// One of fixed values (each shown by its title, else as its JSON text).
    Enum(Vec<Choice>),
    /// A list of strings/numbers, one per line (a list of choices: several of them, each
    /// once, as a multi-select).
    List(Box<FieldKind>),
    /// Nested fields.
    Object(Vec<Field>),
    /// Anything else: raw JSON.
    Json,
}

/// One of an enum's fixed values, with the display name the schema gives it, if any: the
/// `title` of a titled enum's `oneOf`/`anyOf` entry (`{"const": "#f00", "title": "Red"}`), or
/// the legacy `enumNames` entry at its place (elicitation's `LegacyTitledEnumSchema`).
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The value sent when it is chosen.
    pub value: Value,
    /// Its display name (untrusted; rendered as text).
    pub title: Option<String>,
}

impl Choice {
    /// A choice without a display name.
    pub fn untitled(value: Value) -> Choice {
        Choice { value, title: None }
    }

    /// The text the form holds for it (see [`choice_text`]).
    pub fn key(&self) -> String {
        choice_text(&self.value)
    }
}

/// What each of `choices` is shown as: its title, else its value's text. Where two would
/// read the same, each of those also shows its value's text, in brackets, so that no two
/// choices look alike.
pub fn shown_choices(choices: &[Choice]) -> Vec<String> {
    let plain: Vec<String> = choices
        .iter()
        .map(|c| c.title.clone().unwrap_or_else(|| c.key()))
        .collect();
    // Counted once (an enum may have thousands of values).
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for text in &plain {
        *seen.entry(text).or_default() += 1;
    }
    plain
        .iter()
        .zip(choices)
        .map(|(text, c)| {
            let alike = seen.get(text.as_str()).is_some_and(|n| *n > 1);
            match (&c.title, alike) {
                (Some(title), true) => format!("{title} ({})", c.key()),
                _ => text.clone(),
            }
        })
        .collect()
}

/// The keys a multi-select's text holds (one per line; blank lines are none).
pub fn chosen_keys(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// A multi-select's text with the choice `key` chosen (`on`) or not: the chosen keys in the
/// choices' order, each once; a line that names no choice is kept, after them (the check
/// before sending then says it is not one of the options).
pub fn with_choice(text: &str, choices: &[Choice], key: &str, on: bool) -> String {
    let held = chosen_keys(text);
    let held_set: std::collections::BTreeSet<&str> = held.iter().copied().collect();
    let keys: Vec<String> = choices.iter().map(Choice::key).collect();
    let key_set: std::collections::BTreeSet<&str> = keys.iter().map(String::as_str).collect();
    let mut out: Vec<&str> = keys
        .iter()
        .map(String::as_str)
        .filter(|k| if *k == key { on } else { held_set.contains(k) })
        .collect();
    out.extend(held.iter().filter(|h| !key_set.contains(*h)));
    out.join("\n")
}

/// One form field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Path from the root (`a.b`; a name such as `a.b` as `["a.b"]`: see
    /// [`crate::schema_check::member_path`]), used as the form key: one per field.
    pub path: String,
    /// The end of its input's element id: the names from the root joined by `-` (`to-city`),
    /// whitespace as `_`, made unique in the form by a `-2`, `-3`… where two would meet.
    pub id: String,
    /// Property name.
    pub name: String,
    /// Label text (title, else name).
    pub label: String,
    /// Help text (untrusted; rendered as text).
    pub description: Option<String>,
    /// Input kind.
    pub kind: FieldKind,
    /// Must be given.
    pub required: bool,
    /// `null` is allowed.
    pub nullable: bool,
    /// The schema's default.
    pub default: Option<Value>,
    /// The input a text field's `format` calls for (an email, a URL, a date…); plain text
    /// when the format is none of these.
    pub input_type: TextInput,
    /// What the schema allows, in words (`from 1 to 100`, `at most 3`), shown before the
    /// person types: the same limits the check before sending holds the value to.
    pub limits: Option<String>,
}

fn types_of(schema: &Value) -> (Option<String>, bool) {
    match schema.get("type") {
        Some(Value::String(t)) => (Some(t.clone()), false),
        Some(Value::Array(ts)) => {
            let nullable = ts.iter().any(|t| t == "null");
            let main = ts
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .map(String::from);
            (main, nullable)
        }
        _ => (None, false),
    }
}

/// Most `$ref`s and wrappers followed for one property.
const MAX_HOPS: usize = 16;

/// The schema a property's value really follows, whether `null` is allowed besides, and the
/// base URI inside it: `$ref`s followed (local ones, and bundled resources by their `$id`), a
/// lone `allOf` entry unwrapped, `anyOf`/`oneOf` of one schema and `null` read as that
/// schema, nullable, and of one schema alone as that schema. `base` is the base URI around `schema`.
fn effective<'s>(
    doc: &Resources<'s>,
    base: &str,
    mut schema: &'s Value,
) -> (&'s Value, bool, String) {
    let mut nullable = false;
    let mut base = doc.base_of(base, schema);
    for _ in 0..MAX_HOPS {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            match doc.resolve(&base, r) {
                (Target::Found(target), around) => {
                    schema = target;
                    base = doc.base_of(&around, target);
                    continue;
                }
                _ => break,
            }
        }
        if let Some(Value::Array(all)) = schema.get("allOf") {
            if all.len() == 1 && schema.get("type").is_none() && schema.get("properties").is_none()
            {
                schema = &all[0];
                base = doc.base_of(&base, schema);
                continue;
            }
        }
        let alternatives = schema.get("anyOf").or_else(|| schema.get("oneOf"));
        if let Some(Value::Array(options)) = alternatives {
            let is_null = |o: &Value| o.get("type").and_then(Value::as_str) == Some("null");
            let mut others = options.iter().filter(|o| !is_null(o));
            if let (Some(only), None) = (others.next(), others.next()) {
                // One schema, alone or beside `null` (the one choice of a titled enum too:
                // a `const` reads as a choice of one).
                nullable |= options.len() > 1;
                schema = only;
                base = doc.base_of(&base, schema);
                continue;
            }
        }
        break;
    }
    (schema, nullable, base)
}

/// `base` is the base URI inside `schema`.
fn kind_of(doc: &Resources, base: &str, schema: &Value, path: &str, depth: usize) -> FieldKind {
    if let Some(Value::Array(values)) = schema.get("enum") {
        // The legacy `enumNames`: the display name of the value at the same place.
        let names = schema.get("enumNames").and_then(Value::as_array);
        return FieldKind::Enum(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| Choice {
                    value: v.clone(),
                    title: title_in(names.and_then(|n| n.get(i))),
                })
                .collect(),
        );
    }
    // One allowed value (`const`; pydantic's `Literal["x"]`): a choice of one, not a box in
    // which only that exact text is right.
    if let Some(value) = schema.get("const") {
        return FieldKind::Enum(vec![Choice::untitled(value.clone())]);
    }
    if let Some(Value::Array(options)) = schema.get("oneOf").or_else(|| schema.get("anyOf")) {
        // Titled enums: oneOf (anyOf, for a multi-select's items) of { const, title }.
        let choices: Vec<Choice> = options
            .iter()
            .filter_map(|o| {
                Some(Choice {
                    value: o.get("const")?.clone(),
                    title: title_in(o.get("title")),
                })
            })
            .collect();
        if !choices.is_empty() && choices.len() == options.len() {
            return FieldKind::Enum(choices);
        }
    }
    match types_of(schema).0.as_deref() {
        Some("string") => FieldKind::Text,
        Some("number") => FieldKind::Number,
        Some("integer") => FieldKind::Integer,
        Some("boolean") => FieldKind::Boolean,
        Some("array") => match schema.get("items").map(|i| {
            let (item, _, inner) = effective(doc, base, i);
            kind_of(doc, &inner, item, path, depth + 1)
        }) {
            Some(
                k @ (FieldKind::Text | FieldKind::Number | FieldKind::Integer | FieldKind::Enum(_)),
            ) => FieldKind::List(Box::new(k)),
            _ => FieldKind::Json,
        },
        Some("object") if depth < 4 && schema.get("properties").is_some() => {
            FieldKind::Object(fields_at(doc, base, schema, path, depth + 1))
        }
        _ => FieldKind::Json,
    }
}

/// A display name, if `v` is one: a string with more than white space in it.
fn title_in(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .map(String::from)
}

/// `base` is the base URI inside `schema`.
fn fields_at(
    doc: &Resources,
    base: &str,
    schema: &Value,
    prefix: &str,
    depth: usize,
) -> Vec<Field> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Object(props)) = schema.get("properties") else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(name, sub)| {
            let path = crate::schema_check::member_path(prefix, name);
            let (schema, or_null, inner) = effective(doc, base, sub);
            // The property's own words first, then those of the schema it refers to.
            let text = |k: &str| {
                sub.get(k)
                    .or_else(|| schema.get(k))
                    .and_then(Value::as_str)
                    .map(String::from)
            };
            let kind = kind_of(doc, &inner, schema, &path, depth);
            let multi_select =
                matches!(&kind, FieldKind::List(item) if matches!(**item, FieldKind::Enum(_)));
            Field {
                limits: limits_of(schema, multi_select),
                kind,
                // A referenced schema's title names its type, not this property.
                label: sub
                    .get("title")
                    .and_then(Value::as_str)
                    .unwrap_or(name)
                    .to_string(),
                description: text("description"),
                required: required.contains(&name.as_str()),
                nullable: or_null || types_of(schema).1,
                default: sub
                    .get("default")
                    .or_else(|| schema.get("default"))
                    .cloned(),
                input_type: input_type(schema),
                path,
                id: String::new(),
                name: name.clone(),
            }
        })
        .collect()
}

/// The input a text field is typed in, from its string `format` (elicitation's `email`,
/// `uri`, `date`, `date-time`): the browser then offers its own picker or keyboard and
/// refuses malformed values on submit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextInput {
    /// Any text (no format, or one the browser has no input for).
    #[default]
    Plain,
    /// An email address (`format: email`).
    Email,
    /// A URL (`format: uri`).
    Url,
    /// A calendar date (`format: date`).
    Date,
    /// A date and time, picked in the person's time zone and sent with its offset (`format:
    /// date-time`; see [`crate::date_time`]).
    DateTime,
}

impl TextInput {
    /// The HTML `type` of the `<input>` for this kind of text.
    pub fn html_type(self) -> &'static str {
        match self {
            TextInput::Plain => "text",
            TextInput::Email => "email",
            TextInput::Url => "url",
            TextInput::Date => "date",
            TextInput::DateTime => "datetime-local",
        }
    }
}

/// The input for a string whose schema is `schema`, by its `format`.
fn input_type(schema: &Value) -> TextInput {
    match schema.get("format").and_then(Value::as_str) {
        Some("email") => TextInput::Email,
        Some("uri") => TextInput::Url,
        Some("date") => TextInput::Date,
        Some("date-time") => TextInput::DateTime,
        _ => TextInput::Plain,
    }
}

/// The limits `schema` sets on a value, in words, or `None` if it sets none: a number's range
/// and step, a text's length and pattern, a list's length and whether its items are unique (a
/// multi-select's, with `choices`, counts choices, each of which is chosen once anyway).
fn limits_of(schema: &Value, choices: bool) -> Option<String> {
    let num = |k: &str| {
        schema
            .get(k)
            .filter(|v| v.is_number())
            .map(Value::to_string)
    };
    let count = |k: &str| schema.get(k).and_then(Value::as_u64);
    let mut parts = Vec::new();
    // A number's range: inclusive and exclusive bounds, in JSON Schema 2020-12's numeric form
    // or draft-04's, where `exclusiveMinimum: true` makes `minimum` exclusive (as the check
    // before sending reads them).
    let inclusive = |flag: &str| schema.get(flag) != Some(&Value::Bool(true));
    let lower = num("exclusiveMinimum")
        .map(|n| (n, false))
        .or_else(|| num("minimum").map(|n| (n, inclusive("exclusiveMinimum"))));
    let upper = num("exclusiveMaximum")
        .map(|n| (n, false))
        .or_else(|| num("maximum").map(|n| (n, inclusive("exclusiveMaximum"))));
    match (lower, upper) {
        (Some((lo, true)), Some((hi, true))) => parts.push(format!("from {lo} to {hi}")),
        (lower, upper) => {
            let range: Vec<String> = [
                lower.map(|(n, inclusive)| {
                    if inclusive {
                        format!("at least {n}")
                    } else {
                        format!("more than {n}")
                    }
                }),
                upper.map(|(n, inclusive)| {
                    if inclusive {
                        format!("at most {n}")
                    } else {
                        format!("less than {n}")
                    }
                }),
            ]
            .into_iter()
            .flatten()
            .collect();
            if !range.is_empty() {
                parts.push(range.join(" and "));
            }
        }
    }
    if let Some(step) = num("multipleOf") {
        parts.push(format!("a multiple of {step}"));
    }
    // How many: characters of a text, items of a list.
    let how_many = |min: Option<u64>, max: Option<u64>, one: &str, many: &str| {
        let counted = |n: u64| crate::words::counted(n, one, many);
        match (min.filter(|n| *n > 0), max) {
            (Some(lo), Some(hi)) if lo == hi => Some(format!("exactly {}", counted(lo))),
            (Some(lo), Some(hi)) => Some(format!("{lo} to {}", counted(hi))),
            (Some(lo), None) => Some(format!("at least {}", counted(lo))),
            (None, Some(hi)) => Some(format!("at most {}", counted(hi))),
            (None, None) => None,
        }
    };
    parts.extend(how_many(
        count("minLength"),
        count("maxLength"),
        "character",
        "characters",
    ));
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        parts.push(format!("matching {pattern}"));
    }
    let (one, many) = if choices {
        ("choice", "choices")
    } else {
        ("item", "items")
    };
    parts.extend(how_many(count("minItems"), count("maxItems"), one, many));
    if !choices && schema.get("uniqueItems") == Some(&Value::Bool(true)) {
        parts.push("no item twice".into());
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The fields of an object schema, in the schema's property order.
pub fn fields_of(schema: &Value) -> Vec<Field> {
    let doc = Resources::of(schema);
    let (root, _, base) = effective(&doc, "", schema);
    let mut fields = fields_at(&doc, &base, root, "", 0);
    name_ids(&mut fields, "", &mut std::collections::BTreeSet::new());
    fields
}

/// Gives each field of `fields` (under the id `parent`) and each field inside them its
/// [`Field::id`], none given twice: `taken` holds those given so far.
fn name_ids(fields: &mut [Field], parent: &str, taken: &mut std::collections::BTreeSet<String>) {
    for f in fields {
        let name: String = f
            .name
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        let readable = if parent.is_empty() {
            name
        } else {
            format!("{parent}-{name}")
        };
        let mut id = readable.clone();
        let mut n = 1;
        while taken.contains(&id) {
            n += 1;
            id = format!("{readable}-{n}");
        }
        taken.insert(id.clone());
        f.id = id;
        if let FieldKind::Object(inner) = &mut f.kind {
            let parent = f.id.clone();
            name_ids(inner, &parent, taken);
        }
    }
}

/// The initial text of each field: its default, as the form shows it.
pub fn initial_values(fields: &[Field]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for f in fields {
        match &f.kind {
            FieldKind::Object(inner) => out.extend(initial_values(inner)),
            kind => {
                let text = f
                    .default
                    .as_ref()
                    .map(|d| to_text(kind, d))
                    .unwrap_or_default();
                out.insert(f.path.clone(), text);
            }
        }
    }
    out
}

fn to_text(kind: &FieldKind, v: &Value) -> String {
    match (kind, v) {
        // A `null` default (an optional value): the field starts empty.
        (FieldKind::Json, Value::Null) => "null".into(),
        (_, Value::Null) => String::new(),
        (FieldKind::Text, Value::String(s)) => s.clone(),
        (FieldKind::List(_), Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(String::from)
                    .unwrap_or_else(|| i.to_string())
            })
            .collect::<Vec<_>>()
            .join("\n"),
        (FieldKind::Json, v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        (_, v) => choice_text(v),
    }
}

/// How a value is written as a choice's text (and in a field): a string as it is, anything
/// else as JSON.
pub fn choice_text(v: &Value) -> String {
    v.as_str()
        .map(String::from)
        .unwrap_or_else(|| v.to_string())
}

/// The form's text values that give back `args` exactly (to edit arguments sent before in
/// the form), or `None` when the form cannot say them (a key it has no field for, a value of
/// another type, a `null` it would leave out): then they are edited as raw JSON.
pub fn values_from(fields: &[Field], args: &Value) -> Option<BTreeMap<String, String>> {
    fn fill(
        fields: &[Field],
        args: Option<&Map<String, Value>>,
        out: &mut BTreeMap<String, String>,
    ) {
        for f in fields {
            let given = args.and_then(|a| a.get(&f.name));
            match &f.kind {
                FieldKind::Object(inner) => fill(inner, given.and_then(Value::as_object), out),
                kind => {
                    out.insert(
                        f.path.clone(),
                        given.map(|v| to_text(kind, v)).unwrap_or_default(),
                    );
                }
            }
        }
    }
    /// A multi-select given a choice twice: its boxes could show it only once.
    fn repeats_a_choice(fields: &[Field], out: &BTreeMap<String, String>) -> bool {
        fields.iter().any(|f| match &f.kind {
            FieldKind::Object(inner) => repeats_a_choice(inner, out),
            FieldKind::List(item) if matches!(**item, FieldKind::Enum(_)) => {
                let keys = chosen_keys(out.get(&f.path).map_or("", String::as_str));
                keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k))
            }
            _ => false,
        })
    }
    let mut out = BTreeMap::new();
    fill(fields, Some(args.as_object()?), &mut out);
    if repeats_a_choice(fields, &out) {
        return None;
    }
    (build_arguments(fields, &out).ok()? == *args).then_some(out)
}

/// Builds the arguments object from the form's text values; errors are keyed by field path.
pub fn build_arguments(
    fields: &[Field],
    values: &BTreeMap<String, String>,
) -> Result<Value, BTreeMap<String, String>> {
    let mut errors = BTreeMap::new();
    let obj = build_object(fields, values, &mut errors);
    if errors.is_empty() {
        Ok(Value::Object(obj))
    } else {
        Err(errors)
    }
}

fn build_object(
    fields: &[Field],
    values: &BTreeMap<String, String>,
    errors: &mut BTreeMap<String, String>,
) -> Map<String, Value> {
    let mut obj = Map::new();
    for f in fields {
        if let FieldKind::Object(inner) = &f.kind {
            let nested = build_object(inner, values, errors);
            if !nested.is_empty() || f.required {
                obj.insert(f.name.clone(), Value::Object(nested));
            }
            continue;
        }
        let text = values.get(&f.path).map(String::as_str).unwrap_or("");
        let blank = text.trim().is_empty() && f.kind != FieldKind::Text;
        if blank || (f.kind == FieldKind::Text && text.is_empty()) {
            if f.required && f.nullable {
                obj.insert(f.name.clone(), Value::Null);
            } else if f.required && f.kind != FieldKind::Boolean {
                errors.insert(f.path.clone(), "required".into());
            } else if f.kind == FieldKind::Boolean && f.required {
                obj.insert(f.name.clone(), Value::Bool(false));
            }
            continue;
        }
        match parse_value(&f.kind, text) {
            Ok(v) => {
                obj.insert(f.name.clone(), v);
            }
            Err(e) => {
                errors.insert(f.path.clone(), e);
            }
        }
    }
    obj
}

/// A number as people type it (`1`, `-2.5`, `1e3`, `+4`, `.5`, `5.`), read with the JSON
/// parser already in the app (the standard library's float parser brings ~20 KB of tables).
fn parse_number(text: &str) -> Option<serde_json::Number> {
    let t = text.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    let (sign, digits) = t.strip_prefix('-').map_or(("", t), |d| ("-", d));
    let digits = digits.strip_suffix('.').unwrap_or(digits);
    let zero = if digits.starts_with('.') { "0" } else { "" };
    match serde_json::from_slice(format!("{sign}{zero}{digits}").as_bytes()) {
        Ok(Value::Number(n)) => Some(n),
        _ => None,
    }
}

fn parse_value(kind: &FieldKind, text: &str) -> Result<Value, String> {
    match kind {
        FieldKind::Text => Ok(Value::String(text.to_string())),
        FieldKind::Number => parse_number(text)
            .map(Value::Number)
            .ok_or_else(|| "enter a number".to_string()),
        FieldKind::Integer => text
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| "enter a whole number".to_string()),
        FieldKind::Boolean => Ok(Value::Bool(text == "true")),
        FieldKind::Enum(options) => options
            .iter()
            .find(|o| o.key() == text)
            .map(|o| o.value.clone())
            .ok_or_else(|| "choose one of the options".to_string()),
        FieldKind::List(item) => text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| parse_value(item, l))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        FieldKind::Json => {
            serde_json::from_slice(text.as_bytes()).map_err(|e| format!("invalid JSON: {e}"))
        }
        FieldKind::Object(_) => Err("nested object".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "required": ["name", "count", "mode"], "properties": {
            "name": {"type": "string", "title": "Your name", "description": "who"},
            "count": {"type": "integer", "default": 3},
            "ratio": {"type": "number"},
            "loud": {"type": "boolean", "default": false},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": ["string", "null"]},
            "inner": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "blob": {"anyOf": [{"type": "string"}, {"type": "object"}]}
        }})
    }

    #[test]
    fn arguments_sent_before_go_back_into_the_form_when_it_can_say_them() {
        let f = fields_of(&schema());
        let args = json!({"name": "Ada", "count": 2, "mode": "b", "tags": ["x", "y"],
                          "inner": {"x": 7}, "loud": true, "blob": {"k": 1}});
        let values = values_from(&f, &args).expect("the form can say these");
        assert_eq!(values["name"], "Ada");
        assert_eq!(values["tags"], "x\ny");
        assert_eq!(values["inner.x"], "7");
        assert_eq!(build_arguments(&f, &values).unwrap(), args);
        // What the form cannot say: a key it has no field for, a number where it wants a
        // whole number, an argument that is not an object.
        for args in [
            json!({"name": "Ada", "count": 2, "mode": "b", "extra": 1}),
            json!({"name": "Ada", "count": 2.5, "mode": "b"}),
            json!(["Ada"]),
        ] {
            assert_eq!(values_from(&f, &args), None, "{args}");
        }
    }

    #[test]
    fn fields_follow_the_schema() {
        let f = fields_of(&schema());
        let kinds: Vec<_> = f
            .iter()
            .map(|f| (f.name.as_str(), f.kind.clone()))
            .collect();
        assert_eq!(kinds[0], ("name", FieldKind::Text));
        assert_eq!(f[0].label, "Your name");
        assert!(f[0].required && !f[2].required);
        assert!(matches!(kinds[5].1, FieldKind::List(_)));
        assert_eq!(kinds[2].1, FieldKind::Number);
        assert_eq!(kinds[3].1, FieldKind::Boolean);
        assert!(f[6].nullable);
        assert!(matches!(kinds[7].1, FieldKind::Object(_)));
        assert_eq!(kinds[8].1, FieldKind::Json);
    }

    /// A choice among `values`, none with a title.
    fn untitled(values: &[Value]) -> FieldKind {
        FieldKind::Enum(values.iter().cloned().map(Choice::untitled).collect())
    }

    /// Each field of `schema` as its name, kind and whether it may be null.
    fn read(schema: &Value) -> Vec<(String, FieldKind, bool)> {
        fields_of(schema)
            .into_iter()
            .map(|f| (f.name, f.kind, f.nullable))
            .collect()
    }

    #[test]
    fn alternatives_of_one_schema_are_that_schema() {
        let read = read(&json!({"properties": {
            "alone": {"anyOf": [{"type": "string"}]},
            "or_null": {"oneOf": [{"type": "null"}, {"type": "integer"}]},
            "one_choice": {"oneOf": [{"const": "a", "title": "A"}]},
            "choices": {"oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]},
            "not_all_choices": {"oneOf": [{"const": "a"}, {"type": "string"}]},
            "none": {"anyOf": []},
            "two": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        }}));
        assert_eq!(
            read,
            [
                ("alone".into(), FieldKind::Text, false),
                ("or_null".into(), FieldKind::Integer, true),
                ("one_choice".into(), untitled(&[json!("a")]), false),
                (
                    "choices".into(),
                    FieldKind::Enum(vec![
                        Choice {
                            value: json!("a"),
                            title: Some("A".into())
                        },
                        Choice {
                            value: json!("b"),
                            title: Some("B".into())
                        }
                    ]),
                    false
                ),
                ("not_all_choices".into(), FieldKind::Json, false),
                ("none".into(), FieldKind::Json, false),
                ("two".into(), FieldKind::Json, false),
            ]
        );
    }

    #[test]
    fn an_all_of_of_one_schema_is_that_schema_unless_beside_its_own_type_or_properties() {
        let read = read(&json!({"properties": {
            "wrapped": {"allOf": [{"type": "integer"}]},
            "two": {"allOf": [{"type": "integer"}, {"minimum": 1}]},
            "typed": {"type": "string", "allOf": [{"maxLength": 3}]},
            "with_properties": {"properties": {"a": {"type": "string"}}, "allOf": [{"type": "integer"}]}
        }}));
        assert_eq!(
            read,
            [
                ("wrapped".into(), FieldKind::Integer, false),
                // Every part would have to hold: the whole as JSON (checked before sending).
                ("two".into(), FieldKind::Json, false),
                // The part only adds to the schema beside it.
                ("typed".into(), FieldKind::Text, false),
                ("with_properties".into(), FieldKind::Json, false),
            ]
        );
    }

    #[test]
    fn one_allowed_value_is_a_choice_of_one() {
        let schema = json!({"properties": {
            "titled_or_null": {"anyOf": [{"const": "x", "title": "X"}, {"type": "null"}]},
            "literal": {"const": 2, "type": "integer"}
        }});
        assert_eq!(
            read(&schema),
            [
                // One value, or null: a choice of one that may be left empty.
                ("titled_or_null".into(), untitled(&[json!("x")]), true),
                ("literal".into(), untitled(&[json!(2)]), false),
            ]
        );
        let f = fields_of(&schema);
        let mut values = initial_values(&f);
        values.insert("literal".into(), "2".into());
        assert_eq!(build_arguments(&f, &values).unwrap(), json!({"literal": 2}));
    }

    #[test]
    fn every_field_has_a_key_and_an_element_id_of_its_own() {
        // A top-level `a.b` and `a-b`, the `b` of an object `a`, and a name with a space.
        let schema = json!({"properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "a.b": {"type": "string"},
            "a-b": {"type": "string"},
            "first name": {"type": "string"},
            "": {"type": "string"}
        }});
        let f = fields_of(&schema);
        let mut seen = Vec::new();
        fn walk<'f>(fields: &'f [Field], out: &mut Vec<(&'f str, &'f str)>) {
            for f in fields {
                out.push((f.path.as_str(), f.id.as_str()));
                if let FieldKind::Object(inner) = &f.kind {
                    walk(inner, out);
                }
            }
        }
        walk(&f, &mut seen);
        assert_eq!(
            seen,
            [
                ("a", "a"),
                ("a.b", "a-b"),
                (r#"["a.b"]"#, "a.b"),
                // `a-b` is taken by `a`'s `b`.
                ("a-b", "a-b-2"),
                (r#"["first name"]"#, "first_name"),
                (r#"[""]"#, ""),
            ]
        );
        // Each field's value goes to its own property.
        let values = BTreeMap::from([
            ("a.b".to_string(), "inner".to_string()),
            (r#"["a.b"]"#.to_string(), "dotted".to_string()),
            ("a-b".to_string(), "dashed".to_string()),
        ]);
        let args = json!({"a": {"b": "inner"}, "a.b": "dotted", "a-b": "dashed"});
        assert_eq!(build_arguments(&f, &values).unwrap(), args);
        // And back: a call made before is edited in the same fields.
        let back = values_from(&f, &args).unwrap();
        assert_eq!(back.get(r#"["a.b"]"#).map(String::as_str), Some("dotted"));
        assert_eq!(back.get("a.b").map(String::as_str), Some("inner"));
    }

    #[test]
    fn objects_nest_as_fields_four_deep_then_as_json() {
        // `e` is an object too: one level too deep for fields of its own.
        let mut schema = json!({"type": "object", "properties": {"f": {"type": "string"}}});
        for name in ["e", "d", "c", "b", "a"] {
            schema = json!({"type": "object", "properties": { name: schema }});
        }
        let mut f = fields_of(&schema);
        let mut path = Vec::new();
        while let [field] = f.as_slice() {
            path.push(field.path.clone());
            match &field.kind {
                FieldKind::Object(inner) => f = inner.clone(),
                other => {
                    assert_eq!(
                        (field.path.as_str(), other),
                        ("a.b.c.d.e", &FieldKind::Json)
                    );
                    break;
                }
            }
        }
        assert_eq!(path, ["a", "a.b", "a.b.c", "a.b.c.d", "a.b.c.d.e"]);
    }

    #[test]
    fn a_box_never_ticked_is_false_when_required_and_left_out_otherwise() {
        let f = fields_of(&json!({"required": ["must"], "properties": {
            "must": {"type": "boolean"},
            "may": {"type": "boolean"}
        }}));
        assert_eq!(
            build_arguments(&f, &BTreeMap::new()),
            Ok(json!({"must": false}))
        );
        let ticked = BTreeMap::from([("may".to_string(), "true".to_string())]);
        assert_eq!(
            build_arguments(&f, &ticked),
            Ok(json!({"must": false, "may": true}))
        );
    }

    #[test]
    fn a_list_of_types_is_read_as_its_first_other_than_null() {
        let f = fields_of(&json!({"properties": {
            "a": {"type": ["null", "integer"]},
            "b": {"type": ["number", "string"]},
            "c": {"type": ["string", "null"]}
        }}));
        let read: Vec<_> = f.iter().map(|f| (f.kind.clone(), f.nullable)).collect();
        assert_eq!(
            read,
            [
                (FieldKind::Integer, true),
                (FieldKind::Number, false),
                (FieldKind::Text, true)
            ]
        );
    }

    #[test]
    fn builds_typed_arguments_and_reports_errors() {
        let f = fields_of(&schema());
        let mut v = initial_values(&f);
        assert_eq!(v["count"], "3");
        v.insert("name".into(), "Ada".into());
        v.insert("mode".into(), "b".into());
        v.insert("tags".into(), "x\ny\n".into());
        v.insert("inner.x".into(), "7".into());
        v.insert("ratio".into(), "0.5".into());
        let args = build_arguments(&f, &v).unwrap();
        assert_eq!(
            args,
            json!({"name": "Ada", "count": 3, "ratio": 0.5, "loud": false, "mode": "b", "tags": ["x", "y"], "inner": {"x": 7}})
        );
        v.insert("count".into(), "three".into());
        v.insert("name".into(), "".into());
        v.insert("blob".into(), "{oops".into());
        let errs = build_arguments(&f, &v).unwrap_err();
        assert_eq!(errs.keys().collect::<Vec<_>>(), ["blob", "count", "name"]);
    }

    /// What pydantic (the PyPI `mcp` server's tools) emits for arguments with a nested model,
    /// optional fields and an optional enum.
    fn pydantic() -> Value {
        json!({
            "$defs": {
                "Address": {"type": "object", "title": "Address", "description": "Where.", "required": ["city"],
                    "properties": {"city": {"type": "string", "title": "City"},
                                   "zip": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Zip"}}},
                "Mode": {"type": "string", "enum": ["fast", "slow"], "title": "Mode"}
            },
            "type": "object", "required": ["home", "count"],
            "properties": {
                "home": {"$ref": "#/$defs/Address"},
                "count": {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "Count"},
                "mode": {"anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}], "default": "fast"},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/Mode"}},
                "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "loop": {"$ref": "#/properties/loop"}
            }
        })
    }

    /// A bundled schema: the property refers to an embedded resource by its `$id`, and that
    /// resource's own `#/$defs/...` pointer resolves inside it.
    #[test]
    fn bundled_references_get_real_fields() {
        let schema = json!({"$id": "https://example.com/ship", "type": "object", "required": ["to"],
            "properties": {"to": {"$ref": "address"}, "codes": {"type": "array", "items": {"$ref": "address#/$defs/zip"}}},
            "$defs": {"address": {"$id": "address", "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"$ref": "#/$defs/zip"}},
                "$defs": {"zip": {"type": "string"}}}}});
        let f = fields_of(&schema);
        let FieldKind::Object(to) = &f[0].kind else {
            panic!("{:?}", f[0])
        };
        assert_eq!(
            to.iter()
                .map(|f| (f.path.as_str(), f.kind.clone()))
                .collect::<Vec<_>>(),
            [("to.city", FieldKind::Text), ("to.zip", FieldKind::Text)]
        );
        assert_eq!(f[1].kind, FieldKind::List(Box::new(FieldKind::Text)));
    }

    #[test]
    fn references_and_optional_values_get_real_fields() {
        let f = fields_of(&pydantic());
        let by = |n: &str| f.iter().find(|f| f.name == n).expect(n);
        let FieldKind::Object(home) = &by("home").kind else {
            panic!("{:?}", by("home"))
        };
        assert_eq!(
            (by("home").label.as_str(), by("home").description.as_deref()),
            ("home", Some("Where."))
        );
        assert_eq!(
            home.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
            ["home.city", "home.zip"]
        );
        assert!(home[0].required && !home[0].nullable);
        assert_eq!(
            (home[1].kind.clone(), home[1].nullable),
            (FieldKind::Text, true)
        );
        let count = by("count");
        assert_eq!(
            (count.kind.clone(), count.nullable, count.required),
            (FieldKind::Integer, true, true)
        );
        assert_eq!(by("mode").kind, untitled(&[json!("fast"), json!("slow")]));
        assert!(by("mode").nullable);
        assert_eq!(
            by("tags").kind,
            FieldKind::List(Box::new(untitled(&[json!("fast"), json!("slow")])))
        );
        assert_eq!(by("home").input_type, TextInput::Plain);
        let formats = fields_of(&json!({"properties": {
            "e": {"type": "string", "format": "email"}, "u": {"type": "string", "format": "uri"},
            "d": {"type": "string", "format": "date"}, "t": {"type": "string", "format": "date-time"}}}));
        let types: Vec<_> = formats.iter().map(|f| f.input_type).collect();
        assert_eq!(
            types,
            [
                TextInput::Email,
                TextInput::Url,
                TextInput::Date,
                TextInput::DateTime
            ]
        );
        // Two real alternatives, or a reference that leads nowhere: raw JSON.
        assert_eq!(by("either").kind, FieldKind::Json);
        assert_eq!(by("loop").kind, FieldKind::Json);

        let mut v = initial_values(&f);
        assert_eq!(v["mode"], "fast");
        v.insert("home.city".into(), "Paris".into());
        assert_eq!(
            build_arguments(&f, &v).unwrap(),
            json!({"home": {"city": "Paris"}, "count": null, "mode": "fast"})
        );
        // The root itself may be a reference.
        let mut wrapped = pydantic();
        wrapped["$defs"]["Args"] =
            json!({"type": "object", "properties": {"m": {"$ref": "#/$defs/Mode"}}});
        let wrapped = json!({"$defs": wrapped["$defs"].clone(), "$ref": "#/$defs/Args"});
        assert_eq!(fields_of(&wrapped)[0].path, "m");
    }

    #[test]
    fn numbers_are_read_as_people_type_them() {
        let n = |t: &str| parse_number(t).map(|n| Value::Number(n).to_string());
        assert_eq!(n(" 1.5 ").as_deref(), Some("1.5"));
        assert_eq!(n("-2").as_deref(), Some("-2"));
        assert_eq!(n("+4").as_deref(), Some("4"));
        assert_eq!(n(".5").as_deref(), Some("0.5"));
        assert_eq!(n("-.5").as_deref(), Some("-0.5"));
        assert_eq!(n("5.").as_deref(), Some("5"));
        assert_eq!(n("1e3").as_deref(), Some("1000.0"));
        for bad in ["", "-", ".", "abc", "1,5", "NaN", "inf", "1 2", "0x10"] {
            assert_eq!(n(bad), None, "{bad:?}");
        }
    }

    /// The five enum shapes of elicitation's requested schema (2025-11-25 and 2026-07-28), as
    /// server-everything asks for them.
    fn elicitation_enums() -> Vec<Field> {
        fields_of(&json!({"type": "object", "properties": {
            "plain": {"type": "string", "enum": ["Monica", "Rachel"], "default": "Monica"},
            "plain_many": {"type": "array", "minItems": 1, "maxItems": 3,
                "items": {"type": "string", "enum": ["Guitar", "Piano", "Drums"]}, "default": ["Guitar"]},
            "titled": {"type": "string", "oneOf": [
                {"const": "hero-1", "title": "Superman"}, {"const": "hero-2", "title": "Wonder Woman"}],
                "default": "hero-1"},
            "titled_many": {"type": "array", "items": {"anyOf": [
                {"const": "fish-1", "title": "Tuna"}, {"const": "fish-2", "title": "Salmon"},
                {"const": "fish-3", "title": "Trout"}]}, "default": ["fish-1"]},
            "legacy": {"type": "string", "enum": ["pet-1", "pet-2", "pet-3"],
                "enumNames": ["Cats", "  ", "Birds"], "default": "pet-1"}
        }}))
    }

    #[test]
    fn every_enum_shape_of_elicitation_is_a_choice_shown_by_its_title() {
        let f = elicitation_enums();
        let shown = |k: &FieldKind| match k {
            FieldKind::Enum(c) => shown_choices(c),
            FieldKind::List(item) => match item.as_ref() {
                FieldKind::Enum(c) => shown_choices(c),
                other => panic!("a list of {other:?}"),
            },
            other => panic!("{other:?}"),
        };
        assert_eq!(shown(&f[0].kind), ["Monica", "Rachel"]);
        assert_eq!(shown(&f[1].kind), ["Guitar", "Piano", "Drums"]);
        assert!(matches!(f[1].kind, FieldKind::List(_)));
        assert_eq!(shown(&f[2].kind), ["Superman", "Wonder Woman"]);
        assert_eq!(shown(&f[3].kind), ["Tuna", "Salmon", "Trout"]);
        assert!(matches!(f[3].kind, FieldKind::List(_)));
        // A blank legacy name is none: the value shows instead.
        assert_eq!(shown(&f[4].kind), ["Cats", "pet-2", "Birds"]);
        // The values are what is sent, titles only shown.
        let values = initial_values(&f);
        assert_eq!(
            build_arguments(&f, &values).unwrap(),
            json!({"plain": "Monica", "plain_many": ["Guitar"], "titled": "hero-1",
                   "titled_many": ["fish-1"], "legacy": "pet-1"})
        );
    }

    #[test]
    fn choices_that_would_read_alike_show_their_values_too() {
        let c = |v: &str, t: Option<&str>| Choice {
            value: json!(v),
            title: t.map(String::from),
        };
        assert_eq!(
            shown_choices(&[
                c("a", Some("Same")),
                c("b", Some("Same")),
                c("Same", None),
                c("d", Some("D"))
            ]),
            ["Same (a)", "Same (b)", "Same", "D"]
        );
    }

    #[test]
    fn a_multi_select_holds_its_choices_once_each_in_their_order() {
        let f = elicitation_enums();
        let FieldKind::List(item) = &f[3].kind else {
            panic!("{:?}", f[3].kind)
        };
        let FieldKind::Enum(choices) = item.as_ref() else {
            panic!("{item:?}")
        };
        let text = with_choice("fish-1", choices, "fish-3", true);
        assert_eq!(text, "fish-1\nfish-3");
        let text = with_choice(&text, choices, "fish-2", true);
        assert_eq!(text, "fish-1\nfish-2\nfish-3");
        let text = with_choice(&text, choices, "fish-1", false);
        assert_eq!(text, "fish-2\nfish-3");
        // Chosen twice over is still once; a line naming no choice is kept, last.
        assert_eq!(
            with_choice("x\nfish-2", choices, "fish-2", true),
            "fish-2\nx"
        );
        assert_eq!(chosen_keys("fish-2\n\n  \nfish-3\n"), ["fish-2", "fish-3"]);
        let mut values = initial_values(&f);
        values.insert("titled_many".into(), text);
        assert_eq!(
            build_arguments(&f, &values).unwrap()["titled_many"],
            json!(["fish-2", "fish-3"])
        );
    }

    #[test]
    fn arguments_that_give_a_multi_select_a_choice_twice_are_edited_as_json() {
        let f = elicitation_enums();
        let args = |many: Value| {
            json!({"plain": "Rachel", "plain_many": many, "titled": "hero-2",
            "titled_many": ["fish-3", "fish-1"], "legacy": "pet-3"})
        };
        let values = values_from(&f, &args(json!(["Drums", "Guitar"]))).unwrap();
        assert_eq!(values["plain_many"], "Drums\nGuitar");
        assert_eq!(values["titled"], "hero-2");
        assert_eq!(values_from(&f, &args(json!(["Drums", "Drums"]))), None);
    }

    #[test]
    fn the_limits_of_a_value_are_said_in_words() {
        let limits = |schema: Value| limits_of(&schema, false);
        assert_eq!(
            limits(json!({"type": "integer", "minimum": 1, "maximum": 100})).as_deref(),
            Some("from 1 to 100")
        );
        assert_eq!(
            limits(json!({"minimum": 0.5})).as_deref(),
            Some("at least 0.5")
        );
        assert_eq!(limits(json!({"maximum": 9})).as_deref(), Some("at most 9"));
        assert_eq!(
            limits(json!({"exclusiveMinimum": 0, "maximum": 10, "multipleOf": 2})).as_deref(),
            Some("more than 0 and at most 10 · a multiple of 2")
        );
        assert_eq!(
            limits(json!({"exclusiveMaximum": 1})).as_deref(),
            Some("less than 1")
        );
        // Draft-04's flags make the bound beside them exclusive; `false` leaves it inclusive.
        assert_eq!(
            limits(json!({"minimum": 0, "exclusiveMinimum": true, "maximum": 1,
                "exclusiveMaximum": false}))
            .as_deref(),
            Some("more than 0 and at most 1")
        );
        assert_eq!(
            limits(json!({"maximum": 5, "exclusiveMaximum": true})).as_deref(),
            Some("less than 5")
        );
        assert_eq!(
            limits(
                json!({"type": "string", "minLength": 1, "maxLength": 50, "pattern": "^[a-z]+$"})
            )
            .as_deref(),
            Some("1 to 50 characters · matching ^[a-z]+$")
        );
        assert_eq!(
            limits(json!({"minLength": 5, "maxLength": 5})).as_deref(),
            Some("exactly 5 characters")
        );
        assert_eq!(
            limits(json!({"maxLength": 1})).as_deref(),
            Some("at most 1 character")
        );
        // A minimum of none is no limit.
        assert_eq!(
            limits(json!({"minItems": 0, "maxItems": 3})).as_deref(),
            Some("at most 3 items")
        );
        assert_eq!(
            limits(json!({"minItems": 1, "uniqueItems": true})).as_deref(),
            Some("at least 1 item · no item twice")
        );
        // What is not a limit, or not one of these, says nothing.
        for none in [
            json!({"type": "string"}),
            json!({"minimum": "1"}),
            json!({"maxLength": -1}),
            json!({"uniqueItems": false}),
        ] {
            assert_eq!(limits(none.clone()), None, "{none}");
        }
    }

    #[test]
    fn a_field_says_its_limits_from_the_schema_it_refers_to() {
        let f = fields_of(&json!({"properties": {
            "n": {"anyOf": [{"$ref": "#/$defs/Small"}, {"type": "null"}]},
            "free": {"type": "string"}
        }, "$defs": {"Small": {"type": "integer", "minimum": 1, "maximum": 9}}}));
        assert_eq!(f[0].limits.as_deref(), Some("from 1 to 9"));
        assert_eq!(f[1].limits, None);
        // A multi-select counts choices (each is chosen once anyway).
        let f = fields_of(
            &json!({"properties": {"many": {"type": "array", "minItems": 1,
            "maxItems": 2, "uniqueItems": true, "items": {"enum": ["a", "b", "c"]}}}}),
        );
        assert_eq!(f[0].limits.as_deref(), Some("1 to 2 choices"));
    }
}
