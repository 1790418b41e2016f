//! The provider facet: a model endpoint, as the member the registry's
//! template describes (Claude's `env.ANTHROPIC_BASE_URL`, Codex's
//! `[model_providers.ID]`, opencode's `provider.ID`).

use serde_json::{Value, json};

use super::template::fill;
use super::{Compiled, Placed};
use crate::desired::{DesiredError, ProviderFacet, Sp};
use crate::registry::{AgentDescriptor, ProviderSupport};
use crate::resource::{Facet, Fragment, Resource, Syntax};

pub(super) fn compile(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<ProviderFacet>,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let spec = match &agent.provider {
        ProviderSupport::Member(spec) => spec,
        ProviderSupport::Unsupported { evidence } => {
            return Err(placed.unsupported(agent, "provider", facet.span, evidence));
        }
    };
    let (path, origin) = placed.target(agent, Facet::Provider, &spec.places, facet.span)?;
    let p = &facet.value;
    let api_key_ref = match (&p.api_key_env, &spec.env_ref) {
        (Some(var), Some(pattern)) => Some(pattern.replace("NAME", var)),
        _ => None,
    };
    let slots = |k: &str| -> Option<Value> {
        match k {
            "id" => Some(json!(p.id)),
            "name" => Some(json!(p.name.clone().unwrap_or_else(|| p.id.clone()))),
            "base_url" => Some(json!(p.base_url.value)),
            "api_key_env" => p.api_key_env.as_ref().map(|v| json!(v)),
            "api_key_ref" => api_key_ref.as_ref().map(|v| json!(v)),
            "model" => p.model.as_ref().map(|v| json!(v)),
            _ => None,
        }
    };
    let name = match fill(&json!(spec.name), &slots) {
        Some(Value::String(n)) => n,
        _ => {
            return Err(placed.file.error_at(
                facet.span,
                &format!(
                    "{}'s provider needs a value the desired file does not give",
                    agent.id
                ),
                "incomplete provider",
                Some(format!("the registry names it `{}`", spec.name)),
            ));
        }
    };
    if spec.item_key.is_some()
        && !matches!(spec.syntax, Syntax::Json | Syntax::Jsonc | Syntax::Json5)
    {
        return Err(placed.file.error_at(
            facet.span,
            &format!(
                "{}'s provider is an item of a list, in a file that is not JSON",
                agent.id
            ),
            "coffer edits list items only in JSON, JSONC and JSON5 files",
            Some(
                "drop `item_key` from the agent's provider, or name the member that holds the list"
                    .into(),
            ),
        ));
    }
    let value = fill(&spec.value, &slots).unwrap_or(Value::Null);
    let member = Fragment::Member {
        parent: spec.parent.clone(),
        name,
        value,
        item_key: spec.item_key.clone(),
        adopt: p.adopt,
    };
    out.resources
        .push(Resource::new(origin, path, spec.syntax, member));
    Ok(())
}
