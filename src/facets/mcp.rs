//! The mcp facet: one server spec, translated into each agent's own shape
//! through the registry's templates.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::env_refs::{self, Unset};
use super::template::fill;
use super::{Compiled, Placed};
use crate::desired::{DesiredError, McpFacet, McpServer, Sp};
use crate::env::Env;
use crate::registry::{AgentDescriptor, McpSpec, McpSupport};
use crate::resource::{Facet, Fragment, Resource};

pub(super) fn compile(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<McpFacet>,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let spec = match &agent.mcp {
        McpSupport::Members(spec) => spec,
        McpSupport::Unsupported { evidence } => {
            return Err(placed.unsupported(agent, "mcp", facet.span, evidence));
        }
    };
    let (path, origin) = placed.target(agent, Facet::Mcp, &spec.places, facet.span)?;
    for (name, server) in facet.value.iter() {
        check(placed, name, server)?;
        let mut secrets: Vec<String> = server
            .sensitive
            .iter()
            .filter_map(|k| server.env.get(k).or_else(|| server.headers.get(k)))
            .filter(|v| !v.is_empty() && env_refs::names(v).is_empty())
            .cloned()
            .collect();
        let value = render(spec, server, placed.env, &mut secrets).map_err(|Unset(var)| {
            placed.file.error_at(
                name.span,
                &format!("environment variable {var} is not set"),
                "this server refers to it",
                Some(format!(
                    "{} cannot expand environment references in its config, so coffer writes the value itself; set {var} before running coffer",
                    agent.name
                )),
            )
        })?;
        let member = Fragment::Member {
            parent: spec.servers_key.clone(),
            name: name.value.clone(),
            value,
            item_key: None,
            adopt: server.adopt,
        };
        let mut r = Resource::new(origin.clone(), path.clone(), spec.syntax, member);
        r.note = spec.live_writer.then(|| {
            format!(
                "{} rewrites this file while it runs; coffer edits only its own servers",
                agent.name
            )
        });
        r.secrets = secrets;
        r.agent_lock = spec
            .lock
            .as_ref()
            .map(|l| std::path::PathBuf::from(l.replace("{file}", &path.to_string_lossy())));
        out.resources.push(r);
    }
    Ok(())
}

/// A server is either local (command) or remote (url), never both.
fn check(placed: &Placed, name: &Sp<String>, s: &McpServer) -> Result<(), DesiredError> {
    let problem = match (&s.command, &s.url) {
        (Some(_), Some(_)) => Some("has both `command` and `url`"),
        (None, None) => Some("needs `command` (a local server) or `url` (a remote one)"),
        (Some(_), None) if !s.headers.is_empty() => {
            Some("is local: `headers` only apply to a remote server")
        }
        (None, Some(_)) if !s.args.is_empty() || !s.env.is_empty() => {
            Some("is remote: `args` and `env` only apply to a local server")
        }
        _ if s
            .sensitive
            .iter()
            .any(|k| !s.env.contains_key(k) && !s.headers.contains_key(k)) =>
        {
            Some("marks as sensitive a name that is in neither `env` nor `headers`")
        }
        _ => None,
    };
    match problem {
        Some(p) => Err(placed.file.error_at(
            name.span,
            &format!("MCP server `{}` {p}", name.value),
            "this server",
            Some("see docs/facets/mcp.md for the two shapes".into()),
        )),
        None => Ok(()),
    }
}

/// The server in the agent's shape.
fn render(
    spec: &McpSpec,
    s: &McpServer,
    env: &Env,
    secrets: &mut Vec<String>,
) -> Result<Value, Unset> {
    let pattern = spec.env_ref.as_deref();
    let mut slots: BTreeMap<&str, Value> = BTreeMap::new();
    let template = match &s.command {
        Some(_) => &spec.stdio,
        None => &spec.remote,
    };
    // Only what the template uses is resolved: an agent that passes a
    // variable through by name must not need it set when coffer plans.
    let text = Value::Object(template.clone()).to_string();
    let uses = |slot: &str| text.contains(&format!("${{{slot}}}"));
    match (&s.command, &s.url) {
        (Some(command), _) => {
            let command = env_refs::one(command, pattern, env, secrets)?;
            let args: Vec<String> = s
                .args
                .iter()
                .map(|a| env_refs::one(a, pattern, env, secrets))
                .collect::<Result<_, _>>()?;
            let mut argv = vec![command.clone()];
            argv.extend(args.iter().cloned());
            let passthrough: Vec<&String> = s
                .env
                .iter()
                .filter(|(k, v)| env_refs::exact(v) == Some(k.as_str()))
                .map(|(k, _)| k)
                .collect();
            let literal: BTreeMap<String, String> = s
                .env
                .iter()
                .filter(|(k, _)| !passthrough.contains(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            slots.insert("command", json!(command));
            slots.insert("args", json!(args));
            slots.insert("argv", json!(argv));
            if uses("env") {
                slots.insert("env", json!(env_refs::map(&s.env, pattern, env, secrets)?));
            }
            slots.insert("env_passthrough", json!(passthrough));
            if uses("env_literal") {
                slots.insert(
                    "env_literal",
                    json!(env_refs::map(&literal, None, env, secrets)?),
                );
            }
        }
        (None, Some(url)) => {
            let bearer = s
                .headers
                .get("Authorization")
                .and_then(|v| v.strip_prefix("Bearer "))
                .and_then(env_refs::exact);
            // The Authorization header goes to the bearer slot when it is a
            // bearer token from a variable; it is then in no other slot.
            let is_bearer = |k: &str| bearer.is_some() && k == "Authorization";
            let from_env: BTreeMap<&String, &str> = s
                .headers
                .iter()
                .filter(|(k, _)| !is_bearer(k))
                .filter_map(|(k, v)| env_refs::exact(v).map(|n| (k, n)))
                .collect();
            let literal: BTreeMap<String, String> = s
                .headers
                .iter()
                .filter(|(k, _)| !(from_env.contains_key(k) || is_bearer(k)))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            slots.insert("url", json!(env_refs::one(url, pattern, env, secrets)?));
            if uses("headers") {
                slots.insert(
                    "headers",
                    json!(env_refs::map(&s.headers, pattern, env, secrets)?),
                );
            }
            slots.insert("headers_env", json!(from_env));
            slots.insert("bearer_env", json!(bearer));
            if uses("headers_literal") {
                slots.insert(
                    "headers_literal",
                    json!(env_refs::map(&literal, None, env, secrets)?),
                );
            }
        }
        (None, None) => unreachable!("checked above"),
    }
    Ok(fill(&Value::Object(template.clone()), &|k| slots.get(k).cloned()).unwrap_or(Value::Null))
}
