//! The facets beyond context: MCP servers, providers, skills — each
//! installed in the agent's own shape and taken out byte for byte.

use crate::common::TestEnv;

const CURSOR_MCP: &str =
    "{\n  \"mcpServers\": {\n    \"mine\": { \"command\": \"my-server\" }\n  }\n}\n";

const TWO_SERVERS: &str = r#"version: 1
agents:
  cursor:
    mcp:
      coffer-memory:
        command: coffer
        args: [mcp, --stdio]
        env: { TOKEN: "${env:TOKEN}" }
      docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${env:DOCS_TOKEN}" } }
  claude-code:
    mcp:
      docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${env:DOCS_TOKEN}" } }
"#;

#[test]
fn mcp_servers_in_each_agents_shape_and_out_again() {
    let env = TestEnv::new();
    env.desired(TWO_SERVERS);
    env.put(".cursor/mcp.json", CURSOR_MCP);
    let before = env.tree();
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    env.apply();
    let cursor = String::from_utf8(env.read(".cursor/mcp.json").unwrap()).unwrap();
    assert!(
        cursor.contains("\"mine\": { \"command\": \"my-server\" },"),
        "{cursor}"
    );
    assert!(
        cursor.contains("\"TOKEN\": \"${env:TOKEN}\""),
        "Cursor's own reference syntax: {cursor}"
    );
    let claude = String::from_utf8(env.read(".claude.json").unwrap()).unwrap();
    assert!(
        claude.contains("\"Authorization\": \"Bearer ${DOCS_TOKEN}\""),
        "{claude}"
    );
    assert!(claude.contains("\"type\": \"http\""), "{claude}");
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    env.destroy();
    assert_eq!(env.tree(), before);
}

#[test]
fn a_same_named_server_coffer_did_not_create_is_a_conflict() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  cursor:\n    mcp:\n      mine: { command: coffer }\n");
    env.put(".cursor/mcp.json", CURSOR_MCP);
    let before = env.tree();
    let r = env.run(&["apply", "--auto-approve"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.snapshot());
    assert_eq!(env.tree(), before);
}

#[test]
fn an_adopted_server_is_managed_and_given_back_on_destroy() {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nagents:\n  cursor:\n    mcp:\n      mine: { command: coffer, adopt: true }\n",
    );
    env.put(".cursor/mcp.json", CURSOR_MCP);
    let r = env.apply();
    assert!(r.stdout.contains("1 to change"), "{}", r.stdout);
    let applied = String::from_utf8(env.read(".cursor/mcp.json").unwrap()).unwrap();
    assert!(applied.contains("\"command\": \"coffer\""), "{applied}");
    env.destroy();
    let restored = String::from_utf8(env.read(".cursor/mcp.json").unwrap()).unwrap();
    assert!(
        restored.contains("\"command\": \"my-server\""),
        "{restored}"
    );
    assert!(!restored.contains("coffer"), "{restored}");
}

#[test]
fn removing_a_server_from_the_desired_file_removes_only_it() {
    let env = TestEnv::new();
    env.desired(TWO_SERVERS);
    env.put(".cursor/mcp.json", CURSOR_MCP);
    env.apply();
    env.desired(&TWO_SERVERS.replace(
        "      docs: { url: \"https://example.com/mcp\", headers: { Authorization: \"Bearer ${env:DOCS_TOKEN}\" } }\n  claude-code:",
        "  claude-code:",
    ));
    let r = env.apply();
    assert!(
        r.stdout.contains("0 to add, 0 to change, 1 to remove"),
        "{}",
        r.stdout
    );
    let cursor = String::from_utf8(env.read(".cursor/mcp.json").unwrap()).unwrap();
    assert!(
        cursor.contains("coffer-memory") && !cursor.contains("\"docs\""),
        "{cursor}"
    );
}

#[test]
fn invalid_server_shapes_are_located_errors() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  cursor:\n    mcp:\n      both: { command: x, url: \"https://x\" }\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.snapshot());
}

