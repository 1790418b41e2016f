//! Named members coffer owns through the ledger — MCP servers, providers,
//! settings — in any format that can hold named members (JSON objects,
//! TOML tables). Content cannot say whose `mcpServers.memory` is, so a
//! member is coffer's only when the ledger says coffer put it there; a
//! same-named member coffer did not create is a conflict unless the desired
//! file says `adopt: true`, and an adopted member gets its old value back
//! on removal.

use serde_json::Value;

use super::plan::{Change, ChangeOp};
use super::reconcile::{Input, Outcome, Retain, Start, begin, change, finish, nothing};
use crate::error::Error;
use crate::formats::json::edit::Expanded;
use crate::resource::{Facet, Fragment, Resource, member_label};
use crate::state::{FileRecord, OwnedMember};

/// A document that holds named members.
pub(super) trait MemberDoc {
    /// The member's value, if it is there.
    fn get(&self, parent: &[String], name: &str) -> Result<Option<Value>, Error>;
    /// Put the member there with `value`, in place when it exists.
    fn set(&mut self, parent: &[String], name: &str, value: &Value) -> Result<Placed, Error>;
    fn remove(&mut self, parent: &[String], name: &str) -> Result<(), Error>;
}

/// A whole file of named members and nothing else of coffer's (TOML,
/// YAML): open it, reconcile its members, tidy what the format needs
/// tidied, and hand back the text.
pub(super) trait MembersFile: MemberDoc + Sized {
    /// The document for `body` (`None`: the file does not exist yet).
    fn open(display: &str, body: Option<&str>) -> Result<Self, Error>;
    /// Take out what coffer created and no longer needs.
    fn prune(&mut self, _record: &mut FileRecord) -> Result<(), Error> {
        Ok(())
    }
    fn into_text(self) -> String;
}

/// One members file: current bytes + record → new bytes and record.
pub(super) fn reconcile_file<D: MembersFile>(input: &Input) -> Result<Outcome, Error> {
    let (mut record, bom, mut doc) = match begin(input)? {
        Start::Nothing => return Ok(nothing()),
        Start::New(record) => (record, false, D::open(input.display, None)?),
        Start::Existing(record, text) => {
            let doc = D::open(input.display, Some(&text.body))?;
            (record, text.bom, doc)
        }
    };
    let mut changes = Vec::new();
    for placed in reconcile(&mut doc, input, &mut record, &mut changes)? {
        for p in placed.created {
            if !record.created_containers.contains(&p) {
                record.created_containers.push(p);
            }
        }
    }
    doc.prune(&mut record)?;
    let body = doc.into_text();
    let deleted = record.created_file && body.trim().is_empty();
    let after = (!deleted).then(|| crate::formats::text::Text { bom, body }.encode());
    Ok(finish(input, record, after, changes))
}

/// What putting a member in created around it, for the record.
#[derive(Debug, Default)]
pub(super) struct Placed {
    pub created: Vec<Vec<String>>,
    pub expanded: Option<Expanded>,
}

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
                parent: parent.as_slice(),
                name: name.as_str(),
                value,
                adopt: *adopt,
            }),
            _ => None,
        })
        .collect()
}

/// Bring the members of `doc` to what `input` wants, recording ownership.
/// Returns what the insertions created, for the format's own pruning.
pub(super) fn reconcile<D: MemberDoc>(
    doc: &mut D,
    input: &Input,
    record: &mut FileRecord,
    changes: &mut Vec<Change>,
) -> Result<Vec<Placed>, Error> {
    let wanted = wanted(input);
    let mut placed = Vec::new();

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
            if let Retain::AllBut(named) = input.retain {
                m.origins.retain(|o| !named.contains(o));
            }
            record.members.push(m);
            continue;
        }
        if doc.get(&m.parent, &m.name)?.is_some() {
            match &m.adopted {
                Some(old) => {
                    doc.set(&m.parent, &m.name, old)?;
                }
                None => doc.remove(&m.parent, &m.name)?,
            }
            changes.push(change(
                ChangeOp::Remove,
                m.facet,
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
        let current = doc.get(w.parent, w.name)?;
        match (current, owned) {
            (Some(cur), owned) if owned.is_some() || w.adopt => {
                if &cur != w.value {
                    doc.set(w.parent, w.name, w.value)?;
                    changes.push(change(
                        ChangeOp::Change,
                        w.resource.facet(),
                        w.resource.agents(),
                        label,
                    ));
                }
                match owned {
                    Some(i) => record.members[i].origins = w.resource.agents(),
                    // Adopted: its old value comes back when coffer lets go.
                    None => record.members.push(OwnedMember {
                        parent: w.parent.to_vec(),
                        name: w.name.to_owned(),
                        facet: w.resource.facet(),
                        origins: w.resource.agents(),
                        adopted: Some(cur),
                    }),
                }
            }
            (Some(_), _) => return Err(conflict(input.display, w)),
            (None, owned) => {
                placed.push(doc.set(w.parent, w.name, w.value)?);
                if owned.is_none() {
                    record.members.push(OwnedMember {
                        parent: w.parent.to_vec(),
                        name: w.name.to_owned(),
                        facet: w.resource.facet(),
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
    Ok(placed)
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
