//! What `apply` records for the hook, and the installed command running
//! end to end the way an agent runs it.

use std::process::{Command, Stdio};

use serde_json::Value;

use super::{quiet_stdout, state_dir};
use crate::common::TestEnv;

const DESIRED: &str = "version: 1
context:
  sources:
    - file: rules/house.md
agents:
  claude-code:
    context:
      events: [session-start, user-prompt-submit]
      per_prompt: true
      sources:
        - file: rules/extra-*.md
        - command: [./bin/provider, --flag]
          timeout_ms: 2000
        - url: http://127.0.0.1:7420/api/v1/agents/{agent}/session-context
  codex:
    context:
      session_note: false
";

fn setup(env: &TestEnv) {
    for (rel, text) in [
        ("rules/house.md", "House rule.\n"),
        ("rules/extra-1.md", "Extra.\n"),
        ("bin/provider", "#!/bin/sh\nexit 0\n"),
    ] {
        let p = env.work.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    env.desired(DESIRED);
}

fn settings_text(env: &TestEnv, dialect: &str) -> Option<String> {
    std::fs::read_to_string(state_dir(env).join(format!("hooks/{dialect}.json")))
        .ok()
        .map(|t| t.replace(env.root.to_str().unwrap(), "[ROOT]"))
}

#[test]
fn apply_records_resolved_settings_and_destroy_removes_them() {
    let env = TestEnv::new();
    setup(&env);
    env.apply();
    insta::assert_snapshot!("claude_settings", settings_text(&env, "claude").unwrap());
    let codex: Value = serde_json::from_str(&settings_text(&env, "codex").unwrap()).unwrap();
    assert_eq!(codex["session_note"], false);
    assert_eq!(
        codex["sources"].as_array().unwrap().len(),
        1,
        "the shared file"
    );
    assert!(settings_text(&env, "cursor").is_none());
    // Nothing changed: nothing to do.
    let r = env.run(&["plan", "--detailed-exitcode"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    // Dropping an agent drops its settings.
    env.desired(&DESIRED.replace("  codex:\n    context:\n      session_note: false\n", ""));
    let r = env.apply();
    assert!(
        r.stdout.contains("# coffer's hook settings for codex"),
        "{}",
        r.stdout
    );
    assert!(settings_text(&env, "codex").is_none());
    env.destroy();
    assert!(
        !state_dir(&env).join("hooks").exists(),
        "the empty folder goes too"
    );
}

#[test]
fn a_settings_change_alone_is_a_pending_change() {
    let env = TestEnv::new();
    setup(&env);
    env.apply();
    env.desired(&DESIRED.replace("per_prompt: true", "per_prompt: false"));
    let r = env.run(&["plan", "--detailed-exitcode"]);
    assert_eq!(r.code, 2, "{}", r.snapshot());
    insta::assert_snapshot!(r.snapshot(), @r"
    # coffer's hook settings for claude will be updated

    Plan: 0 to add, 0 to change, 0 to remove.
    [exit status: 2]
    ");
}

#[test]
fn source_mistakes_are_located_errors() {
    let cases = [
        ("- file: rules/missing.md", "no file at"),
        ("- command: [./bin/missing]", "no program at"),
        ("- command: []", "the command is empty"),
        ("- url: https://example.com/ctx", "not an http:// URL"),
        (
            "- file: rules/house.md\n          url: http://127.0.0.1:1/",
            "exactly one of",
        ),
        (
            "- file: rules/house.md\n          timeout_ms: 100",
            "a file source takes no limits",
        ),
    ];
    for (source, want) in cases {
        let env = TestEnv::new();
        setup(&env);
        env.desired(&format!(
            "version: 1\nagents:\n  claude-code:\n    context:\n      sources:\n        {source}\n"
        ));
        let r = env.run(&["plan"]);
        assert_eq!(r.code, 1, "{source}: {}", r.snapshot());
        assert!(
            r.stderr.contains("  × coffer.yaml:"),
            "{source}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(want), "{source}: {}", r.stderr);
    }
    let env = TestEnv::new();
    setup(&env);
    env.desired("version: 1\nagents:\n  claude-code:\n    context:\n      note_max_bytes: 10\n");
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
}

#[test]
fn limits_outside_their_bounds_disable_the_provider_with_a_warning() {
    let env = TestEnv::new();
    setup(&env);
    env.desired(
        "version: 1
agents:
  claude-code:
    context:
      sources:
        - file: rules/house.md
        - command: [./bin/provider]
          timeout_ms: 600000
        - url: http://127.0.0.1:7420/
          max_output_bytes: 10
",
    );
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 0);
    let warnings: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("Warning:"))
        .collect();
    insta::assert_snapshot!(warnings.join("\n"), @r"
    Warning: coffer.yaml:8:23: timeout_ms must be 10 to 30000; this source is disabled
    Warning: coffer.yaml:10:29: max_output_bytes must be 1024 to 1048576; this source is disabled
    ");
    env.apply();
    let s: Value = serde_json::from_str(&settings_text(&env, "claude").unwrap()).unwrap();
    let kinds: Vec<&str> = s["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["file"]);
}

/// The installed entry run as Claude Code runs it: the `command` string
/// from settings.json through `sh -c`, stdin left open, in the project
/// folder. It exits 0 with the context on stdout.
#[test]
fn the_installed_command_runs_end_to_end() {
    let env = TestEnv::new();
    setup(&env);
    env.desired("version: 1\nagents:\n  claude-code:\n    context:\n      sources:\n        - file: rules/*.md\n");
    env.apply();
    let settings: Value =
        serde_json::from_slice(&env.read(".claude/settings.json").unwrap()).unwrap();
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(command, "coffer hook --dialect claude --event SessionStart");
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_coffer"))
        .parent()
        .unwrap();
    let mut sh = Command::new("sh");
    sh.env_clear();
    for (k, v) in env.cmd().get_envs() {
        if let Some(v) = v {
            sh.env(k, v);
        }
    }
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = sh
        .env("PATH", path)
        .env("CLAUDE_CODE_SESSION_ID", "e2e-session")
        .args(["-c", command])
        .current_dir(&env.work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let open_stdin = child.stdin.take();
    let out = super::finish(child);
    drop(open_stdin);
    assert_eq!(quiet_stdout(&out), "Extra.\n\nHouse rule.\n");
}

#[test]
fn per_prompt_without_a_prompt_event_warns() {
    let env = TestEnv::new();
    setup(&env);
    env.desired("version: 1\nagents:\n  claude-code:\n    context:\n      per_prompt: true\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert!(
        r.stdout.starts_with(
            "Warning: coffer.yaml:5:7: per_prompt has no effect without the `user-prompt-submit` event\n"
        ),
        "{}",
        r.stdout
    );
}
