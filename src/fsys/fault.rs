//! Fault injection for crash-safety tests: a file system that kills the
//! process after a given number of changes, as a power cut or `kill -9`
//! would. The binary uses it only when `COFFER_TEST_CRASH_AFTER` is set.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Fs;

pub struct CrashAfter<F> {
    inner: F,
    left: AtomicUsize,
}

impl<F: Fs> CrashAfter<F> {
    /// Let `changes` changes through, then abort on the next one.
    pub fn new(inner: F, changes: usize) -> Self {
        CrashAfter {
            inner,
            left: AtomicUsize::new(changes),
        }
    }

    fn tick(&self) {
        if self.left.fetch_sub(1, Ordering::SeqCst) == 0 {
            std::process::abort();
        }
    }
}

impl<F: Fs> Fs for CrashAfter<F> {
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        self.inner.read(path)
    }
    fn is_dir(&self, path: &Path) -> bool {
        self.inner.is_dir(path)
    }
    fn is_file(&self, path: &Path) -> bool {
        self.inner.is_file(path)
    }
    fn write_mode(&self, path: &Path, bytes: &[u8], new_mode: Option<u32>) -> io::Result<()> {
        self.tick();
        self.inner.write_mode(path, bytes, new_mode)
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.tick();
        self.inner.remove_file(path)
    }
    fn create_dir(&self, path: &Path) -> io::Result<()> {
        self.tick();
        self.inner.create_dir(path)
    }
    fn remove_empty_dir(&self, path: &Path) -> io::Result<bool> {
        self.tick();
        self.inner.remove_empty_dir(path)
    }
    fn check_writable(&self, path: &Path) -> io::Result<()> {
        self.inner.check_writable(path)
    }
    fn age(&self, path: &Path) -> Option<std::time::Duration> {
        self.inner.age(path)
    }
}
