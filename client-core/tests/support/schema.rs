//! JSON Schema validation of messages against the specification's `schema.json`.

use serde_json::{json, Value};
use std::path::PathBuf;

/// The shared spec folder beside the project root.
pub fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-spec")
}

/// Validates values against definitions of one revision's schema.
pub struct SchemaValidator {
    root: Value,
    compiled:
        std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<jsonschema::Validator>>>,
}

impl SchemaValidator {
    /// Loads `<revision>/schema.json`.
    pub fn load(revision: &str) -> Self {
        let path = spec_dir().join(revision).join("schema.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        SchemaValidator {
            root: serde_json::from_str(&text).expect("schema.json parses"),
            compiled: Default::default(),
        }
    }

    /// True when the schema has this definition.
    pub fn has(&self, def: &str) -> bool {
        self.root["$defs"].get(def).is_some()
    }

    /// Definition `#/$defs/<def>` (`Value::Null` when there is none).
    pub fn def(&self, def: &str) -> &Value {
        &self.root["$defs"][def]
    }

    /// Errors of `value` against `#/$defs/<def>` (empty when valid).
    pub fn errors(&self, def: &str, value: &Value) -> Vec<String> {
        let v = self
            .compiled
            .borrow_mut()
            .entry(def.to_string())
            .or_insert_with(|| {
                let mut schema = self.root.clone();
                schema["$ref"] = json!(format!("#/$defs/{def}"));
                std::rc::Rc::new(jsonschema::validator_for(&schema).expect("schema compiles"))
            })
            .clone();
        v.iter_errors(value)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect()
    }

    /// Panics with the errors when `value` is not a valid `<def>`.
    pub fn assert_valid(&self, def: &str, value: &Value) {
        let errs = self.errors(def, value);
        assert!(errs.is_empty(), "not a valid {def}: {errs:?}\n{value:#}");
    }
}
