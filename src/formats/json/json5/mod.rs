//! What JSON5 (https://spec.json5.org, 1.0.0) adds to JSONC, token by token.
//!
//! No crate fits: `json5` (1.x) is a serde deserializer that recurses once
//! per nesting level with no limit, so a deep file overflows the stack, and
//! it reports lines and columns, not byte offsets; the pest-based crates
//! recurse too. JSON5 is a small grammar, so coffer reads it itself, in one
//! iterative pass like serde_json's `IgnoredAny` (see [`validate`]), and the
//! span scanner, the value parser and the renderer share the lexical rules
//! below, so that they cannot disagree about where a token ends.
//!
//! Identifier keys follow ECMAScript's IdentifierName, which JSON5 cites:
//! `$`, `_`, letters and `\uXXXX` escapes of them first; digits, combining
//! marks, connector punctuation, ZWNJ and ZWJ after. "Letter" is taken as
//! Unicode's XID_Start/XID_Continue (the `unicode-ident` tables, already a
//! dependency through proc-macro2), as the reference implementation uses
//! ID_Start/ID_Continue; the two differ only in a few compatibility
//! characters no key uses.

pub mod decode;
#[cfg(test)]
mod tests;
pub mod transcode;
pub mod validate;

/// The characters a JSON5 text may hold between tokens, other than ASCII
/// tab, LF, VT, FF, CR and space: NBSP, the BOM, the line and paragraph
/// separators, and every other space separator (Zs). Unicode's White_Space
/// is Zs plus the ASCII controls, NEL, LS and PS, so this is White_Space
/// less NEL, plus the BOM.
fn is_wide_space(c: char) -> bool {
    c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')
}

/// The length of the whitespace character at `i`, 0 if there is none.
pub fn whitespace_len(s: &str, i: usize) -> usize {
    match s.as_bytes().get(i) {
        Some(b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') => 1,
        Some(c) if *c >= 0x80 => match s[i..].chars().next() {
            Some(c) if is_wide_space(c) => c.len_utf8(),
            _ => 0,
        },
        _ => 0,
    }
}

/// The length of the whitespace character at `i` that does not end a
/// line, 0 if there is none.
pub fn inline_space_len(s: &str, i: usize) -> usize {
    match s.as_bytes().get(i) {
        Some(b'\n' | b'\r') => 0,
        Some(0xe2) if s[i..].starts_with(['\u{2028}', '\u{2029}']) => 0,
        _ => whitespace_len(s, i),
    }
}

/// The end of the line comment starting at `i`: its first line
/// terminator (LF, CR, LS or PS), which is not part of it.
pub fn line_comment_end(s: &str, i: usize) -> usize {
    let b = s.as_bytes();
    let mut j = i;
    while let Some(n) = memchr::memchr3(b'\n', b'\r', 0xe2, &b[j..]) {
        j += n;
        if b[j] != 0xe2 || s[j..].starts_with(['\u{2028}', '\u{2029}']) {
            return j;
        }
        j += 1;
    }
    b.len()
}

pub fn is_id_start(c: char) -> bool {
    c == '$' || c == '_' || unicode_ident::is_xid_start(c)
}

pub fn is_id_continue(c: char) -> bool {
    c == '$' || c == '\u{200c}' || c == '\u{200d}' || unicode_ident::is_xid_continue(c)
}

/// A key that can be written without quotes: an IdentifierName with no
/// escape in it.
pub fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(is_id_start) && chars.all(is_id_continue)
}

/// The value of four hex digits at the start of `s`.
pub(crate) fn hex4(s: &str) -> Option<u32> {
    let digits = s.get(..4)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// The end of the identifier starting at `i` (`i` itself when none starts
/// there), or the offset of an escape that is not allowed in it.
pub fn identifier_end(s: &str, i: usize) -> Result<usize, usize> {
    let mut j = i;
    while let Some(c) = s[j..].chars().next() {
        let (ch, len) = if c == '\\' {
            let escaped = s[j + 1..]
                .strip_prefix('u')
                .and_then(hex4)
                .and_then(char::from_u32);
            match escaped {
                Some(ch) => (ch, 6),
                None => return Err(j),
            }
        } else {
            (c, c.len_utf8())
        };
        let ok = if j == i {
            is_id_start(ch)
        } else {
            is_id_continue(ch)
        };
        if !ok {
            return if c == '\\' { Err(j) } else { Ok(j) };
        }
        j += len;
    }
    Ok(j)
}

/// The end of the string token whose quote is at `i`, in validated text.
pub fn string_end(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while let Some(n) = memchr::memchr2(q, b'\\', &b[j..]) {
        j += n;
        if b[j] == b'\\' {
            // An escaped multi-byte character (a line continuation by LS,
            // say) leaves `j` inside it; no quote or backslash byte can be
            // a continuation byte, so the search goes on correctly.
            j += 2;
        } else {
            return j + 1;
        }
    }
    b.len()
}

/// Whether `b` may appear in a number or a literal: JSON5 numbers
/// (`-0x1F`, `.5e+3`, `+Infinity`, `NaN`) and `true`, `false`, `null` are
/// all ASCII letters, digits, `.`, `+` and `-`.
pub fn is_scalar_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-')
}
