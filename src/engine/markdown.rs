//! Reconciling one Markdown instructions file: coffer's marked blocks in
//! it, and nothing else. A block is coffer's by its markers; the ledger
//! keeps how it was placed, so that taking it out gives the original bytes
//! back, and which agents want it, for a destroy of some of them.

use super::opening;
use super::plan::{Change, ChangeOp};
use super::reconcile::{Input, Outcome, Retain, Start, begin, change, finish, nothing};
use crate::error::Error;
use crate::formats::markdown::{self, MarkdownError};
use crate::formats::text::Text;
use crate::resource::{Facet, Fragment};
use crate::state::OwnedBlock;

pub(super) fn reconcile(input: &Input) -> Result<Outcome, Error> {
    let (mut record, bom, mut text) = match begin(input)? {
        Start::Nothing => return Ok(nothing()),
        Start::New(record) => (record, false, String::new()),
        Start::Existing(record, t) => (record, t.bom, t.body),
    };
    let err = |e: MarkdownError| refusal(input.display, &opening::text_for_errors(input.before), e);
    let mut changes: Vec<Change> = Vec::new();
    let wanted: Vec<(&crate::resource::Resource, &String, &String)> = input
        .resources
        .iter()
        .filter_map(|r| match &r.fragment {
            Fragment::Block { name, body } => Some((*r, name, body)),
            _ => None,
        })
        .collect();

    // coffer's blocks nobody wants any more go, newest first, each with
    // the placement that undoes it exactly.
    // One scan serves until the text changes: scanning is most of the work
    // on a large file.
    let mut scanned = Some(markdown::scan_blocks(&text).map_err(err)?);
    let present = scanned
        .as_ref()
        .map(|s| s.blocks.clone())
        .unwrap_or_default();
    for block in present.iter().rev() {
        if wanted.iter().any(|(_, name, _)| **name == block.name) {
            continue;
        }
        let owned = record.blocks.iter().position(|b| b.name == block.name);
        let origins = owned
            .map(|i| record.blocks[i].origins.clone())
            .unwrap_or_default();
        if !origins.is_empty() && input.retain.keeps(&origins) {
            let b = &mut record.blocks[owned.expect("origins come from it")];
            if let Retain::AllBut(named) = input.retain {
                b.origins.retain(|o| !named.contains(o));
            }
            continue;
        }
        let placement = owned.and_then(|i| record.blocks[i].placement.clone());
        text = markdown::remove(&text, &block.name, placement.as_ref()).map_err(err)?;
        scanned = None;
        let facet = if block.name == CONTEXT_BLOCK {
            Facet::Context
        } else {
            Facet::Instructions
        };
        changes.push(change(
            ChangeOp::Remove,
            facet,
            origins,
            format!("block {}", block.name),
        ));
        if let Some(i) = owned {
            record.blocks.remove(i);
        }
    }

    for (r, name, body) in wanted {
        let owned = record.blocks.iter().position(|b| &b.name == name);
        let recorded = owned.and_then(|i| record.blocks[i].placement.clone());
        let scan = match scanned.take() {
            Some(s) => s,
            None => markdown::scan_blocks(&text).map_err(err)?,
        };
        // Only the block can change: keep it (not the file) to compare.
        let old = scan
            .blocks
            .iter()
            .find(|b| &b.name == name)
            .map(|b| text[b.range.clone()].to_owned());
        let (placement, range) =
            markdown::upsert_in_place(&mut text, &scan, name, body, recorded.as_ref())
                .map_err(err)?;
        if old.as_deref() != Some(&text[range]) {
            let op = if old.is_some() {
                ChangeOp::Change
            } else {
                ChangeOp::Add
            };
            changes.push(change(op, r.facet(), r.agents(), format!("block {name}")));
        }
        let entry = OwnedBlock {
            name: name.clone(),
            origins: r.agents(),
            placement: Some(placement),
        };
        match owned {
            Some(i) => record.blocks[i] = entry,
            None => record.blocks.push(entry),
        }
    }

    let deleted = record.created_file && text.is_empty();
    let after = (!deleted).then(|| Text { bom, body: text }.into_bytes());
    Ok(finish(input, record, after, changes))
}

/// The block the context facet writes for agents without a working hook.
pub const CONTEXT_BLOCK: &str = "context";

fn refusal(display: &str, text: &str, e: MarkdownError) -> Error {
    match &e {
        MarkdownError::Markers {
            offset, problem, ..
        } => opening::at(
            display,
            text,
            *offset,
            &problem.to_string(),
            "coffer's markers",
            "fix the markers by hand (or remove coffer's block), then run coffer again; nothing was written",
        ),
        _ => Error::Conflict {
            message: format!("{display}: {e}"),
            help: "change the instructions text in the desired file".into(),
        },
    }
}
