//! `coffer hook`: envelopes per dialect and event, sources and their
//! failure modes, tiers, privacy, and the settings `apply` leaves for it.
//!
//! Most tests write the hook's settings file directly (the recorded format
//! is the contract between apply and the hook), so that dialects the
//! registry does not carry yet are covered too.

mod envelopes;
mod real_agents;
mod schema_check;
mod settings;
mod sources;
mod tiers;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::TestEnv;

/// The hook's state folder in a test env.
pub fn state_dir(env: &TestEnv) -> PathBuf {
    env.root.join("state/coffer")
}

/// Settings for `dialect` with the given events (native → coffer) and
/// sources; `tweak` adjusts the rest.
pub fn settings(dialect: &str, events: &[(&str, &str)], sources: Value) -> Value {
    json!({
        "format": "coffer.hook-config/v1",
        "agent": format!("{dialect}-agent"),
        "dialect": dialect,
        "events": events.iter().map(|(n, e)| (n.to_string(), json!(e))).collect::<serde_json::Map<_, _>>(),
        "session_note": true,
        "per_prompt": false,
        "note_max_bytes": 8192,
        "prompt_max_bytes": 4096,
        "stdin_max_bytes": 1048576,
        "stdin_timeout_ms": 1000,
        "audit": false,
        "sources": sources,
    })
}

pub fn write_settings(env: &TestEnv, settings: &Value) {
    let dialect = settings["dialect"].as_str().unwrap();
    let path = state_dir(env).join(format!("hooks/{dialect}.json"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(settings).unwrap()).unwrap();
}

/// A file source reading `rel` under the env's root, written with `text`.
pub fn file_source(env: &TestEnv, rel: &str, text: &str) -> Value {
    let path = env.root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    json!({"id": format!("file-{rel}"), "kind": "file", "path": path, "glob": false})
}

/// An executable shell script under the env's root.
pub fn script(env: &TestEnv, name: &str, body: &str) -> PathBuf {
    let path = env.root.join("bin").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A command source running `program` with small limits.
pub fn command_source(id: &str, program: &Path, timeout_ms: u64) -> Value {
    json!({"id": id, "kind": "command", "argv": [program], "timeout_ms": timeout_ms, "max_output_bytes": 65536})
}

/// A valid `coffer.context-result/v1` document.
pub fn result_json(context: &str) -> String {
    json!({"format": "coffer.context-result/v1", "provider": "test-provider", "context": context,
           "matched": 1, "succeeded": 1, "failed": 0, "reasons": []})
    .to_string()
}

/// `coffer hook --dialect D --event E` in the env, stdin as given.
pub fn hook_cmd(env: &TestEnv, dialect: &str, event: &str) -> Command {
    let mut cmd = env.cmd();
    cmd.args(["hook", "--dialect", dialect, "--event", event]);
    cmd
}

/// Run the hook with `stdin` (closed after writing), or with stdin null.
pub fn run(env: &TestEnv, dialect: &str, event: &str, stdin: Option<&str>) -> Output {
    let mut cmd = hook_cmd(env, dialect, event);
    match stdin {
        None => cmd.output().unwrap(),
        Some(text) => {
            let mut child = cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // The hook may rightly exit without reading (session start, no
            // settings): a broken pipe here is not a failure.
            let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
            finish(child)
        }
    }
}

/// Wait for the hook, failing the test if it hangs: a liveness check, not
/// a timing one (the bound is far above any limit the tests configure).
pub fn finish(mut child: Child) -> Output {
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the hook hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// Stdout of a run that must have exited 0 with nothing on stderr.
pub fn quiet_stdout(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "exit status");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "stderr must stay empty"
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A prompt event's stdin as Claude-style agents send it.
pub fn prompt_input(session: &str, prompt: &str, cwd: &Path) -> String {
    json!({"session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": prompt, "cwd": cwd})
        .to_string()
}
