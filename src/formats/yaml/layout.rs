//! Whole lines of a YAML text, and the file's own layout that new lines
//! follow.
//!
//! Every block edit adds or removes whole lines, and these helpers make a
//! removal the exact inverse of its insertion, also at the end of a file
//! without a final newline (the new last line gets none either; removing
//! it gives the newline back to where it was missing). The line helpers
//! mirror those of the TOML editor, which keeps its own private.

use std::ops::Range;

use super::tree::{Entry, Kind, Node};
use crate::formats::text;

/// After the newline of the line holding `pos`, or the end of the text.
pub fn line_end(text: &str, pos: usize) -> usize {
    memchr::memchr(b'\n', &text.as_bytes()[pos..]).map_or(text.len(), |n| pos + n + 1)
}

/// After the line holding the text that ends at `end` (a block scalar's
/// text already ends after its last newline).
pub fn after_line(text: &str, end: usize) -> usize {
    if end > 0 && text.as_bytes()[end - 1] == b'\n' {
        end
    } else {
        line_end(text, end)
    }
}

/// Past the comment lines after `at` (a line start) that are indented
/// deeper than `indent`: they annotate the entry above (`#   max: 1` under
/// its value), so a new entry at `indent` goes after them. Blank lines are
/// passed only on the way to another such comment.
pub fn past_nested_comments(text: &str, mut at: usize, indent: usize) -> usize {
    let mut probe = at;
    while probe < text.len() {
        let next = line_end(text, probe);
        let line = &text[probe..next];
        if is_comment(line) && text::line_indent(text, probe).len() > indent {
            at = next;
        } else if !is_blank(line) {
            break;
        }
        probe = next;
    }
    at
}

/// `end`, or before the line break it follows.
pub fn before_break(text: &str, end: usize) -> usize {
    let t = &text[..end];
    end - if t.ends_with("\r\n") {
        2
    } else {
        usize::from(t.ends_with('\n'))
    }
}

/// The line above the one starting at `line_start`, if there is one.
pub fn line_above(text: &str, line_start: usize) -> Option<Range<usize>> {
    (line_start > 0).then(|| text::line_start(text, line_start - 1)..line_start)
}

pub fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

pub fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// End of the last line that is not blank (after its newline), 0 for a
/// text that is empty or all blank.
pub fn end_of_last_line(text: &str) -> usize {
    let trimmed = text.trim_end_matches([' ', '\t', '\r', '\n']).len();
    if trimmed == 0 {
        0
    } else {
        line_end(text, trimmed)
    }
}

/// End of the last line of `s` that is not blank, before its line break.
pub fn last_line_end(s: &str) -> usize {
    let mut end = s.len();
    loop {
        let t = s[..end].trim_end_matches(['\r', '\n']);
        let start = t.rfind('\n').map_or(0, |i| i + 1);
        if start == 0 || !t[start..].trim().is_empty() {
            return t.len();
        }
        end = start;
    }
}

/// The spaces before `pos` on its line; `None` when something else stands
/// there (`- key`, `? key`, `--- key`).
pub fn indent_before(text: &str, pos: usize) -> Option<&str> {
    let s = &text[text::line_start(text, pos)..pos];
    s.bytes().all(|b| b == b' ').then_some(s)
}

/// Remove whole lines `range` (from a line start to a line start or the end
/// of the text). When they are the last lines and the text has no final
/// newline, the newline before them goes instead, so the line before
/// becomes the last one, again without a newline.
pub fn remove_lines(text: &mut String, mut range: Range<usize>) {
    if range.is_empty() {
        return;
    }
    if range.end == text.len() && !text.ends_with('\n') && range.start > 0 {
        range.start = before_break(text, range.start);
    }
    text.replace_range(range, "");
}

pub use crate::formats::text::insert_lines;

