//! Commands that print what coffer knows rather than change anything: the
//! desired-state schema, the capability matrix, completions, the man page.

use std::io::Write;

use super::args::{AgentsArgs, Cli, MatrixFormat, ScopeArg};
use super::{CliError, Outcome};

/// Write to standard output; a reader that went away (`| head`) is not an
/// error.
pub(super) fn emit(bytes: &[u8]) -> Outcome {
    let _ = std::io::stdout().lock().write_all(bytes);
    Outcome::Done
}

pub(super) fn schema() -> Outcome {
    emit(crate::desired::schema().as_bytes())
}

pub(super) fn completions(shell: clap_complete::Shell) -> Outcome {
    let mut out = Vec::new();
    clap_complete::generate(
        shell,
        &mut <Cli as clap::CommandFactory>::command(),
        "coffer",
        &mut out,
    );
    emit(&out)
}

pub(super) fn man() -> Result<Outcome, CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(<Cli as clap::CommandFactory>::command())
        .render(&mut out)
        .map_err(|e| CliError::Engine(e.into()))?;
    Ok(emit(&out))
}

pub(super) fn agents(args: &AgentsArgs) -> Outcome {
    emit(matrix_text(args).as_bytes())
}

fn matrix_text(args: &AgentsArgs) -> String {
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
