//! The desired state: what the user declared, typed, with positions.

mod agent_map;
mod load;
mod model;
mod spanned;

pub use agent_map::AgentMap;
pub use load::{DesiredError, DesiredFile, load, parse};
pub use model::{
    AgentFacets, ContextFacet, DEFAULT_HOOK_COMMAND, Desired, Event, HookSettings, SharedContext,
    SourceSpec,
};
pub use spanned::{Sp, Span};

/// The JSON Schema of the desired-state format, as checked in under
/// `schemas/coffer.schema.json`.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Desired);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serialises");
    text.push('\n');
    text
}
