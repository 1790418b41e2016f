//! What `apply` leaves for the hook: one settings file per dialect.
//!
//! The hook runs at every session start of every agent, so it must not parse
//! the desired YAML, consult the registry or resolve paths: `apply` does all
//! of that once and writes the outcome here, under
//! `<state>/hooks/<dialect>.json`. The hook reads this one small JSON file
//! and nothing else of coffer's. These types are the whole contract between
//! the two; they are plain serde types so that the hook links nothing more.
//!
//! The format is versioned by its `format` string. A file of another format
//! (written by a newer coffer) is treated like no file: the hook stays
//! silent until `apply` runs again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The `format` of the files this coffer writes and reads.
pub const FORMAT: &str = "coffer.hook-config/v1";

/// Folder, inside the state folder, of the per-dialect files.
pub const DIR: &str = "hooks";

/// The coffer event names the hook gives a meaning to. Other events are
/// installed by the context facet too, but carry no context.
pub const EVENT_SESSION_START: &str = "session-start";
pub const EVENT_USER_PROMPT_SUBMIT: &str = "user-prompt-submit";

/// Default and hard bounds of every limit. A provider limit outside its
/// bounds disables that provider (with a warning at plan time); a note cap
/// outside its bounds is an error in the desired file.
pub mod limits {
    pub const NOTE_MAX_BYTES: u64 = 8_192;
    pub const PROMPT_MAX_BYTES: u64 = 4_096;
    /// Caps of the injected text. Claude Code moves hook output above 10,000
    /// characters out of the context into a file, so the default stays under.
    pub const CONTEXT_BYTES_BOUNDS: (u64, u64) = (256, 65_536);

    pub const COMMAND_TIMEOUT_MS: u64 = 15_000;
    pub const COMMAND_TIMEOUT_BOUNDS: (u64, u64) = (10, 30_000);
    pub const URL_TIMEOUT_MS: u64 = 5_000;
    pub const URL_TIMEOUT_BOUNDS: (u64, u64) = (10, 5_000);
    pub const OUTPUT_BYTES: u64 = 65_536;
    pub const OUTPUT_BYTES_BOUNDS: (u64, u64) = (1_024, 1_048_576);
    /// A file source is read up to the note cap; this bounds one file.
    pub const FILE_MAX_BYTES: u64 = 65_536;

    pub const STDIN_MAX_BYTES: u64 = 1_048_576;
    pub const STDIN_TIMEOUT_MS: u64 = 1_000;
}

/// The hook's settings for one dialect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookConfig {
    /// Always [`FORMAT`].
    pub format: String,
    /// The agent id (registry), sent to providers and put in URLs.
    pub agent: String,
    pub dialect: String,
    /// Native event name → coffer event name, for the events installed.
    pub events: BTreeMap<String, String>,
    /// Tier 1: the capped note at session start.
    pub session_note: bool,
    /// Tier 2: provider context at every prompt.
    pub per_prompt: bool,
    pub note_max_bytes: u64,
    pub prompt_max_bytes: u64,
    pub stdin_max_bytes: u64,
    pub stdin_timeout_ms: u64,
    /// Append a privacy-preserving line per source to the audit log.
    pub audit: bool,
    /// In the order the desired file lists them (shared ones first).
    pub sources: Vec<Source>,
}

/// One place context comes from, fully resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Stable within the file (`file-1`, `command-2`, …); names the source
    /// in the audit log and in per-session retry bookkeeping.
    pub id: String,
    #[serde(flatten)]
    pub kind: SourceKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum SourceKind {
    /// A file, or every file a glob matches (sorted), read at run time.
    File {
        /// Absolute path or absolute glob pattern.
        path: PathBuf,
        glob: bool,
    },
    /// A provider program speaking `coffer.context-request/v1` on stdin and
    /// `coffer.context-result/v1` on stdout.
    Command {
        /// Program (absolute, or a bare name looked up on PATH) and arguments.
        argv: Vec<String>,
        timeout_ms: u64,
        max_output_bytes: u64,
    },
    /// An HTTP GET endpoint; `{agent}` is already substituted.
    Url {
        url: String,
        timeout_ms: u64,
        max_output_bytes: u64,
    },
}

impl SourceKind {
    /// Whether the source can say something new at each prompt. A file says
    /// the same thing every time, so it belongs to the session note only.
    pub fn is_provider(&self) -> bool {
        !matches!(self, SourceKind::File { .. })
    }
}

/// `<state>/hooks/<dialect>.json` for the user scope; for a project,
/// `<state>/hooks/projects/<key>/<dialect>.json`, so that a project's
/// desired state and the home's never overwrite each other's settings.
pub fn path(state_dir: &Path, project: Option<&Path>, dialect: &str) -> PathBuf {
    let dir = state_dir.join(DIR);
    let dir = match project {
        Some(root) => dir.join("projects").join(project_key(root)),
        None => dir,
    };
    dir.join(format!("{dialect}.json"))
}

/// A short, stable name for a project root.
pub fn project_key(root: &Path) -> String {
    super::sha256(root.as_os_str().as_encoded_bytes())[..16].to_owned()
}

/// The settings that apply in `cwd`: those of the nearest project above it
/// that has some, else the user scope's. A few `stat`s: cheap enough for
/// the hook's start.
pub fn find(state_dir: &Path, cwd: Option<&Path>, dialect: &str) -> PathBuf {
    for dir in cwd.into_iter().flat_map(Path::ancestors) {
        let p = path(state_dir, Some(dir), dialect);
        if p.is_file() {
            return p;
        }
    }
    path(state_dir, None, dialect)
}

/// The bytes `apply` writes.
pub fn encode(config: &HookConfig) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(config).expect("the hook config serialises");
    out.push(b'\n');
    out
}

/// A config read back, or `None` when it is not one this coffer reads.
pub fn decode(bytes: &[u8]) -> Option<HookConfig> {
    let config: HookConfig = serde_json::from_slice(bytes).ok()?;
    (config.format == FORMAT).then_some(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_other_formats() {
        let config = HookConfig {
            format: FORMAT.into(),
            agent: "claude-code".into(),
            dialect: "claude".into(),
            events: [("SessionStart".into(), EVENT_SESSION_START.into())].into(),
            session_note: true,
            per_prompt: false,
            note_max_bytes: limits::NOTE_MAX_BYTES,
            prompt_max_bytes: limits::PROMPT_MAX_BYTES,
            stdin_max_bytes: limits::STDIN_MAX_BYTES,
            stdin_timeout_ms: limits::STDIN_TIMEOUT_MS,
            audit: false,
            sources: vec![
                Source {
                    id: "file-1".into(),
                    kind: SourceKind::File {
                        path: "/r/*.md".into(),
                        glob: true,
                    },
                },
                Source {
                    id: "command-2".into(),
                    kind: SourceKind::Command {
                        argv: vec!["/bin/p".into()],
                        timeout_ms: 15_000,
                        max_output_bytes: 65_536,
                    },
                },
            ],
        };
        let bytes = encode(&config);
        assert_eq!(decode(&bytes), Some(config.clone()));
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("\"kind\": \"command\""), "{text}");
        let newer = text.replace(FORMAT, "coffer.hook-config/v2");
        assert_eq!(decode(newer.as_bytes()), None);
        assert_eq!(decode(b"{"), None);
    }
}
