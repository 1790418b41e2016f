//! The TOML editor against the public toml-test suite and the corpus of
//! real Codex configs in `../shared`, read in place (never copied here).
//! Every comparison is on bytes.

use std::path::{Path, PathBuf};

use coffer::formats::text::Text;
use coffer::formats::toml::TomlDoc;
use serde_json::{Map, Value, json};

use crate::common::shared;

const TABLE: [&str; 2] = ["mcp_servers", "coffer-test"];

fn server() -> Map<String, Value> {
    match json!({"command": "coffer", "args": ["mcp", "--stdio"], "env": {"TOKEN": "x"}}) {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

fn table_path() -> Vec<String> {
    TABLE.iter().map(|s| s.to_string()).collect()
}

/// Install and uninstall coffer's table on a file's bytes through the text
/// layer; `Err` says how the round trip failed.
fn round_trip(bytes: &[u8]) -> Result<(), String> {
    let p = table_path();
    let text = Text::decode(bytes).map_err(|e| e.to_string())?;
    let mut doc = TomlDoc::parse(&text.body).map_err(|e| format!("parse: {e:?}"))?;
    doc.set_table(&p, &server())
        .map_err(|e| format!("insert: {e}"))?;
    let once = doc.to_string();
    doc.set_table(&p, &server())
        .map_err(|e| format!("re-insert: {e}"))?;
    if doc.to_string() != once {
        return Err("a second insert changed the text".into());
    }
    if doc.get(&p) != Some(Value::Object(server())) {
        return Err("the inserted table reads differently".into());
    }
    let mut doc = TomlDoc::parse(&once).map_err(|e| format!("re-parse: {e:?}"))?;
    doc.remove(&p).map_err(|e| format!("remove: {e}"))?;
    let out = Text {
        bom: text.bom,
        body: doc.into_string(),
    }
    .encode();
    if out != bytes {
        return Err(format!(
            "not byte-exact:\n--- before\n{}\n--- after\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&out)
        ));
    }
    Ok(())
}

fn suite() -> Option<PathBuf> {
    Some(shared()?.join("conformance/toml-test/tests"))
}

/// The cases of the TOML 1.0 list under `kind/` (`valid` or `invalid`).
fn cases(dir: &Path, kind: &str) -> Vec<String> {
    let list = std::fs::read_to_string(dir.join("files-toml-1.0.0")).expect("the 1.0 case list");
    list.lines()
        .filter(|l| l.starts_with(&format!("{kind}/")) && l.ends_with(".toml"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_toml_1_0_invalid_case_is_refused_with_an_offset() {
    let Some(dir) = suite() else { return };
    let (mut by_text_layer, mut by_parser) = (0, 0);
    let mut accepted = Vec::new();
    for case in cases(&dir, "invalid") {
        let bytes = std::fs::read(dir.join(&case)).unwrap();
        let Ok(text) = Text::decode(&bytes) else {
            by_text_layer += 1;
            continue;
        };
        match TomlDoc::parse(&text.body) {
            Ok(_) => accepted.push(case),
            Err(e) => {
                assert!(e.offset <= text.body.len(), "{case}: offset {}", e.offset);
                assert!(!e.message.is_empty(), "{case}: no message");
                by_parser += 1;
            }
        }
    }
    eprintln!(
        "toml-test 1.0 invalid: {} refused ({by_parser} by the TOML parser, {by_text_layer} as not UTF-8 by the text layer), {} accepted",
        by_parser + by_text_layer,
        accepted.len()
    );
    assert!(accepted.is_empty(), "accepted invalid cases: {accepted:#?}");
    assert!(
        by_parser + by_text_layer > 400,
        "the suite looks incomplete"
    );
}

#[test]
fn every_toml_1_0_valid_case_survives_insert_and_remove() {
    let Some(dir) = suite() else { return };
    let (mut exact, mut skipped) = (0, Vec::new());
    let mut failed = Vec::new();
    for case in cases(&dir, "valid") {
        let bytes = std::fs::read(dir.join(&case)).unwrap();
        let text = Text::decode(&bytes).expect("valid cases are UTF-8");
        let doc = TomlDoc::parse(&text.body)
            .unwrap_or_else(|e| panic!("{case}: a valid case is refused: {e:?}"));
        if doc.get(&[TABLE[0].to_owned()]).is_some() {
            skipped.push(case);
            continue;
        }
        match round_trip(&bytes) {
            Ok(()) => exact += 1,
            Err(why) => failed.push(format!("{case}: {why}")),
        }
    }
    eprintln!(
        "toml-test 1.0 valid: {exact} byte-exact, {} skipped (top level has `mcp_servers`: {skipped:?}), {} not exact",
        skipped.len(),
        failed.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    assert!(exact > 200, "the suite looks incomplete");
}

#[test]
fn every_codex_corpus_config_survives_insert_and_remove() {
    let Some(shared) = shared() else { return };
    let mut files: Vec<_> = std::fs::read_dir(shared.join("corpus/codex"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".config.toml"))
        .collect();
    files.sort();
    let mut failed = Vec::new();
    for f in &files {
        if let Err(why) = round_trip(&std::fs::read(f).unwrap()) {
            failed.push(format!("{}: {why}", f.display()));
        }
    }
    eprintln!(
        "corpus/codex: {} of {} config.toml files byte-exact",
        files.len() - failed.len(),
        files.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    assert!(!files.is_empty(), "no corpus files found");
}

#[test]
fn synthetic_fixtures_survive_insert_and_remove() {
    for text in [
        "",
        "\n",
        "# only a comment",
        "# one\n\n# two\n",
        "model = \"o3\"\r\n\r\n[mcp_servers.mine]\r\ncommand = \"x\"\r\n# eof\r\n",
        "model = \"o3\"\r\n[profiles.a]\r\nx = 1",
        "\u{feff}model = \"o3\"\n",
        "[mcp_servers.mine]\ncommand = \"x\"",
        "mcp_servers.mine.command = \"x\"\nmcp_servers.mine.args = []\n",
        "[mcp_servers]\nmine.command = \"x\"\n\n[other]\n",
        "s = \"\"\"\r\nkeeps\nmixed\r\n\"\"\"\r\n[mcp_servers.mine]\r\ncommand = \"x\"\r\n",
        "[[mcp_servers.mine.tools]]\nname = \"a\"\n\n# about b\n[b]\n",
    ] {
        if let Err(why) = round_trip(text.as_bytes()) {
            panic!("{text:?}: {why}");
        }
    }
}

#[test]
fn an_inline_parent_table_is_refused_and_the_file_kept() {
    let text = "mcp_servers = { mine = { command = \"x\" } }\n";
    let mut doc = TomlDoc::parse(text).unwrap();
    let e = doc.set_table(&table_path(), &server()).unwrap_err();
    assert!(e.to_string().contains("inline table"), "{e}");
    assert_eq!(doc.to_string(), text);
}
