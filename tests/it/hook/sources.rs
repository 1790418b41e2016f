//! Sources and every way they fail: each failure leaves the turn usable —
//! exit 0, nothing on stderr, the other sources' context still delivered.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::Stdio;
use std::sync::mpsc;

use serde_json::{Value, json};

use super::{
    command_source, file_source, finish, hook_cmd, quiet_stdout, result_json, run, script,
    settings, write_settings,
};
use crate::common::TestEnv;

/// A Claude session start with a file source and one provider.
fn session_start_with(env: &TestEnv, provider: Value) -> String {
    let src = file_source(env, "rules/house.md", "House rule.\n");
    write_settings(
        env,
        &settings(
            "claude",
            &[("SessionStart", "session-start")],
            json!([src, provider]),
        ),
    );
    quiet_stdout(&run(env, "claude", "SessionStart", None))
}

#[test]
fn a_good_provider_adds_its_context_after_the_files() {
    let env = TestEnv::new();
    let p = script(
        &env,
        "good",
        &format!(
            "cat >/dev/null; echo '{}'",
            result_json("From the provider.")
        ),
    );
    assert_eq!(
        session_start_with(&env, command_source("command-1", &p, 5000)),
        "House rule.\n\nFrom the provider.\n"
    );
}

#[test]
fn every_provider_failure_leaves_the_file_context() {
    let good = result_json("never shown");
    let cases = [
        ("sleeps", "sleep 30".to_owned()),
        // Its child keeps the pipe open; the whole group is killed.
        ("sleeps-in-a-child", "sleep 30 & wait".to_owned()),
        (
            "prints-1-MiB",
            "head -c 1048576 /dev/zero | tr '\\000' a".to_owned(),
        ),
        ("invalid-json", "echo 'this is not JSON'".to_owned()),
        ("exits-3", format!("echo '{good}'; exit 3")),
        ("killed", format!("echo '{good}'; kill -9 $$")),
        ("empty", "true".to_owned()),
        (
            "wrong-version",
            format!("echo '{}'", good.replace("/v1", "/v9")),
        ),
        (
            "extra-field",
            format!(
                "echo '{}'",
                good.replace("\"reasons\"", "\"debug\":1,\"reasons\"")
            ),
        ),
        (
            "never-reads-stdin",
            format!("echo '{good}' >/dev/null; exec sleep 30"),
        ),
    ];
    for (name, body) in cases {
        let env = TestEnv::new();
        let p = script(&env, name, &body);
        assert_eq!(
            session_start_with(&env, command_source("command-1", &p, 300)),
            "House rule.\n",
            "{name}"
        );
    }
    let env = TestEnv::new();
    let missing = env.root.join("bin/not-there");
    assert_eq!(
        session_start_with(&env, command_source("command-1", &missing, 300)),
        "House rule.\n"
    );
    let env = TestEnv::new();
    let not_executable = env.root.join("rules/house.md");
    assert_eq!(
        session_start_with(&env, command_source("command-1", &not_executable, 300)),
        "House rule.\n"
    );
}

#[test]
fn the_provider_gets_a_versioned_request_without_a_prompt_at_session_start() {
    let env = TestEnv::new();
    let seen = env.root.join("request.json");
    let p = script(
        &env,
        "rec",
        &format!("cat > '{}'; echo '{}'", seen.display(), result_json("ok")),
    );
    session_start_with(&env, command_source("command-1", &p, 5000));
    let req: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(
        req,
        json!({"format": "coffer.context-request/v1", "agent": "claude-agent", "dialect": "claude",
               "event": "session-start", "native_event": "SessionStart", "turn": 0, "cwd": env.work})
    );
}

/// An agent that leaves stdin open must not stall its own start: the hook
/// never reads stdin at session start.
#[test]
fn stdin_left_open_at_session_start_does_not_stall() {
    let env = TestEnv::new();
    let src = file_source(&env, "rules/house.md", "House rule.\n");
    write_settings(
        &env,
        &settings("claude", &[("SessionStart", "session-start")], json!([src])),
    );
    let mut child = hook_cmd(&env, "claude", "SessionStart")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let open_stdin = child.stdin.take();
    let out = finish(child);
    drop(open_stdin);
    assert_eq!(quiet_stdout(&out), "House rule.\n");
}

#[test]
fn stdin_left_open_at_a_prompt_is_bounded() {
    let env = TestEnv::new();
    let p = script(
        &env,
        "p",
        &format!("cat >/dev/null; echo '{}'", result_json("per prompt")),
    );
    let mut s = settings(
        "claude",
        &[("UserPromptSubmit", "user-prompt-submit")],
        json!([command_source("command-1", &p, 5000)]),
    );
    s["per_prompt"] = json!(true);
    s["session_note"] = json!(false);
    s["stdin_timeout_ms"] = json!(100);
    write_settings(&env, &s);
    let mut child = hook_cmd(&env, "claude", "UserPromptSubmit")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut open_stdin = child.stdin.take().unwrap();
    open_stdin.write_all(b"{\"session_id\":").unwrap();
    let out = finish(child);
    drop(open_stdin);
    assert!(quiet_stdout(&out).contains("per prompt"));
}

#[test]
fn file_sources_take_globs_in_name_order_and_skip_what_is_gone() {
    let env = TestEnv::new();
    file_source(&env, "rules/b.md", "B\n");
    file_source(&env, "rules/a.md", "A\n");
    let gone = env.root.join("rules/gone.md");
    let s = settings(
        "claude",
        &[("SessionStart", "session-start")],
        json!([
            {"id": "file-1", "kind": "file", "path": env.root.join("rules/*.md"), "glob": true},
            {"id": "file-2", "kind": "file", "path": gone, "glob": false},
            {"id": "file-3", "kind": "file", "path": env.root.join("nothing/*.md"), "glob": true},
        ]),
    );
    write_settings(&env, &s);
    assert_eq!(
        quiet_stdout(&run(&env, "claude", "SessionStart", None)),
        "A\n\nB\n"
    );
}

