//! `coffer plan`: show (or save) what apply would do.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;

use super::{CliError, Outcome, OutputFormat, PlanArgs, render};
use crate::engine::{self, Mode, PlanDocument, SavedPlan};

pub(super) fn run(args: &PlanArgs) -> Result<Outcome, CliError> {
    let (env, file) = super::load(&args.desired)?;
    let mode = if args.destroy {
        Mode::Destroy
    } else {
        Mode::Apply
    };
    let plan = engine::plan(&file, mode, &env, super::filesystem().as_ref())?;
    let document = PlanDocument::new(
        &plan,
        &env.scope_key(),
        &args.desired.file.display().to_string(),
        &file.text,
    );
    match args.output.format {
        OutputFormat::Text => render::print_plan(&plan, mode),
        OutputFormat::Json => render::print_json(&document),
    }
    if let Some(out) = &args.out {
        save(out, &SavedPlan::new(&plan, document))?;
        if args.output.format == OutputFormat::Text {
            println!(
                "\nSaved the plan to {}; apply it with `coffer apply {}`.",
                out.display(),
                out.display()
            );
        }
    }
    Ok(if plan.has_changes() && args.detailed_exitcode {
        Outcome::ChangesPending
    } else {
        Outcome::Done
    })
}

/// A saved plan holds the bytes it will write: owner-only.
fn save(path: &std::path::Path, saved: &SavedPlan) -> Result<(), CliError> {
    let err = |source| CliError::Write {
        path: path.display().to_string(),
        source,
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .mode(0o600)
        .open(path)
        .map_err(err)?;
    let text = serde_json::to_string_pretty(saved).expect("a plan serialises");
    f.write_all(text.as_bytes())
        .and_then(|_| f.write_all(b"\n"))
        .map_err(err)
}
