//! The official JSON Schema Test Suite against the app's schema checker: every case of the
//! dialects it evaluates (2020-12, 2019-09, draft-07, -06, -04; the required tests and the
//! `optional/` ones but those in [`OPTIONAL_LEFT_OUT`]) must get the suite's verdict, or be
//! reported "not checked" for one of the reasons the checker gives on purpose. `scripts/setup.sh` fetches the suite (from the
//! source release of PyPI's `jsonschema`, which vendors it) into `tests/.json-schema-suite`;
//! `JSON_SCHEMA_SUITE` may name another copy of its `tests/` folder.
//! Native only (see Cargo.toml): patterns have no engine here and are among those reasons.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::{Path, PathBuf};
use web_ui::schema_check::{check, Verdict};
use web_ui::schema_form::{build_arguments, fields_of, initial_values};

/// Why the checker may decline a case here: a `pattern` (run by the browser's engine only),
/// a reference to another document (never fetched), 2019-09's `$recursiveRef`, or a custom
/// meta-schema (which may turn vocabularies off).
const DECLINED_ON_PURPOSE: &[&str] = &[
    "cannot be run here",
    "another document, which is never fetched",
    "$recursiveRef",
    "is not supported",
];

/// Optional behaviour of the suite this checker does not have, on purpose: integers beyond
/// a float's range as multiples (`float-overflow`), draft-04's integers that must not be
/// written as floats (`zeroTerminatedFloats`), decoding `contentEncoding` and
/// `contentMediaType` to check contents (`content`, an annotation in MCP's 2020-12).
/// `format` assertions (`optional/format/`) are not read: `format` is an
/// annotation.
const OPTIONAL_LEFT_OUT: &[&str] = &[
    "float-overflow.json",
    "zeroTerminatedFloats.json",
    "content.json",
];

/// Each dialect's folder, the `$schema` its cases assume when they name none, and how many
/// of its cases at least must be checked (not declined) with this pinned suite.
const DIALECTS: &[(&str, Option<&str>, usize)] = &[
    ("draft2020-12", None, 1218),
    ("draft2019-09", None, 1168),
    (
        "draft7",
        Some("http://json-schema.org/draft-07/schema#"),
        866,
    ),
    (
        "draft6",
        Some("http://json-schema.org/draft-06/schema#"),
        782,
    ),
    (
        "draft4",
        Some("http://json-schema.org/draft-04/schema#"),
        571,
    ),
];

fn suite() -> PathBuf {
    let path = std::env::var_os("JSON_SCHEMA_SUITE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/.json-schema-suite/tests"),
        PathBuf::from,
    );
    assert!(
        path.join("draft2020-12").is_dir(),
        "no JSON Schema Test Suite at {}: run `bash scripts/setup.sh` (or set JSON_SCHEMA_SUITE)",
        path.display()
    );
    path
}

/// The suite's groups in `folder` (each: a description, a schema, its test cases).
fn groups(folder: &Path) -> Vec<(String, Value)> {
    let listed = |folder: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(folder)
            .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default()
    };
    let mut files: Vec<PathBuf> = listed(folder)
        .into_iter()
        .chain(listed(&folder.join("optional")).into_iter().filter(|p| {
            p.file_name()
                .is_some_and(|n| !OPTIONAL_LEFT_OUT.iter().any(|o| n == *o))
        }))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert!(!files.is_empty(), "no suite files in {}", folder.display());
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a suite file");
        let parsed: Value = serde_json::from_str(&text).expect("suite JSON");
        let name = file
            .strip_prefix(folder)
            .map_or_else(|_| String::new(), |n| n.to_string_lossy().into());
        for group in parsed.as_array().into_iter().flatten() {
            out.push((name.clone(), group.clone()));
        }
    }
    out
}

#[test]
fn every_case_of_the_json_schema_test_suite_gets_its_verdict_or_a_deliberate_not_checked() {
    let root = suite();
    let mut wrong = Vec::new();
    let mut counts = Vec::new();
    for (folder, assumed, floor) in DIALECTS {
        let mut checked = 0;
        for (file, group) in groups(&root.join(folder)) {
            let mut schema = group["schema"].clone();
            if let (Some(dialect), Some(object)) = (assumed, schema.as_object_mut()) {
                object
                    .entry("$schema")
                    .or_insert_with(|| Value::String((*dialect).into()));
            }
            for case in group["tests"].as_array().into_iter().flatten() {
                let expected = case["valid"].as_bool().expect("a verdict");
                let name = format!(
                    "{folder}/{file}: {} / {}",
                    group["description"], case["description"]
                );
                match check(&schema, &case["data"]) {
                    Verdict::NotChecked(why) => {
                        if !DECLINED_ON_PURPOSE.iter().any(|r| why.contains(r)) {
                            wrong.push(format!("{name}: not checked ({why})"));
                        }
                    }
                    Verdict::Valid if expected => checked += 1,
                    Verdict::Invalid(_) if !expected => checked += 1,
                    verdict => wrong.push(format!("{name}: {verdict:?}")),
                }
            }
        }
        eprintln!("{folder}: {checked} cases checked");
        counts.push((folder, checked, floor));
    }
    assert!(
        wrong.is_empty(),
        "{} cases wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    for (folder, checked, floor) in counts {
        assert!(
            checked >= *floor,
            "{folder}: {checked} cases checked, fewer than the {floor} this suite allows"
        );
    }
}

/// The suite's schemas as tool input schemas: the form builder makes a form of each (or
/// none) without panicking, and the arguments its defaults make are built.
#[test]
fn the_form_builder_takes_every_schema_of_the_suite() {
    let root = suite();
    let mut forms = 0;
    for (folder, _, _) in DIALECTS {
        for (_, group) in groups(&root.join(folder)) {
            let fields = fields_of(&group["schema"]);
            let _ = build_arguments(&fields, &initial_values(&fields));
            forms += usize::from(!fields.is_empty());
        }
    }
    assert!(forms > 100, "only {forms} schemas made a form");
}
