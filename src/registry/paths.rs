//! Path templates in agent descriptors.
//!
//! Agents put their files under the home, and some let an environment
//! variable move them (`CODEX_HOME`). A template says both:
//! `${CODEX_HOME:-~/.codex}/hooks.json`.

use std::path::PathBuf;

use crate::env::Env;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("path template `{template}`: {reason}")]
pub struct PathError {
    pub template: String,
    pub reason: String,
}

/// Expand `~`, `${VAR}` and `${VAR:-default}` into an absolute path.
pub fn expand(template: &str, env: &Env) -> Result<PathBuf, PathError> {
    let err = |reason: &str| PathError {
        template: template.to_owned(),
        reason: reason.to_owned(),
    };
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('}').ok_or_else(|| err("unclosed ${"))? + i;
        let inner = &rest[i + 2..end];
        let (name, default) = match inner.split_once(":-") {
            Some((n, d)) => (n, Some(d)),
            None => (inner, None),
        };
        match (env.var(name), default) {
            (Some(v), _) => out.push_str(v),
            (None, Some(d)) => out.push_str(d),
            (None, None) => return Err(err(&format!("{name} is not set"))),
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    let path = match out.strip_prefix("~/") {
        Some(tail) => env.home.join(tail),
        None if out == "~" => env.home.clone(),
        None => PathBuf::from(out),
    };
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
        assert_eq!(
            expand("${CODEX_HOME:-~/.codex}/hooks.json", &env).unwrap(),
            PathBuf::from("/h/.codex/hooks.json")
        );
        env.vars.insert("CODEX_HOME".into(), "/c".into());
        assert_eq!(
            expand("${CODEX_HOME:-~/.codex}/hooks.json", &env).unwrap(),
            PathBuf::from("/c/hooks.json")
        );
        assert!(expand("${NOPE}/x", &env).is_err());
        assert!(expand("rel/x", &env).is_err());
    }
}
