//! Environment references in desired values: `${env:NAME}`.
//!
//! Where an agent expands references itself, coffer writes the agent's own
//! spelling so the secret never lands on disk. Where it cannot, coffer
//! resolves the reference when it plans, and the value is marked secret so
//! that no plan, diff or message ever shows it.

use std::collections::BTreeMap;

use crate::env::Env;

const OPEN: &str = "${env:";

/// The variable names referenced in `value`.
pub fn names(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = value;
    while let Some(i) = rest.find(OPEN) {
        let after = &rest[i + OPEN.len()..];
        let Some(end) = after.find('}') else {
            break;
        };
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    out
}

/// `NAME` when `value` is exactly `${env:NAME}`.
pub fn exact(value: &str) -> Option<&str> {
    let inner = value.strip_prefix(OPEN)?.strip_suffix('}')?;
    (!inner.contains('}')).then_some(inner)
}

/// Rewrite every reference in the agent's spelling (`pattern` has `NAME`).
pub fn translate(value: &str, pattern: &str) -> String {
    let mut out = value.to_owned();
    for name in names(value) {
        out = out.replace(&format!("{OPEN}{name}}}"), &pattern.replace("NAME", name));
    }
    out
}

/// A variable a desired value refers to is not set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("environment variable {0} is not set")]
pub struct Unset(pub String);

/// Replace every reference with the variable's value; the values used are
/// added to `secrets`.
pub fn resolve(value: &str, env: &Env, secrets: &mut Vec<String>) -> Result<String, Unset> {
    let mut out = value.to_owned();
    for name in names(value) {
        let v = env.var(name).ok_or_else(|| Unset(name.to_owned()))?;
        if !v.is_empty() {
            secrets.push(v.to_owned());
        }
        out = out.replace(&format!("{OPEN}{name}}}"), v);
    }
    Ok(out)
}

/// Translate or resolve every value of a map.
pub fn map(
    values: &BTreeMap<String, String>,
    pattern: Option<&str>,
    env: &Env,
    secrets: &mut Vec<String>,
) -> Result<BTreeMap<String, String>, Unset> {
    values
        .iter()
        .map(|(k, v)| Ok((k.clone(), one(v, pattern, env, secrets)?)))
        .collect()
}

/// Translate (when the agent expands references) or resolve one value.
pub fn one(
    value: &str,
    pattern: Option<&str>,
    env: &Env,
    secrets: &mut Vec<String>,
) -> Result<String, Unset> {
    match pattern {
        Some(p) => Ok(translate(value, p)),
        None => resolve(value, env, secrets),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_and_resolves() {
        assert_eq!(
            translate("Bearer ${env:TOKEN}", "{env:NAME}"),
            "Bearer {env:TOKEN}"
        );
        assert_eq!(exact("${env:A}"), Some("A"));
        assert_eq!(exact("x${env:A}"), None);
        let mut env = Env::for_home("/h");
        env.vars.insert("T".into(), "s3cret".into());
        let mut secrets = Vec::new();
        assert_eq!(
            resolve("Bearer ${env:T}", &env, &mut secrets).unwrap(),
            "Bearer s3cret"
        );
        assert_eq!(secrets, ["s3cret"]);
        assert_eq!(
            resolve("${env:NOPE}", &env, &mut secrets),
            Err(Unset("NOPE".into()))
        );
    }
}
