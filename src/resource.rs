//! Resources: the fragments coffer owns inside target files.
//!
//! Facets turn the desired state into resources (what should be there) and
//! claims (what coffer may own there, so that stale fragments are found and
//! taken out). The engine consumes both without knowing which facet or agent
//! made them.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The syntax a target file is read and written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Syntax {
    /// Strict JSON: the agent rejects comments and trailing commas.
    Json,
    /// JSON with comments and trailing commas.
    Jsonc,
    Toml,
    /// YAML (Hermes' config.yaml).
    Yaml,
    /// JSON5 (openclaw.json): comments, unquoted keys, single quotes.
    Json5,
    /// Markdown with coffer's marked blocks.
    Markdown,
    /// A file coffer owns whole.
    Whole,
}

impl Syntax {
    pub fn is_jsonc(self) -> bool {
        matches!(self, Syntax::Jsonc)
    }
}

/// How hook entries nest inside an event's array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HookShape {
    /// `[{matcher?, hooks: [{type, command}]}]` (Claude Code, Codex, Gemini).
    MatcherGroups,
    /// `[{command}]` (Cursor).
    Flat,
}

/// Which facet a resource belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Facet {
    Context,
}

impl fmt::Display for Facet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Facet::Context => "context",
        })
    }
}

/// Who a resource or claim is for, for plans and messages.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Origin {
    pub agent: String,
    pub facet: Facet,
}

/// One fragment coffer wants in one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    pub origin: Origin,
    pub path: PathBuf,
    pub syntax: Syntax,
    pub fragment: Fragment,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fragment {
    /// An element of the array at `array` (object keys from the root).
    ArrayEntry { array: Vec<String>, value: Value },
    /// A top-level key the agent needs; added when missing, taken out again
    /// only when nothing else is left in the document.
    RequiredKey { key: String, value: Value },
}

/// What coffer may own in a file, and how to recognise it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Claim {
    pub origin: Origin,
    pub path: PathBuf,
    pub syntax: Syntax,
    pub kind: ClaimKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ClaimKind {
    /// Hook entries in any event array of the object at `parent` whose
    /// command runs `program`.
    HookEntries {
        parent: Vec<String>,
        shape: HookShape,
        program: Vec<String>,
    },
}
