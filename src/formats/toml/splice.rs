//! Whole-line splices of a TOML text.
//!
//! coffer's edits add and remove whole lines, and these helpers make each
//! removal the exact inverse of its insertion, including at the end of a
//! file that has no final newline (the new last line gets none either, and
//! removing it gives the newline back to where it was missing).

use std::ops::Range;

use crate::formats::text;

/// After the newline of the line holding `pos`, or the end of the text.
pub fn line_end(text: &str, pos: usize) -> usize {
    memchr::memchr(b'\n', &text.as_bytes()[pos..]).map_or(text.len(), |n| pos + n + 1)
}

/// Start of the line above `line_start` if that line is blank.
pub fn blank_line_above(text: &str, line_start: usize) -> Option<usize> {
    if line_start == 0 {
        return None;
    }
    let above = text::line_start(text, line_start - 1);
    text[above..line_start].trim().is_empty().then_some(above)
}

/// End of the last line that is not blank (after its newline), 0 for a
/// text that is empty or all blank. A multi-line string always ends on a
/// line holding its closing quotes, so this is never inside one.
pub fn end_of_last_line(text: &str) -> usize {
    let trimmed = text.trim_end_matches([' ', '\t', '\r', '\n']).len();
    if trimmed == 0 {
        0
    } else {
        line_end(text, trimmed)
    }
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
        range.start -= if text[..range.start].ends_with("\r\n") {
            2
        } else {
            1
        };
    }
    text.replace_range(range, "");
}

/// Remove several regions of lines: last first, so that earlier offsets stay
/// true, and touching ones merged, so that the newline one of them gives up
/// at the end of the text is not also the end of another.
pub fn remove_regions(text: &mut String, mut regions: Vec<Range<usize>>) {
    regions.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::new();
    for r in regions {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    for r in merged.into_iter().rev() {
        remove_lines(text, r);
    }
}

pub use crate::formats::text::insert_lines;
