//! Putting coffer's tables into a TOML text and taking them out again.
//!
//! An insertion and a removal are exact inverses. A new table goes right
//! after the content of the last table of its family (`[mcp_servers.*]`),
//! or after the last non-blank line of the file, as `[EOL]` (the blank
//! separator, when the file sets its tables apart that way) + the header +
//! one line per key. Removal takes the header line to the last content line,
//! plus one blank line directly above the header. Nothing after the last
//! key is ever part of a table here, so the comment a user wrote above the
//! next table stays; a comment a user writes directly above coffer's header
//! stays too (toml_edit would have deleted it as the table's decor).
//!
//! Parents are never written: `[mcp_servers.x]` creates `mcp_servers`
//! implicitly, and it vanishes again with its last table. So there is
//! nothing to prune after a removal; [`Inserted::created`] still says what
//! did not exist before, for the provenance record.

use serde_json::{Map, Value as Json};
use toml_edit::{Item, Value};

use super::splice::{end_of_last_line, insert_lines, line_end, remove_lines, remove_regions};
use super::{TomlDoc, dotted, render};
use crate::formats::text;

/// Why an edit was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("no table path given")]
    EmptyPath,
    #[error("`{path}` is {found}, not a table")]
    NotATable {
        path: String,
        found: &'static str,
        offset: usize,
    },
    #[error(
        "`{path}` is an inline table; coffer only edits tables written as `[table]` headers \
         (rewrite it as a [table], or remove it)"
    )]
    InlineTable { path: String, offset: usize },
    #[error(
        "`{path}` is written with dotted keys; coffer only edits tables written as `[table]` \
         headers (rewrite it as [{path}], or remove it)"
    )]
    DottedKeys { path: String, offset: usize },
    #[error("`{path}` cannot be written as TOML: {why}")]
    Unrepresentable { path: String, why: String },
    #[error("the edit of `{path}` would {what}; the file is left as it is")]
    Broken { path: String, what: String },
}

/// What an insertion created.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Inserted {
    /// Prefixes of the path, down to the table itself, that did not exist.
    pub created: Vec<Vec<String>>,
}

/// What stands at a path.
enum Target {
    Missing {
        from: usize,
    },
    Header,
    /// Exists only as the parent of deeper headers.
    Implicit,
    /// A plain `key = value` line (including an inline table value).
    KeyValue {
        line: std::ops::Range<usize>,
    },
    Dotted {
        offset: usize,
    },
}

impl TomlDoc {
    /// Put the table `[path]` with `value`'s members, or make the existing
    /// one hold exactly those (its header line stays, its body is
    /// rewritten). Nested objects become inline tables.
    pub fn set_table(
        &mut self,
        path: &[String],
        value: &Map<String, Json>,
    ) -> Result<Inserted, EditError> {
        let body = render::body(value).map_err(|why| EditError::Unrepresentable {
            path: dotted(path),
            why,
        })?;
        let want = Json::Object(value.clone());
        let target = self.locate(path)?;
        let eol = text::line_ending(self.as_str());
        let mut expected = self.get(&[]).unwrap_or_default();
        set_json(&mut expected, path, want.clone());
        let created = match target {
            Target::Header if self.get(path).as_ref() == Some(&want) => {
                return Ok(Inserted::default());
            }
            Target::Header => {
                let doc = self.without_descendants(path)?;
                let i = doc.index.header(path).map(|(i, _)| i);
                let Some(i) = i else {
                    return Err(broken(path, "lose its header"));
                };
                let mut text = doc.as_str().to_owned();
                let start = line_end(&text, doc.index.headers[i].span.end);
                let end = doc.index.content_end(&text, i);
                remove_lines(&mut text, start..end);
                let at = start.min(text.len());
                insert_lines(&mut text, at, &body, eol, false);
                self.commit(path, text, &expected)?;
                return Ok(Inserted::default());
            }
            Target::Implicit => Vec::new(),
            Target::Missing { from } => (from..path.len()).map(|d| path[..=d].to_vec()).collect(),
            Target::KeyValue { .. } => return Err(self.not_a_table(path)),
            Target::Dotted { offset } => {
                return Err(EditError::DottedKeys {
                    path: dotted(path),
                    offset,
                });
            }
        };
        let doc = self.without_descendants(path)?;
        let mut lines = vec![render::header(path)];
        lines.extend(body);
        let mut text = doc.as_str().to_owned();
        let (at, blank) = doc.placement(path);
        insert_lines(&mut text, at, &lines, eol, blank);
        self.commit(path, text, &expected)?;
        Ok(Inserted { created })
    }

    /// Remove the table `[path]` (with its sub-tables) or the `key = value`
    /// line at `path`. `Ok(false)` when there is nothing there.
    pub fn remove(&mut self, path: &[String]) -> Result<bool, EditError> {
        let target = self.locate(path)?;
        let mut expected = self.get(&[]).unwrap_or_default();
        remove_json(&mut expected, path, &|p| self.is_implicit(p));
        let mut text = self.as_str().to_owned();
        match target {
            Target::Missing { .. } => return Ok(false),
            Target::Dotted { offset } => {
                return Err(EditError::DottedKeys {
                    path: dotted(path),
                    offset,
                });
            }
            Target::KeyValue { line } => remove_lines(&mut text, line),
            Target::Header | Target::Implicit => {
                let regions: Vec<_> = (self.index.headers.iter().enumerate())
                    .filter(|(_, h)| h.path.starts_with(path))
                    .map(|(i, _)| self.index.region(&text, i))
                    .collect();
                remove_regions(&mut text, regions);
            }
        }
        self.commit(path, text, &expected)?;
        Ok(true)
    }

