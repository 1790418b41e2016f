//! The desired-state format, version 1, as Rust types.
//!
//! These types are the single definition of the format: the loader
//! deserialises into them and `schemas/coffer.schema.json` is generated from
//! them, so the schema cannot drift from what coffer accepts. Every struct
//! denies unknown keys, because a misspelt key silently ignored is a facet
//! silently not installed.

use std::fmt;

use schemars::JsonSchema;
use serde::Deserialize;

use super::facets::{InstructionsFacet, McpFacet, ProviderFacet, SkillsFacet};
use super::spanned::Sp;
use super::spanned_map::AgentMap;
use crate::registry::Scope;

/// The hook program coffer installs when the desired file names none.
pub const DEFAULT_HOOK_COMMAND: &str = "coffer hook";

/// A coffer desired-state file: which agents get which facets.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "coffer desired state")]
pub struct Desired {
    /// Format version. Only `1` exists.
    pub version: Sp<u32>,
    /// `user` (the default) manages the files under the home; `project`
    /// manages the project files under the folder that holds this file.
    #[serde(default)]
    pub scope: Scope,
    /// The program that installed hooks run.
    #[serde(default)]
    pub hook: HookSettings,
    /// Agents to manage, by id (`coffer agents` lists them), each with the
    /// facets it should get. An agent left out is not touched, except that
    /// what coffer installed for it earlier is taken out again.
    #[serde(default)]
    pub agents: AgentMap,
    /// Agents coffer does not know, declared in the registry's own shape
    /// (see `coffer agents --format json` and src/registry/agents.yaml).
    #[serde(default)]
    pub define: Vec<crate::registry::AgentDescriptor>,
}

/// Settings of the hook program.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookSettings {
    /// The command installed hooks run, before coffer's own arguments. coffer
    /// recognises its hook entries by this program: the same words, the first
    /// compared by file name, so `/usr/local/bin/coffer hook` also matches.
    #[serde(default = "default_hook_command")]
    #[schemars(default = "default_command_text")]
    pub command: Sp<String>,
}

impl Default for HookSettings {
    fn default() -> Self {
        HookSettings {
            command: default_hook_command(),
        }
    }
}

fn default_hook_command() -> Sp<String> {
    Sp::unplaced(DEFAULT_HOOK_COMMAND.to_owned())
}

fn default_command_text() -> String {
    DEFAULT_HOOK_COMMAND.to_owned()
}

/// The facets one agent should get.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentFacets {
    /// Context injection: coffer's hook runs at the listed events and puts
    /// rules and memory in front of the model.
    #[serde(default)]
    pub context: Option<Sp<ContextFacet>>,
    /// MCP servers, by name.
    #[serde(default)]
    pub mcp: Option<Sp<McpFacet>>,
    /// Persistent rules text.
    #[serde(default)]
    pub instructions: Option<Sp<InstructionsFacet>>,
    /// Skill folders to deliver.
    #[serde(default)]
    pub skills: Option<Sp<SkillsFacet>>,
    /// A model endpoint.
    #[serde(default)]
    pub provider: Option<Sp<ProviderFacet>>,
}

/// The context facet.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextFacet {
    /// Events at which the hook runs. Default: `[session-start]`.
    #[serde(default)]
    pub events: Option<Vec<Sp<Event>>>,
}

/// coffer's own event names; the registry maps each to an agent's native name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    SessionStart,
    SessionEnd,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    Stop,
    PreCompact,
}

impl Event {
    pub const ALL: [Event; 7] = [
        Event::SessionStart,
        Event::SessionEnd,
        Event::UserPromptSubmit,
        Event::PreToolUse,
        Event::PostToolUse,
        Event::Stop,
        Event::PreCompact,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Event::SessionStart => "session-start",
            Event::SessionEnd => "session-end",
            Event::UserPromptSubmit => "user-prompt-submit",
            Event::PreToolUse => "pre-tool-use",
            Event::PostToolUse => "post-tool-use",
            Event::Stop => "stop",
            Event::PreCompact => "pre-compact",
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
