//! File sources: one file, or every file a glob matches, in name order.
//!
//! Globs are expanded here, at run time, so that a rule file added to a
//! matched folder is picked up without another `apply`.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Got;
use crate::hook::protocol::Status;

/// Most files one glob may contribute; a pattern that matches a whole home
/// folder should not make the hook read it all.
const MAX_FILES: usize = 64;

pub(super) fn read(path: &Path, glob: bool, cap: u64) -> Got {
    let paths: Vec<PathBuf> = if glob {
        let Some(pattern) = path.to_str() else {
            return Got::failed(Status::ReadFailed);
        };
        match glob::glob(pattern) {
            Ok(found) => found
                .flatten()
                .filter(|p| p.is_file())
                .take(MAX_FILES)
                .collect(),
            Err(_) => return Got::failed(Status::ReadFailed),
        }
    } else {
        vec![path.to_owned()]
    };
    let mut texts = Vec::new();
    let mut last_error = None;
    let mut total = 0u64;
    for p in &paths {
        // The note is capped anyway; reading past the cap is wasted time.
        match read_capped(p, cap.saturating_sub(total)) {
            Ok(t) => {
                total += t.len() as u64;
                texts.push(t);
            }
            Err(status) => last_error = Some(status),
        }
    }
    let failed = (paths.len() - texts.len()) as u32;
    let counts = [paths.len() as u32, texts.len() as u32, failed];
    match last_error {
        Some(status) if texts.is_empty() => Got {
            counts,
            ..Got::failed(status)
        },
        _ => Got::text(crate::hook::compose::join(&texts), counts),
    }
}

fn read_capped(path: &Path, cap: u64) -> Result<String, Status> {
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Status::NotFound,
        _ => Status::ReadFailed,
    })?;
    let mut buf = Vec::new();
    file.take(cap)
        .read_to_end(&mut buf)
        .map_err(|_| Status::ReadFailed)?;
    match String::from_utf8(buf) {
        Ok(s) => Ok(s),
        // Cut inside a character by the cap: keep the whole ones.
        Err(e) if e.utf8_error().error_len().is_none() => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            Ok(String::from_utf8(bytes).expect("checked above"))
        }
        Err(_) => Err(Status::NotUtf8),
    }
}
