//! Reconciling one TOML file (Codex's config.toml): coffer owns whole
//! tables there (`[mcp_servers.NAME]`, `[model_providers.ID]`), through the
//! ledger, and nothing else.

use serde_json::Value;

use super::members::{self, MemberDoc, Placed};
use super::opening;
use super::reconcile::{Input, Outcome};
use crate::error::Error;
use crate::formats::text::Text;
use crate::formats::toml::{EditError, TomlDoc};
use crate::state::{FileRecord, sha256};

pub(super) fn reconcile(input: &Input) -> Result<Outcome, Error> {
    let mut record = input
        .record
        .cloned()
        .unwrap_or_else(|| FileRecord::new(input.syntax));
    let (bom, doc) = match input.before {
        None if input.resources.is_empty() => {
            return Ok(Outcome {
                after: None,
                changes: Vec::new(),
                record: None,
            });
        }
        None => {
            record = FileRecord::new(input.syntax);
            record.created_file = true;
            (false, TomlDoc::parse("").expect("an empty document parses"))
        }
        Some(bytes) => {
            let text = opening::decode(input.display, bytes)?;
            let doc = TomlDoc::parse(&text.body)
                .map_err(|e| opening::syntax(input.display, &text.body, "TOML", e))?;
            (text.bom, doc)
        }
    };
    let mut holder = TomlMembers {
        original: doc.as_str().to_owned(),
        doc,
        display: input.display,
    };
    let mut changes = Vec::new();
    members::reconcile(&mut holder, input, &mut record, &mut changes)?;

    let body = holder.doc.into_string();
    let deleted = record.created_file && body.trim().is_empty();
    let after = (!deleted).then(|| Text { bom, body }.encode());
    let record = after.as_ref().and_then(|bytes| {
        record.sha256 = sha256(bytes);
        (!input.resources.is_empty() || record.holds_provenance()).then_some(record)
    });
    Ok(Outcome {
        after,
        changes,
        record,
    })
}

struct TomlMembers<'a> {
    doc: TomlDoc,
    display: &'a str,
    original: String,
}

impl TomlMembers<'_> {
    fn err(&self, e: EditError) -> Error {
        let offset = match &e {
            EditError::NotATable { offset, .. }
            | EditError::InlineTable { offset, .. }
            | EditError::DottedKeys { offset, .. } => Some(*offset),
            _ => None,
        };
        let help = "coffer never rewrites a table it does not own; change it by hand, then run coffer again";
        match offset {
            Some(o) => opening::at(
                self.display,
                &self.original,
                o,
                &e.to_string(),
                "here",
                help,
            ),
            None => Error::Conflict {
                message: format!("{}: {e}", self.display),
                help: help.into(),
            },
        }
    }
}

fn path(parent: &[String], name: &str) -> Vec<String> {
    let mut p = parent.to_vec();
    p.push(name.to_owned());
    p
}

impl MemberDoc for TomlMembers<'_> {
    fn get(&self, parent: &[String], name: &str) -> Result<Option<Value>, Error> {
        Ok(self.doc.get(&path(parent, name)))
    }

    fn set(&mut self, parent: &[String], name: &str, value: &Value) -> Result<Placed, Error> {
        let Value::Object(map) = value else {
            return Err(Error::Conflict {
                message: format!(
                    "{}: `{name}` must be a table to be written into TOML",
                    self.display
                ),
                help: "this is a registry bug: the template must give a table".into(),
            });
        };
        let ins = self
            .doc
            .set_table(&path(parent, name), map)
            .map_err(|e| self.err(e))?;
        Ok(Placed {
            created: ins.created,
            expanded: None,
        })
    }

    fn remove(&mut self, parent: &[String], name: &str) -> Result<(), Error> {
        self.doc
            .remove(&path(parent, name))
            .map_err(|e| self.err(e))?;
        Ok(())
    }
}
