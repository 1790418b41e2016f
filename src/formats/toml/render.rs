//! JSON values as TOML text, and TOML values as JSON.
//!
//! New text is written in one plain style: bare keys where TOML allows
//! them, basic strings on one line (never multi-line strings, whose line
//! breaks would be content and could not follow the file's line endings),
//! nested objects as inline tables. Reading goes the other way so that the
//! engine compares meanings, not spellings: `'x'` and `"x"`, `0x10` and
//! `16`, an inline table and a `[table]` all read the same.

use serde_json::{Map, Number, Value as Json};
use toml_edit::{Item, Table, Value};

/// A key as TOML writes it: bare when it can be, quoted otherwise.
pub fn key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if bare { k.to_owned() } else { string(k) }
}

/// `[a.b]`
pub fn header(path: &[String]) -> String {
    let keys: Vec<String> = path.iter().map(|k| key(k)).collect();
    format!("[{}]", keys.join("."))
}

/// One `key = value` line per member. `Err` names the member TOML cannot
/// hold (TOML has no null, and no integer above `i64::MAX`).
pub fn body(map: &Map<String, Json>) -> Result<Vec<String>, String> {
    map.iter()
        .map(|(k, v)| {
            let mut line = format!("{} = ", key(k));
            value(v, &mut line).map_err(|why| format!("`{k}`: {why}"))?;
            Ok(line)
        })
        .collect()
}

fn value(v: &Json, out: &mut String) -> Result<(), String> {
    match v {
        Json::Null => return Err("TOML has no null".into()),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(&number(n)?),
        Json::String(s) => out.push_str(&string(s)),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                value(item, out)?;
            }
            out.push(']');
        }
        Json::Object(map) if map.is_empty() => out.push_str("{}"),
        Json::Object(map) => {
            out.push_str("{ ");
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&key(k));
                out.push_str(" = ");
                value(item, out)?;
            }
            out.push_str(" }");
        }
    }
    Ok(())
}

fn number(n: &Number) -> Result<String, String> {
    if let Some(i) = n.as_i64() {
        Ok(i.to_string())
    } else if n.is_u64() {
        Err(format!("{n} is larger than a TOML integer can be"))
    } else {
        // toml_edit writes floats as TOML wants them (`1.0`, not `1`).
        let f = n.as_f64().ok_or_else(|| format!("{n} is not a number"))?;
        Ok(Value::from(f).to_string())
    }
}

/// A basic string on one line, with every control character escaped.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn item_json(item: &Item) -> Option<Json> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(value_json(v)),
        Item::Table(t) => Some(table_json(t)),
        Item::ArrayOfTables(a) => Some(Json::Array(a.iter().map(table_json).collect())),
    }
}

pub fn table_json(t: &Table) -> Json {
    Json::Object(
        t.iter()
            .filter_map(|(k, item)| Some((k.to_owned(), item_json(item)?)))
            .collect(),
    )
}

fn value_json(v: &Value) -> Json {
    match v {
        Value::String(s) => Json::String(s.value().clone()),
        Value::Integer(i) => Json::from(*i.value()),
        // JSON has no NaN or infinity; a string keeps them comparable.
        Value::Float(f) => Number::from_f64(*f.value())
            .map_or_else(|| Json::String(f.value().to_string()), Json::Number),
        Value::Boolean(b) => Json::Bool(*b.value()),
        Value::Datetime(d) => Json::String(d.value().to_string()),
        Value::Array(a) => Json::Array(a.iter().map(value_json).collect()),
        Value::InlineTable(t) => Json::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), value_json(v)))
                .collect(),
        ),
    }
}
