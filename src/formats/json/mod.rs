//! JSON and JSONC: validation, span scanning, rendering and splice edits.

pub mod edit;
pub mod render;
pub mod scan;
pub mod validate;
