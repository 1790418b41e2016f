//! Format editors: each edits one kind of file as text at the spans that
//! change, behind the shared text layer.

pub mod json;
pub mod markdown;
pub mod rule_file;
pub mod text;
pub mod toml;
pub mod yaml;

/// Where and why a file's text is not acceptable, shared by every format so
/// that the engine reports all parse failures the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// Byte offset into the text the parser saw (after the BOM).
    pub offset: usize,
    pub message: String,
    pub help: Option<String>,
}
