//! Planning: for every file coffer has or had a stake in, the bytes now and
//! the bytes it should have.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::hook_settings::{self, HookSettingsPlan};
use super::json;
use crate::desired::DesiredFile;
use crate::env::Env;
use crate::error::Error;
use crate::facets::{self, Compiled};
use crate::fsys::{Fs, missing_dirs};
use crate::registry::Registry;
use crate::resource::{Claim, Origin, Resource, Syntax};
use crate::state::{self, Ledger};

/// Whether to reach the desired state or take everything out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Apply,
    /// Remove everything coffer manages for the agents the desired file names.
    Destroy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeOp {
    Add,
    Change,
    Remove,
}

/// One fragment added, changed or removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub op: ChangeOp,
    #[serde(flatten)]
    pub origin: Origin,
    pub what: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Create,
    Update,
    Delete,
}

/// The change to one file.
#[derive(Debug, Clone)]
pub struct FilePlan {
    pub path: PathBuf,
    /// The path as users read it (`~/…`).
    pub display: String,
    pub before: Option<Vec<u8>>,
    pub after: Option<Vec<u8>>,
    pub changes: Vec<Change>,
    /// Folders to create before writing, outermost first.
    pub create_dirs: Vec<PathBuf>,
    /// Folders coffer created that go once the file is deleted, if empty.
    pub remove_dirs: Vec<PathBuf>,
}

impl FilePlan {
    pub fn action(&self) -> Action {
        match (&self.before, &self.after) {
            (None, _) => Action::Create,
            (Some(_), None) => Action::Delete,
            (Some(_), Some(_)) => Action::Update,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Plan {
    /// Files whose bytes change, in path order.
    pub files: Vec<FilePlan>,
    /// The ledger as it will be after the apply.
    pub ledger: Ledger,
    pub ledger_changed: bool,
    /// The hook's settings files that change (state, shown as one line each).
    pub hook_settings: Vec<HookSettingsPlan>,
    /// Problems that did not stop the plan.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub add: usize,
    pub change: usize,
    pub remove: usize,
}

impl Plan {
    pub fn has_changes(&self) -> bool {
        !self.files.is_empty() || !self.hook_settings.is_empty()
    }

    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for c in self.files.iter().flat_map(|f| &f.changes) {
            match c.op {
                ChangeOp::Add => s.add += 1,
                ChangeOp::Change => s.change += 1,
                ChangeOp::Remove => s.remove += 1,
            }
        }
        s
    }
}

/// Everything coffer has to consider for one file.
struct Target<'a> {
    syntax: Syntax,
    resources: Vec<&'a Resource>,
    claims: Vec<&'a Claim>,
}

pub fn plan(file: &DesiredFile, mode: Mode, env: &Env, fs: &dyn Fs) -> Result<Plan, Error> {
    let compiled = facets::compile(file, Registry::builtin(), env)?;
    let hook_settings = hook_settings::plan(&compiled, mode, Registry::builtin(), env, fs)?;
    let ledger = state::load(fs, env)?;
    let targets = gather(&compiled, &ledger, mode)?;

    let mut after_ledger = ledger.clone();
    let mut files = Vec::new();
    for (path, target) in &targets {
        let display = env.display(path);
        let before = fs.read(path)?;
        let record = ledger.files.get(path);
        let outcome = json::reconcile(&json::Input {
            display: &display,
            before: before.as_deref(),
            syntax: target.syntax,
            resources: &target.resources,
            claims: &target.claims,
            record,
        })?;
        let mut new_record = outcome.record;
        let mut plan = FilePlan {
            path: path.clone(),
            display,
            before,
            after: outcome.after,
            changes: outcome.changes,
            create_dirs: Vec::new(),
            remove_dirs: Vec::new(),
        };
        match (&plan.before, &plan.after) {
            (None, Some(_)) => {
                plan.create_dirs = missing_dirs(fs, path);
                if let Some(r) = new_record.as_mut() {
                    r.created_dirs = plan.create_dirs.clone();
                }
            }
            (Some(_), None) => {
                plan.remove_dirs = record.map(|r| r.created_dirs.clone()).unwrap_or_default();
            }
            _ => {}
        }
        match new_record {
            Some(r) => after_ledger.files.insert(path.clone(), r),
            None => after_ledger.files.remove(path),
        };
        if plan.before != plan.after {
            files.push(plan);
        }
    }
    let ledger_changed = after_ledger != ledger;
    Ok(Plan {
        files,
        ledger: after_ledger,
        ledger_changed,
        hook_settings,
        warnings: compiled.warnings.clone(),
    })
}

/// Group resources and claims by file. Files the ledger knows are included
/// too, so that what coffer installed for an agent the desired file no
/// longer names is taken out again.
fn gather<'a>(
    compiled: &'a Compiled,
    ledger: &'a Ledger,
    mode: Mode,
) -> Result<BTreeMap<PathBuf, Target<'a>>, Error> {
    let mut targets: BTreeMap<PathBuf, Target> = BTreeMap::new();
    fn target<'m, 'a>(
        targets: &'m mut BTreeMap<PathBuf, Target<'a>>,
        path: &Path,
        syntax: Syntax,
    ) -> Result<&'m mut Target<'a>, Error> {
        let t = targets.entry(path.to_owned()).or_insert_with(|| Target {
            syntax,
            resources: Vec::new(),
            claims: Vec::new(),
        });
        if t.syntax != syntax {
            return Err(Error::Conflict {
                message: format!(
                    "{} is read as both {:?} and {:?}",
                    path.display(),
                    t.syntax,
                    syntax
                ),
                help: "two agents share this file with different syntax; report this registry bug"
                    .into(),
            });
        }
        Ok(t)
    }
    if mode == Mode::Apply {
        for r in &compiled.resources {
            target(&mut targets, &r.path, r.syntax)?.resources.push(r);
        }
    }
    for c in &compiled.claims {
        target(&mut targets, &c.path, c.syntax)?.claims.push(c);
    }
    for (path, record) in &ledger.files {
        let named = |c: &Claim| compiled.agents.contains(&c.origin.agent);
        if mode == Mode::Destroy && !record.claims.iter().any(named) {
            continue;
        }
        let t = target(&mut targets, path, record.syntax)?;
        for c in &record.claims {
            if !t.claims.contains(&c) {
                t.claims.push(c);
            }
        }
    }
    Ok(targets)
}
