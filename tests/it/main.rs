//! The one integration-test binary (one binary links once; matklad's
//! advice, as uv and jj follow it). One module per area.

mod common;

mod ci;
mod cli;
mod conformance;
mod corpus;
mod corpus_facets;
mod crash;
mod errors;
mod facets;
mod fixtures;
mod hook;
mod inverse;
mod json5;
mod jsonc;
mod markdown_format;
mod mutations;
mod properties;
mod schema;
mod scope;
mod toml_format;
mod yaml_format;

/// Every file in tests/it/ must be a module above, or its tests never run.
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = entry.file_name().into_string().unwrap();
        let module = name.trim_end_matches(".rs");
        if name == "main.rs" || name == "snapshots" {
            continue;
        }
        assert!(
            main.contains(&format!("mod {module};")),
            "tests/it/{name} is not declared in main.rs"
        );
    }
}
