//! Checks a JSON value against a JSON Schema: a tool's `structuredContent` against its
//! `outputSchema`, for the visible verdict, and a form's arguments against the schema it was
//! made from, before they are sent ([`checked_arguments`]).
//!
//! MCP schemas are JSON Schema 2020-12 unless `$schema` names another dialect
//! (`basic/index`, "JSON Schema Usage"); draft-07 (and drafts 04/06, which share its
//! keywords) is accepted when named. Every validation keyword of those dialects is evaluated,
//! including local `$ref`s ([`crate::schema_ref`]), `$dynamicRef`s (resolved in the dynamic
//! scope: the outermost resource declaring the anchor) and the composition and conditional
//! keywords; `format` is an annotation (2020-12's default) and not asserted. What cannot be
//! decided here is reported as "not checked" rather than guessed: a `$ref` to another
//! document (never fetched, as the specification requires), 2019-09's `$recursiveRef`,
//! another dialect (a custom meta-schema, which may turn vocabularies off), a `pattern` the
//! browser's regular expressions reject or that could take too long to run
//! ([`crate::schema_pattern`]), or a schema too large to evaluate within the bounds the
//! specification asks for (depth and steps, below).
//! An `$id` sets the base URI its subschemas' `$ref`s resolve against, and bundled resources
//! (subschemas with an `$id`) are found by it ([`crate::schema_ref`]).
//!
//! `unevaluatedProperties` and `unevaluatedItems` (2020-12) see what the schema object and
//! the subschemas applied in place to the same value evaluated, as the specification's
//! annotation rules say: `properties`, `patternProperties`, `additionalProperties`,
//! `prefixItems`, `items`, `contains` and nested `unevaluated*` of the schema itself, of
//! every `allOf` member, of each `anyOf`/`oneOf` alternative that matches, of `if` when it
//! matches and the `then`/`else` taken, of `dependentSchemas` that apply and of `$ref`
//! targets; never of `not`. Only a schema that uses them pays for collecting this.
//!
//! Hand-written: the `jsonschema` crate does all this and more, but brings a regex engine and
//! URI resolution of its own (hundreds of KB of wasm in an app whose size is a stated goal);
//! patterns here run on the browser's own ECMA-262 engine, the one JSON Schema specifies.

use crate::schema_pattern::{self, Compiled, Refusal};
use crate::schema_ref::{Dialect, Resources, Target};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The verdict shown next to structured content.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The content matches.
    Valid,
    /// The first mismatch found, with its JSON path.
    Invalid(String),
    /// The schema needs something this checker does not evaluate (and says what).
    NotChecked(String),
}

/// Most schemas entered along one path (a `$ref` cycle ends here).
const MAX_DEPTH: u32 = 64;
/// Most evaluation steps for one check: the specification asks validators to bound
/// composition keywords so a hostile schema cannot act as a denial of service.
const MAX_STEPS: u32 = 200_000;

/// Checks `value` against `schema`.
pub fn check(schema: &Value, value: &Value) -> Verdict {
    match run(schema, value) {
        Ok(()) => Verdict::Valid,
        Err(Stop::Invalid(m)) => Verdict::Invalid(m.to_string()),
        Err(Stop::Unknown(m)) => Verdict::NotChecked(m),
    }
}

/// Checks `value` against `schema`: the first mismatch, or why it was not checked.
fn run(schema: &Value, value: &Value) -> Outcome {
    let draft07 = match Dialect::of(schema) {
        Ok(dialect) => dialect.is_draft07_or_older(),
        Err(d) => {
            return Err(Stop::Unknown(format!(
                "the schema's dialect {d} is not supported"
            )));
        }
    };
    let mut checker = Checker {
        resources: Resources::of(schema),
        bases: Vec::new(),
        draft07,
        // Not keywords of draft-07 (ignored there, as unknown keywords are).
        tracks: !draft07 && uses_unevaluated(schema),
        steps: 0,
        patterns: Vec::new(),
    };
    checker.validate(schema, value, "$", 0).map(|_| ())
}

/// The arguments a form holds, as they would be sent: the form's own errors, or else the
/// first mismatch with `schema` under the field it names (a schema this checker does not
/// evaluate lets them through). Tool runs, elicitation answers and a sampling answer's tool
/// calls are all checked this way.
pub fn checked_arguments(
    fields: &[crate::schema_form::Field],
    values: &std::collections::BTreeMap<String, String>,
    schema: &Value,
) -> Result<Value, std::collections::BTreeMap<String, String>> {
    let arguments = crate::schema_form::build_arguments(fields, values)?;
    match run(schema, &arguments) {
        Err(Stop::Invalid(m)) => Err(std::collections::BTreeMap::from([m.by_field(fields)])),
        _ => Ok(arguments),
    }
}

/// The path of the member `name` of the value at `parent`: `$.name`, or `$["a.b"]` (the name
/// as a JSON string) when the name is empty or holds a character that would make the path
/// name another place or read wrongly (`.`, `[`, `]`, `"`, `\`, whitespace, a control). With
/// the root of a form (`""`) as `parent`, a field's key: `name`, `["a.b"]`, `a.b`. So a
/// property named `a.b` and the property `b` of an object `a` have different paths, and so
/// different fields and errors.
pub fn member_path(parent: &str, name: &str) -> String {
    let plain = !name.is_empty()
        && !name.chars().any(|c| {
            matches!(c, '.' | '[' | ']' | '"' | '\\') || c.is_whitespace() || c.is_control()
        });
    match (plain, parent) {
        (true, "") => name.to_string(),
        (true, _) => format!("{parent}.{name}"),
        (false, _) => format!("{parent}[{}]", Value::from(name)),
    }
}

/// The paths of `fields` and of the fields inside them.
fn field_paths(fields: &[crate::schema_form::Field]) -> Vec<&str> {
    fields
        .iter()
        .flat_map(|f| {
            let inner = match &f.kind {
                crate::schema_form::FieldKind::Object(inner) => field_paths(inner),
                _ => Vec::new(),
            };
            core::iter::once(f.path.as_str()).chain(inner)
        })
        .collect()
}

/// Where a value does not match, and how.
struct Mismatch {
    /// The JSON path of the part that does not match: `$`, `$.a.b`, `$.list[0]`.
    at: String,
    /// What is wrong there ("expected string, got number").
    what: String,
}

impl Mismatch {
    /// Keyed the way the form of `fields` keys its errors, so that it is shown: at a field's
    /// path (`$.a.b` is field `a.b`'s, `$["a.b"]` field `["a.b"]`'s), what is wrong; inside a
    /// field (an item of a list, a member of a JSON field), the path and what is wrong, at
    /// that field; anywhere else (the whole value, a property no field holds), the path and
    /// what, keyed by `""` (the form's own line).
    fn by_field(self, fields: &[crate::schema_form::Field]) -> (String, String) {
        if self.at == "$" {
            return (String::new(), self.what);
        }
        let key = self.at.strip_prefix("$.").or_else(|| {
            self.at
                .strip_prefix('$')
                .filter(|rest| rest.starts_with("[\""))
        });
        let Some(path) = key else {
            return (String::new(), self.to_string());
        };
        let paths = field_paths(fields);
        if paths.contains(&path) {
            return (path.to_string(), self.what);
        }
        let holder = paths
            .into_iter()
            .filter(|f| {
                path.strip_prefix(f)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
            })
            .max_by_key(|f| f.len());
        (holder.unwrap_or_default().to_string(), self.to_string())
    }
}

/// `path: what`. The path holds the data's property names: one that steers text direction
/// is isolated, so the message after it reads as written.
impl core::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}: {}",
            crate::bidi::isolated_if_steering(&self.at),
            self.what
        )
    }
}

/// Why a check stopped.
enum Stop {
    /// The value does not match.
    Invalid(Mismatch),
    /// Whether it matches cannot be decided here (why).
    Unknown(String),
}

type Outcome = Result<(), Stop>;

/// What a schema evaluated of the value it was applied to (the annotations that
/// `unevaluatedProperties` and `unevaluatedItems` read); collected only when the schema uses
/// one of them.
#[derive(Default)]
struct Evaluated {
    /// Property names evaluated.
    props: BTreeSet<String>,
    /// Every item evaluated.
    all_items: bool,
    /// The first this many items evaluated (`prefixItems`).
    prefix: usize,
    /// Items evaluated by index (`contains`).
    items: BTreeSet<usize>,
}

