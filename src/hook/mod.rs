//! The program installed hooks run: `coffer hook --dialect D --event E`.
//!
//! It runs at every session start (and, where enabled, every prompt) of
//! every agent, so it is built to four rules:
//!
//! - **Right envelope.** What it prints is exactly what the dialect expects
//!   for the event ([`dialect`]).
//! - **Fast.** It reads one small settings file that `apply` left in the
//!   state folder ([`crate::state::hook_config`]) and never loads the
//!   desired file, the registry or the engine. Sources run in parallel.
//! - **Fail silent.** Every failure — no settings, a missing file, a
//!   provider that hangs, crashes or lies, even a panic — ends in exit 0
//!   with the dialect's minimal valid output. Nothing goes to stderr unless
//!   `COFFER_HOOK_DEBUG` is set, and even then no context or prompt text.
//! - **Private.** Context and prompts go only to stdout and to the
//!   configured providers; per-session state is keyed by session
//!   ([`session`]); the audit log keeps fingerprints, not text ([`audit`]).
//!
//! It is dispatched before the argument parser so that no mistake in its
//! arguments can print a usage error into an agent's session.

mod audit;
mod compose;
pub mod dialect;
mod input;
pub mod protocol;
mod session;
pub mod sources;
mod tiers;

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::state::hook_config::{self, EVENT_SESSION_START, EVENT_USER_PROMPT_SUBMIT, HookConfig};
use dialect::Envelope;

/// Set (to anything but `0`) to get a line per source on stderr.
pub const DEBUG_VAR: &str = "COFFER_HOOK_DEBUG";

/// Whether the command line is a hook invocation (and not a request for
/// its help text).
pub fn is_hook_invocation(args: &[OsString]) -> bool {
    args.get(1).is_some_and(|a| a == "hook")
        && !args[2..].iter().any(|a| a == "--help" || a == "-h")
}

/// Run the hook with the arguments after `hook`. Always exits 0.
pub fn main(args: &[OsString]) -> u8 {
    let debug = std::env::var_os(DEBUG_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    if !debug {
        // A panic message on stderr is exactly what must never reach an
        // agent's session.
        std::panic::set_hook(Box::new(|_| {}));
    }
    let out = output(args, debug);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(&out).and_then(|_| stdout.flush());
    0
}

/// The bytes the hook prints for these arguments, whatever happens.
pub fn output(args: &[OsString], debug: bool) -> Vec<u8> {
    let (dialect, event) = parse_args(args);
    let envelope = dialect::envelope(&dialect, &event);
    std::panic::catch_unwind(|| run(&dialect, &event, envelope, debug))
        .unwrap_or_else(|_| envelope.render(""))
}

/// `--dialect D --event E` in any order; anything else is ignored, so an
/// entry written by a newer coffer still runs.
fn parse_args(args: &[OsString]) -> (String, String) {
    let (mut dialect, mut event) = (String::new(), String::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let slot = match a.to_str() {
            Some("--dialect") => &mut dialect,
            Some("--event") => &mut event,
            _ => continue,
        };
        if let Some(v) = it.next() {
            *slot = v.to_string_lossy().into_owned();
        }
    }
    (dialect, event)
}

/// The state folder, by the same rule as [`crate::env::Env::from_process`]:
/// `$XDG_STATE_HOME/coffer` when that is absolute, else
/// `~/.local/state/coffer`.
fn state_dir() -> Option<PathBuf> {
    if let Some(s) = std::env::var_os("XDG_STATE_HOME").map(PathBuf::from)
        && s.is_absolute()
    {
        return Some(s.join("coffer"));
    }
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(std::env::home_dir)?;
    home.is_absolute().then(|| home.join(".local/state/coffer"))
}

/// Everything one run needs, resolved before any source runs.
struct Run<'a> {
    config: &'a HookConfig,
    state_dir: &'a Path,
    native_event: &'a str,
    debug: bool,
}

fn run(dialect: &str, event: &str, envelope: Envelope, debug: bool) -> Vec<u8> {
    let nothing = || envelope.render("");
    // The dialect names files in the state folder: nothing but a plain
    // name may reach a path.
    let plain = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if !envelope.carries_context() || dialect.is_empty() || !plain(dialect) {
        return nothing();
    }
    let Some(state_dir) = state_dir() else {
        return nothing();
    };
    // Agents run hooks in the project's folder (Claude Code also names it).
    let cwd = std::env::var_os("CLAUDE_PROJECT_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok());
    let config = std::fs::read(hook_config::find(&state_dir, cwd.as_deref(), dialect))
        .ok()
        .and_then(|b| hook_config::decode(&b));
    let Some(config) = config.filter(|c| c.dialect == dialect) else {
        debug_line(debug, "no settings for this dialect: run `coffer apply`");
        return nothing();
    };
    let run = Run {
        config: &config,
        state_dir: &state_dir,
        native_event: event,
        debug,
    };
    let text = match config.events.get(event).map(String::as_str) {
        Some(EVENT_SESSION_START) => tiers::session_start(&run),
        Some(EVENT_USER_PROMPT_SUBMIT) => tiers::prompt(&run),
        _ => String::new(),
    };
    envelope.render(&text)
}

fn debug_line(debug: bool, line: &str) {
    if debug {
        let _ = writeln!(std::io::stderr(), "coffer hook: {line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    #[test]
    fn arguments_in_any_order_and_extra_ones_ignored() {
        assert_eq!(
            parse_args(&args(&["--event", "E", "--new-flag", "--dialect", "d"])),
            ("d".into(), "E".into())
        );
        assert_eq!(
            parse_args(&args(&["--dialect"])),
            (String::new(), String::new())
        );
    }

    #[test]
    fn a_dialect_that_is_not_a_plain_name_reads_nothing() {
        // opencode prints plain text for any event; a path-like dialect
        // must not get that far.
        let out = output(&args(&["--dialect", "../opencode", "--event", "x"]), false);
        assert_eq!(out, b"");
    }
}
