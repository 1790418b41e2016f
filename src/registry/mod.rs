//! The agent descriptors: everything coffer knows about an agent, as data.
//!
//! Each agent is one entry in `agents.yaml` (compiled in), like one row of a
//! capability matrix: for every facet, the mechanism that carries it, the
//! file at user and at project scope, where in the file, the syntax, and the
//! evidence behind each fact — or the evidence that the agent cannot take
//! it. Code elsewhere reads these rows; it never asks which agent it is
//! dealing with. Users can declare agents of their own in the same shape.

pub mod matrix;
mod paths;
mod spec;

use std::sync::OnceLock;

use serde::Deserialize;

pub use paths::{PathError, Scope, expand};
pub use spec::*;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    agents: Vec<AgentDescriptor>,
}

/// One agent: how it takes each facet.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentDescriptor {
    /// The id used in desired files (`claude-code`).
    pub id: String,
    /// The name people know it by.
    pub name: String,
    pub context: ContextSupport,
    pub mcp: McpSupport,
    pub instructions: InstructionsSupport,
    pub skills: SkillsSupport,
    pub provider: ProviderSupport,
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

    /// The built-in agents plus `extra` (declared in a desired file); an
    /// extra agent with a built-in id replaces it.
    pub fn with(&self, extra: &[AgentDescriptor]) -> Registry {
        let mut agents: Vec<AgentDescriptor> = self
            .agents
            .iter()
            .filter(|a| !extra.iter().any(|e| e.id == a.id))
            .cloned()
            .collect();
        agents.extend(extra.iter().cloned());
        Registry { agents }
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
    fn builtin_registry_loads_with_unique_ids_and_evidence() {
        let r = Registry::builtin();
        let mut ids = r.ids();
        assert!(ids.len() >= 3);
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), r.agents().len(), "duplicate agent ids");
        for a in r.agents() {
            for (facet, cell) in a.cells() {
                for scope in [Scope::User, Scope::Project] {
                    let c = cell.at(scope);
                    assert!(
                        c.evidence.starts_with("https://") || c.evidence.contains("https://"),
                        "{} {facet} {scope:?}: evidence must cite a source: {}",
                        a.id,
                        c.evidence
                    );
                }
            }
        }
    }

    #[test]
    fn dialects_are_unique() {
        let mut seen = std::collections::BTreeMap::new();
        for a in Registry::builtin().agents() {
            if let Some(d) = a.context.dialect() {
                assert!(
                    seen.insert(d.to_owned(), a.id.clone()).is_none(),
                    "dialect {d} used twice"
                );
            }
        }
    }
}
