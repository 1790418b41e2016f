//! Crash safety for the ledger: before an apply writes any file, the ledger
//! is saved with a note of what is about to happen (the intent); after the
//! last file, the final ledger replaces it. A coffer killed in between
//! leaves every file either as it was or as planned (each write is atomic),
//! and the next run settles each pending file's record by looking at which
//! of the two it holds.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{FileRecord, Ledger, sha256};
use crate::fsys::Fs;

/// An apply that had begun and may not have finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The ledger partition the apply was for.
    pub scope: String,
    pub files: BTreeMap<PathBuf, PendingFile>,
}

/// One file of a pending apply: its hashes and records on both sides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingFile {
    pub before_sha256: Option<String>,
    pub after_sha256: Option<String>,
    /// The agent's lock coffer was to take for the write: a killed run may
    /// have left it behind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_lock: Option<PathBuf>,
    pub old: Option<FileRecord>,
    pub new: Option<FileRecord>,
}

/// Settle a pending apply: each file's record becomes the one that matches
/// what the file holds now. A file someone changed since keeps the planned
/// record, the closer guess: coffer's fragments are then recognised or
/// pruned as usual.
pub fn settle(ledger: &mut Ledger, fs: &dyn Fs) {
    let Some(pending) = ledger.pending.take() else {
        return;
    };
    let files = ledger.scopes.entry(pending.scope.clone()).or_default();
    for (path, p) in pending.files {
        let now = fs.read(&path).ok().flatten().map(|b| sha256(&b));
        let record = if now == p.before_sha256 && now != p.after_sha256 {
            p.old
        } else {
            p.new.or(p.old)
        };
        match record {
            Some(r) => files.insert(path, r),
            None => files.remove(&path),
        };
    }
    if files.is_empty() {
        ledger.scopes.remove(&pending.scope);
    }
}

/// The agents' locks a killed apply may have left behind, for the next
/// apply to give back (a plan writes nothing, so it leaves them).
pub fn left_locks(fs: &dyn Fs, env: &crate::env::Env) -> Vec<PathBuf> {
    let raw = fs.read(&super::ledger_path(env)).ok().flatten();
    let ledger: Option<Ledger> = raw.and_then(|b| serde_json::from_slice(&b).ok());
    ledger
        .and_then(|l| l.pending)
        .map(|p| p.files.into_values().filter_map(|f| f.agent_lock).collect())
        .unwrap_or_default()
}
