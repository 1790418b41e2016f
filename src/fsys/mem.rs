//! An in-memory file system for tests of the engine.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::Fs;

#[derive(Debug, Default)]
pub struct MemFs {
    files: Mutex<BTreeMap<PathBuf, Vec<u8>>>,
    dirs: Mutex<BTreeSet<PathBuf>>,
}

impl MemFs {
    /// A file system where `dirs` exist.
    pub fn with_dirs<P: AsRef<Path>>(dirs: &[P]) -> MemFs {
        let fs = MemFs::default();
        for d in dirs {
            for a in d.as_ref().ancestors() {
                fs.dirs.lock().unwrap().insert(a.to_owned());
            }
        }
        fs
    }

    pub fn files(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        self.files.lock().unwrap().clone()
    }

    pub fn put(&self, path: &Path, bytes: &[u8]) {
        self.files
            .lock()
            .unwrap()
            .insert(path.to_owned(), bytes.to_vec());
    }
}

impl Fs for MemFs {
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        Ok(self.files.lock().unwrap().get(path).cloned())
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.dirs.lock().unwrap().contains(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.lock().unwrap().contains_key(path)
    }

    fn write_mode(&self, path: &Path, bytes: &[u8], _new_mode: Option<u32>) -> io::Result<()> {
        if !path.parent().is_some_and(|p| self.is_dir(p)) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no folder for {}", path.display()),
            ));
        }
        self.put(path, bytes);
        Ok(())
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.files
            .lock()
            .unwrap()
            .remove(path)
            .map(|_| ())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, path.display().to_string()))
    }

    fn create_dir(&self, path: &Path) -> io::Result<()> {
        if self.dirs.lock().unwrap().insert(path.to_owned()) {
            Ok(())
        } else {
            Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                path.display().to_string(),
            ))
        }
    }

    fn remove_empty_dir(&self, path: &Path) -> io::Result<bool> {
        let busy = self
            .files
            .lock()
            .unwrap()
            .keys()
            .any(|f| f.starts_with(path))
            || self
                .dirs
                .lock()
                .unwrap()
                .iter()
                .any(|d| d != path && d.starts_with(path));
        Ok(!busy && self.dirs.lock().unwrap().remove(path))
    }
}
