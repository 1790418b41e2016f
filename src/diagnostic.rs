//! Errors that point into a file: the desired file or a target file.
//!
//! The message itself names the file, line and column (so it reads well in
//! CI logs and greps), and the miette source snippet shows the place. A
//! snippet of a very long line (a minified 10 MB settings file) would flood
//! the terminal, so it is only attached when the line is short.

use miette::{Diagnostic, NamedSource, SourceSpan};

use crate::formats::text::{line_col, line_start};

/// Longest line shown as a snippet.
const MAX_SNIPPET_LINE: usize = 400;

#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct Located {
    pub message: String,
    #[source_code]
    pub source_code: Option<NamedSource<String>>,
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
        let start = line_start(text, offset);
        let line_len = text[start..].find('\n').unwrap_or(text.len() - start);
        let short = line_len <= MAX_SNIPPET_LINE;
        Located {
            message: format!("{file}:{line}:{col}: {what}"),
            source_code: short.then(|| NamedSource::new(file, text.to_owned())),
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
