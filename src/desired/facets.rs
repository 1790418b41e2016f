//! The facets an agent can be given, as the desired file spells them.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::spanned::Sp;
use super::spanned_map::SpannedMap;

/// One MCP server, translated into each agent's own shape.
///
/// Either `command` (a local stdio server) or `url` (a remote one). Values
/// may refer to environment variables as `${env:NAME}`: coffer writes each
/// agent's own reference syntax where the agent expands them itself, so the
/// secret never lands on disk.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// The program of a stdio server.
    #[serde(default)]
    pub command: Option<String>,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Environment variables for it.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// The URL of a remote (streamable HTTP) server.
    #[serde(default)]
    pub url: Option<String>,
    /// HTTP headers for a remote server.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// A server of this name already exists and coffer should take it over:
    /// apply replaces it with this definition, destroy puts the old one back.
    #[serde(default)]
    pub adopt: bool,
    /// Names in `env` or `headers` whose values are secrets written as they
    /// are: never shown in a plan, diff, JSON document or message, and a
    /// file coffer creates to hold one is owner-only.
    #[serde(default)]
    pub sensitive: Vec<String>,
}

/// MCP servers by name.
pub type McpFacet = SpannedMap<McpServer>;

/// Persistent rules text, as a marked block in the agent's instructions file
/// (or a rule file coffer owns, where that is the agent's channel).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InstructionsFacet {
    /// The text itself.
    #[serde(default)]
    pub text: Option<Sp<String>>,
    /// Or a Markdown file with it, relative to the desired file.
    #[serde(default)]
    pub file: Option<Sp<String>>,
}

/// Skill folders (each holding a SKILL.md), relative to the desired file,
/// delivered into the agent's skills folder under their own names.
pub type SkillsFacet = Vec<Sp<String>>;

/// A model endpoint for the agent.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProviderFacet {
    /// The provider id, where the agent names providers (`model_providers.<id>`).
    #[serde(default = "default_provider_id")]
    pub id: String,
    /// A display name. Default: the id.
    #[serde(default)]
    pub name: Option<String>,
    /// The endpoint, e.g. `http://localhost:8080/v1`.
    pub base_url: Sp<String>,
    /// The environment variable that holds the API key (its name, never the key).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// The model to use, where the agent takes one with the provider.
    #[serde(default)]
    pub model: Option<String>,
    /// An entry of that name already exists and coffer should take it over.
    #[serde(default)]
    pub adopt: bool,
}

fn default_provider_id() -> String {
    "coffer".into()
}
