//! The little of CommonMark that decides whether a line is one of coffer's
//! markers: lines, fenced code blocks, and the marker syntax itself.
//!
//! A README that documents coffer's markers inside a code fence must not be
//! mistaken for a block, so fences are tracked by CommonMark's rules (§4.5):
//! an opening run of three or more backticks or tildes indented at most three
//! spaces, closed by a run of the same character at least as long with
//! nothing after it, or by the end of the document. Markers are only looked
//! for at column 0, which is where coffer writes them: a line there is never
//! inside a list item, block quote or indented code block, so top-level fences
//! are the only containers that can hide it.

/// One line of the text: `start..end` is its content without the line break
/// (`\n` or `\r\n`), `next` is where the following line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Line {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

pub(super) fn lines(text: &str) -> impl Iterator<Item = Line> + '_ {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let (end, next) = match memchr::memchr(b'\n', &bytes[pos..]) {
            Some(i) => {
                let nl = pos + i;
                let cr = nl > start && bytes[nl - 1] == b'\r';
                (if cr { nl - 1 } else { nl }, nl + 1)
            }
            None => (bytes.len(), bytes.len()),
        };
        pos = next;
        Some(Line { start, end, next })
    })
}

/// Whether a line (or the rest of one) holds nothing but spaces and tabs. A
/// stray `\r` counts as space: only a line break can follow it.
pub(super) fn is_blank(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// An open fenced code block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fence {
    ch: u8,
    len: usize,
}

impl Fence {
    /// The fence `line` opens, if it opens one. A backtick fence's info
    /// string may not hold a backtick (then the line is inline code).
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
    // Only spaces count: a tab reaches column 4, which makes indented code.
    let indent = line.bytes().take_while(|b| *b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = *rest.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = rest.bytes().take_while(|b| *b == ch).count();
    (len >= 3).then(|| (ch, len, &rest[len..]))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Begin,
    End,
}

/// A line that means to be one of coffer's markers; `parsed` is `None` when
/// it does not have the exact form.
#[derive(Debug, Clone, Copy)]
pub(super) struct Marker<'a> {
    pub line: Line,
    pub parsed: Option<(Kind, &'a str)>,
}

/// What a scan of the whole text found.
pub(super) struct Scan<'a> {
    pub markers: Vec<Marker<'a>>,
    /// The fence still open at the end of the text: CommonMark closes it
    /// there, so anything appended would land inside it.
    pub open_fence: Option<Fence>,
}

pub(super) fn scan(text: &str) -> Scan<'_> {
    let mut markers = Vec::new();
    let mut fence: Option<Fence> = None;
    for line in lines(text) {
        let content = &text[line.start..line.end];
        match fence {
            Some(f) if f.closed_by(content) => fence = None,
            Some(_) => {}
            None => {
                if let Some(f) = Fence::open(content) {
                    fence = Some(f);
                } else if means_marker(content) {
                    let parsed = parse_marker(content);
                    markers.push(Marker { line, parsed });
                }
            }
        }
    }
    Scan {
        markers,
        open_fence: fence,
    }
}

/// A comment that starts with `coffer:begin` or `coffer:end` means to be a
/// marker; if it is not exactly right that is an error, not prose.
fn means_marker(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("<!--") else {
        return false;
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    ["coffer:begin", "coffer:end"].iter().any(|k| {
        rest.strip_prefix(k)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

fn parse_marker(line: &str) -> Option<(Kind, &str)> {
    let rest = line.strip_prefix("<!-- coffer:")?;
    let (kind, rest) = match rest.strip_prefix("begin ") {
        Some(r) => (Kind::Begin, r),
        None => (Kind::End, rest.strip_prefix("end ")?),
    };
    let name = rest
        .trim_end_matches([' ', '\t', '\r'])
        .strip_suffix(" -->")?;
    valid_name(name).then_some((kind, name))
}

/// Block names are kept to characters that need no escaping anywhere a
/// name travels (an HTML comment, a file name, a shell argument).
pub(super) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:/@".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker_lines(text: &str) -> Vec<&str> {
        scan(text)
            .markers
            .iter()
            .map(|m| &text[m.line.start..m.line.end])
            .collect()
    }

    #[test]
    fn lines_split_after_lf_and_keep_crlf_out_of_the_content() {
        let text = "a\r\nb\n\nc";
        let got: Vec<_> = lines(text)
            .map(|l| (&text[l.start..l.end], l.next))
            .collect();
        assert_eq!(got, [("a", 3), ("b", 5), ("", 6), ("c", 7)]);
    }

    #[test]
    fn fences_follow_commonmark() {
        let m = "<!-- coffer:begin x -->";
        // Closed by a run at least as long, of the same character.
        assert!(marker_lines(&format!("````\n```\n{m}\n````\n{m}\n")).len() == 1);
        assert!(marker_lines(&format!("~~~\n```\n{m}\n~~~\n")).is_empty());
        // Up to three spaces of indent open and close; four is indented code.
        assert!(marker_lines(&format!("   ```\n{m}\n  ```\n{m}\n")).len() == 1);
        assert_eq!(marker_lines(&format!("    ```\n{m}\n")).len(), 1);
        assert_eq!(marker_lines(&format!("\t```\n{m}\n")).len(), 1);
        // A closing run with text after it does not close.
        assert!(marker_lines(&format!("```\n``` x\n{m}\n")).is_empty());
        // A backtick run with a backtick in its info string is inline code.
        assert_eq!(marker_lines(&format!("``` a`b\n{m}\n")).len(), 1);
        assert!(marker_lines(&format!("~~~ a`b\n{m}\n")).is_empty());
        // Two characters are not a fence; an unclosed fence runs to the end.
        assert_eq!(marker_lines(&format!("``\n{m}\n")).len(), 1);
        let s = scan("text\n```rust\ncode\n");
        assert_eq!(s.open_fence.map(Fence::closer).as_deref(), Some("```"));
    }

    #[test]
    fn markers_need_column_zero_and_the_exact_form() {
        assert!(marker_lines("  <!-- coffer:begin x -->\n").is_empty());
        assert!(marker_lines("> <!-- coffer:begin x -->\n").is_empty());
        assert!(marker_lines("<!-- coffer:beginning of notes -->\n").is_empty());
        assert!(marker_lines("<!-- BEGIN:other-tool -->\n").is_empty());
        let ok = scan("<!-- coffer:begin a.b-c -->  \r\n").markers;
        assert_eq!(ok[0].parsed, Some((Kind::Begin, "a.b-c")));
        for bad in [
            "<!-- coffer:begin -->",
            "<!--coffer:end x-->",
            "<!-- coffer:end x y -->",
            "<!-- coffer:begin x --> trailing",
        ] {
            let m = scan(bad).markers;
            assert_eq!(m.len(), 1, "{bad}");
            assert_eq!(m[0].parsed, None, "{bad}");
        }
    }
}
