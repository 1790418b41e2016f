//! JSONC at the editor level: no built-in agent's hooks file is JSONC yet
//! (opencode.jsonc and VS Code's mcp.json come with the MCP facet), so the
//! splice editor itself is driven here the way the engine drives it.
//!
//! - A property over generated JSONC text with comments in every position
//!   a comment can stand, trailing commas, blank lines, tabs or spaces, LF
//!   or CRLF: inserting entries and members at random paths (into existing
//!   containers, empty ones, and containers that do not exist yet) gives
//!   valid JSONC holding exactly the new items, and taking them out again
//!   the way the engine does (created containers removed, expanded empty
//!   ones given their old inside back) restores every byte.
//! - The engine's reconcile of one file (the code plan runs per file), on
//!   generated JSONC settings holding other tools' hooks and on the JSONC
//!   corpus, as a test-only JSONC hooks resource: apply, apply again
//!   (nothing changes), destroy (every byte back).
//! - The JSONC files of the corpus, at every object path they have.
//! - The deliberately broken corpus file is refused with its position.

use std::path::{Path, PathBuf};

use coffer::engine::reconcile::{Input, Retain, reconcile};
use coffer::formats::json::edit::{Inserted, JsonDoc};
use coffer::formats::json::validate::{blank_comments_and_trailing_commas, validate};
use coffer::formats::text::Text;
use coffer::resource::{Claim, ClaimKind, Facet, Fragment, HookShape, Origin, Resource, Syntax};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common::generate::{
    FOREIGN_COMMANDS, J, layout, members, render, settings_document, style, value,
};
use crate::common::shared;

/// A JSONC document whose keys are short, so that paths collide often.
fn document() -> impl Strategy<Value = J> {
    let key = || "[a-z]{1,3}";
    (members(key(), value(key()), 0..5), layout()).prop_map(|(m, l)| J::Obj(m, l))
}

// ---------------------------------------------------------------------------
// Edits, made and undone the way the engine makes and undoes them

#[derive(Debug, Clone)]
enum Op {
    Append {
        array: Vec<String>,
        value: Value,
    },
    Member {
        object: Vec<String>,
        key: String,
        value: Value,
    },
}

/// Choose an edit in `doc` from the choice bytes. Keys the edit creates
/// are upper case and numbered by `n`, so they collide with nothing.
fn choose(doc: &J, choices: &[u8], n: usize) -> Op {
    let values = [
        json!({"command": "coffer hook --event x"}),
        json!("text"),
        json!({"a": [1, {"b": null}], "c": {}}),
        json!([]),
        json!({}),
    ];
    let value = values[choices[0] as usize % values.len()].clone();
    let new = |i: usize| format!("New{n}x{i}");
    let mut path: Vec<String> = Vec::new();
    let mut node = doc;
    for c in &choices[1..] {
        let J::Obj(members, _) = node else {
            unreachable!("only objects are walked")
        };
        let objects: Vec<&(String, J)> = members
            .iter()
            .filter(|(_, v)| matches!(v, J::Obj(..)))
            .collect();
        let arrays: Vec<&(String, J)> = members
            .iter()
            .filter(|(_, v)| matches!(v, J::Arr(..)))
            .collect();
        let pick = *c as usize / 8;
        match c % 8 {
            0 | 1 if !objects.is_empty() => {
                let (k, v) = objects[pick % objects.len()];
                path.push(k.clone());
                node = v;
                continue;
            }
            2 | 3 if !arrays.is_empty() => {
                path.push(arrays[pick % arrays.len()].0.clone());
                return Op::Append { array: path, value };
            }
            4 => {
                // An array that does not exist yet, maybe in a new object.
                path.extend((0..pick % 3).map(new));
                path.push(new(9));
                return Op::Append { array: path, value };
            }
            5 => {
                path.extend((0..pick % 2).map(new));
                return Op::Member {
                    object: path,
                    key: new(8),
                    value,
                };
            }
            _ => {
                return Op::Member {
                    object: path,
                    key: new(8),
                    value,
                };
            }
        }
    }
    Op::Member {
        object: path,
        key: new(8),
        value,
    }
}

