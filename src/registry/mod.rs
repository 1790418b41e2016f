//! The agent descriptors: everything coffer knows about an agent, as data.
//!
//! Each agent is one entry in `agents.yaml` (compiled in): which mechanism
//! carries each facet, which file, where in the file, which syntax, the
//! native event names, and the evidence behind each fact. Code elsewhere
//! reads these rows; it never asks which agent it is dealing with.

mod paths;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Map, Value};

pub use paths::{PathError, expand};

use crate::desired::Event;
use crate::resource::{HookShape, Syntax};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    agents: Vec<AgentDescriptor>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentDescriptor {
    pub id: String,
    pub name: String,
    pub context: ContextSupport,
}

/// How an agent takes the context facet, or why it cannot.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "mechanism", rename_all = "kebab-case")]
pub enum ContextSupport {
    /// A hooks file whose entries run a shell command.
    ShellCommand(Box<HookSpec>),
    Unsupported {
        evidence: String,
    },
}

/// Where and how an agent's hooks file holds command hooks.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    /// The user-scope file, as a path template (`~`, `${VAR:-default}`).
    pub file: String,
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
    /// Where the file, its shape and its events are documented.
    pub evidence: String,
}

static BUILTIN: OnceLock<Registry> = OnceLock::new();

impl Registry {
    /// The agents compiled into coffer.
    pub fn builtin() -> &'static Registry {
        BUILTIN.get_or_init(|| {
            serde_saphyr::from_str(include_str!("agents.yaml"))
                .expect("the built-in registry is valid (checked by tests)")
        })
    }

    pub fn get(&self, id: &str) -> Option<&AgentDescriptor> {
        self.agents.iter().find(|a| a.id == id)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.agents.iter().map(|a| a.id.as_str()).collect()
    }

    pub fn agents(&self) -> &[AgentDescriptor] {
        &self.agents
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_registry_loads_and_names_evidence() {
        let r = Registry::builtin();
        assert_eq!(r.ids(), ["claude-code", "codex", "cursor"]);
        for a in r.agents() {
            if let ContextSupport::ShellCommand(h) = &a.context {
                assert!(h.evidence.starts_with("https://"), "{}", a.id);
                assert!(h.events.contains_key(&Event::SessionStart), "{}", a.id);
            }
        }
    }
}
