//! The checked-in JSON Schema is generated from the Rust types; it must not
//! go stale.

use std::path::Path;

use crate::common::TestEnv;

fn checked_in() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/coffer.schema.json"),
    )
    .unwrap()
}

#[test]
fn checked_in_schema_is_current() {
    assert!(
        checked_in() == coffer::desired::schema(),
        "schemas/coffer.schema.json is stale: run `cargo run -- schema > schemas/coffer.schema.json`"
    );
}

#[test]
fn schema_command_prints_it() {
    let r = TestEnv::new().run(&["schema"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, checked_in());
}

#[test]
fn examples_reference_the_schema_and_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("desired");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.path().extension().is_none_or(|x| x != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).unwrap();
        assert!(
            text.starts_with("# yaml-language-server: $schema=../schemas/coffer.schema.json\n"),
            "{} does not reference the schema",
            e.path().display()
        );
        coffer::desired::parse(&e.path(), text).unwrap();
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn the_matrix_page_is_generated_from_the_registry() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/matrix.md"))
            .unwrap();
    assert!(
        page == coffer::registry::matrix::markdown(coffer::registry::Registry::builtin()),
        "docs/matrix.md is stale: run `cargo run -- agents --format markdown > docs/matrix.md`"
    );
}

#[test]
fn agents_json_lists_every_cell_with_mechanism_or_evidence() {
    let r = TestEnv::new().run(&["agents", "--format", "json"]);
    assert_eq!(r.code, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(
        agents.len(),
        coffer::registry::Registry::builtin().agents().len()
    );
    for a in agents {
        for facet in ["context", "mcp", "instructions", "skills", "provider"] {
            for scope in ["user", "project"] {
                let cell = &a["facets"][facet][scope];
                let supported = cell["supported"].as_bool().unwrap();
                assert!(
                    cell["evidence"].as_str().unwrap().contains("https://"),
                    "{a}"
                );
                assert_eq!(supported, cell["path"].is_string(), "{cell}");
            }
        }
    }
}

#[test]
fn checked_in_plan_schema_is_current() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/plan.schema.json"),
    )
    .unwrap();
    assert!(
        text == coffer::engine::plan_schema(),
        "schemas/plan.schema.json is stale: run `cargo run -- schema --plan > schemas/plan.schema.json`"
    );
    let r = TestEnv::new().run(&["schema", "--plan"]);
    assert_eq!(r.stdout, text);
}
