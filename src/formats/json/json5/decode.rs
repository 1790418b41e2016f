//! The text a JSON5 string or identifier token stands for.
//!
//! Keys are compared decoded, so that `servers`, `"servers"`, `'servers'`
//! and `\u0073ervers` are one key, as they are to every JSON5 reader. As in
//! [`crate::formats::json::scan::decode_string`], a lone half of a
//! surrogate pair decodes to U+FFFD, which no key coffer looks for holds.

use super::hex4;

/// Decode a string token, quotes included (either kind). `None` means the
/// token is not a string.
pub fn string(token: &str) -> Option<String> {
    let q = token.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = token.strip_prefix(q)?.strip_suffix(q)?;
    if !inner.contains('\\') {
        return Some(inner.to_owned());
    }
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let mut chars = rest[i + 1..].chars();
        let esc = chars.next()?;
        rest = chars.as_str();
        match esc {
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '0' => out.push('\0'),
            'x' => {
                let v = u32::from_str_radix(rest.get(..2)?, 16).ok()?;
                rest = &rest[2..];
                out.push(char::from_u32(v)?);
            }
            'u' => {
                let (c, len) = utf16_escape(rest)?;
                rest = &rest[len..];
                out.push(c);
            }
            // A line continuation stands for nothing; CR LF is one.
            '\r' => rest = rest.strip_prefix('\n').unwrap_or(rest),
            '\n' | '\u{2028}' | '\u{2029}' => {}
            // `\'`, `\"`, `\\`, `\/` and every other character escape
            // themselves.
            other => out.push(other),
        }
    }
    out.push_str(rest);
    Some(out)
}

/// The character of the `XXXX` (after `\u`) at the start of `s`, taking
/// the low half of a surrogate pair from a following `\uXXXX`; and how
/// many bytes of `s` it used.
fn utf16_escape(s: &str) -> Option<(char, usize)> {
    let hi = hex4(s)?;
    Some(match hi {
        0xd800..=0xdbff => match s[4..].strip_prefix("\\u").and_then(hex4) {
            Some(lo @ 0xdc00..=0xdfff) => {
                let c = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                (char::from_u32(c)?, 10)
            }
            _ => (char::REPLACEMENT_CHARACTER, 4),
        },
        0xdc00..=0xdfff => (char::REPLACEMENT_CHARACTER, 4),
        c => (char::from_u32(c)?, 4),
    })
}

/// Decode an identifier token: its `\uXXXX` escapes (the only ones an
/// identifier may hold, each a whole character).
pub fn identifier(token: &str) -> Option<String> {
    if !token.contains('\\') {
        return Some(token.to_owned());
    }
    let mut out = String::with_capacity(token.len());
    let mut rest = token;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let v = rest[i + 1..].strip_prefix('u').and_then(hex4)?;
        out.push(char::from_u32(v)?);
        rest = &rest[i + 6..];
    }
    out.push_str(rest);
    Some(out)
}

/// Decode a key token: a string of either quote, or an identifier.
pub fn key(token: &str) -> Option<String> {
    if token.starts_with(['"', '\'']) {
        string(token)
    } else {
        identifier(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_of_both_quotes_and_every_escape() {
        assert_eq!(string("'a\"b'").as_deref(), Some("a\"b"));
        assert_eq!(string(r#""a\'b""#).as_deref(), Some("a'b"));
        assert_eq!(
            string(r"'\b\f\n\r\t\v\0\x41\u00e9\ud83d\ude00\/\\\q\é'").as_deref(),
            Some("\u{8}\u{c}\n\r\t\u{b}\0Aé😀/\\qé")
        );
        assert_eq!(
            string("'a\\\nb\\\r\nc\\\rd\\\u{2028}e\\\u{2029}f'").as_deref(),
            Some("abcdef")
        );
        assert_eq!(string("'\u{2028}'").as_deref(), Some("\u{2028}"));
        assert_eq!(
            string(r"'\uDFAA\uD800x'").as_deref(),
            Some("\u{fffd}\u{fffd}x")
        );
        assert_eq!(string("servers"), None);
    }

    #[test]
    fn keys_however_spelled() {
        for spelling in [
            "servers",
            "'servers'",
            "\"servers\"",
            "\\u0073ervers",
            "serv\\u0065rs",
        ] {
            assert_eq!(key(spelling).as_deref(), Some("servers"), "{spelling}");
        }
    }
}
