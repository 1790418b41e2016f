//! The provider contract: `coffer.context-request/v1` on a provider's stdin,
//! `coffer.context-result/v1` on its stdout, and the bounded status codes
//! the hook itself reports.
//!
//! A provider is someone else's program, so its result is checked whole
//! before any field is used: the format string, the provider id, every
//! count and every reason code. A result that fails any check is dropped
//! as a whole; half a result would be worse than none.

use std::path::Path;

use serde::{Deserialize, Serialize};

pub const REQUEST_FORMAT: &str = "coffer.context-request/v1";
pub const RESULT_FORMAT: &str = "coffer.context-result/v1";

/// At most this many reason codes in a result.
pub const MAX_REASONS: usize = 16;

/// What a provider is told. `prompt` is present only at prompt events;
/// `session_id`, `turn` and `cwd` only when the hook knows them.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub format: &'static str,
    pub agent: &'a str,
    pub dialect: &'a str,
    /// coffer's event name (`session-start`, `user-prompt-submit`).
    pub event: &'a str,
    /// The agent's own event name.
    pub native_event: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<&'a Path>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<&'a str>,
}

/// A provider's answer, after validation.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextResult {
    pub format: String,
    pub provider: String,
    pub context: String,
    pub matched: u32,
    pub succeeded: u32,
    pub failed: u32,
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// Parse and check a result. Every way it can be wrong maps to one status.
pub fn parse_result(bytes: &[u8]) -> Result<ContextResult, Status> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Status::EmptyOutput);
    }
    let r: ContextResult = serde_json::from_slice(bytes).map_err(|_| Status::Malformed)?;
    let valid = r.format == RESULT_FORMAT
        && is_code(&r.provider, true)
        && u64::from(r.succeeded) + u64::from(r.failed) <= u64::from(r.matched)
        && r.reasons.len() <= MAX_REASONS
        && r.reasons.iter().all(|c| is_code(c, false));
    if valid {
        Ok(r)
    } else {
        Err(Status::InvalidResult)
    }
}

/// A provider id (`[A-Za-z0-9][A-Za-z0-9._-]{0,63}`) or reason code (the
/// same in lower case): short, printable, safe in a log line.
fn is_code(s: &str, upper: bool) -> bool {
    let ok =
        |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || (upper && c.is_ascii_uppercase());
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && ok(b[0])
        && b[1..]
            .iter()
            .all(|&c| ok(c) || matches!(c, b'.' | b'_' | b'-'))
}

/// How one source went, as the bounded code the audit log and debug output
/// show. Everything but `Ok`, `Empty` and `Skipped` is a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// The source worked and had nothing to say.
    Empty,
    /// Not run: it failed twice this session already.
    Skipped,
    NotFound,
    SpawnFailed,
    Timeout,
    Signal,
    ExitNonzero,
    Oversized,
    EmptyOutput,
    Malformed,
    InvalidResult,
    ReadFailed,
    NotUtf8,
    HttpStatus,
    HttpError,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Empty => "empty",
            Status::Skipped => "skipped",
            Status::NotFound => "not-found",
            Status::SpawnFailed => "spawn-failed",
            Status::Timeout => "timeout",
            Status::Signal => "signal",
            Status::ExitNonzero => "exit-nonzero",
            Status::Oversized => "oversized",
            Status::EmptyOutput => "empty-output",
            Status::Malformed => "malformed",
            Status::InvalidResult => "invalid-result",
            Status::ReadFailed => "read-failed",
            Status::NotUtf8 => "not-utf8",
            Status::HttpStatus => "http-status",
            Status::HttpError => "http-error",
        }
    }

    pub fn is_failure(self) -> bool {
        !matches!(self, Status::Ok | Status::Empty | Status::Skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"format":"coffer.context-result/v1","provider":"memo","context":"x","matched":2,"succeeded":1,"failed":1,"reasons":["stale-index"]}"#;

    #[test]
    fn a_good_result_parses() {
        let r = parse_result(GOOD.as_bytes()).unwrap();
        assert_eq!((r.provider.as_str(), r.context.as_str()), ("memo", "x"));
    }

    #[test]
    fn every_field_is_checked() {
        let cases = [
            (GOOD.replace("/v1", "/v2"), Status::InvalidResult),
            (GOOD.replace("\"memo\"", "\"me mo\""), Status::InvalidResult),
            (GOOD.replace("\"memo\"", "\"\""), Status::InvalidResult),
            (GOOD.replace("stale-index", "Stale"), Status::InvalidResult),
            (
                GOOD.replace("\"matched\":2", "\"matched\":1"),
                Status::InvalidResult,
            ),
            (
                GOOD.replace("\"failed\":1", "\"failed\":-1"),
                Status::Malformed,
            ),
            (
                GOOD.replace("\"failed\":1", "\"failed\":1.5"),
                Status::Malformed,
            ),
            (
                GOOD.replace("\"context\":\"x\"", "\"context\":7"),
                Status::Malformed,
            ),
            (
                GOOD.replace("\"reasons\"", "\"extra\":1,\"reasons\""),
                Status::Malformed,
            ),
            (GOOD.replace(",\"failed\":1", ""), Status::Malformed),
            (format!("{GOOD} trailing"), Status::Malformed),
            ("\n".to_owned(), Status::EmptyOutput),
        ];
        for (text, want) in cases {
            assert_eq!(parse_result(text.as_bytes()), Err(want), "{text}");
        }
        let many = format!("[{}]", vec!["\"a\""; MAX_REASONS + 1].join(","));
        let text = GOOD.replace("[\"stale-index\"]", &many);
        assert_eq!(parse_result(text.as_bytes()), Err(Status::InvalidResult));
    }
}
