//! Opening a JSON or JSONC target: decode, validate, and say exactly why
//! not, naming the file and the position. Nothing is written to a file
//! coffer cannot open.

use serde_json::Value;

use crate::diagnostic::Located;
use crate::error::Error;
use crate::formats::json::edit::{EditError, JsonDoc};
use crate::formats::json::validate::{blank_comments_and_trailing_commas, validate};
use crate::formats::text::Text;

/// Decode, validate and open the file, or say exactly why not.
pub(super) fn open(display: &str, bytes: &[u8], jsonc: bool) -> Result<(bool, JsonDoc), Error> {
    let text = Text::decode(bytes).map_err(|e| {
        let lossy = String::from_utf8_lossy(&bytes[..e.offset]).into_owned();
        Error::Target(Box::new(
            Located::new(
                display,
                &lossy,
                lossy.len(),
                0,
                "the file is not valid UTF-8",
                "invalid byte here",
            )
            .with_help("coffer only edits UTF-8 files; re-save it as UTF-8".to_owned()),
        ))
    })?;
    let kind = if jsonc { "JSONC" } else { "JSON" };
    if text.body.trim().is_empty() {
        return Err(Error::Target(Box::new(
            Located::new(display, &text.body, 0, 0, "the file is empty", "no JSON object here").with_help(Some(
                "write `{}` into it or delete it; coffer does not guess what an empty file should hold".into(),
            )),
        )));
    }
    validate(&text.body, jsonc).map_err(|e| {
        Error::Target(Box::new(
            Located::new(
                display,
                &text.body,
                e.offset,
                1,
                &format!("invalid {kind}: {}", e.message),
                &e.message,
            )
            .with_help(e.help.or_else(|| {
                Some("fix the file, then run coffer again; nothing was written".into())
            })),
        ))
    })?;
    let doc =
        JsonDoc::new(text.body.clone(), jsonc).map_err(|e| edit_error(display, &text.body, e))?;
    Ok((text.bom, doc))
}

pub(super) fn doc_text_for_errors(before: Option<&[u8]>) -> String {
    before
        .and_then(|b| Text::decode(b).ok())
        .map(|t| t.body)
        .unwrap_or_default()
}

pub(super) fn edit_error(display: &str, text: &str, e: EditError) -> Error {
    match e {
        EditError::WrongType {
            path,
            expected,
            offset,
        } => Error::Target(Box::new(
            Located::new(display, text, offset, 1, &format!("{path} is not {expected}"), &format!("expected {expected}"))
                .with_help(Some(format!(
                    "coffer only adds to {expected} here and never replaces what you wrote; fix {path} by hand"
                ))),
        )),
        EditError::Unexpected(u) => Error::Io(std::io::Error::other(format!("{display}: {u}"))),
    }
}

/// Parse one value found in the document (already validated).
pub(super) fn parse_value(text: &str, jsonc: bool) -> Option<Value> {
    if jsonc {
        serde_json::from_str(&blank_comments_and_trailing_commas(text).ok()?).ok()
    } else {
        serde_json::from_str(text).ok()
    }
}
