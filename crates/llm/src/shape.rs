//! The JSON contract in its cheapest form. A schemars schema is written for Rust: it
//! carries doc comments meant for developers, titles, `$defs` and number formats such as
//! `uint32` that no server needs. What travels is [`compact_schema`] (the same constraints,
//! nothing else; [`wire_schema`] is that as a model is asked to write it) or, when the
//! shape must go in the prompt, [`shape_line`]: one line such as
//! `{"name":str≤40,"tags"?:[str]≤3}` that a model reads as easily as a schema at a tenth of
//! the tokens.

use serde_json::{Map, Value, json};

/// Annotations: no validator and no grammar looks at them.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "$schema",
    "$id",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Formats a validator or a server may enforce; schemars' numeric ones (`uint32`,
/// `double`…) are not formats of the standard and only cost tokens.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "uri",
];

/// Keys whose value is a map from names to subschemas.
const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "$defs", "definitions"];
/// Keys whose value is one subschema.
const SCHEMA_ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
];
/// Keys whose value is a list of subschemas.
const SCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Deeper than any answer type of ours; a guard against hostile or cyclic schemas.
const MAX_DEPTH: usize = 24;

/// The same constraints without annotations: every `$ref` into `$defs` inlined unless it
/// is recursive, `Option<Struct>`'s `anyOf [X, null]` folded into X's type, and
/// `additionalProperties: true` (the default) dropped.
pub fn compact_schema(schema: &Value) -> Value {
    let defs = definitions(schema);
    let mut kept = Map::new();
    let mut out = compact_node(schema, &defs, &mut Vec::new(), &mut kept, 0);
    if let Value::Object(root) = &mut out {
        root.remove("$defs");
        root.remove("definitions");
        if !kept.is_empty() {
            root.insert("$defs".into(), Value::Object(kept));
        }
    }
    out
}

fn definitions(schema: &Value) -> Map<String, Value> {
    let mut defs = Map::new();
    for key in ["definitions", "$defs"] {
        if let Some(Value::Object(map)) = schema.get(key) {
            defs.extend(map.clone());
        }
    }
    defs
}

/// `#/$defs/Name` or `#/definitions/Name` → `Name`.
fn ref_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
}

fn compact_node(
    node: &Value,
    defs: &Map<String, Value>,
    expanding: &mut Vec<String>,
    kept: &mut Map<String, Value>,
    depth: usize,
) -> Value {
    let Value::Object(obj) = node else {
        return node.clone();
    };
    if depth > MAX_DEPTH {
        return node.clone();
    }
    if let Some(name) = obj.get("$ref").and_then(Value::as_str).and_then(ref_name)
        && let Some(def) = defs.get(name)
    {
        if expanding.iter().any(|n| n == name) {
            // Recursive: keep the reference, and the definition once.
            if !kept.contains_key(name) {
                kept.insert(name.to_owned(), Value::Null);
                let body = compact_node(def, defs, expanding, kept, depth + 1);
                kept.insert(name.to_owned(), body);
            }
            return serde_json::json!({"$ref": format!("#/$defs/{name}")});
        }
        expanding.push(name.to_owned());
        let inlined = compact_node(def, defs, expanding, kept, depth + 1);
        expanding.pop();
        return inlined;
    }
    let mut out = Map::new();
    for (key, value) in obj {
        if ANNOTATIONS.contains(&key.as_str()) || key == "$defs" || key == "definitions" {
            continue;
        }
        let compacted = if SCHEMA_MAPS.contains(&key.as_str()) {
            match value {
                Value::Object(map) => Value::Object(
                    map.iter()
                        .map(|(k, v)| {
                            (k.clone(), compact_node(v, defs, expanding, kept, depth + 1))
                        })
                        .collect(),
                ),
                other => other.clone(),
            }
        } else if SCHEMA_ONE.contains(&key.as_str()) {
            compact_node(value, defs, expanding, kept, depth + 1)
        } else if SCHEMA_LISTS.contains(&key.as_str()) {
            match value {
                Value::Array(list) => Value::Array(
                    list.iter()
                        .map(|v| compact_node(v, defs, expanding, kept, depth + 1))
                        .collect(),
                ),
                other => other.clone(),
            }
        } else {
            value.clone()
        };
        out.insert(key.clone(), compacted);
    }
    if out
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !STANDARD_FORMATS.contains(&f))
    {
        out.remove("format");
    }
    if out.get("additionalProperties") == Some(&Value::Bool(true)) {
        out.remove("additionalProperties");
    }
    fold_nullable(&mut out);
    Value::Object(out)
}

