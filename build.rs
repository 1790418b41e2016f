//! Converts the built-in agent registry from YAML to JSON at build time.
//!
//! `src/registry/agents.yaml` stays the one source of truth, written and
//! reviewed by people. But parsing 700 lines of YAML with serde-saphyr cost
//! three quarters of a `coffer plan` (11 of 15 million instructions under
//! callgrind); serde_json reads the same data in a fraction of that. The
//! conversion keeps every value and the order of every key (templates are
//! rendered in their written order); a test in `registry` checks that both
//! forms give the same registry.
//!
//! Each agent becomes its own JSON text, listed with its id in
//! `agents_index.rs`, so that a plan parses only the agents its desired
//! file names.

use std::path::Path;

fn main() {
    let source = "src/registry/agents.yaml";
    println!("cargo::rerun-if-changed={source}");
    let yaml = std::fs::read_to_string(source).expect("src/registry/agents.yaml is readable");
    let value: serde_json::Value =
        serde_saphyr::from_str(&yaml).unwrap_or_else(|e| panic!("{source} is not valid YAML: {e}"));
    let agents = value["agents"]
        .as_array()
        .unwrap_or_else(|| panic!("{source} has no list of agents"));
    // A Rust expression: `&[("id", Some("dialect"), "json"), …]` (the hook
    // dialect, which every apply needs for every agent, is listed so that
    // the agent need not be read for it); Debug of a str is a valid Rust
    // string literal.
    let mut index = String::from("&[\n");
    for agent in agents {
        let id = agent["id"]
            .as_str()
            .unwrap_or_else(|| panic!("{source}: an agent without an id"));
        let json = serde_json::to_string(agent).expect("a YAML value serialises as JSON");
        let context = &agent["context"];
        let dialect = match context["mechanism"].as_str() {
            Some("shell-command" | "plugin-drop") => context["dialect"].as_str(),
            _ => None,
        };
        index.push_str(&format!("    ({id:?}, {dialect:?}, {json:?}),\n"));
    }
    index.push_str("]\n");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("agents_index.rs"), index).expect("OUT_DIR is writable");
}
