//! Planning: for every file coffer has or had a stake in, the bytes now and
//! the bytes it should have.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::hook_settings::{self, HookSettingsPlan};
use super::reconcile::{self, Input, Retain};
use crate::desired::DesiredFile;
use crate::env::Env;
use crate::error::Error;
use crate::facets::{self, Compiled};
use crate::fsys::{Fs, missing_dirs};
use crate::registry::Registry;
use crate::resource::{Claim, Facet, Resource, Syntax};
use crate::state::{self, Files, Ledger};

/// Whether to reach the desired state or take everything out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Apply,
    /// Remove everything coffer manages for the agents the desired file names.
    Destroy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChangeOp {
    Add,
    Change,
    Remove,
}

/// One fragment added, changed or removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Change {
    pub op: ChangeOp,
    pub facet: Facet,
    pub agents: Vec<String>,
    pub what: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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
    /// SHA-256 of the bytes the plan was computed from; `None`: no file.
    pub before_sha256: Option<String>,
    pub after: Option<Vec<u8>>,
    /// The unified diff, secrets taken out.
    pub diff: String,
    pub changes: Vec<Change>,
    /// What the reader should know about this file.
    pub notes: Vec<String>,
    /// Values that must never be shown: renderers put `(sensitive)` there.
    pub secrets: Vec<String>,
    /// The mode of the file when coffer creates it, where it is not the
    /// usual: owner-only for a secret, executable for a skill's script.
    pub new_mode: Option<u32>,
    /// The lock folder the file's agent takes while writing it; apply
    /// takes it too.
    pub agent_lock: Option<PathBuf>,
    /// Folders to create before writing, outermost first.
    pub create_dirs: Vec<PathBuf>,
    /// Folders coffer created that go once the file is deleted, if empty.
    pub remove_dirs: Vec<PathBuf>,
}