fn apply(doc: &mut JsonDoc, op: &Op) -> Inserted {
    match op {
        Op::Append { array, value } => doc.append_to_array(array, value),
        Op::Member { object, key, value } => doc.insert_member(object, key, value),
    }
    .unwrap_or_else(|e| panic!("{op:?} failed: {e}\n{}", doc.text()))
}

/// Take out what `op` inserted, as the engine does: the outermost container
/// the insertion created, else the item itself; then give an empty
/// container it expanded its old inside back.
fn undo(doc: &mut JsonDoc, op: &Op, ins: &Inserted) {
    if let Some(created) = ins.created.first() {
        let (parent, key) = created.split_at(created.len() - 1);
        let c = doc.container(parent, true).unwrap().expect("parent");
        let (i, _) = c.member(&key[0]).expect("created member");
        doc.remove_item(parent, true, i).unwrap();
    } else {
        let Op::Append { array, .. } = op else {
            unreachable!("a member insertion always creates its member")
        };
        let c = doc.container(array, false).unwrap().expect("array");
        doc.remove_item(array, false, c.items.len() - 1).unwrap();
    }
    if let Some(e) = &ins.expanded {
        let c = doc
            .container(&e.path, e.is_object)
            .unwrap()
            .expect("expanded");
        let inner = doc.slice(c.open + 1..c.close).to_owned();
        if c.items.is_empty() && inner != e.inner && doc.same_but_whitespace(&inner, &e.inner) {
            doc.set_inner(&e.path, e.is_object, &e.inner).unwrap();
        }
    }
}

/// The value of JSONC text.
fn value_of(text: &str) -> Value {
    serde_json::from_str(&blank_comments_and_trailing_commas(text).unwrap()).unwrap()
}

/// `v` with `op` applied, for checking what the editor did.
fn expected(mut v: Value, op: &Op) -> Value {
    let (path, last) = match op {
        Op::Append { array, .. } => (array.as_slice(), None),
        Op::Member { object, key, .. } => (object.as_slice(), Some(key)),
    };
    let mut at = &mut v;
    for (i, k) in path.iter().enumerate() {
        let fresh = if i + 1 == path.len() && last.is_none() {
            json!([])
        } else {
            json!({})
        };
        at = at
            .as_object_mut()
            .unwrap()
            .entry(k.clone())
            .or_insert(fresh);
    }
    match op {
        Op::Append { value, .. } => at.as_array_mut().unwrap().push(value.clone()),
        Op::Member { key, value, .. } => {
            at.as_object_mut()
                .unwrap()
                .insert(key.clone(), value.clone());
        }
    }
    v
}

