//! What CI and careful users rely on: JSON plans, saved plans applied
//! exactly or refused when stale, secrets kept out of every output, and
//! concurrent runs that serialise.

use crate::common::{THREE_AGENTS, TestEnv};

/// An agent declared in the desired file, whose MCP file cannot expand
/// environment references: coffer must resolve them, and hide them.
const SECRET_AGENT: &str = r#"version: 1
define:
  - id: mytool
    name: My Tool
    context: { mechanism: unsupported, evidence: "no hooks (https://example.com/mytool)" }
    mcp:
      mechanism: members
      user: ~/.mytool/mcp.json
      project: .mytool/mcp.json
      syntax: json
      servers_key: [servers]
      stdio: { command: "${command}", env: "${env}" }
      remote: { url: "${url}", headers: "${headers}" }
      evidence: https://example.com/mytool/mcp
    instructions: { mechanism: unsupported, evidence: "none (https://example.com/mytool)" }
    skills: { mechanism: unsupported, evidence: "none (https://example.com/mytool)" }
    provider: { mechanism: unsupported, evidence: "none (https://example.com/mytool)" }
agents:
  mytool:
    mcp:
      memory: { command: coffer, env: { TOKEN: "${env:MY_TOKEN}" } }
"#;

#[test]
fn json_plan_is_a_versioned_document() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    let r = env.run(&["plan", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["format_version"], 1);
    assert_eq!(v["mode"], "apply");
    assert_eq!(v["summary"]["add"], 4);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    let cursor = files
        .iter()
        .find(|f| f["display"] == "~/.cursor/hooks.json")
        .unwrap();
    assert_eq!(cursor["action"], "create");
    assert!(cursor["before_sha256"].is_null());
    assert_eq!(cursor["after_sha256"].as_str().unwrap().len(), 64);
    assert_eq!(cursor["changes"][0]["agents"][0], "cursor");
    assert_eq!(cursor["changes"][0]["facet"], "context");
    assert!(
        cursor["diff"]
            .as_str()
            .unwrap()
            .starts_with("--- a/~/.cursor/hooks.json\n+++ b/~/.cursor/hooks.json\n")
    );
}

