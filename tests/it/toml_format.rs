//! The TOML editor against the public toml-test suite and the corpus of
//! real Codex configs in `../shared`, read in place (never copied here).
//! Every comparison is on bytes.

use std::path::{Path, PathBuf};

use coffer::formats::text::Text;
use coffer::formats::toml::TomlDoc;
use proptest::prelude::*;
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
fn every_invalid_case_is_refused_with_an_offset() {
    let Some(dir) = suite() else { return };
    let v10 = cases(&dir, "invalid");
    // The cases outside the 1.0 list (TOML 1.1's) are invalid in 1.0 too.
    let mut all = Vec::new();
    toml_files(&dir.join("invalid"), &mut all);
    let (mut by_text_layer, mut by_parser) = (0, 0);
    let mut accepted = Vec::new();
    for file in &all {
        let case = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(file).unwrap();
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
        "toml-test invalid: {} cases ({} in the 1.0 list); {} refused ({by_parser} by the TOML \
         parser, {by_text_layer} as not UTF-8 by the text layer), {} accepted",
        all.len(),
        v10.len(),
        by_parser + by_text_layer,
        accepted.len()
    );
    assert!(accepted.is_empty(), "accepted invalid cases: {accepted:#?}");
    assert!(
        all.len() >= v10.len() && v10.len() > 400,
        "the suite looks incomplete"
    );
}

/// Every `valid/**/*.toml`. The cases of the 1.0 list must all parse and
/// round-trip; the 1.1-only cases either use 1.1 syntax, which coffer
/// refuses on purpose (see `formats/toml/strict.rs`), or must round-trip too.
#[test]
fn every_valid_case_survives_insert_and_remove() {
    let Some(dir) = suite() else { return };
    let v10 = cases(&dir, "valid");
    let mut all = Vec::new();
    toml_files(&dir.join("valid"), &mut all);
    all.sort();
    let (mut exact, mut skipped, mut v11_refused) = (0, Vec::new(), Vec::new());
    let mut failed = Vec::new();
    for file in &all {
        let case = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(file).unwrap();
        let text = Text::decode(&bytes).expect("valid cases are UTF-8");
        let doc = match TomlDoc::parse(&text.body) {
            Ok(doc) => doc,
            Err(e) if !v10.contains(&case) && e.message.contains("TOML 1.1") => {
                v11_refused.push(case);
                continue;
            }
            Err(e) => panic!("{case}: a valid case is refused: {e:?}"),
        };
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
        "toml-test valid: {} cases ({} in the 1.0 list); {exact} byte-exact, {} not exact, \
         {} skipped (top level has `mcp_servers`: {skipped:?}), \
         {} refused as TOML 1.1 syntax: {v11_refused:?}",
        all.len(),
        v10.len(),
        failed.len(),
        skipped.len(),
        v11_refused.len(),
    );
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    assert!(exact >= v10.len(), "the suite looks incomplete");
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "toml") {
            out.push(p);
        }
    }
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

/// One line (or a few) of a generated document; `{k}` becomes a fresh key.
const BODY_LINES: [&str; 10] = [
    "",
    "# a comment",
    "  # an indented comment",
    "{k} = 1",
    "{k} = \"s\" # trailing comment",
    "{k} = [\n  1,\n  2, # two\n]",
    "{k} = \"\"\"\n\n# not a comment\n[not.a.header]\n\"\"\"",
    "{k} = { a = 1, b = { c = [2] } }",
    "{k}.dotted = 2",
    "'{k}' = 1979-05-27T07:32:00Z",
];

const HEADERS: [&str; 8] = [
    "[mcp_servers.mine]",
    "[mcp_servers.mine.env]",
    "[mcp_servers.other] # theirs",
    "[profiles.p]",
    "[model_providers.x]",
    "[[hooks]]",
    "[ mcp_servers . \"spaced\" ]",
    "[a]",
];

/// Root lines, then tables, each a header and body lines.
fn document() -> impl Strategy<Value = (Vec<usize>, Vec<(usize, Vec<usize>)>)> {
    let lines = || prop::collection::vec(0..BODY_LINES.len(), 0..5);
    (
        lines(),
        prop::collection::vec((0..HEADERS.len(), lines()), 0..5),
    )
}

fn render_document(
    root: &[usize],
    tables: &[(usize, Vec<usize>)],
    crlf: bool,
    final_newline: bool,
    bom: bool,
) -> String {
    let mut n = 0;
    let mut lines = Vec::new();
    let mut body = |lines: &mut Vec<String>, ids: &[usize]| {
        for &i in ids {
            n += 1;
            lines.push(BODY_LINES[i].replace("{k}", &format!("k{n}")));
        }
    };
    body(&mut lines, root);
    for (h, ids) in tables {
        lines.push(HEADERS[*h].to_owned());
        body(&mut lines, ids);
    }
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut text = lines.join("\n").replace('\n', eol);
    if final_newline && !text.is_empty() {
        text.push_str(eol);
    }
    if bom {
        text.insert(0, '\u{feff}');
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// remove ∘ set_table is the identity on bytes, and set_table is
    /// idempotent, for generated documents (those that are valid TOML).
    #[test]
    fn insert_then_remove_is_the_identity(
        (root, tables) in document(),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        bom in prop::bool::weighted(0.1),
    ) {
        let text = render_document(&root, &tables, crlf, final_newline, bom);
        let body = text.trim_start_matches('\u{feff}');
        prop_assume!(TomlDoc::parse(body).is_ok());
        if let Err(why) = round_trip(text.as_bytes()) {
            return Err(TestCaseError::fail(format!("{text:?}: {why}")));
        }
    }
}
