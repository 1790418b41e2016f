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
    /// Built-in agents left unread because nobody asked for them (see
    /// [`Registry::builtin_subset`]); still known by id.
    #[serde(skip)]
    unread: Vec<&'static str>,
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
/// `(id, hook dialect, JSON)` of every built-in agent, in `agents.yaml`'s
/// order (build.rs).
static BUILTIN_INDEX: &[(&str, Option<&str>, &str)] =
    include!(concat!(env!("OUT_DIR"), "/agents_index.rs"));

fn parse_builtin(json: &str) -> AgentDescriptor {
    serde_json::from_str(json).expect("the built-in registry is valid (checked by tests)")
}

impl Registry {
    /// The agents compiled into coffer: `agents.yaml`, converted to JSON
    /// by build.rs because serde_json reads it many times faster than a
    /// YAML parser, and every plan starts here.
    pub fn builtin() -> &'static Registry {
        BUILTIN.get_or_init(Registry::load_builtin)
    }

    /// Read the built-in agents afresh (what [`Registry::builtin`] does
    /// once per process; public for the benchmarks).
    pub fn load_builtin() -> Registry {
        Registry {
            agents: BUILTIN_INDEX
                .iter()
                .map(|(_, _, j)| parse_builtin(j))
                .collect(),
            unread: Vec::new(),
        }
    }

    /// The built-in agents named in `wanted` plus `extra`, which replaces a
    /// built-in agent of the same id: what a plan needs. The other built-in
    /// agents are not read (a plan for five agents read all fourteen: a
    /// third of its work), but [`Registry::ids`] still lists them.
    /// [`Registry::agents`] lists only those read.
    pub fn builtin_subset<'a>(
        wanted: impl IntoIterator<Item = &'a str>,
        extra: &[AgentDescriptor],
    ) -> Registry {
        let wanted: Vec<&str> = wanted.into_iter().collect();
        let mut agents = Vec::new();
        let mut unread = Vec::new();
        for (id, _, json) in BUILTIN_INDEX {
            if extra.iter().any(|e| e.id == *id) {
                continue;
            }
            if wanted.contains(id) {
                agents.push(parse_builtin(json));
            } else {
                unread.push(*id);
            }
        }
        agents.extend(extra.iter().cloned());
        Registry { agents, unread }
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
        Registry {
            agents,
            unread: Vec::new(),
        }
    }

    pub fn get(&self, id: &str) -> Option<&AgentDescriptor> {
        self.agents.iter().find(|a| a.id == id)
    }

    /// Every agent's id: built-in ones in `agents.yaml`'s order, then
    /// those a desired file declares.
    pub fn ids(&self) -> Vec<&str> {
        if self.unread.is_empty() {
            return self.agents.iter().map(|a| a.id.as_str()).collect();
        }
        let read = |id: &str| self.agents.iter().any(|a| a.id == id);
        let builtin = BUILTIN_INDEX
            .iter()
            .map(|(id, _, _)| *id)
            .filter(|id| self.unread.contains(id) || read(id));
        let declared = self
            .agents
            .iter()
            .map(|a| a.id.as_str())
            .filter(|id| !BUILTIN_INDEX.iter().any(|(b, _, _)| b == id));
        builtin.chain(declared).collect()
    }

    /// The hook dialect of every agent coffer knows, read or not (see
    /// [`ContextSupport::dialect`]).
    pub fn dialects(&self) -> Vec<&str> {
        let unread = BUILTIN_INDEX
            .iter()
            .filter(|(id, _, _)| self.unread.contains(id))
            .filter_map(|(_, dialect, _)| *dialect);
        self.agents
            .iter()
            .filter_map(|a| a.context.dialect())
            .chain(unread)
            .collect()
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

    /// The JSON build.rs makes says exactly what the YAML says.
    #[test]
    fn the_json_form_is_the_yaml_form() {
        let yaml: Registry = serde_saphyr::from_str(include_str!("agents.yaml")).unwrap();
        assert_eq!(
            format!("{yaml:?}"),
            format!("{:?}", Registry::builtin()),
            "build.rs lost or changed something converting agents.yaml"
        );
    }

    /// A plan's registry reads only the named agents but knows every id,
    /// and a declared agent replaces the built-in one of its id.
    #[test]
    fn a_subset_reads_only_what_is_named() {
        let all = Registry::builtin();
        let mut codex = all.get("codex").unwrap().clone();
        codex.name = "My Codex".into();
        let sub = Registry::builtin_subset(["cursor", "codex", "nobody"], &[codex]);
        assert_eq!(sub.ids(), all.ids());
        assert_eq!(sub.agents().len(), 2);
        assert_eq!(
            format!("{:?}", sub.get("cursor")),
            format!("{:?}", all.get("cursor"))
        );
        assert_eq!(sub.get("codex").unwrap().name, "My Codex");
        fn sorted(mut v: Vec<&str>) -> Vec<&str> {
            v.sort();
            v
        }
        assert_eq!(sorted(sub.dialects()), sorted(all.dialects()));
        assert_eq!(
            sorted(all.dialects()),
            sorted(
                all.agents()
                    .iter()
                    .filter_map(|a| a.context.dialect())
                    .collect()
            )
        );
        assert!(sub.get("claude-code").is_none());
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