impl Evaluated {
    fn merge(&mut self, other: Evaluated) {
        self.props.extend(other.props);
        self.all_items |= other.all_items;
        self.prefix = self.prefix.max(other.prefix);
        self.items.extend(other.items);
    }

    fn item(&self, i: usize) -> bool {
        self.all_items || i < self.prefix || self.items.contains(&i)
    }
}

/// Whether a schema anywhere uses `unevaluatedProperties` or `unevaluatedItems`.
fn uses_unevaluated(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => m.iter().any(|(k, v)| {
            k == "unevaluatedProperties" || k == "unevaluatedItems" || uses_unevaluated(v)
        }),
        Value::Array(a) => a.iter().any(uses_unevaluated),
        _ => false,
    }
}

/// Why the part of the value at `at` does not match.
fn invalid(at: &str, what: impl core::fmt::Display) -> Stop {
    Stop::Invalid(Mismatch {
        at: at.to_string(),
        what: what.to_string(),
    })
}

/// A pattern as read: its cost and compiled form (`None`: not runnable here), or why it is not
/// run.
type PatternRead = Result<(u32, Option<Compiled>), Refusal>;

struct Checker<'s> {
    /// The document's schema resources (`$ref` targets).
    resources: Resources<'s>,
    /// Base URIs set by the `$id`s of the schemas being evaluated and by the `$ref`s
    /// followed, innermost last; each with whether evaluation entered that resource (it is
    /// then in the dynamic scope). A `$ref` to an embedded resource sets the base around it,
    /// its parent's, without entering the parent.
    bases: Vec<(String, bool)>,
    /// Draft-07 rules (`$ref` siblings ignored, `items` as a tuple); else 2020-12.
    draft07: bool,
    /// Collect what each schema evaluated (the schema uses `unevaluated*`).
    tracks: bool,
    steps: u32,
    /// Patterns read so far: their cost and compiled form (`None`: not usable here), or why
    /// they are not run.
    patterns: Vec<(&'s str, PatternRead)>,
}

