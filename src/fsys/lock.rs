//! One coffer at a time: an advisory lock in the state folder for the
//! whole of an apply, so that concurrent runs serialise instead of
//! interleaving their writes. A run that cannot get the lock waits a bounded
//! time, then fails and says who to wait for.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Held while it lives; the lock goes with the file handle.
#[derive(Debug)]
pub struct LockGuard {
    _file: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("another coffer is applying (lock {path}); gave up after {waited:?}")]
    Busy { path: PathBuf, waited: Duration },
    #[error("cannot lock {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Take the lock at `path` (creating it and its folder), waiting at most
/// `timeout`.
pub fn lock(path: &Path, timeout: Duration) -> Result<LockGuard, LockError> {
    let io_err = |source| LockError::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io_err)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(io_err)?;
    let start = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { _file: file }),
            Err(TryLockError::WouldBlock) if start.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Busy {
                    path: path.to_owned(),
                    waited: timeout,
                });
            }
            Err(TryLockError::Error(e)) => return Err(io_err(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_waits_then_gives_up() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("state/lock");
        let held = lock(&p, Duration::ZERO).unwrap();
        let e = lock(&p, Duration::from_millis(60)).unwrap_err();
        assert!(matches!(e, LockError::Busy { .. }), "{e}");
        drop(held);
        lock(&p, Duration::ZERO).unwrap();
    }
}
