//! A JSON document as a holder of named members (see `engine::members`).

use serde_json::Value;

use super::open::{edit_error, parse_value};
use crate::engine::members::{MemberDoc, Placed};
use crate::engine::opening::text_for_errors;
use crate::error::Error;
use crate::formats::json::edit::{EditError, JsonDoc};
use crate::formats::json::scan::Item;

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
        edit_error(self.display, &text_for_errors(self.before), e)
    }

    /// The list at `list`'s item whose `key` field is the string `id`:
    /// its index and where it is. Items that are not objects, or lack the
    /// field, are the user's and never match.
    fn find_item(
        &self,
        list: &[String],
        key: &str,
        id: &str,
    ) -> Result<Option<(usize, Item)>, Error> {
        let Some(c) = self.doc.container(list, false).map_err(|e| self.err(e))? else {
            return Ok(None);
        };
        for (i, item) in c.items.iter().enumerate() {
            if self.doc.text().as_bytes()[item.value.start] != b'{' {
                continue;
            }
            let object = self
                .doc
                .container_at(item.value.start)
                .map_err(|e| self.err(e.into()))?;
            let field = object
                .member(key)
                .and_then(|(_, f)| parse_value(self.doc.slice(f.value.clone()), self.doc.flavor));
            if field.as_ref().and_then(Value::as_str) == Some(id) {
                return Ok(Some((i, item.clone())));
            }
        }
        Ok(None)
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

    fn get_item(&self, list: &[String], key: &str, id: &str) -> Result<Option<Value>, Error> {
        Ok(self
            .find_item(list, key, id)?
            .and_then(|(_, item)| parse_value(self.doc.slice(item.value), self.doc.flavor)))
    }

    fn set_item(
        &mut self,
        list: &[String],
        key: &str,
        id: &str,
        value: &Value,
    ) -> Result<Placed, Error> {
        if let Some((_, item)) = self.find_item(list, key, id)? {
            self.doc.replace_value(&item, value);
            return Ok(Placed::default());
        }
        let ins = self
            .doc
            .append_to_array(list, value)
            .map_err(|e| self.err(e))?;
        Ok(Placed {
            created: ins.created,
            expanded: ins.expanded,
        })
    }

    fn remove_item(&mut self, list: &[String], key: &str, id: &str) -> Result<(), Error> {
        if let Some((i, _)) = self.find_item(list, key, id)? {
            self.doc
                .remove_item(list, false, i)
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }
}
