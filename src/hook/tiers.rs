//! The two tiers: the session note at session start, per-prompt context
//! at prompt events, and the session bookkeeping around both.
//!
//! This is where "once per session start", "the note rides the first
//! prompt when there is no session-start channel" and "a failing source is
//! retried at most once per session" are decided; the sources themselves
//! know nothing of sessions.

use std::path::Path;
use std::time::Duration;

use super::protocol::{self, REQUEST_FORMAT, Request};
use super::session::Session;
use super::sources::{self, Outcome};
use super::{Run, audit, compose, debug_line, dialect, input};
use crate::state::hook_config::{
    EVENT_SESSION_START, EVENT_USER_PROMPT_SUBMIT, HookConfig, Source,
};

/// Tier 1 at a session-start event: the capped note, once per start.
/// Standard input is not read.
pub(super) fn session_start(run: &Run) -> String {
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
pub(super) fn prompt(run: &Run) -> String {
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
