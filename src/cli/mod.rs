//! The command line: argument definitions, one module per command, and the
//! rendering of plans and errors. The engine below knows nothing of this.

mod apply;
mod plan;
mod render;
mod report;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::engine::Mode;

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
    /// Make the changes the plan shows, after asking; or apply a saved plan.
    Apply(ApplyArgs),
    /// Remove everything coffer manages for the agents named in the desired file.
    Destroy(DestroyArgs),
    /// Print the JSON Schema of the desired-state format.
    Schema,
    /// Show which agents take which facets, how, and the evidence.
    Agents(AgentsArgs),
    /// The program installed hooks run.
    ///
    /// Not yet implemented: this is a stub that reads nothing, prints
    /// nothing and exits 0, so installed hooks are harmless until the hook
    /// runtime lands.
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
    /// Plan the removal of everything coffer manages for the named agents.
    #[arg(long)]
    pub destroy: bool,
    /// Save the plan to FILE for a later `coffer apply FILE`.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// A plan saved with `coffer plan --out`: applied exactly, without asking.
    #[arg(value_name = "PLANFILE")]
    pub plan: Option<PathBuf>,
    #[command(flatten)]
    pub desired: DesiredArg,
    #[command(flatten)]
    pub approval: ApprovalArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Debug, Args)]
pub struct DestroyArgs {
    #[command(flatten)]
    pub desired: DesiredArg,
    #[command(flatten)]
    pub approval: ApprovalArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Debug, Args)]
pub struct ApprovalArgs {
    /// Apply without asking. Required when standard input is not a terminal.
    #[arg(long)]
    pub auto_approve: bool,
    /// How long to wait for another coffer run to finish, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub lock_timeout: u64,
}

#[derive(Debug, Args)]
pub struct OutputArg {
    /// Output format: text for people, json for machines (docs/plan-json.md).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct AgentsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = MatrixFormat::Text)]
    pub format: MatrixFormat,
    /// The scope shown in the text table.
    #[arg(long, value_enum, default_value_t = ScopeArg::User)]
    pub scope: ScopeArg,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum MatrixFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ScopeArg {
    User,
    Project,
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
        Command::Schema => {
            print!("{}", crate::desired::schema());
            Ok(Outcome::Done)
        }
        Command::Agents(args) => {
            print!("{}", agents(&args));
            Ok(Outcome::Done)
        }
        Command::Hook(_) => Ok(Outcome::Done),
    };
    result.unwrap_or_else(|e| {
        print_error(&e);
        Outcome::Failed
    })
}

fn agents(args: &AgentsArgs) -> String {
    use crate::registry::{Registry, Scope, matrix};
    let registry = Registry::builtin();
    match args.format {
        MatrixFormat::Json => format!("{:#}\n", matrix::json(registry)),
        MatrixFormat::Markdown => matrix::markdown(registry),
        MatrixFormat::Text => matrix::text(
            registry,
            match args.scope {
                ScopeArg::User => Scope::User,
                ScopeArg::Project => Scope::Project,
            },
        ),
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
