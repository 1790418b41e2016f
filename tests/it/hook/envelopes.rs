//! The exact bytes each dialect gets for each event, byte for byte, and
//! the upstream schema where one is published.

use serde_json::{Value, json};

use super::{
    command_source, file_source, quiet_stdout, result_json, run, script, settings, write_settings,
};
use crate::common::{TestEnv, shared};

const NOTE: &str = "Use pnpm.\n";

/// (dialect, native event, coffer event, expected stdout).
const SESSION_START: &[(&str, &str, &str, &str)] = &[
    ("claude", "SessionStart", "session-start", "Use pnpm.\n"),
    (
        "codex",
        "SessionStart",
        "session-start",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"Use pnpm.\\n\"}}\n",
    ),
    (
        "cursor",
        "sessionStart",
        "session-start",
        "{\"additional_context\":\"Use pnpm.\\n\"}\n",
    ),
    (
        "gemini",
        "SessionStart",
        "session-start",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"Use pnpm.\\n\"}}\n",
    ),
    (
        "vscode",
        "SessionStart",
        "session-start",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"Use pnpm.\\n\"}}\n",
    ),
    (
        "opencode",
        "session.created",
        "session-start",
        "Use pnpm.\n",
    ),
    ("openclaw", "session_start", "session-start", "Use pnpm.\n"),
    // Observe-only in Hermes: the note goes out at the first pre_llm_call.
    ("hermes", "on_session_start", "session-start", ""),
];

#[test]
fn session_start_envelopes() {
    for (dialect, native, event, want) in SESSION_START {
        let env = TestEnv::new();
        let src = file_source(&env, "rules/house.md", NOTE);
        write_settings(&env, &settings(dialect, &[(native, event)], json!([src])));
        let got = quiet_stdout(&run(&env, dialect, native, None));
        assert_eq!(got, *want, "{dialect} {native}");
    }
}

/// (dialect, native event, expected stdout) with per-prompt context.
const PROMPT: &[(&str, &str, &str)] = &[
    (
        "claude",
        "UserPromptSubmit",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"fresh\\n\"}}\n",
    ),
    (
        "codex",
        "UserPromptSubmit",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"fresh\\n\"}}\n",
    ),
    // beforeSubmitPrompt has no context channel: only `continue`.
    ("cursor", "beforeSubmitPrompt", "{\"continue\":true}\n"),
    (
        "gemini",
        "BeforeAgent",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"BeforeAgent\",\"additionalContext\":\"fresh\\n\"}}\n",
    ),
    (
        "vscode",
        "UserPromptSubmit",
        "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"fresh\\n\"}}\n",
    ),
    ("opencode", "chat.message", "fresh\n"),
    ("openclaw", "before_prompt_build", "fresh\n"),
    ("hermes", "pre_llm_call", "{\"context\":\"fresh\\n\"}\n"),
];

#[test]
fn prompt_envelopes() {
    for (dialect, native, want) in PROMPT {
        let env = TestEnv::new();
        let p = script(
            &env,
            "p",
            &format!("cat >/dev/null; echo '{}'", result_json("fresh")),
        );
        let mut s = settings(
            dialect,
            &[(native, "user-prompt-submit")],
            json!([command_source("command-1", &p, 5000)]),
        );
        s["per_prompt"] = json!(true);
        s["session_note"] = json!(false);
        write_settings(&env, &s);
        let input = super::prompt_input("s-1", "hi", &env.work);
        let got = quiet_stdout(&run(&env, dialect, native, Some(&input)));
        assert_eq!(got, *want, "{dialect} {native}");
    }
}

