//! `coffer apply` and `coffer destroy`: plan, ask, write.

use std::io::{BufRead, IsTerminal, Write};

use super::{ApplyArgs, CliError, Outcome, render};
use crate::engine::{self, Mode};
use crate::fsys::RealFs;

pub(super) fn run(args: &ApplyArgs, mode: Mode) -> Result<Outcome, CliError> {
    let (env, file) = super::load(&args.desired)?;
    let plan = engine::plan(&file, mode, &env, &RealFs)?;
    render::print_plan(&plan, mode);
    if !plan.has_changes() {
        if plan.ledger_changed {
            engine::apply(&plan, &env, &RealFs)?;
        }
        return Ok(Outcome::Done);
    }
    if !args.auto_approve {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            return Err(CliError::NeedsApproval);
        }
        if !confirm(mode, &mut stdin.lock())? {
            return Err(CliError::Cancelled);
        }
    }
    engine::apply(&plan, &env, &RealFs)?;
    let s = plan.summary();
    let mut out = anstream::stdout();
    let verb = if mode == Mode::Destroy {
        "Destroy"
    } else {
        "Apply"
    };
    let _ = writeln!(
        out,
        "\n{verb} complete: {} added, {} changed, {} removed.",
        s.add, s.change, s.remove
    );
    Ok(Outcome::Done)
}

fn confirm(mode: Mode, input: &mut dyn BufRead) -> Result<bool, CliError> {
    let what = if mode == Mode::Destroy {
        "destroy"
    } else {
        "apply"
    };
    let mut out = anstream::stdout();
    let _ = write!(
        out,
        "\nDo you want to {what} these changes?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: "
    );
    let _ = out.flush();
    let mut line = String::new();
    input
        .read_line(&mut line)
        .map_err(|e| CliError::Engine(e.into()))?;
    Ok(line.trim() == "yes")
}
