//! Gathering context from the configured sources.
//!
//! Files are read in place; providers (programs and URLs) each run in their
//! own thread, so the slowest source bounds the hook, not their sum. Every
//! source ends in an [`Outcome`] with a bounded status, whatever happened:
//! nothing a source does can fail the hook.

mod command;
mod file;
mod url;

use std::path::Path;
use std::time::{Duration, Instant};

use super::protocol::{Request, Status};
use crate::state::hook_config::{Source, SourceKind};

/// How one source went.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub id: String,
    pub status: Status,
    /// The context it contributed (empty unless `Ok`).
    pub text: String,
    /// The provider's own id, from a valid result.
    pub provider: Option<String>,
    /// matched, succeeded, failed: the provider's counts, or for a file
    /// source the files its pattern matched, read, and could not read.
    pub counts: [u32; 3],
    /// The provider's reason codes (already validated).
    pub reasons: Vec<String>,
    pub elapsed: Duration,
}

impl Outcome {
    pub fn skipped(id: &str) -> Outcome {
        Outcome {
            id: id.to_owned(),
            status: Status::Skipped,
            text: String::new(),
            provider: None,
            counts: [0; 3],
            reasons: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// What a source produced before timing and naming.
pub(crate) struct Got {
    pub status: Status,
    pub text: String,
    pub provider: Option<String>,
    pub counts: [u32; 3],
    pub reasons: Vec<String>,
}

impl Got {
    pub fn failed(status: Status) -> Got {
        Got {
            status,
            text: String::new(),
            provider: None,
            counts: [0; 3],
            reasons: Vec::new(),
        }
    }

    /// A text that worked: `Ok`, or `Empty` when there is nothing in it.
    pub fn text(text: String, counts: [u32; 3]) -> Got {
        let status = if text.trim().is_empty() {
            Status::Empty
        } else {
            Status::Ok
        };
        Got {
            status,
            text: if status == Status::Ok {
                text
            } else {
                String::new()
            },
            provider: None,
            counts,
            reasons: Vec::new(),
        }
    }
}

/// Run `sources` for `request` and return their outcomes in the same order.
/// `file_cap` bounds what is read of each file.
pub fn gather(
    sources: &[&Source],
    request: &Request,
    cwd: Option<&Path>,
    file_cap: u64,
) -> Vec<Outcome> {
    let request_json = serde_json::to_vec(request).expect("the request serialises");
    enum Pending<'s> {
        Done(Outcome),
        Running(std::thread::ScopedJoinHandle<'s, Outcome>),
    }
    std::thread::scope(|scope| {
        let pending: Vec<Pending> = sources
            .iter()
            .map(|s| match &s.kind {
                SourceKind::File { path, glob } => {
                    Pending::Done(timed(s, || file::read(path, *glob, file_cap)))
                }
                SourceKind::Command { .. } | SourceKind::Url { .. } => {
                    let request_json = &request_json;
                    Pending::Running(
                        scope.spawn(move || timed(s, || run_provider(s, request_json, cwd))),
                    )
                }
            })
            .collect();
        pending
            .into_iter()
            .zip(sources)
            .map(|(p, s)| match p {
                Pending::Done(done) => done,
                Pending::Running(handle) => handle
                    .join()
                    .unwrap_or_else(|_| named(s, Got::failed(Status::SpawnFailed), Duration::ZERO)),
            })
            .collect()
    })
}

fn run_provider(source: &Source, request_json: &[u8], cwd: Option<&Path>) -> Got {
    match &source.kind {
        SourceKind::Command {
            argv,
            timeout_ms,
            max_output_bytes,
        } => command::run(
            argv,
            request_json,
            cwd,
            Duration::from_millis(*timeout_ms),
            *max_output_bytes,
        ),
        SourceKind::Url {
            url,
            timeout_ms,
            max_output_bytes,
        } => url::get(
            url,
            cwd,
            Duration::from_millis(*timeout_ms),
            *max_output_bytes,
        ),
        SourceKind::File { .. } => unreachable!("files are read in place"),
    }
}

fn timed(source: &Source, f: impl FnOnce() -> Got) -> Outcome {
    let start = Instant::now();
    let got = f();
    named(source, got, start.elapsed())
}

fn named(source: &Source, got: Got, elapsed: Duration) -> Outcome {
    Outcome {
        id: source.id.clone(),
        status: got.status,
        text: got.text,
        provider: got.provider,
        counts: got.counts,
        reasons: got.reasons,
        elapsed,
    }
}

/// A provider's stdout or response body, validated as a result.
/// The text of a file source as the hook would read it (globs expanded,
/// capped), for agents whose context coffer writes ahead of time instead.
pub fn read_file_source(path: &std::path::Path, glob: bool, cap: u64) -> String {
    file::read(path, glob, cap).text
}

pub(crate) fn from_result(bytes: &[u8]) -> Got {
    match super::protocol::parse_result(bytes) {
        Err(status) => Got::failed(status),
        Ok(r) => {
            let mut got = Got::text(r.context, [r.matched, r.succeeded, r.failed]);
            got.provider = Some(r.provider);
            got.reasons = r.reasons;
            got
        }
    }
}
