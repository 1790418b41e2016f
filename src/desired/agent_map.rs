//! The `agents:` map, kept in file order with each id's position.
//!
//! Agent ids are checked against the registry after parsing, and the error
//! must point at the id, so the keys keep their spans; serde's maps would
//! drop them.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::model::AgentFacets;
use super::spanned::Sp;

#[derive(Debug, Clone, Default)]
pub struct AgentMap(pub Vec<(Sp<String>, AgentFacets)>);

impl<'de> Deserialize<'de> for AgentMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AgentMap;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map from agent id to its facets")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<AgentMap, M::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<Sp<String>, AgentFacets>()? {
                    out.push((k, v));
                }
                Ok(AgentMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl JsonSchema for AgentMap {
    fn schema_name() -> Cow<'static, str> {
        "Agents".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let facets: serde_json::Value = generator.subschema_for::<AgentFacets>().into();
        let ids = crate::registry::Registry::builtin().ids();
        let known: serde_json::Map<String, serde_json::Value> = ids
            .iter()
            .map(|id| (id.to_string(), facets.clone()))
            .collect();
        json_schema!({
            "description": "Agents to manage, by id (`coffer agents` lists them).",
            "type": "object",
            "properties": known,
            "additionalProperties": false,
        })
    }
}
