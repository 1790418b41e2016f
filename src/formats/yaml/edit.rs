//! Putting coffer's members into a YAML text and taking them out again.
//!
//! [`YamlDoc::set`] and [`YamlDoc::remove`] are exact inverses when the
//! caller hands back what `set` returned: `set` reports the mappings it
//! created and the text of an empty value it expanded ([`Inserted`], a
//! serde record for the ledger), and `remove` prunes those once they are
//! empty again. The engine can also keep those lists per file and call
//! [`YamlDoc::prune`] itself after all removals, as it does for JSON.
//! Where new text goes and what it looks like is decided in `place`.

use std::cmp::Reverse;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use super::tree::{Entry, Kind, Node};
use super::{YamlDoc, dotted, layout, place};

/// Why an edit was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("no path given")]
    EmptyPath,
    #[error("{path} is {found}, not a mapping")]
    NotAMapping {
        path: String,
        found: &'static str,
        offset: usize,
    },
    #[error("{path}: coffer does not edit {what}; rewrite it by hand, or remove it")]
    Unsupported {
        path: String,
        what: &'static str,
        offset: usize,
    },
    #[error("{path} cannot be written as YAML: {why}")]
    Unrepresentable { path: String, why: String },
    #[error("the edit of {path} would {what}; the file is left as it is")]
    Broken { path: String, what: String },
}

/// What an insertion created, for the provenance record.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inserted {
    /// Parents of the member that did not exist, outermost first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<Vec<String>>,
    /// The empty value a parent had before it became a block mapping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded: Option<Expanded>,
}

/// An empty mapping (`{}`) or null (`~`) coffer took off its key's line to
/// write a block below it, and the exact text it took (` {}`), which comes
/// back once the mapping is empty again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expanded {
    pub path: Vec<String>,
    pub text: String,
}

