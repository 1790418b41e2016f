//! URL sources: one GET to a local provider within a total time budget.
//!
//! The request says only where the agent works: `cwd` as a query
//! parameter, and only when it is known (omitted, never empty). Prompts are
//! never sent over HTTP. No proxy from the environment is used (a
//! `HTTP_PROXY` meant for the internet must not see a local provider's
//! traffic) and no redirect is followed.
//!
//! The body is either a `coffer.context-result/v1` document
//! (`application/json`) or the context itself (`text/plain`).

use std::path::Path;
use std::time::Duration;

use super::{Got, from_result};
use crate::hook::protocol::Status;

pub(super) fn get(url: &str, cwd: Option<&Path>, timeout: Duration, max: u64) -> Got {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .proxy(None)
        .build()
        .into();
    let mut req = agent
        .get(url)
        .header("Accept", "application/json, text/plain;q=0.9");
    if let Some(cwd) = cwd.and_then(Path::to_str) {
        req = req.query("cwd", cwd);
    }
    let mut resp = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Timeout(_)) => return Got::failed(Status::Timeout),
        Err(_) => return Got::failed(Status::HttpError),
    };
    if resp.status() != 200 {
        return Got::failed(Status::HttpStatus);
    }
    let json = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        });
    let body = match resp.body_mut().with_config().limit(max).read_to_vec() {
        Ok(b) => b,
        Err(ureq::Error::BodyExceedsLimit(_)) => return Got::failed(Status::Oversized),
        Err(ureq::Error::Timeout(_)) => return Got::failed(Status::Timeout),
        Err(_) => return Got::failed(Status::HttpError),
    };
    match json.as_deref() {
        Some("application/json") => from_result(&body),
        Some("text/plain") => match String::from_utf8(body) {
            Ok(text) => Got::text(text, [1, 1, 0]),
            Err(_) => Got::failed(Status::NotUtf8),
        },
        _ => Got::failed(Status::Malformed),
    }
}
