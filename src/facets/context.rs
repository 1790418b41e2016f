//! The context facet: a hook entry per event that runs coffer's hook program.

use serde_json::{Map, Value};

use super::{Compiled, context_sources, shell_join};
use crate::desired::{ContextFacet, DesiredError, DesiredFile, Event, Sp};
use crate::env::Env;
use crate::registry::{AgentDescriptor, ContextSupport, HookSpec, expand};
use crate::resource::{Claim, ClaimKind, Facet, Fragment, HookShape, Origin, Resource};

pub(super) fn compile(
    file: &DesiredFile,
    agent: &AgentDescriptor,
    facet: &Sp<ContextFacet>,
    program: &[String],
    env: &Env,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let spec = match &agent.context {
        ContextSupport::ShellCommand(spec) => spec,
        ContextSupport::Unsupported { evidence } => {
            return Err(file.error_at(
                facet.span,
                &format!("{} cannot take the context facet", agent.id),
                "not supported by this agent",
                Some(format!("evidence: {evidence}")),
            ));
        }
    };
    let path = expand(&spec.file, env)
        .map_err(|e| file.error_at(facet.span, &e.to_string(), "for this facet", None))?;
    let origin = Origin {
        agent: agent.id.clone(),
        facet: Facet::Context,
    };
    let default_events = [Sp::unplaced(Event::SessionStart)];
    let events = facet.value.events.as_deref().unwrap_or(&default_events);
    let mut seen = Vec::new();
    let mut installed = Vec::new();
    for event in events {
        if seen.contains(&event.value) {
            continue;
        }
        seen.push(event.value);
        let native = native_event(file, agent, spec, event)?;
        installed.push((native.to_owned(), event.value));
        let mut array = spec.hooks_key.clone();
        array.push(native.to_owned());
        out.resources.push(Resource {
            origin: origin.clone(),
            path: path.clone(),
            syntax: spec.syntax,
            fragment: Fragment::ArrayEntry {
                array,
                value: hook_entry(spec, program, native),
            },
        });
    }
    for (key, value) in &spec.root_keys {
        out.resources.push(Resource {
            origin: origin.clone(),
            path: path.clone(),
            syntax: spec.syntax,
            fragment: Fragment::RequiredKey {
                key: key.clone(),
                value: value.clone(),
            },
        });
    }
    let (config, warnings) =
        context_sources::compile(file, &agent.id, &spec.dialect, &installed, facet, env)?;
    out.hook_configs.push(config);
    out.warnings.extend(warnings);
    out.claims.push(Claim {
        origin,
        path,
        syntax: spec.syntax,
        kind: ClaimKind::HookEntries {
            parent: spec.hooks_key.clone(),
            shape: spec.shape,
            program: program.to_vec(),
        },
    });
    Ok(())
}

fn native_event<'a>(
    file: &DesiredFile,
    agent: &AgentDescriptor,
    spec: &'a HookSpec,
    event: &Sp<Event>,
) -> Result<&'a str, DesiredError> {
    spec.events
        .get(&event.value)
        .map(String::as_str)
        .ok_or_else(|| {
            let has: Vec<&str> = spec.events.keys().map(|e| e.as_str()).collect();
            file.error_at(
                event.span,
                &format!("{} has no `{}` event", agent.id, event.value),
                "not an event of this agent",
                Some(format!(
                    "{}'s events are: {} (evidence: {})",
                    agent.id,
                    has.join(", "),
                    spec.evidence
                )),
            )
        })
}

/// The entry coffer writes into an event's array.
fn hook_entry(spec: &HookSpec, program: &[String], native: &str) -> Value {
    let mut words = program.to_vec();
    words.extend(["--dialect", &spec.dialect, "--event", native].map(str::to_owned));
    let mut handler: Map<String, Value> = spec.entry.clone();
    handler.insert("command".into(), Value::String(shell_join(&words)));
    match spec.shape {
        HookShape::Flat => Value::Object(handler),
        HookShape::MatcherGroups => {
            serde_json::json!({ "hooks": [Value::Object(handler)] })
        }
    }
}
