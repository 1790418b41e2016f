//! Files coffer owns whole: plugin drops, rule files, delivered skills.
//!
//! A file is coffer's when the ledger says coffer created it. A file that
//! already exists and that coffer did not create is a conflict — unless it
//! holds exactly what coffer would write (a lost ledger), which coffer then
//! takes back. A file coffer owns but that someone edited since coffer last
//! wrote it is not deleted: it is left in place, and the plan says so.

use super::plan::ChangeOp;
use super::reconcile::{Input, Outcome, change};
use crate::error::Error;
use crate::resource::Fragment;
use crate::state::{FileRecord, OwnedWhole, sha256};

pub(super) fn reconcile(input: &Input) -> Result<Outcome, Error> {
    let wanted = input.resources.iter().find_map(|r| match &r.fragment {
        Fragment::File { content, .. } => Some((*r, content)),
        _ => None,
    });
    let record = input.record.filter(|r| r.whole.is_some());
    let label = "file".to_owned();
    match (wanted, input.before, record) {
        (Some((r, content)), before, record) => {
            let after = content.as_bytes().to_vec();
            let owned = record.is_some() || before == Some(&after[..]);
            if before.is_some() && !owned {
                return Err(Error::Conflict {
                    message: format!(
                        "{} already exists and coffer did not create it",
                        input.display
                    ),
                    help: "move it aside, or rename what coffer installs there".into(),
                });
            }
            let mut new = record
                .cloned()
                .unwrap_or_else(|| FileRecord::new(input.syntax));
            new.created_file = true;
            new.whole = Some(OwnedWhole {
                facet: r.facet(),
                origins: r.agents(),
            });
            new.sha256 = sha256(&after);
            let changes = match before {
                None => vec![change(ChangeOp::Add, r.facet(), r.agents(), label)],
                Some(b) if b != after => {
                    vec![change(ChangeOp::Change, r.facet(), r.agents(), label)]
                }
                Some(_) => Vec::new(),
            };
            Ok(Outcome {
                after: Some(after),
                changes,
                record: Some(new),
            })
        }
        (None, Some(before), Some(record)) => {
            let whole = record.whole.as_ref().expect("filtered above");
            if input.retain.keeps(&whole.origins) {
                let mut kept = record.clone();
                if let (super::reconcile::Retain::AllBut(named), Some(w)) =
                    (input.retain, kept.whole.as_mut())
                {
                    w.origins.retain(|a| !named.contains(a));
                }
                return Ok(Outcome {
                    after: Some(before.to_vec()),
                    changes: Vec::new(),
                    record: Some(kept),
                });
            }
            if sha256(before) != record.sha256 {
                // Edited since coffer wrote it: someone else's now.
                return Ok(Outcome {
                    after: Some(before.to_vec()),
                    changes: Vec::new(),
                    record: None,
                });
            }
            Ok(Outcome {
                after: None,
                changes: vec![change(
                    ChangeOp::Remove,
                    whole.facet,
                    whole.origins.clone(),
                    label,
                )],
                record: None,
            })
        }
        (None, _, _) => Ok(Outcome {
            after: input.before.map(<[u8]>::to_vec),
            changes: Vec::new(),
            record: None,
        }),
    }
}