#[test]
fn unsupported_facets_cite_their_evidence() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  cursor:\n    provider: { base_url: \"http://localhost:8080/v1\" }\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("cursor cannot take the provider facet"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("https://cursor.com/docs"), "{}", r.stderr);
}

#[test]
fn claude_provider_is_a_settings_env_member() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    provider: { base_url: \"http://localhost:8080\" }\n");
    let original = "{\n  \"env\": {\n    \"FOO\": \"1\"\n  },\n  \"model\": \"opus\"\n}\n";
    env.put(".claude/settings.json", original);
    env.apply();
    let applied = String::from_utf8(env.read(".claude/settings.json").unwrap()).unwrap();
    assert_eq!(
        applied,
        "{\n  \"env\": {\n    \"FOO\": \"1\",\n    \"ANTHROPIC_BASE_URL\": \"http://localhost:8080\"\n  },\n  \"model\": \"opus\"\n}\n"
    );
    env.destroy();
    assert_eq!(
        env.read(".claude/settings.json").unwrap(),
        original.as_bytes()
    );
}

/// A Qwen settings file whose `modelProviders.openai` list holds the
/// user's own model, with a comment, in Qwen's JSONC.
const QWEN_SETTINGS: &str = "{\n  // my models\n  \"modelProviders\": {\n    \"openai\": [\n      {\n        \"id\": \"gpt-4o\",\n        \"name\": \"GPT-4o\",\n        \"baseUrl\": \"https://api.openai.com/v1\",\n        \"envKey\": \"OPENAI_API_KEY\"\n      }\n    ]\n  },\n  \"model\": { \"name\": \"gpt-4o\" }\n}\n";

fn qwen_provider(extra: &str) -> String {
    format!(
        "version: 1\nagents:\n  qwen-code:\n    provider: {{ base_url: \"http://localhost:8080/v1\", model: qwen3-coder, api_key_env: MY_KEY{extra} }}\n"
    )
}

#[test]
fn qwen_provider_is_one_model_in_the_users_list() {
    let env = TestEnv::new();
    env.desired(&qwen_provider(""));
    env.put(".qwen/settings.json", QWEN_SETTINGS);
    let plan = env.run(&["plan"]);
    assert!(
        plan.stdout
            .contains("Plan: 1 to add, 0 to change, 0 to remove."),
        "{}",
        plan.stdout
    );
    env.apply();
    assert_eq!(
        String::from_utf8(env.read(".qwen/settings.json").unwrap()).unwrap(),
        QWEN_SETTINGS.replace(
            "        \"envKey\": \"OPENAI_API_KEY\"\n      }\n",
            "        \"envKey\": \"OPENAI_API_KEY\"\n      },\n      {\n        \"id\": \"qwen3-coder\",\n        \"name\": \"coffer\",\n        \"baseUrl\": \"http://localhost:8080/v1\",\n        \"envKey\": \"MY_KEY\"\n      }\n"
        ),
        "coffer's model goes after the user's"
    );
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    // A model the user adds after coffer's is theirs and stays.
    let applied = String::from_utf8(env.read(".qwen/settings.json").unwrap()).unwrap();
    let with_users = applied.replace(
        "        \"envKey\": \"MY_KEY\"\n      }\n",
        "        \"envKey\": \"MY_KEY\"\n      },\n      { \"id\": \"mine\" }\n",
    );
    env.put(".qwen/settings.json", &with_users);
    env.destroy();
    assert_eq!(
        String::from_utf8(env.read(".qwen/settings.json").unwrap()).unwrap(),
        QWEN_SETTINGS.replace(
            "        \"envKey\": \"OPENAI_API_KEY\"\n      }\n",
            "        \"envKey\": \"OPENAI_API_KEY\"\n      },\n      { \"id\": \"mine\" }\n"
        )
    );
}

