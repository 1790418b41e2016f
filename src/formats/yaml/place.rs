//! Where coffer's text goes in a YAML document, and what it looks like.
//!
//! Each function here returns the new text; `edit` checks it by parsing
//! it again before keeping it. Block insertions and removals are whole
//! lines ([`layout`]), and each removal takes exactly what the insertion
//! added: the entry's lines from its key to its last content (a trailing
//! comment on that line included), plus the blank line above it when the
//! same rule that made the insertion add one says so. Comments after the
//! last content line belong to what follows and stay, so does a comment a
//! user writes directly above coffer's key. No blank line is added (or
//! taken) right after a block scalar that keeps a final line feed: `|+`
//! would read it as one more line of its value.

use serde_json::{Map, Value as Json};

use super::edit::{EditError, Expanded, Parent, broken};
use super::layout::{
    Style, after_line, before_break, blank_between, colon_end, end_of_last_line, indent_before,
    insert_lines, is_blank, is_comment, line_above, line_end, past_nested_comments, remove_lines,
};
use super::tree::{Entry, Kind, Node};
use super::{YamlDoc, dotted, render};
use crate::formats::text;

/// The text with `value` at `path`, where `path[..depth]` is `parent` and
/// the rest is missing; and the empty value expanded to make room, if any.
pub fn insert(
    doc: &YamlDoc,
    path: &[String],
    depth: usize,
    parent: Parent,
    value: &Json,
) -> Result<(String, Option<Expanded>), EditError> {
    let style = Style::of(&doc.text, doc.tree.root.as_ref());
    let unrepresentable = |why| EditError::Unrepresentable {
        path: dotted(path),
        why,
    };
    let nested = path[depth + 1..].iter().rev().fold(value.clone(), |v, k| {
        Json::Object(Map::from_iter([(k.clone(), v)]))
    });
    let name = &path[depth];
    let mut text = doc.text.clone();
    let mut expanded = None;
    match parent {
        Parent::Root => {
            let key = render::key(name, false).map_err(unrepresentable)?;
            let lines = render::entry(&key, &nested, "", &style).map_err(unrepresentable)?;
            let limit = doc.tree.doc_end.unwrap_or(text.len());
            let at = end_of_last_line(&text[..limit]);
            // A new key right under a comment would read as its subject.
            let blank = at > 0 && is_comment(&text[text::line_start(&text, at - 1)..at]);
            insert_lines(&mut text, at, &lines, style.eol, blank);
        }
        Parent::Map(map) => {
            let Kind::Map { flow, entries } = &map.kind else {
                return Err(broken(path, "not find the mapping"));
            };
            if *flow {
                let key = render::key(name, true).map_err(unrepresentable)?;
                let item = format!(
                    "{key}: {}",
                    render::inline(&nested, true).map_err(unrepresentable)?
                );
                let (at, s) = match entries.last() {
                    None => (map.span.start + 1, item),
                    Some(last) => {
                        let k = last.key_node.start;
                        if text::starts_line(&text, k)
                            && text::line_start(&text, k) > map.span.start
                        {
                            let indent = text::line_indent(&text, k);
                            (last.end(), format!(",{}{indent}{item}", style.eol))
                        } else {
                            (last.end(), format!(", {item}"))
                        }
                    }
                };
                text.insert_str(at, &s);
            } else {
                let first = entries
                    .first()
                    .ok_or_else(|| broken(path, "not find the mapping"))?;
                let indent = own_line(doc, path, first)?;
                let key = render::key(name, false).map_err(unrepresentable)?;
                let lines =
                    render::entry(&key, &nested, indent, &style).map_err(unrepresentable)?;
                let after = after_line(&text, map.span.end);
                let at = past_nested_comments(&text, after, indent.len());
                let blank =
                    blank_between(&text, entries.iter()) && !(map.ends_open() && at == after);
                insert_lines(&mut text, at, &lines, style.eol, blank);
            }
        }
        Parent::Empty(e) => {
            let indent = own_line(doc, path, e)?;
            let colon =
                colon_end(&text, e).ok_or_else(|| broken(path, "not find the key's colon"))?;
            if !e.value.is_implicit() {
                let end = e.value.span.end;
                expanded = Some(Expanded {
                    path: path[..depth].to_vec(),
                    text: text[colon..end].to_owned(),
                });
                text.replace_range(colon..end, "");
            }
            let inner = format!("{indent}{}", style.unit);
            let key = render::key(name, false).map_err(unrepresentable)?;
            let lines = render::entry(&key, &nested, &inner, &style).map_err(unrepresentable)?;
            let at = past_nested_comments(&text, line_end(&text, colon), inner.len());
            insert_lines(&mut text, at, &lines, style.eol, false);
        }
    }
    Ok((text, expanded))
}

