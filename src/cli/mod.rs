//! The command line: argument definitions, one module per command, and the
//! rendering of plans and errors. The engine below knows nothing of this.

mod apply;
mod args;
mod generate;
mod plan;
mod render;
mod report;

pub use args::*;

use crate::engine::Mode;

pub use report::print_error;

/// How a command ended, as the exit status says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Success, nothing (left) to change.
    Done,
    /// Success with changes pending (plan --detailed-exitcode).
    ChangesPending,
    /// Any error; it has been printed.
    Failed,
}

impl Outcome {
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Done => 0,
            Outcome::Failed => 1,
            Outcome::ChangesPending => 2,
        }
    }
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Outcome {
    dispatch(cli.command).unwrap_or_else(|e| {
        print_error(&e);
        Outcome::Failed
    })
}

fn dispatch(command: Command) -> Result<Outcome, CliError> {
    match command {
        Command::Plan(args) => plan::run(&args),
        Command::Apply(args) => match &args.plan {
            Some(saved) => apply::run_saved(saved, &args.approval, args.output.format),
            None => apply::run(
                &args.desired,
                &args.approval,
                args.output.format,
                Mode::Apply,
            ),
        },
        Command::Destroy(args) => apply::run(
            &args.desired,
            &args.approval,
            args.output.format,
            Mode::Destroy,
        ),
        Command::Schema { plan } => Ok(generate::schema(plan)),
        Command::Import(args) => generate::import(&args),
        Command::Agents(args) => Ok(generate::agents(&args)),
        Command::Completions { shell } => Ok(generate::completions(shell)),
        Command::Man => generate::man(),
        Command::Hook(_) => Ok(Outcome::Done),
    }
}

/// The file system commands work on: the real one, or, for crash-safety
/// tests, one that kills the process after `COFFER_TEST_CRASH_AFTER`
/// changes.
fn filesystem() -> Box<dyn crate::fsys::Fs> {
    use crate::fsys::{RealFs, fault::CrashAfter};
    match std::env::var("COFFER_TEST_CRASH_AFTER")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        Some(n) => Box::new(CrashAfter::new(RealFs, n)),
        None => Box::new(RealFs),
    }
}

/// Read the environment and the desired file; a project-scope file makes
/// its folder the project root.
fn load(args: &DesiredArg) -> Result<(crate::env::Env, crate::desired::DesiredFile), CliError> {
    let mut env = crate::env::Env::from_process().map_err(CliError::Env)?;
    let file = crate::desired::load(&args.file).map_err(crate::error::Error::from)?;
    if file.desired.scope == crate::registry::Scope::Project {
        let dir = std::path::absolute(&args.file)
            .ok()
            .and_then(|p| p.parent().map(|d| d.to_owned()))
            .ok_or_else(|| {
                CliError::Env(format!("cannot tell the folder of {}", args.file.display()))
            })?;
        env.project_root = Some(dir);
    }
    Ok((env, file))
}

/// Errors of the command line itself, beside the engine's.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Engine(#[from] crate::error::Error),
    #[error("{0}")]
    Env(String),
    #[error("refusing to apply without confirmation: standard input is not a terminal")]
    NeedsApproval,
    #[error("apply cancelled")]
    Cancelled,
    #[error(transparent)]
    Lock(#[from] crate::fsys::LockError),
    #[error(transparent)]
    Saved(#[from] crate::engine::SavedPlanError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}
