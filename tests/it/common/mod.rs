//! The shared test environment: every CLI test gets its own HOME, XDG
//! folders and state, and a cleared environment, so no test can touch the
//! real home or depend on the developer's shell.

#![allow(dead_code)]

pub mod generate;

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

/// A home on the in-memory file system, driven through the engine's
/// library API: the same plan/apply code the binary runs, without a
/// process per case, for the tests that run hundreds of files.
pub struct MemHome {
    pub fs: coffer::fsys::MemFs,
    pub env: coffer::env::Env,
}

/// The home folder of every [`MemHome`].
pub const MEM_HOME: &str = "/h";

impl Default for MemHome {
    fn default() -> Self {
        Self::new()
    }
}

impl MemHome {
    /// A home where each agent's folder exists (so coffer creates none).
    pub fn new() -> MemHome {
        MemHome {
            fs: coffer::fsys::MemFs::with_dirs(&["/h/.claude", "/h/.codex", "/h/.cursor"]),
            env: coffer::env::Env::for_home(MEM_HOME),
        }
    }

    pub fn path(rel: &str) -> PathBuf {
        Path::new(MEM_HOME).join(rel)
    }

    pub fn put(&self, rel: &str, bytes: &[u8]) {
        self.fs.put(&Self::path(rel), bytes);
    }

    pub fn read(&self, rel: &str) -> Option<Vec<u8>> {
        use coffer::fsys::Fs;
        self.fs.read(&Self::path(rel)).unwrap()
    }

    pub fn plan(
        &self,
        file: &coffer::desired::DesiredFile,
        mode: coffer::engine::Mode,
    ) -> Result<coffer::engine::Plan, coffer::error::Error> {
        coffer::engine::plan(file, mode, &self.env, &self.fs)
    }

    /// Plan and apply; whether anything changed.
    pub fn run(
        &self,
        file: &coffer::desired::DesiredFile,
        mode: coffer::engine::Mode,
    ) -> Result<bool, coffer::error::Error> {
        let plan = self.plan(file, mode)?;
        coffer::engine::apply(&plan, &self.env, &self.fs)?;
        Ok(plan.has_changes())
    }
}

/// The agent whose hooks file lives at `rel` under the home.
pub fn agent_for(rel: &str) -> &'static str {
    match rel {
        ".claude/settings.json" => "claude-code",
        ".codex/hooks.json" => "codex",
        ".cursor/hooks.json" => "cursor",
        other => panic!("no agent keeps its hooks in {other}"),
    }
}

/// A desired file giving `agent` the context facet at four events: some
/// exist in typical files (their arrays grow), some do not (coffer creates
/// them), so every kind of insertion is exercised.
pub fn desired_for(agent: &str) -> coffer::desired::DesiredFile {
    let text = format!(
        "version: 1\nagents:\n  {agent}:\n    context:\n      events: [session-start, user-prompt-submit, pre-tool-use, stop]\n"
    );
    coffer::desired::parse(Path::new("coffer.yaml"), text).expect("a valid desired file")
}

/// Install coffer's hooks into `original` at `rel`, check that a second
/// apply changes nothing and that destroy gives back every byte; the file
/// as installed, for more checks. `Err` says what went wrong, so callers
/// can count and list failures.
pub fn install_destroy_exact(rel: &str, original: &[u8]) -> Result<Vec<u8>, String> {
    use coffer::engine::Mode;
    let home = MemHome::new();
    home.put(rel, original);
    let file = desired_for(agent_for(rel));
    let changed = home
        .run(&file, Mode::Apply)
        .map_err(|e| format!("apply: {e}"))?;
    if !changed {
        return Err("the first apply changed nothing".into());
    }
    let installed = home.read(rel).ok_or("apply deleted the file")?;
    let second = home
        .plan(&file, Mode::Apply)
        .map_err(|e| format!("second plan: {e}"))?;
    if second.has_changes() {
        return Err(format!(
            "a second apply would change:\n{}",
            String::from_utf8_lossy(second.files[0].after.as_deref().unwrap_or_default())
        ));
    }
    home.run(&file, Mode::Destroy)
        .map_err(|e| format!("destroy: {e}"))?;
    let back = home.read(rel).ok_or("destroy deleted the file")?;
    if back != original {
        return Err(format!(
            "destroy did not restore the bytes\n--- original\n{}\n--- installed\n{}\n--- after destroy\n{}",
            String::from_utf8_lossy(original).escape_debug(),
            String::from_utf8_lossy(&installed).escape_debug(),
            String::from_utf8_lossy(&back).escape_debug()
        ));
    }
    Ok(installed)
}

/// Apply, let the user add a member at the top of the document, destroy:
/// the result must be the original with exactly that edit. `original`'s
/// top-level object must already hold a member (so the edit needs a comma
/// either way) and start the document, after an optional BOM and spaces.
pub fn user_edit_survives(rel: &str, original: &[u8]) -> Result<(), String> {
    use coffer::engine::Mode;
    const EDIT: &[u8] = b"\"userEdit\": true, ";
    let open = |b: &[u8]| b.iter().position(|c| *c == b'{').expect("an object");
    let home = MemHome::new();
    home.put(rel, original);
    let file = desired_for(agent_for(rel));
    home.run(&file, Mode::Apply)
        .map_err(|e| format!("apply: {e}"))?;
    let mut edited = home.read(rel).unwrap();
    let at = open(&edited) + 1;
    edited.splice(at..at, EDIT.iter().copied());
    home.put(rel, &edited);
    home.run(&file, Mode::Destroy)
        .map_err(|e| format!("destroy: {e}"))?;
    let mut expected = original.to_vec();
    let at = open(&expected) + 1;
    expected.splice(at..at, EDIT.iter().copied());
    let back = home.read(rel).ok_or("destroy deleted the file")?;
    if back != expected {
        return Err(format!(
            "the user's edit did not survive exactly\n--- expected\n{}\n--- after destroy\n{}",
            String::from_utf8_lossy(&expected).escape_debug(),
            String::from_utf8_lossy(&back).escape_debug()
        ));
    }
    Ok(())
}
