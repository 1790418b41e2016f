//! Reconciling one TOML file (Codex's config.toml): coffer owns whole
//! tables there (`[mcp_servers.NAME]`, `[model_providers.ID]`), through the
//! ledger, and nothing else. TOML needs no pruning: coffer never writes a
//! parent header, so a parent exists only through coffer's tables.

use serde_json::Value;

use super::members::{MemberDoc, MembersFile, Placed, reconcile_file};
use super::opening;
use super::reconcile::{Input, Outcome};
use crate::error::Error;
use crate::formats::toml::{EditError, TomlDoc};

pub(super) fn reconcile(input: &Input) -> Result<Outcome, Error> {
    reconcile_file::<TomlMembers>(input)
}

struct TomlMembers {
    doc: TomlDoc,
    display: String,
    original: String,
}

impl MembersFile for TomlMembers {
    fn open(display: &str, body: Option<&str>) -> Result<Self, Error> {
        let body = body.unwrap_or("");
        let doc = TomlDoc::parse(body).map_err(|e| opening::syntax(display, body, "TOML", e))?;
        Ok(TomlMembers {
            doc,
            display: display.to_owned(),
            original: body.to_owned(),
        })
    }

    fn into_text(self) -> String {
        self.doc.into_string()
    }
}

impl TomlMembers {
    fn err(&self, e: EditError) -> Error {
        let offset = match &e {
            EditError::NotATable { offset, .. }
            | EditError::InlineTable { offset, .. }
            | EditError::DottedKeys { offset, .. } => Some(*offset),
            _ => None,
        };
        located_or_conflict(&self.display, &self.original, offset, &e.to_string())
    }
}

/// A refusal at its place in the file when the editor says where, else a
/// plain one; either way the file is left as it is.
pub(super) fn located_or_conflict(
    display: &str,
    original: &str,
    offset: Option<usize>,
    what: &str,
) -> Error {
    let help =
        "coffer never rewrites what it does not own; change it by hand, then run coffer again";
    match offset {
        Some(o) => opening::at(display, original, o, what, "here", help),
        None => Error::Conflict {
            message: format!("{display}: {what}"),
            help: help.into(),
        },
    }
}

fn path(parent: &[String], name: &str) -> Vec<String> {
    let mut p = parent.to_vec();
    p.push(name.to_owned());
    p
}

impl MemberDoc for TomlMembers {
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
        // coffer never writes a parent header: nothing of it to prune.
        let _ = ins;
        Ok(Placed::default())
    }

    fn remove(&mut self, parent: &[String], name: &str) -> Result<(), Error> {
        self.doc
            .remove(&path(parent, name))
            .map_err(|e| self.err(e))?;
        Ok(())
    }
}
