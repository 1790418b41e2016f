//! Which lines are code: CommonMark's fenced code blocks (§4.5), followed
//! through the list items that may hold them (§5.2, §5.3).
//!
//! A fence opens with a run of three or more backticks or tildes indented at
//! most three columns past its container's content, and closes with a run
//! of the same character at least as long with nothing after it, or where
//! its container ends: a fence inside a list item ends with the item, when a
//! line is indented less than the item's content (code has no lazy lines).
//!
//! Block quotes are followed only as far as their paragraphs continue
//! lazily: a marker line never starts with `>`. HTML blocks are not
//! followed: a fence line inside raw HTML counts as a fence, which differs
//! from CommonMark only when the HTML block ends, at a blank line, between
//! a fence's opening and closing lines. Checked against pulldown-cmark on
//! generated text: in about 400,000 marker lines outside HTML blocks, one
//! verdict differed (a fence inside a block quote's list item).

use std::borrow::Cow;

use super::scan::is_blank;

/// A fenced code block's opening run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fence {
    ch: u8,
    len: usize,
}

impl Fence {
    /// The fence `line` opens, if any. A backtick fence's info string may
    /// not hold a backtick (then the line is inline code).
    fn open(line: &str) -> Option<Fence> {
        let (ch, len, rest) = fence_run(line)?;
        (ch == b'~' || !rest.contains('`')).then_some(Fence { ch, len })
    }

    fn closed_by(self, line: &str) -> bool {
        matches!(fence_run(line), Some((ch, len, rest)) if ch == self.ch && len >= self.len && is_blank(rest))
    }

    /// The shortest line that closes this fence.
    pub fn closer(self) -> String {
        char::from(self.ch).to_string().repeat(self.len)
    }
}

/// A fence character run: the character, its length and what follows it.
fn fence_run(line: &str) -> Option<(u8, usize, &str)> {
    let (cols, at) = indent(line);
    let rest = &line[at..];
    let ch = *rest.as_bytes().first()?;
    if cols > 3 || (ch != b'`' && ch != b'~') {
        return None;
    }
    let len = rest.bytes().take_while(|b| *b == ch).count();
    (len >= 3).then(|| (ch, len, &rest[len..]))
}

/// The block structure around the current line, as far as it decides
/// what is code.
#[derive(Debug, Default)]
pub(super) struct Blocks {
    /// Content columns of the open list items, outermost first.
    items: Vec<usize>,
    /// The open fence and how many of `items` hold it.
    fence: Option<(Fence, usize)>,
    /// The last line was paragraph text, which the next may continue lazily.
    para: bool,
    /// That paragraph is in a block quote, so a list item below it does
    /// not interrupt it but starts outside the quote.
    quoted: bool,
    /// The last line opened a list item with nothing in it, which a blank
    /// line ends (an item may start with at most one blank line).
    empty_item: bool,
}

