//! Values that remember where in the desired file they were written.
//!
//! Most mistakes in a desired file are valid YAML with a wrong meaning (an
//! agent coffer does not know, an event an agent lacks), so the checks that
//! find them run after parsing and still need to point at the line.

use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer};

/// Byte range of a value in the desired file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub offset: usize,
    pub len: usize,
}

/// A value and its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Sp<T> {
    /// A value that was not written in the file (a default).
    pub fn unplaced(value: T) -> Self {
        Sp {
            value,
            span: Span::default(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = serde_saphyr::Spanned::<T>::deserialize(d)?;
        let span = s.referenced.span();
        Ok(Sp {
            value: s.value,
            span: Span {
                offset: span.byte_offset().unwrap_or(0) as usize,
                len: span.byte_len().unwrap_or(0) as usize,
            },
        })
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

impl<T: fmt::Display> fmt::Display for Sp<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}