impl FilePlan {
    pub fn action(&self) -> Action {
        match (&self.before_sha256, &self.after) {
            (None, _) => Action::Create,
            (Some(_), None) => Action::Delete,
            (Some(_), Some(_)) => Action::Update,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub mode: Mode,
    /// The ledger partition this plan reconciles.
    pub scope: String,
    /// Files whose bytes change, in path order.
    pub files: Vec<FilePlan>,
    /// The ledger as it will be after the apply.
    pub ledger: Ledger,
    pub ledger_changed: bool,
    /// Fingerprint of the ledger the plan was computed from.
    pub ledger_before: String,
    /// Files changed outside coffer since it last wrote them (as users
    /// read the paths). Information, not a pending change: what coffer
    /// owns may still be intact.
    pub drift: Vec<String>,
    /// The hook's settings files that change (state, shown as one line each).
    pub hook_settings: Vec<HookSettingsPlan>,
    /// Problems that did not stop the plan.
    pub warnings: Vec<String>,
}

#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
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
    resources: Vec<Resource>,
    claims: Vec<&'a Claim>,
}

pub fn plan(file: &DesiredFile, mode: Mode, env: &Env, fs: &dyn Fs) -> Result<Plan, Error> {
    // Only the agents the desired file names are read from the registry.
    let named = file
        .desired
        .agents
        .0
        .iter()
        .map(|(id, _)| id.value.as_str());
    let registry = Registry::builtin_subset(named, &file.desired.define);
    let compiled = facets::compile(file, &registry, env, fs)?;
    let ledger_before = state::fingerprint(fs, env)?;
    let hook_settings = hook_settings::plan(&compiled, mode, &registry, env, fs)?;
    let ledger = state::load(fs, env)?;
    let scope_key = env.scope_key();
    let empty = Files::new();
    let records = ledger.scopes.get(&scope_key).unwrap_or(&empty);
    let targets = gather(&compiled, records, mode)?;
    let retain = match mode {
        Mode::Apply => Retain::Nothing,
        Mode::Destroy => Retain::AllBut(&compiled.agents),
    };

    let mut after_records = records.clone();
    let mut files = Vec::new();
    let mut drift = Vec::new();
    for (path, target) in &targets {
        let display = env.display(path);
        let before = fs.read(path)?;
        let record = records.get(path);
        // Hashing 10 MB takes milliseconds: once per file, when needed.
        let before_sha256 = std::cell::OnceCell::new();
        let before_hash = || {
            before_sha256
                .get_or_init(|| before.as_deref().map(state::sha256))
                .clone()
        };
        if let (Some(r), Some(_)) = (record, &before)
            && Some(&r.sha256) != before_hash().as_ref()
        {
            drift.push(display.clone());
        }
        let resources: Vec<&Resource> = target.resources.iter().collect();
        let outcome = reconcile::reconcile(&Input {
            display: &display,
            before: before.as_deref(),
            syntax: target.syntax,
            resources: &resources,
            claims: &target.claims,
            record,
            retain,
        })?;
        let mut new_record = outcome.record.clone();
        let mut notes: Vec<String> = target
            .resources
            .iter()
            .filter_map(|r| r.note.clone())
            .collect();
        notes.dedup();
        // Every mode knows the secrets, so a destroy shows none either.
        let mut secrets: Vec<String> = compiled
            .resources
            .iter()
            .filter(|r| &r.path == path)
            .flat_map(|r| r.secrets.iter().cloned())
            .collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        let unchanged = match (&before, &outcome.after) {
            (Some(b), Some(a)) => super::bytes::same(b, a),
            (b, a) => b.is_none() && a.is_none(),
        };
        if unchanged {
            update_record(&mut after_records, path, outcome.record);
            continue;
        }
        let mut plan = FilePlan {
            path: path.clone(),
            before_sha256: before_hash(),
            diff: super::diff::unified(
                &display,
                before.as_deref(),
                outcome.after.as_deref(),
                &secrets,
            ),
            display,
            after: outcome.after,
            changes: outcome.changes,
            notes,
            new_mode: new_mode(&target.resources, &secrets),
            secrets,
            agent_lock: target.resources.iter().find_map(|r| r.agent_lock.clone()),
            create_dirs: Vec::new(),
            remove_dirs: Vec::new(),
        };
        match (&plan.before_sha256, &plan.after) {
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
        update_record(&mut after_records, path, new_record);
        files.push(plan);
    }
    let mut after_ledger = ledger.clone();
    if after_records.is_empty() {
        after_ledger.scopes.remove(&scope_key);
    } else {
        after_ledger.scopes.insert(scope_key, after_records);
    }
    let ledger_changed = after_ledger != ledger;
    Ok(Plan {
        mode,
        scope: env.scope_key(),
        files,
        ledger: after_ledger,
        ledger_changed,
        ledger_before,
        drift,
        hook_settings,
        warnings: compiled.warnings.clone(),
    })
}

/// A file holding a secret is the owner's alone; a script stays runnable.
fn new_mode(resources: &[Resource], secrets: &[String]) -> Option<u32> {
    let executable = resources.iter().any(|r| {
        matches!(
            r.fragment,
            crate::resource::Fragment::File {
                executable: true,
                ..
            }
        )
    });
    match (secrets.is_empty(), executable) {
        (false, true) => Some(0o700),
        (false, false) => Some(0o600),
        (true, true) => Some(0o755),
        (true, false) => None,
    }
}

fn update_record(records: &mut Files, path: &Path, record: Option<state::FileRecord>) {
    match record {
        Some(r) => records.insert(path.to_owned(), r),
        None => records.remove(path),
    };
}

/// Group resources and claims by file, merging what several agents want
/// alike and refusing what they want differently. Files the ledger knows
/// are included too, so that what coffer installed for an agent the
/// desired file no longer names is taken out again.
fn gather<'a>(
    compiled: &'a Compiled,
    records: &'a Files,
    mode: Mode,
) -> Result<BTreeMap<PathBuf, Target<'a>>, Error> {
    let mut targets: BTreeMap<PathBuf, Target> = BTreeMap::new();
    if mode == Mode::Apply {
        for r in &compiled.resources {
            let t = target(&mut targets, &r.path, r.syntax)?;
            let same = t
                .resources
                .iter_mut()
                .find(|o| o.fragment.identity() == r.fragment.identity());
            match same {
                Some(o) if o.fragment == r.fragment => {
                    for origin in &r.origins {
                        if !o.origins.contains(origin) {
                            o.origins.push(origin.clone());
                        }
                    }
                }
                Some(o) => {
                    return Err(Error::Conflict {
                        message: format!(
                            "{} and {} want different {} in {}",
                            o.origins[0].agent,
                            r.origins[0].agent,
                            r.fragment.label(),
                            r.path.display()
                        ),
                        help: "give both agents the same definition, or use different names".into(),
                    });
                }
                None => t.resources.push(r.clone()),
            }
        }
    }
    for c in &compiled.claims {
        target(&mut targets, &c.path, c.syntax)?.claims.push(c);
    }
    for (path, record) in records {
        if mode == Mode::Destroy
            && !record
                .agents()
                .iter()
                .any(|a| compiled.agents.iter().any(|n| n == a))
        {
            continue;
        }
        let t = target(&mut targets, path, record.syntax)?;
        for c in &record.claims {
            let named = compiled.agents.contains(&c.origin.agent);
            if (mode == Mode::Apply || named) && !t.claims.contains(&c) {
                t.claims.push(c);
            }
        }
    }
    Ok(targets)
}

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
            help: "two agents share this file with different syntax; fix the registry entries"
                .into(),
        });
    }
    Ok(t)
}
