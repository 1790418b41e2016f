//! `coffer apply` and `coffer destroy`: plan, ask, write — under the lock,
//! so that concurrent runs serialise. A saved plan is applied exactly, with
//! no prompt: the plan was the review.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use super::{ApprovalArgs, CliError, DesiredArg, Outcome, OutputFormat, render};
use crate::engine::{self, Mode, Plan, PlanDocument, SavedPlan};
use crate::env::Env;
use crate::fsys::lock;

pub(super) fn run(
    desired: &DesiredArg,
    approval: &ApprovalArgs,
    format: OutputFormat,
    mode: Mode,
) -> Result<Outcome, CliError> {
    let (env, file) = super::load(desired)?;
    let _lock = take_lock(&env, approval)?;
    let fs = super::filesystem();
    let plan = engine::plan(&file, mode, &env, fs.as_ref())?;
    match format {
        OutputFormat::Text => render::print_plan(&plan, mode),
        OutputFormat::Json => render::print_json(&PlanDocument::new(
            &plan,
            &env.scope_key(),
            &desired.file.display().to_string(),
            &file.text,
        )),
    }
    if !plan.has_changes() {
        if plan.ledger_changed {
            engine::apply(&plan, &env, fs.as_ref())?;
        }
        return Ok(Outcome::Done);
    }
    if !approval.auto_approve {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() || format == OutputFormat::Json {
            return Err(CliError::NeedsApproval);
        }
        if !confirm(mode, &mut stdin.lock())? {
            return Err(CliError::Cancelled);
        }
    }
    finish(&plan, &env, fs.as_ref(), format)
}

pub(super) fn run_saved(
    path: &Path,
    approval: &ApprovalArgs,
    format: OutputFormat,
) -> Result<Outcome, CliError> {
    let env = Env::from_process().map_err(CliError::Env)?;
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Write {
        path: shown.clone(),
        source,
    })?;
    let saved = SavedPlan::parse(&shown, &text)?;
    let _lock = take_lock(&env, approval)?;
    let plan = saved.into_plan();
    finish(&plan, &env, super::filesystem().as_ref(), format)
}

fn finish(
    plan: &Plan,
    env: &Env,
    fs: &dyn crate::fsys::Fs,
    format: OutputFormat,
) -> Result<Outcome, CliError> {
    engine::apply(plan, env, fs)?;
    if format == OutputFormat::Text {
        let s = plan.summary();
        let verb = if plan.mode == Mode::Destroy {
            "Destroy"
        } else {
            "Apply"
        };
        let _ = writeln!(
            anstream::stdout(),
            "\n{verb} complete: {} added, {} changed, {} removed.",
            s.add,
            s.change,
            s.remove
        );
    }
    Ok(Outcome::Done)
}

fn take_lock(env: &Env, approval: &ApprovalArgs) -> Result<crate::fsys::LockGuard, CliError> {
    Ok(lock(
        &env.state_dir.join("lock"),
        Duration::from_secs(approval.lock_timeout),
    )?)
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
