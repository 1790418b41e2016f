//! The shape of one registry row: per facet, a mechanism and its data, or
//! the evidence that the agent cannot take the facet.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::Scope;
use crate::desired::Event;
use crate::resource::{HookShape, Syntax};

/// Where a facet lives at one scope: a path template, or why there is none.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Location {
    /// A file (or folder) path: `~/…`, `${VAR:-default}/…` at user scope,
    /// relative to the project root at project scope.
    Path(String),
    Unsupported {
        /// Why the agent has nothing here, with a link to the evidence.
        unsupported: String,
    },
}

impl Location {
    pub fn path(&self) -> Result<&str, &str> {
        match self {
            Location::Path(p) => Ok(p),
            Location::Unsupported { unsupported } => Err(unsupported),
        }
    }
}

/// The user- and project-scope locations of a facet, with their evidence.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Places {
    pub user: Location,
    pub project: Location,
}

impl Places {
    pub fn at(&self, scope: Scope) -> &Location {
        match scope {
            Scope::User => &self.user,
            Scope::Project => &self.project,
        }
    }
}

/// How an agent takes the context facet.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "mechanism", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ContextSupport {
    /// A hooks file whose entries run a shell command.
    ShellCommand(Box<HookSpec>),
    /// A thin plugin file coffer owns whole, which runs the hook program.
    PluginDrop(PluginSpec),
    /// No working hook: the context goes into a marked instructions block.
    InstructionsBlock(BlockSpec),
    Unsupported {
        evidence: String,
    },
}

/// Where and how an agent's hooks file holds command hooks.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    #[serde(flatten)]
    pub places: Places,
    pub syntax: Syntax,
    /// Keys from the document root to the object of events.
    pub hooks_key: Vec<String>,
    pub shape: HookShape,
    /// The `--dialect` the installed command passes to `coffer hook`.
    pub dialect: String,
    /// Fields every hook entry carries before `command`.
    #[serde(default)]
    pub entry: Map<String, Value>,
    /// Top-level keys the file must have for the agent to read it.
    #[serde(default)]
    pub root_keys: Map<String, Value>,
    /// coffer event → the agent's native event name.
    pub events: BTreeMap<Event, String>,
    /// Something the plan should tell the user about these hooks (Codex
    /// runs a new hook only once the user trusted it).
    #[serde(default)]
    pub note: Option<String>,
    /// Where the file, its shape and its events are documented.
    pub evidence: String,
}

/// A plugin file coffer drops and owns whole.
///
/// The template is a file under `src/registry/templates/`, or a folder of
/// files when the agent's plugin is a folder (OpenClaw: a manifest beside its
/// entry module). Every template names the hook program with the placeholder
/// `__COFFER_HOOK_ARGV__`, which coffer replaces with a JSON array of its
/// words (`["coffer","hook"]`); the plugin appends `--dialect` and `--event`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PluginSpec {
    /// The plugin file (or, for a folder template, the plugin folder) at
    /// each scope.
    #[serde(flatten)]
    pub places: Places,
    /// The built-in template the file (or folder) is rendered from
    /// (`src/registry/templates/`).
    pub template: String,
    pub dialect: String,
    /// The native event names the plugin passes to the hook program.
    pub events: BTreeMap<Event, String>,
    pub evidence: String,
}

/// A marked block in a Markdown instructions file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockSpec {
    #[serde(flatten)]
    pub places: Places,
    pub evidence: String,
}

/// A rule file coffer owns whole, in a folder of rule files.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The folder of rule files at each scope.
    #[serde(flatten)]
    pub places: Places,
    /// File extension, without the dot (`mdc`).
    pub extension: String,
    /// Frontmatter keys every coffer rule file carries.
    #[serde(default)]
    pub frontmatter: Map<String, Value>,
    pub evidence: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "mechanism", rename_all = "kebab-case", deny_unknown_fields)]
pub enum InstructionsSupport {
    MarkdownBlock(BlockSpec),
    RuleFile(RuleSpec),
    Unsupported { evidence: String },
}

/// MCP servers as named members of an object (JSON) or tables (TOML).
///
/// `stdio` and `remote` are templates of one server entry. A string value
/// that is exactly a placeholder is replaced by a value of the server spec,
/// and dropped when that value is empty: `${command}`, `${args}`, `${argv}`
/// (command and args as one array), `${env}`, `${url}`, `${headers}`, and,
/// for agents that cannot expand environment references themselves,
/// `${env_passthrough}` (names whose value is a reference to the same
/// name), `${env_literal}`, `${headers_env}` (header → variable name),
/// `${bearer_env}`, `${headers_literal}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpSpec {
    #[serde(flatten)]
    pub places: Places,
    pub syntax: Syntax,
    /// Keys from the root to the object (or table) of servers.
    pub servers_key: Vec<String>,
    pub stdio: Map<String, Value>,
    pub remote: Map<String, Value>,
    /// How the agent spells a reference to an environment variable, with
    /// `NAME` for the name (`${env:NAME}`); absent when it cannot, and
    /// references are then resolved when coffer plans.
    #[serde(default)]
    pub env_ref: Option<String>,
    /// The agent rewrites this file itself while it runs: coffer says so in
    /// the plan and keeps its edits to its own members.
    #[serde(default)]
    pub live_writer: bool,
    /// The lock folder the agent takes while it writes the file (`{file}`
    /// stands for the file's path): coffer takes it too.
    #[serde(default)]
    pub lock: Option<String>,
    pub evidence: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "mechanism", rename_all = "kebab-case", deny_unknown_fields)]
