//! Lines and coffer's marker syntax: which lines of a text are coffer's
//! markers.
//!
//! A marker is a whole line at column 0, where coffer writes it. A line
//! there is never inside a list item or block quote, so the one thing that
//! can make it text rather than a marker is a code fence around it ([`fence`]
//! decides): a README documenting coffer's markers in a code block has no
//! block.

use super::fence::{Blocks, Fence};

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
    /// A marker-like line inside that fence, and where the fence opens:
    /// most likely an edit left a fence open above coffer's block and
    /// swallowed it, which coffer must not paper over with a second block.
    pub swallowed: Option<(Line, usize)>,
}

pub(super) fn scan(text: &str) -> Scan<'_> {
    let mut markers = Vec::new();
    let mut blocks = Blocks::default();
    let mut opened: Option<(usize, Option<Line>)> = None;
    for line in lines(text) {
        let content = &text[line.start..line.end];
        if !blocks.feed(content) {
            if means_marker(content) {
                let parsed = parse_marker(content);
                markers.push(Marker { line, parsed });
            }
            opened = None;
            continue;
        }
        match &mut opened {
            None => opened = Some((line.start, None)),
            Some((_, hidden @ None)) if means_marker(content) => *hidden = Some(line),
            Some(_) => {}
        }
        if blocks.open_fence().is_none() {
            opened = None;
        }
    }
    let open_fence = blocks.open_fence();
    Scan {
        markers,
        open_fence,
        swallowed: opened
            .filter(|_| open_fence.is_some())
            .and_then(|(fence, hidden)| Some((hidden?, fence))),
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
    fn markers_in_code_are_text() {
        let m = "<!-- coffer:begin x -->";
        assert_eq!(marker_lines(&format!("````\n```\n{m}\n````\n{m}\n")), [m]);
        assert!(marker_lines(&format!("~~~\n{m}\n~~~~\n")).is_empty());
        assert_eq!(marker_lines(&format!("- x\n  ```\n{m}\n")), [m]);
        let s = scan("text\n```rust\ncode\n");
        assert_eq!(s.open_fence.map(Fence::closer).as_deref(), Some("```"));
        assert!(s.swallowed.is_none());
    }

    #[test]
    fn a_marker_in_a_fence_left_open_is_reported() {
        let text = "a\n```\nb\n<!-- coffer:begin x -->\nbody\n<!-- coffer:end x -->\n";
        let s = scan(text);
        assert!(s.markers.is_empty());
        assert_eq!(s.swallowed.map(|(l, f)| (l.start, f)), Some((8, 2)));
        let closed = format!("{text}```\n");
        assert!(scan(&closed).swallowed.is_none());
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