#[test]
fn a_saved_plan_applies_exactly_without_asking() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    let r = env.run(&["plan", "--out", "plan.json"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert!(
        !env.exists(".cursor"),
        "plan --out writes nothing but the plan"
    );
    let mode = std::fs::metadata(env.work.join("plan.json")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
    let r = env.run(&["apply", "plan.json"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    let direct = TestEnv::new();
    direct.desired(THREE_AGENTS);
    direct.apply();
    assert_eq!(
        env.read(".cursor/hooks.json"),
        direct.read(".cursor/hooks.json")
    );
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
}

#[test]
fn a_stale_saved_plan_is_refused_whole() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(".cursor/hooks.json", "{\"version\": 1}\n");
    assert_eq!(env.run(&["plan", "--out", "plan.json"]).code, 0);
    env.put(".cursor/hooks.json", "{\"version\": 1, \"hooks\": {}}\n");
    let before = env.tree();
    let r = env.run(&["apply", "plan.json"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.snapshot());
    assert_eq!(env.tree(), before);
}

#[test]
fn a_plan_from_another_version_is_refused() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    assert_eq!(env.run(&["plan", "--out", "plan.json"]).code, 0);
    let text = std::fs::read_to_string(env.work.join("plan.json")).unwrap();
    let other = text.replace(
        &format!("\"coffer_version\": \"{}\"", env!("CARGO_PKG_VERSION")),
        "\"coffer_version\": \"0.0.1\"",
    );
    assert_ne!(text, other);
    std::fs::write(env.work.join("plan.json"), other).unwrap();
    let r = env.run(&["apply", "plan.json"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("was made by coffer 0.0.1"),
        "{}",
        r.stderr
    );
    assert!(!env.exists(".cursor"));
}

#[test]
fn a_saved_destroy_plan() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.apply();
    assert_eq!(
        env.run(&["plan", "--destroy", "--out", "gone.json"]).code,
        0
    );
    assert!(env.exists(".cursor/hooks.json"));
    assert_eq!(env.run(&["apply", "gone.json"]).code, 0);
    assert!(!env.exists(".cursor") && !env.exists(".codex") && !env.exists(".claude"));
}

#[test]
fn secrets_stay_out_of_every_output_but_reach_the_file() {
    let env = TestEnv::new();
    env.desired(SECRET_AGENT);
    let secret = "tok-3f9a81c2";
    let run = |args: &[&str]| env.run_cmd(env.cmd().env("MY_TOKEN", secret).args(args));
    for args in [
        &["plan"][..],
        &["plan", "--format", "json"],
        &["plan", "--out", "p.json"],
    ] {
        let r = run(args);
        assert_eq!(r.code, 0, "{}", r.snapshot());
        assert!(
            !r.stdout.contains(secret) && !r.stderr.contains(secret),
            "{args:?} printed the secret"
        );
    }
    let r = run(&["plan"]);
    assert!(
        r.stdout.contains("\"TOKEN\": \"(sensitive)\""),
        "{}",
        r.stdout
    );
    let r = run(&["apply", "--auto-approve"]);
    assert!(!r.stdout.contains(secret));
    let written = String::from_utf8(env.read(".mytool/mcp.json").unwrap()).unwrap();
    assert!(
        written.contains(secret),
        "the agent cannot expand references, so the value is written"
    );
    let r = run(&["destroy", "--auto-approve"]);
    assert!(!r.stdout.contains(secret), "{}", r.stdout);
}

#[test]
fn a_missing_variable_is_named_before_anything_is_written() {
    let env = TestEnv::new();
    env.desired(SECRET_AGENT);
    let r = env.run(&["apply", "--auto-approve"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("environment variable MY_TOKEN is not set"),
        "{}",
        r.stderr
    );
    assert!(!env.exists(".mytool"));
}

#[test]
fn six_concurrent_applies_end_like_one() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(".claude/settings.json", "{\n  \"theme\": \"dark\"\n}\n");
    let children: Vec<_> = (0..6)
        .map(|_| {
            env.cmd()
                .args(["apply", "--auto-approve"])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let single = TestEnv::new();
    single.desired(THREE_AGENTS);
    single.put(".claude/settings.json", "{\n  \"theme\": \"dark\"\n}\n");
    single.apply();
    for f in [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".cursor/hooks.json",
    ] {
        assert_eq!(env.read(f), single.read(f), "{f}");
    }
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
}

#[test]
fn a_held_lock_makes_apply_wait_then_fail_clearly() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    let _held = coffer::fsys::lock(
        &env.root.join("state/coffer/lock"),
        std::time::Duration::ZERO,
    )
    .unwrap();
    let r = env.run(&["apply", "--auto-approve", "--lock-timeout", "0"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("another coffer is applying"),
        "{}",
        r.stderr
    );
    assert!(!env.exists(".cursor"));
}

#[test]
fn cosmetic_drift_is_reported_but_is_not_a_change() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.apply();
    // An agent reformats its file: same content, other layout.
    let text = String::from_utf8(env.read(".cursor/hooks.json").unwrap()).unwrap();
    env.put(
        ".cursor/hooks.json",
        text.replace("\n", "\n  ").replace("  }", "}"),
    );
    let r = env.run(&["plan", "--detailed-exitcode"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    insta::assert_snapshot!(r.snapshot());
    let json = env.run(&["plan", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["drift"][0], "~/.cursor/hooks.json");
}

#[test]
fn drift_that_touches_coffers_entry_is_a_change() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.apply();
    let text = String::from_utf8(env.read(".cursor/hooks.json").unwrap()).unwrap();
    env.put(
        ".cursor/hooks.json",
        text.replace("--event stop", "--event stopp"),
    );
    let r = env.run(&["plan", "--detailed-exitcode"]);
    assert_eq!(r.code, 2, "{}", r.snapshot());
    assert!(r.stdout.contains("1 to change"), "{}", r.stdout);
    assert!(r.stdout.contains("changed outside coffer"), "{}", r.stdout);
}

#[test]
fn import_writes_a_desired_file_that_plans_no_changes() {
    let env = TestEnv::new();
    env.put(
        ".cursor/mcp.json",
        r#"{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "fs-mcp"], "env": {"T": "${env:T}"}}}}"#,
    );
    env.put(
        ".codex/config.toml",
        "[mcp_servers.gh]\ncommand = \"gh-mcp\"\n",
    );
    env.desired(THREE_AGENTS);
    env.apply();
    let before = env.tree();
    let r = env.run(&["import", "-o", "imported.yaml"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    let text = std::fs::read_to_string(env.work.join("imported.yaml")).unwrap();
    insta::assert_snapshot!(text);
    let r = env.run(&["plan", "-f", "imported.yaml", "--detailed-exitcode"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert_eq!(
        env.run(&["import", "-o", "imported.yaml"]).code,
        1,
        "never over an existing file"
    );
    env.run(&["apply", "-f", "imported.yaml", "--auto-approve"]);
    env.run(&["destroy", "-f", "imported.yaml", "--auto-approve"]);
    let after = env.tree();
    let (b, a): (Vec<_>, Vec<_>) = (
        before
            .iter()
            .filter(|(p, _)| p.ends_with("mcp.json") || p.ends_with("config.toml"))
            .collect(),
        after
            .iter()
            .filter(|(p, _)| p.ends_with("mcp.json") || p.ends_with("config.toml"))
            .collect(),
    );
    assert_eq!(b, a, "the adopted servers are given back as they were");
}

#[test]
fn values_marked_sensitive_are_hidden_and_new_files_holding_them_are_owner_only() {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nagents:\n  cursor:\n    mcp:\n      m: { command: x, env: { API_KEY: k-77f0a1, MODE: fast }, sensitive: [API_KEY] }\n",
    );
    for args in [&["plan"][..], &["plan", "--format", "json"]] {
        let r = env.run(args);
        assert_eq!(r.code, 0, "{}", r.snapshot());
        assert!(
            !r.stdout.contains("k-77f0a1"),
            "{args:?} printed the secret:\n{}",
            r.stdout
        );
    }
    assert!(
        env.run(&["plan"])
            .stdout
            .contains("\"API_KEY\": \"(sensitive)\"")
    );
    env.apply();
    let p = env.home.join(".cursor/mcp.json");
    assert!(std::fs::read_to_string(&p).unwrap().contains("k-77f0a1"));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o600
    );
    env.desired(
        "version: 1\nagents:\n  cursor:\n    mcp:\n      m: { command: x, sensitive: [NOPE] }\n",
    );
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("marks as sensitive a name"),
        "{}",
        r.stderr
    );
}
