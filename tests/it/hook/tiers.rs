//! Tiers, sessions and the audit log: the note once per start, per-prompt
//! context on request, one retry per failing source per session, sessions
//! kept apart, and nothing but fingerprints in the log.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};

use super::{
    command_source, file_source, prompt_input, quiet_stdout, result_json, run, script, settings,
    state_dir, write_settings,
};
use crate::common::TestEnv;

/// A provider that appends each request to `calls.jsonl` and answers with
/// the turn it was told.
fn recording_provider(env: &TestEnv, fail: bool) -> Value {
    let log = env.root.join("calls.jsonl");
    let answer = if fail {
        "exit 3".to_owned()
    } else {
        format!("echo '{}'", result_json("provider context"))
    };
    let p = script(
        env,
        "rec",
        &format!(
            "cat >> '{}'; echo >> '{}'; {answer}",
            log.display(),
            log.display()
        ),
    );
    command_source("command-1", &p, 5000)
}

fn calls(env: &TestEnv) -> Vec<Value> {
    std::fs::read_to_string(env.root.join("calls.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn prompt_settings(env: &TestEnv, dialect: &str, events: &[(&str, &str)], fail: bool) -> Value {
    let src = file_source(env, "rules/house.md", "House rule.\n");
    let mut s = settings(dialect, events, json!([src, recording_provider(env, fail)]));
    s["per_prompt"] = json!(true);
    s
}

#[test]
fn per_prompt_context_asks_providers_only_with_the_prompt() {
    let env = TestEnv::new();
    write_settings(
        &env,
        &prompt_settings(
            &env,
            "claude",
            &[
                ("SessionStart", "session-start"),
                ("UserPromptSubmit", "user-prompt-submit"),
            ],
            false,
        ),
    );
    let out = quiet_stdout(&run(
        &env,
        "claude",
        "UserPromptSubmit",
        Some(&prompt_input("S", "fix the bug", &env.work)),
    ));
    // The file belongs to the note, which went out at session start.
    assert_eq!(
        out,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"provider context\\n\"}}\n"
    );
    let c = calls(&env);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0]["event"], "user-prompt-submit");
    assert_eq!(c[0]["prompt"], "fix the bug");
    assert_eq!(c[0]["session_id"], "S");
    assert_eq!(c[0]["turn"], 1);
}

#[test]
fn per_prompt_is_off_by_default() {
    let env = TestEnv::new();
    let mut s = prompt_settings(
        &env,
        "claude",
        &[
            ("SessionStart", "session-start"),
            ("UserPromptSubmit", "user-prompt-submit"),
        ],
        false,
    );
    s["per_prompt"] = json!(false);
    write_settings(&env, &s);
    let out = quiet_stdout(&run(
        &env,
        "claude",
        "UserPromptSubmit",
        Some(&prompt_input("S", "hi", &env.work)),
    ));
    assert_eq!(out, "");
    assert!(calls(&env).is_empty(), "no provider runs");
}

/// An agent without a session-start channel (here: Codex with only its
/// prompt event installed) gets the note once, at the first prompt.
#[test]
fn without_a_session_start_event_the_note_rides_the_first_prompt() {
    let env = TestEnv::new();
    let mut s = prompt_settings(
        &env,
        "codex",
        &[("UserPromptSubmit", "user-prompt-submit")],
        false,
    );
    s["per_prompt"] = json!(false);
    write_settings(&env, &s);
    let first = quiet_stdout(&run(
        &env,
        "codex",
        "UserPromptSubmit",
        Some(&prompt_input("S", "a", &env.work)),
    ));
    assert!(
        first.contains("House rule.\\n\\nprovider context"),
        "{first}"
    );
    let second = quiet_stdout(&run(
        &env,
        "codex",
        "UserPromptSubmit",
        Some(&prompt_input("S", "b", &env.work)),
    ));
    assert_eq!(second, "");
    let other = quiet_stdout(&run(
        &env,
        "codex",
        "UserPromptSubmit",
        Some(&prompt_input("T", "c", &env.work)),
    ));
    assert!(
        other.contains("House rule."),
        "another session gets its own note: {other}"
    );
    // No session id: the hook cannot tell a first prompt, so it stays quiet
    // rather than repeat the note at every prompt.
    let anon = quiet_stdout(&run(
        &env,
        "codex",
        "UserPromptSubmit",
        Some("{\"prompt\":\"d\"}"),
    ));
    assert_eq!(anon, "");
}

#[test]
fn hermes_gets_the_note_at_its_first_turn() {
    let env = TestEnv::new();
    let src = file_source(&env, "rules/house.md", "House rule.\n");
    write_settings(
        &env,
        &settings(
            "hermes",
            &[
                ("on_session_start", "session-start"),
                ("pre_llm_call", "user-prompt-submit"),
            ],
            json!([src]),
        ),
    );
    let input = |first: bool| {
        json!({"session_id": "h1", "cwd": env.work, "extra": {"is_first_turn": first}}).to_string()
    };
    assert_eq!(
        quiet_stdout(&run(&env, "hermes", "pre_llm_call", Some(&input(true)))),
        "{\"context\":\"House rule.\\n\"}\n"
    );
    assert_eq!(
        quiet_stdout(&run(&env, "hermes", "pre_llm_call", Some(&input(false)))),
        ""
    );
}

