//! coffer's provenance record (the ledger).
//!
//! Content says which hook entries are coffer's, but not who created the
//! `hooks` object around them, or what an empty `{ }` looked like before
//! coffer expanded it. The ledger remembers exactly that, per target file,
//! so that taking coffer's fragments out gives back the original bytes. A
//! lost ledger degrades safely: recognisable entries still come out, and
//! anything whose origin cannot be proved stays.
//!
//! [`hook_config`] holds the other thing coffer keeps in its state folder:
//! the settings `apply` leaves for the hook program.

pub mod hook_config;

pub mod journal;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::env::Env;
use crate::fsys::Fs;
use crate::resource::{Claim, Syntax};

const LEDGER_VERSION: u32 = 1;

/// Everything coffer did, per desired state: the user scope of this home
/// (`user`) and each project (`project:<root>`). A desired file reconciles
/// its own partition only, so applying a project's desired file never takes
/// out what the user-scope file installed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub version: u32,
    pub scopes: BTreeMap<String, Files>,
    /// An apply in progress (see `journal`); settled when loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<journal::Pending>,
}

/// The records of one desired state, by target file.
pub type Files = BTreeMap<PathBuf, FileRecord>;

impl Default for Ledger {
    fn default() -> Self {
        Ledger {
            version: LEDGER_VERSION,
            scopes: BTreeMap::new(),
            pending: None,
        }
    }
}

/// What coffer did to one target file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileRecord {
    pub syntax: Syntax,
    /// What coffer may own in the file, so that it can take it out even
    /// after the desired file stops naming the agent.
    #[serde(default)]
    pub claims: Vec<Claim>,
    /// coffer created the file: it is deleted once nothing else is in it.
    #[serde(default)]
    pub created_file: bool,
    /// Folders coffer created for the file, outermost first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_dirs: Vec<PathBuf>,
    /// Containers coffer created (key paths), removed once empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_containers: Vec<Vec<String>>,
    /// Top-level keys coffer added because the agent needs them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_root_keys: Vec<CreatedKey>,
    /// Empty containers coffer expanded, with their original inside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub emptied: Vec<Emptied>,
    /// Empty YAML values coffer turned into mappings, with their old text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub yaml_expanded: Vec<crate::formats::yaml::Expanded>,
    /// Named members coffer owns (MCP servers, providers, settings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<OwnedMember>,
    /// Marked blocks coffer placed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<OwnedBlock>,
    /// coffer owns the whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole: Option<OwnedWhole>,
    /// SHA-256 of the bytes coffer last wrote.
    pub sha256: String,
}

impl FileRecord {
    pub fn new(syntax: Syntax) -> FileRecord {
        FileRecord {
            syntax,
            claims: Vec::new(),
            created_file: false,
            created_dirs: Vec::new(),
            created_containers: Vec::new(),
            created_root_keys: Vec::new(),
            emptied: Vec::new(),
            yaml_expanded: Vec::new(),
            members: Vec::new(),
            blocks: Vec::new(),
            whole: None,
            sha256: String::new(),
        }
    }

    /// Whether the record still holds anything to undo.
    pub fn holds_provenance(&self) -> bool {
        self.created_file
            || !self.created_containers.is_empty()
            || !self.created_root_keys.is_empty()
            || !self.emptied.is_empty()
            || !self.yaml_expanded.is_empty()
            || !self.members.is_empty()
            || !self.blocks.is_empty()
            || self.whole.is_some()
    }

    /// Every agent with a stake in the file.
    pub fn agents(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .claims
            .iter()
            .map(|c| c.origin.agent.as_str())
            .collect();
        out.extend(
            self.members
                .iter()
                .flat_map(|m| m.origins.iter().map(String::as_str)),
        );
        out.extend(
            self.blocks
                .iter()
                .flat_map(|b| b.origins.iter().map(String::as_str)),
        );
        out.extend(
            self.whole
                .iter()
                .flat_map(|w| w.origins.iter().map(String::as_str)),
        );
        out.sort();
        out.dedup();
        out
    }
}

/// A named member coffer owns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnedMember {
    pub parent: Vec<String>,
    pub name: String,
    /// Set when the member is an item of the list at `parent` (see
    /// `Fragment::Member`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_key: Option<String>,
    pub facet: crate::resource::Facet,
    /// The agents that want it.
    pub origins: Vec<String>,
    /// The value it had before coffer adopted it, put back on removal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adopted: Option<serde_json::Value>,
}

/// A file coffer owns whole, for these agents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnedWhole {
    pub facet: crate::resource::Facet,
    pub origins: Vec<String>,
}

/// A marked block coffer placed, and how, so removal is exact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnedBlock {
    pub name: String,
    pub origins: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<crate::formats::markdown::Placement>,
}

/// A top-level key coffer added (Cursor's `version`), and the other tools'
/// hook entries that were in the file then. It leaves with coffer's own
/// entries unless someone added a hook since, who may rely on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedKey {
    pub key: String,
    /// Short hashes of the foreign hook entries present when it was added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub foreign_entries: Vec<String>,
}

/// An empty container coffer expanded; its old inside comes back on removal.
pub use crate::formats::json::edit::Expanded as Emptied;

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("cannot read coffer's state {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("coffer's state {path} is damaged: {source}")]
    Damaged {
        path: String,
        #[source]
        source: serde_json::Error,
    },
}

pub fn ledger_path(env: &Env) -> PathBuf {
    env.state_dir.join("state.json")
}

pub fn load(fs: &dyn Fs, env: &Env) -> Result<Ledger, StateError> {
    let path = ledger_path(env);
    let shown = || env.display(&path);
    match fs.read(&path) {
        Ok(None) => Ok(Ledger::default()),
        Ok(Some(bytes)) => {
            let mut ledger: Ledger =
                serde_json::from_slice(&bytes).map_err(|source| StateError::Damaged {
                    path: shown(),
                    source,
                })?;
            journal::settle(&mut ledger, fs);
            Ok(ledger)
        }
        Err(source) => Err(StateError::Io {
            path: shown(),
            source,
        }),
    }
}

/// A fingerprint of the ledger as it is on disk, so that a plan can tell
/// whether another run changed it since.
pub fn fingerprint(fs: &dyn Fs, env: &Env) -> Result<String, StateError> {
    let path = ledger_path(env);
    match fs.read(&path) {
        Ok(Some(bytes)) => Ok(sha256(&bytes)),
        Ok(None) => Ok("absent".into()),
        Err(source) => Err(StateError::Io {
            path: env.display(&path),
            source,
        }),
    }
}

/// The ledger's bytes as they are written.
pub fn encode(ledger: &Ledger) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(ledger).expect("the ledger serialises");
    out.push(b'\n');
    out
}

/// Write the ledger, creating the state folder when needed.
pub fn save(fs: &dyn Fs, env: &Env, ledger: &Ledger) -> std::io::Result<()> {
    let path = ledger_path(env);
    for dir in crate::fsys::missing_dirs(fs, &path) {
        fs.create_dir(&dir)?;
    }
    fs.write_mode(&path, &encode(ledger), Some(0o600))
}

/// Hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `path` is the ledger itself (never a target).
pub fn is_ledger(env: &Env, path: &Path) -> bool {
    path == ledger_path(env)
}
