//! Path templates in agent descriptors, and the two scopes.
//!
//! Agents put user files under the home, and some let an environment
//! variable move them (`${CODEX_HOME:-~/.codex}/hooks.json`); project files
//! are relative to the project root (the folder holding a desired file that
//! says `scope: project`). A template never leads outside those roots: `..`
//! is refused, and only an explicit variable override may point elsewhere.

use std::path::{Component, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::env::Env;

/// Which files a desired file manages.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// The files under the home (`~/.claude/settings.json`, …).
    #[default]
    User,
    /// The project files under the folder that holds the desired file
    /// (`.claude/settings.json`, `.mcp.json`, `AGENTS.md`, …).
    Project,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("path template `{template}`: {reason}")]
pub struct PathError {
    pub template: String,
    pub reason: String,
}

/// Expand a template into the file to use: of alternatives written
/// `a | b`, the first that exists, else the last (opencode reads
/// `opencode.jsonc` when there is one, `opencode.json` otherwise).
pub fn resolve(
    template: &str,
    env: &Env,
    scope: Scope,
    exists: &dyn Fn(&std::path::Path) -> bool,
) -> Result<PathBuf, PathError> {
    let alternatives: Vec<PathBuf> = template
        .split(" | ")
        .map(|t| expand(t.trim(), env, scope))
        .collect::<Result<_, _>>()?;
    let last = alternatives.len() - 1;
    Ok(alternatives
        .iter()
        .position(|p| exists(p))
        .map_or_else(|| alternatives[last].clone(), |i| alternatives[i].clone()))
}

/// Expand `~`, `${VAR}` and `${VAR:-default}` into an absolute path under
/// the home (user scope) or the project root (project scope).
pub fn expand(template: &str, env: &Env, scope: Scope) -> Result<PathBuf, PathError> {
    let err = |reason: &str| PathError {
        template: template.to_owned(),
        reason: reason.to_owned(),
    };
    let mut out = String::new();
    let mut rest = template;
    let mut overridden = false;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('}').ok_or_else(|| err("unclosed ${"))? + i;
        let inner = &rest[i + 2..end];
        let (name, default) = match inner.split_once(":-") {
            Some((n, d)) => (n, Some(d)),
            None => (inner, None),
        };
        match (env.var(name), default) {
            (Some(v), _) => {
                out.push_str(v);
                overridden |= i == 0;
            }
            (None, Some(d)) => out.push_str(d),
            (None, None) => return Err(err(&format!("{name} is not set"))),
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    let path = match (out.strip_prefix("~/"), scope) {
        (Some(tail), _) => env.home.join(tail),
        (None, _) if out == "~" => env.home.clone(),
        (None, Scope::Project) if !out.starts_with('/') => env
            .project_root
            .as_ref()
            .ok_or_else(|| err("project scope needs a project root"))?
            .join(&out),
        (None, _) => PathBuf::from(&out),
    };
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(err("`..` is not allowed in a target path"));
    }
    let root = match scope {
        Scope::User => &env.home,
        Scope::Project => env.project_root.as_ref().unwrap_or(&env.home),
    };
    if !overridden && !path.starts_with(root) {
        return Err(err(&format!("leads outside {}", root.display())));
    }
    if !path.is_absolute() {
        return Err(err("does not expand to an absolute path"));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_home_and_overrides() {
        let mut env = Env::for_home("/h");
        let t = "${CODEX_HOME:-~/.codex}/hooks.json";
        assert_eq!(
            expand(t, &env, Scope::User).unwrap(),
            PathBuf::from("/h/.codex/hooks.json")
        );
        env.vars.insert("CODEX_HOME".into(), "/c".into());
        assert_eq!(
            expand(t, &env, Scope::User).unwrap(),
            PathBuf::from("/c/hooks.json")
        );
        assert!(expand("${NOPE}/x", &env, Scope::User).is_err());
        assert!(expand("/etc/passwd", &env, Scope::User).is_err());
        assert!(expand("~/../x", &env, Scope::User).is_err());
    }

    #[test]
    fn the_first_existing_alternative_wins() {
        let env = Env::for_home("/h");
        let t = "~/o/opencode.jsonc | ~/o/opencode.json";
        let none = resolve(t, &env, Scope::User, &|_| false).unwrap();
        assert_eq!(none, PathBuf::from("/h/o/opencode.json"));
        let jsonc = resolve(t, &env, Scope::User, &|p| p.ends_with("opencode.jsonc")).unwrap();
        assert_eq!(jsonc, PathBuf::from("/h/o/opencode.jsonc"));
    }

    #[test]
    fn project_paths_are_relative_to_the_root() {
        let mut env = Env::for_home("/h");
        assert!(expand(".mcp.json", &env, Scope::Project).is_err());
        env.project_root = Some("/p".into());
        assert_eq!(
            expand(".mcp.json", &env, Scope::Project).unwrap(),
            PathBuf::from("/p/.mcp.json")
        );
        assert!(expand("../x", &env, Scope::Project).is_err());
    }
}