#[test]
fn the_note_is_capped() {
    let env = TestEnv::new();
    let src = file_source(&env, "big.md", &"0123456789\n".repeat(2000));
    let mut s = settings("codex", &[("SessionStart", "session-start")], json!([src]));
    s["note_max_bytes"] = json!(1024);
    write_settings(&env, &s);
    let out = quiet_stdout(&run(&env, "codex", "SessionStart", None));
    let v: Value = serde_json::from_str(&out).unwrap();
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(ctx.len() <= 1024, "{}", ctx.len());
    assert!(ctx.ends_with("\n[coffer: context truncated]\n"), "{ctx}");
}

/// A one-request HTTP server on a free local port: answers `response` and
/// reports the request line it got.
fn serve_once(response: &'static str) -> (String, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://{}/api/v1/agents/claude-code/session-context",
        listener.local_addr().unwrap()
    );
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap() == 0 || h == "\r\n" {
                break;
            }
        }
        let _ = tx.send(line);
        if !response.is_empty() {
            let _ = (&stream).write_all(response.as_bytes());
        } else {
            // Never answer: hold the connection until the test ends.
            std::thread::sleep(std::time::Duration::from_secs(30));
        }
    });
    (url, rx)
}

const TEXT_OK: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 9\r\nConnection: close\r\n\r\nfrom url\n";

fn url_source(url: &str, timeout_ms: u64) -> Value {
    json!({"id": "url-1", "kind": "url", "url": url, "timeout_ms": timeout_ms, "max_output_bytes": 65536})
}

#[test]
fn url_source_sends_the_known_cwd() {
    let env = TestEnv::new();
    let (url, rx) = serve_once(TEXT_OK);
    write_settings(
        &env,
        &settings(
            "claude",
            &[("SessionStart", "session-start")],
            json!([url_source(&url, 5000)]),
        ),
    );
    assert_eq!(
        quiet_stdout(&run(&env, "claude", "SessionStart", None)),
        "from url\n"
    );
    let line = rx.recv().unwrap();
    let want = format!("cwd={}", env.work.display().to_string().replace('/', "%2F"));
    assert!(
        line.starts_with("GET /api/v1/agents/claude-code/session-context?"),
        "{line}"
    );
    assert!(line.contains(&want), "{line}");
}

/// A working folder deleted under the agent is not known: `cwd` is
/// omitted, never sent empty.
#[test]
fn url_source_omits_a_deleted_cwd() {
    let env = TestEnv::new();
    let (url, rx) = serve_once(TEXT_OK);
    write_settings(
        &env,
        &settings(
            "claude",
            &[("SessionStart", "session-start")],
            json!([url_source(&url, 5000)]),
        ),
    );
    let doomed = env.root.join("doomed");
    std::fs::create_dir(&doomed).unwrap();
    // The same cleared environment as every CLI test, but started from a
    // shell that removes its own working folder first.
    let base = env.cmd();
    let mut sh = std::process::Command::new("sh");
    sh.env_clear();
    for (k, v) in base.get_envs() {
        if let Some(v) = v {
            sh.env(k, v);
        }
    }
    sh.args([
        "-c",
        "cd \"$1\" && rmdir \"$1\" && exec \"$2\" hook --dialect claude --event SessionStart",
        "sh",
    ])
    .arg(&doomed)
    .arg(env!("CARGO_BIN_EXE_coffer"))
    .stdin(Stdio::null());
    let out = sh.current_dir(&env.work).output().unwrap();
    assert_eq!(quiet_stdout(&out), "from url\n");
    let line = rx.recv().unwrap();
    assert!(!line.contains("cwd"), "{line}");
}

#[test]
fn url_source_failures_leave_the_turn_usable() {
    for response in [
        "",
        "HTTP/1.1 500 Oops\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\nnope",
        "HTTP/1.1 302 Found\r\nLocation: http://example.invalid/\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 2\r\nConnection: close\r\n\r\nxx",
    ] {
        let env = TestEnv::new();
        let (url, _rx) = serve_once(response);
        let src = file_source(&env, "rules/house.md", "House rule.\n");
        write_settings(
            &env,
            &settings(
                "claude",
                &[("SessionStart", "session-start")],
                json!([src, url_source(&url, 300)]),
            ),
        );
        assert_eq!(
            quiet_stdout(&run(&env, "claude", "SessionStart", None)),
            "House rule.\n",
            "{response:?}"
        );
    }
    // Nobody listening at all.
    let env = TestEnv::new();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/x");
    write_settings(
        &env,
        &settings(
            "claude",
            &[("SessionStart", "session-start")],
            json!([url_source(&url, 300)]),
        ),
    );
    assert_eq!(quiet_stdout(&run(&env, "claude", "SessionStart", None)), "");
}

#[test]
fn url_source_takes_a_json_result() {
    let env = TestEnv::new();
    let body = result_json("json context");
    let response: &'static str = Box::leak(
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_boxed_str(),
    );
    let (url, _rx) = serve_once(response);
    write_settings(
        &env,
        &settings(
            "codex",
            &[("SessionStart", "session-start")],
            json!([url_source(&url, 5000)]),
        ),
    );
    let out = quiet_stdout(&run(&env, "codex", "SessionStart", None));
    assert!(
        out.contains("\"additionalContext\":\"json context\\n\""),
        "{out}"
    );
}
