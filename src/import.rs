//! `coffer import`: a desired file from what is already installed, for
//! users who set their agents up by hand.
//!
//! Each agent's files are read where the registry says they are. coffer's
//! own hook entries and plugins become the `context` facet; every MCP
//! server found becomes an `mcp` entry with `adopt: true`, because coffer
//! did not create it and must take it over explicitly. Environment
//! references are turned back from the agent's spelling into `${env:NAME}`.
//! Nothing is written but the desired file.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::env::Env;
use crate::formats::json::Flavor;
use crate::formats::json::validate::validate;
use crate::formats::json::value;
use crate::formats::text::Text;
use crate::formats::toml::TomlDoc;
use crate::fsys::Fs;
use crate::ownership::owns_hook_entry;
use crate::registry::{ContextSupport, McpSupport, Registry, Scope, resolve};
use crate::resource::Syntax;

/// What `import` found, as a desired file's text.
pub fn import(
    registry: &Registry,
    env: &Env,
    fs: &dyn Fs,
    scope: Scope,
    program: &[String],
) -> String {
    let mut agents = Map::new();
    for agent in registry.agents() {
        let mut facets = Map::new();
        if let Some(events) = context(agent, env, fs, scope, program) {
            facets.insert("context".into(), events);
        }
        if let Some(servers) = mcp(agent, env, fs, scope) {
            facets.insert("mcp".into(), servers);
        }
        if !facets.is_empty() {
            agents.insert(agent.id.clone(), Value::Object(facets));
        }
    }
    let mut doc = Map::new();
    doc.insert("version".into(), json!(1));
    if scope == Scope::Project {
        doc.insert("scope".into(), json!("project"));
    }
    doc.insert("agents".into(), Value::Object(agents));
    let body = serde_saphyr::to_string(&Value::Object(doc)).unwrap_or_default();
    format!(
        "# Written by `coffer import` from what is installed now (`coffer schema` prints the format).\n\
         # Review it, then run `coffer plan`: it should show no changes.\n{body}"
    )
}

/// Read a target as JSON (any of coffer's JSON flavours) or TOML.
fn read(fs: &dyn Fs, path: &std::path::Path, syntax: Syntax) -> Option<Value> {
    let text = Text::decode(&fs.read(path).ok()??).ok()?.body;
    match syntax {
        Syntax::Json | Syntax::Jsonc | Syntax::Json5 => {
            // Strict files are read leniently: a comment is no reason not
            // to import what is there.
            let flavor = match syntax {
                Syntax::Json5 => Flavor::Json5,
                _ => Flavor::Jsonc,
            };
            validate(&text, flavor).ok()?;
            value::parse(&text, flavor)
        }
        Syntax::Toml => TomlDoc::parse(&text).ok()?.get(&[]),
        _ => None,
    }
}

fn at<'a>(mut v: &'a Value, path: &[String]) -> Option<&'a Value> {
    for k in path {
        v = v.get(k)?;
    }
    Some(v)
}

fn context(
    agent: &crate::registry::AgentDescriptor,
    env: &Env,
    fs: &dyn Fs,
    scope: Scope,
    program: &[String],
) -> Option<Value> {
    match &agent.context {
        ContextSupport::ShellCommand(spec) => {
            let path = resolve(spec.places.at(scope).path().ok()?, env, scope, &|p| {
                fs.is_file(p)
            })
            .ok()?;
            let doc = read(fs, &path, spec.syntax)?;
            let events = at(&doc, &spec.hooks_key)?.as_object()?;
            let mut found = Vec::new();
            for (event, native) in &spec.events {
                let entries = events.get(native).and_then(Value::as_array);
                if entries
                    .is_some_and(|es| es.iter().any(|e| owns_hook_entry(e, spec.shape, program)))
                {
                    found.push(json!(event.as_str()));
                }
            }
            (!found.is_empty()).then(|| json!({ "events": found }))
        }
        ContextSupport::PluginDrop(spec) => {
            let path = resolve(spec.places.at(scope).path().ok()?, env, scope, &|p| {
                fs.is_file(p)
            })
            .ok()?;
            (fs.is_file(&path) || fs.is_dir(&path)).then(|| json!({}))
        }
        _ => None,
    }
}

