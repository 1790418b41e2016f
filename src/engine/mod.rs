//! The reconciler: desired state + real files + ledger → plan → writes.
//!
//! Planning is pure apart from reading files; applying re-checks that every
//! file is still what the plan was computed from, writes atomically, and
//! rolls back the files it already wrote if a later write fails.

mod apply;
mod bytes;
pub mod diff;
mod document;
mod hook_settings;
mod json;
pub mod markdown;
mod members;
mod opening;
mod plan;
/// One file's reconcile, the step plan runs per file. Public so that tests
/// can drive it directly, thousands of times, on files of any syntax.
pub mod reconcile;
mod toml;
mod whole;
mod yaml;

pub use apply::apply;
pub use document::{FORMAT_VERSION, PlanDocument, SavedPlan, SavedPlanError, plan_schema};
pub use hook_settings::HookSettingsPlan;
pub use plan::{Action, Change, ChangeOp, FilePlan, Mode, Plan, Summary, plan};
pub use reconcile::Retain;
