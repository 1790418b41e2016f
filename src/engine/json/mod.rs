//! Reconciling one JSON, JSONC or JSON5 file: current text + resources +
//! claims + ledger record → new text and record. The three differ only in
//! how text is read and new text written (`formats::json::Flavor`).
//!
//! The function is pure. With no resources it is the uninstall, and it is
//! written so that, for a file holding nothing of coffer's,
//! `reconcile(∅) ∘ reconcile(D)` is the identity on bytes and
//! `reconcile(D) ∘ reconcile(D) = reconcile(D)`: fragments that already
//! equal what is desired are left exactly as they are, new ones go in by
//! splices whose inverse is a splice, and the record holds the little that
//! content cannot say (created containers, expanded empty ones, owned
//! members).

mod hooks;
mod members_doc;
mod open;
mod prune;

use serde_json::Value;

use super::opening::text_for_errors;
use super::plan::{Change, ChangeOp};
use super::reconcile::{Input, Outcome, Start, begin, change, finish, nothing};
use crate::error::Error;
use crate::formats::json::Flavor;
use crate::formats::json::edit::{EditError, Inserted, JsonDoc};
use crate::formats::text::Text;
use crate::resource::{Fragment, Resource, Syntax};
use crate::state::CreatedKey;
use hooks::{Found, find_owned, foreign_entries};
use open::edit_error;
use prune::{is_empty_document, prune, record_insert};

/// The grammar a target of `syntax` is read in.
fn flavor(syntax: Syntax) -> Flavor {
    match syntax {
        Syntax::Json5 => Flavor::Json5,
        s if s.is_jsonc() => Flavor::Jsonc,
        _ => Flavor::Json,
    }
}

pub(super) fn reconcile(input: &Input) -> Result<Outcome, Error> {
    let flavor = flavor(input.syntax);
    let (mut record, (bom, mut doc)) = match begin(input)? {
        Start::Nothing => return Ok(nothing()),
        Start::New(record) => {
            let doc = JsonDoc::new("{}\n".into(), flavor).expect("an empty object is a document");
            (record, (false, doc))
        }
        Start::Existing(record, text) => (record, open::open(input.display, text, flavor)?),
    };
    let err = |e: EditError| edit_error(input.display, &text_for_errors(input.before), e);
    let mut changes = Vec::new();

    let matched = hook_entries(&mut doc, input, &mut changes).map_err(err)?;

    // Desired entries that are not there yet come after the keys the agent
    // needs, so that those lead a new file.
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
    let desired = desired_entries(input);
    for ((r, array, value), _) in desired.iter().zip(&matched).filter(|(_, m)| !**m) {
        let ins = doc.append_to_array(array, value).map_err(err)?;
        record_insert(&mut record, ins);
        changes.push(change(
            ChangeOp::Add,
            r.facet(),
            r.agents(),
            r.fragment.label(),
        ));
    }
    let placed = {
        let mut holder = members_doc::JsonMembers {
            doc: &mut doc,
            display: input.display,
            before: input.before,
        };
        super::members::reconcile(&mut holder, input, &mut record, &mut changes)?
    };
    for p in placed {
        record_insert(
            &mut record,
            Inserted {
                created: p.created,
                expanded: p.expanded,
            },
        );
    }

    prune(&mut doc, &mut record, input.resources, input.claims).map_err(err)?;

    let deleted = record.created_file && is_empty_document(&doc).map_err(err)?;
    // The document's text becomes the new bytes: no copy of a large file.
    let after = (!deleted).then(|| {
        Text {
            bom,
            body: doc.into_text(),
        }
        .into_bytes()
    });
    if !input.resources.is_empty() {
        // What coffer may own here now, so that it can take it out even
        // after the desired file stops naming the agent.
        record.claims = input.claims.iter().map(|c| (*c).clone()).collect();
        record.claims.dedup();
    }
    Ok(finish(input, record, after, changes))
}

/// The desired hook entries.
fn desired_entries<'a>(input: &'a Input) -> Vec<(&'a Resource, &'a Vec<String>, &'a Value)> {
    input
        .resources
        .iter()
        .filter_map(|r| match &r.fragment {
            Fragment::ArrayEntry { array, value } => Some((*r, array, value)),
            _ => None,
        })
        .collect()
}

/// coffer's hook entries already there: keep the ones that are desired as
/// they are, rewrite stale ones in place, take out the rest. Returns which
/// desired entries are now in place.
fn hook_entries(
    doc: &mut JsonDoc,
    input: &Input,
    changes: &mut Vec<Change>,
) -> Result<Vec<bool>, EditError> {
    let desired = desired_entries(input);
    let found = find_owned(doc, input.claims)?;
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
        let label = format!("{} entry", f.array.join("."));
        match replacement {
            Some(i) => {
                let c = doc.container(&f.array, false)?.expect("found above");
                doc.replace_value(&c.items[f.index], desired[i].2);
                changes.push(change(
                    ChangeOp::Change,
                    desired[i].0.facet(),
                    desired[i].0.agents(),
                    label,
                ));
            }
            None => {
                doc.remove_item(&f.array, false, f.index)?;
                changes.push(change(
                    ChangeOp::Remove,
                    f.origin.facet,
                    vec![f.origin.agent.clone()],
                    label,
                ));
            }
        }
    }
    Ok(matched)
}