impl<'s> Checker<'s> {
    fn tick(&mut self) -> Outcome {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(Stop::Unknown(
                "the schema takes too many steps to check here".into(),
            ));
        }
        Ok(())
    }

    /// Checks `v` against `schema`; what it evaluated of `v` when it matches (if tracked).
    fn validate(
        &mut self,
        schema: &'s Value,
        v: &Value,
        at: &str,
        depth: u32,
    ) -> Result<Evaluated, Stop> {
        self.tick()?;
        if depth > MAX_DEPTH {
            return Err(Stop::Unknown(
                "the schema nests too deeply to check here".into(),
            ));
        }
        let s = match schema {
            Value::Object(s) => s,
            Value::Bool(false) => return Err(invalid(at, "no value is allowed here")),
            _ => return Ok(Evaluated::default()),
        };
        // An `$id` sets the base URI of the references inside this schema.
        let base = self.base();
        let inner = self.resources.base_of(base, schema);
        if inner == base {
            return self.validate_object(s, v, at, depth);
        }
        self.bases.push((inner, true));
        let outcome = self.validate_object(s, v, at, depth);
        self.bases.pop();
        outcome
    }

    /// Checks `v` against what the reference `r` (`dynamic`: a `$dynamicRef`) leads to, with
    /// the base URI there.
    fn follow(
        &mut self,
        r: &str,
        dynamic: bool,
        v: &Value,
        at: &str,
        depth: u32,
    ) -> Result<Evaluated, Stop> {
        let (target, around) = self.target(r, dynamic)?;
        let enters = self.resources.base_of(&around, target) == around;
        self.bases.push((around, enters));
        let outcome = self.validate(target, v, at, depth + 1);
        self.bases.pop();
        outcome
    }

    /// Where the reference `r` leads from the schema being evaluated, and the base URI around
    /// it. A `$dynamicRef` (`dynamic`) whose target declares the `$dynamicAnchor` it names
    /// leads to the outermost resource in the dynamic scope declaring that anchor
    /// (2020-12 §8.2.3.2); otherwise it is a `$ref`.
    fn target(&self, r: &str, dynamic: bool) -> Result<(&'s Value, String), Stop> {
        let (target, around) = self.resources.resolve(self.base(), r);
        let target = match target {
            Target::Found(target) => target,
            Target::External => {
                return Err(Stop::Unknown(format!(
                    "the schema refers to {r}, another document, which is never fetched"
                )))
            }
            Target::Missing => {
                return Err(Stop::Unknown(format!(
                    "the schema refers to {r}, which it does not define"
                )))
            }
        };
        let anchor = r
            .split_once('#')
            .map(|(_, f)| f)
            .filter(|f| !f.is_empty() && !f.starts_with('/'));
        match anchor {
            Some(name)
                if dynamic
                    && target.get("$dynamicAnchor").and_then(Value::as_str) == Some(name) =>
            {
                let scope = core::iter::once(self.resources.root_base()).chain(
                    self.bases
                        .iter()
                        .filter(|(_, entered)| *entered)
                        .map(|(base, _)| base.as_str()),
                );
                Ok(self
                    .resources
                    .dynamic(scope, name)
                    .unwrap_or((target, around)))
            }
            _ => Ok((target, around)),
        }
    }

    /// The base URI of the schema being evaluated.
    fn base(&self) -> &str {
        self.bases
            .last()
            .map_or(self.resources.root_base(), |(base, _)| base.as_str())
    }

    /// [`Self::validate`] for a schema object, its base URI set.
    fn validate_object(
        &mut self,
        s: &'s Map<String, Value>,
        v: &Value,
        at: &str,
        depth: u32,
    ) -> Result<Evaluated, Stop> {
        if s.contains_key("$recursiveRef") {
            return Err(Stop::Unknown("the schema uses $recursiveRef".into()));
        }
        let mut seen = Evaluated::default();
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            seen.merge(self.follow(r, false, v, at, depth)?);
            if self.draft07 {
                return Ok(seen); // draft-07 ignores the keywords beside a `$ref`
            }
        }
        if let Some(r) = s.get("$dynamicRef").and_then(Value::as_str) {
            seen.merge(self.follow(r, true, v, at, depth)?);
        }
        check_type(s, v, at)?;
        if let Some(Value::Array(options)) = s.get("enum") {
            if !options.iter().any(|o| json_eq(o, v)) {
                return Err(invalid(at, "not one of the allowed values"));
            }
        }
        if let Some(c) = s.get("const") {
            if !json_eq(c, v) {
                return Err(invalid(at, format!("expected {c}")));
            }
        }
        match v {
            Value::Number(_) => check_number(s, v, at)?,
            Value::String(text) => self.check_string(s, text, at)?,
            Value::Array(items) => self.check_array(s, items, at, depth, &mut seen)?,
            Value::Object(obj) => self.check_object(s, obj, v, at, depth, &mut seen)?,
            _ => {}
        }
        self.check_in_place(s, v, at, depth, &mut seen)?;
        Ok(seen)
    }

    /// What `v` evaluated against `schema` if it matches (`None` if not); `Err` only when
    /// that cannot be decided.
    fn matching(
        &mut self,
        schema: &'s Value,
        v: &Value,
        at: &str,
        depth: u32,
    ) -> Result<Option<Evaluated>, Stop> {
        match self.validate(schema, v, at, depth) {
            Ok(seen) => Ok(Some(seen)),
            Err(Stop::Invalid(_)) => Ok(None),
            Err(unknown) => Err(unknown),
        }
    }

    /// Whether `v` matches `schema`; `Err` only when that cannot be decided.
    fn matches(
        &mut self,
        schema: &'s Value,
        v: &Value,
        at: &str,
        depth: u32,
    ) -> Result<bool, Stop> {
        Ok(self.matching(schema, v, at, depth)?.is_some())
    }

    fn check_string(&mut self, s: &'s Map<String, Value>, text: &str, at: &str) -> Outcome {
        let len = text.chars().count() as u64;
        check_count(s, ("minLength", "maxLength"), len, at, "characters")?;
        if let Some(p) = s.get("pattern").and_then(Value::as_str) {
            if !self.pattern_matches(p, text)? {
                return Err(invalid(at, format!("does not match the pattern {p}")));
            }
        }
        Ok(())
    }

    fn pattern_matches(&mut self, p: &'s str, text: &str) -> Result<bool, Stop> {
        let i = match self.patterns.iter().position(|(q, _)| *q == p) {
            Some(i) => i,
            None => {
                let read = schema_pattern::cost(p).map(|n| (n, schema_pattern::compile(p)));
                self.patterns.push((p, read));
                self.patterns.len() - 1
            }
        };
        let refused =
            |why: &dyn core::fmt::Display| Stop::Unknown(format!("the pattern {p} {why}"));
        match &self.patterns[i].1 {
            Err(refusal) => Err(refused(refusal)),
            Ok((n, _)) if !schema_pattern::affordable(*n, text.chars().count()) => {
                Err(refused(&Refusal::TooLong))
            }
            Ok((_, Some(compiled))) => Ok(compiled.test(text)),
            Ok((_, None)) => Err(refused(&"cannot be run here")),
        }
    }

    fn check_array(
        &mut self,
        s: &'s Map<String, Value>,
        items: &[Value],
        at: &str,
        depth: u32,
        seen: &mut Evaluated,
    ) -> Outcome {
        check_count(s, ("minItems", "maxItems"), items.len() as u64, at, "items")?;
        // A tuple: `prefixItems` (2020-12) or an array of `items` (draft-07), then the rest.
        let (tuple, rest) = match s.get("items") {
            Some(Value::Array(tuple)) => (Some(tuple), s.get("additionalItems")),
            rest if self.draft07 => (None, rest),
            rest => (s.get("prefixItems").and_then(Value::as_array), rest),
        };
        for (i, item) in items.iter().enumerate() {
            let sub = match tuple {
                Some(t) if i < t.len() => Some(&t[i]),
                _ => rest,
            };
            if let Some(sub) = sub {
                self.validate(sub, item, &format!("{at}[{i}]"), depth + 1)?;
            }
        }
        if self.tracks {
            seen.prefix = seen.prefix.max(tuple.map_or(0, Vec::len).min(items.len()));
            seen.all_items |= rest.is_some();
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true)) {
            for (i, a) in items.iter().enumerate() {
                for (j, b) in items.iter().enumerate().skip(i + 1) {
                    self.tick()?;
                    if json_eq(a, b) {
                        return Err(invalid(at, format!("items {i} and {j} are equal")));
                    }
                }
            }
        }
        if let Some(contains) = s.get("contains") {
            let mut found = 0u64;
            for (i, item) in items.iter().enumerate() {
                if self.matches(contains, item, &format!("{at}[{i}]"), depth + 1)? {
                    found += 1;
                    if self.tracks {
                        seen.items.insert(i);
                    }
                }
            }
            let min = s.get("minContains").and_then(count).unwrap_or(1);
            if found < min {
                return Err(invalid(at, "too few items match `contains`"));
            }
            if s.get("maxContains")
                .and_then(count)
                .is_some_and(|m| found > m)
            {
                return Err(invalid(at, "too many items match `contains`"));
            }
        }
        Ok(())
    }

    fn check_object(
        &mut self,
        s: &'s Map<String, Value>,
        obj: &Map<String, Value>,
        v: &Value,
        at: &str,
        depth: u32,
        seen: &mut Evaluated,
    ) -> Outcome {
        if let Some(Value::Array(req)) = s.get("required") {
            if let Some(r) = req
                .iter()
                .filter_map(Value::as_str)
                .find(|r| !obj.contains_key(*r))
            {
                return Err(invalid(at, format!("missing required property {r:?}")));
            }
        }
        let n = obj.len() as u64;
        check_count(s, ("minProperties", "maxProperties"), n, at, "properties")?;
        let props = s.get("properties").and_then(Value::as_object);
        let patterns = s.get("patternProperties").and_then(Value::as_object);
        for (k, val) in obj {
            let path = member_path(at, k);
            if let Some(names) = s.get("propertyNames") {
                let name = Value::String(k.clone());
                if !self.matches(names, &name, &path, depth + 1)? {
                    return Err(invalid(at, format!("property name {k:?} is not allowed")));
                }
            }
            let mut matched = false;
            if let Some(ps) = props.and_then(|p| p.get(k)) {
                matched = true;
                self.validate(ps, val, &path, depth + 1)?;
            }
            for (p, ps) in patterns.into_iter().flatten() {
                if self.pattern_matches(p, k)? {
                    matched = true;
                    self.validate(ps, val, &path, depth + 1)?;
                }
            }
            match s.get("additionalProperties") {
                Some(Value::Bool(false)) if !matched => {
                    return Err(invalid(at, format!("unexpected property {k:?}")));
                }
                Some(extra) if !matched => {
                    matched = true;
                    self.validate(extra, val, &path, depth + 1)?;
                }
                _ => {}
            }
            if matched && self.tracks {
                seen.props.insert(k.clone());
            }
        }
        let dependencies = [
            s.get("dependentRequired"),
            s.get("dependentSchemas"),
            // Draft-07's keyword, also read in 2020-12 as the suite's optional
            // compatibility tests ask: a schema that writes it means it.
            s.get("dependencies"),
        ];
        for (name, dependency) in dependencies
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .flatten()
        {
            if !obj.contains_key(name) {
                continue;
            }
            match dependency {
                Value::Array(names) => {
                    if let Some(r) = names
                        .iter()
                        .filter_map(Value::as_str)
                        .find(|r| !obj.contains_key(*r))
                    {
                        return Err(invalid(at, format!("{name:?} needs property {r:?}")));
                    }
                }
                schema => seen.merge(self.validate(schema, v, at, depth + 1)?),
            }
        }
        Ok(())
    }

    /// The applicators to `v` itself: composition and conditionals, then (when tracked)
    /// `unevaluatedProperties` and `unevaluatedItems`, applied to what nothing else evaluated
    /// (`seen`), after which everything is evaluated.
    fn check_in_place(
        &mut self,
        s: &'s Map<String, Value>,
        v: &Value,
        at: &str,
        depth: u32,
        seen: &mut Evaluated,
    ) -> Outcome {
        if let Some(Value::Array(all)) = s.get("allOf") {
            for sub in all {
                seen.merge(self.validate(sub, v, at, depth + 1)?);
            }
        }
        if let Some(Value::Array(alternatives)) = s.get("anyOf") {
            let mut errors = Vec::new();
            let mut unknown = None;
            let mut any = false;
            for sub in alternatives {
                match self.validate(sub, v, at, depth + 1) {
                    Ok(evaluated) => {
                        any = true;
                        seen.merge(evaluated);
                        // Every matching alternative's annotations count when tracked.
                        if !self.tracks {
                            break;
                        }
                    }
                    Err(Stop::Invalid(m)) => errors.push(m),
                    Err(u) => unknown = Some(u),
                }
            }
            if !any {
                return Err(unknown.unwrap_or_else(|| none_of(at, "anyOf", &errors)));
            }
        }
        if let Some(Value::Array(alternatives)) = s.get("oneOf") {
            let mut errors = Vec::new();
            let mut unknown = None;
            let mut matched = 0;
            for sub in alternatives {
                match self.validate(sub, v, at, depth + 1) {
                    Ok(evaluated) => {
                        matched += 1;
                        seen.merge(evaluated);
                    }
                    Err(Stop::Invalid(m)) => errors.push(m),
                    Err(u) => unknown = Some(u),
                }
            }
            if matched > 1 {
                return Err(invalid(
                    at,
                    "matches more than one of the oneOf alternatives",
                ));
            }
            if let Some(u) = unknown {
                return Err(u);
            }
            if matched == 0 {
                return Err(none_of(at, "oneOf", &errors));
            }
        }
        if let Some(not) = s.get("not") {
            if self.matches(not, v, at, depth + 1)? {
                return Err(invalid(at, "matches a schema it must not (`not`)"));
            }
        }
        if let Some(condition) = s.get("if") {
            let branch = match self.matching(condition, v, at, depth + 1)? {
                Some(evaluated) => {
                    seen.merge(evaluated);
                    s.get("then")
                }
                None => s.get("else"),
            };
            if let Some(branch) = branch {
                seen.merge(self.validate(branch, v, at, depth + 1)?);
            }
        }
        if !self.tracks {
            return Ok(());
        }
        match (v, s.get("unevaluatedProperties")) {
            (Value::Object(obj), Some(rest)) => {
                for (k, val) in obj.iter().filter(|(k, _)| !seen.props.contains(*k)) {
                    if rest == &Value::Bool(false) {
                        return Err(invalid(at, format!("unevaluated property {k:?}")));
                    }
                    self.validate(rest, val, &member_path(at, k), depth + 1)?;
                }
                seen.props.extend(obj.keys().cloned());
            }
            (Value::Array(items), _) => {
                if let Some(rest) = s.get("unevaluatedItems") {
                    for (i, item) in items.iter().enumerate().filter(|(i, _)| !seen.item(*i)) {
                        if rest == &Value::Bool(false) {
                            return Err(invalid(at, format!("unevaluated item {i}")));
                        }
                        self.validate(rest, item, &format!("{at}[{i}]"), depth + 1)?;
                    }
                    seen.all_items = true;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The error for a value that matches none of the alternatives, with (some of) their reasons.
fn none_of(at: &str, keyword: &str, errors: &[Mismatch]) -> Stop {
    let shown: Vec<String> = errors.iter().take(3).map(Mismatch::to_string).collect();
    invalid(
        at,
        format!(
            "matches none of the {keyword} alternatives ({})",
            shown.join("; ")
        ),
    )
}

/// The value of a count keyword (`minLength`, `maxItems`, `minContains`, ...): a
/// non-negative integer, which JSON Schema lets be written with a zero fraction (`2.0`).
fn count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    })
}

/// A count (characters, items, properties) against the schema's pair of bounds for it.
fn check_count(
    s: &Map<String, Value>,
    (min, max): (&str, &str),
    n: u64,
    at: &str,
    what: &str,
) -> Outcome {
    if let Some(m) = s.get(min).and_then(count).filter(|m| n < *m) {
        return Err(invalid(at, format!("too few {what} ({n}, at least {m})")));
    }
    if let Some(m) = s.get(max).and_then(count).filter(|m| n > *m) {
        return Err(invalid(at, format!("too many {what} ({n}, at most {m})")));
    }
    Ok(())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "integer" => {
            v.as_i64().is_some()
                || v.as_u64().is_some()
                || v.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "number" => v.is_number(),
        "object" | "array" | "string" | "boolean" | "null" => kind(v) == t,
        _ => true,
    }
}

fn check_type(s: &Map<String, Value>, v: &Value, at: &str) -> Outcome {
    match s.get("type") {
        Some(Value::String(t)) if !type_matches(t, v) => {
            Err(invalid(at, format!("expected {t}, got {}", kind(v))))
        }
        Some(Value::Array(ts))
            if !ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, v)) =>
        {
            let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            Err(invalid(
                at,
                format!("expected {}, got {}", names.join(" or "), kind(v)),
            ))
        }
        _ => Ok(()),
    }
}