pub enum McpSupport {
    Members(Box<McpSpec>),
    Unsupported { evidence: String },
}

/// A folder of skill folders (each with a SKILL.md).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillsSpec {
    #[serde(flatten)]
    pub places: Places,
    pub evidence: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "mechanism", rename_all = "kebab-case", deny_unknown_fields)]
pub enum SkillsSupport {
    SkillFolders(SkillsSpec),
    Unsupported { evidence: String },
}

/// A model endpoint as one named member rendered from a template.
///
/// Placeholders: `${id}`, `${name}`, `${base_url}`, `${api_key_env}`,
/// `${api_key_ref}` (the agent's reference to that variable), `${model}`;
/// members whose placeholder has no value are dropped.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProviderSpec {
    #[serde(flatten)]
    pub places: Places,
    pub syntax: Syntax,
    /// Keys from the root to the object (or table) that holds the member.
    pub parent: Vec<String>,
    /// The member's name (a template: `${id}`).
    pub name: String,
    /// When set, `parent` is a list of objects and the member is the item
    /// whose field of this name is `name`: coffer owns that item, not the
    /// list. JSON files only.
    #[serde(default)]
    pub item_key: Option<String>,
    /// The member's value (a template).
    pub value: Value,
    #[serde(default)]
    pub env_ref: Option<String>,
    pub evidence: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "mechanism", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ProviderSupport {
    Member(Box<ProviderSpec>),
    Unsupported { evidence: String },
}

/// One cell of the capability matrix at one scope.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CellAt<'a> {
    pub supported: bool,
    /// The mechanism, or `unsupported`.
    pub mechanism: &'static str,
    /// The file or folder (a template), when supported.
    pub path: Option<&'a str>,
    pub evidence: &'a str,
}

/// A facet's support for one agent, for the matrix.
pub struct Cell<'a> {
    mechanism: &'static str,
    places: Option<&'a Places>,
    evidence: &'a str,
}

impl<'a> Cell<'a> {
    pub fn at(&self, scope: Scope) -> CellAt<'a> {
        match self.places.map(|p| p.at(scope)) {
            Some(Location::Path(p)) => CellAt {
                supported: true,
                mechanism: self.mechanism,
                path: Some(p),
                evidence: self.evidence,
            },
            Some(Location::Unsupported { unsupported }) => CellAt {
                supported: false,
                mechanism: "unsupported",
                path: None,
                evidence: unsupported,
            },
            None => CellAt {
                supported: false,
                mechanism: "unsupported",
                path: None,
                evidence: self.evidence,
            },
        }
    }
}

fn cell<'a>(mechanism: &'static str, places: Option<&'a Places>, evidence: &'a str) -> Cell<'a> {
    Cell {
        mechanism,
        places,
        evidence,
    }
}

impl super::AgentDescriptor {
    /// Every facet of this agent, in matrix order.
    pub fn cells(&self) -> Vec<(&'static str, Cell<'_>)> {
        let context = match &self.context {
            ContextSupport::ShellCommand(s) => cell("shell-command", Some(&s.places), &s.evidence),
            ContextSupport::PluginDrop(s) => cell("plugin-drop", Some(&s.places), &s.evidence),
            ContextSupport::InstructionsBlock(s) => {
                cell("instructions-block", Some(&s.places), &s.evidence)
            }
            ContextSupport::Unsupported { evidence } => cell("unsupported", None, evidence),
        };
        let mcp = match &self.mcp {
            McpSupport::Members(s) => cell("members", Some(&s.places), &s.evidence),
            McpSupport::Unsupported { evidence } => cell("unsupported", None, evidence),
        };
        let instructions = match &self.instructions {
            InstructionsSupport::MarkdownBlock(s) => {
                cell("markdown-block", Some(&s.places), &s.evidence)
            }
            InstructionsSupport::RuleFile(s) => cell("rule-file", Some(&s.places), &s.evidence),
            InstructionsSupport::Unsupported { evidence } => cell("unsupported", None, evidence),
        };
        let skills = match &self.skills {
            SkillsSupport::SkillFolders(s) => cell("skill-folders", Some(&s.places), &s.evidence),
            SkillsSupport::Unsupported { evidence } => cell("unsupported", None, evidence),
        };
        let provider = match &self.provider {
            ProviderSupport::Member(s) => cell("member", Some(&s.places), &s.evidence),
            ProviderSupport::Unsupported { evidence } => cell("unsupported", None, evidence),
        };
        vec![
            ("context", context),
            ("mcp", mcp),
            ("instructions", instructions),
            ("skills", skills),
            ("provider", provider),
        ]
    }
}

impl ContextSupport {
    /// The `--dialect` this agent's hook entries pass, if it runs the hook.
    pub fn dialect(&self) -> Option<&str> {
        match self {
            ContextSupport::ShellCommand(s) => Some(&s.dialect),
            ContextSupport::PluginDrop(s) => Some(&s.dialect),
            _ => None,
        }
    }
}
