//! The command line's shape: every command, argument and help text (the
//! `///` docs are the help). Nothing here runs anything.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
    /// Print the JSON Schema of the desired-state format (or of the plan).
    Schema {
        /// The schema of `plan --format json` instead.
        #[arg(long)]
        plan: bool,
    },
    /// Write a desired file from what is installed now (MCP servers are
    /// adopted, coffer's own hooks and plugins become the context facet).
    Import(ImportArgs),
    /// Show which agents take which facets, how, and the evidence.
    Agents(AgentsArgs),
    /// Print a shell completion script (e.g. `coffer completions zsh > _coffer`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    Man,
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
pub struct ImportArgs {
    /// Read the project files of the current folder instead of the home.
    #[arg(long)]
    pub project: bool,
    /// Write the desired file here instead of standard output (never over
    /// an existing file).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The hook program whose entries count as coffer's.
    #[arg(long, value_name = "COMMAND", default_value = crate::desired::DEFAULT_HOOK_COMMAND)]
    pub hook_command: String,
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
