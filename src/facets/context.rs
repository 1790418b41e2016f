//! The context facet: a hook entry per event that runs coffer's hook program.

use serde_json::{Map, Value};

use super::{Compiled, Placed, shell_join};
use crate::desired::{ContextFacet, DesiredError, DesiredFile, Event, Sp};
use crate::registry::{AgentDescriptor, ContextSupport, HookSpec};
use crate::resource::{Claim, ClaimKind, Facet, Fragment, HookShape, Resource};

pub(super) fn compile(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<ContextFacet>,
    program: &[String],
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let file = placed.file;
    let spec = match &agent.context {
        ContextSupport::ShellCommand(spec) => spec,
        ContextSupport::PluginDrop(_) | ContextSupport::InstructionsBlock(_) => {
            return Err(file.error_at(
                facet.span,
                &format!("{}'s context mechanism is not built yet", agent.id),
                "not yet",
                None,
            ));
        }
        ContextSupport::Unsupported { evidence } => {
            return Err(placed.unsupported(agent, "context", facet.span, evidence));
        }
    };
    let (path, origin) = placed.target(agent, Facet::Context, &spec.places, facet.span)?;
    let default_events = [Sp::unplaced(Event::SessionStart)];
    let events = facet.value.events.as_deref().unwrap_or(&default_events);
    let mut seen = Vec::new();
    for event in events {
        if seen.contains(&event.value) {
            continue;
        }
        seen.push(event.value);
        let native = native_event(file, agent, spec, event)?;
        let mut array = spec.hooks_key.clone();
        array.push(native.to_owned());
        out.resources.push(Resource {
            origins: vec![origin.clone()],
            path: path.clone(),
            syntax: spec.syntax,
            fragment: Fragment::ArrayEntry {
                array,
                value: hook_entry(spec, program, native),
            },
            note: None,
            secrets: Vec::new(),
        });
    }
    for (key, value) in &spec.root_keys {
        out.resources.push(Resource {
            origins: vec![origin.clone()],
            path: path.clone(),
            syntax: spec.syntax,
            fragment: Fragment::RequiredKey {
                key: key.clone(),
                value: value.clone(),
            },
            note: None,
            secrets: Vec::new(),
        });
    }
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
