//! Hermes' `config.yaml`: the YAML editor.
//!
//! coffer owns named members in this file (`mcp_servers.NAME`, a
//! provider's `model.base_url`) and nothing else. granit-parser (the
//! parser under serde-saphyr, already in the build) reads the text, which
//! validates it and gives a byte range for every scalar and flow bracket;
//! `build` turns its events into a small `tree` with those spans. Edits
//! are then splices of the original text (whole lines in block style), so
//! comments, blank lines, key order, quoting and line endings outside the
//! lines coffer writes keep their bytes by construction. No YAML printer
//! is involved: YAML emitters re-flow, re-quote and drop comments.
//!
//! Every edit is checked before it is kept: the new text is parsed again
//! and must read, as JSON, exactly as the old one with the intended change.
//! An edit that would break the file or change anything else is refused
//! ([`EditError::Broken`]) instead of written.
//!
//! The shapes a user may have written around coffer's member:
//! - A block mapping (the usual): the member goes after the mapping's last
//!   entry, at its indentation, after a blank line when the mapping's
//!   entries are set apart by blank lines.
//! - No parent, or `mcp_servers:` with nothing after it: the missing
//!   mappings are written as block text ([`Inserted::created`] names them,
//!   so that removal can take them out again once empty).
//! - `mcp_servers: {}` or an explicit null (`~`, `null`) on the key's line:
//!   the value is taken off the line and the member goes below as a block,
//!   which is what the user would write by hand. [`Inserted::expanded`]
//!   keeps the text taken off, and removal puts it back once the mapping
//!   is empty again.
//! - Any other flow mapping (`model: { provider: custom }`, `{}` on a line
//!   of its own, a flow root): the member is added inside the braces in
//!   flow style, after the last entry (on a new line when the entries each
//!   have one), and removal takes exactly that text out again.
//! - Refused with an offset: a parent that is a list or a scalar, a null
//!   inside a flow mapping (`{a: }`), entries that do not start their line
//!   (`? key`), and whatever `build` refuses for the whole file.
//!
//! New text follows the file: its line ending, the indentation of its
//! first nested block collection (two spaces without one), indented or
//! indentless lists as most of its lists are. Mappings and lists coffer
//! writes in block context are block collections (`{}` and `[]` when
//! empty); strings are plain unless YAML 1.2 or YAML 1.1 (PyYAML, which
//! Hermes uses) could read them as something else, then double-quoted.
//! Reading follows the YAML 1.2 core schema, so [`YamlDoc::get`] compares
//! meanings, not spellings.

mod build;
mod edit;
mod layout;
mod place;
mod quote;
mod render;
mod scalar;
mod tree;

use std::fmt;

use serde_json::Value as Json;

pub use edit::{EditError, Expanded, Inserted};
use tree::{Kind, Tree};

use crate::formats::SyntaxError;

/// A parsed YAML text (the body after the text layer took the BOM off).
#[derive(Debug, Clone)]
pub struct YamlDoc {
    text: String,
    tree: Tree,
}

impl YamlDoc {
    /// Parse `text` as one YAML document (or none). The error's offset is a
    /// byte offset into `text`.
    pub fn parse(text: &str) -> Result<YamlDoc, SyntaxError> {
        // The text layer took the file's BOM off; the parser would silently
        // skip a second one.
        if text.starts_with('\u{feff}') {
            return Err(SyntaxError {
                offset: 0,
                message: "a byte-order mark after the start of the file".into(),
                help: Some("remove the extra byte-order mark".into()),
            });
        }
        let tree = build::build(text)?;
        Ok(YamlDoc {
            text: text.to_owned(),
            tree,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn into_string(self) -> String {
        self.text
    }

    /// What stands at `path` (mapping keys from the root), as JSON; the
    /// whole document for an empty path (`None` for a file with no
    /// document). Spelling does not matter: flow and block collections,
    /// quoted and plain strings read the same.
    pub fn get(&self, path: &[String]) -> Option<Json> {
        let mut node = self.tree.root.as_ref()?;
        for k in path {
            let Kind::Map { entries, .. } = &node.kind else {
                return None;
            };
            node = &entries.iter().find(|e| &e.key == k)?.value;
        }
        Some(node.json())
    }

    /// The whole document's meaning; an empty file means null.
    fn meaning(&self) -> Json {
        self.get(&[]).unwrap_or(Json::Null)
    }
}

impl fmt::Display for YamlDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `` `a.b` `` for messages, each key as YAML would write it in a flow;
/// "the document" for the root.
fn dotted(path: &[String]) -> String {
    if path.is_empty() {
        return "the document".into();
    }
    let keys: Vec<String> = path.iter().map(|k| quote::string(k, true)).collect();
    format!("`{}`", keys.join("."))
}

#[cfg(test)]
mod tests;
