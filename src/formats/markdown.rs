//! coffer's marker blocks in Markdown instruction files (AGENTS.md,
//! CLAUDE.md, GEMINI.md, …).
//!
//! An instructions block is the text between `<!-- coffer:begin NAME -->`
//! and `<!-- coffer:end NAME -->`, each marker a whole line at column 0. This
//! module finds such blocks, inserts or updates one, and takes it out again,
//! editing the text only at the lines that change: the user's text around
//! the block, including other tools' `<!-- … -->` blocks, is never rewritten.
//!
//! Removal must give back the original bytes, which a marker block alone
//! cannot do: inserting it may displace the blank lines that ended the file,
//! add a line break to a last line that had none, or close a code fence left
//! open at the end (else the block would sit inside the code). [`upsert`]
//! returns a [`Placement`] saying exactly what it added and displaced; the
//! engine keeps it in the provenance record and hands it to [`remove`]. When
//! the record is lost, removal takes the block and the blank lines that
//! separate it, and never anything else.
//!
//! The text arrives without its byte-order mark (see [`super::text`]).

mod fence;
mod scan;

use std::ops::Range;

use scan::{Kind, is_blank};

use crate::formats::text;

/// One of coffer's blocks in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub name: String,
    /// Whole lines: the begin marker's first byte to the end marker's line
    /// break (included, if it has one).
    pub range: Range<usize>,
    /// The lines between the markers.
    pub body: Range<usize>,
}

/// What inserting a block added around it, kept so that removal can undo
/// exactly that.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Placement {
    /// Written between the user's last line and the begin marker: a line
    /// break if the last line had none, the closing line of a code fence left
    /// open, and the blank line that separates the block.
    pub before: String,
    /// The blank lines that ended the file; the block took their place.
    pub displaced: String,
}

/// A text whose markers coffer cannot make sense of, or a block it cannot
/// write. The engine refuses to touch such a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarkdownError {
    #[error("line {line}: {problem}")]
    Markers {
        /// Byte offset of the offending line in the text given (after the
        /// byte-order mark: see [`text::Text::file_offset`]).
        offset: usize,
        line: usize,
        problem: Problem,
    },
    #[error("`{0}` cannot be a block name: use ASCII letters, digits and `-_.:/@`")]
    InvalidName(String),
    #[error(
        "the text for block `{0}` holds a coffer marker or leaves a code fence open, \
         which would break the block's markers"
    )]
    BodyBreaksBlock(String),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("`<!-- coffer:begin {0} -->` has no `<!-- coffer:end {0} -->` after it")]
    Unclosed(String),
    #[error("`<!-- coffer:end {0} -->` has no `<!-- coffer:begin {0} -->` before it")]
    StrayEnd(String),
    #[error(
        "`<!-- coffer:begin {inner} -->` is inside block `{outer}`, which is not closed yet; \
         coffer's blocks do not nest"
    )]
    Nested { outer: String, inner: String },
    #[error("`<!-- coffer:end {found} -->` closes block `{open}`; the names must match")]
    Mismatched { open: String, found: String },
    #[error(
        "this coffer marker is inside the code fence opened at line {fence_line}, which is never \
         closed; close the fence so that coffer can tell its block from text"
    )]
    InOpenFence { fence_line: usize },
    #[error("block `{0}` appears a second time")]
    Duplicate(String),
    #[error(
        "a coffer marker must read `<!-- coffer:begin NAME -->` or `<!-- coffer:end NAME -->`, \
         NAME made of ASCII letters, digits and `-_.:/@`"
    )]
    Malformed,
}

/// Whether `name` can name a block: ASCII letters, digits and `-_.:/@`,
/// which need no escaping in a comment, a file name or a shell argument.
/// The desired-state loader can check names with this before any file is read.
pub fn is_valid_name(name: &str) -> bool {
    scan::valid_name(name)
}

pub fn begin_marker(name: &str) -> String {
    format!("<!-- coffer:begin {name} -->")
}

pub fn end_marker(name: &str) -> String {
    format!("<!-- coffer:end {name} -->")
}

