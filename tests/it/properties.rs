//! Properties over generated files, run through the engine on an in-memory
//! file system: apply is idempotent, destroy∘apply is the identity on
//! bytes, and foreign entries survive apply. The files (common::generate) have
//! random whitespace in every place JSON allows it, random key order,
//! tabs or spaces, LF or CRLF, BOMs, minified and one-line containers.

use std::path::{Path, PathBuf};

use coffer::desired::DesiredFile;
use coffer::engine::{self, Mode};
use coffer::env::Env;
use coffer::fsys::{Fs, MemFs};
use proptest::prelude::*;

use crate::common::generate::{FOREIGN_COMMANDS, J, render, settings_document, style};

const HOME: &str = "/h";
const TARGETS: [&str; 3] = [
    "/h/.claude/settings.json",
    "/h/.codex/hooks.json",
    "/h/.cursor/hooks.json",
];

fn desired(events: &[&str]) -> DesiredFile {
    let list = events.join(", ");
    let text = format!(
        "version: 1\nagents:\n  claude-code:\n    context:\n      events: [{list}]\n  codex:\n    context:\n      events: [{list}]\n  cursor:\n    context:\n      events: [{list}]\n"
    );
    coffer::desired::parse(Path::new("coffer.yaml"), text).unwrap()
}

fn run(fs: &MemFs, env: &Env, file: &DesiredFile, mode: Mode) -> bool {
    let plan = engine::plan(file, mode, env, fs).expect("plans");
    engine::apply(&plan, env, fs).expect("applies");
    plan.has_changes()
}

/// `"userEdit": 1, ` inserted just inside the top-level object.
fn user_edit(bytes: &[u8]) -> Vec<u8> {
    let at = bytes.iter().position(|b| *b == b'{').unwrap() + 1;
    [&bytes[..at], b"\"userEdit\": 1, ", &bytes[at..]].concat()
}

fn events() -> impl Strategy<Value = Vec<&'static str>> {
    prop::sample::subsequence(
        vec![
            "session-start",
            "user-prompt-submit",
            "pre-tool-use",
            "post-tool-use",
            "stop",
            "pre-compact",
        ],
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn apply_is_idempotent_and_destroy_is_its_exact_inverse(
        docs in prop::collection::vec(prop::option::of((settings_document(), style(false))), 3),
        evs in events(),
        user_edits in any::<bool>(),
    ) {
        let fs = MemFs::with_dirs(&["/h/.claude", "/h/.codex", "/h/.cursor"]);
        let env = Env::for_home(HOME);
        let mut originals = Vec::new();
        for (path, doc) in TARGETS.iter().zip(&docs) {
            let bytes = doc.as_ref().map(|(j, s)| render(j, s).into_bytes());
            if let Some(b) = &bytes {
                fs.put(Path::new(path), b);
            }
            let has_members = matches!(doc, Some((J::Obj(m, _), _)) if !m.is_empty());
            originals.push((PathBuf::from(path), bytes, has_members));
        }
        let file = desired(&evs);

        prop_assert!(run(&fs, &env, &file, Mode::Apply), "the first apply changes something");
        let applied = fs.files();
        for (path, before, _) in &originals {
            let after = String::from_utf8(applied[path].clone()).unwrap();
            if let Some(before) = before {
                for cmd in FOREIGN_COMMANDS {
                    let quoted = serde_json::to_string(cmd).unwrap();
                    let n_before = String::from_utf8_lossy(before).matches(&quoted).count();
                    prop_assert_eq!(after.matches(&quoted).count(), n_before, "foreign entry {} lost in {:?}", cmd, path);
                }
            }
            prop_assert!(serde_json::from_str::<serde_json::Value>(after.trim_start_matches('\u{feff}')).is_ok(), "invalid JSON written:\n{}", after);
        }

        let second = engine::plan(&file, Mode::Apply, &env, &fs).unwrap();
        prop_assert!(!second.has_changes(), "second plan not empty: {:?}", second.files.iter().map(|f| &f.display).collect::<Vec<_>>());

        // The user adds a member at the top of a file that had some, where
        // it needs a comma either way; destroy must keep exactly that.
        if user_edits {
            for (path, before, has_members) in &mut originals {
                if let (Some(before), true) = (before, *has_members) {
                    fs.put(path, &user_edit(&fs.read(path).unwrap().unwrap()));
                    *before = user_edit(before);
                }
            }
        }
        run(&fs, &env, &file, Mode::Destroy);
        for (path, before, _) in &originals {
            let now = fs.read(path).unwrap();
            prop_assert_eq!(
                now.as_deref().map(String::from_utf8_lossy),
                before.as_deref().map(String::from_utf8_lossy),
                "destroy did not restore {:?}", path
            );
        }
    }

    #[test]
    fn changing_the_desired_events_then_destroying_restores_bytes(
        doc in settings_document(),
        st in style(false),
        first in events(),
        second in events(),
    ) {
        let fs = MemFs::with_dirs(&["/h/.claude", "/h/.codex", "/h/.cursor"]);
        let env = Env::for_home(HOME);
        let original = render(&doc, &st).into_bytes();
        for p in TARGETS {
            fs.put(Path::new(p), &original);
        }
        run(&fs, &env, &desired(&first), Mode::Apply);
        run(&fs, &env, &desired(&second), Mode::Apply);
        prop_assert!(!engine::plan(&desired(&second), Mode::Apply, &env, &fs).unwrap().has_changes());
        run(&fs, &env, &desired(&second), Mode::Destroy);
        for p in TARGETS {
            prop_assert_eq!(
                String::from_utf8_lossy(&fs.read(Path::new(p)).unwrap().unwrap()).into_owned(),
                String::from_utf8_lossy(&original).into_owned(),
                "{}", p
            );
        }
    }
}
