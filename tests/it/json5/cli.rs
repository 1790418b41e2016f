//! `coffer apply`, `destroy` and `import` for OpenClaw's JSON5 config.

use super::{OPENCLAW, text};
use crate::common::TestEnv;

const DESIRED: &str = r#"version: 1
agents:
  openclaw:
    mcp:
      coffer-memory: { command: coffer, args: [mcp, --stdio], env: { TOKEN: "${env:TOKEN}" } }
    provider: { id: local, base_url: "http://localhost:9090/v1", api_key_env: MY_KEY, model: qwen }
"#;

#[test]
fn openclaw_mcp_and_provider_end_to_end() {
    let env = TestEnv::new();
    env.desired(DESIRED);
    env.put(".openclaw/openclaw.json", OPENCLAW);
    let before = env.tree();
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    env.apply();
    let installed = text(&env.read(".openclaw/openclaw.json").unwrap());
    assert!(
        installed.contains(r#"servers: { ctx: { command: "npx", args: ["-y", "ctx-mcp"], env: { API_KEY: "x" } }, "coffer-memory": { command: "coffer", args: ["mcp", "--stdio"], env: { TOKEN: "${TOKEN}" } } } }"#),
        "{installed}"
    );
    assert!(
        installed.contains(r#"local: { baseUrl: "http://localhost:9090/v1", apiKey: "${MY_KEY}", api: "openai-completions", models: [{ id: "qwen", name: "qwen" }] }"#),
        "{installed}"
    );
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    env.destroy();
    assert_eq!(env.tree(), before);
}

/// No openclaw.json yet: coffer writes one (plain JSON, which is JSON5)
/// and takes it away again, with the folder it made for it.
#[test]
fn openclaw_config_created_and_deleted_again() {
    let env = TestEnv::new();
    env.desired(DESIRED);
    let before = env.tree();
    env.apply();
    let created = text(&env.read(".openclaw/openclaw.json").unwrap());
    assert!(
        created.starts_with("{\n  \"mcp\": {\n    \"servers\": {\n      \"coffer-memory\": {"),
        "{created}"
    );
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    env.destroy();
    assert_eq!(env.tree(), before);
}

#[test]
fn a_broken_openclaw_config_is_refused_with_its_position() {
    let env = TestEnv::new();
    env.desired(DESIRED);
    env.put(
        ".openclaw/openclaw.json",
        "{\n  mcp: { servers: {} },\n  name: 'unterminated\n}\n",
    );
    let before = env.tree();
    let r = env.run(&["apply", "--auto-approve"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("invalid JSON5: line break in a string"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("~/.openclaw/openclaw.json:3:22"),
        "{}",
        r.stderr
    );
    assert_eq!(env.tree(), before);
}

/// `coffer import` reads OpenClaw's servers too, and what it writes plans
/// no change.
#[test]
fn import_reads_openclaw_servers() {
    let env = TestEnv::new();
    env.put(".openclaw/openclaw.json", OPENCLAW);
    let r = env.run(&["import", "-o", "imported.yaml"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    let imported = std::fs::read_to_string(env.work.join("imported.yaml")).unwrap();
    assert!(
        imported.contains("openclaw:\n    mcp:\n      ctx:\n        command: npx"),
        "{imported}"
    );
    let r = env.run(&["plan", "-f", "imported.yaml", "--detailed-exitcode"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
}
