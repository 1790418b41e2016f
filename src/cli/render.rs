//! Plans as people read them: a unified diff per file and a summary line.
//!
//! Colour goes through anstream, which strips it when standard output is
//! not a terminal or NO_COLOR is set.

use std::fmt::Write as _;
use std::io::Write;

use anstyle::{AnsiColor, Style};

use crate::engine::{Action, FilePlan, Mode, Plan};

const BOLD: Style = Style::new().bold();
const ADD: Style = AnsiColor::Green.on_default();
const DEL: Style = AnsiColor::Red.on_default();
const HUNK: Style = AnsiColor::Cyan.on_default();
const NOTE: Style = AnsiColor::Yellow.on_default();
const WARN: Style = AnsiColor::Yellow.on_default().bold();

pub(super) fn print_plan(plan: &Plan, mode: Mode) {
    // Styled (or stripped) into memory first, then written at once: stdout
    // is line-buffered, and a write per line was 190 system calls for a
    // five-agent plan, a fifth of its run time.
    let stdout = std::io::stdout();
    let choice = anstream::AutoStream::choice(&stdout);
    let mut styled = anstream::AutoStream::new(Vec::new(), choice);
    let _ = styled.write_all(plan_text(plan, mode).as_bytes());
    let _ = stdout.lock().write_all(&styled.into_inner());
}

pub(super) fn print_json(document: &crate::engine::PlanDocument) {
    let mut text = serde_json::to_string_pretty(document).expect("a plan serialises");
    text.push('\n');
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// The whole plan, with ANSI styles (stripped by the caller's stream).
pub fn plan_text(plan: &Plan, mode: Mode) -> String {
    let mut drift = String::new();
    for w in &plan.warnings {
        drift.push_str(&format!("{WARN}Warning:{WARN:#} {w}\n"));
    }
    for d in &plan.drift {
        drift.push_str(&format!(
            "{NOTE}Note:{NOTE:#} {d} changed outside coffer since coffer last wrote it; coffer's own entries are checked as usual.\n"
        ));
    }
    if !plan.has_changes() {
        let what = if mode == Mode::Destroy {
            "Nothing to destroy"
        } else {
            "Your agents match the desired state"
        };
        return format!("{drift}{BOLD}No changes.{BOLD:#} {what}.\n");
    }
    let mut s = drift;
    for f in &plan.files {
        file_diff(&mut s, f);
        s.push('\n');
    }
    for h in &plan.hook_settings {
        let action = match (&h.before, &h.after) {
            (None, _) => "will be created",
            (Some(_), None) => "will be deleted",
            (Some(_), Some(_)) => "will be updated",
        };
        // The file lives in coffer's state folder: what changes matters,
        // not where.
        s.push_str(&format!(
            "{BOLD}# coffer's hook settings for {} {action}{BOLD:#}\n",
            h.dialect
        ));
    }
    if !plan.hook_settings.is_empty() {
        s.push('\n');
    }
    let sum = plan.summary();
    s.push_str(&format!(
        "{BOLD}Plan:{BOLD:#} {} to add, {} to change, {} to remove.\n",
        sum.add, sum.change, sum.remove
    ));
    s
}

fn file_diff(s: &mut String, f: &FilePlan) {
    let action = match f.action() {
        Action::Create => "will be created",
        Action::Update => "will be updated",
        Action::Delete => "will be deleted",
    };
    s.push_str(&format!("{BOLD}# {} {action}{BOLD:#}\n", f.display));
    for note in &f.notes {
        s.push_str(&format!("{NOTE}#   note: {note}{NOTE:#}\n"));
    }
    let text = &f.diff;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let style = match line.as_bytes().first() {
            _ if i < 2 => BOLD,
            Some(b'@') => HUNK,
            Some(b'+') => ADD,
            Some(b'-') => DEL,
            _ => Style::new(),
        };
        let body = line.trim_end_matches('\n');
        // Written in place: a `format!` per line was a tenth of a plan.
        let _ = writeln!(s, "{style}{body}{style:#}");
    }
}
