//! A span scanner for JSON, JSONC and JSON5 text that has already been
//! validated.
//!
//! coffer edits users' files as text, so it needs byte ranges, not values.
//! Building a full tree of a large settings file costs hundreds of megabytes
//! (DESIGN.md, "Formats"); this scanner instead lists the members of one
//! container at a time and skips every other value by matching brackets, so
//! reaching `hooks.SessionStart` in a 10 MB file touches each byte at most
//! once and allocates only the path it walks. It is iterative, so deep nesting
//! cannot overflow the stack.
//!
//! In JSON5 a key may be an identifier or a single-quoted string, a value a
//! single-quoted string or a number JSON lacks, and more characters are
//! whitespace; the scanner reads those with the lexical rules of
//! [`super::json5`], and gives every key decoded, so that `servers`,
//! `'servers'` and `"servers"` are found alike.

use std::ops::Range;

use super::Flavor;
use super::json5;

/// One member of an object or element of an array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// For object members, the decoded key.
    pub key: Option<String>,
    /// First byte of the item: the key's first byte (its quote, or the
    /// first letter of an identifier) for members, the value otherwise.
    pub start: usize,
    pub value: Range<usize>,
    /// The comma that follows the item, if any (a trailing comma for the last).
    pub comma: Option<usize>,
}

impl Item {
    /// End of the item including its comma.
    pub fn end_with_comma(&self) -> usize {
        self.comma.map_or(self.value.end, |c| c + 1)
    }
}

/// An object or array with its brackets and items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    pub open: usize,
    /// Offset of the closing bracket.
    pub close: usize,
    pub is_object: bool,
    pub items: Vec<Item>,
}

impl Container {
    pub fn member(&self, key: &str) -> Option<(usize, &Item)> {
        self.items
            .iter()
            .enumerate()
            .find(|(_, it)| it.key.as_deref() == Some(key))
    }
}

/// Structure that the scanner did not expect in text that was supposed to be
/// valid; it means a bug in coffer, never a user error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("internal error: unexpected JSON structure at byte {0}")]
pub struct Unexpected(pub usize);

