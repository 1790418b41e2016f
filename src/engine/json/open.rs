//! Opening a JSON, JSONC or JSON5 target: decode, validate, and say
//! exactly why not, naming the file and the position. Nothing is written to
//! a file coffer cannot open.

use serde_json::Value;

use crate::engine::opening;
use crate::error::Error;
use crate::formats::json::Flavor;
use crate::formats::json::edit::{EditError, JsonDoc};
use crate::formats::json::validate::validate;
use crate::formats::text::Text;

/// Validate and open the decoded file, or say exactly why not. Returns
/// whether the file has a byte-order mark, and the document.
pub(super) fn open(display: &str, text: Text, flavor: Flavor) -> Result<(bool, JsonDoc), Error> {
    // JSON whitespace only: a file of, say, no-break spaces is not empty
    // but invalid, and the validator says where.
    if text.body.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Err(opening::at(
            display,
            &text.body,
            0,
            "the file is empty",
            "no JSON object here",
            "write `{}` into it or delete it; coffer does not guess what an empty file should hold",
        ));
    }
    validate(&text.body, flavor)
        .map_err(|e| opening::syntax(display, &text.body, flavor.name(), e))?;
    // The decoded text becomes the document: no second copy of the file
    // (a 10 MB settings file otherwise costs 10 MB more at the peak).
    let Text { bom, body } = text;
    match JsonDoc::new_or_back(body, flavor) {
        Ok(doc) => Ok((bom, doc)),
        Err((e, body)) => Err(edit_error(display, &body, e)),
    }
}

pub(super) fn edit_error(display: &str, text: &str, e: EditError) -> Error {
    match e {
        EditError::WrongType {
            path,
            expected,
            offset,
        } => opening::at(
            display,
            text,
            offset,
            &format!("{path} is not {expected}"),
            &format!("expected {expected}"),
            &format!(
                "coffer only adds to {expected} here and never replaces what you wrote; fix {path} by hand"
            ),
        ),
        EditError::DuplicateKey { path, offset } => opening::at(
            display,
            text,
            offset,
            &format!("{path} appears more than once"),
            "again here",
            &format!(
                "JSON readers disagree about which {path} counts (most take the last); merge them into one, then run coffer again"
            ),
        ),
        EditError::Unexpected(u) => Error::Io(std::io::Error::other(format!("{display}: {u}"))),
    }
}

/// Parse one value found in the document (already validated). In JSON5,
/// `Infinity` and `NaN` read as tagged strings that equal no desired value
/// (see `formats::json::json5::transcode`): such a member is there, and
/// never equal to what is desired, so coffer rewrites it if it is coffer's
/// and reports a conflict if it is not.
pub(super) fn parse_value(text: &str, flavor: Flavor) -> Option<Value> {
    crate::formats::json::value::parse(text, flavor)
}
