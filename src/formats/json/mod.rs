//! JSON, JSONC and JSON5: validation, span scanning, rendering and splice
//! edits.
//!
//! The three are one editor with a [`Flavor`]: JSONC is JSON plus comments
//! and trailing commas, JSON5 is JSONC plus unquoted keys, single-quoted
//! strings, more number forms and more whitespace. Each layer (validate,
//! scan, render, edit) asks the flavour only where the grammar differs, so
//! every guarantee the JSON editor has — splices whose inverse is a splice,
//! nothing outside them touched — holds for the others by the same code.

pub mod edit;
pub mod json5;
pub mod render;
pub mod scan;
mod style;
pub mod validate;
pub mod value;

/// Which grammar a document is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Flavor {
    /// Strict JSON (RFC 8259).
    #[default]
    Json,
    /// JSON with comments and trailing commas.
    Jsonc,
    /// JSON5 (spec.json5.org 1.0.0), a superset of both.
    Json5,
}

impl Flavor {
    /// Comments and trailing commas are allowed.
    pub fn lenient(self) -> bool {
        !matches!(self, Flavor::Json)
    }

    pub fn is_json5(self) -> bool {
        matches!(self, Flavor::Json5)
    }

    /// The name users know the grammar by, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Flavor::Json => "JSON",
            Flavor::Jsonc => "JSONC",
            Flavor::Json5 => "JSON5",
        }
    }
}

/// The JSONC switch of the API before JSON5: `true` is JSONC, `false`
/// strict JSON. Kept so that callers written against it still read right.
impl From<bool> for Flavor {
    fn from(jsonc: bool) -> Flavor {
        if jsonc { Flavor::Jsonc } else { Flavor::Json }
    }
}
