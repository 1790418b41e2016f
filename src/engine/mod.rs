//! The reconciler: desired state + real files + ledger → plan → writes.
//!
//! Planning is pure apart from reading files; applying re-checks that every
//! file is still what the plan was computed from, writes atomically, and
//! rolls back the files it already wrote if a later write fails.

mod apply;
/// Reconciling one JSON or JSONC file. Public so that tests can drive it
/// on file kinds no built-in agent uses yet (JSONC).
pub mod json;
mod plan;

pub use apply::apply;
pub use plan::{Action, Change, ChangeOp, FilePlan, Mode, Plan, Summary, plan};
