//! Codex's `config.toml`: the TOML editor.
//!
//! coffer owns whole tables in this file (`[mcp_servers.NAME]`,
//! `[model_providers.ID]`) and nothing else. toml_edit parses the text,
//! which validates it and says where every header, key and value is; the
//! edits are then splices of the original text, exactly as for JSON, so
//! everything outside the lines coffer writes keeps its bytes by
//! construction.
//!
//! toml_edit's own printer is not used for output. Printing an *unedited*
//! document already changes 14 of the 210 valid toml-test 1.0 cases: CRLF
//! becomes LF (but not inside multi-line strings, so a blanket restore
//! would be wrong), quoted dotted-key prefixes are respelled
//! (`"name".'last'` → `name.'last'`), spaces around dots go, interleaved
//! dotted keys are regrouped, header parents are respelled, and a final
//! newline is added. No layer after the printer could undo all of that.
//!
//! Every edit is checked before it is kept: the new text is parsed again
//! and must read, as JSON, exactly as the old one with the intended change.
//! An edit that would break the file or change anything else is refused
//! ([`EditError::Broken`]) instead of written.
//!
//! The shapes a user may have chosen for the tables coffer edits:
//! - `mcp_servers` written with dotted keys (`mcp_servers.x.command = …`):
//!   TOML lets a `[mcp_servers.NAME]` header add a sub-table to it, so the
//!   new table simply goes at the end, as when there is no parent.
//! - `mcp_servers = { … }`, an inline table: it is closed, no header can
//!   add to it, and rewriting the user's table is not coffer's to do. The
//!   edit is refused ([`EditError::InlineTable`]).
//! - The table itself written inline or with dotted keys: refused
//!   ([`EditError::InlineTable`], [`EditError::DottedKeys`]) rather than
//!   rewritten into another shape.
//! - A parent that is not a table (a value, `[[mcp_servers]]`): refused
//!   ([`EditError::NotATable`]).

mod edit;
mod index;
mod render;
mod splice;
mod strict;

use std::fmt;

use serde_json::Value as Json;
use toml_edit::{Document, Item, Value};

pub use edit::{EditError, Inserted};
use index::Index;

use crate::formats::SyntaxError;

/// A parsed TOML text (the body after the text layer took the BOM off).
#[derive(Debug, Clone)]
pub struct TomlDoc {
    doc: Document<String>,
    index: Index,
}

impl TomlDoc {
    /// Parse `text` as TOML 1.0. The error's offset is a byte offset into
    /// `text`.
    pub fn parse(text: &str) -> Result<TomlDoc, SyntaxError> {
        // The text layer took the file's BOM off; toml_edit would silently
        // skip a second one, which TOML does not allow.
        if text.starts_with('\u{feff}') {
            return Err(SyntaxError {
                offset: 0,
                message: "a byte-order mark after the start of the file".into(),
                help: Some("remove the extra byte-order mark".into()),
            });
        }
        let doc = Document::parse(text.to_owned()).map_err(|e| SyntaxError {
            offset: e.span().map_or(0, |s| s.start),
            message: e.message().trim().to_owned(),
            help: None,
        })?;
        strict::check(doc.as_table(), doc.raw())?;
        let index = Index::new(doc.as_table());
        Ok(TomlDoc { doc, index })
    }

    pub fn as_str(&self) -> &str {
        self.doc.raw()
    }

    pub fn into_string(self) -> String {
        self.doc.raw().to_owned()
    }

    /// What the table, array or value at `path` means, as JSON (the whole
    /// document for an empty path). Spelling does not matter: the same
    /// table written inline, with dotted keys or as a `[table]` reads the
    /// same.
    pub fn get(&self, path: &[String]) -> Option<Json> {
        render::item_json(self.item(path)?)
    }

    fn item(&self, path: &[String]) -> Option<&Item> {
        let mut item = self.doc.as_item();
        for k in path {
            item = match item {
                Item::Table(t) => t.get(k)?,
                Item::Value(Value::InlineTable(t)) => t.get_key_value(k)?.1,
                _ => return None,
            };
        }
        Some(item)
    }
}

impl fmt::Display for TomlDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `a.b` for messages, with each key spelled as TOML would.
fn dotted(path: &[String]) -> String {
    path.iter()
        .map(|k| render::key(k))
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests;
