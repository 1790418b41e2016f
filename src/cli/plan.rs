//! `coffer plan`.

use super::{CliError, Outcome, PlanArgs, render};
use crate::engine::{self, Mode};
use crate::env::Env;
use crate::fsys::RealFs;

pub(super) fn run(args: &PlanArgs) -> Result<Outcome, CliError> {
    let env = Env::from_process().map_err(CliError::Env)?;
    let file = crate::desired::load(&args.desired.file).map_err(crate::error::Error::from)?;
    let plan = engine::plan(&file, Mode::Apply, &env, &RealFs)?;
    render::print_plan(&plan, Mode::Apply);
    Ok(if plan.has_changes() && args.detailed_exitcode {
        Outcome::ChangesPending
    } else {
        Outcome::Done
    })
}
