//! From the desired state to resources and claims, one module per facet.
//!
//! This is where the desired file meets the registry: an unknown agent, a
//! facet an agent cannot take, an event it does not have are all found here
//! and reported at their place in the desired file, before any target file
//! is read.

mod context;
mod context_sources;

use crate::desired::{DesiredError, DesiredFile};
use crate::env::Env;
use crate::registry::Registry;
use crate::resource::{Claim, Resource};

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
) -> Result<Compiled, DesiredError> {
    let desired = &file.desired;
    let program = shlex::split(&desired.hook.command.value).unwrap_or_default();
    let mut out = Compiled::default();
    for (id, facets) in &desired.agents.0 {
        let Some(agent) = registry.get(&id.value) else {
            return Err(file.error_at(
                id.span,
                &format!("unknown agent `{}`", id.value),
                "not in coffer's registry",
                Some(format!("known agents: {}", registry.ids().join(", "))),
            ));
        };
        out.agents.push(agent.id.clone());
        if let Some(ctx) = &facets.context {
            context::compile(file, agent, ctx, &program, env, &mut out)?;
        }
    }
    Ok(out)
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
