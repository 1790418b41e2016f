//! The shape of a YAML document with the byte spans the edits need (built
//! in [`super::build`]).
//!
//! granit-parser gives every scalar and flow bracket a byte range, but a
//! block collection's start and end events are empty marks (the end one
//! sits at the next token, past any comments and blank lines that follow
//! it). So a block collection's extent is computed from what it
//! holds: it ends where its last key or value ends. Whatever follows that
//! (blank lines, a comment above the next key) belongs to what comes next.

use std::ops::Range;

use serde_json::{Map, Value as Json};

#[derive(Debug, Clone)]
pub struct Node {
    /// Where the node's text begins, its tag included.
    pub start: usize,
    /// A scalar's text (quotes included; a block scalar's content lines,
    /// not its `|` header, nor the blank lines after them unless it keeps
    /// them), a flow collection from bracket to bracket, a block collection
    /// from its first item to the end of its last one.
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub enum Kind {
    Scalar {
        value: Json,
        /// `|` or `>` style.
        block: bool,
        /// Written without quotes.
        plain: bool,
        /// No text at all (`key:` with nothing after it).
        implicit: bool,
    },
    Map {
        flow: bool,
        entries: Vec<Entry>,
    },
    Seq {
        flow: bool,
        items: Vec<Node>,
    },
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub key: String,
    pub key_node: Node,
    pub value: Node,
}

impl Node {
    /// End of the node's text; `None` when it has none.
    pub fn end(&self) -> Option<usize> {
        match self.kind {
            Kind::Scalar { implicit: true, .. } => None,
            _ => Some(self.span.end),
        }
    }

    pub fn json(&self) -> Json {
        match &self.kind {
            Kind::Scalar { value, .. } => value.clone(),
            Kind::Seq { items, .. } => Json::Array(items.iter().map(Node::json).collect()),
            Kind::Map { entries, .. } => Json::Object(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), e.value.json()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(
            &self.kind,
            Kind::Scalar {
                value: Json::Null,
                block: false,
                ..
            }
        )
    }

    pub fn is_implicit(&self) -> bool {
        matches!(self.kind, Kind::Scalar { implicit: true, .. })
    }

    /// Whether the node's text ends with a block scalar that keeps a final
    /// line feed (`|`, `|+`): a blank line right after it may be read as
    /// one more line of it (always, with `|+`).
    pub fn ends_open(&self) -> bool {
        match &self.kind {
            Kind::Scalar {
                block: true,
                value: Json::String(s),
                ..
            } => s.ends_with('\n'),
            Kind::Map {
                flow: false,
                entries,
            } => entries.last().is_some_and(|e| e.value.ends_open()),
            Kind::Seq { flow: false, items } => items.last().is_some_and(Node::ends_open),
            _ => false,
        }
    }

    /// A short description for messages.
    pub fn what(&self) -> &'static str {
        match &self.kind {
            Kind::Seq { .. } => "a list",
            Kind::Map { .. } => "a mapping",
            Kind::Scalar {
                value: Json::Null, ..
            } => "null",
            Kind::Scalar { .. } => "a scalar",
        }
    }
}

impl Entry {
    /// End of the entry's last text (its key when the value has none).
    pub fn end(&self) -> usize {
        self.value.end().unwrap_or(0).max(self.key_node.span.end)
    }
}

/// A parsed document: its root (none for a stream with no document) and
/// where an explicit `...` ends it.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    pub root: Option<Node>,
    pub doc_end: Option<usize>,
}