fn check_number(s: &Map<String, Value>, v: &Value, at: &str) -> Outcome {
    let Some(n) = v.as_f64() else {
        return Ok(());
    };
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    // Draft-04 spells exclusive bounds as booleans beside minimum/maximum.
    let flag = |k: &str| s.get(k) == Some(&Value::Bool(true));
    if let Some(m) = bound("minimum") {
        if n < m {
            return Err(invalid(at, format!("below the minimum {m}")));
        }
        if flag("exclusiveMinimum") && n == m {
            return Err(invalid(at, format!("must be more than {m}")));
        }
    }
    if let Some(m) = bound("maximum") {
        if n > m {
            return Err(invalid(at, format!("above the maximum {m}")));
        }
        if flag("exclusiveMaximum") && n == m {
            return Err(invalid(at, format!("must be less than {m}")));
        }
    }
    if let Some(m) = bound("exclusiveMinimum").filter(|m| n <= *m) {
        return Err(invalid(at, format!("must be more than {m}")));
    }
    if let Some(m) = bound("exclusiveMaximum").filter(|m| n >= *m) {
        return Err(invalid(at, format!("must be less than {m}")));
    }
    if let Some(m) = bound("multipleOf").filter(|m| *m > 0.0) {
        let exact = match (v.as_i64(), s.get("multipleOf").and_then(Value::as_i64)) {
            (Some(a), Some(b)) => a % b == 0,
            _ => {
                // A multiple written in decimal gives a quotient off a whole number by at most
                // about one unit in its last place (measured: 2.6e-16 of it); 16 such units
                // leave room. (A tolerance of 1e-9 of it took 1000000000.5 for whole.)
                let q = n / m;
                (q - q.round()).abs() <= 16.0 * f64::EPSILON * q.abs().max(1.0)
            }
        };
        if !exact {
            return Err(invalid(at, format!("not a multiple of {m}")));
        }
    }
    Ok(())
}

