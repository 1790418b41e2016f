//! One file: current bytes + what is desired + what coffer recorded → new
//! bytes and record. The function is pure; each format has its own.

use super::json;
use super::markdown;
use super::plan::{Change, ChangeOp};
use super::toml;
use super::whole;
use super::yaml;
use crate::error::Error;
use crate::resource::{Claim, Facet, Resource, Syntax};
use crate::state::FileRecord;

pub struct Input<'a> {
    pub display: &'a str,
    pub before: Option<&'a [u8]>,
    pub syntax: Syntax,
    pub resources: &'a [&'a Resource],
    pub claims: &'a [&'a Claim],
    pub record: Option<&'a FileRecord>,
    pub retain: Retain<'a>,
}

pub struct Outcome {
    pub after: Option<Vec<u8>>,
    pub changes: Vec<Change>,
    /// The record after the change; `None` when nothing is left to undo.
    pub record: Option<FileRecord>,
}

/// Which owned fragments that are not desired stay anyway.
#[derive(Debug, Clone, Copy)]
pub enum Retain<'a> {
    /// Apply: what is not desired goes.
    Nothing,
    /// Destroy: only what belongs to the named agents alone goes.
    AllBut(&'a [String]),
}

impl Retain<'_> {
    pub fn keeps(&self, origins: &[String]) -> bool {
        match self {
            Retain::Nothing => false,
            Retain::AllBut(named) => origins.iter().any(|o| !named.contains(o)),
        }
    }
}

pub fn reconcile(input: &Input) -> Result<Outcome, Error> {
    match input.syntax {
        Syntax::Json | Syntax::Jsonc | Syntax::Json5 => json::reconcile(input),
        Syntax::Toml => toml::reconcile(input),
        Syntax::Markdown => markdown::reconcile(input),
        Syntax::Yaml => yaml::reconcile(input),
        Syntax::Whole => whole::reconcile(input),
    }
}

/// How reconciling a file starts.
pub(super) enum Start {
    /// No file and nothing wanted in it: nothing to do.
    Nothing,
    /// No file yet: coffer creates it (the record says so).
    New(FileRecord),
    /// The file's text, and the record to bring up to date.
    Existing(FileRecord, crate::formats::text::Text),
}

pub(super) fn begin(input: &Input) -> Result<Start, Error> {
    Ok(match input.before {
        None if input.resources.is_empty() => Start::Nothing,
        None => {
            let mut record = FileRecord::new(input.syntax);
            record.created_file = true;
            Start::New(record)
        }
        Some(bytes) => Start::Existing(
            input
                .record
                .cloned()
                .unwrap_or_else(|| FileRecord::new(input.syntax)),
            super::opening::decode(input.display, bytes)?,
        ),
    })
}

/// Nothing to do.
pub(super) fn nothing() -> Outcome {
    Outcome {
        after: None,
        changes: Vec::new(),
        record: None,
    }
}

/// How reconciling a file ends: a file coffer created and emptied again is
/// deleted; otherwise `after` is written, and the record is kept while it
/// holds anything to undo or anything is wanted.
pub(super) fn finish(
    input: &Input,
    mut record: FileRecord,
    after: Option<Vec<u8>>,
    changes: Vec<Change>,
) -> Outcome {
    let record = after.as_ref().and_then(|bytes| {
        record.sha256 = crate::state::sha256(bytes);
        (!input.resources.is_empty() || record.holds_provenance()).then_some(record)
    });
    Outcome {
        after,
        changes,
        record,
    }
}

pub(super) fn change(op: ChangeOp, facet: Facet, agents: Vec<String>, what: String) -> Change {
    Change {
        op,
        facet,
        agents,
        what,
    }
}
