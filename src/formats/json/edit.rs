//! Splice edits on a JSON, JSONC or JSON5 document.
//!
//! Every edit replaces a byte range of the original text and nothing else.
//! Insertions and removals are defined as exact inverses of each other: an
//! item added on its own line is removed with exactly that line, an item
//! appended to a one-line container is removed with exactly the `, item`
//! that was added. The one thing an insertion can lose is the inside of an
//! empty container it expands (`{ }` becomes multi-line, the `]` of
//! `[ // later ]` moves to a line of its own); the caller records that text
//! (see [`Inserted::expanded`]) and gives it back on removal.
//!
//! New text is laid out like its neighbours: an item after one that starts
//! a line starts a line, with that item's indentation; an item in a
//! one-line container stays on the line; nested values use the file's
//! indentation unit, line ending and (in JSONC and JSON5) trailing commas;
//! in JSON5, keys and strings are written as the file writes them (see
//! [`super::render`]).
//!
//! Layout goes by LF: JSON5's other line terminators (CR alone, U+2028,
//! U+2029) separate tokens like any whitespace, and a file that breaks its
//! lines only with them is laid out as one line. Its edits stay exact; they
//! just keep to the line.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

use serde_json::Value;

use super::Flavor;
use super::render::{Style, render, render_member};
use super::scan::{Container, Item, Scanner, Unexpected};
use super::style::detect_style;
use crate::formats::text;

/// A path of object keys from the root.
pub type KeyPath = [String];

/// Why an edit could not be made where it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("{path} is not {expected}")]
    WrongType {
        path: String,
        expected: &'static str,
        offset: usize,
    },
    /// A key on the path appears more than once in its object. Readers
    /// disagree about which one counts (most take the last), so coffer
    /// will not guess which one to edit.
    #[error("{path} appears more than once")]
    DuplicateKey { path: String, offset: usize },
    #[error(transparent)]
    Unexpected(#[from] Unexpected),
}

/// What an insertion did beyond adding its item.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Inserted {
    /// Paths (prefixes of the requested path and the new member itself)
    /// that did not exist before and were created by this insertion.
    pub created: Vec<Vec<String>>,
    /// The existing empty container that was expanded.
    pub expanded: Option<Expanded>,
}

/// An empty container an insertion expanded, and what its inside was.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Expanded {
    pub path: Vec<String>,
    pub is_object: bool,
    pub inner: String,
}

/// A validated document being edited.
#[derive(Debug, Clone)]
pub struct JsonDoc {
    /// Changed only through [`JsonDoc::text_mut`], which forgets `listed`.
    text: String,
    pub flavor: Flavor,
    style: Style,
    /// The whole document sits on one line: new text stays on one line too.
    one_line: bool,
    /// Containers listed since the last edit, by the offset of their
    /// opening bracket. Finding `hooks.SessionStart` lists the root and
    /// `hooks`, which on a 10 MB settings file means skipping over nearly
    /// all of it; a reconcile asks for the same containers several times
    /// between two edits, and this keeps that to one pass.
    listed: RefCell<HashMap<usize, Container>>,
}

impl JsonDoc {
    /// Wrap text that [`super::validate::validate`] accepted and whose root
    /// is an object.
    pub fn new(text: String, flavor: impl Into<Flavor>) -> Result<JsonDoc, EditError> {
        JsonDoc::new_or_back(text, flavor).map_err(|(e, _)| e)
    }

    /// [`JsonDoc::new`], giving the text back with the error: the caller
    /// needs it for the message and keeps no copy of its own.
    pub fn new_or_back(
        text: String,
        flavor: impl Into<Flavor>,
    ) -> Result<JsonDoc, (EditError, String)> {
        let flavor = flavor.into();
        let mut doc = JsonDoc {
            text,
            flavor,
            style: Style::default(),
            one_line: false,
            listed: RefCell::default(),
        };
        let root = match doc.root() {
            Ok(root) => root,
            Err(e) => return Err((e, doc.text)),
        };
        doc.one_line = !doc.text[root.open..root.close].contains('\n');
        doc.style = detect_style(&doc.text, &root, flavor);
        Ok(doc)
    }

