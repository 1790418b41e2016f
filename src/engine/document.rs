//! The plan as a document: the versioned JSON of `--format json`, and the
//! saved plan of `plan --out`, which `apply PLANFILE` makes real exactly.
//!
//! The JSON document carries no secret (the diff is redacted and changes
//! name fragments, not values). A saved plan must also carry the bytes it
//! will write, so it is written owner-only, like Terraform's plan files.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::plan::{Action, Change, FilePlan, Mode, Plan, Summary};
use crate::state::{Ledger, sha256};

/// The version of the JSON document; bumped on incompatible changes.
pub const FORMAT_VERSION: u32 = 1;

/// The plan as `--format json` prints it (docs/plan-json.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(title = "coffer plan")]
pub struct PlanDocument {
    pub format_version: u32,
    pub coffer_version: String,
    /// `apply` or `destroy`.
    pub mode: String,
    /// The ledger partition: `user` or `project:<root>`.
    pub scope: String,
    pub desired: DesiredRef,
    pub summary: Summary,
    pub files: Vec<FileDocument>,
    /// Files changed outside coffer since it last wrote them.
    #[serde(default)]
    pub drift: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DesiredRef {
    pub path: String,
    pub sha256: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FileDocument {
    pub path: PathBuf,
    /// As users read it (`~/…`).
    pub display: String,
    pub action: Action,
    pub before_sha256: Option<String>,
    pub after_sha256: Option<String>,
    pub changes: Vec<Change>,
    pub notes: Vec<String>,
    /// The unified diff, secrets replaced by `(sensitive)`.
    pub diff: String,
}

/// The JSON Schema of the plan document, as checked in under
/// `schemas/plan.schema.json`.
pub fn plan_schema() -> String {
    let mut text = serde_json::to_string_pretty(&schemars::schema_for!(PlanDocument))
        .expect("a schema serialises");
    text.push('\n');
    text
}

impl PlanDocument {
    pub fn new(plan: &Plan, scope: &str, desired_path: &str, desired_text: &str) -> PlanDocument {
        PlanDocument {
            format_version: FORMAT_VERSION,
            coffer_version: env!("CARGO_PKG_VERSION").into(),
            mode: match plan.mode {
                Mode::Apply => "apply".into(),
                Mode::Destroy => "destroy".into(),
            },
            scope: scope.into(),
            desired: DesiredRef {
                path: desired_path.into(),
                sha256: sha256(desired_text.as_bytes()),
            },
            summary: plan.summary(),
            files: plan.files.iter().map(file_document).collect(),
            drift: plan.drift.clone(),
        }
    }
}

fn file_document(f: &FilePlan) -> FileDocument {
    FileDocument {
        path: f.path.clone(),
        display: f.display.clone(),
        action: f.action(),
        before_sha256: f.before_sha256.clone(),
        after_sha256: f.after.as_deref().map(sha256),
        changes: f.changes.clone(),
        notes: f.notes.clone(),
        diff: f.diff.clone(),
    }
}

/// A plan saved for a later `apply PLANFILE`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SavedPlan {
    pub kind: String,
    #[serde(flatten)]
    pub document: PlanDocument,
    /// What to write, in the order of `document.files`.
    pub contents: Vec<SavedFile>,
    pub ledger_before: String,
    pub ledger_changed: bool,
    pub ledger: Ledger,
    /// The hook's settings files to write or remove.
    #[serde(default)]
    pub hook_settings: Vec<super::hook_settings::HookSettingsPlan>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SavedFile {
    pub after: Option<String>,
    #[serde(default)]
    pub agent_lock: Option<PathBuf>,
    #[serde(default)]
    pub new_mode: Option<u32>,
    pub create_dirs: Vec<PathBuf>,
    pub remove_dirs: Vec<PathBuf>,
}

const SAVED_KIND: &str = "coffer-saved-plan";

/// Why a saved plan cannot be applied.
#[derive(Debug, thiserror::Error)]
pub enum SavedPlanError {
    #[error("{0} is not a coffer saved plan: {1}")]
    Unreadable(String, String),
    #[error("{path} was made by coffer {made_by}; this is coffer {this}")]
    OtherVersion {
        path: String,
        made_by: String,
        this: String,
    },
}

impl SavedPlan {
    pub fn new(plan: &Plan, document: PlanDocument) -> SavedPlan {
        SavedPlan {
            kind: SAVED_KIND.into(),
            document,
            contents: plan
                .files
                .iter()
                .map(|f| SavedFile {
                    after: f
                        .after
                        .as_deref()
                        .map(|b| String::from_utf8_lossy(b).into_owned()),
                    agent_lock: f.agent_lock.clone(),
                    new_mode: f.new_mode,
                    create_dirs: f.create_dirs.clone(),
                    remove_dirs: f.remove_dirs.clone(),
                })
                .collect(),
            ledger_before: plan.ledger_before.clone(),
            ledger_changed: plan.ledger_changed,
            ledger: plan.ledger.clone(),
            hook_settings: plan.hook_settings.clone(),
        }
    }

    pub fn parse(path: &str, text: &str) -> Result<SavedPlan, SavedPlanError> {
        let saved: SavedPlan = serde_json::from_str(text)
            .map_err(|e| SavedPlanError::Unreadable(path.into(), e.to_string()))?;
        if saved.kind != SAVED_KIND || saved.contents.len() != saved.document.files.len() {
            return Err(SavedPlanError::Unreadable(
                path.into(),
                "not a saved plan".into(),
            ));
        }
        let this = env!("CARGO_PKG_VERSION");
        if saved.document.coffer_version != this || saved.document.format_version != FORMAT_VERSION
        {
            return Err(SavedPlanError::OtherVersion {
                path: path.into(),
                made_by: saved.document.coffer_version,
                this: this.into(),
            });
        }
        Ok(saved)
    }

    /// The plan to hand to `engine::apply`.
    pub fn into_plan(self) -> Plan {
        let mode = if self.document.mode == "destroy" {
            Mode::Destroy
        } else {
            Mode::Apply
        };
        let files = self
            .document
            .files
            .into_iter()
            .zip(self.contents)
            .map(|(d, c)| FilePlan {
                path: d.path,
                display: d.display,
                before_sha256: d.before_sha256,
                after: c.after.map(String::into_bytes),
                diff: d.diff,
                changes: d.changes,
                notes: d.notes,
                secrets: Vec::new(),
                new_mode: c.new_mode,
                agent_lock: c.agent_lock,
                create_dirs: c.create_dirs,
                remove_dirs: c.remove_dirs,
            })
            .collect();
        Plan {
            mode,
            scope: self.document.scope.clone(),
            files,
            ledger: self.ledger,
            ledger_changed: self.ledger_changed,
            ledger_before: self.ledger_before,
            drift: self.document.drift,
            hook_settings: self.hook_settings,
            warnings: Vec::new(),
        }
    }
}
