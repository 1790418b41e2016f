//! The desired state: what the user declared, typed, with positions.

mod facets;
mod load;
mod model;
mod spanned;
mod spanned_map;

pub use facets::{InstructionsFacet, McpFacet, McpServer, ProviderFacet, SkillsFacet};
pub use load::{DesiredError, DesiredFile, load, parse};
pub use model::{
    AgentFacets, ContextFacet, DEFAULT_HOOK_COMMAND, Desired, Event, HookSettings, SharedContext,
    SourceSpec,
};
pub use spanned::{Sp, Span};
pub use spanned_map::{AgentMap, SpannedMap};

/// The JSON Schema of the desired-state format, as checked in under
/// `schemas/coffer.schema.json`.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Desired);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serialises");
    text.push('\n');
    text
}
