//! The real-agent checks: Claude Code, Codex and Gemini CLI themselves run
//! coffer's hook entries, and the model gets the context.
//!
//! Opt-in, because they need the agents' binaries: set `COFFER_REAL_CLAUDE`,
//! `COFFER_REAL_CODEX` and/or `COFFER_REAL_GEMINI` to them. The npm packages
//! ship them: `@anthropic-ai/claude-code` as
//! `node_modules/@anthropic-ai/claude-code-linux-x64/claude`, `@openai/codex`
//! as `node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex`,
//! `@google/gemini-cli` as `node_modules/.bin/gemini` (needs node).
//! No account or network is needed: each agent is pointed at a stand-in
//! model API on localhost (Anthropic Messages, OpenAI Responses, Gemini) that
//! records each request and answers "ok", so the test sees exactly what
//! reached the model.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};

use crate::common::TestEnv;

/// A home with coffer applied for `agent`: a file source (the note) and a
/// provider that answers differently at session start and at a prompt.
fn applied(agent: &str) -> TestEnv {
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
        r#"#!/bin/sh
case "$(cat)" in *session-start*) c=START-MARKER-2b4d ;; *) c=PROMPT-MARKER-9c1e ;; esac
echo "{\"format\":\"coffer.context-result/v1\",\"provider\":\"t\",\"context\":\"$c\",\"matched\":1,\"succeeded\":1,\"failed\":0}"
"#,
    )
    .unwrap();
    std::fs::set_permissions(
        &provider,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    env.desired(&format!(
        "version: 1
agents:
  {agent}:
    context:
      events: [session-start, user-prompt-submit]
      per_prompt: true
      sources:
        - file: rules/house.md
        - command: [./provider.sh]
"
    ));
    env.apply();
    env
}

/// The agent's command with the test env's variables and coffer on PATH.
fn agent_cmd(env: &TestEnv, program: &OsString) -> Command {
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_coffer"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new(program);
    cmd.env_clear();
    for (k, v) in env.cmd().get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.env("PATH", path)
        .current_dir(&env.work)
        .stdin(Stdio::null());
    cmd
}

