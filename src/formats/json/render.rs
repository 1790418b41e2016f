//! Printing new values in the style of the file they go into.
//!
//! Only text coffer inserts is ever printed; everything else in the file is
//! kept as it was. New text copies the file's indentation unit, line ending,
//! spacing after colons and commas, and (in JSONC and JSON5) its
//! trailing-comma habit, so a reviewer sees the diff they would have typed
//! by hand.
//!
//! In JSON5 it also copies how the file writes keys and strings: keys bare
//! where the file leaves its keys bare (and the key is an identifier;
//! `"ctx-plugin"` stays quoted), strings in the quote the file uses, a
//! space inside the braces of one-line objects where the file has one. The
//! file decides from the keys and strings it already has (see
//! `edit::detect_style`); a file with none, or a new file, gets plain JSON,
//! which is JSON5 too. Numbers are always written as JSON writes them.

use serde_json::Value;

use super::json5::is_identifier;
use super::value::non_finite;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    pub indent: String,
    pub eol: &'static str,
    /// `": "` or `":"`.
    pub colon: &'static str,
    /// Separator between items of a one-line container: `", "` or `","`.
    pub comma: &'static str,
    /// Multi-line containers end with a comma after their last item.
    pub trailing_commas: bool,
    /// The file is JSON5: non-finite numbers read from it are written back
    /// as such, and the two settings below may differ from JSON's.
    pub json5: bool,
    /// The quote strings (and keys that need quotes) are written in: `"`
    /// or, in JSON5, `'`.
    pub quote: char,
    /// Keys that are identifiers are written without quotes (JSON5).
    pub bare_keys: bool,
    /// One-line objects have a space inside their braces: `{ a: 1 }`
    /// (JSON5, where hand-written files often do).
    pub padded: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            indent: "  ".into(),
            eol: "\n",
            colon: ": ",
            comma: ", ",
            trailing_commas: false,
            json5: false,
            quote: '"',
            bare_keys: false,
            padded: false,
        }
    }
}

/// Render `value` as it would appear on a line indented by `base`.
/// `multiline` chooses between the pretty form and a one-line form.
pub fn render(value: &Value, style: &Style, base: &str, multiline: bool) -> String {
    let mut out = String::new();
    if multiline {
        pretty(value, style, base, &mut out);
    } else {
        inline(value, style, &mut out);
    }
    out
}

/// Render an object member `"key": value`.
pub fn render_member(
    key: &str,
    value: &Value,
    style: &Style,
    base: &str,
    multiline: bool,
) -> String {
    let mut out = render_key(key, style);
    out.push_str(style.colon);
    out.push_str(&render(value, style, base, multiline));
    out
}

/// A key as the file writes its keys.
fn render_key(key: &str, style: &Style) -> String {
    if style.bare_keys && is_identifier(key) {
        key.to_owned()
    } else {
        string(key, style.quote)
    }
}

fn scalar(v: &Value, style: &Style) -> String {
    match v {
        Value::String(s) => match non_finite(v) {
            Some(token) if style.json5 => token.to_owned(),
            _ => string(s, style.quote),
        },
        other => serde_json::to_string(other).expect("a JSON value always serialises"),
    }
}

