//! Errors that point into a file: the desired file or a target file.
//!
//! The message itself names the file, line and column (so it reads well in
//! CI logs and greps), and the miette source snippet shows the place. A
//! snippet of a very long line (a minified 10 MB settings file) would flood
//! the terminal, so it is only attached when the line is short.
//!
//! Columns count characters, as editors do. miette's own `[file:line:col]`
//! header counts bytes, which disagrees with the message on any line with
//! non-ASCII text before the error; [`Source`] makes it count characters
//! too, so the two positions a user reads are the same.

use miette::{
    Diagnostic, MietteError, MietteSpanContents, NamedSource, SourceCode, SourceSpan, SpanContents,
};

use crate::formats::text::{line_col, line_start};

/// Longest line shown as a snippet.
const MAX_SNIPPET_LINE: usize = 400;

#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct Located {
    pub message: String,
    #[source_code]
    pub source_code: Option<Source>,
    #[label("{label}")]
    pub span: Option<SourceSpan>,
    pub label: String,
    #[help]
    pub help: Option<String>,
}

impl Located {
    /// `what` is the message without a position; it becomes
    /// `{file}:{line}:{column}: {what}`.
    pub fn new(
        file: &str,
        text: &str,
        offset: usize,
        len: usize,
        what: &str,
        label: &str,
    ) -> Located {
        let offset = offset.min(text.len());
        let (line, col) = line_col(text, offset);
        // An empty file has no line to show.
        let short = !text.is_empty() && snippet_is_short(text, offset);
        // miette draws no label on a line break or past the end, where
        // errors about a missing token are; the snippet gets a space there
        // to carry it. Only the shown copy changes, after the position.
        let at_line_end = matches!(text.as_bytes().get(offset), None | Some(b'\r' | b'\n'));
        let shown = || {
            if at_line_end {
                format!("{} {}", &text[..offset], &text[offset..])
            } else {
                text.to_owned()
            }
        };
        let len = if at_line_end { 1 } else { len };
        Located {
            message: format!("{file}:{line}:{col}: {what}"),
            source_code: short.then(|| Source {
                text: NamedSource::new(file, shown()),
            }),
            span: short.then(|| SourceSpan::from((offset, len))),
            label: label.to_owned(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<Option<String>>) -> Located {
        self.help = help.into();
        self
    }
}

/// Whether every line the snippet shows is short: the line holding
/// `offset` and one line of context on either side (miette's default).
fn snippet_is_short(text: &str, offset: usize) -> bool {
    let start = line_start(text, offset);
    let first = line_start(text, start.saturating_sub(1));
    let end = |from: usize| text[from..].find('\n').map_or(text.len(), |n| from + n);
    let this_end = end(start);
    let last = if this_end < text.len() {
        end(this_end + 1)
    } else {
        this_end
    };
    text[first..last]
        .split('\n')
        .all(|l| l.len() <= MAX_SNIPPET_LINE)
}

/// A file's text for miette, with the header's column in characters.
#[derive(Debug)]
pub struct Source {
    text: NamedSource<String>,
}

impl SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let contents = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        // miette reads the header's position with no context lines; that
        // is the only column it prints.
        if context_lines_before > 0 {
            return Ok(contents);
        }
        let (_, col) = line_col(self.text.inner(), span.offset());
        Ok(Box::new(MietteSpanContents::new_named(
            self.text.name().to_owned(),
            contents.data(),
            *contents.span(),
            contents.line(),
            col - 1,
            contents.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(located: &Located) -> String {
        let mut out = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .render_report(&mut out, located)
            .unwrap();
        out
    }

    #[test]
    fn the_header_and_the_message_agree_on_non_ascii_lines() {
        let text = "{\"é☕\": \"x\" \"b\"}";
        let at = text.find(" \"b").unwrap() + 1;
        let r = report(&Located::new("f.json", text, at, 1, "bad", "here"));
        assert!(r.contains("f.json:1:12: bad"), "{r}");
        assert!(r.contains("[f.json:1:12]"), "{r}");
    }

    #[test]
    fn an_error_at_the_end_keeps_its_label() {
        for text in [
            "{\"a\": 1\n",
            "{\"a\": 1",
            "{\"a\": 1\r\n",
            "{\"a\": 1\r\n\r\n",
        ] {
            let r = report(&Located::new("f.json", text, 7, 1, "bad", "here"));
            assert!(r.contains("f.json:1:8: bad"), "{r}");
            assert!(r.contains("[f.json:1:8]"), "{r}");
            assert!(r.contains("here"), "{r}");
        }
    }

    #[test]
    fn long_lines_and_empty_files_get_no_snippet() {
        let long = format!("[{}", "1,".repeat(1000));
        let r = report(&Located::new("f.json", &long, long.len(), 1, "bad", "here"));
        assert!(!r.contains("╭"), "{r}");
        assert!(r.contains("f.json:1:2002: bad"), "{r}");
        let r = report(&Located::new("f.json", "", 0, 0, "empty", "here"));
        assert!(!r.contains("╭"), "{r}");
        // The error is on a short line, but a neighbour is long.
        let text = format!("{long}\n]\n");
        let r = report(&Located::new(
            "f.json",
            &text,
            text.len() - 2,
            1,
            "bad",
            "here",
        ));
        assert!(!r.contains("╭"), "{r}");
        let text = format!("]\n{long}\n");
        let r = report(&Located::new("f.json", &text, 0, 1, "bad", "here"));
        assert!(!r.contains("╭"), "{r}");
        let text = format!("{long}\n\n]\n");
        let r = report(&Located::new(
            "f.json",
            &text,
            text.len() - 2,
            1,
            "bad",
            "here",
        ));
        assert!(r.contains("╭"), "{r}");
    }
}