/// What a model is asked to write: [`compact_schema`], with `null` no longer offered for
/// a key that may be left out (`"type": ["string", "null"]` on an optional key becomes
/// `"type": "string"`). Narrower than the schema, never wider: whatever it admits, the
/// schema admits, and answers are still validated against the schema itself, so a model
/// that writes `null` anyway loses nothing. It only stops paying, on every request, for
/// two ways of saying "nothing".
pub fn wire_schema(schema: &Value) -> Value {
    let mut out = compact_schema(schema);
    drop_optional_nulls(&mut out, 0);
    out
}

fn drop_optional_nulls(node: &mut Value, depth: usize) {
    let Value::Object(obj) = node else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    let required: Vec<String> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            if !required.contains(name) {
                drop_null_type(prop);
            }
        }
    }
    for (key, value) in obj.iter_mut() {
        if SCHEMA_MAPS.contains(&key.as_str()) {
            if let Value::Object(map) = value {
                for sub in map.values_mut() {
                    drop_optional_nulls(sub, depth + 1);
                }
            }
        } else if SCHEMA_ONE.contains(&key.as_str()) {
            drop_optional_nulls(value, depth + 1);
        } else if SCHEMA_LISTS.contains(&key.as_str())
            && let Value::Array(list) = value
        {
            for sub in list {
                drop_optional_nulls(sub, depth + 1);
            }
        }
    }
}

/// `"type": [T, "null"]` → `"type": T`; any other type is left as it is.
fn drop_null_type(prop: &mut Value) {
    let Some(Value::Array(types)) = prop.get("type") else {
        return;
    };
    let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
    let new = match kept.as_slice() {
        [] => return,
        [one] => one.clone(),
        _ => Value::Array(kept),
    };
    prop["type"] = new;
}

/// `{"anyOf": [{"type": "object", …}, {"type": "null"}]}` → `{"type": ["object", "null"], …}`:
/// the same values (the object keywords do not apply to null), fewer tokens.
fn fold_nullable(obj: &mut Map<String, Value>) {
    if obj.len() != 1 {
        return;
    }
    let Some(Value::Array(variants)) = obj.get("anyOf") else {
        return;
    };
    let [a, b] = variants.as_slice() else {
        return;
    };
    let is_null = |v: &Value| v.get("type") == Some(&Value::String("null".into()));
    let (some, _) = match (is_null(a), is_null(b)) {
        (false, true) => (a, b),
        (true, false) => (b, a),
        _ => return,
    };
    let Some(Value::String(kind)) = some.get("type") else {
        return;
    };
    let has_combinator = SCHEMA_LISTS.iter().any(|k| some.get(*k).is_some())
        || some.get("enum").is_some()
        || some.get("const").is_some();
    if has_combinator {
        return;
    }
    let mut merged = some.as_object().cloned().unwrap_or_default();
    merged.insert("type".into(), serde_json::json!([kind, "null"]));
    *obj = merged;
}

/// One line that tells a model the JSON shape: `"key"?` is optional, `str≤600` a string of
/// at most 600 characters, `[T]≤2` a list of at most two, `a|b` one of.
pub fn shape_line(schema: &Value) -> String {
    let mut r = Render {
        defs: definitions(schema),
        chain: Vec::new(),
        out: String::new(),
    };
    r.node(schema, 0, false);
    r.out
}

struct Render {
    defs: Map<String, Value>,
    /// The definitions being rendered: a reference back into one is shown as `{…}`.
    chain: Vec<String>,
    out: String,
}

