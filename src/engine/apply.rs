//! Making a plan real, all or nothing.

use super::plan::{FilePlan, Plan};
use crate::env::Env;
use crate::error::Error;
use crate::fsys::Fs;
use crate::fsys::agent_lock::with_agent_lock;

/// How long apply waits for an agent to let go of a file it is writing:
/// longer than a lock takes to go stale, so that a lock left by a crashed
/// holder (a killed coffer included) is taken over within one apply.
const AGENT_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(12);
use crate::state::journal::{Pending, PendingFile};
use crate::state::{self, Ledger};

/// Write every file of `plan`, then the ledger. Every file is first checked
/// against the bytes the plan was computed from; if one changed, nothing is
/// written. If a write fails, the files already written get their old
/// bytes back.
pub fn apply(plan: &Plan, env: &Env, fs: &dyn Fs) -> Result<(), Error> {
    if state::fingerprint(fs, env)? != plan.ledger_before {
        return Err(Error::Stale {
            path: env.display(&state::ledger_path(env)),
        });
    }
    // What is there now, for the staleness check and for rolling back.
    let mut current = Vec::with_capacity(plan.files.len());
    for f in &plan.files {
        let bytes = fs.read(&f.path)?;
        if bytes.as_deref().map(state::sha256) != f.before_sha256 {
            return Err(Error::Stale {
                path: f.display.clone(),
            });
        }
        current.push(bytes);
        fs.check_writable(&f.path)?;
    }
    // A lock nobody refreshes is ours, from a killed run (the agent
    // refreshes its own): give it back rather than make the agent wait.
    for lock in state::journal::left_locks(fs, env) {
        if fs
            .age(&lock)
            .is_some_and(|age| age > crate::fsys::agent_lock::STALE)
        {
            let _ = fs.remove_empty_dir(&lock);
        }
    }
    // The intent first: a run killed from here on leaves a ledger that the
    // next run can settle against the files.
    let old = state::load(fs, env)?;
    if !plan.files.is_empty() {
        state::save(fs, env, &intent(plan, &old))?;
    }
    let mut done: Vec<(&FilePlan, &Option<Vec<u8>>)> = Vec::new();
    for (f, before) in plan.files.iter().zip(&current) {
        if let Err(e) = write_one(f, fs) {
            roll_back(&done, fs);
            let _ = state::save(fs, env, &old);
            return Err(e.into());
        }
        done.push((f, before));
    }
    if let Err(e) = super::hook_settings::apply(&plan.hook_settings, fs) {
        roll_back(&done, fs);
        let _ = state::save(fs, env, &old);
        return Err(e.into());
    }
    if (plan.ledger_changed || !plan.files.is_empty())
        && let Err(e) = state::save(fs, env, &plan.ledger)
    {
        roll_back(&done, fs);
        let _ = state::save(fs, env, &old);
        return Err(e.into());
    }
    Ok(())
}

/// The ledger as it was, plus a note of every file about to change.
fn intent(plan: &Plan, old: &Ledger) -> Ledger {
    let before = old.scopes.get(&plan.scope);
    let after = plan.ledger.scopes.get(&plan.scope);
    let files = plan
        .files
        .iter()
        .map(|f| {
            (
                f.path.clone(),
                PendingFile {
                    before_sha256: f.before_sha256.clone(),
                    after_sha256: f.after.as_deref().map(state::sha256),
                    agent_lock: f.agent_lock.clone(),
                    old: before.and_then(|r| r.get(&f.path)).cloned(),
                    new: after.and_then(|r| r.get(&f.path)).cloned(),
                },
            )
        })
        .collect();
    Ledger {
        pending: Some(Pending {
            scope: plan.scope.clone(),
            files,
        }),
        ..old.clone()
    }
}

fn write_one(f: &FilePlan, fs: &dyn Fs) -> std::io::Result<()> {
    for dir in &f.create_dirs {
        if !fs.is_dir(dir) {
            fs.create_dir(dir)?;
        }
    }
    let new_mode = f.new_mode;
    let write = || fs.write_mode(&f.path, f.after.as_deref().unwrap_or_default(), new_mode);
    match &f.after {
        Some(_) => match &f.agent_lock {
            Some(lock) => with_agent_lock(fs, lock, AGENT_LOCK_WAIT, write)?,
            None => write()?,
        },
        None => {
            fs.remove_file(&f.path)?;
            for dir in f.remove_dirs.iter().rev() {
                fs.remove_empty_dir(dir)?;
            }
        }
    }
    Ok(())
}

/// Best effort: put back what was there before, newest first.
fn roll_back(done: &[(&FilePlan, &Option<Vec<u8>>)], fs: &dyn Fs) {
    for (f, before) in done.iter().rev() {
        let _ = match before {
            Some(bytes) => {
                for dir in &f.remove_dirs {
                    let _ = fs.create_dir(dir);
                }
                fs.write(&f.path, bytes)
            }
            None => fs.remove_file(&f.path).map(|_| {
                for dir in f.create_dirs.iter().rev() {
                    let _ = fs.remove_empty_dir(dir);
                }
            }),
        };
    }
}
