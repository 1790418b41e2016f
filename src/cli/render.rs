//! Plans as people read them: a unified diff per file and a summary line.
//!
//! Colour goes through anstream, which strips it when standard output is
//! not a terminal or NO_COLOR is set.

use std::io::Write;

use anstyle::{AnsiColor, Style};

use crate::engine::{Action, FilePlan, Mode, Plan};

const BOLD: Style = Style::new().bold();
const ADD: Style = AnsiColor::Green.on_default();
const DEL: Style = AnsiColor::Red.on_default();
const HUNK: Style = AnsiColor::Cyan.on_default();
const WARN: Style = AnsiColor::Yellow.on_default().bold();

pub(super) fn print_plan(plan: &Plan, mode: Mode) {
    let mut out = anstream::stdout().lock();
    let _ = out.write_all(plan_text(plan, mode).as_bytes());
}

/// The whole plan, with ANSI styles (stripped by the caller's stream).
pub fn plan_text(plan: &Plan, mode: Mode) -> String {
    let mut s = String::new();
    for w in &plan.warnings {
        s.push_str(&format!("{WARN}Warning:{WARN:#} {w}\n"));
    }
    if !plan.warnings.is_empty() {
        s.push('\n');
    }
    if !plan.has_changes() {
        let what = if mode == Mode::Destroy {
            "Nothing to destroy"
        } else {
            "Your agents match the desired state"
        };
        s.push_str(&format!("{BOLD}No changes.{BOLD:#} {what}.\n"));
        return s;
    }
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
        s.push_str(&format!(
            "{BOLD}# hook settings for {} ({}) {action}{BOLD:#}\n",
            h.dialect, h.display
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
    let before = f
        .before
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let after = f
        .after
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let diff = similar::TextDiff::from_lines(before.as_ref(), after.as_ref());
    let a = format!("a/{}", f.display);
    let b = format!("b/{}", f.display);
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let style = match line.as_bytes().first() {
            _ if i < 2 => BOLD,
            Some(b'@') => HUNK,
            Some(b'+') => ADD,
            Some(b'-') => DEL,
            _ => Style::new(),
        };
        let body = line.trim_end_matches('\n');
        s.push_str(&format!("{style}{body}{style:#}\n"));
    }
}
