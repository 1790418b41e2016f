//! Plans as people read them: a unified diff per file and a summary line.
//!
//! Colour goes through anstream, which strips it when standard output is
//! not a terminal or NO_COLOR is set.

use std::fmt::Write as _;
use std::io::Write;

use anstyle::{AnsiColor, Style};

use crate::engine::{Action, FilePlan, Mode, Plan};

/// The styles of a plan, or none of them.
#[derive(Clone, Copy)]
struct Palette {
    bold: Style,
    add: Style,
    del: Style,
    hunk: Style,
    note: Style,
    warn: Style,
}

impl Palette {
    const COLOUR: Palette = Palette {
        bold: Style::new().bold(),
        add: AnsiColor::Green.on_default(),
        del: AnsiColor::Red.on_default(),
        hunk: AnsiColor::Cyan.on_default(),
        note: AnsiColor::Yellow.on_default(),
        warn: AnsiColor::Yellow.on_default().bold(),
    };
    /// Styles that print nothing: text for a pipe or NO_COLOR is written
    /// plain rather than styled and then stripped again (the stripping
    /// parser was a twentieth of a plan).
    const PLAIN: Palette = Palette {
        bold: Style::new(),
        add: Style::new(),
        del: Style::new(),
        hunk: Style::new(),
        note: Style::new(),
        warn: Style::new(),
    };
}

pub(super) fn print_plan(plan: &Plan, mode: Mode) {
    // Styled (or stripped) into memory first, then written at once: stdout
    // is line-buffered, and a write per line was 190 system calls for a
    // five-agent plan, a fifth of its run time.
    let stdout = std::io::stdout();
    let choice = anstream::AutoStream::choice(&stdout);
    let mut styled = anstream::AutoStream::new(Vec::new(), choice);
    let palette = if choice == anstream::ColorChoice::Never {
        Palette::PLAIN
    } else {
        Palette::COLOUR
    };
    let _ = styled.write_all(render_plan(plan, mode, palette).as_bytes());
    let _ = stdout.lock().write_all(&styled.into_inner());
}

pub(super) fn print_json(document: &crate::engine::PlanDocument) {
    let mut text = serde_json::to_string_pretty(document).expect("a plan serialises");
    text.push('\n');
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// The whole plan, with ANSI styles (stripped by the caller's stream).
pub fn plan_text(plan: &Plan, mode: Mode) -> String {
    render_plan(plan, mode, Palette::COLOUR)
}

fn render_plan(plan: &Plan, mode: Mode, p: Palette) -> String {
    let Palette {
        bold, note, warn, ..
    } = p;
    let mut drift = String::new();
    for w in &plan.warnings {
        drift.push_str(&format!("{warn}Warning:{warn:#} {w}\n"));
    }
    for d in &plan.drift {
        drift.push_str(&format!(
            "{note}Note:{note:#} {d} changed outside coffer since coffer last wrote it; coffer's own entries are checked as usual.\n"
        ));
    }
    if !plan.has_changes() {
        let what = if mode == Mode::Destroy {
            "Nothing to destroy"
        } else {
            "Your agents match the desired state"
        };
        return format!("{drift}{bold}No changes.{bold:#} {what}.\n");
    }
    let mut s = drift;
    for f in &plan.files {
        file_diff(&mut s, f, p);
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
            "{bold}# coffer's hook settings for {} {action}{bold:#}\n",
            h.dialect
        ));
    }
    if !plan.hook_settings.is_empty() {
        s.push('\n');
    }
    let sum = plan.summary();
    s.push_str(&format!(
        "{bold}Plan:{bold:#} {} to add, {} to change, {} to remove.\n",
        sum.add, sum.change, sum.remove
    ));
    s
}

fn file_diff(s: &mut String, f: &FilePlan, p: Palette) {
    let Palette {
        bold, note: style, ..
    } = p;
    let action = match f.action() {
        Action::Create => "will be created",
        Action::Update => "will be updated",
        Action::Delete => "will be deleted",
    };
    s.push_str(&format!("{bold}# {} {action}{bold:#}\n", f.display));
    for note in &f.notes {
        s.push_str(&format!("{style}#   note: {note}{style:#}\n"));
    }
    let text = &f.diff;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let style = match line.as_bytes().first() {
            _ if i < 2 => p.bold,
            Some(b'@') => p.hunk,
            Some(b'+') => p.add,
            Some(b'-') => p.del,
            _ => Style::new(),
        };
        let body = line.trim_end_matches('\n');
        // Written in place: a `format!` per line was a tenth of a plan.
        let _ = writeln!(s, "{style}{body}{style:#}");
    }
}
