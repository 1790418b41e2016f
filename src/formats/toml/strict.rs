//! Holding a document to TOML 1.0.
//!
//! toml_edit 0.25 implements TOML 1.1, which accepts a few things 1.0
//! refuses: line breaks and a trailing comma inside an inline table, the
//! `\x` and `\e` escapes, and times without seconds. coffer edits Codex's
//! `config.toml` against TOML 1.0 (the toml-test 1.0 suite is its bar), so
//! those constructs are refused here, after toml_edit has accepted the
//! text, by looking at the raw text of the values that could hold them.

use std::ops::Range;

use toml_edit::{InlineTable, Item, Key, Table, Value};

use crate::formats::SyntaxError;

const V11: &str = "this is TOML 1.1 syntax; coffer reads Codex configs as TOML 1.0";

pub fn check(root: &Table, src: &str) -> Result<(), SyntaxError> {
    table(root, src)
}

fn table(t: &Table, src: &str) -> Result<(), SyntaxError> {
    for (k, _) in t.iter() {
        let Some((key, item)) = t.get_key_value(k) else {
            continue;
        };
        key_text(key, src)?;
        match item {
            Item::Value(v) => value(v, src)?,
            Item::Table(child) => table(child, src)?,
            Item::ArrayOfTables(a) => {
                for child in a.iter() {
                    table(child, src)?;
                }
            }
            Item::None => {}
        }
    }
    Ok(())
}

fn key_text(key: &Key, src: &str) -> Result<(), SyntaxError> {
    match key.span() {
        Some(span) => escapes(&src[span.clone()], span.start),
        None => Ok(()),
    }
}

fn value(v: &Value, src: &str) -> Result<(), SyntaxError> {
    let span = v.span();
    match v {
        Value::String(_) => match span {
            Some(span) => escapes(&src[span.clone()], span.start),
            None => Ok(()),
        },
        Value::Datetime(_) => match span {
            Some(span) => seconds(&src[span.clone()], span.start),
            None => Ok(()),
        },
        Value::Array(a) => a.iter().try_for_each(|x| value(x, src)),
        Value::InlineTable(t) => inline_table(t, src),
        _ => Ok(()),
    }
}

/// An inline table stays on one line and has no trailing comma. Its keys
/// and values may hold newlines and commas of their own (a multi-line
/// array is fine), so those are masked before looking.
fn inline_table(t: &InlineTable, src: &str) -> Result<(), SyntaxError> {
    let mut holes = Vec::new();
    members(t, src, &mut holes)?;
    let Some(span) = t.span() else {
        return Ok(());
    };
    let outside = |i: usize| !holes.iter().any(|h: &Range<usize>| h.contains(&i));
    let b = src.as_bytes();
    if let Some(i) = span.clone().find(|&i| b[i] == b'\n' && outside(i)) {
        return Err(error(
            i,
            "line break inside an inline table",
            "put the inline table on one line, or write it as a [table]",
        ));
    }
    let close = span.end.saturating_sub(1);
    let last = (span.start + 1..close)
        .rev()
        .find(|&i| outside(i) && !b[i].is_ascii_whitespace());
    if let Some(i) = last
        && b[i] == b','
    {
        return Err(error(
            i,
            "trailing comma in an inline table",
            "remove the comma",
        ));
    }
    Ok(())
}

fn members(t: &InlineTable, src: &str, holes: &mut Vec<Range<usize>>) -> Result<(), SyntaxError> {
    for (k, _) in t.iter() {
        let Some((key, item)) = t.get_key_value(k) else {
            continue;
        };
        key_text(key, src)?;
        holes.extend(key.span());
        match item.as_value() {
            // `a.b = 1` inside braces: its parts are members of this table.
            Some(Value::InlineTable(child)) if child.is_dotted() => members(child, src, holes)?,
            Some(v) => {
                holes.extend(v.span());
                value(v, src)?;
            }
            None => {}
        }
    }
    Ok(())
}

/// `\x` and `\e` in a basic string (or quoted key).
fn escapes(raw: &str, at: usize) -> Result<(), SyntaxError> {
    if !raw.starts_with('"') {
        return Ok(());
    }
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'x') => return Err(error(at + i, "`\\x` escape", "write `\\u00XX` instead")),
            Some(b'e') => return Err(error(at + i, "`\\e` escape", "write `\\u001B` instead")),
            _ => i += 2,
        }
    }
    Ok(())
}

/// A time is `HH:MM:SS`: the first colon has another three places on.
fn seconds(raw: &str, at: usize) -> Result<(), SyntaxError> {
    match raw.find(':') {
        Some(c) if raw.as_bytes().get(c + 3) != Some(&b':') => Err(error(
            at + c,
            "time without seconds",
            "add the seconds, e.g. `:00`",
        )),
        _ => Ok(()),
    }
}

fn error(offset: usize, what: &str, fix: &str) -> SyntaxError {
    SyntaxError {
        offset,
        message: format!("{what}: {V11}"),
        help: Some(fix.to_owned()),
    }
}
