//! Per-session bookkeeping: the turn count, whether the note went out, and
//! which sources failed.
//!
//! State is keyed by the session id the agent gives — from standard input
//! at prompt events, from the environment at session start where the agent
//! sets one (see `dialect::Dialect::session_env`) — hashed, so that file
//! names reveal nothing and two sessions can never share a file. It holds
//! counters and source ids only, never context or prompts. With no session
//! id there is no state: the hook then does only what is safe without it
//! (the note at a session-start event, per-prompt context at each prompt).

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// Sessions not touched for this long are forgotten.
const KEEP: Duration = Duration::from_secs(14 * 24 * 3600);

#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionState {
    /// Prompt events seen.
    #[serde(default)]
    pub turn: u64,
    #[serde(default)]
    pub note_delivered: bool,
    /// Source id → failures in a row.
    #[serde(default)]
    pub failures: BTreeMap<String, u32>,
}

impl SessionState {
    /// A source that failed, then failed its one retry, rests for the
    /// rest of the session: a dead provider must not cost its timeout at
    /// every prompt.
    pub fn should_run(&self, source: &str) -> bool {
        self.failures.get(source).is_none_or(|&n| n < 2)
    }

    pub fn record(&mut self, source: &str, failed: bool) {
        if failed {
            *self.failures.entry(source.to_owned()).or_default() += 1;
        } else {
            self.failures.remove(source);
        }
    }
}

pub struct Session {
    path: PathBuf,
    pub state: SessionState,
}

impl Session {
    /// The state of session `id` of `dialect` (fresh if there is none, or
    /// if it cannot be read).
    pub fn open(state_dir: &Path, dialect: &str, id: &str) -> Session {
        let digest = crate::state::sha256(id.as_bytes());
        let path = state_dir
            .join("sessions")
            .join(format!("{dialect}-{}.json", &digest[..32]));
        let state = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        Session { path, state }
    }

    /// Write the state: owner-only folder and file, atomically.
    pub fn save(&self) {
        let Some(dir) = self.path.parent() else {
            return;
        };
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir);
        let tmp = self
            .path
            .with_extension(format!("{}.tmp", std::process::id()));
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)
            .and_then(|mut f| f.write_all(&serde_json::to_vec(&self.state).unwrap_or_default()));
        if written.is_err() || std::fs::rename(&tmp, &self.path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        if self.state.turn <= 1 && self.path.to_string_lossy().ends_with("0.json") {
            // About one new session in sixteen sweeps out old ones, so the
            // folder stays small without a cost at every start.
            prune(dir);
        }
    }
}

fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for e in entries.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > KEEP));
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_gets_one_retry_then_rests() {
        let mut s = SessionState::default();
        assert!(s.should_run("p"));
        s.record("p", true);
        assert!(s.should_run("p"), "one retry");
        s.record("p", true);
        assert!(!s.should_run("p"));
        let mut s = SessionState::default();
        s.record("p", true);
        s.record("p", false);
        assert!(s.should_run("p"), "a success forgives");
    }

    #[test]
    fn sessions_do_not_share_state() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Session::open(dir.path(), "claude", "A");
        a.state.turn = 3;
        a.save();
        assert_eq!(Session::open(dir.path(), "claude", "A").state.turn, 3);
        assert_eq!(Session::open(dir.path(), "claude", "B").state.turn, 0);
        assert_eq!(Session::open(dir.path(), "codex", "A").state.turn, 0);
    }
}
