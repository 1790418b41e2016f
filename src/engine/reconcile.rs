//! One file: current bytes + what is desired + what coffer recorded → new
//! bytes and record. The function is pure; each format has its own.

use super::json;
use super::markdown;
use super::plan::{Change, ChangeOp};
use super::toml;
use super::whole;
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
        Syntax::Whole => whole::reconcile(input),
        other => Err(Error::Conflict {
            message: format!("{}: coffer cannot edit {other:?} files yet", input.display),
            help: "leave this agent's facet out of the desired file for now".into(),
        }),
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
