//! JSON schema → GBNF grammar for the built-in model, with object keys in the schema's order.
//!
//! `llama_cpp_2::json_schema_to_grammar` lists the required keys of every object in
//! alphabetical order, so a flow-of-thought would have to write `interestLevel` and `messages`
//! before `innerThoughts` — the model would speak before it thinks. We rewrite each object
//! rule's required part into the order of the schema's `required` array. That array is the
//! order to trust: serde_json (without `preserve_order`) keeps `properties` sorted by name,
//! while `required` is a list, and schemars fills it in field order.
//! Optional keys keep llama.cpp's order (they sit in nested alternatives); make a field
//! required when its position matters.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::types::TextShape;

/// The grammar for `schema`, keys in schema order. The error is a message for the user.
pub(crate) fn grammar_for_schema(schema: &Value) -> Result<String, String> {
    let raw = llama_cpp_2::json_schema_to_grammar(&schema.to_string())
        .map_err(|e| format!("the JSON schema could not be turned into a grammar: {e}"))?;
    Ok(order_object_keys(&raw, schema))
}

/// The grammar for a plain-text answer of `shape`: the model can only write what the shape
/// accepts ([`TextShape::accepts`]), and once the shape is full only the end of the answer.
pub(crate) fn grammar_for_shape(shape: &TextShape) -> Result<String, String> {
    match shape {
        TextShape::Text {
            max_chars,
            single_line,
        } => {
            if *max_chars == 0 {
                return Err("a text answer must allow at least one character".into());
            }
            // Control characters (all, or all but the line feed), DEL, and everything past
            // the Basic Multilingual Plane are left out (see `shape_char_allowed`).
            let class = if *single_line {
                r"[^\x00-\x1F\x7F\U00010000-\U0010FFFF]"
            } else {
                r"[^\x00-\x09\x0B-\x1F\x7F\U00010000-\U0010FFFF]"
            };
            Ok(format!(
                "root ::= char{{1,{max_chars}}}\nchar ::= {class}\n"
            ))
        }
        TextShape::OneOf { options } => {
            if options.is_empty() || options.iter().any(String::is_empty) {
                return Err("a choice needs non-empty options".into());
            }
            let alternatives: Vec<String> = options.iter().map(|o| gbnf_literal(o)).collect();
            Ok(format!("root ::= {}\n", alternatives.join(" | ")))
        }
    }
}