    fn locate(&self, path: &[String]) -> Result<Target, EditError> {
        if path.is_empty() {
            return Err(EditError::EmptyPath);
        }
        let mut table = self.doc.as_table();
        for (depth, k) in path.iter().enumerate() {
            let Some((key, item)) = table.get_key_value(k) else {
                return Ok(Target::Missing { from: depth });
            };
            let offset = key.span().map_or(0, |s| s.start);
            let here = dotted(&path[..=depth]);
            let last = depth + 1 == path.len();
            match item {
                Item::Table(t) if t.is_dotted() && last => return Ok(Target::Dotted { offset }),
                Item::Table(_) if last => {
                    return Ok(match self.index.header(path) {
                        Some(_) => Target::Header,
                        None => Target::Implicit,
                    });
                }
                Item::Table(t) => table = t,
                Item::Value(v) if last && !table.is_dotted() => {
                    let (Some(k), Some(v)) = (key.span(), v.span()) else {
                        return Err(broken(path, "not find where the value is"));
                    };
                    let line =
                        text::line_start(self.as_str(), k.start)..line_end(self.as_str(), v.end);
                    return Ok(Target::KeyValue { line });
                }
                Item::Value(_) if last => return Ok(Target::Dotted { offset }),
                Item::Value(Value::InlineTable(_)) => {
                    return Err(EditError::InlineTable { path: here, offset });
                }
                other => {
                    return Err(EditError::NotATable {
                        path: here,
                        found: article(other),
                        offset,
                    });
                }
            }
        }
        Err(EditError::EmptyPath)
    }

    fn not_a_table(&self, path: &[String]) -> EditError {
        let item = self.item(path);
        let offset = self.span_of(path).unwrap_or(0);
        match item {
            Some(Item::Value(Value::InlineTable(_))) => EditError::InlineTable {
                path: dotted(path),
                offset,
            },
            other => EditError::NotATable {
                path: dotted(path),
                found: other.map_or("missing", article),
                offset,
            },
        }
    }

    fn span_of(&self, path: &[String]) -> Option<usize> {
        let (last, parent) = path.split_last()?;
        let t = self.item(parent)?.as_table()?;
        Some(t.key(last)?.span()?.start)
    }

    fn is_implicit(&self, path: &[String]) -> bool {
        matches!(self.item(path), Some(Item::Table(t)) if t.is_implicit() && !t.is_dotted())
    }

    /// This document without the sub-tables of `[path]` (headers below it).
    fn without_descendants(&self, path: &[String]) -> Result<TomlDoc, EditError> {
        let text = self.as_str();
        let regions: Vec<_> = (self.index.headers.iter().enumerate())
            .filter(|(_, h)| h.path.len() > path.len() && h.path.starts_with(path))
            .map(|(i, _)| self.index.region(text, i))
            .collect();
        if regions.is_empty() {
            return Ok(self.clone());
        }
        let mut text = text.to_owned();
        remove_regions(&mut text, regions);
        TomlDoc::parse(&text).map_err(|e| broken(path, &format!("break the file ({})", e.message)))
    }

    /// Where a new table `[path]` goes, and whether a blank line goes
    /// before it.
    fn placement(&self, path: &[String]) -> (usize, bool) {
        let text = self.as_str();
        let parent = &path[..path.len() - 1];
        let family = (self.index.headers.iter().enumerate())
            .rfind(|(_, h)| !parent.is_empty() && h.path.starts_with(parent))
            .map(|(i, _)| i);
        let at = match family {
            Some(i) => self.index.content_end(text, i),
            None => end_of_last_line(text),
        };
        (at, at > 0 && self.index.blank_between_tables(text))
    }

    /// Keep `text` only if it parses and reads as `expected`.
    fn commit(&mut self, path: &[String], text: String, expected: &Json) -> Result<(), EditError> {
        let doc = TomlDoc::parse(&text)
            .map_err(|e| broken(path, &format!("break the file ({})", e.message)))?;
        if doc.get(&[]).as_ref() != Some(expected) {
            return Err(broken(path, "change more than that table"));
        }
        *self = doc;
        Ok(())
    }
}

fn broken(path: &[String], what: &str) -> EditError {
    EditError::Broken {
        path: dotted(path),
        what: what.to_owned(),
    }
}

fn article(item: &Item) -> &'static str {
    match item {
        Item::ArrayOfTables(_) => "an array of tables",
        Item::Value(Value::Array(_)) => "an array",
        Item::Value(Value::InlineTable(_)) => "an inline table",
        Item::Value(_) => "a value",
        _ => "not a table",
    }
}

/// `doc` with `value` at `path`, creating objects on the way.
fn set_json(doc: &mut Json, path: &[String], value: Json) {
    let mut at = doc;
    for k in path {
        if !at.is_object() {
            *at = Json::Object(Map::new());
        }
        let Json::Object(map) = at else { return };
        at = map.entry(k.clone()).or_insert(Json::Null);
    }
    *at = value;
}

/// `doc` without `path`, and without the implicit parents that held only it.
fn remove_json(doc: &mut Json, path: &[String], implicit: &dyn Fn(&[String]) -> bool) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let mut at = &mut *doc;
    for k in parent {
        match at.get_mut(k) {
            Some(next) => at = next,
            None => return,
        }
    }
    if let Json::Object(map) = at {
        map.shift_remove(last);
    }
    if !parent.is_empty()
        && implicit(parent)
        && doc
            .pointer(&pointer(parent))
            .is_some_and(|v| v.as_object().is_some_and(Map::is_empty))
    {
        remove_json(doc, parent, implicit);
    }
}

fn pointer(path: &[String]) -> String {
    path.iter()
        .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
        .collect()
}
