//! Named members coffer owns through the ledger — MCP servers, providers,
//! settings — in any format that can hold named members (JSON objects,
//! TOML tables). Content cannot say whose `mcpServers.memory` is, so a
//! member is coffer's only when the ledger says coffer put it there; a
//! same-named member coffer did not create is a conflict unless the desired
//! file says `adopt: true`, and an adopted member gets its old value back
//! on removal. A member can also be one item of a list, known by a field
//! (Qwen's `modelProviders.openai` models by `id`): the same rules hold
//! for that item, and the user's items around it are not coffer's.

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

    /// The item of the list at `list` whose `key` field is `id`, if it is
    /// there. Only formats whose registry rows name lists implement these.
    fn get_item(&self, _list: &[String], _key: &str, _id: &str) -> Result<Option<Value>, Error> {
        Err(no_lists())
    }
    /// Put that item there with `value`: in place when it exists, else at
    /// the end of the list.
    fn set_item(
        &mut self,
        _list: &[String],
        _key: &str,
        _id: &str,
        _value: &Value,
    ) -> Result<Placed, Error> {
        Err(no_lists())
    }
    fn remove_item(&mut self, _list: &[String], _key: &str, _id: &str) -> Result<(), Error> {
        Err(no_lists())
    }
}

/// Unreachable from a desired file: `facets::provider` refuses a list item
/// outside JSON where it is declared.
fn no_lists() -> Error {
    Error::Io(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "coffer edits list items only in JSON files",
    ))
}

/// Where a member sits: `name` in the object at `parent`, or the item of
/// the list at `parent` whose `item_key` field is `name`.
#[derive(Clone, Copy)]
struct Slot<'a> {
    parent: &'a [String],
    name: &'a str,
    item_key: Option<&'a str>,
}

impl Slot<'_> {
    fn get(&self, doc: &impl MemberDoc) -> Result<Option<Value>, Error> {
        match self.item_key {
            Some(key) => doc.get_item(self.parent, key, self.name),
            None => doc.get(self.parent, self.name),
        }
    }

    fn set(&self, doc: &mut impl MemberDoc, value: &Value) -> Result<Placed, Error> {
        match self.item_key {
            Some(key) => doc.set_item(self.parent, key, self.name, value),
            None => doc.set(self.parent, self.name, value),
        }
    }

    fn remove(&self, doc: &mut impl MemberDoc) -> Result<(), Error> {
        match self.item_key {
            Some(key) => doc.remove_item(self.parent, key, self.name),
            None => doc.remove(self.parent, self.name),
        }
    }

    fn label(&self) -> String {
        member_label(self.parent, self.name, self.item_key)
    }

    fn owns(&self, m: &OwnedMember) -> bool {
        m.parent == self.parent && m.name == self.name && m.item_key.as_deref() == self.item_key
    }

    fn owned(&self, facet: Facet, origins: Vec<String>, adopted: Option<Value>) -> OwnedMember {
        OwnedMember {
            parent: self.parent.to_vec(),
            name: self.name.to_owned(),
            item_key: self.item_key.map(str::to_owned),
            facet,
            origins,
            adopted,
        }
    }
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
    slot: Slot<'a>,
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
                item_key,
                adopt,
            } => Some(Wanted {
                resource: r,
                slot: Slot {
                    parent,
                    name,
                    item_key: item_key.as_deref(),
                },
                value,
                adopt: *adopt,
            }),
            _ => None,
        })
        .collect()
}

/// Bring the members of `doc` to what `input` wants, recording ownership.
/// Returns what the insertions created, for the format's own pruning.
pub(super) fn reconcile(
    doc: &mut impl MemberDoc,
    input: &Input,
    record: &mut FileRecord,
    changes: &mut Vec<Change>,
) -> Result<Vec<Placed>, Error> {
    let wanted = wanted(input);
    let mut placed = Vec::new();

    // Owned members nobody wants any more go (or get their old value back).
    for mut m in std::mem::take(&mut record.members) {
        if wanted.iter().any(|w| w.slot.owns(&m)) {
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
        let slot = Slot {
            parent: &m.parent,
            name: &m.name,
            item_key: m.item_key.as_deref(),
        };
        if slot.get(doc)?.is_some() {
            match &m.adopted {
                Some(old) => {
                    slot.set(doc, old)?;
                }
                None => slot.remove(doc)?,
            }
            changes.push(change(
                ChangeOp::Remove,
                m.facet,
                m.origins.clone(),
                slot.label(),
            ));
        }
    }

    for w in &wanted {
        let label = w.slot.label();
        let owned = record.members.iter().position(|m| w.slot.owns(m));
        let current = w.slot.get(doc)?;
        match (current, owned) {
            (Some(cur), owned) if owned.is_some() || w.adopt => {
                if &cur != w.value {
                    w.slot.set(doc, w.value)?;
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
                    None => record.members.push(w.slot.owned(
                        w.resource.facet(),
                        w.resource.agents(),
                        Some(cur),
                    )),
                }
            }
            (Some(_), _) => return Err(conflict(input.display, w)),
            (None, owned) => {
                placed.push(w.slot.set(doc, w.value)?);
                if owned.is_none() {
                    record.members.push(w.slot.owned(
                        w.resource.facet(),
                        w.resource.agents(),
                        None,
                    ));
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
            w.slot.name,
            w.slot.label()
        ),
        help: format!(
            "rename coffer's entry, remove the existing one, or add `adopt: true` to `{}` in the desired file to let coffer manage it",
            w.slot.name
        ),
    }
}