/// JSON equality as JSON Schema defines it: numbers by value (`1` equals `1.0`).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_eq(a, b)))
        }
        _ => a == b,
    }
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
            Verdict::Invalid(_)
        ));
        assert_eq!(
            check(&json!({"type": "integer"}), &json!(3.0)),
            Verdict::Valid
        );
    }

    fn invalid_at(schema: &Value, value: &Value, part: &str) {
        match check(schema, value) {
            Verdict::Invalid(m) => assert!(m.contains(part), "{m:?} should name {part:?}"),
            other => panic!("{value} against {schema}: {other:?}"),
        }
    }

    fn not_checked(schema: &Value, value: &Value, part: &str) {
        match check(schema, value) {
            Verdict::NotChecked(m) => assert!(m.contains(part), "{m:?} should name {part:?}"),
            other => panic!("{value} against {schema}: {other:?}"),
        }
    }

    /// What pydantic (and so the PyPI `mcp` server) emits for a model with a nested model, an
    /// optional field and a list of models.
    fn pydantic() -> Value {
        json!({
            "$defs": {
                "Address": {"type": "object", "title": "Address", "required": ["city"],
                    "properties": {"city": {"type": "string", "minLength": 1},
                                   "zip": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}}},
                "Tag": {"type": "string", "enum": ["a", "b"]}
            },
            "type": "object", "required": ["name", "home"],
            "properties": {
                "name": {"type": "string"},
                "home": {"$ref": "#/$defs/Address"},
                "work": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": null},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "uniqueItems": true}
            }
        })
    }

    #[test]
    fn local_references_and_optional_fields_are_checked() {
        let s = pydantic();
        let ok = json!({"name": "Ada", "home": {"city": "London", "zip": null},
                        "work": {"city": "Cambridge", "zip": "CB2"}, "tags": ["a", "b"]});
        assert_eq!(check(&s, &ok), Verdict::Valid);
        assert_eq!(
            check(
                &s,
                &json!({"name": "Ada", "home": {"city": "x"}, "work": null})
            ),
            Verdict::Valid
        );
        invalid_at(
            &s,
            &json!({"name": "Ada", "home": {}}),
            "$.home: missing required property \"city\"",
        );
        invalid_at(
            &s,
            &json!({"name": "Ada", "home": {"city": ""}}),
            "$.home.city: too few characters (0, at least 1)",
        );
        invalid_at(
            &s,
            &json!({"name": "Ada", "home": {"city": "x", "zip": 5}}),
            "$.home.zip: matches none of the anyOf",
        );
        invalid_at(
            &s,
            &json!({"name": "Ada", "home": {"city": "x"}, "work": {"zip": "1"}}),
            "$.work",
        );
        invalid_at(
            &s,
            &json!({"name": "Ada", "home": {"city": "x"}, "tags": ["c"]}),
            "$.tags[0]",
        );
        invalid_at(
            &s,
            &json!({"name": "Ada", "home": {"city": "x"}, "tags": ["a", "a"]}),
            "items 0 and 1 are equal",
        );
        // A reference cycle is fine while the value is finite.
        let tree = json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}});
        assert_eq!(
            check(&tree, &json!({"children": [{"children": [{}]}]})),
            Verdict::Valid
        );
        invalid_at(
            &tree,
            &json!({"children": [{"children": [3]}]}),
            "$.children[0].children[0]: expected object",
        );
    }

    #[test]
    fn composition_and_conditionals() {
        let any = json!({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]});
        assert_eq!(check(&any, &json!(3)), Verdict::Valid);
        invalid_at(&any, &json!(-1), "below the minimum 0");
        let one = json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 1}]});
        assert_eq!(check(&one, &json!(0)), Verdict::Valid);
        assert_eq!(check(&one, &json!(1.5)), Verdict::Valid);
        invalid_at(&one, &json!(2), "more than one");
        let all = json!({"allOf": [{"required": ["a"]}, {"required": ["b"]}]});
        invalid_at(&all, &json!({"a": 1}), "\"b\"");
        invalid_at(&json!({"not": {"type": "null"}}), &json!(null), "must not");
        let cond = json!({"if": {"properties": {"kind": {"const": "circle"}}},
                          "then": {"required": ["radius"]}, "else": {"required": ["side"]}});
        assert_eq!(
            check(&cond, &json!({"kind": "circle", "radius": 1})),
            Verdict::Valid
        );
        invalid_at(&cond, &json!({"kind": "circle", "side": 1}), "radius");
        invalid_at(&cond, &json!({"kind": "square"}), "side");
        assert_eq!(check(&json!(true), &json!({"x": 1})), Verdict::Valid);
        invalid_at(&json!(false), &json!(1), "no value is allowed");
    }

    #[test]
    fn arrays_objects_and_numbers() {
        let tuple =
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false});
        assert_eq!(check(&tuple, &json!(["a", 1])), Verdict::Valid);
        invalid_at(&tuple, &json!(["a", "b"]), "$[1]: expected integer");
        invalid_at(&tuple, &json!(["a", 1, null]), "$[2]: no value is allowed");
        let draft07 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "string"}], "additionalItems": {"type": "boolean"},
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}}});
        assert_eq!(check(&draft07, &json!(["a", true, false])), Verdict::Valid);
        invalid_at(&draft07, &json!(["a", 1]), "$[1]");
        invalid_at(&draft07, &json!({"a": 1}), "\"a\" needs property \"b\"");
        invalid_at(&draft07, &json!({"c": 1}), "\"d\"");
        // Draft-07 ignores what stands beside a $ref; 2020-12 applies it too.
        let beside = |dialect: &str| {
            json!({"$schema": dialect, "$defs": {"s": {"type": "string"}},
            "properties": {"x": {"$ref": "#/$defs/s", "maxLength": 1}}})
        };
        assert_eq!(
            check(
                &beside("http://json-schema.org/draft-07/schema#"),
                &json!({"x": "long"})
            ),
            Verdict::Valid
        );
        invalid_at(
            &beside("https://json-schema.org/draft/2020-12/schema"),
            &json!({"x": "long"}),
            "too many characters (4, at most 1)",
        );
        let contains = json!({"contains": {"const": 1}, "minContains": 2, "maxContains": 3});
        assert_eq!(check(&contains, &json!([1, 1.0, 2])), Verdict::Valid);
        invalid_at(&contains, &json!([1, 2]), "too few items");
        invalid_at(&contains, &json!([1, 1, 1, 1]), "too many items");
        let obj = json!({"minProperties": 1, "maxProperties": 2, "propertyNames": {"maxLength": 3},
            "additionalProperties": {"type": "integer"}, "dependentRequired": {"a": ["b"]},
            "dependentSchemas": {"b": {"properties": {"a": {"minimum": 10}}}}});
        assert_eq!(check(&obj, &json!({"a": 10, "b": 1})), Verdict::Valid);
        invalid_at(&obj, &json!({}), "too few properties");
        invalid_at(
            &obj,
            &json!({"a": 1, "b": 2, "c": 3}),
            "too many properties",
        );
        invalid_at(&obj, &json!({"long": 1}), "property name \"long\"");
        invalid_at(&obj, &json!({"x": "1"}), "$.x: expected integer");
        invalid_at(&obj, &json!({"a": 10}), "needs property \"b\"");
        invalid_at(&obj, &json!({"a": 9, "b": 1}), "$.a: below the minimum 10");
        let num = json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1, "multipleOf": 0.1});
        assert_eq!(check(&num, &json!(0.3)), Verdict::Valid);
        invalid_at(&num, &json!(0), "must be more than 0");
        invalid_at(&num, &json!(1), "must be less than 1");
        invalid_at(&num, &json!(0.35), "multiple");
        invalid_at(&json!({"multipleOf": 3}), &json!(10), "multiple of 3");
        let draft04 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 0, "exclusiveMinimum": true});
        invalid_at(&draft04, &json!(0), "must be more than 0");
        invalid_at(&draft04, &json!(-1), "below the minimum 0");
        assert_eq!(check(&draft04, &json!(0.5)), Verdict::Valid);
        let draft04_max = json!({"maximum": 2, "exclusiveMaximum": true});
        invalid_at(&draft04_max, &json!(2), "must be less than 2");
        invalid_at(&draft04_max, &json!(3), "above the maximum 2");
        assert_eq!(check(&json!({"const": 1}), &json!(1.0)), Verdict::Valid);
        assert_eq!(
            check(&json!({"enum": [{"a": [1]}]}), &json!({"a": [1.0]})),
            Verdict::Valid
        );
        // `format` is an annotation in 2020-12.
        assert_eq!(
            check(&json!({"format": "email"}), &json!("not an email")),
            Verdict::Valid
        );
    }

    #[test]
    fn what_cannot_be_decided_here_is_said_so() {
        not_checked(
            &json!({"$ref": "https://example.com/s.json"}),
            &json!(1),
            "never fetched",
        );
        not_checked(
            &json!({"$ref": "#/$defs/Nope"}),
            &json!(1),
            "does not define",
        );
        not_checked(&json!({"$recursiveRef": "#"}), &json!(1), "$recursiveRef");
        not_checked(
            &json!({"$schema": "http://example.com/my-dialect"}),
            &json!(1),
            "dialect",
        );
        // No ECMA-262 engine outside the browser (the e2e tests check patterns in Chromium).
        not_checked(
            &json!({"pattern": "^a"}),
            &json!("abc"),
            "pattern ^a cannot be run",
        );
        // A pattern that could freeze the page never runs.
        not_checked(
            &json!({"pattern": "^(a+)+$"}),
            &json!("aaaa!"),
            "exponential time",
        );
        let long = "1".repeat(1_000);
        not_checked(
            &json!({"pattern": "^\\d+\\d+\\d+$"}),
            &json!(long),
            "too slow",
        );
        not_checked(
            &json!({"patternProperties": {"^x": {}}}),
            &json!({"xy": 1}),
            "pattern ^x",
        );
        // The value fails before the undecidable part is reached: that is still a verdict.
        invalid_at(
            &json!({"type": "string", "pattern": "^a"}),
            &json!(1),
            "expected string",
        );
    }

    /// Cases after the JSON Schema Test Suite's `unevaluatedProperties` and
    /// `unevaluatedItems` (2020-12): what counts as evaluated, and what never does.
    #[test]
    fn unevaluated_properties_and_items_see_what_adjacent_schemas_evaluated() {
        let valid = |schema: &Value, value: &Value| {
            assert_eq!(
                check(schema, value),
                Verdict::Valid,
                "{value} against {schema}"
            );
        };
        let own =
            json!({"type": "object", "properties": {"foo": {}}, "unevaluatedProperties": false});
        valid(&own, &json!({"foo": 1}));
        invalid_at(
            &own,
            &json!({"foo": 1, "bar": 2}),
            "unevaluated property \"bar\"",
        );

        let all_of = json!({"properties": {"foo": {}}, "allOf": [{"properties": {"bar": {}}}], "unevaluatedProperties": false});
        valid(&all_of, &json!({"foo": 1, "bar": 2}));
        invalid_at(&all_of, &json!({"foo": 1, "bar": 2, "baz": 3}), "\"baz\"");

        // Only the alternatives that match count, and every one of them does.
        let any_of = json!({"properties": {"foo": {}}, "anyOf": [
            {"properties": {"bar": {"const": "bar"}}, "required": ["bar"]},
            {"properties": {"baz": {"const": "baz"}}, "required": ["baz"]}],
            "unevaluatedProperties": false});
        valid(&any_of, &json!({"foo": 1, "bar": "bar"}));
        valid(&any_of, &json!({"foo": 1, "bar": "bar", "baz": "baz"}));
        invalid_at(
            &any_of,
            &json!({"foo": 1, "bar": "bar", "baz": "nope"}),
            "\"baz\"",
        );
        let one_of = json!({"oneOf": [{"properties": {"a": {"const": 1}}, "required": ["a"]},
            {"properties": {"b": {"const": 2}}, "required": ["b"]}], "unevaluatedProperties": false});
        valid(&one_of, &json!({"a": 1}));
        invalid_at(&one_of, &json!({"a": 1, "b": 3}), "\"b\"");

        // `not` never evaluates anything.
        let not =
            json!({"not": {"not": {"properties": {"foo": {}}}}, "unevaluatedProperties": false});
        invalid_at(&not, &json!({"foo": 1}), "\"foo\"");

        // `if` counts when it matches, and so does the branch taken.
        let branches = json!({
            "if": {"properties": {"foo": {"const": "then"}}, "required": ["foo"]},
            "then": {"properties": {"bar": {"type": "string"}}, "required": ["bar"]},
            "else": {"properties": {"baz": {"type": "string"}}, "required": ["baz"]},
            "unevaluatedProperties": false});
        valid(&branches, &json!({"foo": "then", "bar": "x"}));
        invalid_at(
            &branches,
            &json!({"foo": "then", "bar": "x", "baz": "y"}),
            "\"baz\"",
        );
        valid(&branches, &json!({"baz": "y"}));
        invalid_at(&branches, &json!({"foo": "else", "baz": "y"}), "\"foo\"");

        let through_ref = json!({"$defs": {"bar": {"properties": {"bar": {"type": "string"}}}},
            "$ref": "#/$defs/bar", "properties": {"foo": {}}, "unevaluatedProperties": false});
        valid(&through_ref, &json!({"foo": 1, "bar": "x"}));
        invalid_at(
            &through_ref,
            &json!({"foo": 1, "bar": "x", "baz": 2}),
            "\"baz\"",
        );

        let dependent = json!({"properties": {"foo": {}}, "dependentSchemas": {"foo":
            {"properties": {"bar": {"const": "bar"}}, "required": ["bar"]}}, "unevaluatedProperties": false});
        valid(&dependent, &json!({"foo": 1, "bar": "bar"}));
        invalid_at(&dependent, &json!({"bar": "bar"}), "\"bar\"");

        // A child's properties are its own; an inner schema cannot see the outer one's.
        let nested = json!({"properties": {"foo": {"properties": {"bar": {}}}}, "unevaluatedProperties": false});
        invalid_at(&nested, &json!({"foo": {"bar": 1}, "bar": 1}), "\"bar\"");
        let inner = json!({"allOf": [{"properties": {"foo": {}}, "unevaluatedProperties": false}], "properties": {"bar": {}}});
        invalid_at(&inner, &json!({"foo": 1, "bar": 2}), "\"bar\"");
        // An inner `unevaluatedProperties` that passes evaluated everything.
        let inner_true =
            json!({"allOf": [{"unevaluatedProperties": true}], "unevaluatedProperties": false});
        valid(&inner_true, &json!({"foo": 1, "bar": 2}));
        valid(
            &json!({"additionalProperties": true, "unevaluatedProperties": false}),
            &json!({"a": 1}),
        );

        // A schema for the rest, with the path of the property that fails it.
        let rest = json!({"properties": {"id": {}}, "unevaluatedProperties": {"type": "string", "minLength": 3}});
        valid(&rest, &json!({"id": 1, "name": "Ada"}));
        invalid_at(
            &rest,
            &json!({"id": 1, "name": "Al"}),
            "$.name: too few characters",
        );

        // Items: prefixItems (the longest prefix of any adjacent schema), items, contains.
        let prefix = json!({"prefixItems": [{"type": "string"}], "unevaluatedItems": false});
        valid(&prefix, &json!(["a"]));
        invalid_at(&prefix, &json!(["a", 1]), "unevaluated item 1");
        let longer = json!({"allOf": [{"prefixItems": [true, true]}], "prefixItems": [true], "unevaluatedItems": false});
        valid(&longer, &json!([1, 2]));
        invalid_at(&longer, &json!([1, 2, 3]), "unevaluated item 2");
        valid(
            &json!({"items": {"type": "number"}, "unevaluatedItems": false}),
            &json!([1, 2]),
        );
        let contains =
            json!({"contains": {"type": "string"}, "unevaluatedItems": {"type": "number"}});
        valid(&contains, &json!(["a", 1, "b"]));
        invalid_at(&contains, &json!(["a", true]), "$[1]: expected number");
        // (Ajv 8 differs here; the specification, its test suite and Python's `jsonschema`
        // count the items `contains` matched as evaluated.)
        let with_prefix = json!({"prefixItems": [true], "contains": {"type": "string"}, "unevaluatedItems": false});
        valid(&with_prefix, &json!([1, "foo"]));
        invalid_at(&with_prefix, &json!([1, 2, "foo"]), "unevaluated item 1");

        // Not keywords of draft-07: ignored there.
        valid(
            &json!({"$schema": "http://json-schema.org/draft-07/schema#", "unevaluatedProperties": false}),
            &json!({"a": 1}),
        );
    }

    /// A bundled ("compound") document: embedded resources with `$id`s, references resolved
    /// against the base URI where they appear, pointers and anchors inside the resource named.
    #[test]
    fn embedded_schema_resources_resolve_against_their_own_base() {
        let valid = |schema: &Value, value: &Value| {
            assert_eq!(
                check(schema, value),
                Verdict::Valid,
                "{value} against {schema}"
            );
        };
        let order = json!({
            "$id": "https://example.com/schemas/order",
            "type": "object",
            "properties": {
                "to": {"$ref": "address"},
                "from": {"$ref": "https://example.com/schemas/address"},
                "items": {"type": "array", "items": {"$ref": "item#/$defs/sku"}}
            },
            "$defs": {
                "address": {"$id": "address", "type": "object", "required": ["city"],
                    "properties": {"city": {"type": "string"}, "country": {"$ref": "#/$defs/country"}},
                    "$defs": {"country": {"enum": ["FR", "DE"]}}},
                "item": {"$id": "item", "$defs": {"sku": {"type": "string", "minLength": 3}}},
                // The document root's own "country": not the one the address means.
                "country": {"const": "nope"}
            }
        });
        valid(
            &order,
            &json!({"to": {"city": "Paris", "country": "FR"}, "from": {"city": "Berlin"}, "items": ["abc"]}),
        );
        invalid_at(
            &order,
            &json!({"to": {"city": "Paris", "country": "XX"}}),
            "$.to.country: not one of the allowed values",
        );
        invalid_at(
            &order,
            &json!({"from": {}}),
            "$.from: missing required property \"city\"",
        );
        invalid_at(
            &order,
            &json!({"items": ["ab"]}),
            "$.items[0]: too few characters",
        );

        // A property name that turns text around is isolated in the path: the message after
        // it reads as written; plain names are not bracketed.
        let turning = json!({"properties": {"a\u{2069}\u{202e}b": {"type": "string"}}});
        invalid_at(
            &turning,
            &json!({"a\u{2069}\u{202e}b": 1}),
            "\u{2068}$.a\u{202e}b\u{2069}: expected string",
        );

        // Relative ids nest: inside d.json, "e.json" is its sibling.
        let nested = json!({"$id": "https://example.com/root/main.json", "$ref": "sub/dir/d.json", "$defs": {
            "d": {"$id": "sub/dir/d.json", "properties": {"n": {"$ref": "e.json"}}},
            "e": {"$id": "sub/dir/e.json", "type": "integer"}}});
        valid(&nested, &json!({"n": 1}));
        invalid_at(&nested, &json!({"n": "x"}), "$.n: expected integer");

        // An anchor inside an embedded resource; draft-07's `$id: "#name"` anchors.
        let anchored = json!({"$id": "https://example.com/a", "$ref": "b#num", "$defs": {
            "b": {"$id": "b", "$defs": {"x": {"$anchor": "num", "type": "number"}}}}});
        valid(&anchored, &json!(1));
        invalid_at(&anchored, &json!("x"), "expected number");
        let draft07 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"a": {"$id": "#foo", "type": "string"}}, "properties": {"x": {"$ref": "#foo"}}});
        invalid_at(&draft07, &json!({"x": 1}), "$.x: expected string");

        // Still never fetched: a document not embedded, or an `$id` that is only data.
        not_checked(
            &json!({"$id": "https://example.com/a", "$ref": "https://other.example/b"}),
            &json!(1),
            "never fetched",
        );
        not_checked(
            &json!({"$ref": "https://example.com/fake", "$defs": {"c": {"const": {"$id": "https://example.com/fake"}}}}),
            &json!(1),
            "never fetched",
        );
    }

    /// `$dynamicRef`, after the specification's own example: a tree whose nodes a stricter
    /// schema extends through the dynamic anchor.
    #[test]
    fn dynamic_references_follow_the_outermost_dynamic_anchor() {
        let tree = json!({"$id": "https://example.com/tree", "$dynamicAnchor": "node", "type": "object",
            "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}});
        let strict = json!({"$id": "https://example.com/strict-tree", "$dynamicAnchor": "node",
            "$ref": "tree", "unevaluatedProperties": false, "$defs": {"tree": tree.clone()}});
        let typo = json!({"children": [{"daat": 1}]});
        assert_eq!(
            check(&tree, &typo),
            Verdict::Valid,
            "the plain tree allows any property"
        );
        invalid_at(
            &strict,
            &typo,
            "$.children[0]: unevaluated property \"daat\"",
        );
        assert_eq!(
            check(&strict, &json!({"children": [{"data": 1}]})),
            Verdict::Valid
        );
        // Without a dynamic anchor at its target, a `$dynamicRef` is a `$ref`.
        let plain = json!({"$defs": {"s": {"$anchor": "items", "type": "string"}}, "$dynamicRef": "#items"});
        assert_eq!(check(&plain, &json!("x")), Verdict::Valid);
        invalid_at(&plain, &json!(1), "expected string");
    }

    /// `checked_arguments` of the form made from `schema` holding `values`.
    fn checked(
        schema: &Value,
        values: &[(&str, &str)],
    ) -> Result<Value, std::collections::BTreeMap<String, String>> {
        let fields = crate::schema_form::fields_of(schema);
        let values = values
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        checked_arguments(&fields, &values, schema)
    }

    fn one_error(
        key: &str,
        what: &str,
    ) -> Result<Value, std::collections::BTreeMap<String, String>> {
        Err(std::collections::BTreeMap::from([(
            key.to_string(),
            what.to_string(),
        )]))
    }

    #[test]
    fn a_form_s_mismatch_is_shown_at_its_field() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 2},
            "to": {"type": "object", "properties": {"city": {"type": "string", "maxLength": 3}}},
            "tags": {"type": "array", "items": {"type": "string", "minLength": 2}},
            "extra": {"type": "object", "additionalProperties": {"type": "integer"}},
            "a\u{2069}\u{202e}b": {"type": "string", "pattern": "^x"}
        }, "minProperties": 2});
        assert_eq!(
            checked(&schema, &[("name", "Ada"), ("tags", "ab\ncd")]),
            Ok(json!({"name": "Ada", "tags": ["ab", "cd"]}))
        );
        // At a field: what is wrong.
        assert_eq!(
            checked(&schema, &[("name", "A"), ("tags", "ab")]),
            one_error("name", "too few characters (1, at least 2)")
        );
        assert_eq!(
            checked(&schema, &[("name", "Ada"), ("to.city", "Paris")]),
            one_error("to.city", "too many characters (5, at most 3)")
        );
        // Inside a field (an item of a list, a member of a JSON field): at that field, with
        // the path, else it would be shown nowhere and the run would do nothing.
        assert_eq!(
            checked(&schema, &[("name", "Ada"), ("tags", "ab\nc")]),
            one_error("tags", "$.tags[1]: too few characters (1, at least 2)")
        );
        assert_eq!(
            checked(&schema, &[("name", "Ada"), ("extra", r#"{"n": "x"}"#)]),
            one_error("extra", "$.extra.n: expected integer, got string")
        );
        // About the whole value: the form's own line.
        assert_eq!(
            checked(&schema, &[("name", "Ada")]),
            one_error("", "too few properties (1, at least 2)")
        );
        // A field whose name steers text direction is found by its path as it is.
        let steering =
            json!({"properties": {"a\u{2069}\u{202e}b": {"type": "string", "minLength": 2}}});
        assert_eq!(
            checked(&steering, &[("a\u{2069}\u{202e}b", "x")]),
            one_error("a\u{2069}\u{202e}b", "too few characters (1, at least 2)")
        );
    }

    #[test]
    fn every_member_path_names_one_place() {
        assert_eq!(member_path("$", "a"), "$.a");
        assert_eq!(member_path("$.a", "b"), "$.a.b");
        assert_eq!(member_path("", "a"), "a");
        assert_eq!(member_path("$", "été"), "$.été");
        // A name that would read as two, or not be seen, is written as a JSON string.
        assert_eq!(member_path("$", "a.b"), r#"$["a.b"]"#);
        assert_eq!(member_path("", "a.b"), r#"["a.b"]"#);
        assert_eq!(member_path("$.x", ""), r#"$.x[""]"#);
        for name in [
            "[0]",
            "a]",
            "say \"hi\"",
            "back\\slash",
            "two words",
            "tab\t",
            "nul\u{0}",
        ] {
            let path = member_path("$", name);
            let quoted = path.strip_prefix("$[").and_then(|p| p.strip_suffix(']'));
            let read: Option<String> = quoted.and_then(|q| serde_json::from_str(q).ok());
            assert_eq!(read.as_deref(), Some(name), "{path}");
        }
        // The paths of a property `a.b` and of `b` in an object `a` differ.
        assert_ne!(
            member_path("$", "a.b"),
            member_path(&member_path("$", "a"), "b")
        );
    }

    #[test]
    fn a_name_with_a_dot_is_a_field_of_its_own() {
        // `a.b` at the top and `b` inside `a`: two fields, two keys, each error at its own.
        let schema = json!({"type": "object", "properties": {
            "a.b": {"type": "string", "minLength": 2},
            "a": {"type": "object", "properties": {"b": {"type": "string", "maxLength": 1}}},
            "": {"type": "integer"}
        }});
        assert_eq!(
            checked(
                &schema,
                &[(r#"["a.b"]"#, "xy"), ("a.b", "z"), (r#"[""]"#, "3")]
            ),
            Ok(json!({"a.b": "xy", "a": {"b": "z"}, "": 3}))
        );
        assert_eq!(
            checked(&schema, &[(r#"["a.b"]"#, "x"), ("a.b", "z")]),
            one_error(r#"["a.b"]"#, "too few characters (1, at least 2)")
        );
        assert_eq!(
            checked(&schema, &[(r#"["a.b"]"#, "xy"), ("a.b", "zz")]),
            one_error("a.b", "too many characters (2, at most 1)")
        );
        // Inside a JSON field named with a dot: at that field, with the path.
        let json_field = json!({"properties": {
            "x.y": {"type": "object", "additionalProperties": {"type": "integer"}}
        }});
        assert_eq!(
            checked(&json_field, &[(r#"["x.y"]"#, r#"{"n.m": "v"}"#)]),
            one_error(
                r#"["x.y"]"#,
                r#"$["x.y"]["n.m"]: expected integer, got string"#
            )
        );
    }

    #[test]
    fn a_mismatch_no_field_holds_is_keyed_for_the_whole_form() {
        let m = |at: &str| Mismatch {
            at: at.into(),
            what: "bad".into(),
        };
        let fields =
            crate::schema_form::fields_of(&json!({"properties": {"ab": {"type": "string"}}}));
        assert_eq!(m("$").by_field(&fields), (String::new(), "bad".into()));
        assert_eq!(
            m("$[0]").by_field(&fields),
            (String::new(), "$[0]: bad".into())
        );
        // `a` is not a field, nor is `ab` a field holding `$.abc`.
        assert_eq!(
            m("$.a").by_field(&fields),
            (String::new(), "$.a: bad".into())
        );
        assert_eq!(
            m("$.abc").by_field(&fields),
            (String::new(), "$.abc: bad".into())
        );
        assert_eq!(
            m("$.ab.c").by_field(&fields),
            ("ab".into(), "$.ab.c: bad".into())
        );
    }

    #[test]
    fn hostile_schemas_are_bounded() {
        // A reference to itself with nothing in between never ends by itself.
        not_checked(&json!({"$ref": "#"}), &json!(1), "nests too deeply");
        not_checked(
            &json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
            &json!(1),
            "nests too deeply",
        );
        // Alternatives that each lead to two more, all failing at the end: 2^40 paths
        // through a small schema without the step bound.
        let mut defs = serde_json::Map::new();
        defs.insert("d0".into(), json!({"type": "string"}));
        for i in 1..=40 {
            let down = json!({ "$ref": format!("#/$defs/d{}", i - 1) });
            defs.insert(format!("d{i}"), json!({ "anyOf": [down.clone(), down] }));
        }
        let s = json!({"$defs": defs, "$ref": "#/$defs/d40"});
        not_checked(&s, &json!(1), "too many steps");
        // Many equal comparisons for uniqueItems.
        let items: Vec<Value> = (0..5_000).map(|i| json!([i])).collect();
        not_checked(
            &json!({"uniqueItems": true}),
            &Value::Array(items),
            "too many steps",
        );
    }

    /// `bottom` (a schema and a value) wrapped `levels` times: each time the schema by
    /// `schema`, the value by `value`.
    fn nested(
        levels: usize,
        bottom: (Value, Value),
        schema: impl Fn(Value) -> Value,
        value: impl Fn(Value) -> Value,
    ) -> (Value, Value) {
        (0..levels).fold(bottom, |(s, v), _| (schema(s), value(v)))
    }

    #[test]
    fn nesting_is_checked_to_its_bound_through_every_keyword_that_enters_a_schema() {
        type Wrap = fn(Value) -> Value;
        let cases: [(&str, Wrap, Wrap); 12] = [
            ("items", |s| json!({ "items": s }), |v| json!([v])),
            ("then", |s| json!({ "if": {}, "then": s }), |v| v),
            ("if", |s| json!({ "if": s, "then": {} }), |v| v),
            (
                "unevaluatedProperties",
                |s| json!({ "unevaluatedProperties": s }),
                |v| json!({ "a": v }),
            ),
            (
                "unevaluatedItems",
                |s| json!({ "unevaluatedItems": s }),
                |v| json!([v]),
            ),
            ("contains", |s| json!({ "contains": s }), |v| json!([v])),
            (
                "properties",
                |s| json!({ "properties": { "a": s } }),
                |v| json!({ "a": v }),
            ),
            (
                "additionalProperties",
                |s| json!({ "additionalProperties": s }),
                |v| json!({ "a": v }),
            ),
            ("allOf", |s| json!({ "allOf": [s] }), |v| v),
            ("anyOf", |s| json!({ "anyOf": [s] }), |v| v),
            ("oneOf", |s| json!({ "oneOf": [s] }), |v| v),
            (
                "dependentSchemas",
                |s| json!({ "dependentSchemas": { "a": s } }),
                |v| v,
            ),
        ];
        for (keyword, schema, value) in cases {
            // The values are objects with `a` where the keyword needs one.
            let object = matches!(keyword, "dependentSchemas");
            let bottom = |ok: bool| {
                if object {
                    (
                        json!({ "required": [if ok { "a" } else { "b" }] }),
                        json!({ "a": 1 }),
                    )
                } else {
                    (
                        json!({ "type": "integer" }),
                        if ok { json!(1) } else { json!("x") },
                    )
                }
            };
            // The schema at the bottom is entered at the depth of its nesting: 64 is the
            // most, and there it is still applied.
            let (s, v) = nested(64, bottom(true), schema, value);
            assert_eq!(check(&s, &v), Verdict::Valid, "{keyword}");
            // (A condition that fails only picks the branch.)
            if keyword != "if" {
                let (s, v) = nested(64, bottom(false), schema, value);
                let verdict = check(&s, &v);
                assert!(
                    matches!(verdict, Verdict::Invalid(_)),
                    "{keyword}: {verdict:?}"
                );
            }
            let (s, v) = nested(65, bottom(true), schema, value);
            not_checked(&s, &v, "nests too deeply");
        }
        // `not` twice over is the schema itself, two levels down.
        let not_not = |s: Value| json!({ "not": { "not": s } });
        let integer = |v: Value| (json!({ "type": "integer" }), v);
        let (s, v) = nested(32, integer(json!(1)), not_not, |v| v);
        assert_eq!(check(&s, &v), Verdict::Valid);
        let (s, v) = nested(32, integer(json!("x")), not_not, |v| v);
        assert!(matches!(check(&s, &v), Verdict::Invalid(_)));
        let (s, v) = nested(33, integer(json!(1)), not_not, |v| v);
        not_checked(&s, &v, "nests too deeply");
        // `propertyNames` enters a schema for each name, one level down.
        let names = |max: u64| {
            (
                json!({ "propertyNames": { "maxLength": max } }),
                json!({ "x": 1 }),
            )
        };
        let props = |s: Value| json!({ "properties": { "a": s } });
        let under = |v: Value| json!({ "a": v });
        let (s, v) = nested(63, names(0), props, under);
        invalid_at(&s, &v, "property name \"x\" is not allowed");
        let (s, v) = nested(64, names(0), props, under);
        not_checked(&s, &v, "nests too deeply");
    }

    #[test]
    fn a_count_that_is_negative_or_fractional_is_no_count() {
        for bad in [json!(-1.0), json!(2.5), json!(-3)] {
            let verdict = check(&json!({ "maxLength": bad }), &json!("abc"));
            assert_eq!(verdict, Verdict::Valid, "{bad}");
        }
        invalid_at(
            &json!({ "maxLength": 2.0 }),
            &json!("abc"),
            "too many characters",
        );
    }

    #[test]
    fn integers_beyond_2_to_the_53_compare_exactly() {
        let big = json!(-9_007_199_254_740_993_i64);
        invalid_at(
            &json!({ "const": big }),
            &json!(-9_007_199_254_740_992_i64),
            "expected",
        );
        assert_eq!(check(&json!({ "const": big }), &big), Verdict::Valid);
        invalid_at(
            &json!({ "enum": [18_446_744_073_709_551_615_u64] }),
            &json!(18_446_744_073_709_551_614_u64),
            "not one of the allowed values",
        );
        // Equal by value across representations.
        assert_eq!(check(&json!({ "const": 1 }), &json!(1.0)), Verdict::Valid);
    }

    #[test]
    fn multiple_of_is_exact_for_integers_and_close_for_decimals() {
        let of = |m: Value| json!({ "multipleOf": m });
        for (m, v) in [
            (json!(0.1), json!(0.3)),
            (json!(0.01), json!(19.99)),
            (json!(0.1), json!(1e10)),
            (json!(0.0001), json!(0.0075)),
            (json!(3), json!(-9)),
        ] {
            assert_eq!(check(&of(m.clone()), &v), Verdict::Valid, "{v} of {m}");
        }
        // Beyond 2^53 as integers, not as floats (2^53 + 1 is odd).
        invalid_at(
            &of(json!(2)),
            &json!(9_007_199_254_740_993_i64),
            "not a multiple of 2",
        );
        // Half a step off, on a large quotient.
        invalid_at(
            &of(json!(0.1)),
            &json!(100_000_000.05),
            "not a multiple of 0.1",
        );
        invalid_at(
            &of(json!(0.01)),
            &json!(10_000_000.005),
            "not a multiple of 0.01",
        );
        // Zero is no divisor (a schema error): ignored, never a division by zero.
        assert_eq!(check(&of(json!(0)), &json!(5)), Verdict::Valid);
    }

    #[test]
    fn a_property_refused_by_additional_properties_false_is_named() {
        invalid_at(
            &json!({"properties": {"a": {}}, "additionalProperties": false}),
            &json!({"a": 1, "b": 2}),
            "$: unexpected property \"b\"",
        );
    }

    #[test]
    fn draft_07_ignores_prefix_items() {
        let s = json!({"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "string"}]});
        assert_eq!(check(&s, &json!([1])), Verdict::Valid);
        let s = json!({"prefixItems": [{"type": "string"}]});
        invalid_at(&s, &json!([1]), "$[0]: expected string");
    }
}
