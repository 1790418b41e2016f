//! Making a plan real, all or nothing.

use super::plan::{FilePlan, Plan};
use crate::env::Env;
use crate::error::Error;
use crate::fsys::Fs;
use crate::state;

/// Write every file of `plan`, then the ledger. Every file is first checked
/// against the bytes the plan was computed from; if one changed, nothing is
/// written. If a write fails, the files already written get their old
/// bytes back.
pub fn apply(plan: &Plan, env: &Env, fs: &dyn Fs) -> Result<(), Error> {
    for f in &plan.files {
        if fs.read(&f.path)? != f.before {
            return Err(Error::Stale {
                path: f.display.clone(),
            });
        }
    }
    let mut done: Vec<&FilePlan> = Vec::new();
    for f in &plan.files {
        if let Err(e) = write_one(f, fs) {
            roll_back(&done, fs);
            return Err(e.into());
        }
        done.push(f);
    }
    if let Err(e) = super::hook_settings::apply(&plan.hook_settings, fs) {
        roll_back(&done, fs);
        return Err(e.into());
    }
    if plan.ledger_changed
        && let Err(e) = state::save(fs, env, &plan.ledger)
    {
        roll_back(&done, fs);
        return Err(e.into());
    }
    Ok(())
}

fn write_one(f: &FilePlan, fs: &dyn Fs) -> std::io::Result<()> {
    for dir in &f.create_dirs {
        if !fs.is_dir(dir) {
            fs.create_dir(dir)?;
        }
    }
    match &f.after {
        Some(bytes) => fs.write(&f.path, bytes)?,
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
fn roll_back(done: &[&FilePlan], fs: &dyn Fs) {
    for f in done.iter().rev() {
        let _ = match &f.before {
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