/// What stands at a path.
pub(super) enum Found<'a> {
    /// The member exists: entry `index` of the mapping `map`.
    Entry { map: &'a Node, index: usize },
    /// `path[..depth]` exists and is `parent`; the rest does not.
    Missing { depth: usize, parent: Parent<'a> },
}

pub(super) enum Parent<'a> {
    /// A mapping with entries, or a flow mapping (empty or not).
    Map(&'a Node),
    /// A block entry whose value is null, or `{}` on the key's line.
    Empty(&'a Entry),
    /// No document, or an empty one.
    Root,
}

impl YamlDoc {
    /// Put `value` at `path`, creating the missing parent mappings, or
    /// replace the value there in place when it differs. Setting what is
    /// already there changes nothing.
    pub fn set(&mut self, path: &[String], value: &Json) -> Result<Inserted, EditError> {
        if path.is_empty() {
            return Err(EditError::EmptyPath);
        }
        if self.get(path).as_ref() == Some(value) {
            return Ok(Inserted::default());
        }
        let mut expected = self.meaning();
        set_json(&mut expected, path, value.clone());
        let (text, inserted) = match self.locate(path)? {
            Found::Entry { map, index } => (
                place::replace(self, path, map, index, value)?,
                Inserted::default(),
            ),
            Found::Missing { depth, parent } => {
                let (text, expanded) = place::insert(self, path, depth, parent, value)?;
                let created = (depth..path.len() - 1)
                    .map(|d| path[..=d].to_vec())
                    .collect();
                (text, Inserted { created, expanded })
            }
        };
        self.commit(path, text, &expected)?;
        Ok(inserted)
    }

    /// Take the member at `path` out, then [`prune`](Self::prune) what
    /// `undo` says its insertion created. `Ok(false)` when it was not there.
    pub fn remove(&mut self, path: &[String], undo: &Inserted) -> Result<bool, EditError> {
        if path.is_empty() {
            return Err(EditError::EmptyPath);
        }
        let removed = self.remove_member(path, false)?;
        self.prune(&undo.created, undo.expanded.as_slice())?;
        Ok(removed)
    }

    /// Remove the mappings in `created` that are empty (deepest first), and
    /// give each mapping in `expanded` that is empty its old text back.
    /// Anything a user has put in them since keeps them where they are.
    pub fn prune(
        &mut self,
        created: &[Vec<String>],
        expanded: &[Expanded],
    ) -> Result<(), EditError> {
        let mut created: Vec<&Vec<String>> = created.iter().filter(|p| !p.is_empty()).collect();
        created.sort_by_key(|p| Reverse(p.len()));
        for path in created {
            self.remove_member(path, true)?;
        }
        let mut expanded: Vec<&Expanded> = expanded.iter().collect();
        expanded.sort_by_key(|e| Reverse(e.path.len()));
        for e in expanded {
            let Some(text) = place::restore(self, e) else {
                continue;
            };
            let doc = self.reparse(&e.path, &text)?;
            let now = doc.get(&e.path).unwrap_or(Json::Null);
            if !(now.is_null() || now.as_object().is_some_and(Map::is_empty)) {
                return Err(broken(&e.path, "not give the mapping its old text back"));
            }
            let mut expected = self.meaning();
            set_json(&mut expected, &e.path, now);
            self.commit(&e.path, text, &expected)?;
        }
        Ok(())
    }

    /// Remove the entry at `path`; with `only_empty`, only when it holds
    /// nothing (what pruning may take).
    fn remove_member(&mut self, path: &[String], only_empty: bool) -> Result<bool, EditError> {
        let Ok(Found::Entry { map, index }) = self.locate(path) else {
            return Ok(false);
        };
        if only_empty && !place::is_empty_member(self, map, index) {
            return Ok(false);
        }
        let text = place::remove(self, path, map, index)?;
        let Kind::Map { flow, entries } = &map.kind else {
            return Ok(false);
        };
        // A block mapping left with no entries reads as null (`key:`).
        let emptied = !*flow && entries.len() == 1;
        let mut expected = self.meaning();
        remove_json(&mut expected, path, emptied);
        self.commit(path, text, &expected)?;
        Ok(true)
    }

    pub(super) fn locate(&self, path: &[String]) -> Result<Found<'_>, EditError> {
        let mut node = match &self.tree.root {
            Some(n) if !n.is_implicit() => n,
            _ => {
                return Ok(Found::Missing {
                    depth: 0,
                    parent: Parent::Root,
                });
            }
        };
        for (depth, k) in path.iter().enumerate() {
            let Kind::Map { flow, entries } = &node.kind else {
                return Err(EditError::NotAMapping {
                    path: dotted(&path[..depth]),
                    found: node.what(),
                    offset: node.start,
                });
            };
            let Some(index) = entries.iter().position(|e| &e.key == k) else {
                return Ok(Found::Missing {
                    depth,
                    parent: Parent::Map(node),
                });
            };
            if depth + 1 == path.len() {
                return Ok(Found::Entry { map: node, index });
            }
            let e = &entries[index];
            if !*flow && layout::empty_on_key_line(&self.text, e) {
                return Ok(Found::Missing {
                    depth: depth + 1,
                    parent: Parent::Empty(e),
                });
            }
            if *flow && e.value.is_null() {
                return Err(EditError::Unsupported {
                    path: dotted(&path[..=depth]),
                    what: "a null value inside a flow mapping",
                    offset: e.key_node.start,
                });
            }
            node = &e.value;
        }
        Err(EditError::EmptyPath)
    }

    fn reparse(&self, path: &[String], text: &str) -> Result<YamlDoc, EditError> {
        YamlDoc::parse(text).map_err(|e| broken(path, &format!("break the file ({})", e.message)))
    }

    /// Keep `text` only if it parses and reads as `expected`.
    fn commit(&mut self, path: &[String], text: String, expected: &Json) -> Result<(), EditError> {
        let doc = self.reparse(path, &text)?;
        if doc.meaning() != *expected {
            return Err(broken(path, "change more than that member"));
        }
        *self = doc;
        Ok(())
    }
}

pub(super) fn broken(path: &[String], what: &str) -> EditError {
    EditError::Broken {
        path: dotted(path),
        what: what.to_owned(),
    }
}

/// `doc` with `value` at `path`, creating objects on the way.
fn set_json(doc: &mut Json, path: &[String], value: Json) {
    let mut at = doc;
    for k in path {
        if !at.is_object() {
            *at = Json::Object(Map::new());
        }
        let Json::Object(map) = at else { return };
        at = map.entry(k.clone()).or_insert(Json::Null);
    }
    *at = value;
}

/// `doc` without `path`; its parent becomes null if `emptied`.
fn remove_json(doc: &mut Json, path: &[String], emptied: bool) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let mut at = &mut *doc;
    for k in parent {
        match at.get_mut(k) {
            Some(next) => at = next,
            None => return,
        }
    }
    if let Json::Object(map) = at {
        map.shift_remove(last);
        if emptied && map.is_empty() {
            *at = Json::Null;
        }
    }
}
