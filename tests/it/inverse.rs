//! The exact inverse, asserted on bytes: destroy after apply gives every
//! file back as it was, whatever else is in it.

use std::os::unix::fs::PermissionsExt;

use crate::common::{THREE_AGENTS, TestEnv};

const CLAUDE: &str = r#"{
  "permissions": {
    "allow": ["Bash(ls)"]
  },
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/guard.sh"}]}
    ]
  }
}
"#;

const CURSOR: &str = "{\n\t\"version\": 1,\n\t\"hooks\": {\n\t\t\"stop\": [\n\t\t\t{ \"command\": \"./audit.sh\" }\n\t\t]\n\t}\n}";

const CODEX: &str = "{\r\n    \"hooks\": {}\r\n}\r\n";

fn three_files(env: &TestEnv) {
    env.put(".claude/settings.json", CLAUDE);
    env.put(".cursor/hooks.json", CURSOR);
    env.put(".codex/hooks.json", CODEX);
}

#[test]
fn destroy_after_apply_restores_every_byte() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    three_files(&env);
    let before = env.tree();
    env.apply();
    let claude = String::from_utf8(env.read(".claude/settings.json").unwrap()).unwrap();
    assert!(claude.contains(
        r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/guard.sh"}]}"#
    ));
    let cursor = String::from_utf8(env.read(".cursor/hooks.json").unwrap()).unwrap();
    assert!(cursor.contains("{ \"command\": \"./audit.sh\" },\n\t\t\t{\n\t\t\t\t\"command\": \"coffer hook --dialect cursor --event stop\"\n\t\t\t}"), "{cursor}");
    let codex = String::from_utf8(env.read(".codex/hooks.json").unwrap()).unwrap();
    assert!(
        codex.contains("\r\n        \"SessionStart\": [\r\n"),
        "{codex:?}"
    );
    assert!(
        !codex.replace("\r\n", "").contains('\n'),
        "CRLF file got a bare LF: {codex:?}"
    );
    env.destroy();
    assert_eq!(env.tree(), before);
}

#[test]
fn created_files_and_folders_are_deleted_again() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put("notes.txt", "mine");
    let before = env.tree();
    env.apply();
    assert!(env.exists(".cursor/hooks.json") && env.exists(".codex/hooks.json"));
    env.destroy();
    assert_eq!(env.tree(), before);
}

#[test]
fn cursor_version_stays_beside_a_hook_the_user_added() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  cursor:\n    context: {}\n");
    env.apply();
    let added = String::from_utf8(env.read(".cursor/hooks.json").unwrap())
        .unwrap()
        .replace("\"sessionStart\": [", "\"afterFileEdit\": [\n      {\n        \"command\": \"fmt.sh\"\n      }\n    ],\n    \"sessionStart\": [");
    env.put(".cursor/hooks.json", &added);
    env.destroy();
    let after = String::from_utf8(
        env.read(".cursor/hooks.json")
            .expect("the user's hook keeps the file"),
    )
    .unwrap();
    assert_eq!(
        after,
        "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [\n      {\n        \"command\": \"fmt.sh\"\n      }\n    ]\n  }\n}\n"
    );
}

#[test]
fn user_edits_between_apply_and_destroy_survive() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(".claude/settings.json", CLAUDE);
    env.apply();
    let edited = String::from_utf8(env.read(".claude/settings.json").unwrap())
        .unwrap()
        .replace("\"Bash(ls)\"", "\"Bash(ls)\", \"Bash(pwd)\"");
    env.put(".claude/settings.json", &edited);
    env.destroy();
    assert_eq!(
        env.read(".claude/settings.json").unwrap(),
        CLAUDE
            .replace("\"Bash(ls)\"", "\"Bash(ls)\", \"Bash(pwd)\"")
            .as_bytes()
    );
}

#[test]
fn dropping_an_agent_from_the_desired_file_takes_its_entries_out() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(".claude/settings.json", CLAUDE);
    env.apply();
    env.desired("version: 1\nagents:\n  codex:\n    context: {}\n  cursor:\n    context:\n      events: [session-start, stop]\n");
    let r = env.apply();
    assert!(
        r.stdout.contains("0 to add, 0 to change, 1 to remove"),
        "{}",
        r.stdout
    );
    assert_eq!(
        env.read(".claude/settings.json").unwrap(),
        CLAUDE.as_bytes()
    );
}

#[test]
fn changing_events_and_program_updates_in_place() {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nagents:\n  cursor:\n    context:\n      events: [session-start, stop]\n",
    );
    env.apply();
    env.desired("version: 1\nhook:\n  command: /opt/coffer/bin/coffer hook\nagents:\n  cursor:\n    context:\n      events: [stop, pre-compact]\n");
    let r = env.apply();
    insta::assert_snapshot!(r.snapshot());
    env.destroy();
    assert!(!env.exists(".cursor"));
}

#[test]
fn a_lost_ledger_still_takes_coffers_entries_out() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(".claude/settings.json", CLAUDE);
    env.apply();
    std::fs::remove_dir_all(env.root.join("state")).unwrap();
    env.destroy();
    let claude = String::from_utf8(env.read(".claude/settings.json").unwrap()).unwrap();
    assert!(!claude.contains("coffer"), "{claude}");
    assert!(claude.contains("guard.sh"));
}

#[test]
fn symlinked_settings_are_written_through_the_link() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    context: {}\n");
    let repo = env.root.join("dotfiles/settings.json");
    std::fs::create_dir_all(repo.parent().unwrap()).unwrap();
    std::fs::write(&repo, CLAUDE).unwrap();
    std::fs::create_dir_all(env.home.join(".claude")).unwrap();
    std::os::unix::fs::symlink(&repo, env.home.join(".claude/settings.json")).unwrap();
    env.apply();
    let link = env.home.join(".claude/settings.json");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&repo)
            .unwrap()
            .contains("coffer hook")
    );
    env.destroy();
    assert_eq!(std::fs::read(&repo).unwrap(), CLAUDE.as_bytes());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn file_mode_is_kept() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    context: {}\n");
    let p = env.put(".claude/settings.json", CLAUDE);
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
    env.apply();
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn a_broken_target_stops_the_whole_plan() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(".cursor/hooks.json", "{\"version\": 1, \"hooks\": {\n");
    let before = env.tree();
    let r = env.run(&["apply", "--auto-approve"]);
    assert_eq!(r.code, 1);
    assert_eq!(env.tree(), before, "nothing written anywhere");
    assert!(
        r.stderr.contains("~/.cursor/hooks.json:1:26"),
        "{}",
        r.stderr
    );
}

#[test]
fn read_only_files_and_folders_stop_the_apply_before_any_write() {
    for read_only_folder in [false, true] {
        let env = TestEnv::new();
        env.desired(THREE_AGENTS);
        let p = env.put(".cursor/hooks.json", "{\"version\": 1}\n");
        let locked = if read_only_folder {
            env.home.join(".cursor")
        } else {
            p.clone()
        };
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        let before = env.tree();
        let r = env.run(&["apply", "--auto-approve"]);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(r.code, 1, "{}", r.snapshot());
        assert!(r.stderr.contains("is read-only"), "{}", r.stderr);
        assert_eq!(env.tree(), before, "nothing written anywhere");
    }
}
