//! Hostile input beyond JSONTestSuite: generated files with a few bytes
//! inserted, deleted or replaced (brackets, commas, quotes, slashes,
//! backslashes, line breaks, stray bytes), through the engine's reconcile
//! as strict JSON and as JSONC. Each mutant is either refused as the
//! user's error, pointing into the file, or accepted and then reconciled
//! exactly (apply, apply again, destroy); never a panic, and never an
//! internal error, which would mean the validator accepted text the span
//! scanner then misread.

use std::path::PathBuf;

use coffer::engine::reconcile::{Input, Retain, reconcile};
use coffer::error::Error;
use coffer::resource::{Claim, ClaimKind, Facet, Fragment, HookShape, Origin, Resource, Syntax};
use proptest::prelude::*;
use serde_json::json;

use crate::common::generate::{render, settings_document, style};

/// One edit of a file's bytes.
#[derive(Debug, Clone)]
enum Mutation {
    Insert(usize, u8),
    Delete(usize),
    Replace(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop::sample::select(b"{}[],:\"/*\\ \n\r\t0-e.tfnul#'\x00\xc3\xa9\xff".to_vec());
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Replace(i, b)),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let n = bytes.len();
        match *m {
            Mutation::Insert(i, b) => bytes.insert(i % (n + 1), b),
            Mutation::Delete(i) if n > 0 => {
                bytes.remove(i % n);
            }
            Mutation::Replace(i, b) if n > 0 => bytes[i % n] = b,
            _ => {}
        }
    }
    bytes
}

/// Reconcile `before` with coffer's hook entry at two events and an MCP
/// server (or with nothing).
fn run(
    before: &[u8],
    syntax: Syntax,
    install: bool,
    record: Option<&coffer::state::FileRecord>,
) -> Result<coffer::engine::reconcile::Outcome, Error> {
    let origin = Origin {
        agent: "test".into(),
        facet: Facet::Context,
    };
    let path = PathBuf::from("/h/settings.json");
    let resources: Vec<Resource> = ["SessionStart", "Stop"]
        .iter()
        .map(|e| {
            let entry = Fragment::ArrayEntry {
                array: vec!["hooks".into(), (*e).into()],
                value: json!({"hooks": [{"type": "command", "command": format!("coffer hook --event {e}")}]}),
            };
            Resource::new(origin.clone(), path.clone(), syntax, entry)
        })
        .chain(std::iter::once(Resource::new(
            Origin {
                agent: "test".into(),
                facet: Facet::Mcp,
            },
            path.clone(),
            syntax,
            Fragment::Member {
                parent: vec!["mcpServers".into()],
                name: "Coffer".into(),
                value: json!({"command": "coffer", "args": ["mcp"]}),
                item_key: None,
                adopt: false,
            },
        )))
        .collect();
    let claim = Claim {
        origin,
        path,
        syntax,
        kind: ClaimKind::HookEntries {
            parent: vec!["hooks".into()],
            shape: HookShape::MatcherGroups,
            program: vec!["coffer".into(), "hook".into()],
        },
    };
    let resources: Vec<&Resource> = if install {
        resources.iter().collect()
    } else {
        Vec::new()
    };
    reconcile(&Input {
        display: "~/settings.json",
        before: Some(before),
        syntax,
        resources: &resources,
        claims: &[&claim],
        record,
        retain: Retain::Nothing,
    })
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
    fn a_mutant_is_refused_or_reconciled_exactly(
        doc in settings_document(),
        jsonc in any::<bool>(),
        style in any::<bool>().prop_flat_map(style),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let syntax = if jsonc { Syntax::Jsonc } else { Syntax::Json };
        let original = mutate(render(&doc, &style).into_bytes(), &mutations);
        match run(&original, syntax, true, None) {
            Err(Error::Target(located)) => {
                prop_assert!(located.message.starts_with("~/settings.json:"), "{}", located.message);
            }
            Err(other) => {
                return Err(TestCaseError::fail(format!(
                    "not a user error: {other}\n{}",
                    String::from_utf8_lossy(&original)
                )));
            }
            Ok(applied) => {
                let installed = applied.after.expect("the file stays");
                let again = run(&installed, syntax, true, applied.record.as_ref()).unwrap();
                prop_assert_eq!(again.after.as_deref(), Some(installed.as_slice()));
                let destroyed = run(&installed, syntax, false, again.record.as_ref()).unwrap();
                prop_assert_eq!(
                    String::from_utf8_lossy(destroyed.after.as_deref().unwrap()),
                    String::from_utf8_lossy(&original)
                );
            }
        }
    }
}
