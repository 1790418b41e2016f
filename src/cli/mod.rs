//! The command line: argument definitions, one module per command, and the
//! rendering of plans and errors. The engine below knows nothing of this.

mod apply;
mod plan;
mod render;
mod report;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use report::print_error;

/// coffer keeps the configuration of AI coding agents in a declared state.
///
/// Write one desired-state YAML file naming agents and the facets each
/// should get; `coffer plan` shows the edits as unified diffs, `coffer
/// apply` makes exactly those, and removing something from the file removes
/// exactly what coffer added.
#[derive(Debug, Parser)]
#[command(name = "coffer", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the changes apply would make, as unified diffs.
    ///
    /// Exit status: 0 when nothing would change, 1 on any error, and with
    /// --detailed-exitcode 2 when changes are pending.
    Plan(PlanArgs),
    /// Make the changes the plan shows, after asking.
    Apply(ApplyArgs),
    /// Remove everything coffer manages for the agents named in the desired file.
    Destroy(ApplyArgs),
    /// Print the JSON Schema of the desired-state format.
    Schema,
    /// The program installed hooks run.
    ///
    /// Prints the context configured for the agent in the envelope its
    /// dialect expects for the event, from the settings `coffer apply` left in
    /// the state folder. It always exits 0 and prints nothing on stderr; set
    /// COFFER_HOOK_DEBUG=1 for a line per source. See docs/hook.md.
    Hook(HookArgs),
}

#[derive(Debug, Args)]
pub struct DesiredArg {
    /// The desired-state file.
    #[arg(
        short = 'f',
        long = "file",
        value_name = "FILE",
        default_value = "coffer.yaml"
    )]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub desired: DesiredArg,
    /// Exit 2 when changes are pending (0 means none, 1 an error).
    #[arg(long)]
    pub detailed_exitcode: bool,
}

#[derive(Debug, Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    pub desired: DesiredArg,
    /// Apply without asking. Required when standard input is not a terminal.
    #[arg(long)]
    pub auto_approve: bool,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// The agent's hook dialect (claude, codex, cursor, …).
    #[arg(long)]
    pub dialect: Option<String>,
    /// The agent's native event name.
    #[arg(long)]
    pub event: Option<String>,
}

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
    let result = match cli.command {
        Command::Plan(args) => plan::run(&args),
        Command::Apply(args) => apply::run(&args, coffer_mode(false)),
        Command::Destroy(args) => apply::run(&args, coffer_mode(true)),
        Command::Schema => {
            print!("{}", crate::desired::schema());
            Ok(Outcome::Done)
        }
        Command::Hook(_) => Ok(Outcome::Done),
    };
    result.unwrap_or_else(|e| {
        print_error(&e);
        Outcome::Failed
    })
}

fn coffer_mode(destroy: bool) -> crate::engine::Mode {
    if destroy {
        crate::engine::Mode::Destroy
    } else {
        crate::engine::Mode::Apply
    }
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
}
