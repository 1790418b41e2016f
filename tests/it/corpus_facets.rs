//! Real files from public repositories (../shared/corpus), each placed
//! where its agent reads it: installing and then destroying the matching
//! facet gives back every byte, a second apply changes nothing, and the one
//! deliberately broken file is refused untouched.

use std::path::{Path, PathBuf};

use crate::common::{TestEnv, shared};

/// Where a corpus file goes and which desired fragment exercises it.
struct Case {
    /// Substring of the corpus file name.
    kind: &'static str,
    /// Relative to the home (user scope) or the project (project scope).
    place: &'static str,
    project: bool,
    desired: &'static str,
}

const MCP_SERVER: &str =
    "coffer-corpus: { command: coffer, args: [mcp], env: { TOKEN: \"${env:TOKEN}\" } }";

/// Zed is no built-in agent: declared in the desired file, as users can.
const ZED: &str = "define:
  - id: zed
    name: Zed
    context: { mechanism: unsupported, evidence: \"no hooks (https://zed.dev/docs)\" }
    mcp:
      mechanism: members
      user: ~/.config/zed/settings.json
      project: .zed/settings.json
      syntax: jsonc
      servers_key: [context_servers]
      stdio: { command: \"${command}\", args: \"${args}\", env: \"${env}\" }
      remote: { url: \"${url}\" }
      evidence: https://zed.dev/docs/ai/mcp
    instructions: { mechanism: unsupported, evidence: \"none here (https://zed.dev/docs)\" }
    skills: { mechanism: unsupported, evidence: \"none here (https://zed.dev/docs)\" }
    provider: { mechanism: unsupported, evidence: \"none here (https://zed.dev/docs)\" }
";

fn cases() -> Vec<Case> {
    vec![
        Case {
            kind: ".config.toml",
            place: ".codex/config.toml",
            project: false,
            desired: "codex:\n    mcp:\n      M",
        },
        Case {
            kind: ".gemini-settings.json",
            place: ".gemini/settings.json",
            project: false,
            desired: "gemini-cli:\n    mcp:\n      M",
        },
        Case {
            kind: ".cursor-mcp.json",
            place: ".cursor/mcp.json",
            project: false,
            desired: "cursor:\n    mcp:\n      M",
        },
        Case {
            kind: ".vscode-mcp.json",
            place: ".vscode/mcp.json",
            project: true,
            desired: "vscode:\n    mcp:\n      M",
        },
        Case {
            kind: ".mcp.json",
            place: ".mcp.json",
            project: true,
            desired: "claude-code:\n    mcp:\n      M",
        },
        Case {
            kind: ".opencode.jsonc",
            place: ".config/opencode/opencode.jsonc",
            project: false,
            desired: "opencode:\n    mcp:\n      M",
        },
        Case {
            kind: ".opencode.json",
            place: ".config/opencode/opencode.json",
            project: false,
            desired: "opencode:\n    mcp:\n      M",
        },
        Case {
            kind: ".zed-settings.json",
            place: ".config/zed/settings.json",
            project: false,
            desired: "zed:\n    mcp:\n      M",
        },
        Case {
            kind: ".AGENTS.md",
            place: ".codex/AGENTS.md",
            project: false,
            desired: "codex:\n    instructions: { text: \"Run the tests first.\" }",
        },
        Case {
            kind: ".CLAUDE.md",
            place: ".claude/CLAUDE.md",
            project: false,
            desired: "claude-code:\n    instructions: { text: \"Run the tests first.\" }",
        },
        Case {
            kind: ".GEMINI.md",
            place: ".gemini/GEMINI.md",
            project: false,
            desired: "gemini-cli:\n    instructions: { text: \"Run the tests first.\" }",
        },
        Case {
            kind: ".mdc",
            place: ".cursor/rules/theirs.mdc",
            project: true,
            desired: "cursor:\n    instructions: { text: \"Run the tests first.\" }",
        },
    ]
}

fn corpus_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "codex",
        "mcp-json",
        "opencode",
        "jsonc-edge",
        "instructions",
    ] {
        for e in std::fs::read_dir(root.join("corpus").join(dir))
            .unwrap()
            .flatten()
        {
            files.push(e.path());
        }
    }
    files.sort();
    files
}

/// The case for a corpus file (hooks files belong to another test).
fn case_for(file: &Path) -> Option<Case> {
    let name = file.file_name()?.to_str()?;
    if name.ends_with(".hooks.json") {
        return None;
    }
    cases().into_iter().find(|c| name.ends_with(c.kind))
}

#[test]
fn every_corpus_file_survives_install_and_destroy_of_its_facet() {
    let Some(root) = shared() else { return };
    let (mut exact, mut refused) = (Vec::new(), Vec::new());
    for file in corpus_files(&root) {
        let Some(case) = case_for(&file) else {
            continue;
        };
        let env = TestEnv::new();
        let base = if case.project {
            env.work.clone()
        } else {
            env.home.clone()
        };
        let target = base.join(case.place);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let original = std::fs::read(&file).unwrap();
        // Written fresh (not copied) so the corpus's read-only mode does not follow.
        std::fs::write(&target, &original).unwrap();
        let desired = format!(
            "version: 1\n{}{}agents:\n  {}\n",
            if case.project { "scope: project\n" } else { "" },
            if case.kind.contains("zed") { ZED } else { "" },
            case.desired
                .replace("      M", &format!("      {MCP_SERVER}"))
        );
        env.desired(&desired);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let r = env.run_cmd(
            env.cmd()
                .env("TOKEN", "t")
                .args(["apply", "--auto-approve"]),
        );
        if name.contains("02-0gis0-mcp-sampling") {
            // Deliberately malformed (see SOURCES.md): refused, untouched.
            assert_eq!(r.code, 1, "{name}: {}", r.snapshot());
            assert!(r.stderr.contains(case.place), "{name}: {}", r.stderr);
            assert_eq!(std::fs::read(&target).unwrap(), original, "{name}");
            refused.push(name);
            continue;
        }
        assert_eq!(r.code, 0, "{name}: {}", r.snapshot());
        let installed = std::fs::read(&target).unwrap();
        assert!(
            installed != original || case.kind == ".mdc",
            "{name}: nothing was installed"
        );
        let again = env.run_cmd(
            env.cmd()
                .env("TOKEN", "t")
                .args(["plan", "--detailed-exitcode"]),
        );
        assert_eq!(
            again.code,
            0,
            "{name}: second plan not empty:\n{}",
            again.snapshot()
        );
        let r = env.run_cmd(
            env.cmd()
                .env("TOKEN", "t")
                .args(["destroy", "--auto-approve"]),
        );
        assert_eq!(r.code, 0, "{name}: {}", r.snapshot());
        assert!(
            std::fs::read(&target).unwrap() == original,
            "{name}: destroy did not give the bytes back:\n{}",
            String::from_utf8_lossy(&std::fs::read(&target).unwrap())
        );
        exact.push(name);
    }
    eprintln!(
        "corpus facets: {} files exact, {} refused: {refused:?}",
        exact.len(),
        refused.len()
    );
    assert_eq!(refused.len(), 1);
    assert!(
        exact.len() >= 35,
        "only {} corpus files were exercised: {exact:?}",
        exact.len()
    );
}

/// toml-test through the whole engine, each case as Codex's config.toml:
/// every TOML 1.0 invalid case is refused and left untouched; every valid
/// case without `mcp_servers` survives install + destroy of a server.
#[test]
fn toml_test_cases_as_the_codex_config() {
    use coffer::engine::{self, Mode};
    use coffer::env::Env;
    use coffer::fsys::{Fs, MemFs};
    let Some(root) = shared() else { return };
    let suite = root.join("conformance/toml-test/tests");
    let list = std::fs::read_to_string(suite.join("files-toml-1.0.0")).unwrap();
    let desired =
        |text: &str| coffer::desired::parse(Path::new("coffer.yaml"), text.to_owned()).unwrap();
    let install = desired(
        "version: 1\nagents:\n  codex:\n    mcp:\n      coffer-test: { command: coffer, args: [mcp] }\n",
    );
    let config = Path::new("/h/.codex/config.toml");
    let (mut refused, mut exact, mut skipped) = (0, 0, 0);
    for case in list.lines().filter(|l| l.ends_with(".toml")) {
        let bytes = std::fs::read(suite.join(case)).unwrap();
        let fs = MemFs::with_dirs(&["/h/.codex"]);
        fs.put(config, &bytes);
        let env = Env::for_home("/h");
        let planned = engine::plan(&install, Mode::Apply, &env, &fs);
        if case.starts_with("invalid/") {
            assert!(planned.is_err(), "{case} was accepted");
            assert_eq!(fs.read(config).unwrap().unwrap(), bytes, "{case}");
            refused += 1;
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        if text
            .lines()
            .any(|l| l.trim_start().starts_with("mcp_servers") || l.contains("[mcp_servers"))
        {
            skipped += 1;
            continue;
        }
        let plan = planned.unwrap_or_else(|e| panic!("{case}: {e}"));
        engine::apply(&plan, &env, &fs).unwrap();
        assert!(
            !engine::plan(&install, Mode::Apply, &env, &fs)
                .unwrap()
                .has_changes(),
            "{case}: second plan"
        );
        let destroy = engine::plan(&install, Mode::Destroy, &env, &fs).unwrap();
        engine::apply(&destroy, &env, &fs).unwrap();
        assert_eq!(
            fs.read(config).unwrap().unwrap(),
            bytes,
            "{case}: not exact"
        );
        exact += 1;
    }
    eprintln!(
        "toml-test as Codex's config: {refused} invalid refused, {exact} valid exact, {skipped} skipped (hold mcp_servers)"
    );
    assert!(
        refused > 400 && exact > 190,
        "{refused} refused, {exact} exact"
    );
}
