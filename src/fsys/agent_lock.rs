//! The lock an agent takes on a file it rewrites itself.
//!
//! Claude Code rewrites `~/.claude.json` all the time and guards each write
//! with a proper-lockfile lock: a folder `~/.claude.json.lock` created with
//! `mkdir` (atomic) and refreshed while held. coffer takes the same lock
//! around its own write, so the two never interleave. A lock nobody
//! refreshed for `STALE` is a crashed holder's and is taken over.

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use super::Fs;

/// proper-lockfile's default: a lock older than this is stale.
pub const STALE: Duration = Duration::from_secs(10);

/// Take the lock folder `lock`, waiting at most `timeout`, run `f`, and
/// give the lock back whatever `f` did.
pub fn with_agent_lock<T>(
    fs: &dyn Fs,
    lock: &Path,
    timeout: Duration,
    f: impl FnOnce() -> io::Result<T>,
) -> io::Result<T> {
    let start = Instant::now();
    loop {
        match fs.create_dir(lock) {
            Ok(()) => break,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if fs.age(lock).is_some_and(|age| age > STALE) {
                    // Its holder is gone: take it over.
                    fs.remove_empty_dir(lock)?;
                    continue;
                }
                if start.elapsed() >= timeout {
                    return Err(io::Error::new(
                        io::ErrorKind::WouldBlock,
                        format!(
                            "{} is held by the agent that owns the file; quit it (or wait) and apply again",
                            lock.display()
                        ),
                    ));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(e),
        }
    }
    let out = f();
    let _ = fs.remove_empty_dir(lock);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fsys::MemFs;

    #[test]
    fn a_held_lock_is_waited_for_then_refused() {
        let fs = MemFs::with_dirs(&["/h"]);
        let lock = Path::new("/h/.claude.json.lock");
        fs.create_dir(lock).unwrap();
        let e = with_agent_lock(&fs, lock, Duration::from_millis(120), || Ok(())).unwrap_err();
        assert!(e.to_string().contains("held by the agent"), "{e}");
        fs.remove_empty_dir(lock).unwrap();
        let ran = with_agent_lock(&fs, lock, Duration::ZERO, || Ok(true)).unwrap();
        assert!(ran);
        assert!(!fs.is_dir(lock), "the lock is given back");
    }
}
