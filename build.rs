//! Converts the built-in agent registry from YAML to JSON at build time.
//!
//! `src/registry/agents.yaml` stays the one source of truth, written and
//! reviewed by people. But parsing 700 lines of YAML with serde-saphyr cost
//! three quarters of a `coffer plan` (11 of 15 million instructions under
//! callgrind); serde_json reads the same data in a fraction of that. The
//! conversion keeps every value and the order of every key (templates are
//! rendered in their written order); a test in `registry` checks that both
//! forms give the same registry.

use std::path::Path;

fn main() {
    let source = "src/registry/agents.yaml";
    println!("cargo::rerun-if-changed={source}");
    let yaml = std::fs::read_to_string(source).expect("src/registry/agents.yaml is readable");
    let value: serde_json::Value =
        serde_saphyr::from_str(&yaml).unwrap_or_else(|e| panic!("{source} is not valid YAML: {e}"));
    let json = serde_json::to_string(&value).expect("a YAML value serialises as JSON");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("agents.json"), json).expect("OUT_DIR is writable");
}
