//! Project scope: a desired file that says `scope: project` manages the
//! project files under its own folder, and its record is its own, so the
//! user-scope desired state and each project's never undo each other.

use crate::common::{THREE_AGENTS, TestEnv};

const PROJECT: &str = "version: 1
scope: project
agents:
  claude-code:
    context: {}
    mcp:
      docs: { url: \"https://example.com/mcp\" }
  cursor:
    mcp:
      docs: { url: \"https://example.com/mcp\" }
";

#[test]
fn project_files_live_under_the_desired_files_folder() {
    let env = TestEnv::new();
    env.desired(PROJECT);
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    env.apply();
    assert!(env.work.join(".claude/settings.json").is_file());
    assert!(env.work.join(".mcp.json").is_file());
    assert!(env.work.join(".cursor/mcp.json").is_file());
    assert!(!env.exists(".claude"), "the home is not touched");
    env.destroy();
    let left: Vec<_> = std::fs::read_dir(&env.work)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["coffer.yaml"]);
}

#[test]
fn user_and_project_desired_states_keep_their_own_records() {
    let env = TestEnv::new();
    std::fs::write(env.work.join("user.yaml"), THREE_AGENTS).unwrap();
    env.desired(PROJECT);
    assert_eq!(
        env.run(&["apply", "-f", "user.yaml", "--auto-approve"])
            .code,
        0
    );
    env.apply();
    // Each plan sees only its own partition: no changes either way.
    assert_eq!(
        env.run(&["plan", "-f", "user.yaml", "--detailed-exitcode"])
            .code,
        0
    );
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 0);
    // Destroying the project leaves the user scope alone.
    env.destroy();
    assert!(env.exists(".cursor/hooks.json"));
    assert!(!env.work.join(".mcp.json").exists());
}

#[test]
fn a_facet_an_agent_lacks_at_this_scope_cites_why() {
    let env = TestEnv::new();
    env.desired(
        "version: 1\nscope: project\nagents:\n  hermes:\n    mcp:\n      x: { command: y }\n",
    );
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("hermes cannot take the mcp facet at project scope"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_hook_reads_the_projects_settings_inside_it_and_the_users_elsewhere() {
    let env = TestEnv::new();
    std::fs::write(env.work.join("user.md"), "user rules\n").unwrap();
    std::fs::write(env.work.join("project.md"), "project rules\n").unwrap();
    std::fs::write(
        env.work.join("user.yaml"),
        "version: 1\nagents:\n  claude-code:\n    context:\n      sources: [{ file: user.md }]\n",
    )
    .unwrap();
    env.desired("version: 1\nscope: project\nagents:\n  claude-code:\n    context:\n      sources: [{ file: project.md }]\n");
    assert_eq!(
        env.run(&["apply", "-f", "user.yaml", "--auto-approve"])
            .code,
        0
    );
    env.apply();
    let hook = |dir: &std::path::Path| {
        let out = env
            .cmd()
            .current_dir(dir)
            .args(["hook", "--dialect", "claude", "--event", "SessionStart"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let sub = env.work.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    assert!(hook(&sub).contains("project rules"), "{}", hook(&sub));
    assert!(
        hook(&env.home).contains("user rules"),
        "{}",
        hook(&env.home)
    );
    env.destroy();
    assert!(
        hook(&sub).contains("user rules"),
        "the user's settings survive the project's destroy"
    );
}