/// A string literal in quote `q`: JSON's escapes, with the quote that is
/// not the delimiter left as it is.
fn string(s: &str, q: char) -> String {
    let json = serde_json::to_string(s).expect("a string always serialises");
    if q == '"' {
        return json;
    }
    let inner = &json[1..json.len() - 1];
    let mut out = String::with_capacity(json.len());
    out.push('\'');
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('"') => out.push('"'),
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            '\'' => out.push_str("\\'"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Short arrays of scalars read best on one line, as people write them
/// (`"args": ["-y", "server"]`).
const INLINE_ARRAY_WIDTH: usize = 60;

fn pretty(value: &Value, style: &Style, base: &str, out: &mut String) {
    if let Value::Array(a) = value
        && a.iter().all(|v| !v.is_array() && !v.is_object())
    {
        let mut one_line = String::new();
        inline(value, style, &mut one_line);
        if one_line.len() <= INLINE_ARRAY_WIDTH {
            out.push_str(&one_line);
            return;
        }
    }
    let inner = format!("{base}{}", style.indent);
    let (open, close, items): (char, char, Vec<(Option<&str>, &Value)>) = match value {
        Value::Object(m) if !m.is_empty() => (
            '{',
            '}',
            m.iter().map(|(k, v)| (Some(k.as_str()), v)).collect(),
        ),
        Value::Array(a) if !a.is_empty() => ('[', ']', a.iter().map(|v| (None, v)).collect()),
        other => {
            inline(other, style, out);
            return;
        }
    };
    out.push(open);
    let n = items.len();
    for (i, (key, v)) in items.into_iter().enumerate() {
        out.push_str(style.eol);
        out.push_str(&inner);
        if let Some(k) = key {
            out.push_str(&render_key(k, style));
            out.push_str(style.colon);
        }
        pretty(v, style, &inner, out);
        if i + 1 < n || style.trailing_commas {
            out.push(',');
        }
    }
    out.push_str(style.eol);
    out.push_str(base);
    out.push(close);
}

fn inline(value: &Value, style: &Style, out: &mut String) {
    match value {
        Value::Object(m) => {
            let pad = if style.padded && !m.is_empty() {
                " "
            } else {
                ""
            };
            out.push('{');
            out.push_str(pad);
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(style.comma);
                }
                out.push_str(&render_key(k, style));
                out.push_str(style.colon);
                inline(v, style, out);
            }
            out.push_str(pad);
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(style.comma);
                }
                inline(v, style, out);
            }
            out.push(']');
        }
        other => out.push_str(&scalar(other, style)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pretty_follows_indent_and_eol() {
        let style = Style {
            indent: "\t".into(),
            eol: "\r\n",
            ..Style::default()
        };
        let v = json!({"hooks": [{"command": "c"}], "e": {}});
        assert_eq!(
            render(&v, &style, "\t", true),
            "{\r\n\t\t\"hooks\": [\r\n\t\t\t{\r\n\t\t\t\t\"command\": \"c\"\r\n\t\t\t}\r\n\t\t],\r\n\t\t\"e\": {}\r\n\t}"
        );
    }

    #[test]
    fn inline_follows_spacing() {
        let style = Style {
            colon: ":",
            comma: ",",
            ..Style::default()
        };
        assert_eq!(
            render(&json!({"a": [1, "é"]}), &style, "", false),
            "{\"a\":[1,\"é\"]}"
        );
    }

    #[test]
    fn trailing_commas_when_the_file_uses_them() {
        let style = Style {
            trailing_commas: true,
            ..Style::default()
        };
        assert_eq!(
            render(&json!({"a": 1}), &style, "", true),
            "{\n  \"a\": 1,\n}"
        );
    }

    #[test]
    fn json5_keys_and_quotes_follow_the_file() {
        let style = Style {
            json5: true,
            quote: '\'',
            bare_keys: true,
            ..Style::default()
        };
        assert_eq!(
            render_member(
                "ctx",
                &json!({"command": "it's \"x\"", "ctx-plugin": ["\\", "\n"], "$a_1": 1}),
                &style,
                "",
                false
            ),
            r#"ctx: {command: 'it\'s "x"', 'ctx-plugin': ['\\', '\n'], $a_1: 1}"#
        );
        let inf = super::super::value::parse("Infinity", super::super::Flavor::Json5).unwrap();
        assert_eq!(render(&inf, &style, "", false), "Infinity");
        let json = Style::default();
        assert_eq!(render(&inf, &json, "", false), r#""\u0000json5:Infinity""#);
        assert_eq!(
            render_member("a b", &json!("é"), &json, "", false),
            r#""a b": "é""#
        );
    }
}
