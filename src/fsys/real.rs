//! The real file system, with atomic, mode-keeping, symlink-following writes.

use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::Fs;

/// Mode of a file coffer creates.
const NEW_FILE_MODE: u32 = 0o644;

#[derive(Debug, Default, Clone, Copy)]
pub struct RealFs;

impl Fs for RealFs {
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        match fs_err::read(path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn write_mode(&self, path: &Path, bytes: &[u8], new_mode: Option<u32>) -> io::Result<()> {
        let target = resolve_symlink(path)?;
        let dir = target.parent().unwrap_or(Path::new("/"));
        let mode = match fs_err::metadata(&target) {
            Ok(m) => m.permissions().mode(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => new_mode.unwrap_or(NEW_FILE_MODE),
            Err(e) => return Err(e),
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".coffer-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| {
                io::Error::new(e.kind(), format!("cannot write in {}: {e}", dir.display()))
            })?;
        tmp.write_all(bytes)?;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
        tmp.as_file().sync_all()?;
        tmp.persist(&target).map_err(|e| {
            io::Error::new(
                e.error.kind(),
                format!("cannot replace {}: {}", target.display(), e.error),
            )
        })?;
        // The rename is durable only once the folder is.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        fs_err::remove_file(path)
    }

    fn create_dir(&self, path: &Path) -> io::Result<()> {
        fs_err::create_dir(path)
    }

    fn age(&self, path: &Path) -> Option<std::time::Duration> {
        std::fs::metadata(path)
            .ok()?
            .modified()
            .ok()?
            .elapsed()
            .ok()
    }

    fn check_writable(&self, path: &Path) -> io::Result<()> {
        // Mode bits, not access(2): running as root must not override a
        // read-only mark either.
        let target = resolve_symlink(path)?;
        let read_only = |p: &Path, what: &str| -> io::Result<()> {
            match std::fs::metadata(p) {
                Ok(m) if m.permissions().mode() & 0o222 == 0 => Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!(
                        "{} {what} is read-only; make it writable or leave it out of the desired state",
                        p.display()
                    ),
                )),
                _ => Ok(()),
            }
        };
        read_only(&target, "")?;
        match target.ancestors().skip(1).find(|d| d.is_dir()) {
            Some(dir) => read_only(dir, "(the folder)"),
            None => Ok(()),
        }
    }

    fn remove_empty_dir(&self, path: &Path) -> io::Result<bool> {
        match std::fs::remove_dir(path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::DirectoryNotEmpty => Ok(false),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io::Error::new(
                e.kind(),
                format!("cannot remove {}: {e}", path.display()),
            )),
        }
    }
}

/// Dotfile managers link `~/.claude/settings.json` into a repository; the
/// write must land in the repository file and leave the link alone.
fn resolve_symlink(path: &Path) -> io::Result<PathBuf> {
    match fs_err::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs_err::canonicalize(path),
        _ => Ok(path.to_owned()),
    }
}