/// coffer's blocks in `text`, in order. Markers inside fenced code are text.
/// Anything that is not a clean sequence of begin/end pairs is an error
/// rather than a guess.
pub fn find_blocks(text: &str) -> Result<Vec<Block>, MarkdownError> {
    let fail = |offset: usize, problem| MarkdownError::Markers {
        offset,
        line: text::line_col(text, offset).0,
        problem,
    };
    let scan = scan::scan(text);
    let mut blocks: Vec<Block> = Vec::new();
    let mut open: Option<(&str, scan::Line)> = None;
    for m in scan.markers {
        let at = m.line.start;
        let (kind, name) = m.parsed.ok_or_else(|| fail(at, Problem::Malformed))?;
        match (kind, open.take()) {
            (Kind::Begin, None) if blocks.iter().any(|b| b.name == name) => {
                return Err(fail(at, Problem::Duplicate(name.into())));
            }
            (Kind::Begin, None) => open = Some((name, m.line)),
            (Kind::Begin, Some((outer, _))) => {
                let (outer, inner) = (outer.into(), name.into());
                return Err(fail(at, Problem::Nested { outer, inner }));
            }
            (Kind::End, None) => return Err(fail(at, Problem::StrayEnd(name.into()))),
            (Kind::End, Some((open, begin))) if open == name => blocks.push(Block {
                name: name.into(),
                range: begin.start..m.line.next,
                body: begin.next..m.line.start,
            }),
            (Kind::End, Some((open, _))) => {
                let (open, found) = (open.into(), name.into());
                return Err(fail(at, Problem::Mismatched { open, found }));
            }
        }
    }
    if let Some((marker, fence)) = scan.swallowed {
        let fence_line = text::line_col(text, fence).0;
        return Err(fail(marker.start, Problem::InOpenFence { fence_line }));
    }
    match open {
        Some((name, begin)) => Err(fail(begin.start, Problem::Unclosed(name.into()))),
        None => Ok(blocks),
    }
}

/// Put block `name` with `body` (plain text, LF line breaks) into `text`:
/// replace the body of the block in place if it is there, else add the block
/// at the end. Returns the new text and the placement to record: the one
/// just made, or for an existing block `recorded` (the record of its
/// insertion), or failing that the placement [`remove`] would assume.
pub fn upsert(
    text: &str,
    name: &str,
    body: &str,
    recorded: Option<&Placement>,
) -> Result<(String, Placement), MarkdownError> {
    if !is_valid_name(name) {
        return Err(MarkdownError::InvalidName(name.into()));
    }
    let blocks = find_blocks(text)?;
    let eol = text::line_ending(text);
    let body = render_body(body, eol);
    let existing = blocks.iter().find(|b| b.name == name);
    let (out, placement, range) = match existing {
        Some(b) => {
            let mut out = text.to_owned();
            out.replace_range(b.body.clone(), &body);
            let placement = recorded.cloned().unwrap_or_else(|| assumed(text, b));
            let end = b.range.end - b.body.len() + body.len();
            (out, placement, b.range.start..end)
        }
        None => {
            let placement = insertion(text);
            let at = text.len() - placement.displaced.len();
            let mut out = String::with_capacity(at + placement.before.len() + body.len() + 64);
            out.push_str(&text[..at]);
            out.push_str(&placement.before);
            let start = out.len();
            for part in [&begin_marker(name), eol, &body, &end_marker(name), eol] {
                out.push_str(part);
            }
            let end = out.len();
            (out, placement, start..end)
        }
    };
    // The body is text coffer did not write itself: if it holds a marker or
    // leaves a fence open, the block would no longer read back as written.
    let intact = find_blocks(&out).is_ok_and(|after| {
        after.len() == blocks.len() + usize::from(existing.is_none())
            && after.iter().any(|b| b.name == name && b.range == range)
    });
    if !intact {
        return Err(MarkdownError::BodyBreaksBlock(name.into()));
    }
    Ok((out, placement))
}

