//! Taking out what coffer created and no longer needs: containers once
//! empty, required keys once coffer's entries are gone, and the old inside
//! of empty containers coffer expanded.

use crate::formats::json::edit::{EditError, Inserted, JsonDoc};
use crate::resource::{Claim, Fragment, Resource};
use crate::state::FileRecord;

use super::hooks::foreign_entries;

/// Remember what an insertion created, so that it can be pruned.
pub(super) fn record_insert(record: &mut FileRecord, ins: Inserted) {
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
pub(super) fn prune(
    doc: &mut JsonDoc,
    record: &mut FileRecord,
    resources: &[&Resource],
    claims: &[&Claim],
) -> Result<(), EditError> {
    let needed = |path: &[String]| {
        resources.iter().any(|r| match &r.fragment {
            Fragment::ArrayEntry { array, .. } => array.starts_with(path),
            Fragment::RequiredKey { key, .. } => path.len() == 1 && &path[0] == key,
            Fragment::Member { parent, name, .. } => {
                let mut p = parent.clone();
                p.push(name.clone());
                p.starts_with(path)
            }
            Fragment::Block { .. } | Fragment::File { .. } => false,
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
            && doc.container_at(item.value.start)?.items.is_empty()
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
    let keys = std::mem::take(&mut record.created_root_keys);
    // Fingerprinting the foreign entries parses and hashes every one of
    // them (a third of a plan on a 10 MB settings file): only when a
    // created key is there to decide about.
    let foreign_now = if keys.is_empty() {
        Vec::new()
    } else {
        foreign_entries(doc, claims)?
    };
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
pub(super) fn is_empty_document(doc: &JsonDoc) -> Result<bool, EditError> {
    let root = doc.root()?;
    Ok(root.items.is_empty()
        && doc.text()[..root.open].trim().is_empty()
        && doc.text()[root.open + 1..root.close].trim().is_empty()
        && doc.text()[root.close + 1..].trim().is_empty())
}
