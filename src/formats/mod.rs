//! Format editors: each edits one kind of file as text at the spans that
//! change, behind the shared text layer.

pub mod json;
pub mod markdown;
pub mod rule_file;
pub mod text;