#[test]
fn qwen_model_the_user_has_is_a_conflict_until_adopted() {
    let env = TestEnv::new();
    let users = QWEN_SETTINGS.replace("\"id\": \"gpt-4o\"", "\"id\": \"qwen3-coder\"");
    env.put(".qwen/settings.json", &users);
    env.desired(&qwen_provider(""));
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("modelProviders.openai[id=qwen3-coder]")
            && r.stderr.contains("adopt: true"),
        "{}",
        r.stderr
    );
    assert_eq!(env.read(".qwen/settings.json").unwrap(), users.as_bytes());

    env.desired(&qwen_provider(", adopt: true"));
    env.apply();
    let adopted = String::from_utf8(env.read(".qwen/settings.json").unwrap()).unwrap();
    assert!(
        adopted.contains("\"baseUrl\": \"http://localhost:8080/v1\"")
            && !adopted.contains("GPT-4o"),
        "{adopted}"
    );
    env.destroy();
    assert_eq!(
        env.read(".qwen/settings.json").unwrap(),
        users.as_bytes(),
        "the user's model comes back"
    );
}

#[test]
fn qwen_provider_in_a_new_file_leaves_nothing_behind() {
    let env = TestEnv::new();
    env.desired(&qwen_provider(""));
    env.apply();
    assert_eq!(
        String::from_utf8(env.read(".qwen/settings.json").unwrap()).unwrap(),
        "{\n  \"modelProviders\": {\n    \"openai\": [\n      {\n        \"id\": \"qwen3-coder\",\n        \"name\": \"coffer\",\n        \"baseUrl\": \"http://localhost:8080/v1\",\n        \"envKey\": \"MY_KEY\"\n      }\n    ]\n  }\n}\n"
    );
    env.destroy();
    assert!(!env.exists(".qwen/settings.json"));
}

#[test]
fn skills_are_copied_and_removed_with_their_folders() {
    let env = TestEnv::new();
    let skill = env.work.join("skills/review");
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: review\ndescription: Review code\n---\nBe thorough.\n",
    )
    .unwrap();
    std::fs::write(skill.join("scripts/run.sh"), "echo hi\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        skill.join("scripts/run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    env.desired("version: 1\nagents:\n  claude-code:\n    skills: [skills/review]\n");
    let before = env.tree();
    env.apply();
    let copied = env.home.join(".claude/skills/review/scripts/run.sh");
    assert_eq!(
        std::fs::metadata(&copied).unwrap().permissions().mode() & 0o777,
        0o755,
        "a script stays runnable"
    );
    assert_eq!(
        env.read(".claude/skills/review/SKILL.md").unwrap(),
        std::fs::read(skill.join("SKILL.md")).unwrap()
    );
    assert!(env.exists(".claude/skills/review/scripts/run.sh"));
    env.destroy();
    assert_eq!(env.tree(), before);
}

#[test]
fn a_skill_without_skill_md_is_refused() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.work.join("skills/empty")).unwrap();
    env.desired("version: 1\nagents:\n  claude-code:\n    skills: [skills/empty]\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("has no SKILL.md"), "{}", r.stderr);
}

#[test]
fn a_skill_file_edited_after_apply_is_left_in_place() {
    let env = TestEnv::new();
    let skill = env.work.join("skills/review");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: review\ndescription: d\n---\nx\n",
    )
    .unwrap();
    env.desired("version: 1\nagents:\n  claude-code:\n    skills: [skills/review]\n");
    env.apply();
    env.put(".claude/skills/review/SKILL.md", "edited by hand\n");
    env.destroy();
    assert_eq!(
        env.read(".claude/skills/review/SKILL.md").unwrap(),
        b"edited by hand\n"
    );
}