/// Make the edits one after another on one document (as one apply does),
/// then undo them, last first, on the re-read file (as a later destroy
/// does), both behind the text layer. Returns the file in between.
fn round_trip(original: &[u8], ops: &[Op]) -> Result<String, TestCaseError> {
    let text = Text::decode(original).unwrap();
    validate(&text.body, true).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let mut doc = JsonDoc::new(text.body.clone(), true).unwrap();
    let mut want = value_of(&text.body);
    let mut inserted = Vec::new();
    for op in ops {
        inserted.push(apply(&mut doc, op));
        want = expected(want, op);
    }
    let installed = text.splice_result(doc.text());
    let text = Text::decode(&installed).unwrap();
    prop_assert!(
        validate(&text.body, true).is_ok(),
        "invalid JSONC after {ops:?}:\n{}",
        text.body
    );
    prop_assert_eq!(value_of(&text.body), want, "{}", text.body);

    let mut doc = JsonDoc::new(text.body.clone(), true).unwrap();
    for (op, ins) in ops.iter().zip(&inserted).rev() {
        undo(&mut doc, op, ins);
    }
    let back = text.splice_result(doc.text());
    prop_assert_eq!(
        String::from_utf8_lossy(&back),
        String::from_utf8_lossy(original),
        "not restored after {:?}\n--- installed\n{}",
        ops,
        text.body
    );
    Ok(String::from_utf8(installed).unwrap())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn inserts_are_valid_and_their_removal_restores_every_byte(
        doc in document(),
        style in style(true),
        choices in prop::collection::vec(prop::collection::vec(any::<u8>(), 6), 1..4),
    ) {
        let text = render(&doc, &style);
        let ops: Vec<Op> = choices
            .iter()
            .enumerate()
            .map(|(n, c)| choose(&doc, c, n))
            .collect();
        let installed = round_trip(text.as_bytes(), &ops)?;
        if text.contains("\r\n") && !text.replace("\r\n", "").contains('\n') {
            prop_assert!(
                !installed.replace("\r\n", "").contains('\n'),
                "a bare LF in a CRLF file:\n{installed:?}"
            );
        }
        // Indentation is well defined only in a tidy file: random trivia
        // make up layouts (a tab, then a space, then a key) no style rule
        // can follow.
        let body = text.trim_start_matches('\u{feff}');
        let starts = |c: char| body.lines().any(|l| l.starts_with(c));
        if style.trivia.is_empty() && starts('\t') && !starts(' ') {
            prop_assert!(
                !installed.lines().any(|l| l.starts_with(' ') && !text.contains(l)),
                "a new line indented with spaces in a tab file:\n{installed}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The engine's reconcile on a JSONC hooks file

/// coffer's hook entries at `events` of a JSONC file shaped like Claude's
/// settings and an MCP server beside them, and the claim that lets coffer
/// find its hook entries again (members it finds through the record).
fn jsonc_hooks(events: &[&str]) -> (Vec<Resource>, Claim) {
    let origin = Origin {
        agent: "test-jsonc".into(),
        facet: Facet::Context,
    };
    let path = PathBuf::from("/h/settings.jsonc");
    let resources = events
        .iter()
        .map(|e| Resource::new(origin.clone(), path.clone(), Syntax::Jsonc, Fragment::ArrayEntry {
                array: vec!["hooks".into(), (*e).into()],
                value: json!({"hooks": [{"type": "command", "command": format!("coffer hook --event {e}")}]}),
            }))
        .chain(std::iter::once(Resource::new(Origin {
                agent: "test-jsonc".into(),
                facet: Facet::Mcp,
            }, path.clone(), Syntax::Jsonc, Fragment::Member {
                parent: vec!["mcpServers".into()],
                name: "Coffer".into(),
                value: json!({"command": "coffer", "args": ["mcp"], "env": {}}),
                item_key: None,
                adopt: false,
            })))
        .collect();
    let claim = Claim {
        origin,
        path,
        syntax: Syntax::Jsonc,
        kind: ClaimKind::HookEntries {
            parent: vec!["hooks".into()],
            shape: HookShape::MatcherGroups,
            program: vec!["coffer".into(), "hook".into()],
        },
    };
    (resources, claim)
}

/// Apply, apply again, destroy, through the engine's reconcile of one file.
fn engine_round_trip(original: &[u8], events: &[&str]) -> Result<Vec<u8>, TestCaseError> {
    let (resources, claim) = jsonc_hooks(events);
    let resources: Vec<&Resource> = resources.iter().collect();
    let claims = [&claim];
    let run = |before: &[u8], resources: &[&Resource], record| {
        reconcile(&Input {
            display: "~/settings.jsonc",
            before: Some(before),
            syntax: Syntax::Jsonc,
            resources,
            claims: &claims,
            record,
            retain: Retain::Nothing,
        })
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let applied = run(original, &resources, None);
    let installed = applied.after.expect("the file stays");
    let body = Text::decode(&installed).unwrap().body;
    prop_assert!(validate(&body, true).is_ok(), "invalid JSONC:\n{}", body);
    for cmd in FOREIGN_COMMANDS {
        let quoted = serde_json::to_string(cmd).unwrap();
        let count = |b: &[u8]| String::from_utf8_lossy(b).matches(&quoted).count();
        prop_assert_eq!(count(&installed), count(original), "{} lost", cmd);
    }

    let again = run(&installed, &resources, applied.record.as_ref());
    prop_assert_eq!(
        String::from_utf8_lossy(again.after.as_deref().unwrap()),
        String::from_utf8_lossy(&installed),
        "a second apply changed the file"
    );
    prop_assert!(again.changes.is_empty());

    let destroyed = run(&installed, &[], again.record.as_ref());
    prop_assert_eq!(
        String::from_utf8_lossy(destroyed.after.as_deref().unwrap()),
        String::from_utf8_lossy(original),
        "destroy did not restore the file\n--- installed\n{}",
        body
    );
    prop_assert!(
        destroyed.record.is_none(),
        "the record outlived the entries"
    );
    Ok(installed)
}

fn events() -> impl Strategy<Value = Vec<&'static str>> {
    prop::sample::subsequence(
        vec!["SessionStart", "Stop", "PreToolUse", "Notification"],
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_engine_reconciles_jsonc_exactly(
        doc in settings_document(),
        style in style(true),
        events in events(),
    ) {
        engine_round_trip(render(&doc, &style).as_bytes(), &events)?;
    }
}

// ---------------------------------------------------------------------------
// The JSONC corpus

/// Every JSONC file of the corpus, with the broken one apart.
fn corpus() -> Option<Vec<PathBuf>> {
    let corpus = shared()?.join("corpus");
    let mut out = Vec::new();
    for folder in ["jsonc-edge", "opencode", "mcp-json"] {
        for e in std::fs::read_dir(corpus.join(folder)).unwrap().flatten() {
            out.push(e.path());
        }
    }
    out.sort();
    Some(out)
}

/// The one file SOURCES.md calls malformed: its object is never closed.
const BROKEN: &str = "02-0gis0-mcp-sampling.vscode-mcp.json";

/// Every object path of a JSON value (the root is `[]`).
fn object_paths(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let Value::Object(m) = v {
        out.push(path.clone());
        for (k, child) in m {
            path.push(k.clone());
            object_paths(child, path, out);
            path.pop();
        }
    }
}

/// At every object of every file: a new member, a new array entry in a
/// new array, and an entry appended to each existing array.
#[test]
fn corpus_files_round_trip_at_every_path() {
    let Some(files) = corpus() else { return };
    assert_eq!(files.len(), 29, "the corpus changed");
    let mut edits = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        if name == BROKEN {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let mut paths = Vec::new();
        object_paths(&value_of(&text), &mut Vec::new(), &mut paths);
        for object in paths {
            let mut ops = vec![
                Op::Member {
                    object: object.clone(),
                    key: "NewMember".into(),
                    value: json!({"command": "coffer", "args": ["x"]}),
                },
                Op::Append {
                    array: [object.clone(), vec!["NewArray".into()]].concat(),
                    value: json!("entry"),
                },
            ];
            let Value::Object(m) = object.iter().fold(value_of(&text), |v, k| v[k].clone()) else {
                unreachable!()
            };
            for (k, v) in &m {
                if v.is_array() {
                    ops.push(Op::Append {
                        array: [object.clone(), vec![k.clone()]].concat(),
                        value: json!({"command": "coffer"}),
                    });
                }
            }
            for op in &ops {
                round_trip(text.as_bytes(), std::slice::from_ref(op))
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                edits += 1;
            }
            round_trip(text.as_bytes(), &ops)
                .unwrap_or_else(|e| panic!("{name}, all at once: {e}"));
        }
        engine_round_trip(text.as_bytes(), &["SessionStart", "Stop"])
            .unwrap_or_else(|e| panic!("{name}, through the engine: {e}"));
    }
    eprintln!(
        "JSONC corpus: {} files exact over {edits} single edits",
        files.len() - 1
    );
}

#[test]
fn the_broken_corpus_file_is_refused_with_its_position() {
    let Some(shared) = shared() else { return };
    let path: &Path = &shared.join("corpus/jsonc-edge").join(BROKEN);
    let text = std::fs::read_to_string(path).unwrap();
    let e = validate(&text, true).expect_err("the file is broken");
    // The object is never closed: the error is right after the last token.
    assert_eq!(e.message, "EOF while parsing an object");
    assert_eq!(e.offset, text.trim_end().len(), "{e:?}");
}

/// The texts a strict target refuses are fine where the target is JSONC.
#[test]
fn jsonc_targets_accept_comments_and_trailing_commas() {
    for (what, text) in crate::fixtures::JSONC_ONLY {
        engine_round_trip(text.as_bytes(), &["SessionStart"])
            .unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

/// Synthetic JSONC files for what only JSONC has, each through the engine
/// at two events (one the file may have, one it lacks).
const FIXTURES: [(&str, &str); 14] = [
    (
        "comments before, inside and after",
        "// head\n/* block\n   comment */\n{\n  // inside, first\n  \"a\": 1, // after a\n  /* before b */ \"b\": [1, 2], // trailing\n  // inside, last\n}\n// tail\n",
    ),
    (
        "trailing commas everywhere",
        "{\n  \"a\": [\n    1,\n  ],\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]},\n    ],\n  },\n}\n",
    ),
    (
        "crlf with comments",
        "// head\r\n{\r\n  \"a\": 1, // one\r\n  \"b\": 2 /* two */\r\n}\r\n",
    ),
    ("bom with comments", "\u{feff}// head\n{\"a\": 1}\n"),
    (
        "tabs, comments and trailing commas",
        "{\n\t// tabs\n\t\"a\": {\n\t\t\"b\": 1,\n\t},\n}",
    ),
    (
        "hooks holding a block comment",
        "{\n  \"hooks\": { /* none yet */ }\n}\n",
    ),
    (
        "hooks holding a line comment",
        "{\n  \"hooks\": {\n    // none yet\n  }\n}\n",
    ),
    (
        "empty event arrays with comments",
        "{\n  \"hooks\": {\n    \"SessionStart\": [ // later\n    ],\n    \"Stop\": [/* later */],\n  },\n}\n",
    ),
    ("an empty object after a comment", "// nothing yet\n{}\n"),
    ("an empty object holding a comment", "{ /* nothing */ }"),
    (
        "one line with comments and a trailing comma",
        "{\"a\": 1 /* c */, \"b\": 2,} // end",
    ),
    ("minified with comments", "{/*c*/\"a\":1,\"b\":[1,2,],}"),
    (
        "a commented-out member after the last",
        "{\n  \"a\": 1,\n  // \"hooks\": {}\n}\n",
    ),
    (
        "comment markers inside strings",
        "{\n  \"url\": \"https://x.y/*z*/\", // real comment\n  \"glob\": \"src/**/*.ts\"\n}\n",
    ),
];

#[test]
fn every_jsonc_fixture_is_exact_through_the_engine() {
    for (name, text) in FIXTURES {
        let installed = engine_round_trip(text.as_bytes(), &["SessionStart", "Stop"])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let installed = String::from_utf8(installed).unwrap();
        crate::fixtures::follows_style(text, &installed).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    eprintln!(
        "synthetic JSONC fixtures: {}/{} exact",
        FIXTURES.len(),
        FIXTURES.len()
    );
}

/// New text in a JSONC file (a hook entry, an MCP server) copies its
/// trailing commas, with its tabs.
#[test]
fn new_text_copies_trailing_commas() {
    let installed = engine_round_trip(b"{\n\t// tabs\n\t\"a\": 1,\n}", &["Stop"]).unwrap();
    assert_eq!(
        String::from_utf8(installed).unwrap(),
        "{\n\t// tabs\n\t\"a\": 1,\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"coffer hook --event Stop\",\n\t\t\t\t\t},\n\t\t\t\t],\n\t\t\t},\n\t\t],\n\t},\n\t\"mcpServers\": {\n\t\t\"Coffer\": {\n\t\t\t\"command\": \"coffer\",\n\t\t\t\"args\": [\"mcp\"],\n\t\t\t\"env\": {},\n\t\t},\n\t},\n}"
    );
}