fn mcp(
    agent: &crate::registry::AgentDescriptor,
    env: &Env,
    fs: &dyn Fs,
    scope: Scope,
) -> Option<Value> {
    let McpSupport::Members(spec) = &agent.mcp else {
        return None;
    };
    let path = resolve(spec.places.at(scope).path().ok()?, env, scope, &|p| {
        fs.is_file(p)
    })
    .ok()?;
    let doc = read(fs, &path, spec.syntax)?;
    let servers = at(&doc, &spec.servers_key)?.as_object()?;
    let unref = |s: &str| match &spec.env_ref {
        Some(pattern) => un_reference(s, pattern),
        None => s.to_owned(),
    };
    let mut out = Map::new();
    for (name, server) in servers {
        if let Some(s) = server_spec(server, &unref) {
            out.insert(name.clone(), s);
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// A server in an agent's shape, back in coffer's.
fn server_spec(server: &Value, unref: &dyn Fn(&str) -> String) -> Option<Value> {
    let map = |v: Option<&Value>| -> BTreeMap<String, String> {
        v.and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), unref(v.as_str()?))))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = Map::new();
    match server.get("command") {
        Some(Value::String(c)) => {
            out.insert("command".into(), json!(unref(c)));
            if let Some(args) = server.get("args").and_then(Value::as_array) {
                let args: Vec<String> = args.iter().filter_map(|a| a.as_str().map(unref)).collect();
                out.insert("args".into(), json!(args));
            }
        }
        Some(Value::Array(argv)) => {
            let argv: Vec<String> = argv.iter().filter_map(|a| a.as_str().map(unref)).collect();
            let (command, args) = argv.split_first()?;
            out.insert("command".into(), json!(command));
            out.insert("args".into(), json!(args));
        }
        _ => {
            let url = ["url", "httpUrl", "serverUrl"]
                .iter()
                .find_map(|k| server.get(*k)?.as_str())?;
            out.insert("url".into(), json!(unref(url)));
            let headers = map(server.get("headers").or(server.get("http_headers")));
            if !headers.is_empty() {
                out.insert("headers".into(), json!(headers));
            }
        }
    }
    let env = map(server.get("env").or(server.get("environment")));
    if !env.is_empty() {
        out.insert("env".into(), json!(env));
    }
    if out
        .get("args")
        .is_some_and(|a| a.as_array().is_some_and(Vec::is_empty))
    {
        out.remove("args");
    }
    out.insert("adopt".into(), json!(true));
    Some(Value::Object(out))
}

/// Turn the agent's spelling of a reference (`pattern`, with `NAME`) back
/// into coffer's `${env:NAME}`.
fn un_reference(value: &str, pattern: &str) -> String {
    let Some((head, tail)) = pattern.split_once("NAME") else {
        return value.to_owned();
    };
    let mut out = String::new();
    let mut rest = value;
    while let Some(i) = rest.find(head) {
        let after = &rest[i + head.len()..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if name_len == 0 || !after[name_len..].starts_with(tail) {
            out.push_str(&rest[..i + head.len()]);
            rest = after;
            continue;
        }
        out.push_str(&rest[..i]);
        out.push_str(&format!("${{env:{}}}", &after[..name_len]));
        rest = &after[name_len + tail.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_come_back_in_coffers_spelling() {
        assert_eq!(
            un_reference("Bearer ${env:TOKEN}", "${env:NAME}"),
            "Bearer ${env:TOKEN}"
        );
        assert_eq!(
            un_reference("Bearer {env:TOKEN}", "{env:NAME}"),
            "Bearer ${env:TOKEN}"
        );
        assert_eq!(
            un_reference("a ${X} b ${Y_2}", "${NAME}"),
            "a ${env:X} b ${env:Y_2}"
        );
        assert_eq!(
            un_reference("$notref {env:}", "{env:NAME}"),
            "$notref {env:}"
        );
    }
}
