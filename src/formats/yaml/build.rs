//! Building the [`Tree`] from granit-parser's events, and the refusals
//! that keep a document's meaning plain.
//!
//! Refused, each with the byte offset of the construct and a help line:
//! a second document (Hermes reads one), aliases (`*a`: one edit would
//! change two places, and expanding them is how alias bombs work), merge
//! keys (`<<`: PyYAML merges, YAML 1.2 does not, so the file has no single
//! meaning), tags outside the core schema (`!custom`, `!!binary`: their
//! meaning belongs to an application), a core tag on text of another type
//! (`!!int x`), collections or nothing as keys, and duplicate keys. Anchors alone are
//! harmless and kept. Nesting is bounded by the parser's limits
//! ([`MAX_DEPTH`]), so hostile depth is an error, never a stack overflow;
//! the walk here keeps its own stack rather than recursing.

use std::collections::HashSet;
use std::ops::Range;

use granit_parser::{Event, Parser, ScalarStyle, Span, StructureStyle, Tag};
use serde_json::Value as Json;

use super::tree::{Entry, Kind, Node, Tree};
use super::{layout, scalar};
use crate::formats::SyntaxError;

/// Deepest nesting of collections accepted (Hermes' config needs 4).
pub const MAX_DEPTH: usize = 64;

enum Frame {
    Map {
        start: usize,
        span_start: usize,
        flow: bool,
        entries: Vec<Entry>,
        key: Option<(String, Node)>,
        seen: HashSet<String>,
    },
    Seq {
        start: usize,
        span_start: usize,
        flow: bool,
        items: Vec<Node>,
    },
}

pub fn build(text: &str) -> Result<Tree, SyntaxError> {
    let options = granit_parser::options! {
        flow_nesting_limit: MAX_DEPTH,
        block_nesting_limit: MAX_DEPTH,
        // As libyaml and PyYAML read a block scalar on the last line of a
        // file without a newline: without a line feed.
        block_scalar_eof_without_line_feed: true,
        emit_comments: false,
    };
    let mut tree = Tree::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut documents = 0;
    for next in Parser::new_from_str_with_options(text, options) {
        let (event, span) = next.map_err(|e| SyntaxError {
            offset: e.marker().byte_offset().unwrap_or(0).min(text.len()),
            message: e.info(),
            help: None,
        })?;
        let range = span.byte_range().unwrap_or(0..0);
        match event {
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(refuse(
                        range.start,
                        "a second YAML document in the file",
                        "coffer edits files that hold one document, as Hermes reads them",
                    ));
                }
            }
            Event::DocumentEnd if !range.is_empty() => tree.doc_end = Some(range.start),
            Event::Alias(_) | Event::UnresolvedAlias(_) => {
                return Err(refuse(
                    range.start,
                    "an alias",
                    "coffer edits YAML as text and an alias makes one place mean two; write the value out",
                ));
            }
            Event::Scalar(value, style, _, tag) => {
                let node = scalar_node(text, &value, style, tag.as_deref(), &span, range)?;
                attach(text, &mut stack, &mut tree, node)?;
            }
            Event::MappingStart(style, _, ref tag) | Event::SequenceStart(style, _, ref tag) => {
                let map = matches!(event, Event::MappingStart(..));
                if let Some(Frame::Map { key: None, .. }) = stack.last() {
                    return Err(refuse(
                        range.start,
                        "a collection used as a key",
                        "use a plain string as the key",
                    ));
                }
                let start = tag_start(&span).unwrap_or(range.start);
                check_tag(tag.as_deref(), if map { "map" } else { "seq" }, start)?;
                let flow = style == StructureStyle::Flow;
                stack.push(if map {
                    Frame::Map {
                        start,
                        span_start: range.start,
                        flow,
                        entries: Vec::new(),
                        key: None,
                        seen: HashSet::new(),
                    }
                } else {
                    Frame::Seq {
                        start,
                        span_start: range.start,
                        flow,
                        items: Vec::new(),
                    }
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                let Some(frame) = stack.pop() else { continue };
                attach(text, &mut stack, &mut tree, finish(frame, range.end))?;
            }
            _ => {}
        }
    }
    Ok(tree)
}

fn finish(frame: Frame, close: usize) -> Node {
    let (start, span_start, flow, kind, last) = match frame {
        Frame::Map {
            start,
            span_start,
            flow,
            entries,
            ..
        } => {
            let last = entries.iter().map(Entry::end).max();
            (start, span_start, flow, Kind::Map { flow, entries }, last)
        }
        Frame::Seq {
            start,
            span_start,
            flow,
            items,
        } => {
            let last = items.iter().filter_map(Node::end).max();
            (start, span_start, flow, Kind::Seq { flow, items }, last)
        }
    };
    let end = if flow {
        close
    } else {
        last.unwrap_or(span_start)
    };
    Node {
        start,
        span: span_start..end.max(span_start),
        kind,
    }
}