/// Whether a block entry's value is null or `{}` written on the key's line,
/// where coffer writes the member below the key instead.
pub fn empty_on_key_line(text: &str, e: &Entry) -> bool {
    let empty = match &e.value.kind {
        Kind::Map {
            flow: true,
            entries,
        } => entries.is_empty(),
        _ => e.value.is_null(),
    };
    empty
        && colon_end(text, e)
            .is_some_and(|c| e.value.is_implicit() || !text[c..e.value.span.end].contains('\n'))
}

/// After the `:` that follows the key on its line.
pub fn colon_end(text: &str, e: &Entry) -> Option<usize> {
    let from = e.key_node.span.end;
    let gap = text[from..]
        .bytes()
        .take_while(|b| *b == b' ' || *b == b'\t')
        .count();
    (text.as_bytes().get(from + gap) == Some(&b':')).then_some(from + gap + 1)
}

/// How the file writes what coffer adds.
#[derive(Debug, Clone)]
pub struct Style {
    pub eol: &'static str,
    /// Spaces a nested block collection is indented by.
    pub unit: String,
    /// Block lists sit at their key's column (`key:\n- a`).
    pub indentless: bool,
}

impl Style {
    /// The file's: its line ending, the indentation of its first nested
    /// block collection (two spaces when it has none), and whether most of
    /// its lists are indentless.
    pub fn of(text: &str, root: Option<&Node>) -> Style {
        let mut seen = Seen::default();
        if let Some(root) = root {
            walk(text, root, &mut seen);
        }
        let unit = seen.map_unit.or(seen.seq_unit).unwrap_or(2).clamp(1, 8);
        Style {
            eol: text::line_ending(text),
            unit: " ".repeat(unit),
            indentless: seen.indentless > seen.indented,
        }
    }
}

#[derive(Default)]
struct Seen {
    map_unit: Option<usize>,
    seq_unit: Option<usize>,
    indentless: usize,
    indented: usize,
}

fn column(text: &str, pos: usize) -> usize {
    pos - text::line_start(text, pos)
}

fn walk(text: &str, node: &Node, seen: &mut Seen) {
    match &node.kind {
        Kind::Map {
            flow: false,
            entries,
        } => {
            for e in entries {
                let key = column(text, e.key_node.start);
                match &e.value.kind {
                    Kind::Map { flow: false, .. } => {
                        let d = column(text, e.value.span.start).saturating_sub(key);
                        if d > 0 && seen.map_unit.is_none() {
                            seen.map_unit = Some(d);
                        }
                    }
                    Kind::Seq { flow: false, .. } => {
                        // The dash starts the line holding the first item.
                        let indent = text::line_indent(text, e.value.span.start).len();
                        let line = &text[text::line_start(text, e.value.span.start)..];
                        if line[indent..].starts_with('-') {
                            if indent <= key {
                                seen.indentless += 1;
                            } else {
                                seen.indented += 1;
                                seen.seq_unit.get_or_insert(indent - key);
                            }
                        }
                    }
                    _ => {}
                }
                walk(text, &e.value, seen);
            }
        }
        Kind::Seq { items, .. } => items.iter().for_each(|n| walk(text, n, seen)),
        _ => {}
    }
}

/// Whether the entries of a mapping are set apart by blank lines: a vote
/// over every entry but the first (whose line above is its parent's key),
/// looking past the comments above each; tight on a tie or with nothing to
/// go by. Insertion and removal ask about the same entries (removal leaves
/// out the one it removes), so they agree.
pub fn blank_between<'a>(text: &str, entries: impl Iterator<Item = &'a Entry>) -> bool {
    let (mut blank, mut tight) = (0, 0);
    for e in entries.skip(1) {
        let mut at = text::line_start(text, e.key_node.start);
        while let Some(above) = line_above(text, at) {
            let line = &text[above.clone()];
            if is_blank(line) {
                blank += 1;
            } else if is_comment(line) {
                at = above.start;
                continue;
            } else {
                tight += 1;
            }
            break;
        }
    }
    blank > tight
}