#[test]
fn a_failing_source_is_retried_once_per_session() {
    let env = TestEnv::new();
    write_settings(
        &env,
        &prompt_settings(
            &env,
            "claude",
            &[("UserPromptSubmit", "user-prompt-submit")],
            true,
        ),
    );
    for prompt in ["1", "2", "3", "4"] {
        let out = quiet_stdout(&run(
            &env,
            "claude",
            "UserPromptSubmit",
            Some(&prompt_input("S", prompt, &env.work)),
        ));
        if prompt != "1" {
            assert_eq!(out, "", "prompt {prompt}");
        }
    }
    let prompts: Vec<Value> = calls(&env).iter().map(|c| c["prompt"].clone()).collect();
    assert_eq!(
        prompts,
        [json!("1"), json!("2")],
        "tried, retried once, then left alone"
    );
    // Another session starts afresh.
    quiet_stdout(&run(
        &env,
        "claude",
        "UserPromptSubmit",
        Some(&prompt_input("T", "5", &env.work)),
    ));
    assert_eq!(calls(&env).len(), 3);
}

#[test]
fn sessions_never_see_each_others_state() {
    let env = TestEnv::new();
    write_settings(
        &env,
        &prompt_settings(
            &env,
            "claude",
            &[
                ("SessionStart", "session-start"),
                ("UserPromptSubmit", "user-prompt-submit"),
            ],
            false,
        ),
    );
    for session in ["A", "A", "B", "A"] {
        quiet_stdout(&run(
            &env,
            "claude",
            "UserPromptSubmit",
            Some(&prompt_input(session, "p", &env.work)),
        ));
    }
    let turns: Vec<(Value, Value)> = calls(&env)
        .iter()
        .map(|c| (c["session_id"].clone(), c["turn"].clone()))
        .collect();
    assert_eq!(
        turns,
        [
            (json!("A"), json!(1)),
            (json!("A"), json!(2)),
            (json!("B"), json!(1)),
            (json!("A"), json!(3))
        ]
    );
    // Session files are owner-only, named by a hash, and hold no text.
    let dir = state_dir(&env).join("sessions");
    assert_eq!(
        std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().into_string().unwrap();
        assert!(!name.contains('A') && !name.contains('B'), "{name}");
        assert_eq!(e.metadata().unwrap().permissions().mode() & 0o777, 0o600);
        let text = std::fs::read_to_string(e.path()).unwrap();
        assert!(
            !text.contains("context") && !text.contains("House"),
            "{text}"
        );
    }
}

#[test]
fn the_audit_log_keeps_fingerprints_not_text() {
    let env = TestEnv::new();
    let mut s = prompt_settings(&env, "claude", &[("SessionStart", "session-start")], false);
    s["audit"] = json!(true);
    write_settings(&env, &s);
    assert_eq!(
        quiet_stdout(&run(&env, "claude", "SessionStart", None)),
        "House rule.\n\nprovider context\n"
    );
    let dir = state_dir(&env);
    let key = std::fs::read(dir.join("hook-audit.key")).unwrap();
    assert_eq!(key.len(), 32);
    for f in ["hook-audit.key", "hook-audit.jsonl"] {
        assert_eq!(
            std::fs::metadata(dir.join(f)).unwrap().permissions().mode() & 0o777,
            0o600,
            "{f}"
        );
    }
    let log = std::fs::read_to_string(dir.join("hook-audit.jsonl")).unwrap();
    assert!(
        !log.contains("House") && !log.contains("provider context"),
        "{log}"
    );
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["source"], "file-rules/house.md");
    assert_eq!(lines[0]["status"], "ok");
    assert_eq!(lines[0]["delivery"], "full");
    assert_eq!(lines[0]["bytes"], 12);
    assert_eq!(lines[0]["fingerprint"], coffer_hmac(&key, b"House rule.\n"));
    assert_eq!(lines[1]["provider"], "test-provider");
    assert_eq!(
        (lines[1]["matched"].clone(), lines[1]["succeeded"].clone()),
        (json!(1), json!(1))
    );
    // The same text, the same fingerprint: deliveries can be compared.
    quiet_stdout(&run(&env, "claude", "SessionStart", None));
    let again: Vec<Value> = std::fs::read_to_string(dir.join("hook-audit.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(again[2]["fingerprint"], lines[0]["fingerprint"]);
}

/// HMAC-SHA-256, computed independently of coffer's own.
fn coffer_hmac(key: &[u8], msg: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut k = [0u8; 64];
    k[..key.len()].copy_from_slice(key);
    let ipad: Vec<u8> = k.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = k.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::new()
        .chain_update(&ipad)
        .chain_update(msg)
        .finalize();
    let outer = Sha256::new()
        .chain_update(&opad)
        .chain_update(inner)
        .finalize();
    outer.iter().map(|b| format!("{b:02x}")).collect()
}
