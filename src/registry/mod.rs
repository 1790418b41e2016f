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
pub mod templates;

use std::sync::OnceLock;

use serde::Deserialize;

pub use paths::{PathError, Scope, expand, resolve};
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
    fn every_agent_coffer_names_is_built_in() {
        let ids = Registry::builtin().ids();
        for id in [
            "claude-code",
            "codex",
            "cursor",
            "opencode",
            "openclaw",
            "hermes",
            "gemini-cli",
            "windsurf",
            "vscode",
            "copilot-cli",
            "kiro",
            "qwen-code",
            "kilo-code",
            "cline",
        ] {
            assert!(ids.contains(&id), "{id} is missing from agents.yaml");
        }
    }

    /// Each plugin-drop template exists, names the hook program by the
    /// placeholder, and opens with a line saying coffer manages it (a JSON
    /// file, which cannot, says so in its text).
    #[test]
    fn plugin_templates_exist_and_carry_the_placeholder() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/registry/templates");
        for a in Registry::builtin().agents() {
            let ContextSupport::PluginDrop(spec) = &a.context else {
                continue;
            };
            let path = dir.join(&spec.template);
            let files: Vec<std::path::PathBuf> = if path.is_dir() {
                std::fs::read_dir(&path)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect()
            } else {
                vec![path.clone()]
            };
            assert!(
                !files.is_empty(),
                "{}: template {} is empty",
                a.id,
                spec.template
            );
            let texts: Vec<String> = files
                .iter()
                .map(|f| {
                    std::fs::read_to_string(f)
                        .unwrap_or_else(|e| panic!("{}: template {}: {e}", a.id, f.display()))
                })
                .collect();
            assert!(
                texts.iter().any(|t| t.contains("__COFFER_HOOK_ARGV__")),
                "{}: template {} never runs the hook program",
                a.id,
                spec.template
            );
            for (f, t) in files.iter().zip(&texts) {
                // JSON has no comments: a manifest says it in its description.
                let first = if f.extension().is_some_and(|e| e == "json") {
                    t.as_str()
                } else {
                    t.lines().next().unwrap_or("")
                };
                assert!(
                    first.contains("coffer") && first.contains("remove"),
                    "{}: {} must open with a line saying coffer manages it",
                    a.id,
                    f.display()
                );
            }
        }
    }

    /// An agent that runs the hook maps at least one event, and a mapped
    /// native name is never empty.
    #[test]
    fn hooks_map_events() {
        for a in Registry::builtin().agents() {
            let events = match &a.context {
                ContextSupport::ShellCommand(s) => &s.events,
                ContextSupport::PluginDrop(s) => &s.events,
                _ => continue,
            };
            assert!(!events.is_empty(), "{} maps no event", a.id);
            assert!(
                events.values().all(|n| !n.trim().is_empty()),
                "{} maps an event to an empty name",
                a.id
            );
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