fn attach(text: &str, stack: &mut [Frame], tree: &mut Tree, node: Node) -> Result<(), SyntaxError> {
    match stack.last_mut() {
        None => tree.root = Some(node),
        Some(Frame::Seq { items, .. }) => items.push(node),
        Some(Frame::Map {
            entries, key, seen, ..
        }) => match key.take() {
            Some((k, key_node)) => entries.push(Entry {
                key: k,
                key_node,
                value: node,
            }),
            None => {
                let Kind::Scalar { value, .. } = &node.kind else {
                    return Err(refuse(node.start, "a collection used as a key", ""));
                };
                // A key with no text (`?` alone, `: x`) has no place of its
                // own: the parser puts it at the next token, which moves
                // when coffer writes there.
                if node.is_implicit() {
                    let before = text[..node.start].trim_end();
                    let at = before.strip_suffix('?').map_or(node.start, str::len);
                    return Err(refuse(at, "an empty key", "write the key out"));
                }
                let k = match value {
                    Json::String(s) => s.clone(),
                    // The key as written: `1` and `"1"` name the same member.
                    other => other.to_string(),
                };
                if k == "<<" && matches!(node.kind, Kind::Scalar { plain: true, .. }) {
                    return Err(refuse(
                        node.start,
                        "a merge key (`<<`)",
                        "YAML 1.1 readers merge it and YAML 1.2 readers do not; write the keys out",
                    ));
                }
                if !seen.insert(k.clone()) {
                    return Err(refuse(
                        node.start,
                        &format!("duplicate key `{k}`"),
                        "remove one of the two; readers disagree about which one counts",
                    ));
                }
                *key = Some((k, node));
            }
        },
    }
    Ok(())
}

fn scalar_node(
    text: &str,
    value: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
    span: &Span,
    range: Range<usize>,
) -> Result<Node, SyntaxError> {
    let start = tag_start(span).unwrap_or(range.start);
    let plain = style == ScalarStyle::Plain;
    let json = match tag {
        None if plain => scalar::resolve(value),
        None => Json::String(value.to_owned()),
        Some(t) if is_non_specific(t) => Json::String(value.to_owned()),
        Some(t) => {
            let core = t.core_suffix().filter(|c| !matches!(*c, "map" | "seq"));
            let Some(core) = core else {
                return Err(unknown_tag(t, start));
            };
            scalar::resolve_tagged(value, core).ok_or_else(|| {
                refuse(
                    start,
                    &format!("`{value}` tagged `!!{core}` is not of that type"),
                    "remove the tag or correct the value",
                )
            })?
        }
    };
    let block = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
    // A block scalar's span runs over the blank lines after it, which are
    // its text only when it keeps them (`|+`: its value then ends with more
    // line feeds than its content has, or is only line feeds); otherwise
    // they belong to what follows, as after any value.
    // Without a content line, it ends with its `|` header (granit's span
    // may or may not hold the header then).
    let kept = value.ends_with("\n\n") || (!value.is_empty() && value.bytes().all(|b| b == b'\n'));
    let end = if block && !kept {
        match layout::last_line_end(&text[range.clone()]) {
            0 => text[..range.start]
                .trim_end_matches([' ', '\t', '\r', '\n'])
                .len(),
            n => range.start + n,
        }
    } else {
        range.end
    };
    Ok(Node {
        start,
        kind: Kind::Scalar {
            value: json,
            block,
            plain: plain && tag.is_none(),
            implicit: plain && range.is_empty() && tag.is_none(),
        },
        span: range.start.min(end)..end,
    })
}

fn check_tag(tag: Option<&Tag>, kind: &str, at: usize) -> Result<(), SyntaxError> {
    match tag {
        Some(t) if !is_non_specific(t) && t.core_suffix() != Some(kind) => Err(unknown_tag(t, at)),
        _ => Ok(()),
    }
}

/// `!` alone: "not a plain scalar", which only makes a scalar a string.
fn is_non_specific(t: &Tag) -> bool {
    let (handle, suffix) = t.parts();
    handle.is_empty() && suffix == "!"
}

fn unknown_tag(t: &Tag, at: usize) -> SyntaxError {
    refuse(
        at,
        &format!("the tag `{}`", t.original()),
        "coffer only reads the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq); remove the tag",
    )
}

fn tag_start(span: &Span) -> Option<usize> {
    span.tag_start().and_then(|m| m.byte_offset())
}

fn refuse(offset: usize, what: &str, help: &str) -> SyntaxError {
    SyntaxError {
        offset,
        message: format!("coffer does not edit YAML with {what}"),
        help: (!help.is_empty()).then(|| help.to_owned()),
    }
}
