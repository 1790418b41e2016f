//! Reconciling one JSON or JSONC file: current text + resources + claims +
//! ledger record → new text and record.
//!
//! The function is pure. With no resources it is the uninstall, and it is
//! written so that, for a file holding nothing of coffer's,
//! `reconcile(∅) ∘ reconcile(D)` is the identity on bytes and
//! `reconcile(D) ∘ reconcile(D) = reconcile(D)`: existing entries that
//! already equal what is desired are left exactly as they are, new ones go
//! in by splices whose inverse is a splice, and the record holds the little
//! that content cannot say (created containers, expanded empty ones).

use serde_json::Value;

use super::plan::{Change, ChangeOp};
use crate::diagnostic::Located;
use crate::error::Error;
use crate::formats::json::edit::{EditError, Inserted, JsonDoc};
use crate::formats::json::validate::{blank_comments_and_trailing_commas, validate};
use crate::formats::text::Text;
use crate::ownership::{may_own_text, owns_hook_entry};
use crate::resource::{Claim, ClaimKind, Fragment, Origin, Resource, Syntax};
use crate::state::{CreatedKey, FileRecord};

pub struct Input<'a> {
    pub display: &'a str,
    pub before: Option<&'a [u8]>,
    pub syntax: Syntax,
    pub resources: &'a [&'a Resource],
    pub claims: &'a [&'a Claim],
    pub record: Option<&'a FileRecord>,
}

pub struct Outcome {
    pub after: Option<Vec<u8>>,
    pub changes: Vec<Change>,
    /// The record after the change; `None` when nothing is left to undo.
    pub record: Option<FileRecord>,
}

/// One of coffer's entries found in the file.
struct Found {
    array: Vec<String>,
    index: usize,
    value: Value,
    origin: Origin,
}