#[test]
fn codex_servers_and_provider_are_toml_tables_around_the_users_own() {
    let env = TestEnv::new();
    let original = "# my codex config\nmodel = \"o3\"\n\n[mcp_servers.mine]\ncommand = \"x\"\n\n# profiles\n[profiles.fast]\nmodel = \"o4-mini\"\n";
    env.put(".codex/config.toml", original);
    env.desired(
        r#"version: 1
agents:
  codex:
    mcp:
      coffer-memory:
        command: coffer
        args: [mcp, --stdio]
        env: { TOKEN: "${env:TOKEN}", MODE: fast }
      docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${env:DOCS_TOKEN}" } }
    provider: { base_url: "http://localhost:8080/v1", api_key_env: MY_KEY }
"#,
    );
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    env.apply();
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    env.destroy();
    assert_eq!(env.read(".codex/config.toml").unwrap(), original.as_bytes());
}

#[test]
fn codex_server_whose_variable_is_renamed_needs_it_set() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  codex:\n    mcp:\n      m: { command: x, env: { TOKEN: \"${env:OTHER}\" } }\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("environment variable OTHER is not set"),
        "{}",
        r.stderr
    );
    let r = env.run_cmd(env.cmd().env("OTHER", "v4lue").arg("plan"));
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert!(
        r.stdout.contains("TOKEN = \"(sensitive)\"") && !r.stdout.contains("v4lue"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_broken_codex_config_is_refused_with_its_position() {
    let env = TestEnv::new();
    env.put(".codex/config.toml", "model = \"o3\"\n[mcp_servers\n");
    env.desired("version: 1\nagents:\n  codex:\n    mcp:\n      m: { command: x }\n");
    let before = env.tree();
    let r = env.run(&["apply", "--auto-approve"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("~/.codex/config.toml:2:"), "{}", r.stderr);
    assert_eq!(env.tree(), before);
}

#[test]
fn instructions_blocks_and_rule_files() {
    let env = TestEnv::new();
    env.put(".claude/CLAUDE.md", "# Mine\r\n\r\nNo final newline");
    std::fs::write(env.work.join("rules.md"), "Always run the tests first.\n").unwrap();
    env.desired(
        "version: 1\nagents:\n  claude-code:\n    instructions: { file: rules.md }\n  codex:\n    instructions: { text: \"Be brief.\" }\n",
    );
    let before = env.tree();
    env.apply();
    assert_eq!(
        env.read(".claude/CLAUDE.md").unwrap(),
        b"# Mine\r\n\r\nNo final newline\r\n\r\n<!-- coffer:begin instructions -->\r\nAlways run the tests first.\r\n<!-- coffer:end instructions -->\r\n"
    );
    assert_eq!(
        env.read(".codex/AGENTS.md").unwrap(),
        b"<!-- coffer:begin instructions -->\nBe brief.\n<!-- coffer:end instructions -->\n"
    );
    env.destroy();
    assert_eq!(env.tree(), before);
}

#[test]
fn a_rule_file_where_that_is_the_agents_channel() {
    let env = TestEnv::new();
    env.desired("version: 1\nscope: project\nagents:\n  cursor:\n    instructions: { text: \"Use pnpm.\" }\n");
    env.apply();
    let rule =
        std::fs::read_to_string(env.work.join(".cursor/rules/coffer-instructions.mdc")).unwrap();
    assert!(rule.starts_with("---\ndescription: "), "{rule}");
    assert!(
        rule.contains("alwaysApply: true\n---\n<!-- coffer:managed"),
        "{rule}"
    );
    assert!(rule.ends_with("Use pnpm.\n"), "{rule}");
    env.destroy();
    assert!(!env.work.join(".cursor").exists());
}

#[test]
fn agents_sharing_a_file_share_one_block_or_conflict() {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nscope: project\nagents:\n  codex:\n    instructions: { text: \"Same.\" }\n  opencode:\n    instructions: { text: \"Same.\" }\n",
    );
    let r = env.run(&["plan"]);
    assert!(r.stdout.contains("Plan: 1 to add"), "{}", r.stdout);
    env.desired(
        "version: 1\nscope: project\nagents:\n  codex:\n    instructions: { text: \"One.\" }\n  opencode:\n    instructions: { text: \"Two.\" }\n",
    );
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("codex and opencode want different block instructions"),
        "{}",
        r.stderr
    );
}

#[test]
fn broken_markers_are_refused_where_they_are() {
    let env = TestEnv::new();
    env.put(
        ".codex/AGENTS.md",
        "# Rules\n\n<!-- coffer:begin instructions -->\nold\n",
    );
    env.desired("version: 1\nagents:\n  codex:\n    instructions: { text: \"x\" }\n");
    let before = env.tree();
    let r = env.run(&["apply", "--auto-approve"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.snapshot());
    assert_eq!(env.tree(), before);
}

#[test]
fn markers_inside_code_fences_are_text() {
    let env = TestEnv::new();
    let doc = "# How coffer marks blocks\n\n```\n<!-- coffer:begin instructions -->\n```\n";
    env.put(".codex/AGENTS.md", doc);
    env.desired("version: 1\nagents:\n  codex:\n    instructions: { text: \"x\" }\n");
    env.apply();
    env.destroy();
    assert_eq!(env.read(".codex/AGENTS.md").unwrap(), doc.as_bytes());
}

#[test]
fn hermes_context_is_written_ahead_of_time_into_its_agents_md() {
    let env = TestEnv::new();
    std::fs::write(env.work.join("rules.md"), "Be kind to the tests.\n").unwrap();
    env.put(".hermes/AGENTS.md", "# My Hermes rules\n");
    env.desired("version: 1\nagents:\n  hermes:\n    context:\n      sources: [{ file: rules.md }, { command: [prompt-context] }]\n");
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    env.apply();
    env.destroy();
    assert_eq!(
        env.read(".hermes/AGENTS.md").unwrap(),
        b"# My Hermes rules\n"
    );
    env.desired("version: 1\nagents:\n  hermes:\n    context: {}\n");
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("no file source gives it any text"),
        "{}",
        r.stderr
    );
}

#[test]
fn hermes_yaml_config_gets_servers_and_a_provider_and_gives_them_back() {
    let env = TestEnv::new();
    let original = "# ~/.hermes/config.yaml\nmodel: { provider: custom, default: my-model }\nmcp_servers:\n  ctx:    { command: npx, args: [\"-y\", \"ctx-mcp\"] }\nhooks: {}\n";
    env.put(".hermes/config.yaml", original);
    env.desired(
        "version: 1\nagents:\n  hermes:\n    mcp:\n      coffer-memory: { command: coffer, args: [mcp], env: { TOKEN: \"${env:TOKEN}\" } }\n    provider: { base_url: \"http://localhost:8080/v1\" }\n",
    );
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    env.apply();
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    env.destroy();
    assert_eq!(
        env.read(".hermes/config.yaml").unwrap(),
        original.as_bytes()
    );
}

#[test]
fn a_new_hermes_config_is_created_and_deleted_again() {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nagents:\n  hermes:\n    mcp:\n      m: { url: \"https://example.com/mcp\" }\n",
    );
    env.apply();
    assert_eq!(
        String::from_utf8(env.read(".hermes/config.yaml").unwrap()).unwrap(),
        "mcp_servers:\n  m:\n    url: https://example.com/mcp\n"
    );
    env.destroy();
    assert!(!env.exists(".hermes"));
}

#[test]
fn claude_json_is_written_under_claude_codes_own_lock() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    mcp:\n      m: { command: x }\n");
    env.put(".claude.json", "{\n  \"numStartups\": 3\n}\n");
    let lock = env.home.join(".claude.json.lock");
    // Held by a running Claude Code, which lets go shortly.
    std::fs::create_dir(&lock).unwrap();
    let release = {
        let lock = lock.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(400));
            std::fs::remove_dir(&lock).unwrap();
        })
    };
    let start = std::time::Instant::now();
    env.apply();
    release.join().unwrap();
    assert!(
        start.elapsed() >= std::time::Duration::from_millis(300),
        "apply did not wait for the lock"
    );
    assert!(
        String::from_utf8(env.read(".claude.json").unwrap())
            .unwrap()
            .contains("\"m\"")
    );
    assert!(!lock.exists(), "coffer gives the lock back");
}
