//! Opening any target file: decode the text layer and turn a parser's
//! complaint into an error that names the file, line and column and says
//! what to do. Every format goes through here, so every refusal reads the
//! same; nothing is written to a file coffer cannot open.

use crate::diagnostic::Located;
use crate::error::Error;
use crate::formats::SyntaxError;
use crate::formats::text::Text;

/// The file's text, or an error at the first byte that is not UTF-8.
pub(super) fn decode(display: &str, bytes: &[u8]) -> Result<Text, Error> {
    Text::decode(bytes).map_err(|e| {
        // Show the file with U+FFFD (three bytes) for the first bad byte,
        // which sits at the same offset since everything before it is
        // valid; positions count from after a BOM, as for every error.
        let bom = if bytes.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        let lossy = String::from_utf8_lossy(&bytes[bom..]).into_owned();
        located(
            Located::new(
                display,
                &lossy,
                e.offset - bom,
                3,
                "the file is not valid UTF-8",
                "not UTF-8",
            ),
            "coffer only edits UTF-8 files; re-save it as UTF-8",
        )
    })
}

/// The file as read, decoded again only to show it in an error: keeping a
/// decoded copy of a 10 MB file for that would add 10 MB to every plan.
pub(super) fn text_for_errors(before: Option<&[u8]>) -> String {
    before
        .and_then(|b| Text::decode(b).ok())
        .map(|t| t.body)
        .unwrap_or_default()
}

/// A parser's complaint about `text` (a body of `kind`: JSON, TOML, …).
pub(super) fn syntax(display: &str, text: &str, kind: &str, e: SyntaxError) -> Error {
    let help = e
        .help
        .unwrap_or_else(|| "fix the file, then run coffer again; nothing was written".into());
    located(
        Located::new(
            display,
            text,
            e.offset,
            1,
            &format!("invalid {kind}: {}", e.message),
            &e.message,
        ),
        &help,
    )
}

/// An error at `offset` of `text` with a help line.
pub(super) fn at(
    display: &str,
    text: &str,
    offset: usize,
    what: &str,
    label: &str,
    help: &str,
) -> Error {
    located(Located::new(display, text, offset, 1, what, label), help)
}

fn located(l: Located, help: &str) -> Error {
    Error::Target(Box::new(l.with_help(Some(help.to_owned()))))
}