impl Blocks {
    /// Take in the next line (without its line break); true if it is code
    /// or a fence line.
    pub fn feed(&mut self, line: &str) -> bool {
        let line = expand_tabs(line);
        let line = line.as_ref();
        let (cols, _) = indent(line);
        let held = self.items.iter().take_while(|c| **c <= cols).count();
        if let Some((fence, depth)) = self.fence {
            if is_blank(line) || held >= depth {
                let base = depth.checked_sub(1).map_or(0, |d| self.items[d]);
                if fence.closed_by(dedent(line, base)) {
                    self.fence = None;
                }
                return true;
            }
            self.fence = None;
            self.para = false;
        }
        if std::mem::take(&mut self.empty_item) && is_blank(line) {
            self.items.pop();
        }
        if is_blank(line) {
            self.para = false;
            return false;
        }
        if held < self.items.len() {
            if self.para && !starts_block(dedent(line, cols)) {
                return false;
            }
            self.items.truncate(held);
            self.para = false;
        }
        let mut base = self.items.last().copied().unwrap_or(0);
        let mut rest = dedent(line, base);
        loop {
            let (rel, _) = indent(rest);
            if rel >= 4 {
                // Indented code, unless it continues a paragraph.
                return !self.para;
            }
            if let Some(fence) = Fence::open(rest) {
                self.fence = Some((fence, self.items.len()));
                self.para = false;
                return true;
            }
            match list_marker(rest).filter(|_| !self.para || self.quoted || interrupts(rest)) {
                Some((width, bytes)) => {
                    base += width;
                    self.items.push(base);
                    rest = &rest[bytes..];
                    self.para = false;
                }
                None if is_blank(rest) => {
                    self.empty_item = true;
                    return false;
                }
                None => {
                    let t = rest.trim_start_matches(' ');
                    // A quote's paragraph continues lazily too; its fence,
                    // heading or break does not.
                    let quoted = t
                        .strip_prefix('>')
                        .map(|q| q.strip_prefix(' ').unwrap_or(q));
                    // `text` over `---` or `===` is a heading, and ends there.
                    let underline = self.para
                        && quoted.is_none()
                        && ["-", "="]
                            .iter()
                            .any(|u| t.trim_end().split(u).all(str::is_empty));
                    self.quoted = quoted.is_some() || (self.para && self.quoted);
                    let t = quoted.unwrap_or(t);
                    self.para = !(underline
                        || is_blank(t)
                        || t.starts_with(['#', '<'])
                        || thematic_break(t)
                        || Fence::open(t).is_some());
                    return false;
                }
            }
        }
    }

    /// The fence still open at the end of the text, if at top level: one in
    /// a list item ends with the item, at the next line at column 0.
    pub fn open_fence(&self) -> Option<Fence> {
        self.fence.filter(|(_, depth)| *depth == 0).map(|(f, _)| f)
    }
}

/// Whether `s` starts a block rather than continuing a paragraph lazily.
fn starts_block(s: &str) -> bool {
    let t = s.trim_start_matches(' ');
    t.starts_with(['#', '>', '<'])
        || Fence::open(s).is_some()
        || thematic_break(t)
        || list_marker(s).is_some()
}

/// Whether list item `s` may interrupt a paragraph in its own container:
/// only if not empty, and if ordered, numbered 1.
fn interrupts(s: &str) -> bool {
    let t = s.trim_start_matches(' ');
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    list_marker(s)
        .is_some_and(|(_, bytes)| !is_blank(&s[bytes..]) && (digits == 0 || &t[..digits] == "1"))
}

/// `***`, `- - -`, `___`: three or more of one character and spaces.
fn thematic_break(t: &str) -> bool {
    let Some(c) = t.chars().next().filter(|c| "*-_".contains(*c)) else {
        return false;
    };
    t.chars().filter(|x| *x == c).count() >= 3 && t.chars().all(|x| x == c || x == ' ' || x == '\t')
}

/// A list item's marker at the start of `s`: the columns from the start of
/// `s` to the item's content, and the bytes up to it.
fn list_marker(s: &str) -> Option<(usize, usize)> {
    let (cols, at) = indent(s);
    let t = &s[at..];
    if cols > 3 || thematic_break(t) {
        return None;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let marker = match t.as_bytes().first()? {
        b'-' | b'+' | b'*' => 1,
        _ if (1..=9).contains(&digits) && matches!(t.as_bytes().get(digits), Some(b'.' | b')')) => {
            digits + 1
        }
        _ => return None,
    };
    let after = &t[marker..];
    if is_blank(after) {
        return Some((cols + marker + 1, s.len()));
    }
    let gap = after.bytes().take_while(|b| *b == b' ').count();
    match gap {
        0 => None,
        // Five columns or more: the content is indented code, one column
        // past the marker.
        5.. => Some((cols + marker + 1, at + marker + 1)),
        n => Some((cols + marker + n, at + marker + n)),
    }
}

/// Leading spaces of `s` (tabs are expanded before), and the byte where
/// the text starts.
fn indent(s: &str) -> (usize, usize) {
    let n = s.bytes().take_while(|b| *b == b' ').count();
    (n, n)
}

/// `line` with its tabs as spaces to the next multiple of four columns,
/// which is how CommonMark measures indentation.
fn expand_tabs(line: &str) -> Cow<'_, str> {
    if !line.contains('\t') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let n = 4 - col % 4;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    Cow::Owned(out)
}

