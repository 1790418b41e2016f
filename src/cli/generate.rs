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

pub(super) fn import(args: &super::args::ImportArgs) -> Result<Outcome, CliError> {
    use crate::registry::{Registry, Scope};
    let mut env = crate::env::Env::from_process().map_err(CliError::Env)?;
    let scope = if args.project {
        env.project_root = Some(std::env::current_dir().map_err(|e| CliError::Engine(e.into()))?);
        Scope::Project
    } else {
        Scope::User
    };
    let program = shlex::split(&args.hook_command).unwrap_or_default();
    let text = crate::import::import(
        Registry::builtin(),
        &env,
        super::filesystem().as_ref(),
        scope,
        &program,
    );
    match &args.out {
        None => Ok(emit(text.as_bytes())),
        Some(path) => {
            let err = |source| CliError::Write {
                path: path.display().to_string(),
                source,
            };
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(err)?;
            f.write_all(text.as_bytes()).map_err(err)?;
            Ok(Outcome::Done)
        }
    }
}

pub(super) fn schema(plan: bool) -> Outcome {
    if plan {
        emit(crate::engine::plan_schema().as_bytes())
    } else {
        emit(crate::desired::schema().as_bytes())
    }
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
