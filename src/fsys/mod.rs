//! The one narrow door to the file system.
//!
//! Plan, apply and the tests all go through [`Fs`], so the code that plans is
//! the code that applies, and the engine can be exercised on an in-memory
//! file system by property tests that run thousands of cases.

pub mod agent_lock;
pub mod fault;
mod lock;
mod mem;
mod real;

use std::io;
use std::path::Path;

pub use lock::{LockError, LockGuard, lock};
pub use mem::MemFs;
pub use real::RealFs;

pub trait Fs {
    /// The file's bytes, or `None` when there is no file.
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>>;
    fn is_dir(&self, path: &Path) -> bool;
    /// Whether there is a file at `path` (without reading it).
    fn is_file(&self, path: &Path) -> bool;
    /// Replace the file's content atomically, keeping its permissions and
    /// writing through a symlink to its target.
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.write_mode(path, bytes, None)
    }
    /// As `write`, creating a missing file with `new_mode` (owner-only for
    /// a file that holds a secret) instead of the usual mode.
    fn write_mode(&self, path: &Path, bytes: &[u8], new_mode: Option<u32>) -> io::Result<()>;
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    fn create_dir(&self, path: &Path) -> io::Result<()>;
    /// Remove a folder if it is empty; report whether it was removed.
    fn remove_empty_dir(&self, path: &Path) -> io::Result<bool>;
    /// Refuse, before anything is written, a file or folder marked
    /// read-only: the user (or a dotfiles manager) said not to change it.
    fn check_writable(&self, _path: &Path) -> io::Result<()> {
        Ok(())
    }
    /// How long ago `path` last changed, where the file system can tell.
    fn age(&self, _path: &Path) -> Option<std::time::Duration> {
        None
    }
}

/// The ancestors of `path` that do not exist, outermost first.
pub fn missing_dirs(fs: &dyn Fs, path: &Path) -> Vec<std::path::PathBuf> {
    let mut missing: Vec<_> = path
        .ancestors()
        .skip(1)
        .take_while(|d| !d.as_os_str().is_empty() && !fs.is_dir(d))
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}
