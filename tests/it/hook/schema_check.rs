//! Just enough JSON Schema (draft-07) to check hook output against the
//! schemas agents publish: type, properties, additionalProperties,
//! required, const, allOf and local `$ref`s. A keyword it does not know
//! fails loudly, so a richer upstream schema cannot pass by being skipped.

use serde_json::Value;

const KNOWN: &[&str] = &[
    "$schema",
    "title",
    "description",
    "default",
    "definitions",
    "type",
    "properties",
    "additionalProperties",
    "required",
    "const",
    "allOf",
    "$ref",
];

/// Every way `doc` breaks `schema`, as `path: reason` lines.
pub fn validate(root: &Value, schema: &Value, doc: &Value, path: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let Some(obj) = schema.as_object() else {
        return errors;
    };
    for key in obj.keys() {
        assert!(
            KNOWN.contains(&key.as_str()),
            "schema keyword `{key}` is not supported here"
        );
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let target = r
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .expect("a local $ref");
        errors.extend(validate(root, target, doc, path));
    }
    for sub in obj
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        errors.extend(validate(root, sub, doc, path));
    }
    if let Some(t) = obj.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => doc.is_object(),
            "string" => doc.is_string(),
            "boolean" => doc.is_boolean(),
            "array" => doc.is_array(),
            "number" => doc.is_number(),
            "null" => doc.is_null(),
            other => panic!("type `{other}` is not supported here"),
        };
        if !ok {
            errors.push(format!("{path}: not of type {t}"));
            return errors;
        }
    }
    if let Some(c) = obj.get("const")
        && c != doc
    {
        errors.push(format!("{path}: must be {c}"));
    }
    if let Some(d) = doc.as_object() {
        let props = obj.get("properties").and_then(Value::as_object);
        for req in obj
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !d.contains_key(req.as_str().unwrap()) {
                errors.push(format!("{path}: `{req}` is required"));
            }
        }
        for (k, v) in d {
            match props.and_then(|p| p.get(k)) {
                Some(sub) => errors.extend(validate(root, sub, v, &format!("{path}.{k}"))),
                None => match obj.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        errors.push(format!("{path}: `{k}` is not allowed"))
                    }
                    Some(sub @ Value::Object(_)) => {
                        errors.extend(validate(root, sub, v, &format!("{path}.{k}")))
                    }
                    _ => {}
                },
            }
        }
    }
    errors
}
