//! Maps whose keys keep their place in the desired file.
//!
//! Agent ids and MCP server names are checked after parsing (against the
//! registry, against what is already in a target file), and the error must
//! point at the key, so keys keep their spans and the map keeps file order;
//! serde's maps would drop both.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::model::AgentFacets;
use super::spanned::Sp;

#[derive(Debug, Clone)]
pub struct SpannedMap<V>(pub Vec<(Sp<String>, V)>);

impl<V> Default for SpannedMap<V> {
    fn default() -> Self {
        SpannedMap(Vec::new())
    }
}

impl<V> SpannedMap<V> {
    pub fn iter(&self) -> impl Iterator<Item = &(Sp<String>, V)> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SpannedMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V2<V> {
            type Value = SpannedMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<SpannedMap<V>, M::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<Sp<String>, V>()? {
                    out.push((k, v));
                }
                Ok(SpannedMap(out))
            }
        }
        d.deserialize_map(V2(PhantomData))
    }
}

impl<V: JsonSchema> JsonSchema for SpannedMap<V> {
    fn schema_name() -> Cow<'static, str> {
        format!("Map_of_{}", V::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let value: serde_json::Value = generator.subschema_for::<V>().into();
        json_schema!({ "type": "object", "additionalProperties": value })
    }
}

/// The `agents:` map: known ids are listed so editors can complete them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(transparent)]
pub struct AgentMap(pub SpannedMap<AgentFacets>);

impl JsonSchema for AgentMap {
    fn schema_name() -> Cow<'static, str> {
        "Agents".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let facets: serde_json::Value = generator.subschema_for::<AgentFacets>().into();
        let known: serde_json::Map<String, serde_json::Value> =
            crate::registry::Registry::builtin()
                .ids()
                .iter()
                .map(|id| (id.to_string(), facets.clone()))
                .collect();
        json_schema!({
            "description": "Agents to manage, by id (`coffer agents` lists them; `define` adds more).",
            "type": "object",
            "properties": known,
            "additionalProperties": facets,
        })
    }
}
