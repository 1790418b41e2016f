//! The reconciler: desired state + real files + ledger → plan → writes.
//!
//! Planning is pure apart from reading files; applying re-checks that every
//! file is still what the plan was computed from, writes atomically, and
//! rolls back the files it already wrote if a later write fails.

mod apply;
mod hook_settings;
mod json;
mod plan;

pub use apply::apply;
pub use hook_settings::HookSettingsPlan;
pub use plan::{Action, Change, ChangeOp, FilePlan, Mode, Plan, Summary, plan};
