//! What users read when something is wrong: the file, the position, and
//! what to do.

use crate::common::TestEnv;

fn plan_error(desired: &str) -> String {
    let env = TestEnv::new();
    env.desired(desired);
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1, "{}", r.snapshot());
    r.snapshot()
}

#[test]
fn unknown_agent() {
    insta::assert_snapshot!(plan_error(
        "version: 1\nagents:\n  claude-cod:\n    context: {}\n"
    ));
}

#[test]
fn unknown_facet() {
    insta::assert_snapshot!(plan_error(
        "version: 1\nagents:\n  codex:\n    contxt: {}\n"
    ));
}

#[test]
fn unknown_top_level_key() {
    insta::assert_snapshot!(plan_error("version: 1\nagent: {}\n"));
}

#[test]
fn wrong_type() {
    insta::assert_snapshot!(plan_error(
        "version: 1\nagents:\n  codex:\n    context:\n      events: session-start\n"
    ));
}

#[test]
fn duplicate_key() {
    insta::assert_snapshot!(plan_error(
        "version: 1\nagents:\n  codex:\n    context: {}\n  codex:\n    context: {}\n"
    ));
}

#[test]
fn unknown_event() {
    insta::assert_snapshot!(plan_error(
        "version: 1\nagents:\n  codex:\n    context:\n      events: [session-begin]\n"
    ));
}

#[test]
fn event_the_agent_lacks() {
    // Every built-in agent has every event (Codex's SessionEnd was proven by
    // tests/agents), so a declared agent with one event stands in.
    insta::assert_snapshot!(plan_error(
        "version: 1\ndefine:\n  - id: tiny\n    name: Tiny\n    context:\n      mechanism: shell-command\n      user: ~/.tiny/hooks.json\n      project: .tiny/hooks.json\n      syntax: json\n      hooks_key: [hooks]\n      shape: matcher-groups\n      dialect: claude\n      entry: { type: command }\n      events:\n        session-start: SessionStart\n      evidence: https://example.invalid/tiny\n    mcp: { mechanism: unsupported, evidence: none }\n    instructions: { mechanism: unsupported, evidence: none }\n    skills: { mechanism: unsupported, evidence: none }\n    provider: { mechanism: unsupported, evidence: none }\nagents:\n  tiny:\n    context:\n      events: [session-start, session-end]\n"
    ));
}

#[test]
fn list_item_provider_outside_json() {
    // Only JSON files get list items; a declared agent that asks for one
    // in TOML is refused where its provider is set.
    insta::assert_snapshot!(plan_error(
        "version: 1\ndefine:\n  - id: tiny\n    name: Tiny\n    context: { mechanism: unsupported, evidence: none }\n    mcp: { mechanism: unsupported, evidence: none }\n    instructions: { mechanism: unsupported, evidence: none }\n    skills: { mechanism: unsupported, evidence: none }\n    provider:\n      mechanism: member\n      user: ~/.tiny/config.toml\n      project: .tiny/config.toml\n      syntax: toml\n      parent: [models]\n      item_key: id\n      name: \"${model}\"\n      value: { id: \"${model}\", url: \"${base_url}\" }\n      evidence: https://example.invalid/tiny\nagents:\n  tiny:\n    provider: { base_url: \"http://localhost:8080/v1\", model: m }\n"
    ));
}

#[test]
fn unsupported_version() {
    insta::assert_snapshot!(plan_error("version: 3\n"));
}

#[test]
fn unsplittable_hook_command() {
    insta::assert_snapshot!(plan_error(
        "version: 1\nhook:\n  command: \"coffer 'hook\"\n"
    ));
}

fn target_error(rel: &str, content: &str) -> String {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nagents:\n  claude-code:\n    context: {}\n  cursor:\n    context: {}\n",
    );
    env.put(rel, content);
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1, "{}", r.snapshot());
    assert_eq!(env.read(rel).unwrap(), content.as_bytes());
    r.snapshot()
}

#[test]
fn target_with_a_comment_in_strict_json() {
    insta::assert_snapshot!(target_error(
        ".claude/settings.json",
        "{\n  // theme\n  \"theme\": \"dark\"\n}\n"
    ));
}

#[test]
fn target_with_a_trailing_comma() {
    insta::assert_snapshot!(target_error(
        ".claude/settings.json",
        "{\n  \"theme\": \"dark\",\n}\n"
    ));
}

#[test]
fn target_whose_hooks_is_not_an_object() {
    insta::assert_snapshot!(target_error(
        ".cursor/hooks.json",
        "{\"version\": 1, \"hooks\": []}\n"
    ));
}

#[test]
fn target_whose_top_level_is_not_an_object() {
    insta::assert_snapshot!(target_error(".claude/settings.json", "[1, 2]\n"));
}

#[test]
fn target_that_is_not_utf8() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    context: {}\n");
    env.put(".claude/settings.json", b"{\"a\": \"caf\xe9\"}\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.snapshot());
}

#[test]
fn empty_target_file() {
    insta::assert_snapshot!(target_error(".claude/settings.json", ""));
}

#[test]
fn target_with_a_duplicate_hooks_key() {
    insta::assert_snapshot!(target_error(
        ".claude/settings.json",
        "{\n  \"hooks\": {},\n  \"theme\": \"dark\",\n  \"hooks\": {}\n}\n"
    ));
}

/// The column counts characters on a CRLF line after non-ASCII text, in
/// the message and in the snippet's header alike.
#[test]
fn target_error_position_after_non_ascii_text() {
    insta::assert_snapshot!(target_error(
        ".claude/settings.json",
        "{\r\n  \"thème\": \"café ☕\" \"x\"\r\n}\r\n"
    ));
}

/// A file that ends too soon: the error sits right after its last token,
/// not on the empty line after the final newline.
#[test]
fn target_that_ends_too_soon() {
    insta::assert_snapshot!(target_error(
        ".claude/settings.json",
        "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\"]\n  }\n\n"
    ));
}

#[test]
fn a_missing_desired_file_says_what_to_do() {
    let env = TestEnv::new();
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.snapshot());
}
