//! How long the installed hook takes, as an agent sees it: a whole process,
//! from spawn to exit, with a file source.
//!
//! `cargo bench --bench hook_latency` sets up a throwaway home, applies a
//! desired file with one file source through the built `coffer`, reads the
//! command it installed into `~/.claude/settings.json`, and times, in
//! interleaved rounds so that machine noise hits all alike:
//!
//! - `/bin/true`: the floor any process start costs here;
//! - the installed command, spawned directly;
//! - the installed command through `sh -c`, as Claude Code and Codex run it;
//! - `python3 -c pass` and `python3 -I -S -c pass`: the interpreter start-up
//!   most hook scripts pay before doing anything;
//! - `coffer::hook::output` in process: the hook's own work without the
//!   process start.
//!
//! `COFFER_BIN=PATH` installs and times that binary instead of the one cargo
//! built for the benchmark (benches/hook-latency.sh passes the shipped
//! build, from scripts/build-dist.sh); `-- --command CMD` times another shell
//! command instead of the installed one; `-- --rounds N` sets the number of
//! rounds (default 400).

use std::ffi::OsString;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WARMUP: usize = 20;

/// One thing to time: runs it once and says how long it took.
type Timer<'a> = Box<dyn Fn() -> Sample + 'a>;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let rounds: usize = flag("--rounds").and_then(|r| r.parse().ok()).unwrap_or(400);
    let env = Setup::new();
    let installed = flag("--command").unwrap_or_else(|| env.installed_command());
    let words = shlex::split(&installed).expect("the installed command splits");

    // The hook's in-process work, with the same environment.
    // SAFETY: single-threaded here, before anything reads the environment.
    unsafe {
        std::env::set_var("HOME", &env.home);
        std::env::set_var("XDG_STATE_HOME", env.root.join("state"));
    }
    let hook_args: Vec<OsString> = words[2..].iter().map(OsString::from).collect();
    assert_eq!(
        coffer::hook::output(&hook_args, false),
        b"# House rules\nUse pnpm.\n",
        "the hook prints the note"
    );

    let env = &env;
    // Time the interpreter itself, not a version manager's shim in front
    // of it (a pyenv shim is a shell script that adds a lot).
    let python = python_executable();
    let python = python.as_str();
    let cases: Vec<(&str, Timer)> = vec![
        (
            "/bin/true (process floor)",
            Box::new(move || env.time(&["/bin/true"])),
        ),
        ("coffer hook, spawned directly", {
            let words = words.clone();
            Box::new(move || env.time(&words))
        }),
        ("coffer hook via sh -c (as agents run it)", {
            let installed = installed.clone();
            Box::new(move || env.time(&["sh", "-c", &installed]))
        }),
        (
            "python3 -c pass",
            Box::new(move || env.time(&[python, "-c", "pass"])),
        ),
        (
            "python3 -I -S -c pass",
            Box::new(move || env.time(&[python, "-I", "-S", "-c", "pass"])),
        ),
        (
            "coffer::hook::output in process",
            Box::new(move || {
                let start = Instant::now();
                let out = coffer::hook::output(&hook_args, false);
                let t = start.elapsed();
                assert!(!out.is_empty());
                Sample { wall: t, cpu: None }
            }),
        ),
    ];
    let mut wall: Vec<Vec<Duration>> = vec![Vec::new(); cases.len()];
    let mut cpu: Vec<Vec<Duration>> = vec![Vec::new(); cases.len()];
    for round in 0..WARMUP + rounds {
        for (i, (_, f)) in cases.iter().enumerate() {
            let s = f();
            if round >= WARMUP {
                wall[i].push(s.wall);
                cpu[i].extend(s.cpu);
            }
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\npython3: {python}");
    println!("load average before the summary: {}", load.trim());
    println!("{rounds} interleaved rounds after {WARMUP} warm-up rounds; times in ms\n");
    println!("| what | wall median | wall p10 | wall p90 | wall min | CPU median |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (((name, _), w), c) in cases.iter().zip(&mut wall).zip(&mut cpu) {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let cpu_median = if c.is_empty() {
            "—".to_owned()
        } else {
            format!("{:.3}", ms(quantile(c, 0.5)))
        };
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} | {cpu_median} |",
            ms(quantile(w, 0.5)),
            ms(quantile(w, 0.1)),
            ms(quantile(w, 0.9)),
            ms(quantile(w, 0.0)),
        );
    }
}

fn quantile(s: &mut [Duration], q: f64) -> Duration {
    s.sort();
    s[((s.len() - 1) as f64 * q).round() as usize]
}

/// One run: wall-clock time from spawn to reaped exit, and the CPU time
/// (user + system) the process itself used, which machine load hardly
/// changes.
struct Sample {
    wall: Duration,
    cpu: Option<Duration>,
}

fn python_executable() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// A throwaway home with coffer applied in it.
struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    bin_dir: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let work = root.join("work");
        std::fs::create_dir_all(work.join("rules")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(work.join("rules/house.md"), "# House rules\nUse pnpm.\n").unwrap();
        std::fs::write(
            work.join("coffer.yaml"),
            "version: 1\nagents:\n  claude-code:\n    context:\n      sources:\n        - file: rules/house.md\n",
        )
        .unwrap();
        let exe = std::env::var_os("COFFER_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_coffer")));
        let exe = exe.as_path();
        let setup = Setup {
            bin_dir: exe.parent().unwrap().to_owned(),
            _dir: dir,
            root,
            home,
        };
        let status = setup
            .command(exe.as_os_str().to_str().unwrap())
            .args(["apply", "--auto-approve"])
            .current_dir(&work)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "coffer apply");
        setup
    }

    fn installed_command(&self) -> String {
        let s: serde_json::Value = serde_json::from_slice(
            &std::fs::read(self.home.join(".claude/settings.json")).unwrap(),
        )
        .unwrap();
        s["hooks"]["SessionStart"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    fn command(&self, program: &str) -> Command {
        let path = format!(
            "{}:{}",
            self.bin_dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut c = Command::new(program);
        c.env_clear()
            .env("HOME", &self.home)
            .env("XDG_STATE_HOME", self.root.join("state"))
            .env("PATH", path)
            .current_dir(&self.root);
        c
    }

    /// Spawn, read all output, reap with wait4 for the child's own rusage:
    /// the whole process as an agent runs it.
    fn time<S: AsRef<str>>(&self, argv: &[S]) -> Sample {
        let mut c = self.command(argv[0].as_ref());
        c.args(argv[1..].iter().map(AsRef::as_ref))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let start = Instant::now();
        // Reaped by wait4 below, which also gives its rusage.
        #[allow(clippy::zombie_processes)]
        let mut child = c.spawn().unwrap();
        let mut out = Vec::new();
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value to be overwritten, and
        // `pid` is our unreaped child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let wall = start.elapsed();
        assert_eq!(reaped, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "{}",
            argv[0].as_ref()
        );
        let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        Sample {
            wall,
            cpu: Some(tv(usage.ru_utime) + tv(usage.ru_stime)),
        }
    }
}