fn assert_all_context_reached_the_model(out: &Output, bodies: &Mutex<Vec<String>>) {
    assert!(
        out.status.success(),
        "the agent failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent = bodies.lock().unwrap().join("\n");
    for marker in [
        "NOTE-MARKER-7f3a",
        "START-MARKER-2b4d",
        "PROMPT-MARKER-9c1e",
    ] {
        assert!(sent.contains(marker), "{marker} did not reach the model");
    }
}

#[test]
fn claude_code_runs_the_installed_hook_and_the_model_gets_the_context() {
    let Some(claude) = std::env::var_os("COFFER_REAL_CLAUDE") else {
        eprintln!("skipped: set COFFER_REAL_CLAUDE to a Claude Code binary to run it");
        return;
    };
    let env = applied("claude-code");
    let (base_url, bodies) = fake_model_api();
    let out = agent_cmd(&env, &claude)
        .env("ANTHROPIC_BASE_URL", &base_url)
        .env("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
        .args(["-p", "hello", "--debug"])
        .output()
        .unwrap();
    assert_all_context_reached_the_model(&out, &bodies);
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

#[test]
fn codex_runs_the_installed_hook_and_the_model_gets_the_context() {
    let Some(codex) = std::env::var_os("COFFER_REAL_CODEX") else {
        eprintln!("skipped: set COFFER_REAL_CODEX to a Codex binary to run it");
        return;
    };
    let env = applied("codex");
    let (base_url, bodies) = fake_model_api();
    // A model provider of our own, pointed at the stand-in.
    std::fs::write(
        env.home.join(".codex/config.toml"),
        format!(
            "model = \"test-model\"\nmodel_provider = \"mock\"\n[model_providers.mock]\nname = \"mock\"\nbase_url = \"{base_url}/v1\"\nenv_key = \"MOCK_KEY\"\nwire_api = \"responses\"\n"
        ),
    )
    .unwrap();
    // Codex runs user hooks only once trusted (`/hooks` in its TUI); this
    // flag is its documented way for one-off automation.
    let out = agent_cmd(&env, &codex)
        .env("MOCK_KEY", "not-a-key")
        .args([
            "exec",
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
            "hello",
        ])
        .output()
        .unwrap();
    assert_all_context_reached_the_model(&out, &bodies);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("hook: SessionStart Completed"), "{stderr}");
    assert!(
        stderr.contains("hook: UserPromptSubmit Completed"),
        "{stderr}"
    );
}

/// Gemini CLI is not in coffer's registry yet, so its hook entries and
/// the hook's settings are written here by hand, in the shapes coffer's
/// registry row and `apply` will write.
#[test]
fn gemini_cli_runs_the_hook_and_the_model_gets_the_context() {
    let Some(gemini) = std::env::var_os("COFFER_REAL_GEMINI") else {
        eprintln!("skipped: set COFFER_REAL_GEMINI to a Gemini CLI (node_modules/.bin/gemini)");
        return;
    };
    let env = applied("claude-code");
    let claude: serde_json::Value = serde_json::from_slice(
        &std::fs::read(env.root.join("state/coffer/hooks/claude.json")).unwrap(),
    )
    .unwrap();
    let mut settings = claude.clone();
    settings["agent"] = "gemini-cli".into();
    settings["dialect"] = "gemini".into();
    settings["events"] =
        serde_json::json!({"SessionStart": "session-start", "BeforeAgent": "user-prompt-submit"});
    std::fs::write(
        env.root.join("state/coffer/hooks/gemini.json"),
        serde_json::to_vec_pretty(&settings).unwrap(),
    )
    .unwrap();
    let entry = |event: &str| {
        serde_json::json!([{"hooks": [{"type": "command", "name": "coffer",
            "command": format!("coffer hook --dialect gemini --event {event}")}]}])
    };
    std::fs::create_dir_all(env.home.join(".gemini")).unwrap();
    std::fs::write(
        env.home.join(".gemini/settings.json"),
        serde_json::to_vec_pretty(&serde_json::json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "hooksConfig": {"enabled": true},
            "hooks": {"SessionStart": entry("SessionStart"), "BeforeAgent": entry("BeforeAgent")},
        }))
        .unwrap(),
    )
    .unwrap();
    let (base_url, bodies) = fake_model_api();
    let out = agent_cmd(&env, &gemini)
        .env("GOOGLE_GEMINI_BASE_URL", &base_url)
        .env("GEMINI_API_KEY", "not-a-key")
        .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
        // A fixed model: no routing classifier call to the stand-in.
        .args(["-m", "gemini-2.5-flash", "-p", "hello"])
        .output()
        .unwrap();
    assert_all_context_reached_the_model(&out, &bodies);
}

/// A model API stand-in: records request bodies and answers "ok", streamed
/// as the Anthropic Messages API (`/v1/messages`) or the OpenAI Responses
/// API (`/v1/responses`) would.
fn fake_model_api() -> (String, Arc<Mutex<Vec<String>>>) {
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
        } else if request_line.contains("/responses") {
            ("text/event-stream", responses_sse())
        } else if request_line.contains(":streamGenerateContent") {
            ("text/event-stream", format!("data: {GEMINI_OK}\r\n\r\n"))
        } else if request_line.contains(":generateContent") {
            ("application/json", GEMINI_OK.to_owned())
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

fn responses_sse() -> String {
    let events = [
        r#"{"type":"response.created","response":{"id":"resp_1"}}"#,
        r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"ok","annotations":[]}]}}"#,
        r#"{"type":"response.completed","response":{"id":"resp_1","usage":{"input_tokens":1,"input_tokens_details":{"cached_tokens":0},"output_tokens":1,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":2}}}"#,
    ];
    events
        .iter()
        .map(|d| {
            let kind = d.split('"').nth(3).unwrap_or("");
            format!("event: {kind}\ndata: {d}\n\n")
        })
        .collect()
}

const GEMINI_OK: &str = r#"{"candidates":[{"content":{"parts":[{"text":"ok"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2}}"#;
