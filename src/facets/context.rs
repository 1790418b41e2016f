//! The context facet: a hook entry per event that runs coffer's hook program.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{Compiled, Placed, context_sources, shell_join};
use crate::desired::{ContextFacet, DesiredError, DesiredFile, Event, Sp};
use crate::engine::markdown::CONTEXT_BLOCK;
use crate::hook::sources::read_file_source;
use crate::registry::{
    AgentDescriptor, BlockSpec, ContextSupport, HookSpec, PluginSpec, templates,
};
use crate::resource::{Claim, ClaimKind, Facet, Fragment, HookShape, Resource, Syntax};
use crate::state::hook_config::SourceKind;

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
        ContextSupport::PluginDrop(spec) => {
            return plugin_drop(placed, agent, facet, spec, program, out);
        }
        ContextSupport::InstructionsBlock(spec) => {
            return context_block(placed, agent, facet, spec, out);
        }
        ContextSupport::Unsupported { evidence } => {
            return Err(placed.unsupported(agent, "context", facet.span, evidence));
        }
    };
    let (path, origin) = placed.target(agent, Facet::Context, &spec.places, facet.span)?;
    let mut installed = Vec::new();
    for event in requested_events(facet) {
        let native = native_event(file, agent, &spec.events, &spec.evidence, &event)?;
        installed.push((native.to_owned(), event.value));
        let mut array = spec.hooks_key.clone();
        array.push(native.to_owned());
        let entry = Fragment::ArrayEntry {
            array,
            value: hook_entry(spec, program, native),
        };
        let mut r = Resource::new(origin.clone(), path.clone(), spec.syntax, entry);
        r.note = spec.note.clone();
        out.resources.push(r);
    }
    for (key, value) in &spec.root_keys {
        let required = Fragment::RequiredKey {
            key: key.clone(),
            value: value.clone(),
        };
        out.resources.push(Resource::new(
            origin.clone(),
            path.clone(),
            spec.syntax,
            required,
        ));
    }
    hook_settings(placed, agent, &spec.dialect, &installed, facet, out)?;
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

/// The thin plugin that runs the hook program from inside the agent: one
/// file, or a folder, that coffer owns whole.
fn plugin_drop(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<ContextFacet>,
    spec: &PluginSpec,
    program: &[String],
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let mut installed = Vec::new();
    for event in requested_events(facet) {
        let native = native_event(placed.file, agent, &spec.events, &spec.evidence, &event)?;
        installed.push((native.to_owned(), event.value));
    }
    let (path, origin) = placed.target(agent, Facet::Context, &spec.places, facet.span)?;
    // The plugin runs the same hook program, which needs its settings.
    hook_settings(placed, agent, &spec.dialect, &installed, facet, out)?;
    let files = templates::template(&spec.template).ok_or_else(|| {
        placed.file.error_at(
            facet.span,
            &format!(
                "{}'s registry entry names an unknown plugin template `{}`",
                agent.id, spec.template
            ),
            "this agent",
            None,
        )
    })?;
    let argv = serde_json::to_string(program).expect("words serialise");
    for (rel, text) in files {
        out.resources.push(Resource::new(
            origin.clone(),
            if rel.is_empty() {
                path.clone()
            } else {
                path.join(rel)
            },
            Syntax::Whole,
            Fragment::File {
                executable: false,
                content: text.replace(templates::HOOK_ARGV, &argv),
            },
        ));
    }
    Ok(())
}

/// For an agent whose hooks cannot carry context: the text of the file
/// sources, written ahead of time into a marked block of its instructions
/// file. Providers need a hook to run, so they cannot reach such an agent.
fn context_block(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<ContextFacet>,
    spec: &BlockSpec,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let (config, warnings) =
        context_sources::compile(placed.file, &agent.id, &agent.id, &[], facet, placed.env)?;
    out.warnings.extend(warnings);
    let mut texts = Vec::new();
    for source in &config.sources {
        match &source.kind {
            SourceKind::File { path, glob } => {
                let text = read_file_source(path, *glob, config.note_max_bytes);
                if !text.trim().is_empty() {
                    texts.push(text.trim_end().to_owned());
                }
            }
            _ => out.warnings.push(format!(
                "{} has no working hook, so its context is written ahead of time: source {} is left out (only file sources can be)",
                agent.id, source.id
            )),
        }
    }
    if texts.is_empty() {
        return Err(placed.file.error_at(
            facet.span,
            &format!("{}'s context goes into its instructions file, and no file source gives it any text", agent.id),
            "no text for this agent",
            Some("add `sources: [{ file: … }]` to this context facet (or to the shared one)".into()),
        ));
    }
    let body = format!("{}\n", texts.join("\n\n"));
    super::instructions::block(
        placed,
        agent,
        Facet::Context,
        spec,
        CONTEXT_BLOCK,
        body,
        facet.span,
        out,
    )
}

/// The settings the hook program reads when this agent runs it.
fn hook_settings(
    placed: &Placed,
    agent: &AgentDescriptor,
    dialect: &str,
    installed: &[(String, Event)],
    facet: &Sp<ContextFacet>,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let (config, warnings) = context_sources::compile(
        placed.file,
        &agent.id,
        dialect,
        installed,
        facet,
        placed.env,
    )?;
    out.hook_configs.push(config);
    out.warnings.extend(warnings);
    Ok(())
}

/// The events the facet asks for (default: session start), each once.
fn requested_events(facet: &Sp<ContextFacet>) -> Vec<Sp<Event>> {
    let mut out: Vec<Sp<Event>> = Vec::new();
    match &facet.value.events {
        None => out.push(Sp::unplaced(Event::SessionStart)),
        Some(events) => {
            for e in events {
                if !out.iter().any(|o| o.value == e.value) {
                    out.push(e.clone());
                }
            }
        }
    }
    out
}

/// The agent's name for `event`, or an error citing the agent's events.
fn native_event<'a>(
    file: &DesiredFile,
    agent: &AgentDescriptor,
    events: &'a BTreeMap<Event, String>,
    evidence: &str,
    event: &Sp<Event>,
) -> Result<&'a str, DesiredError> {
    events.get(&event.value).map(String::as_str).ok_or_else(|| {
        let has: Vec<&str> = events.keys().map(|e| e.as_str()).collect();
        file.error_at(
            event.span,
            &format!("{} has no `{}` event", agent.id, event.value),
            "not an event of this agent",
            Some(format!(
                "{}'s events are: {} (evidence: {evidence})",
                agent.id,
                has.join(", ")
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
