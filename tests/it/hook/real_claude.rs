//! The real-agent check: Claude Code itself runs the installed entries.
//!
//! Opt-in, because it needs the Claude Code binary: set
//! `COFFER_REAL_CLAUDE` to it (the npm package `@anthropic-ai/claude-code`
//! ships it as `node_modules/@anthropic-ai/claude-code-linux-x64/claude`).
//! No account or network is needed: `ANTHROPIC_BASE_URL` points Claude Code
//! at a stand-in Messages API on localhost that records each request and
//! answers "ok", so the test can see what reached the model.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use crate::common::TestEnv;

#[test]
fn claude_code_runs_the_installed_hook_and_the_model_gets_the_context() {
    let Some(claude) = std::env::var_os("COFFER_REAL_CLAUDE") else {
        eprintln!("skipped: set COFFER_REAL_CLAUDE to a Claude Code binary to run it");
        return;
    };
    let env = TestEnv::new();
    std::fs::create_dir_all(env.work.join("rules")).unwrap();
    std::fs::write(
        env.work.join("rules/house.md"),
        "NOTE-MARKER-7f3a: use pnpm.\n",
    )
    .unwrap();
    let provider = env.work.join("provider.sh");
    std::fs::write(
        &provider,
        "#!/bin/sh\ncat >/dev/null\necho '{\"format\":\"coffer.context-result/v1\",\"provider\":\"t\",\"context\":\"PROMPT-MARKER-9c1e\",\"matched\":1,\"succeeded\":1,\"failed\":0}'\n",
    )
    .unwrap();
    std::fs::set_permissions(
        &provider,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    env.desired(
        "version: 1
agents:
  claude-code:
    context:
      events: [session-start, user-prompt-submit]
      per_prompt: true
      sources:
        - file: rules/house.md
        - command: [./provider.sh]
",
    );
    env.apply();

    let (base_url, bodies) = fake_messages_api();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_coffer"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new(&claude);
    cmd.env_clear();
    for (k, v) in env.cmd().get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    let out = cmd
        .env("PATH", path)
        .env("ANTHROPIC_BASE_URL", &base_url)
        .env("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
        .args(["-p", "hello", "--debug"])
        .current_dir(&env.work)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "claude failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let sent = bodies.lock().unwrap().join("\n");
    assert!(
        sent.contains("NOTE-MARKER-7f3a"),
        "the note did not reach the model"
    );
    assert!(
        sent.contains("PROMPT-MARKER-9c1e"),
        "the per-prompt context did not reach the model"
    );
    let debug = std::fs::read_dir(env.home.join(".claude/debug"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect::<String>();
    assert!(
        debug
            .contains("[coffer hook --dialect claude --event SessionStart] finished with status 0"),
        "{debug}"
    );
    assert!(!debug.contains("SessionStart:startup error"), "{debug}");
}

/// A Messages API stand-in: records request bodies, answers one streamed
/// "ok" (or a plain message when not asked to stream).
fn fake_messages_api() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&bodies);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let seen = Arc::clone(&seen);
            std::thread::spawn(move || serve(stream, &seen));
        }
    });
    (url, bodies)
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut len = 0;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            if h == "\r\n" {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        let streamed = body.contains("\"stream\":true");
        seen.lock().unwrap().push(body);
        let (kind, payload) = if !request_line.starts_with("POST") {
            ("text/plain", String::new())
        } else if streamed {
            ("text/event-stream", sse())
        } else {
            (
                "application/json",
                r#"{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}"#.to_owned(),
            )
        };
        let status = if request_line.starts_with("POST") {
            "200 OK"
        } else {
            "404 Not Found"
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\r\n",
            payload.len()
        );
        if writer
            .write_all(head.as_bytes())
            .and_then(|_| writer.write_all(payload.as_bytes()))
            .is_err()
        {
            return;
        }
    }
}

fn sse() -> String {
    let events = [
        (
            "message_start",
            r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}"#,
        ),
        (
            "content_block_start",
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        ),
        (
            "content_block_delta",
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}"#,
        ),
        (
            "content_block_stop",
            r#"{"type":"content_block_stop","index":0}"#,
        ),
        (
            "message_delta",
            r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}"#,
        ),
        ("message_stop", r#"{"type":"message_stop"}"#),
    ];
    events
        .iter()
        .map(|(e, d)| format!("event: {e}\ndata: {d}\n\n"))
        .collect()
}
