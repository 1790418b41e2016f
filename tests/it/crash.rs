//! A coffer killed at any point of an apply leaves every file either as it
//! was or as planned, and a ledger the next run can settle: the next apply
//! finishes the job, and destroy still gives every byte back.

use crate::common::TestEnv;

/// Four files, two of them new in new folders, two facets, one ledger.
const DESIRED: &str = "version: 1
agents:
  claude-code:
    context: {}
    mcp:
      coffer-memory: { command: coffer, args: [mcp] }
  codex:
    context: {}
  cursor:
    context:
      events: [session-start, stop]
";

fn desired() -> String {
    DESIRED.to_owned()
}

const FILES: [&str; 4] = [
    ".claude/settings.json",
    ".claude.json",
    ".codex/hooks.json",
    ".cursor/hooks.json",
];

#[test]
fn killed_at_every_point_of_an_apply() {
    // What a finished apply looks like, for comparison.
    let done = TestEnv::new();
    done.desired(&desired());
    done.put(".claude/settings.json", "{\n  \"theme\": \"dark\"\n}\n");
    done.apply();
    let planned: Vec<_> = FILES.iter().map(|f| done.read(f)).collect();
    let mut crashes = 0;

    for point in 0..40 {
        let env = TestEnv::new();
        env.desired(&desired());
        env.put(".claude/settings.json", "{\n  \"theme\": \"dark\"\n}\n");
        let original: Vec<_> = FILES.iter().map(|f| env.read(f)).collect();
        let status = env
            .cmd()
            .env("COFFER_TEST_CRASH_AFTER", point.to_string())
            .args(["apply", "--auto-approve"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        if status.success() {
            // The apply needed fewer changes than `point`: every point was tried.
            break;
        }
        crashes += 1;
        for (i, f) in FILES.iter().enumerate() {
            let now = env.read(f);
            assert!(
                now == original[i] || now == planned[i],
                "killed after {point} changes: {f} is neither as it was nor as planned:\n{}",
                String::from_utf8_lossy(&now.unwrap_or_default())
            );
        }
        // Killed while holding Claude Code's lock on ~/.claude.json: the
        // lock goes stale and the next run takes it over. Age it rather
        // than wait.
        let lock = env.home.join(".claude.json.lock");
        if lock.is_dir() {
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
            std::fs::File::open(&lock)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        // The next run settles the ledger and finishes the job.
        env.apply();
        assert!(
            !lock.exists(),
            "the stale lock was taken over and given back"
        );
        for (i, f) in FILES.iter().enumerate() {
            assert_eq!(
                env.read(f),
                planned[i],
                "after recovery from point {point}: {f}"
            );
        }
        env.destroy();
        for (i, f) in FILES.iter().enumerate() {
            assert_eq!(
                env.read(f),
                original[i],
                "destroy after recovery from point {point}: {f}"
            );
        }
    }
    // Folders, four files and the ledger twice: every one a kill point.
    assert!(crashes >= 8, "only {crashes} kill points were exercised");
}