    pub fn scanner(&self) -> Scanner<'_> {
        Scanner::new(&self.text, self.flavor)
    }

    /// The document's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn into_text(self) -> String {
        self.text
    }

    /// The text, for an edit: every container listed so far is forgotten.
    fn text_mut(&mut self) -> &mut String {
        self.listed.get_mut().clear();
        &mut self.text
    }

    /// The container whose opening bracket is at `open` (listed once per
    /// version of the text).
    pub fn container_at(&self, open: usize) -> Result<Container, Unexpected> {
        if let Some(c) = self.listed.borrow().get(&open) {
            // A container listed before an edit that bypassed `text_mut`
            // would end at the wrong place: the tests would see it here.
            debug_assert_eq!(
                self.text.as_bytes().get(c.close).copied(),
                Some(if c.is_object { b'}' } else { b']' }),
                "a stale container listing"
            );
            return Ok(c.clone());
        }
        let c = self.scanner().container(open)?;
        self.listed.borrow_mut().insert(open, c.clone());
        Ok(c)
    }

    pub fn root(&self) -> Result<Container, EditError> {
        let s = self.scanner();
        let open = s.root();
        if self.text.as_bytes().get(open) != Some(&b'{') {
            return Err(EditError::WrongType {
                path: "the top level".into(),
                expected: "an object",
                offset: open,
            });
        }
        Ok(self.container_at(open)?)
    }

    /// The container at `path`, if every key on the way exists. A value on
    /// the way that is not an object, or a last value of the wrong kind, is
    /// an error: coffer never replaces a user's value with its own shape.
    /// So is a key on the way that appears twice.
    pub fn container(
        &self,
        path: &KeyPath,
        want_object: bool,
    ) -> Result<Option<Container>, EditError> {
        let mut c = self.root()?;
        for (depth, key) in path.iter().enumerate() {
            let mut same = c.items.iter().filter(|it| it.key.as_deref() == Some(key));
            let Some(item) = same.next() else {
                return Ok(None);
            };
            if let Some(again) = same.next() {
                return Err(EditError::DuplicateKey {
                    path: format!("`{}`", path[..=depth].join(".")),
                    offset: again.start,
                });
            }
            let last = depth + 1 == path.len();
            let expected = if !last || want_object { b'{' } else { b'[' };
            if self.text.as_bytes()[item.value.start] != expected {
                return Err(EditError::WrongType {
                    path: format!("`{}`", path[..=depth].join(".")),
                    expected: if expected == b'{' {
                        "an object"
                    } else {
                        "an array"
                    },
                    offset: item.value.start,
                });
            }
            c = self.container_at(item.value.start)?;
        }
        Ok(Some(c))
    }

    pub fn slice(&self, range: Range<usize>) -> &str {
        &self.text[range]
    }

    /// Append `value` to the array at `path`, creating the array and any
    /// missing objects on the way.
    pub fn append_to_array(
        &mut self,
        path: &KeyPath,
        value: &Value,
    ) -> Result<Inserted, EditError> {
        self.insert_at(path, None, value)
    }

    /// Add member `key` to the object at `path`, creating missing objects.
    pub fn insert_member(
        &mut self,
        path: &KeyPath,
        key: &str,
        value: &Value,
    ) -> Result<Inserted, EditError> {
        self.insert_at(path, Some(key), value)
    }

    fn insert_at(
        &mut self,
        path: &KeyPath,
        key: Option<&str>,
        value: &Value,
    ) -> Result<Inserted, EditError> {
        // Find the deepest existing container on the path; what is missing
        // below it is built as one nested value and inserted in one splice.
        let mut depth = path.len();
        let parent = loop {
            let want_object = depth < path.len() || key.is_some();
            if let Some(c) = self.container(&path[..depth], want_object)? {
                break c;
            }
            depth -= 1;
        };
        let mut created = Vec::new();
        let (item_key, item_value) = if depth == path.len() {
            (key.map(str::to_owned), value.clone())
        } else {
            let mut v = match key {
                Some(k) => Value::Object([(k.to_owned(), value.clone())].into_iter().collect()),
                None => Value::Array(vec![value.clone()]),
            };
            for k in path[depth + 1..].iter().rev() {
                v = Value::Object([(k.clone(), v)].into_iter().collect());
            }
            for d in depth + 1..=path.len() {
                created.push(path[..d].to_vec());
            }
            (Some(path[depth].clone()), v)
        };
        if let Some(k) = key {
            let mut p = path.to_vec();
            p.push(k.to_owned());
            created.push(p);
        }
        // An empty container on a line with others (`{"Stop": []}` in a
        // multi-line file) takes its first item on that line too, as every
        // container in a one-line file does; one on a line of its own is
        // opened up.
        let inline_if_empty = self.one_line
            || (depth > 0
                && self
                    .container(&path[..depth - 1], true)?
                    .is_some_and(|p| !self.text[p.open..p.close].contains('\n')));
        let expanded = self
            .insert_item(&parent, item_key.as_deref(), &item_value, inline_if_empty)
            .map(|inner| Expanded {
                path: path[..depth].to_vec(),
                is_object: parent.is_object,
                inner,
            });
        Ok(Inserted { created, expanded })
    }

    /// Insert an item after the last one of `c`. Returns the old inside of
    /// `c` when `c` was empty and got expanded.
    fn insert_item(
        &mut self,
        c: &Container,
        key: Option<&str>,
        value: &Value,
        inline_if_empty: bool,
    ) -> Option<String> {
        let render_item = |style: &Style, base: &str, multiline: bool| match key {
            Some(k) => render_member(k, value, style, base, multiline),
            None => render(value, style, base, multiline),
        };
        let Some(last) = c.items.last() else {
            return self.insert_into_empty(c, &render_item, inline_if_empty);
        };
        if self.starts_line(last.start) {
            let indent = text::line_indent(&self.text, last.start).to_owned();
            let trailing = self.flavor.lenient() && last.comma.is_some();
            let style = Style {
                trailing_commas: trailing,
                ..self.style.clone()
            };
            let mut new = format!(
                "{}{indent}{}",
                style.eol,
                render_item(&style, &indent, true)
            );
            if trailing {
                new.push(',');
                let at = self.same_line_end(last.comma.unwrap() + 1);
                self.text_mut().insert_str(at, &new);
            } else {
                let at = self.same_line_end(last.value.end);
                self.text_mut().insert_str(at, &new);
                self.text_mut().insert(last.value.end, ',');
            }
        } else {
            let comma = container_comma(&self.text, c, &self.style);
            let item = render_item(&self.style, "", false);
            match last.comma {
                Some(p) => self
                    .text_mut()
                    .insert_str(p + 1, &format!("{}{item},", &comma[1..])),
                None => self
                    .text_mut()
                    .insert_str(last.value.end, &format!("{comma}{item}")),
            }
        }
        None
    }

    fn insert_into_empty(
        &mut self,
        c: &Container,
        render_item: &dyn Fn(&Style, &str, bool) -> String,
        inline: bool,
    ) -> Option<String> {
        let inner = self.text[c.open + 1..c.close].to_owned();
        let is_root = c.open == self.scanner().root();
        if inline && !is_root {
            let item = render_item(&self.style, "", false);
            self.text_mut().insert_str(c.open + 1, &item);
            return None;
        }
        let base = text::line_indent(&self.text, c.open).to_owned();
        let child = format!("{base}{}", self.style.indent);
        let mut item = render_item(&self.style, &child, true);
        if self.style.trailing_commas {
            item.push(',');
        }
        let eol = self.style.eol;
        // Comments inside (`[ // later`) stay first; the item goes on a line
        // of its own after the last of them and the closing bracket on the
        // next. Only the whitespace after the comments is replaced, and the
        // old inside, returned for the record, gives it back.
        let s = self.scanner();
        let mut at = c.open + 1;
        loop {
            let next = s.skip_whitespace(at).min(c.close);
            match s.comment_end(next) {
                Some(end) if self.text.as_bytes()[next] == b'/' && end <= c.close => at = end,
                _ => break,
            }
        }
        let new = format!("{eol}{child}{item}{eol}{base}");
        self.text_mut().replace_range(at..c.close, &new);
        Some(inner)
    }

    /// Whether two insides of an empty container differ only in the
    /// whitespace around their comments, so that giving back the one
    /// recorded before an expansion changes nothing a user wrote.
    pub fn same_but_whitespace(&self, a: &str, b: &str) -> bool {
        let comments = |t: &str| -> Option<Vec<String>> {
            let s = Scanner::new(t, self.flavor);
            let mut out = Vec::new();
            let mut at = 0;
            loop {
                at = s.skip_whitespace(at);
                if at == t.len() {
                    return Some(out);
                }
                let end = s.comment_end(at).filter(|_| t.as_bytes()[at] == b'/')?;
                out.push(t[at..end].to_owned());
                at = end;
            }
        };
        matches!((comments(a), comments(b)), (Some(x), Some(y)) if x == y)
    }

    /// Whether only whitespace and comments stand before `pos` on its line.
    fn starts_line(&self, pos: usize) -> bool {
        self.scanner()
            .skip_trivia(text::line_start(&self.text, pos))
            == pos
    }

    /// Where text appended after `pos` on the same line must go: past
    /// spaces and one-line comments, before the line break or the next token.
    fn same_line_end(&self, mut pos: usize) -> usize {
        let s = self.scanner();
        let b = self.text.as_bytes();
        loop {
            let n = s.inline_space_len(pos);
            if n > 0 {
                pos += n;
                continue;
            }
            match b.get(pos) {
                Some(b'/') if self.flavor.lenient() => match s.comment_end(pos) {
                    Some(end) if !self.text[pos..end].contains('\n') => pos = end,
                    _ => return pos,
                },
                _ => return pos,
            }
        }
    }

    /// Remove item `index` of the container at `path` (keys only; `want_object`
    /// says which kind the container is).
    pub fn remove_item(
        &mut self,
        path: &KeyPath,
        want_object: bool,
        index: usize,
    ) -> Result<(), EditError> {
        let c = self.container(path, want_object)?.ok_or(Unexpected(0))?;
        for r in removal_ranges(&self.text, &c, index) {
            self.text_mut().replace_range(r, "");
        }
        Ok(())
    }

    /// Replace the inside of the (empty) container at `path`.
    pub fn set_inner(
        &mut self,
        path: &KeyPath,
        want_object: bool,
        inner: &str,
    ) -> Result<(), EditError> {
        let c = self.container(path, want_object)?.ok_or(Unexpected(0))?;
        self.text_mut().replace_range(c.open + 1..c.close, inner);
        Ok(())
    }

    /// Replace the value of an item in place, rendered for where it stands.
    pub fn replace_value(&mut self, item: &Item, value: &Value) {
        let multiline = text::starts_line(&self.text, item.start) && !self.one_line;
        let indent = text::line_indent(&self.text, item.start).to_owned();
        let new = render(value, &self.style, &indent, multiline);
        self.text_mut().replace_range(item.value.clone(), &new);
    }
}