pub fn reconcile(input: &Input) -> Result<Outcome, Error> {
    let jsonc = input.syntax.is_jsonc();
    let mut record = input
        .record
        .cloned()
        .unwrap_or_else(|| FileRecord::new(input.syntax));
    let (text, mut doc) = match input.before {
        None if input.resources.is_empty() => {
            return Ok(Outcome {
                after: None,
                changes: Vec::new(),
                record: None,
            });
        }
        None => {
            record = FileRecord::new(input.syntax);
            record.created_file = true;
            let text = Text {
                bom: false,
                body: "{}\n".into(),
            };
            let doc =
                JsonDoc::new(text.body.clone(), jsonc).expect("an empty object is a document");
            (text, doc)
        }
        Some(bytes) => open(input.display, bytes, jsonc)?,
    };
    let err = |e: EditError| edit_error(input.display, &text.body, e);

    let mut changes = Vec::new();
    let desired: Vec<(&Resource, &Vec<String>, &Value)> = input
        .resources
        .iter()
        .filter_map(|r| match &r.fragment {
            Fragment::ArrayEntry { array, value } => Some((*r, array, value)),
            Fragment::RequiredKey { .. } => None,
        })
        .collect();

    // 1. coffer's entries already there: keep the ones that are desired as
    //    they are, rewrite stale ones in place, take out the rest.
    let found = find_owned(&doc, input.claims).map_err(err)?;
    let mut matched = vec![false; desired.len()];
    let mut keep = vec![false; found.len()];
    for (f, k) in found.iter().zip(keep.iter_mut()) {
        if let Some(i) = (0..desired.len())
            .find(|&i| !matched[i] && desired[i].1 == &f.array && desired[i].2 == &f.value)
        {
            matched[i] = true;
            *k = true;
        }
    }
    let mut edits: Vec<(&Found, Option<usize>)> = Vec::new();
    for (f, _) in found.iter().zip(&keep).filter(|(_, k)| !**k) {
        let replacement = (0..desired.len()).find(|&i| !matched[i] && desired[i].1 == &f.array);
        if let Some(i) = replacement {
            matched[i] = true;
        }
        edits.push((f, replacement));
    }
    // Highest index first, so earlier indices in the same array stay valid.
    edits.sort_by(|a, b| (&a.0.array, b.0.index).cmp(&(&b.0.array, a.0.index)));
    for (f, replacement) in edits {
        match replacement {
            Some(i) => {
                let c = doc
                    .container(&f.array, false)
                    .map_err(err)?
                    .expect("found above");
                doc.replace_value(&c.items[f.index], desired[i].2);
                changes.push(change(ChangeOp::Change, &desired[i].0.origin, &f.array));
            }
            None => {
                doc.remove_item(&f.array, false, f.index).map_err(err)?;
                changes.push(change(ChangeOp::Remove, &f.origin, &f.array));
            }
        }
    }

    // 2. Keys the agent needs, before the entries so they lead a new file.
    for r in input.resources {
        if let Fragment::RequiredKey { key, value } = &r.fragment
            && doc.root().map_err(err)?.member(key).is_none()
        {
            let foreign_entries = foreign_entries(&doc, input.claims).map_err(err)?;
            let ins = doc.insert_member(&[], key, value).map_err(err)?;
            record.created_root_keys.retain(|k| &k.key != key);
            record.created_root_keys.push(CreatedKey {
                key: key.clone(),
                foreign_entries,
            });
            record_insert(
                &mut record,
                Inserted {
                    created: Vec::new(),
                    ..ins
                },
            );
        }
    }

    // 3. Desired entries that are not there yet.
    for (i, (r, array, value)) in desired.iter().enumerate() {
        if !matched[i] {
            let ins = doc.append_to_array(array, value).map_err(err)?;
            record_insert(&mut record, ins);
            changes.push(change(ChangeOp::Add, &r.origin, array));
        }
    }

    // 4. Take out what coffer created and no longer needs.
    prune(&mut doc, &mut record, input.resources, input.claims).map_err(err)?;

    let deleted = record.created_file && is_empty_document(&doc).map_err(err)?;
    let after = (!deleted).then(|| text.splice_result(&doc.text));
    let record = match &after {
        None => None,
        Some(bytes) => {
            if !input.resources.is_empty() {
                record.claims = input.claims.iter().map(|c| (*c).clone()).collect();
                record.claims.dedup();
            }
            record.sha256 = crate::state::sha256(bytes);
            (!input.resources.is_empty() || record.holds_provenance()).then_some(record)
        }
    };
    Ok(Outcome {
        after,
        changes,
        record,
    })
}

fn change(op: ChangeOp, origin: &Origin, array: &[String]) -> Change {
    Change {
        op,
        origin: origin.clone(),
        what: format!("{} entry", array.join(".")),
    }
}

/// Decode, validate and open the file, or say exactly why not.
fn open(display: &str, bytes: &[u8], jsonc: bool) -> Result<(Text, JsonDoc), Error> {
    let text = Text::decode(bytes).map_err(|e| {
        // Show the file with U+FFFD (three bytes) for the first bad byte,
        // which sits at the same offset since everything before it is
        // valid; positions count from after a BOM, as for every error.
        let bom = if bytes.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        let lossy = String::from_utf8_lossy(&bytes[bom..]).into_owned();
        Error::Target(Box::new(
            Located::new(
                display,
                &lossy,
                e.offset - bom,
                3,
                "the file is not valid UTF-8",
                "not UTF-8",
            )
            .with_help("coffer only edits UTF-8 files; re-save it as UTF-8".to_owned()),
        ))
    })?;
    let kind = if jsonc { "JSONC" } else { "JSON" };
    // JSON whitespace only: a file of, say, no-break spaces is not empty
    // but invalid, and the validator says where.
    if text.body.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Err(Error::Target(Box::new(
            Located::new(display, &text.body, 0, 0, "the file is empty", "no JSON object here").with_help(Some(
                "write `{}` into it or delete it; coffer does not guess what an empty file should hold".into(),
            )),
        )));
    }
    validate(&text.body, jsonc).map_err(|e| {
        Error::Target(Box::new(
            Located::new(
                display,
                &text.body,
                e.offset,
                1,
                &format!("invalid {kind}: {}", e.message),
                &e.message,
            )
            .with_help(e.help.or_else(|| {
                Some("fix the file, then run coffer again; nothing was written".into())
            })),
        ))
    })?;
    let doc =
        JsonDoc::new(text.body.clone(), jsonc).map_err(|e| edit_error(display, &text.body, e))?;
    Ok((text, doc))
}

