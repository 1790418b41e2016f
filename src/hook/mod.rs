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
mod sources;

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::state::hook_config::{
    self, EVENT_SESSION_START, EVENT_USER_PROMPT_SUBMIT, HookConfig, Source,
};
use dialect::Envelope;
use protocol::{REQUEST_FORMAT, Request};
use session::Session;
use sources::Outcome;

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
    if !envelope.carries_context() {
        return nothing();
    }
    let Some(state_dir) = state_dir() else {
        return nothing();
    };
    let config = std::fs::read(hook_config::path(&state_dir, dialect))
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
        Some(EVENT_SESSION_START) => session_start(&run),
        Some(EVENT_USER_PROMPT_SUBMIT) => prompt(&run),
        _ => String::new(),
    };
    envelope.render(&text)
}

/// Tier 1 at a session-start event: the capped note, once per start.
/// Standard input is not read.
fn session_start(run: &Run) -> String {
    if !run.config.session_note {
        return String::new();
    }
    let id = dialect::session_from_env(&run.config.dialect);
    let mut session = id
        .as_deref()
        .map(|id| Session::open(run.state_dir, &run.config.dialect, id));
    let cwd = input::resolve_cwd(None);
    let request = request(
        run,
        EVENT_SESSION_START,
        id.as_deref(),
        Some(0),
        cwd.as_deref(),
        None,
    );
    let all: Vec<&Source> = run.config.sources.iter().collect();
    let outcomes = gather(run, &all, session.as_mut(), &request, cwd.as_deref());
    if let Some(s) = &mut session {
        s.state.note_delivered = true;
        s.save();
    }
    deliver(
        run,
        EVENT_SESSION_START,
        &outcomes,
        run.config.note_max_bytes,
    )
}

/// A prompt event: tier 2 when enabled, and the note on the first prompt
/// of a session whose agent has no session-start channel installed.
fn prompt(run: &Run) -> String {
    let c = run.config;
    let raw = input::read_stdin(c.stdin_max_bytes, Duration::from_millis(c.stdin_timeout_ms));
    let input = raw.as_deref().map(input::parse).unwrap_or_default();
    let mut session = input
        .session_id
        .as_deref()
        .map(|id| Session::open(run.state_dir, &c.dialect, id));
    let turn = session.as_mut().map(|s| {
        s.state.turn += 1;
        s.state.turn
    });
    let first_turn = input.first_turn.or(turn.map(|t| t == 1));
    let note = c.session_note
        && first_turn == Some(true)
        && !has_start_channel(c)
        && !session.as_ref().is_some_and(|s| s.state.note_delivered);
    if !note && !c.per_prompt {
        if let Some(s) = &session {
            s.save();
        }
        return String::new();
    }
    // Files say the same thing every time: they belong to the note.
    let chosen: Vec<&Source> = c
        .sources
        .iter()
        .filter(|s| note || s.kind.is_provider())
        .collect();
    let cwd = input::resolve_cwd(input.cwd.clone());
    let request = request(
        run,
        EVENT_USER_PROMPT_SUBMIT,
        input.session_id.as_deref(),
        turn,
        cwd.as_deref(),
        Some(input.prompt.as_deref().unwrap_or("")),
    );
    let outcomes = gather(run, &chosen, session.as_mut(), &request, cwd.as_deref());
    if let Some(s) = &mut session {
        s.state.note_delivered |= note;
        s.save();
    }
    let cap = match (note, c.per_prompt) {
        (true, true) => c.note_max_bytes + c.prompt_max_bytes,
        (true, false) => c.note_max_bytes,
        _ => c.prompt_max_bytes,
    };
    deliver(run, EVENT_USER_PROMPT_SUBMIT, &outcomes, cap)
}

/// Whether a session-start event that can carry context is installed.
fn has_start_channel(c: &HookConfig) -> bool {
    c.events.iter().any(|(native, ev)| {
        ev == EVENT_SESSION_START && dialect::envelope(&c.dialect, native).carries_context()
    })
}

fn request<'a>(
    run: &'a Run,
    event: &'a str,
    session_id: Option<&'a str>,
    turn: Option<u64>,
    cwd: Option<&'a Path>,
    prompt: Option<&'a str>,
) -> Request<'a> {
    Request {
        format: REQUEST_FORMAT,
        agent: &run.config.agent,
        dialect: &run.config.dialect,
        event,
        native_event: run.native_event,
        session_id,
        turn,
        cwd,
        prompt,
    }
}

/// Run the sources the session has not given up on, and book the outcome.
fn gather(
    run: &Run,
    chosen: &[&Source],
    session: Option<&mut Session>,
    request: &Request,
    cwd: Option<&Path>,
) -> Vec<Outcome> {
    let runnable: Vec<&Source> = chosen
        .iter()
        .copied()
        .filter(|s| session.as_ref().is_none_or(|ss| ss.state.should_run(&s.id)))
        .collect();
    let mut ran = sources::gather(&runnable, request, cwd, run.config.note_max_bytes).into_iter();
    let outcomes: Vec<Outcome> = chosen
        .iter()
        .map(|s| {
            if runnable.iter().any(|r| r.id == s.id) {
                ran.next().expect("one outcome per runnable source")
            } else {
                Outcome::skipped(&s.id)
            }
        })
        .collect();
    if let Some(s) = session {
        for o in outcomes
            .iter()
            .filter(|o| o.status != protocol::Status::Skipped)
        {
            s.state.record(&o.id, o.status.is_failure());
        }
    }
    outcomes
}

/// Cap and join the outcomes, log what the audit log and debug output may
/// see, and return the text to print.
fn deliver(run: &Run, event: &str, outcomes: &[Outcome], cap: u64) -> String {
    let texts: Vec<&str> = outcomes.iter().map(|o| o.text.as_str()).collect();
    let (text, delivered) = compose::capped(&texts, usize::try_from(cap).unwrap_or(usize::MAX));
    if run.debug {
        for (o, d) in outcomes.iter().zip(&delivered) {
            debug_line(
                true,
                &format!(
                    "{} {}: {}, {} bytes, {}, {:.1} ms",
                    run.config.dialect,
                    o.id,
                    o.status.as_str(),
                    o.text.len(),
                    d.as_str(),
                    o.elapsed.as_secs_f64() * 1000.0
                ),
            );
        }
    }
    if run.config.audit {
        audit::record(
            run.state_dir,
            &run.config.dialect,
            event,
            outcomes,
            &delivered,
        );
    }
    text
}

fn debug_line(debug: bool, line: &str) {
    if debug {
        let _ = writeln!(std::io::stderr(), "coffer hook: {line}");
    }
}