/// The text with the value of entry `index` of `map` replaced by `value`.
/// A value on the key's line (a scalar, a flow collection) is replaced in
/// place, keeping a trailing comment, and a flow collection stays flow; a
/// block value is written anew from the key.
pub fn replace(
    doc: &YamlDoc,
    path: &[String],
    map: &Node,
    index: usize,
    value: &Json,
) -> Result<String, EditError> {
    let Kind::Map { flow, entries } = &map.kind else {
        return Err(broken(path, "not find the mapping"));
    };
    let unrepresentable = |why| EditError::Unrepresentable {
        path: dotted(path),
        why,
    };
    let e = &entries[index];
    let old = &e.value;
    let mut text = doc.text.clone();
    let in_line = match &old.kind {
        Kind::Scalar {
            block, implicit, ..
        } => !block && !implicit,
        Kind::Map { flow, .. } | Kind::Seq { flow, .. } => *flow,
    };
    let old_flow_collection = in_line && !matches!(old.kind, Kind::Scalar { .. });
    if *flow || (in_line && (render::is_inline(value) || old_flow_collection)) {
        if old.is_implicit() {
            return Err(EditError::Unsupported {
                path: dotted(path),
                what: "an empty value inside a flow mapping",
                offset: e.key_node.start,
            });
        }
        let s = render::inline(value, *flow).map_err(unrepresentable)?;
        text.replace_range(old.start..old.span.end, &s);
        return Ok(text);
    }
    let style = Style::of(&doc.text, doc.tree.root.as_ref());
    let indent = own_line(doc, path, e)?;
    let colon = colon_end(&text, e).ok_or_else(|| broken(path, "not find the key's colon"))?;
    if old.is_implicit() {
        if render::is_inline(value) {
            let s = render::inline(value, false).map_err(unrepresentable)?;
            text.insert_str(colon, &format!(" {s}"));
        } else {
            let lines = render::value_lines(value, indent, &style).map_err(unrepresentable)?;
            let at = line_end(&text, colon);
            insert_lines(&mut text, at, &lines, style.eol, false);
        }
        return Ok(text);
    }
    let key = text[e.key_node.start..e.key_node.span.end].to_owned();
    let lines = render::entry(&key, value, indent, &style).map_err(unrepresentable)?;
    let end = before_break(&text, e.end().max(colon));
    text.replace_range(
        e.key_node.start..end,
        &lines.join(style.eol)[indent.len()..],
    );
    Ok(text)
}

/// The text without entry `index` of `map`.
pub fn remove(
    doc: &YamlDoc,
    path: &[String],
    map: &Node,
    index: usize,
) -> Result<String, EditError> {
    let Kind::Map { flow, entries } = &map.kind else {
        return Err(broken(path, "not find the mapping"));
    };
    let mut text = doc.text.clone();
    let e = &entries[index];
    if *flow {
        // Inverse of the insertion: `, key: value` after the entry before.
        let range = match (index.checked_sub(1), entries.get(index + 1)) {
            (Some(before), _) => entries[before].end()..e.end(),
            (None, Some(next)) => e.key_node.start..next.key_node.start,
            (None, None) => e.key_node.start..e.end(),
        };
        text.replace_range(range, "");
        return Ok(text);
    }
    own_line(doc, path, e)?;
    let mut start = text::line_start(&text, e.key_node.start);
    let end = after_line(&text, e.end());
    let others: Vec<&Entry> = (entries.iter().enumerate())
        .filter(|(i, _)| *i != index)
        .map(|(_, e)| e)
        .collect();
    // A blank line in the value above (a `|+` scalar's), or right after a
    // block scalar that could take it in, is not a separator: insertion
    // adds none there either.
    let prev = index.checked_sub(1).map(|i| &entries[i]);
    let blank_above = line_above(&text, start).filter(|l| {
        is_blank(&text[l.clone()])
            && prev.is_none_or(|p| {
                l.start >= p.end()
                    && !(p.value.ends_open() && after_line(&text, p.end()) == l.start)
            })
    });
    if let Some(above) = blank_above {
        let root = doc.tree.root.as_ref().is_some_and(|r| std::ptr::eq(r, map));
        let separated = if others.is_empty() {
            root && line_above(&text, above.start).is_some_and(|l| is_comment(&text[l]))
        } else {
            blank_between(&text, others.into_iter())
        };
        if separated {
            start = above.start;
        }
    }
    remove_lines(&mut text, start..end);
    Ok(text)
}

/// Whether entry `index` holds nothing that pruning would lose: `key:`
/// with no value and no comment, or an empty `{}` in a flow mapping.
pub fn is_empty_member(doc: &YamlDoc, map: &Node, index: usize) -> bool {
    let Kind::Map { entries, .. } = &map.kind else {
        return false;
    };
    let e = &entries[index];
    match &e.value.kind {
        Kind::Scalar { implicit: true, .. } => {
            colon_end(&doc.text, e).is_some_and(|c| is_blank(&doc.text[c..line_end(&doc.text, c)]))
        }
        Kind::Map {
            flow: true,
            entries,
        } => {
            entries.is_empty() && is_blank(&doc.text[e.value.span.start + 1..e.value.span.end - 1])
        }
        _ => false,
    }
}

/// The text with an expanded mapping's old value back, if it is empty
/// (`key:` with nothing after it) and where coffer left it.
pub fn restore(doc: &YamlDoc, e: &Expanded) -> Option<String> {
    let Ok(super::edit::Found::Entry { map, index }) = doc.locate(&e.path) else {
        return None;
    };
    let Kind::Map {
        flow: false,
        entries,
    } = &map.kind
    else {
        return None;
    };
    let entry = &entries[index];
    if !entry.value.is_implicit() {
        return None;
    }
    let colon = colon_end(&doc.text, entry)?;
    let mut text = doc.text.clone();
    text.insert_str(colon, &e.text);
    Some(text)
}

/// The indentation of a block entry's key, which must start its line after
/// spaces alone and be followed by its `:` there (not `? key`, `- key:`, a
/// tab-indented key).
fn own_line<'a>(doc: &'a YamlDoc, path: &[String], e: &Entry) -> Result<&'a str, EditError> {
    let start = e.key_node.start;
    indent_before(&doc.text, start)
        .filter(|_| !e.key_node.is_implicit() && colon_end(&doc.text, e).is_some())
        .ok_or(EditError::Unsupported {
            path: dotted(path),
            what: "an entry whose key does not start its line after spaces (`? key`, `- key:`, a tab)",
            offset: start,
        })
}
