//! The command line as users see it: plan output, exit codes, approval.

use crate::common::{THREE_AGENTS, TestEnv};

#[test]
fn plan_shows_diffs_and_summary() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.put(
        ".claude/settings.json",
        "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\"]\n  }\n}\n",
    );
    let r = env.run(&["plan"]);
    insta::assert_snapshot!(r.snapshot());
    assert!(!env.exists(".codex"), "plan must not write");
}

#[test]
fn detailed_exitcode_is_2_with_changes_and_0_without() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    assert_eq!(env.run(&["plan", "--detailed-exitcode"]).code, 2);
    assert_eq!(
        env.run(&["plan"]).code,
        0,
        "without the flag changes are success"
    );
    env.apply();
    let r = env.run(&["plan", "--detailed-exitcode"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    insta::assert_snapshot!(r.snapshot(), @r"
    No changes. Your agents match the desired state.
    [exit status: 0]
    ");
}

#[test]
fn apply_without_a_terminal_refuses_and_writes_nothing() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    let before = env.tree();
    let r = env.run(&["apply"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--auto-approve"), "{}", r.stderr);
    assert_eq!(env.tree(), before);
    assert!(
        !env.root.join("state/coffer/state.json").exists(),
        "no record written either"
    );
}

#[test]
fn apply_twice_rewrites_nothing() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    env.apply();
    let settings = env.home.join(".claude/settings.json");
    let mtime = std::fs::metadata(&settings).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let r = env.apply();
    assert!(r.stdout.starts_with("No changes."), "{}", r.stdout);
    assert_eq!(
        std::fs::metadata(&settings).unwrap().modified().unwrap(),
        mtime
    );
}

#[test]
fn apply_and_destroy_report_what_they_did() {
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    let r = env.apply();
    assert!(
        r.stdout
            .ends_with("Apply complete: 4 added, 0 changed, 0 removed.\n"),
        "{}",
        r.stdout
    );
    let r = env.destroy();
    insta::assert_snapshot!(r.snapshot());
}

#[test]
fn file_option_and_default_file() {
    let env = TestEnv::new();
    std::fs::write(env.work.join("other.yaml"), THREE_AGENTS).unwrap();
    let r = env.run(&["plan", "-f", "other.yaml"]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    let r = env.run(&["plan"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("coffer.yaml"), "{}", r.stderr);
}

#[test]
fn usage_errors_exit_1() {
    let env = TestEnv::new();
    assert_eq!(env.run(&["plan", "--no-such-flag"]).code, 1);
    assert_eq!(env.run(&["frobnicate"]).code, 1);
    assert_eq!(env.run(&[]).code, 1);
    assert_eq!(env.run(&["--version"]).code, 0);
}

#[test]
fn help_texts() {
    let env = TestEnv::new();
    insta::assert_snapshot!("help", env.run(&["--help"]).snapshot());
    insta::assert_snapshot!("help_plan", env.run(&["plan", "--help"]).snapshot());
    insta::assert_snapshot!("help_hook", env.run(&["hook", "--help"]).snapshot());
}

#[test]
fn codex_home_moves_codex_files() {
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  codex:\n    context: {}\n");
    let codex_home = env.root.join("codex-home");
    let r = env.run_cmd(
        env.cmd()
            .env("CODEX_HOME", &codex_home)
            .args(["apply", "--auto-approve"]),
    );
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert!(codex_home.join("hooks.json").is_file());
    assert!(!env.exists(".codex"));
}

#[test]
fn hook_without_settings_is_silent() {
    let env = TestEnv::new();
    let r = env.run(&[
        "hook",
        "--dialect",
        "claude",
        "--event",
        "SessionStart",
        "--unknown",
    ]);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
}

#[test]
fn completions_and_man_page() {
    let env = TestEnv::new();
    for shell in ["bash", "zsh", "fish"] {
        let r = env.run(&["completions", shell]);
        assert_eq!(r.code, 0);
        assert!(
            r.stdout.contains("destroy") && r.stdout.contains("detailed-exitcode"),
            "{shell}"
        );
    }
    let r = env.run(&["man"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.starts_with(".ie") && r.stdout.contains(".TH coffer 1"),
        "{}",
        r.stdout
    );
}

/// `script` gives coffer a terminal; the answer comes on its input.
fn on_a_terminal(env: &TestEnv, args: &str, answer: &str) -> crate::common::Run {
    use std::io::Write;
    use std::process::Stdio;
    let coffer = env!("CARGO_BIN_EXE_coffer");
    // The test environment's variables, but colour allowed: it is a terminal.
    let vars: Vec<_> = env
        .cmd()
        .get_envs()
        .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
        .filter(|(k, _)| k != "NO_COLOR")
        .collect();
    let mut child = std::process::Command::new("script")
        .env_clear()
        .envs(vars)
        .current_dir(&env.work)
        .args(["-qec", &format!("{coffer} {args}"), "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answer.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    crate::common::Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

#[test]
fn on_a_terminal_apply_asks_and_only_yes_applies() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("!!! `script` (util-linux) is missing: SKIPPING the terminal prompt test !!!");
        return;
    }
    let env = TestEnv::new();
    env.desired(THREE_AGENTS);
    let r = on_a_terminal(&env, "apply", "no\n");
    assert!(
        r.stdout.contains("Only 'yes' will be accepted"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("\u{1b}["),
        "a terminal gets colour: {:?}",
        r.stdout
    );
    assert!(!env.exists(".cursor"), "no means no");
    let r = on_a_terminal(&env, "apply", "yes\n");
    assert!(r.stdout.contains("Apply complete: 4 added"), "{}", r.stdout);
    assert!(env.exists(".cursor/hooks.json"));
}
