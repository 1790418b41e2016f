//! Micro-benchmarks of the library: loading a desired file, reading the
//! built-in registry, planning a five-agent home, reconciling one settings
//! file of 1 KB, 100 KB and 10 MB, and rendering a plan.
//!
//! Everything runs on an in-memory file system (`MemFs`), so these measure
//! coffer's own work, not the disk; `bench/compare.sh` times whole
//! processes. Run with `cargo bench` (docs/performance.md has the numbers).
//! These are measurements, never pass/fail tests.

use std::path::{Path, PathBuf};

use coffer::desired::{DesiredFile, parse};
use coffer::engine::{self, Mode, Plan};
use coffer::env::Env;
use coffer::fsys::MemFs;
use coffer::registry::Registry;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const HOME: &str = "/home/u";

/// The five agents with a hook, one MCP server and instructions each
/// (Cursor has no user-scope instructions file); bench/fixtures.py writes
/// the same file for the whole-process runs.
const FIVE_AGENTS: &str = r#"version: 1
agents:
  claude-code:
    context: {}
    mcp:
      memory: { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"] }
    instructions: { text: "Run the tests before every commit.\n" }
  codex:
    context: {}
    mcp:
      memory: { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"] }
    instructions: { text: "Run the tests before every commit.\n" }
  cursor:
    context: {}
    mcp:
      memory: { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"] }
  opencode:
    context: {}
    mcp:
      memory: { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"] }
    instructions: { text: "Run the tests before every commit.\n" }
  gemini-cli:
    context: {}
    mcp:
      memory: { command: npx, args: ["-y", "@modelcontextprotocol/server-memory"] }
    instructions: { text: "Run the tests before every commit.\n" }
"#;

const CLAUDE_ONLY: &str = "version: 1\nagents:\n  claude-code:\n    context: {}\n";

const CODEX_INSTRUCTIONS: &str = "version: 1\nagents:\n  codex:\n    instructions: { text: \"Run the tests before every commit.\\n\" }\n";

/// The files a user has before coffer runs (as in bench/fixtures.py).
const HOME_FILES: &[(&str, &str)] = &[
    (
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"~/bin/my-guard.sh\"\n          }\n        ]\n      }\n    ]\n  }\n}\n",
    ),
    (
        ".gemini/settings.json",
        "{\n    \"theme\": \"Default\",\n    \"mcpServers\": {\n        \"old\": {\n            \"command\": \"old-server\"\n        }\n    }\n}\n",
    ),
    (
        ".codex/config.toml",
        "# My Codex settings\nmodel = \"gpt-5\"\n\n# a server of my own\n[mcp_servers.mine]\ncommand = \"my-server\"\n",
    ),
    (
        ".config/opencode/opencode.jsonc",
        "{\n  // my opencode settings\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n",
    ),
];

fn desired(text: &str) -> DesiredFile {
    parse(Path::new("/work/coffer.yaml"), text.to_owned()).expect("the bench's desired file")
}

fn env() -> Env {
    Env::for_home(HOME)
}

fn home(files: &[(&str, &[u8])]) -> MemFs {
    let dirs: Vec<PathBuf> = files
        .iter()
        .map(|(rel, _)| Path::new(HOME).join(rel).parent().unwrap().to_owned())
        .chain([PathBuf::from(HOME)])
        .collect();
    let fs = MemFs::with_dirs(&dirs);
    for (rel, bytes) in files {
        fs.put(&Path::new(HOME).join(rel), bytes);
    }
    fs
}

fn five_agent_home() -> MemFs {
    let files: Vec<(&str, &[u8])> = HOME_FILES.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    home(&files)
}

/// A Claude settings.json of about `bytes` bytes: other tools' hook entries
/// (about 190 bytes each) in matcher groups of ten, as bench/fixtures.py
/// writes them.
fn claude_settings(bytes: usize) -> Vec<u8> {
    let events = [
        "PreToolUse",
        "PostToolUse",
        "UserPromptSubmit",
        "Stop",
        "SessionStart",
    ];
    let n = (bytes / 190).max(1);
    let mut out = String::from(
        "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls:*)\"\n    ]\n  },\n  \"hooks\": {\n",
    );
    for (e, event) in events.iter().enumerate() {
        let mine: Vec<usize> = (e..n).step_by(events.len()).collect();
        out.push_str(&format!("    \"{event}\": ["));
        for (g, group) in mine.chunks(10).enumerate() {
            out.push_str(if g == 0 { "\n" } else { ",\n" });
            out.push_str(&format!(
                "      {{\n        \"matcher\": \"Tool{g}\",\n        \"hooks\": ["
            ));
            for (k, i) in group.iter().enumerate() {
                out.push_str(if k == 0 { "\n" } else { ",\n" });
                out.push_str(&format!(
                    "          {{\n            \"type\": \"command\",\n            \"command\": \"/usr/local/bin/other-tool-{i} --check --quiet\",\n            \"timeout\": 30\n          }}"
                ));
            }
            out.push_str("\n        ]\n      }");
        }
        out.push_str(if e + 1 == events.len() {
            "\n    ]\n"
        } else {
            "\n    ],\n"
        });
    }
    out.push_str("  }\n}\n");
    out.into_bytes()
}

#[divan::bench]
fn load_desired_five_agents(b: Bencher) {
    b.bench(|| desired(black_box(FIVE_AGENTS)));
}

/// All fourteen built-in agents (what `coffer agents` reads).
#[divan::bench]
fn load_builtin_registry() -> Registry {
    Registry::load_builtin()
}

/// What a plan reads of the registry: the five agents it names.
#[divan::bench]
fn load_registry_five_agents() -> Registry {
    Registry::builtin_subset(
        ["claude-code", "codex", "cursor", "opencode", "gemini-cli"],
        &[],
    )
}

/// The whole pipeline but the process: desired → registry → reconcile →
/// diffs, for the five agents in a home that already has their files.
#[divan::bench]
fn plan_five_agents(b: Bencher) {
    let file = desired(FIVE_AGENTS);
    let env = env();
    let fs = five_agent_home();
    b.bench(|| engine::plan(&file, Mode::Apply, &env, &fs).unwrap());
}

const SIZES: &[usize] = &[1_000, 100_000, 10_000_000];

/// One Claude settings file of 1 KB, 100 KB and 10 MB gets coffer's hook:
/// read, validate, locate, splice, hash and diff.
#[divan::bench(args = SIZES, sample_count = 20)]
fn reconcile_claude_settings(b: Bencher, size: usize) {
    let file = desired(CLAUDE_ONLY);
    let env = env();
    let fs = home(&[(".claude/settings.json", &claude_settings(size))]);
    b.bench(|| {
        let plan = engine::plan(&file, Mode::Apply, &env, &fs).unwrap();
        assert_eq!(plan.files.len(), 1);
        plan
    });
}

/// An AGENTS.md of 1 KB, 100 KB and 10 MB gets coffer's instructions block.
#[divan::bench(args = SIZES, sample_count = 20)]
fn reconcile_agents_md(b: Bencher, size: usize) {
    let file = desired(CODEX_INSTRUCTIONS);
    let env = env();
    let paragraph =
        "Keep functions small and name them for what they do; write the test first.\n\n";
    let text = paragraph.repeat(size / paragraph.len() + 1);
    let fs = home(&[(".codex/AGENTS.md", text.as_bytes())]);
    b.bench(|| {
        let plan = engine::plan(&file, Mode::Apply, &env, &fs).unwrap();
        assert_eq!(plan.files.len(), 1);
        plan
    });
}

/// The unified diff of a settings file and the same with coffer's hook.
#[divan::bench(args = SIZES, sample_count = 20)]
fn diff_one_insert(b: Bencher, size: usize) {
    let before = claude_settings(size);
    let file = desired(CLAUDE_ONLY);
    let fs = home(&[(".claude/settings.json", &before)]);
    let plan = engine::plan(&file, Mode::Apply, &env(), &fs).unwrap();
    let after = plan.files[0].after.clone().unwrap();
    b.bench(|| engine::diff::unified("~/.claude/settings.json", Some(&before), Some(&after), &[]));
}

/// The text people read: every file's diff and the summary.
#[divan::bench]
fn render_plan_five_agents(b: Bencher) {
    let plan: Plan = engine::plan(
        &desired(FIVE_AGENTS),
        Mode::Apply,
        &env(),
        &five_agent_home(),
    )
    .unwrap();
    b.bench(|| coffer::cli::plan_text(&plan, Mode::Apply));
}
