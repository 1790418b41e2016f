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
    /// Context settings every agent's `context` facet starts from: its
    /// sources come first, and each setting applies unless the agent's
    /// facet sets it too.
    #[serde(default)]
    pub context: Option<Sp<SharedContext>>,
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
    /// Events at which the hook runs. Default: `[session-start]`. The note
    /// goes out at `session-start`; `user-prompt-submit` carries per-prompt
    /// context, and the note too for an agent without a session-start event.
    #[serde(default)]
    pub events: Option<Vec<Sp<Event>>>,
    /// Where context comes from, after the shared `context.sources`.
    #[serde(default)]
    pub sources: Option<Vec<Sp<SourceSpec>>>,
    /// Tier 1: put the sources' text, capped at `note_max_bytes`, in front of
    /// the model once at each session start. Default: true.
    #[serde(default)]
    pub session_note: Option<bool>,
    /// Tier 2: ask the provider sources (`command`, `url`) again at every
    /// prompt, with the prompt. Default: false.
    #[serde(default)]
    pub per_prompt: Option<bool>,
    /// Cap of the session note in bytes (256 to 65536). Default: 8192.
    #[serde(default)]
    pub note_max_bytes: Option<Sp<u64>>,
    /// Cap of per-prompt context in bytes (256 to 65536). Default: 4096.
    #[serde(default)]
    pub prompt_max_bytes: Option<Sp<u64>>,
    /// Keep an audit log in the state folder: per source its status, timing,
    /// counts, byte count and a keyed fingerprint, never the text. Default:
    /// false.
    #[serde(default)]
    pub audit: Option<bool>,
}

/// Context settings shared by every agent (see the agent facet for each).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SharedContext {
    /// Sources every agent's context facet starts with.
    #[serde(default)]
    pub sources: Option<Vec<Sp<SourceSpec>>>,
    /// Tier 1, the session note, for every agent that does not set it.
    #[serde(default)]
    pub session_note: Option<bool>,
    /// Tier 2, per-prompt context, for every agent that does not set it.
    #[serde(default)]
    pub per_prompt: Option<bool>,
    /// Cap of the session note in bytes, unless an agent sets its own.
    #[serde(default)]
    pub note_max_bytes: Option<Sp<u64>>,
    /// Cap of per-prompt context in bytes, unless an agent sets its own.
    #[serde(default)]
    pub prompt_max_bytes: Option<Sp<u64>>,
    /// The audit log, for every agent that does not set it.
    #[serde(default)]
    pub audit: Option<bool>,
}

/// One place context comes from: exactly one of `file`, `command`, `url`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    /// A file, relative to the desired file or `~/…`; a glob (`rules/*.md`)
    /// takes every file it matches, in name order, when the hook runs.
    #[serde(default)]
    pub file: Option<Sp<String>>,
    /// A provider program and its arguments. The program is a path
    /// (relative to the desired file, `~/…`, absolute) or a bare name found
    /// on PATH. It reads a `coffer.context-request/v1` document on stdin and
    /// prints a `coffer.context-result/v1` document (docs/hook.md).
    #[serde(default)]
    pub command: Option<Sp<Vec<String>>>,
    /// An `http://` endpoint answering GET with a `coffer.context-result/v1`
    /// document or plain text. `{agent}` becomes the agent id; the hook adds
    /// `cwd` as a query parameter when it knows it.
    #[serde(default)]
    pub url: Option<Sp<String>>,
    /// Time limit in milliseconds: 10 to 30000 for a command (default
    /// 15000), 10 to 5000 for a URL (default 5000). Outside, the source is
    /// disabled with a warning.
    #[serde(default)]
    pub timeout_ms: Option<Sp<u64>>,
    /// Most bytes of output read (1024 to 1048576; default 65536). Outside,
    /// the source is disabled with a warning.
    #[serde(default)]
    pub max_output_bytes: Option<Sp<u64>>,
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
