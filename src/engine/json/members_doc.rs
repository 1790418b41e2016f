//! A JSON document as a holder of named members (see `engine::members`).

use serde_json::Value;

use super::open::{doc_text_for_errors, edit_error, parse_value};
use crate::engine::members::{MemberDoc, Placed};
use crate::error::Error;
use crate::formats::json::edit::{EditError, JsonDoc};

/// The document and what is needed to report its errors.
pub(super) struct JsonMembers<'a> {
    pub doc: &'a mut JsonDoc,
    pub display: &'a str,
    /// The file as read, decoded again only to report an error (a copy of
    /// a large file for every plan otherwise).
    pub before: Option<&'a [u8]>,
}

impl JsonMembers<'_> {
    fn err(&self, e: EditError) -> Error {
        edit_error(self.display, &doc_text_for_errors(self.before), e)
    }
}

impl MemberDoc for JsonMembers<'_> {
    fn get(&self, parent: &[String], name: &str) -> Result<Option<Value>, Error> {
        let c = self.doc.container(parent, true).map_err(|e| self.err(e))?;
        Ok(
            c.and_then(|c| c.member(name).map(|(_, it)| it.value.clone()))
                .and_then(|range| parse_value(self.doc.slice(range), self.doc.flavor)),
        )
    }

    fn set(&mut self, parent: &[String], name: &str, value: &Value) -> Result<Placed, Error> {
        let existing = self
            .doc
            .container(parent, true)
            .map_err(|e| self.err(e))?
            .and_then(|c| c.member(name).map(|(_, it)| it.clone()));
        if let Some(item) = existing {
            self.doc.replace_value(&item, value);
            return Ok(Placed::default());
        }
        let ins = self
            .doc
            .insert_member(parent, name, value)
            .map_err(|e| self.err(e))?;
        let mut path = parent.to_vec();
        path.push(name.to_owned());
        Ok(Placed {
            created: ins.created.into_iter().filter(|p| *p != path).collect(),
            expanded: ins.expanded,
        })
    }

    fn remove(&mut self, parent: &[String], name: &str) -> Result<(), Error> {
        let index = self
            .doc
            .container(parent, true)
            .map_err(|e| self.err(e))?
            .and_then(|c| c.member(name).map(|(i, _)| i));
        if let Some(i) = index {
            self.doc
                .remove_item(parent, true, i)
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }
}