impl Render {
    /// `optional`: the key may be left out, so `null` need not be offered as well.
    fn node(&mut self, node: &Value, depth: usize, optional: bool) {
        let obj = match node {
            Value::Object(obj) if depth <= MAX_DEPTH => obj,
            Value::Bool(false) => return self.out.push_str("never"),
            _ => return self.out.push_str("any"),
        };
        if let Some(name) = obj.get("$ref").and_then(Value::as_str).and_then(ref_name) {
            let Some(def) = self.defs.get(name).cloned() else {
                return self.out.push_str("any");
            };
            if self.chain.iter().any(|n| n == name) {
                return self.out.push_str("{…}");
            }
            self.chain.push(name.to_owned());
            self.node(&def, depth + 1, optional);
            self.chain.pop();
            return;
        }
        let is_null = |v: &Value| v.is_null() || v.get("type") == Some(&json!("null"));
        if let Some(Value::Array(values)) = obj.get("enum") {
            let shown: Vec<String> = values
                .iter()
                .filter(|v| !(optional && v.is_null()))
                .map(Value::to_string)
                .collect();
            return self.out.push_str(&shown.join("|"));
        }
        if let Some(value) = obj.get("const") {
            return self.out.push_str(&value.to_string());
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(variants)) = obj.get(key) {
                let shown: Vec<&Value> = variants
                    .iter()
                    .filter(|v| !(optional && is_null(v)))
                    .collect();
                for (i, v) in shown.into_iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.node(v, depth + 1, optional);
                }
                return;
            }
        }
        let types: Vec<&str> = match obj.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            None if obj.contains_key("properties") => vec!["object"],
            _ => vec![],
        };
        let types: Vec<&str> = types
            .into_iter()
            .filter(|t| !(optional && *t == "null"))
            .collect();
        if types.is_empty() {
            return self.out.push_str("any");
        }
        for (i, t) in types.iter().enumerate() {
            if i > 0 {
                self.out.push('|');
            }
            self.typed(t, obj, depth);
        }
    }

    fn typed(&mut self, kind: &str, obj: &Map<String, Value>, depth: usize) {
        let bound = |key: &str| obj.get(key).and_then(Value::as_u64);
        match kind {
            "object" => self.object(obj, depth),
            "array" => {
                self.out.push('[');
                match obj.get("items") {
                    Some(items) => self.node(items, depth + 1, false),
                    None => self.out.push_str("any"),
                }
                self.out.push(']');
                if let Some(max) = bound("maxItems") {
                    self.out.push_str(&format!("≤{max}"));
                }
            }
            "string" => {
                self.out.push_str("str");
                if let Some(max) = bound("maxLength") {
                    self.out.push_str(&format!("≤{max}"));
                }
            }
            "integer" | "number" => {
                self.out
                    .push_str(if kind == "integer" { "int" } else { "num" });
                if let (Some(lo), Some(hi)) = (obj.get("minimum"), obj.get("maximum")) {
                    self.out.push_str(&format!(" {lo}-{hi}"));
                }
            }
            "boolean" => self.out.push_str("bool"),
            other => self.out.push_str(other),
        }
    }

    fn object(&mut self, obj: &Map<String, Value>, depth: usize) {
        let props = match obj.get("properties") {
            Some(Value::Object(props)) if !props.is_empty() => props,
            _ => {
                return match obj.get("additionalProperties") {
                    Some(extra @ Value::Object(_)) => {
                        self.out.push_str("{str:");
                        self.node(extra, depth + 1, false);
                        self.out.push('}');
                    }
                    _ => self.out.push_str("{…}"),
                };
            }
        };
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        // Required keys first, in the order the schema lists them (the order to write
        // them), then the optional ones.
        let mut keys: Vec<&str> = required
            .iter()
            .copied()
            .filter(|k| props.contains_key(*k))
            .collect();
        keys.extend(
            props
                .keys()
                .map(String::as_str)
                .filter(|k| !required.contains(k)),
        );
        self.out.push('{');
        for (i, key) in keys.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            let optional = !required.contains(key);
            self.out
                .push_str(&Value::String((*key).to_owned()).to_string());
            if optional {
                self.out.push('?');
            }
            self.out.push(':');
            if let Some(sub) = props.get(*key) {
                self.node(sub, depth + 1, optional);
            }
        }
        self.out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemars_like() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Answer",
            "description": "What the developer wrote about the type.",
            "type": "object",
            "properties": {
                "name": {"type": "string", "maxLength": 40, "description": "Who."},
                "level": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
                "when": {"type": ["string", "null"], "format": "date-time"},
                "pet": {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}]},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
                "kind": {"type": "string", "enum": ["a", "b"]},
                "extra": {"type": "object", "additionalProperties": true},
                "description": {"type": "string", "title": "a field named like an annotation"}
            },
            "required": ["name", "level"],
            "$defs": {"Pet": {"type": "object", "description": "A pet.",
                              "properties": {"legs": {"type": "integer", "format": "uint32", "minimum": 0}},
                              "required": ["legs"]}}
        })
    }

    #[test]
    fn compaction_drops_annotations_and_inlines_definitions() {
        let c = compact_schema(&schemars_like());
        let text = c.to_string();
        for gone in [
            "$schema",
            "title",
            "What the developer",
            "A pet.",
            "uint8",
            "uint32",
            "$defs",
            "$ref",
        ] {
            assert!(!text.contains(gone), "{gone} left in {text}");
        }
        assert_eq!(
            c["properties"]["when"]["format"], "date-time",
            "standard formats stay"
        );
        assert_eq!(c["properties"]["pet"]["type"], json!(["object", "null"]));
        assert_eq!(c["properties"]["pet"]["required"], json!(["legs"]));
        assert_eq!(c["properties"]["level"]["maximum"], 255);
        assert!(
            c["properties"]["extra"]
                .get("additionalProperties")
                .is_none()
        );
        assert!(
            c["properties"].get("description").is_some(),
            "property names are not annotations"
        );
        assert_eq!(c["required"], json!(["name", "level"]));
    }

    #[test]
    fn compaction_keeps_what_validation_needs() {
        let full = schemars_like();
        let compact = compact_schema(&full);
        for (value, ok) in [
            (json!({"name": "Ann", "level": 3}), true),
            (
                json!({"name": "Ann", "level": 3, "pet": {"legs": 4}, "when": null}),
                true,
            ),
            (json!({"name": "Ann", "level": 300}), false),
            (json!({"name": "Ann", "level": 3, "pet": {}}), false),
            (
                json!({"name": "Ann", "level": 3, "tags": ["a", "b", "c", "d"]}),
                false,
            ),
            (json!({"name": "x".repeat(41), "level": 3}), false),
            (json!({"name": "Ann", "level": 3, "kind": "c"}), false),
        ] {
            let full_ok = crate::structured::validate(&full, &value).is_ok();
            let compact_ok = crate::structured::validate(&compact, &value).is_ok();
            assert_eq!((full_ok, compact_ok), (ok, ok), "{value}");
        }
    }

    #[test]
    fn the_wire_schema_offers_no_null_for_an_optional_key_and_admits_nothing_the_schema_refuses() {
        let full = schemars_like();
        let wire = wire_schema(&full);
        assert_eq!(wire["properties"]["when"]["type"], "string");
        assert_eq!(wire["properties"]["pet"]["type"], "object");
        assert_eq!(wire["properties"]["when"]["format"], "date-time");
        assert!(wire.to_string().len() < compact_schema(&full).to_string().len());
        // A required key keeps its null: leaving it out is not an option there.
        let must = json!({"type": "object", "required": ["x"],
                          "properties": {"x": {"type": ["string", "null"]}}});
        assert_eq!(
            wire_schema(&must)["properties"]["x"]["type"],
            json!(["string", "null"])
        );
        for value in [
            json!({"name": "Ann", "level": 3}),
            json!({"name": "Ann", "level": 3, "when": null}),
            json!({"name": "Ann", "level": 3, "pet": null}),
            json!({"name": "Ann", "level": 3, "pet": {"legs": 4}, "when": "2026-01-01T00:00:00Z"}),
            json!({"name": "Ann", "level": 300}),
            json!({"name": "Ann", "level": 3, "pet": {}}),
        ] {
            let full_ok = crate::structured::validate(&full, &value).is_ok();
            let wire_ok = crate::structured::validate(&wire, &value).is_ok();
            assert!(full_ok || !wire_ok, "the wire schema admits {value}");
        }
        assert!(
            crate::structured::validate(&wire, &json!({"name": "A", "level": 1, "when": null}))
                .is_err()
        );
    }

    #[test]
    fn recursive_definitions_stay_referenced() {
        let tree = json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "description": "x", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}
        });
        let c = compact_schema(&tree);
        assert_eq!(
            c["properties"]["root"]["properties"]["children"]["items"]["$ref"],
            "#/$defs/Node"
        );
        assert!(c["$defs"]["Node"]["properties"]["children"].is_object());
        assert!(c["$defs"]["Node"].get("description").is_none());
        let ok = json!({"root": {"children": [{"children": []}]}});
        assert!(crate::structured::validate(&c, &ok).is_ok());
        assert!(crate::structured::validate(&c, &json!({"root": {"children": [1]}})).is_err());
        assert_eq!(shape_line(&tree), "{\"root\"?:{\"children\"?:[{…}]}}");
    }

    #[test]
    fn the_shape_line_is_short_and_says_what_matters() {
        let line = shape_line(&schemars_like());
        assert_eq!(
            line,
            "{\"name\":str≤40,\"level\":int 0-255,\"description\"?:str,\"extra\"?:{…},\
             \"kind\"?:\"a\"|\"b\",\"pet\"?:{\"legs\":int},\"tags\"?:[str]≤3,\"when\"?:str}"
        );
        assert_eq!(
            shape_line(&json!({"type": "array", "items": {"type": "boolean"}})),
            "[bool]"
        );
        assert_eq!(
            shape_line(&json!({"type": "object", "additionalProperties": {"type": "number"}})),
            "{str:num}"
        );
        assert_eq!(shape_line(&json!({"type": ["string", "null"]})), "str|null");
        assert_eq!(shape_line(&json!(true)), "any");
    }
}
