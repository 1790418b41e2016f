//! `coffer plan`.

use super::{CliError, Outcome, PlanArgs, render};
use crate::engine::{self, Mode};
use crate::fsys::RealFs;

pub(super) fn run(args: &PlanArgs) -> Result<Outcome, CliError> {
    let (env, file) = super::load(&args.desired)?;
    let plan = engine::plan(&file, Mode::Apply, &env, &RealFs)?;
    render::print_plan(&plan, Mode::Apply);
    Ok(if plan.has_changes() && args.detailed_exitcode {
        Outcome::ChangesPending
    } else {
        Outcome::Done
    })
}
