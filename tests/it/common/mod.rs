//! The shared test environment: every CLI test gets its own HOME, XDG
//! folders and state, and a cleared environment, so no test can touch the
//! real home or depend on the developer's shell.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct TestEnv {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub work: PathBuf,
}

/// What a command printed and how it exited.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Run {
    /// Output for snapshots: stdout, stderr and the exit status.
    pub fn snapshot(&self) -> String {
        let mut s = self.stdout.clone();
        if !self.stderr.is_empty() {
            s.push_str("--- stderr\n");
            s.push_str(&self.stderr);
        }
        s.push_str(&format!("[exit status: {}]\n", self.code));
        s
    }
}

impl Default for TestEnv {
    fn default() -> Self {
        Self::new()
    }
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let work = root.join("work");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        TestEnv {
            _dir: dir,
            root,
            home,
            work,
        }
    }

    /// A `coffer` command with a cleared environment pointing at this env.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_coffer"));
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("XDG_STATE_HOME", self.root.join("state"))
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .stdin(Stdio::null())
            .current_dir(&self.work);
        cmd
    }

    /// Run `coffer args…` and capture everything, with this env's folder
    /// replaced by `[ROOT]` so that snapshots are stable.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_cmd(self.cmd().args(args))
    }

    pub fn run_cmd(&self, cmd: &mut Command) -> Run {
        let out = cmd.output().expect("coffer runs");
        let clean =
            |b: &[u8]| String::from_utf8_lossy(b).replace(self.root.to_str().unwrap(), "[ROOT]");
        Run {
            stdout: clean(&out.stdout),
            stderr: clean(&out.stderr),
            code: out.status.code().unwrap_or(-1),
        }
    }

    /// Write the desired file `coffer.yaml` in the working folder.
    pub fn desired(&self, yaml: &str) -> &Self {
        std::fs::write(self.work.join("coffer.yaml"), yaml).unwrap();
        self
    }

    /// Write a file under the home, creating its folders.
    pub fn put(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> Option<Vec<u8>> {
        std::fs::read(self.home.join(rel)).ok()
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.home.join(rel).exists()
    }

    /// Every file and folder under the home with its bytes, for whole-tree
    /// comparisons.
    pub fn tree(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        walk(&self.home, &mut out);
        out.sort();
        out
    }

    /// `apply --auto-approve`, asserting success.
    pub fn apply(&self) -> Run {
        let r = self.run(&["apply", "--auto-approve"]);
        assert_eq!(r.code, 0, "apply failed:\n{}", r.snapshot());
        r
    }

    /// `destroy --auto-approve`, asserting success.
    pub fn destroy(&self) -> Run {
        let r = self.run(&["destroy", "--auto-approve"]);
        assert_eq!(r.code, 0, "destroy failed:\n{}", r.snapshot());
        r
    }
}

fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.push((p.clone(), Vec::new()));
            walk(&p, out);
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
}

/// The desired file of the walking skeleton: three agents, four hooks.
pub const THREE_AGENTS: &str = "version: 1
agents:
  claude-code:
    context:
      events: [session-start]
  codex:
    context: {}
  cursor:
    context:
      events: [session-start, stop]
";

/// `../shared` beside the project, where the corpus and suites live.
pub fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!(
            "\n!!! ../shared is absent: SKIPPING the tests that read the corpus and conformance suites !!!\n"
        );
        None
    }
}