/// `text` as a GBNF string literal.
fn gbnf_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\x{:02X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

const OBJECT_OPEN: &str = "\"{\" space ";
const OBJECT_CLOSE: &str = " space \"}\"";
const KEY_SEPARATOR: &str = " \",\" space ";

/// Rewrites the required keys of each object rule in `grammar` into the order that the
/// matching object of `schema` lists in `required`. Rules it does not recognise stay as they are.
pub(crate) fn order_object_keys(grammar: &str, schema: &Value) -> String {
    let mut orders = Vec::new();
    collect_required_orders(schema, &mut orders);

    // "<name>-kv ::= "\"key\"" space ":" space <value>" → key
    let kv_keys: HashMap<&str, String> = grammar
        .lines()
        .filter_map(split_rule)
        .filter(|(name, _)| name.ends_with("-kv"))
        .filter_map(|(name, body)| {
            let rest = body.strip_prefix("\"\\\"")?;
            let end = rest.find("\\\"\" space \":\" space ")?;
            Some((name, rest[..end].to_owned()))
        })
        .collect();

    let mut out = String::with_capacity(grammar.len());
    for line in grammar.lines() {
        let rewritten = split_rule(line).and_then(|(name, body)| {
            reorder_object_body(body, &kv_keys, &orders).map(|b| format!("{name} ::= {b}"))
        });
        out.push_str(rewritten.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

fn split_rule(line: &str) -> Option<(&str, &str)> {
    let (name, body) = line.split_once(" ::= ")?;
    Some((name.trim(), body))
}

fn reorder_object_body(
    body: &str,
    kv_keys: &HashMap<&str, String>,
    orders: &[Vec<String>],
) -> Option<String> {
    let inner = body.strip_prefix(OBJECT_OPEN)?.strip_suffix(OBJECT_CLOSE)?;
    if inner.starts_with('(') {
        return None; // no required keys
    }
    let (required_part, optional_part) = match inner.find(" (") {
        Some(at) => inner.split_at(at),
        None => (inner, ""),
    };
    let rules: Vec<&str> = required_part.split(KEY_SEPARATOR).collect();
    let keys: Vec<&String> = rules
        .iter()
        .map(|r| kv_keys.get(r))
        .collect::<Option<_>>()?;
    let key_set: BTreeSet<&str> = keys.iter().map(|k| k.as_str()).collect();
    let wanted = orders.iter().find(|order| {
        order.len() == keys.len()
            && order.iter().map(String::as_str).collect::<BTreeSet<_>>() == key_set
    })?;
    let reordered: Vec<&str> = wanted
        .iter()
        .filter_map(|key| keys.iter().position(|k| *k == key).map(|i| rules[i]))
        .collect();
    if reordered == rules {
        return None;
    }
    Some(format!(
        "{OBJECT_OPEN}{}{optional_part}{OBJECT_CLOSE}",
        reordered.join(KEY_SEPARATOR)
    ))
}

/// Every object schema's required keys that are also properties, in `required` order.
fn collect_required_orders(value: &Value, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(map) => {
            if let (Some(Value::Object(props)), Some(Value::Array(required))) =
                (map.get("properties"), map.get("required"))
            {
                let order: Vec<String> = required
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|k| props.contains_key(*k))
                    .map(str::to_owned)
                    .collect();
                if !order.is_empty() {
                    out.push(order);
                }
            }
            map.values().for_each(|v| collect_required_orders(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_required_orders(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root_rule(grammar: &str) -> &str {
        grammar
            .lines()
            .find(|l| l.starts_with("root ::= "))
            .unwrap_or_default()
    }

    fn position(haystack: &str, needle: &str) -> usize {
        haystack.find(needle).unwrap_or(usize::MAX)
    }

    #[test]
    fn required_keys_follow_the_required_array() {
        let schema = json!({
            "type": "object",
            "properties": {
                "innerThoughts": {"type": "string", "maxLength": 50},
                "shouldSpeak": {"type": "boolean"},
                "messages": {
                    "type": "array", "maxItems": 2,
                    "items": {
                        "type": "object",
                        "properties": {"to": {"type": "string"}, "content": {"type": "string"}},
                        "required": ["to", "content"]
                    }
                }
            },
            "required": ["innerThoughts", "shouldSpeak", "messages"]
        });
        let raw = llama_cpp_2::json_schema_to_grammar(&schema.to_string()).unwrap_or_default();
        let raw_root = root_rule(&raw);
        // The trap this module exists for: llama.cpp sorts the keys.
        assert!(
            position(raw_root, "messages-kv") < position(raw_root, "shouldSpeak-kv"),
            "{raw}"
        );

        let fixed = grammar_for_schema(&schema).unwrap_or_default();
        let root = root_rule(&fixed);
        assert!(
            position(root, "innerThoughts-kv") < position(root, "shouldSpeak-kv"),
            "{fixed}"
        );
        assert!(
            position(root, "shouldSpeak-kv") < position(root, "messages-kv"),
            "{fixed}"
        );
        let item = fixed
            .lines()
            .find(|l| l.starts_with("messages-item ::= "))
            .unwrap_or_default();
        assert!(
            position(item, "to-kv") < position(item, "content-kv"),
            "{fixed}"
        );
        // Nothing else changed.
        assert_eq!(raw.lines().count(), fixed.lines().count());
    }

    #[test]
    fn optional_keys_stay_after_the_required_ones() {
        let schema = json!({
            "type": "object",
            "properties": {"b": {"type": "integer"}, "a": {"type": "integer"}, "z": {"type": "integer"}},
            "required": ["z", "a"]
        });
        let fixed = grammar_for_schema(&schema).unwrap_or_default();
        let root = root_rule(&fixed);
        assert!(position(root, "z-kv") < position(root, "a-kv"), "{fixed}");
        assert!(position(root, "a-kv") < position(root, "b-kv"), "{fixed}");
    }

    #[test]
    fn unrelated_rules_pass_through() {
        let grammar = "root ::= \"{\" space x-kv \"}\"\nspace ::= | \" \"\n";
        assert_eq!(order_object_keys(grammar, &json!({})), grammar);
    }

    #[test]
    fn a_schema_llama_cpp_rejects_is_a_clear_error() {
        let err =
            grammar_for_schema(&json!({"type": "object", "properties": {"a": {"$ref": "#/nope"}}}))
                .err()
                .unwrap_or_default();
        assert!(err.contains("JSON schema"), "{err}");
    }
}
