//! From the desired state to resources and claims, one module per facet.
//!
//! This is where the desired file meets the registry: an unknown agent, a
//! facet an agent cannot take (at this scope), an event it does not have
//! are all found here and reported at their place in the desired file,
//! citing the registry's evidence, before any target file is read.

mod context;
mod context_sources;
mod env_refs;
mod instructions;
mod mcp;
mod provider;
mod skills;
mod template;

use std::path::PathBuf;

use crate::desired::{DesiredError, DesiredFile, Span};
use crate::env::Env;
use crate::fsys::Fs;
use crate::registry::{AgentDescriptor, Places, Registry, Scope, resolve};
use crate::resource::{Claim, Facet, Origin, Resource};

/// What the desired state asks of the target files.
#[derive(Debug, Default, Clone)]
pub struct Compiled {
    /// What should be there.
    pub resources: Vec<Resource>,
    /// What coffer may own, for every agent the desired file names.
    pub claims: Vec<Claim>,
    /// The agents the desired file names.
    pub agents: Vec<String>,
    /// What the hook needs at run time, one per agent with a context facet.
    pub hook_configs: Vec<crate::state::hook_config::HookConfig>,
    /// Problems that do not stop the plan (a provider disabled by a limit
    /// outside its bounds), each starting with its place in the desired file.
    pub warnings: Vec<String>,
}

pub fn compile(
    file: &DesiredFile,
    registry: &Registry,
    env: &Env,
    fs: &dyn Fs,
) -> Result<Compiled, DesiredError> {
    let desired = &file.desired;
    let program = shlex::split(&desired.hook.command.value).unwrap_or_default();
    let placed = Placed {
        file,
        env,
        fs,
        scope: desired.scope,
    };
    let mut out = Compiled::default();
    for (id, facets) in desired.agents.0.iter() {
        let Some(agent) = registry.get(&id.value) else {
            return Err(file.error_at(
                id.span,
                &format!("unknown agent `{}`", id.value),
                "not in coffer's registry",
                Some(format!(
                    "known agents: {}; declare others under `define:`",
                    registry.ids().join(", ")
                )),
            ));
        };
        out.agents.push(agent.id.clone());
        if let Some(ctx) = &facets.context {
            context::compile(&placed, agent, ctx, &program, &mut out)?;
        }
        if let Some(mcp) = &facets.mcp {
            mcp::compile(&placed, agent, mcp, &mut out)?;
        }
        if let Some(provider) = &facets.provider {
            provider::compile(&placed, agent, provider, &mut out)?;
        }
        if let Some(text) = &facets.instructions {
            instructions::compile(&placed, agent, text, &mut out)?;
        }
        if let Some(skills) = &facets.skills {
            skills::compile(&placed, agent, skills, &mut out)?;
        }
    }
    Ok(out)
}

/// The desired file and where it applies: what every facet compiler needs
/// to place its resources and to report errors at their place.
pub(crate) struct Placed<'a> {
    pub file: &'a DesiredFile,
    pub env: &'a Env,
    /// To choose between alternative files by which exists.
    pub fs: &'a dyn Fs,
    pub scope: Scope,
}

impl Placed<'_> {
    /// The file a facet goes to at this scope, and its origin.
    pub fn target(
        &self,
        agent: &AgentDescriptor,
        facet: Facet,
        places: &Places,
        span: Span,
    ) -> Result<(PathBuf, Origin), DesiredError> {
        let scope = self.scope;
        let template = places
            .at(scope)
            .path()
            .map_err(|why| self.unsupported_at(agent, facet, span, why))?;
        let exists = |p: &std::path::Path| self.fs.is_file(p);
        let path = resolve(template, self.env, scope, &exists).map_err(|e| {
            self.file
                .error_at(span, &e.to_string(), "for this facet", None)
        })?;
        Ok((
            path,
            Origin {
                agent: agent.id.clone(),
                facet,
            },
        ))
    }

    /// A path the desired file names: `~/…`, absolute, or relative to the
    /// desired file's folder.
    pub fn input_path(&self, written: &str) -> PathBuf {
        if let Some(tail) = written.strip_prefix("~/") {
            return self.env.home.join(tail);
        }
        let dir = self.file.path.parent().unwrap_or(std::path::Path::new(""));
        std::path::absolute(dir.join(written)).unwrap_or_else(|_| dir.join(written))
    }

    /// The agent cannot take the facet at all.
    pub fn unsupported(
        &self,
        agent: &AgentDescriptor,
        facet: &str,
        span: Span,
        evidence: &str,
    ) -> DesiredError {
        self.file.error_at(
            span,
            &format!("{} cannot take the {facet} facet", agent.id),
            "not supported by this agent",
            Some(format!("evidence: {evidence}")),
        )
    }

    fn unsupported_at(
        &self,
        agent: &AgentDescriptor,
        facet: Facet,
        span: Span,
        why: &str,
    ) -> DesiredError {
        let scope = match self.scope {
            Scope::User => "user",
            Scope::Project => "project",
        };
        self.file.error_at(
            span,
            &format!(
                "{} cannot take the {facet} facet at {scope} scope",
                agent.id
            ),
            "not supported at this scope",
            Some(why.to_owned()),
        )
    }
}

/// Join words into one shell command, quoting each where needed.
pub fn shell_join<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| {
            shlex::try_quote(w.as_ref()).map_or_else(|_| w.as_ref().to_owned(), |q| q.into_owned())
        })
        .collect::<Vec<_>>()
        .join(" ")
}