fn edit_error(display: &str, text: &str, e: EditError) -> Error {
    match e {
        EditError::WrongType {
            path,
            expected,
            offset,
        } => Error::Target(Box::new(
            Located::new(display, text, offset, 1, &format!("{path} is not {expected}"), &format!("expected {expected}"))
                .with_help(Some(format!(
                    "coffer only adds to {expected} here and never replaces what you wrote; fix {path} by hand"
                ))),
        )),
        EditError::DuplicateKey { path, offset } => Error::Target(Box::new(
            Located::new(display, text, offset, 1, &format!("{path} appears more than once"), "again here")
                .with_help(Some(format!(
                    "JSON readers disagree about which {path} counts (most take the last); merge them into one, then run coffer again"
                ))),
        )),
        EditError::Unexpected(u) => Error::Io(std::io::Error::other(format!("{display}: {u}"))),
    }
}

/// Short hashes of every hook entry under the claims that is not coffer's.
fn foreign_entries(doc: &JsonDoc, claims: &[&Claim]) -> Result<Vec<String>, EditError> {
    let mut out = Vec::new();
    for claim in claims {
        let ClaimKind::HookEntries {
            parent,
            shape,
            program,
        } = &claim.kind;
        let Some(events) = doc.container(parent, true)? else {
            continue;
        };
        for item in &events.items {
            let value = doc.slice(item.value.clone());
            let entries = if value.starts_with('[') {
                doc.scanner().container(item.value.start)?.items
            } else {
                Vec::new()
            };
            if entries.is_empty() && !value.starts_with('[') {
                out.push(short_hash(&format!(
                    "{}={value}",
                    item.key.as_deref().unwrap_or("")
                )));
            }
            for el in entries {
                let text = doc.slice(el.value.clone());
                let canonical = match parse_value(text, doc.jsonc) {
                    Some(v) if owns_hook_entry(&v, *shape, program) => continue,
                    Some(v) => v.to_string(),
                    None => text.to_owned(),
                };
                let key = item.key.as_deref().unwrap_or("");
                out.push(short_hash(&format!("{key}={canonical}")));
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn short_hash(s: &str) -> String {
    crate::state::sha256(s.as_bytes())[..16].to_owned()
}

/// Every coffer entry the claims recognise, in document order.
fn find_owned(doc: &JsonDoc, claims: &[&Claim]) -> Result<Vec<Found>, EditError> {
    let mut found: Vec<Found> = Vec::new();
    for claim in claims {
        let ClaimKind::HookEntries {
            parent,
            shape,
            program,
        } = &claim.kind;
        let Some(events) = doc.container(parent, true)? else {
            continue;
        };
        for item in &events.items {
            if doc.text.as_bytes()[item.value.start] != b'[' {
                continue;
            }
            let mut array = parent.clone();
            array.push(item.key.clone().unwrap_or_default());
            let entries = doc.scanner().container(item.value.start)?;
            for (index, el) in entries.items.iter().enumerate() {
                let text = doc.slice(el.value.clone());
                if !may_own_text(text, program)
                    || found.iter().any(|f| f.array == array && f.index == index)
                {
                    continue;
                }
                let Some(value) = parse_value(text, doc.jsonc) else {
                    continue;
                };
                if owns_hook_entry(&value, *shape, program) {
                    found.push(Found {
                        array: array.clone(),
                        index,
                        value,
                        origin: claim.origin.clone(),
                    });
                }
            }
        }
    }
    Ok(found)
}

fn parse_value(text: &str, jsonc: bool) -> Option<Value> {
    if jsonc {
        serde_json::from_str(&blank_comments_and_trailing_commas(text).ok()?).ok()
    } else {
        serde_json::from_str(text).ok()
    }
}

fn record_insert(record: &mut FileRecord, ins: Inserted) {
    for path in ins.created {
        if !record.created_containers.contains(&path) {
            record.created_containers.push(path);
        }
    }
    if let Some(e) = ins.expanded
        && !record.emptied.iter().any(|old| old.path == e.path)
    {
        record.emptied.push(e);
    }
}

/// Remove containers and keys coffer created that nothing needs any more,
/// and give expanded empty containers their old inside back.
fn prune(
    doc: &mut JsonDoc,
    record: &mut FileRecord,
    resources: &[&Resource],
    claims: &[&Claim],
) -> Result<(), EditError> {
    let needed = |path: &[String]| {
        resources.iter().any(|r| match &r.fragment {
            Fragment::ArrayEntry { array, .. } => array.starts_with(path),
            Fragment::RequiredKey { key, .. } => path.len() == 1 && &path[0] == key,
        })
    };
    let mut containers = std::mem::take(&mut record.created_containers);
    containers.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for path in containers {
        if needed(&path) {
            record.created_containers.push(path);
            continue;
        }
        let (parent, key) = path.split_at(path.len() - 1);
        let Some(c) = doc.container(parent, true)? else {
            continue;
        };
        let Some((index, item)) = c.member(&key[0]) else {
            continue;
        };
        let value = doc.slice(item.value.clone());
        if value.starts_with(['{', '['])
            && doc.scanner().container(item.value.start)?.items.is_empty()
            && !has_comment(value)
        {
            doc.remove_item(parent, true, index)?;
        } else {
            // The user put something in it: it stays, and stays coffer's
            // to remove once it is empty again.
            record.created_containers.push(path);
        }
    }
    record.created_containers.sort();

    // A key the agent needs (Cursor's `version`) leaves with coffer's
    // entries, so that a file coffer only visited comes back exactly; but
    // it stays when a hook was added since, whose author may rely on it.
    let foreign_now = foreign_entries(doc, claims)?;
    let keys = std::mem::take(&mut record.created_root_keys);
    for created in keys {
        let Some((index, _)) = doc.root()?.member(&created.key) else {
            continue;
        };
        let added_since = foreign_now
            .iter()
            .any(|h| !created.foreign_entries.contains(h));
        if added_since || needed(std::slice::from_ref(&created.key)) {
            record.created_root_keys.push(created);
        } else {
            doc.remove_item(&[], true, index)?;
        }
    }

    let emptied = std::mem::take(&mut record.emptied);
    for e in emptied {
        let Some(c) = doc.container(&e.path, e.is_object).ok().flatten() else {
            continue;
        };
        let inner = doc.slice(c.open + 1..c.close);
        if !c.items.is_empty() {
            record.emptied.push(e);
        } else if inner != e.inner && doc.same_but_whitespace(inner, &e.inner) {
            doc.set_inner(&e.path, e.is_object, &e.inner)?;
        }
    }
    Ok(())
}

fn has_comment(value: &str) -> bool {
    value.contains("//") || value.contains("/*")
}

/// A document with nothing in it but an empty top-level object.
fn is_empty_document(doc: &JsonDoc) -> Result<bool, EditError> {
    let root = doc.root()?;
    Ok(root.items.is_empty()
        && doc.text[..root.open].trim().is_empty()
        && doc.text[root.open + 1..root.close].trim().is_empty()
        && doc.text[root.close + 1..].trim().is_empty())
}