/// Take block `name` out of `text` (the text unchanged if it has none).
/// With the placement recorded when the block was inserted, and the block
/// still last in the file, the text from before the insertion comes back
/// byte for byte, edits elsewhere included. Otherwise the block goes with
/// the blank lines that separate it from the text before it.
pub fn remove(
    text: &str,
    name: &str,
    recorded: Option<&Placement>,
) -> Result<String, MarkdownError> {
    let blocks = find_blocks(text)?;
    let Some(b) = blocks.iter().find(|b| b.name == name) else {
        return Ok(text.to_owned());
    };
    Ok(recorded
        .and_then(|p| undo(text, b, p))
        .unwrap_or_else(|| without(text, b)))
}

/// The text from before the insertion `p` recorded, if `p` still fits: the
/// block ends the file, `p.before` precedes it, and inserting into the
/// restored text would record exactly `p` again. A stale or foreign record
/// therefore never changes more than [`without`] would.
fn undo(text: &str, b: &Block, p: &Placement) -> Option<String> {
    if b.range.end != text.len() {
        return None;
    }
    let kept = text[..b.range.start].strip_suffix(p.before.as_str())?;
    let original = format!("{kept}{}", p.displaced);
    (insertion(&original) == *p).then_some(original)
}

/// Where a block appended to `text` goes and what comes before it. It
/// replaces the blank lines that end the file, so that exactly one blank
/// line separates it from the text; but after a fence left open those lines
/// are code, so the fence is closed after them instead.
fn insertion(text: &str) -> Placement {
    let eol = text::line_ending(text);
    let open = scan::scan(text).open_fence;
    let at = match open {
        Some(_) => text.len(),
        None => scan::lines(text)
            .filter(|l| !is_blank(&text[l.start..l.end]))
            .last()
            .map_or(0, |l| l.next),
    };
    let mut before = String::new();
    if at > 0 {
        if !text[..at].ends_with('\n') {
            before.push_str(eol);
        }
        if let Some(fence) = open {
            before.push_str(&fence.closer());
            before.push_str(eol);
        }
        before.push_str(eol);
    }
    Placement {
        before,
        displaced: text[at..].to_owned(),
    }
}

/// The text without block `b` and the blank lines that separate it: those
/// before it when it is last or when blank lines follow it too (so the text
/// on either side stays apart by the lines that followed), those after it
/// when it is first. Only blank lines ever go with it.
fn without(text: &str, b: &Block) -> String {
    let (start, end) = (b.range.start, b.range.end);
    let blank_from = blank_lines_before(text, start);
    let blank_to = blank_lines_after(text, end);
    let text_before = blank_from > 0;
    let text_after = blank_to < text.len();
    let cut = match (text_before, text_after) {
        (true, true) if blank_to > end => blank_from..end,
        (true, false) => blank_from..end,
        (false, true) => start..blank_to,
        _ => start..end,
    };
    let mut out = text.to_owned();
    text::splice(&mut out, cut, "");
    out
}

/// The placement [`remove`] assumes for a block with no record: the blank
/// lines before it were its separator, and nothing was displaced.
fn assumed(text: &str, b: &Block) -> Placement {
    let from = blank_lines_before(text, b.range.start);
    Placement {
        before: if from > 0 {
            text[from..b.range.start].to_owned()
        } else {
            String::new()
        },
        displaced: String::new(),
    }
}

/// Start of the run of blank lines that ends at line start `pos`.
fn blank_lines_before(text: &str, mut pos: usize) -> usize {
    while pos > 0 {
        let prev = text::line_start(text, pos - 1);
        if !is_blank(&text[prev..pos]) {
            break;
        }
        pos = prev;
    }
    pos
}

/// End of the run of blank lines that starts at line start `pos`.
fn blank_lines_after(text: &str, pos: usize) -> usize {
    scan::lines(&text[pos..])
        .take_while(|l| is_blank(&text[pos + l.start..pos + l.end]))
        .last()
        .map_or(pos, |l| pos + l.next)
}

/// `body` with the file's line breaks, ending in one unless empty.
fn render_body(body: &str, eol: &str) -> String {
    let lf = body.replace("\r\n", "\n");
    let mut out = if eol == "\n" {
        lf
    } else {
        lf.replace('\n', eol)
    };
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(eol);
    }
    out
}

#[cfg(test)]
mod tests;
