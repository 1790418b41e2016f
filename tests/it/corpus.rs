//! Real users' files (../shared/corpus), each placed at its agent's path in
//! a throwaway home: install then destroy gives back the original bytes, a
//! second apply changes nothing, and an edit the user makes in between
//! survives the destroy.
//!
//! The corpus is read from ../shared at test time, never copied into the
//! repository (its licences vary); without it these tests skip loudly.

use std::path::{Path, PathBuf};

use crate::common::{install_destroy_exact, shared, user_edit_survives};

/// The files of `folder` whose names end in `suffix`, sorted.
fn files(corpus: &Path, folder: &str, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus.join(folder))
        .unwrap_or_else(|e| panic!("corpus folder {folder}: {e}"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    out.sort();
    out
}

/// Run every file of a folder at `rel`; fail listing every file that is
/// not exact, after reporting the count.
fn check_folder(folder: &str, suffix: &str, rel: &str, expected_files: usize) {
    let Some(shared) = shared() else { return };
    let files = files(&shared.join("corpus"), folder, suffix);
    assert_eq!(
        files.len(),
        expected_files,
        "corpus/{folder} changed: update the expected count"
    );
    let mut failures = Vec::new();
    for path in &files {
        let original = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        if let Err(e) = install_destroy_exact(rel, &original) {
            failures.push(format!("{name}: {e}"));
        } else if let Err(e) = user_edit_survives(rel, &original) {
            failures.push(format!("{name}: {e}"));
        }
    }
    eprintln!(
        "corpus/{folder}: {}/{} files exact at ~/{rel}",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn claude_settings_are_exact() {
    check_folder("claude-settings", ".json", ".claude/settings.json", 15);
}

#[test]
fn cursor_hooks_are_exact() {
    check_folder("cursor-hooks", ".json", ".cursor/hooks.json", 7);
}

#[test]
fn codex_hooks_are_exact() {
    check_folder("codex", ".hooks.json", ".codex/hooks.json", 3);
}
