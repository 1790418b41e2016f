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
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Facet {
    Context,
    Mcp,
    Instructions,
    Skills,
    Provider,
}

impl fmt::Display for Facet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Facet::Context => "context",
            Facet::Mcp => "mcp",
            Facet::Instructions => "instructions",
            Facet::Skills => "skills",
            Facet::Provider => "provider",
        })
    }
}

/// Who a resource or claim is for, for plans and messages.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Origin {
    pub agent: String,
    pub facet: Facet,
}

impl Resource {
    /// A resource for one agent, with nothing to note, hide or lock.
    pub fn new(origin: Origin, path: PathBuf, syntax: Syntax, fragment: Fragment) -> Resource {
        Resource {
            origins: vec![origin],
            path,
            syntax,
            fragment,
            note: None,
            secrets: Vec::new(),
            agent_lock: None,
        }
    }

    pub fn agents(&self) -> Vec<String> {
        self.origins.iter().map(|o| o.agent.clone()).collect()
    }

    pub fn facet(&self) -> Facet {
        self.origins[0].facet
    }
}

/// One fragment coffer wants in one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// The agents that want it (several when they share a file).
    pub origins: Vec<Origin>,
    pub path: PathBuf,
    pub syntax: Syntax,
    pub fragment: Fragment,
    /// Something the plan should tell the reader about this file.
    pub note: Option<String>,
    /// Values in the fragment that must never be shown (resolved secrets).
    pub secrets: Vec<String>,
    /// The lock folder the file's agent takes while it writes the file.
    pub agent_lock: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fragment {
    /// An element of the array at `array` (object keys from the root).
    ArrayEntry { array: Vec<String>, value: Value },
    /// A top-level key the agent needs; added when missing, taken out again
    /// with coffer's entries.
    RequiredKey { key: String, value: Value },
    /// A named member of the object (or table) at `parent`, owned by coffer
    /// through the ledger: an MCP server, a provider, a setting.
    Member {
        parent: Vec<String>,
        name: String,
        value: Value,
        /// When set, `parent` is a list and the member is its item whose
        /// field of this name is `name` (Qwen's `modelProviders.openai`).
        item_key: Option<String>,
        /// Take over a member of that name that coffer did not create.
        adopt: bool,
    },
    /// A marked block in a Markdown file.
    Block { name: String, body: String },
    /// The whole file; `executable` for a script a skill runs.
    File { content: String, executable: bool },
}

impl Fragment {
    /// What identifies the fragment within its file: two resources with the
    /// same identity must agree on the value, or they conflict.
    pub fn identity(&self) -> String {
        match self {
            Fragment::ArrayEntry { array, value } => format!("{} entry {value}", array.join(".")),
            Fragment::RequiredKey { key, .. } => key.clone(),
            Fragment::Member {
                parent,
                name,
                item_key,
                ..
            } => member_label(parent, name, item_key.as_deref()),
            Fragment::Block { name, .. } => format!("block {name}"),
            Fragment::File { .. } => "file".into(),
        }
    }

    /// How a plan names the fragment.
    pub fn label(&self) -> String {
        match self {
            Fragment::ArrayEntry { array, .. } => format!("{} entry", array.join(".")),
            Fragment::RequiredKey { key, .. } => key.clone(),
            Fragment::Member {
                parent,
                name,
                item_key,
                ..
            } => member_label(parent, name, item_key.as_deref()),
            Fragment::Block { name, .. } => format!("block {name}"),
            Fragment::File { .. } => "file".into(),
        }
    }
}

pub fn member_label(parent: &[String], name: &str, item_key: Option<&str>) -> String {
    match item_key {
        Some(key) => format!("{}[{key}={name}]", parent.join(".")),
        None => {
            let mut p = parent.to_vec();
            p.push(name.to_owned());
            p.join(".")
        }
    }
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
