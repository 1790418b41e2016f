//! Reconciling one YAML file (Hermes' config.yaml): named members coffer
//! owns through the ledger. Parents coffer created go once empty, and an
//! empty value coffer turned into a mapping (`mcp_servers: {}`) gets its
//! old text back.

use serde_json::Value;

use super::members::{MemberDoc, MembersFile, Placed, reconcile_file};
use super::opening;
use super::reconcile::{Input, Outcome};
use super::toml::located_or_conflict;
use crate::error::Error;
use crate::formats::yaml::{EditError, Inserted, YamlDoc};
use crate::state::FileRecord;

pub(super) fn reconcile(input: &Input) -> Result<Outcome, Error> {
    reconcile_file::<YamlMembers>(input)
}

struct YamlMembers {
    doc: YamlDoc,
    display: String,
    original: String,
    /// What this run's insertions expanded.
    expanded: Vec<crate::formats::yaml::Expanded>,
}

impl YamlMembers {
    fn err(&self, e: EditError) -> Error {
        let offset = match &e {
            EditError::NotAMapping { offset, .. } | EditError::Unsupported { offset, .. } => {
                Some(*offset)
            }
            _ => None,
        };
        located_or_conflict(&self.display, &self.original, offset, &e.to_string())
    }
}

fn path(parent: &[String], name: &str) -> Vec<String> {
    let mut p = parent.to_vec();
    p.push(name.to_owned());
    p
}

impl MembersFile for YamlMembers {
    fn open(display: &str, body: Option<&str>) -> Result<Self, Error> {
        let body = body.unwrap_or("");
        let doc = YamlDoc::parse(body).map_err(|e| opening::syntax(display, body, "YAML", e))?;
        Ok(YamlMembers {
            doc,
            display: display.to_owned(),
            original: body.to_owned(),
            expanded: Vec::new(),
        })
    }

    fn prune(&mut self, record: &mut FileRecord) -> Result<(), Error> {
        for e in self.expanded.drain(..) {
            if !record.yaml_expanded.iter().any(|old| old.path == e.path) {
                record.yaml_expanded.push(e);
            }
        }
        let (created, expanded) = (
            record.created_containers.clone(),
            record.yaml_expanded.clone(),
        );
        self.doc
            .prune(&created, &expanded)
            .map_err(|e| self.err(e))?;
        // What is gone is no longer coffer's to remember; an expanded
        // mapping is remembered until it is empty again.
        let empty = |v: Option<Value>| {
            v.is_none_or(|v| v.as_object().is_some_and(|m| m.is_empty()) || v.is_null())
        };
        record
            .created_containers
            .retain(|p| self.doc.get(p).is_some());
        record
            .yaml_expanded
            .retain(|e| !empty(self.doc.get(&e.path)));
        Ok(())
    }

    fn into_text(self) -> String {
        self.doc.into_string()
    }
}

impl MemberDoc for YamlMembers {
    fn get(&self, parent: &[String], name: &str) -> Result<Option<Value>, Error> {
        Ok(self.doc.get(&path(parent, name)))
    }

    fn set(&mut self, parent: &[String], name: &str, value: &Value) -> Result<Placed, Error> {
        let ins = self
            .doc
            .set(&path(parent, name), value)
            .map_err(|e| self.err(e))?;
        if let Some(e) = ins.expanded {
            self.expanded.push(e);
        }
        Ok(Placed {
            created: ins.created,
            ..Placed::default()
        })
    }

    fn remove(&mut self, parent: &[String], name: &str) -> Result<(), Error> {
        // Pruning waits until every member is settled: a parent other
        // members still use must stay.
        self.doc
            .remove(&path(parent, name), &Inserted::default())
            .map_err(|e| self.err(e))?;
        Ok(())
    }
}