#[derive(Clone, Copy)]
pub struct Scanner<'a> {
    s: &'a str,
    b: &'a [u8],
    flavor: Flavor,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str, flavor: impl Into<Flavor>) -> Self {
        Scanner {
            s: text,
            b: text.as_bytes(),
            flavor: flavor.into(),
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    /// The length of the whitespace character at `i` (0 if none).
    fn space_len(&self, i: usize) -> usize {
        match self.at(i) {
            b' ' | b'\t' | b'\n' | b'\r' => 1,
            _ if self.flavor.is_json5() => json5::whitespace_len(self.s, i),
            _ => 0,
        }
    }

    /// Skip whitespace (no comments).
    pub fn skip_whitespace(&self, mut i: usize) -> usize {
        loop {
            match self.space_len(i) {
                0 => return i,
                n => i += n,
            }
        }
    }

    /// The length of the whitespace character at `i` that does not end a
    /// line (0 if none).
    pub fn inline_space_len(&self, i: usize) -> usize {
        match self.at(i) {
            b' ' | b'\t' => 1,
            _ if self.flavor.is_json5() => json5::inline_space_len(self.s, i),
            _ => 0,
        }
    }

    /// Skip whitespace and, in JSONC and JSON5, comments.
    pub fn skip_trivia(&self, mut i: usize) -> usize {
        loop {
            i = self.skip_whitespace(i);
            match self.at(i) {
                b'/' if self.flavor.lenient() => match self.comment_end(i) {
                    Some(end) => i = end,
                    None => return i,
                },
                _ => return i,
            }
        }
    }

    /// If a comment starts at `i`, the offset just past it. A line comment
    /// ends before its line break, `\r` included: the `\r` of a CRLF belongs
    /// to the line break, not to the comment (JavaScript, and so every JSONC
    /// reader, ends a line comment at either byte; JSON5 at LS and PS too).
    pub fn comment_end(&self, i: usize) -> Option<usize> {
        match self.at(i + 1) {
            b'/' if self.flavor.is_json5() => Some(json5::line_comment_end(self.s, i)),
            b'/' => Some(line_comment_end(self.b, i)),
            b'*' => Some(
                memchr::memmem::find(&self.b[i + 2..], b"*/")
                    .map_or(self.b.len(), |n| i + 2 + n + 2),
            ),
            _ => None,
        }
    }

    fn is_quote(&self, c: u8) -> bool {
        c == b'"' || (c == b'\'' && self.flavor.is_json5())
    }

    /// The end of the value that starts at `i`.
    pub fn skip_value(&self, i: usize) -> usize {
        match self.at(i) {
            c if self.is_quote(c) => json5::string_end(self.b, i),
            open @ (b'{' | b'[') if !self.flavor.lenient() => self.skip_brackets(i, open),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut j = i;
                while j < self.b.len() {
                    match self.b[j] {
                        c if self.is_quote(c) => {
                            j = json5::string_end(self.b, j);
                            continue;
                        }
                        b'/' if self.flavor.lenient() => {
                            if let Some(end) = self.comment_end(j) {
                                j = end;
                                continue;
                            }
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return j + 1;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                self.b.len()
            }
            // A number or literal, in any flavour; the validator made sure
            // that nothing of the kind touches it.
            _ => {
                let mut j = i;
                while j < self.b.len() && json5::is_scalar_byte(self.b[j]) {
                    j += 1;
                }
                j
            }
        }
    }

    /// The end of the object or array at `i` in strict JSON. Its inside is
    /// valid, so brackets of the other kind are balanced there and only
    /// strings and this kind need looking at: memchr3 jumps between them,
    /// several times faster than a byte loop over indentation and
    /// numbers (the scan is most of a plan on a 10 MB settings file).
    fn skip_brackets(&self, i: usize, open: u8) -> usize {
        let close = if open == b'{' { b'}' } else { b']' };
        let mut depth = 0usize;
        let mut j = i;
        while let Some(n) = memchr::memchr3(b'"', open, close, &self.b[j..]) {
            j += n;
            match self.b[j] {
                b'"' => {
                    j = json5::string_end(self.b, j);
                    continue;
                }
                c if c == open => depth += 1,
                _ => {
                    depth -= 1;
                    if depth == 0 {
                        return j + 1;
                    }
                }
            }
            j += 1;
        }
        self.b.len()
    }

    /// The key starting at `i`, decoded, and where it ends.
    fn key(&self, i: usize) -> Result<(String, usize), Unexpected> {
        let c = self.at(i);
        let end = if self.is_quote(c) {
            json5::string_end(self.b, i)
        } else if self.flavor.is_json5() {
            json5::identifier_end(self.s, i).map_err(Unexpected)?
        } else {
            i
        };
        if end == i {
            return Err(Unexpected(i));
        }
        let key = if self.flavor.is_json5() {
            json5::decode::key(&self.s[i..end])
        } else {
            decode_string(&self.b[i..end])
        };
        Ok((key.ok_or(Unexpected(i))?, end))
    }

    /// The first value of the document.
    pub fn root(&self) -> usize {
        self.skip_trivia(0)
    }

    /// The container whose opening bracket is at `open`.
    pub fn container(&self, open: usize) -> Result<Container, Unexpected> {
        let is_object = match self.at(open) {
            b'{' => true,
            b'[' => false,
            _ => return Err(Unexpected(open)),
        };
        let close_byte = if is_object { b'}' } else { b']' };
        let mut items = Vec::new();
        let mut i = self.skip_trivia(open + 1);
        loop {
            if self.at(i) == close_byte {
                return Ok(Container {
                    open,
                    close: i,
                    is_object,
                    items,
                });
            }
            let start = i;
            let key = if is_object {
                let (key, end) = self.key(i)?;
                i = self.skip_trivia(end);
                if self.at(i) != b':' {
                    return Err(Unexpected(i));
                }
                i = self.skip_trivia(i + 1);
                Some(key)
            } else {
                None
            };
            let vstart = i;
            let vend = self.skip_value(i);
            if vend == vstart {
                return Err(Unexpected(i));
            }
            i = self.skip_trivia(vend);
            let comma = if self.at(i) == b',' {
                let c = i;
                i = self.skip_trivia(i + 1);
                Some(c)
            } else if self.at(i) == close_byte {
                None
            } else {
                return Err(Unexpected(i));
            };
            items.push(Item {
                key,
                start,
                value: vstart..vend,
                comma,
            });
        }
    }
}

/// The end of the line comment starting at `i`: its first `\r` or `\n`.
pub fn line_comment_end(b: &[u8], i: usize) -> usize {
    memchr::memchr2(b'\r', b'\n', &b[i..]).map_or(b.len(), |n| i + n)
}

/// Decode a JSON string token (quotes included).
///
/// JSON lets a `\u` escape name half of a surrogate pair on its own
/// (`"\uDFAA"`); agents' parsers accept that, so coffer must too. Such a
/// key cannot be text of a Rust `String`, so each lone half decodes to
/// U+FFFD: no key coffer looks for contains one, so it can never match by
/// mistake. `None` means the token is not a string at all.
pub fn decode_string(token: &[u8]) -> Option<String> {
    let inner = token.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let inner = std::str::from_utf8(inner).ok()?;
    if !inner.contains('\\') {
        return Some(inner.to_owned());
    }
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let esc = rest.as_bytes().get(i + 1).copied()?;
        rest = &rest[i + 2..];
        out.push(match esc {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = json5::hex4(rest)?;
                rest = &rest[4..];
                match hi {
                    0xD800..=0xDBFF => match rest.strip_prefix("\\u").and_then(json5::hex4) {
                        Some(lo @ 0xDC00..=0xDFFF) => {
                            rest = &rest[6..];
                            let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                            char::from_u32(c)?
                        }
                        _ => char::REPLACEMENT_CHARACTER,
                    },
                    0xDC00..=0xDFFF => char::REPLACEMENT_CHARACTER,
                    c => char::from_u32(c)?,
                }
            }
            _ => return None,
        });
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_members_with_spans() {
        let text = r#"{ "a": [1, {"x": "}"}], "b\"c": 2 }"#;
        let s = Scanner::new(text, false);
        let c = s.container(s.root()).unwrap();
        assert_eq!(c.items.len(), 2);
        assert_eq!(c.items[0].key.as_deref(), Some("a"));
        assert_eq!(&text[c.items[0].value.clone()], r#"[1, {"x": "}"}]"#);
        assert_eq!(c.items[1].key.as_deref(), Some("b\"c"));
        assert_eq!(c.items[1].comma, None);
        assert_eq!(&text[c.close..], "}");
    }

    #[test]
    fn jsonc_comments_and_trailing_commas() {
        let text = "{\n // c }\n \"a\": /* ] */ 1,\n}";
        let s = Scanner::new(text, true);
        let c = s.container(s.root()).unwrap();
        assert_eq!(c.items.len(), 1);
        assert_eq!(&text[c.items[0].value.clone()], "1");
        assert!(c.items[0].comma.is_some());
    }

    #[test]
    fn a_line_comment_ends_before_the_cr_of_crlf() {
        let text = "{ // c\r\n}";
        let s = Scanner::new(text, true);
        assert_eq!(s.comment_end(2), Some(6));
        assert_eq!(s.skip_trivia(1), text.len() - 1);
    }

    #[test]
    fn keys_decode_every_escape_and_lone_surrogates() {
        let d = |t: &str| decode_string(t.as_bytes());
        assert_eq!(d(r#""hooks""#).as_deref(), Some("hooks"));
        assert_eq!(
            d(r#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#).as_deref(),
            Some("a\"\\/\u{8}\u{c}\n\r\té😀")
        );
        // Lone halves of a surrogate pair, in every position.
        assert_eq!(d(r#""\uDFAA""#).as_deref(), Some("\u{fffd}"));
        assert_eq!(d(r#""\uDADAx""#).as_deref(), Some("\u{fffd}x"));
        assert_eq!(d(r#""\uD888\u1234""#).as_deref(), Some("\u{fffd}\u{1234}"));
        assert_eq!(d(r#""\uDd1e\uD834""#).as_deref(), Some("\u{fffd}\u{fffd}"));
        assert_eq!(d("1"), None);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let text = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        let s = Scanner::new(&text, false);
        assert_eq!(s.skip_value(0), text.len());
    }
}
