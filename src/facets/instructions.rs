//! The instructions facet: persistent rules text, as a marked block in the
//! agent's instructions file, or as a whole rule file coffer owns where
//! that is the agent's channel (`.cursor/rules/*.mdc`, …).

use super::{Compiled, Placed};
use crate::desired::{DesiredError, InstructionsFacet, Sp};
use crate::formats::rule_file::{self, Rule};
use crate::registry::{AgentDescriptor, BlockSpec, InstructionsSupport};
use crate::resource::{Facet, Fragment, Resource, Syntax};

/// The block name of the instructions facet.
pub const INSTRUCTIONS_BLOCK: &str = "instructions";

pub(super) fn compile(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<InstructionsFacet>,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let text = text(placed, facet)?;
    match &agent.instructions {
        InstructionsSupport::MarkdownBlock(spec) => block(
            placed,
            agent,
            Facet::Instructions,
            spec,
            INSTRUCTIONS_BLOCK,
            text,
            facet.span,
            out,
        ),
        InstructionsSupport::RuleFile(spec) => {
            let (dir, origin) =
                placed.target(agent, Facet::Instructions, &spec.places, facet.span)?;
            let content = rule_file::render(&Rule {
                description: "Instructions from coffer's desired state",
                frontmatter: &spec.frontmatter,
                body: &text,
            });
            out.resources.push(Resource::new(
                origin,
                dir.join(format!("coffer-{INSTRUCTIONS_BLOCK}.{}", spec.extension)),
                Syntax::Whole,
                Fragment::File {
                    content,
                    executable: false,
                },
            ));
            Ok(())
        }
        InstructionsSupport::Unsupported { evidence } => {
            Err(placed.unsupported(agent, "instructions", facet.span, evidence))
        }
    }
}

/// A marked block `name` holding `text` in the file `spec` names.
#[allow(clippy::too_many_arguments)]
pub(super) fn block(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: Facet,
    spec: &BlockSpec,
    name: &str,
    text: String,
    span: crate::desired::Span,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let (path, origin) = placed.target(agent, facet, &spec.places, span)?;
    let block = Fragment::Block {
        name: name.to_owned(),
        body: text,
    };
    out.resources
        .push(Resource::new(origin, path, Syntax::Markdown, block));
    Ok(())
}

/// The instructions text: given inline, or read from a file next to the
/// desired file.
fn text(placed: &Placed, facet: &Sp<InstructionsFacet>) -> Result<String, DesiredError> {
    match (&facet.value.text, &facet.value.file) {
        (Some(t), None) => Ok(t.value.clone()),
        (None, Some(f)) => {
            let path = placed.input_path(&f.value);
            std::fs::read_to_string(&path).map_err(|e| {
                placed.file.error_at(
                    f.span,
                    &format!("cannot read {}: {e}", path.display()),
                    "this file",
                    Some("the path is relative to the desired file".into()),
                )
            })
        }
        _ => Err(placed.file.error_at(
            facet.span,
            "instructions need either `text` or `file`",
            "here",
            Some("give the text inline with `text:`, or a Markdown file with `file:`".into()),
        )),
    }
}