/// With nothing to say, each dialect prints its minimal valid output:
/// nothing, or `{}` where the agent parses stdout as JSON.
#[test]
fn minimal_envelopes() {
    let cases = [
        ("claude", "SessionStart", ""),
        ("claude", "Stop", ""),
        ("codex", "SessionStart", ""),
        ("cursor", "sessionStart", "{}\n"),
        ("cursor", "stop", "{}\n"),
        ("cursor", "beforeSubmitPrompt", "{\"continue\":true}\n"),
        ("gemini", "SessionStart", ""),
        ("hermes", "pre_llm_call", ""),
        ("no-such-dialect", "SessionStart", ""),
    ];
    for (dialect, native, want) in cases {
        // No settings at all.
        let env = TestEnv::new();
        assert_eq!(
            quiet_stdout(&run(&env, dialect, native, Some("{}"))),
            want,
            "{dialect} {native}, no settings"
        );
        // Settings whose only source fails.
        let s = settings(
            dialect,
            &[(native, "session-start")],
            json!([{"id": "file-1", "kind": "file", "path": env.root.join("missing.md"), "glob": false}]),
        );
        write_settings(&env, &s);
        assert_eq!(
            quiet_stdout(&run(&env, dialect, native, Some("{}"))),
            want,
            "{dialect} {native}, failing source"
        );
    }
}

#[test]
fn arguments_that_make_no_sense_print_nothing() {
    let env = TestEnv::new();
    for args in [
        &["hook"][..],
        &["hook", "--dialect"],
        &["hook", "--event", "SessionStart", "--frobnicate"],
    ] {
        let out = env.cmd().args(args).output().unwrap();
        assert_eq!(quiet_stdout(&out), "", "{args:?}");
    }
}

/// Claude Code parses stdout that starts with `{` as JSON; a note that
/// happens to start that way goes in the documented JSON form instead.
#[test]
fn claude_note_that_looks_like_json_is_wrapped() {
    let env = TestEnv::new();
    let src = file_source(&env, "note.md", "{\"not\": \"an envelope\"}\n");
    write_settings(
        &env,
        &settings("claude", &[("SessionStart", "session-start")], json!([src])),
    );
    let got = quiet_stdout(&run(&env, "claude", "SessionStart", None));
    let v: Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    assert_eq!(
        v["hookSpecificOutput"]["additionalContext"],
        "{\"not\": \"an envelope\"}\n"
    );
}

/// Codex validates SessionStart output strictly; check what coffer prints
/// against the schema Codex generates for it.
#[test]
fn codex_session_start_output_validates_against_the_upstream_schema() {
    let Some(shared) = shared() else { return };
    let schema: Value = serde_json::from_slice(
        &std::fs::read(
            shared.join("schemas-upstream/codex/session-start.command.output.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let env = TestEnv::new();
    let src = file_source(
        &env,
        "rules/house.md",
        "quotes \" and \\ and\nnew lines\u{2028}\n",
    );
    write_settings(
        &env,
        &settings("codex", &[("SessionStart", "session-start")], json!([src])),
    );
    let got = quiet_stdout(&run(&env, "codex", "SessionStart", None));
    let doc: Value = serde_json::from_str(&got).unwrap();
    let errors = super::schema_check::validate(&schema, &schema, &doc, "$");
    assert!(errors.is_empty(), "{errors:#?}\n{got}");
    // And the checker does reject what Codex rejects.
    for bad in [
        json!({"additionalContext": "x"}),
        json!({"hookSpecificOutput": {"additionalContext": "x"}}),
    ] {
        assert!(
            !super::schema_check::validate(&schema, &schema, &bad, "$").is_empty(),
            "{bad}"
        );
    }
}

#[test]
fn debug_variable_explains_without_showing_context() {
    let env = TestEnv::new();
    let src = file_source(&env, "rules/house.md", "SECRET-RULE\n");
    write_settings(
        &env,
        &settings("claude", &[("SessionStart", "session-start")], json!([src])),
    );
    let out = env
        .cmd()
        .env("COFFER_HOOK_DEBUG", "1")
        .args(["hook", "--dialect", "claude", "--event", "SessionStart"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("file-rules/house.md: ok, 12 bytes, full"),
        "{stderr}"
    );
    assert!(!stderr.contains("SECRET"), "{stderr}");
    assert_eq!(out.stdout, b"SECRET-RULE\n");
}
