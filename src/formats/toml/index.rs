//! Where a TOML document's tables begin and end in its text.
//!
//! toml_edit knows every key and value with its span, but a table's extent
//! is a text question: it starts at its `[header]` line and its content
//! ends at the last key or value before the next header. Whatever follows
//! that content (blank lines, the comment a user wrote above the next
//! header, the comment at the end of the file) belongs to what comes next,
//! so edits never take it along.

use std::ops::Range;

use toml_edit::{Item, Table};

use super::splice::{blank_line_above, line_end};
use crate::formats::text;

/// A `[table]` or `[[array]]` header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub path: Vec<String>,
    /// The bracketed text, `[` to `]`.
    pub span: Range<usize>,
    pub array: bool,
}

#[derive(Debug, Default, Clone)]
pub struct Index {
    /// Every header, in text order.
    pub headers: Vec<Header>,
    /// Every key and value span, sorted by start.
    content: Vec<Range<usize>>,
}

impl Index {
    pub fn new(root: &Table) -> Index {
        let mut index = Index::default();
        index.table(root, &mut Vec::new(), false);
        index.headers.sort_by_key(|h| h.span.start);
        index.content.sort_by_key(|r| r.start);
        index
    }

    fn table(&mut self, t: &Table, path: &mut Vec<String>, array: bool) {
        if !path.is_empty()
            && !t.is_dotted()
            && t.position().is_some()
            && let Some(span) = t.span()
        {
            self.headers.push(Header {
                path: path.clone(),
                span,
                array,
            });
        }
        for (k, _) in t.iter() {
            let Some((key, item)) = t.get_key_value(k) else {
                continue;
            };
            path.push(k.to_owned());
            match item {
                Item::Value(v) => {
                    self.content.extend(key.span());
                    self.content.extend(v.span());
                }
                Item::Table(child) => {
                    if child.is_dotted() {
                        self.content.extend(key.span());
                    }
                    self.table(child, path, false);
                }
                Item::ArrayOfTables(a) => {
                    for child in a.iter() {
                        self.table(child, path, true);
                    }
                }
                Item::None => {}
            }
            path.pop();
        }
    }

    /// The header `[path]` (not an array element), with its position.
    pub fn header(&self, path: &[String]) -> Option<(usize, &Header)> {
        self.headers
            .iter()
            .enumerate()
            .find(|(_, h)| !h.array && h.path == path)
    }

    /// End of the last key or value of the table under header `i`: after
    /// its line's newline (a trailing comment on that line goes with it), or
    /// the end of the text.
    pub fn content_end(&self, text: &str, i: usize) -> usize {
        let h = &self.headers[i];
        let next = self.headers.get(i + 1).map_or(text.len(), |n| n.span.start);
        let from = self.content.partition_point(|r| r.start < h.span.end);
        let to = self.content.partition_point(|r| r.start < next);
        let end = self.content[from..to]
            .iter()
            .map(|r| r.end)
            .max()
            .unwrap_or(h.span.end)
            .max(h.span.end);
        line_end(text, end)
    }

    /// The lines of the table under header `i`, from its header line to its
    /// last content line, plus the blank line right above the header if
    /// there is one (the separator an insertion writes).
    pub fn region(&self, text: &str, i: usize) -> Range<usize> {
        let start = text::line_start(text, self.headers[i].span.start);
        let start = blank_line_above(text, start).unwrap_or(start);
        start..self.content_end(text, i)
    }

    /// Whether tables in this file are set apart by a blank line: a vote
    /// over the headers that have something above them, blank on a tie or
    /// with nothing to go by (the common style of Codex configs).
    pub fn blank_between_tables(&self, text: &str) -> bool {
        let (mut blank, mut tight) = (0, 0);
        for h in &self.headers {
            let mut at = text::line_start(text, h.span.start);
            // A comment block above a header belongs to it; look past it.
            while at > 0 {
                let above = text::line_start(text, at - 1);
                let line = text[above..at].trim();
                if line.is_empty() {
                    blank += 1;
                    break;
                }
                if !line.starts_with('#') {
                    tight += 1;
                    break;
                }
                at = above;
            }
        }
        blank >= tight
    }
}