/// `s` without its first `cols` columns of indentation, or as many as it
/// has.
fn dedent(s: &str, cols: usize) -> &str {
    &s[indent(s).0.min(cols)..]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which lines of `text` are code.
    fn code(text: &str) -> Vec<bool> {
        let mut b = Blocks::default();
        text.lines().map(|l| b.feed(l)).collect()
    }

    #[test]
    fn fences_open_and_close_by_commonmark_rules() {
        let t = |s: &str| code(s);
        // Closed by a run at least as long, of the same character.
        assert_eq!(t("````\n```\nx\n````\ny"), [true, true, true, true, false]);
        assert_eq!(t("~~~\n```\n~~~\ny"), [true, true, true, false]);
        // Up to three columns of indent; four is indented code, which a
        // line at column 0 ends.
        assert_eq!(t("   ```\nx\n  ```\ny"), [true, true, true, false]);
        assert_eq!(t("    ```\ny"), [true, false]);
        assert_eq!(t("\t```\ny"), [true, false]);
        // A run with text after it does not close; a backtick in a
        // backtick fence's info string makes inline code, not a fence.
        assert_eq!(t("```\n``` x\ny"), [true, true, true]);
        assert_eq!(t("``` a`b\ny"), [false, false]);
        assert_eq!(t("~~~ a`b\ny"), [true, true]);
        assert_eq!(t("``\ny"), [false, false]);
    }

    #[test]
    fn a_fence_in_a_list_item_ends_with_the_item() {
        assert_eq!(code("- item\n  ```\n  code\ny"), [false, true, true, false]);
        assert_eq!(code("- ```\n\n  code\ny"), [true, true, true, false]);
        assert_eq!(code("1. x\n   ```\n  y"), [false, true, false]);
        // A tab after the marker reaches column 4: the fence at 2 is outside.
        assert_eq!(code("-\tx\n  ```\ny"), [false, true, true]);
        // A tab and two spaces in an item at column 2: indented code.
        assert_eq!(code("- a\n\t  ```\ny"), [false, false, false]);
        // An empty item and a blank line: the item has ended.
        assert_eq!(code("-\n\n  ```\ny"), [false, false, true, true]);
        assert_eq!(code("-\n  ```\ny"), [false, true, false]);
        assert_eq!(
            code("10. x\n    ```\n    code\n    ```\ny"),
            [false, true, true, true, false]
        );
        // A nested item's fence, closed relative to the item's content.
        assert_eq!(
            code("- a\n  - b\n    ```\n    ```\nz"),
            [false, false, true, true, false]
        );
        let mut b = Blocks::default();
        "- a\n  ```\n".lines().for_each(|l| _ = b.feed(l));
        assert_eq!(b.open_fence(), None, "a column-0 line will close it");
        let mut b = Blocks::default();
        "a\n  ```rust\n".lines().for_each(|l| _ = b.feed(l));
        assert_eq!(b.open_fence().map(Fence::closer).as_deref(), Some("```"));
    }

    #[test]
    fn lazy_lines_keep_the_item_open() {
        // `y` continues the item's paragraph, so the fence is in the item.
        assert_eq!(code("- x\ny\n  ```\nz"), [false, false, true, false]);
        // Four spaces after a paragraph continue it rather than start code.
        assert_eq!(code("text\n    ```\nz"), [false, false, false]);
        // `2.` cannot interrupt a paragraph: no new item, no container.
        assert_eq!(code("text\n2. x\n```\nz"), [false, false, true, true]);
        assert_eq!(code("- - -\n  ```\nz"), [false, true, true]);
        // Below a quote's paragraph an empty item starts, outside the quote.
        assert_eq!(code("> q\n-\n  ```\nz"), [false, false, true, false]);
        // A heading underline ends the paragraph: the next `-` is an item.
        assert_eq!(
            code("a\n-\n-\n  ```\nz"),
            [false, false, false, true, false]
        );
        // Where the paragraph's item has ended, `10.` does start an item,
        // and the fence below it, short of its content, is at top level.
        assert_eq!(code("- x\n10. y\n   ```\nz"), [false, false, true, true]);
    }
}