/// The byte ranges to delete to take item `i` out of `c`, last range first
/// so that they can be applied in order.
fn removal_ranges(text: &str, c: &Container, i: usize) -> Vec<Range<usize>> {
    let it = &c.items[i];
    let n = c.items.len();
    let prev = i.checked_sub(1).map(|p| &c.items[p]);
    let mut ranges = Vec::new();
    if text::starts_line(text, it.start) {
        // The inverse of an insertion, which puts line break, indentation
        // and item before the line break that ends the line it follows:
        // take out the line break before the item's line through the item,
        // and keep the one after it. (Taking the line with the break after
        // it instead turns an LF into a CRLF in a file that mixes them.)
        let line = text::line_start(text, it.start);
        let mut from = line.saturating_sub(1);
        if from > 0 && text.as_bytes()[from - 1] == b'\r' {
            from -= 1;
        }
        ranges.push(from..it.end_with_comma());
        if i + 1 == n
            && it.comma.is_none()
            && let Some(p) = prev.and_then(|p| p.comma)
        {
            ranges.push(p..p + 1);
        }
    } else if i + 1 < n {
        ranges.push(it.start..c.items[i + 1].start);
    } else if let Some(p) = prev {
        match (p.comma, it.comma) {
            (Some(pc), Some(ic)) => ranges.push(pc + 1..ic + 1),
            _ => ranges.push(p.value.end..it.value.end),
        }
    } else {
        ranges.push(it.start..it.end_with_comma());
    }
    ranges
}

/// The separator a one-line container uses between items.
fn container_comma(text: &str, c: &Container, style: &Style) -> &'static str {
    match c.items.as_slice() {
        [a, b, ..] => match a.comma {
            Some(p) if text[p + 1..b.start].is_empty() => ",",
            Some(_) => ", ",
            None => style.comma,
        },
        _ => style.comma,
    }
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
