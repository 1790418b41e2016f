//! Named members coffer owns through the ledger: MCP servers, providers,
//! settings. Content cannot say whose `mcpServers.memory` is, so a member
//! is coffer's only when the ledger says coffer put it there; a same-named
//! member coffer did not create is a conflict unless the desired file says
//! `adopt: true`, and an adopted member gets its old value back on removal.

use serde_json::Value;

use super::open::{doc_text_for_errors, edit_error, parse_value};
use super::prune::record_insert;
use crate::engine::plan::{Change, ChangeOp};
use crate::engine::reconcile::{Input, change};
use crate::error::Error;
use crate::formats::json::edit::{EditError, Inserted, JsonDoc};
use crate::formats::json::scan::Item;
use crate::resource::{Facet, Fragment, Resource, member_label};
use crate::state::{FileRecord, OwnedMember};

struct Wanted<'a> {
    resource: &'a Resource,
    parent: &'a [String],
    name: &'a str,
    value: &'a Value,
    adopt: bool,
}

fn wanted<'a>(input: &'a Input) -> Vec<Wanted<'a>> {
    input
        .resources
        .iter()
        .filter_map(|r| match &r.fragment {
            Fragment::Member {
                parent,
                name,
                value,
                adopt,
            } => Some(Wanted {
                resource: r,
                parent,
                name,
                value,
                adopt: *adopt,
            }),
            _ => None,
        })
        .collect()
}

pub(super) fn reconcile(
    doc: &mut JsonDoc,
    input: &Input,
    record: &mut FileRecord,
    changes: &mut Vec<Change>,
) -> Result<(), Error> {
    let err = |e: EditError| edit_error(input.display, &doc_text_for_errors(input.before), e);
    let wanted = wanted(input);

    // Owned members nobody wants any more go (or get their old value back).
    for mut m in std::mem::take(&mut record.members) {
        if wanted
            .iter()
            .any(|w| w.parent == m.parent && w.name == m.name)
        {
            record.members.push(m);
            continue;
        }
        if input.retain.keeps(&m.origins) {
            if let super::super::reconcile::Retain::AllBut(named) = input.retain {
                m.origins.retain(|o| !named.contains(o));
            }
            record.members.push(m);
            continue;
        }
        if let Some((index, item)) = member(doc, &m.parent, &m.name).map_err(err)? {
            match &m.adopted {
                Some(old) => doc.replace_value(&item, old),
                None => doc.remove_item(&m.parent, true, index).map_err(err)?,
            }
            changes.push(change(
                ChangeOp::Remove,
                facet_of(&m.parent),
                m.origins.clone(),
                member_label(&m.parent, &m.name),
            ));
        }
    }

    for w in &wanted {
        let label = member_label(w.parent, w.name);
        let owned = record
            .members
            .iter()
            .position(|m| m.parent == w.parent && m.name == w.name);
        match (member(doc, w.parent, w.name).map_err(err)?, owned) {
            (Some((_, item)), Some(i)) => {
                if parse_value(doc.slice(item.value.clone()), doc.jsonc).as_ref() != Some(w.value) {
                    doc.replace_value(&item, w.value);
                    changes.push(change(
                        ChangeOp::Change,
                        w.resource.facet(),
                        w.resource.agents(),
                        label,
                    ));
                }
                record.members[i].origins = w.resource.agents();
            }
            (Some((_, item)), None) if w.adopt => {
                let old = parse_value(doc.slice(item.value.clone()), doc.jsonc);
                if old.as_ref() != Some(w.value) {
                    doc.replace_value(&item, w.value);
                    changes.push(change(
                        ChangeOp::Change,
                        w.resource.facet(),
                        w.resource.agents(),
                        label,
                    ));
                }
                record.members.push(OwnedMember {
                    parent: w.parent.to_vec(),
                    name: w.name.to_owned(),
                    origins: w.resource.agents(),
                    adopted: old,
                });
            }
            (Some(_), None) => return Err(conflict(input.display, w)),
            (None, owned) => {
                let ins = doc.insert_member(w.parent, w.name, w.value).map_err(err)?;
                let mut path = w.parent.to_vec();
                path.push(w.name.to_owned());
                let created = ins.created.into_iter().filter(|p| *p != path).collect();
                record_insert(record, Inserted { created, ..ins });
                if owned.is_none() {
                    record.members.push(OwnedMember {
                        parent: w.parent.to_vec(),
                        name: w.name.to_owned(),
                        origins: w.resource.agents(),
                        adopted: None,
                    });
                }
                changes.push(change(
                    ChangeOp::Add,
                    w.resource.facet(),
                    w.resource.agents(),
                    label,
                ));
            }
        }
    }
    Ok(())
}

/// The member `name` of the object at `parent`, with its index.
fn member(
    doc: &JsonDoc,
    parent: &[String],
    name: &str,
) -> Result<Option<(usize, Item)>, EditError> {
    Ok(doc
        .container(parent, true)?
        .and_then(|c| c.member(name).map(|(i, it)| (i, it.clone()))))
}

/// The facet a member belongs to, for plans of removals (the ledger keeps
/// the path, not the facet).
fn facet_of(parent: &[String]) -> Facet {
    let mcp = ["mcpServers", "servers", "mcp", "mcp_servers"];
    if parent.last().is_some_and(|k| mcp.contains(&k.as_str())) {
        Facet::Mcp
    } else {
        Facet::Provider
    }
}

fn conflict(display: &str, w: &Wanted) -> Error {
    let what = match w.resource.facet() {
        Facet::Mcp => "an MCP server",
        Facet::Provider => "a provider setting",
        _ => "an entry",
    };
    Error::Conflict {
        message: format!(
            "{display} already has {what} `{}` ({}) that coffer did not create",
            w.name,
            member_label(w.parent, w.name)
        ),
        help: format!(
            "rename coffer's entry, remove the existing one, or add `adopt: true` to `{}` in the desired file to let coffer manage it",
            w.name
        ),
    }
}
