//! coffer's hook entries in a JSON document: recognised by content (the
//! command runs the hook program), matched against the desired entries, and
//! the other tools' entries fingerprinted for the required-key rule.

use serde_json::Value;

use super::open::parse_value;
use crate::formats::json::edit::{EditError, JsonDoc};
use crate::ownership::{may_own_text, owns_hook_entry};
use crate::resource::{Claim, ClaimKind, Origin};

/// One of coffer's entries found in the file.
pub(super) struct Found {
    pub array: Vec<String>,
    pub index: usize,
    pub value: Value,
    pub origin: Origin,
}

/// Every coffer entry the claims recognise, in document order.
pub(super) fn find_owned(doc: &JsonDoc, claims: &[&Claim]) -> Result<Vec<Found>, EditError> {
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
            if doc.text().as_bytes()[item.value.start] != b'[' {
                continue;
            }
            // An array whose text never names the program holds none of
            // coffer's entries: one memmem instead of listing thousands of
            // other tools' entries (a fifth of a plan on a 10 MB file).
            // The same test as for each entry below, on all of them at once.
            let all = doc.slice(item.value.clone());
            let spelled =
                may_own_text(all, program) || (doc.flavor.is_json5() && all.contains('\\'));
            if !spelled {
                continue;
            }
            let mut array = parent.clone();
            array.push(item.key.clone().unwrap_or_default());
            let entries = doc.container_at(item.value.start)?;
            for (index, el) in entries.items.iter().enumerate() {
                let text = doc.slice(el.value.clone());
                // JSON5 can spell the program with escapes JSON lacks
                // (`\x63`, `\c`, a line continuation): any backslash
                // there means the entry must be read to be ruled out.
                let spelled =
                    may_own_text(text, program) || (doc.flavor.is_json5() && text.contains('\\'));
                if !spelled || found.iter().any(|f| f.array == array && f.index == index) {
                    continue;
                }
                let Some(value) = parse_value(text, doc.flavor) else {
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

/// Short hashes of every hook entry under the claims that is not coffer's.
pub(super) fn foreign_entries(doc: &JsonDoc, claims: &[&Claim]) -> Result<Vec<String>, EditError> {
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
                doc.container_at(item.value.start)?.items
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
                let canonical = match parse_value(text, doc.flavor) {
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
