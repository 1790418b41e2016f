//! Errors as miette reports on standard error, each naming the file and the
//! position and, where coffer can tell, what to do next.

use std::io::{IsTerminal, Write};

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, MietteDiagnostic};

use super::CliError;
use crate::desired::DesiredError;
use crate::error::Error;

pub fn print_error(err: &CliError) {
    let text = render(err);
    let _ = std::io::stderr().write_all(text.as_bytes());
}

fn handler() -> GraphicalReportHandler {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme).with_width(120)
}

/// The report text for `err`.
pub fn render(err: &CliError) -> String {
    let mut out = String::new();
    let h = handler();
    let _ = match err {
        CliError::Engine(Error::Desired(DesiredError::Invalid(located)))
        | CliError::Engine(Error::Target(located)) => {
            h.render_report(&mut out, located.as_ref() as &dyn Diagnostic)
        }
        CliError::Engine(e) => {
            let mut d = MietteDiagnostic::new(e.to_string());
            if let Some(help) = e.help() {
                d = d.with_help(help);
            }
            h.render_report(&mut out, &d)
        }
        CliError::NeedsApproval => h.render_report(
            &mut out,
            &MietteDiagnostic::new(err.to_string()).with_help(
                "review the plan above, then run again with --auto-approve; nothing was written",
            ),
        ),
        CliError::Saved(crate::engine::SavedPlanError::OtherVersion { .. }) => h.render_report(
            &mut out,
            &MietteDiagnostic::new(err.to_string())
                .with_help("run `coffer plan --out` again with this coffer"),
        ),
        CliError::Lock(crate::fsys::LockError::Busy { .. }) => h.render_report(
            &mut out,
            &MietteDiagnostic::new(err.to_string()).with_help(
                "wait for the other run to finish, or raise --lock-timeout; nothing was written",
            ),
        ),
        other => h.render_report(&mut out, &MietteDiagnostic::new(other.to_string())),
    };
    out
}
