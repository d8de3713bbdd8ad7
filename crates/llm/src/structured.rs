//! The one place where model text becomes a typed value (SPEC §10, DESIGN "structured
//! output"): schema from the Rust type → the strongest constraint the backend offers →
//! extract → repair → validate → deserialize, with one retry that tells the model what was
//! wrong. A value is returned only when it passed every step; nothing half-parsed escapes.
//!
//! What is sent is the cheapest form of the contract (see [`crate::shape`]): the compacted
//! schema where the server enforces it (native `json_schema`, the built-in model's grammar,
//! Anthropic's forced tool), otherwise a one-line shape in the prompt — or, when the
//! caller describes its answer itself ([`CompletionRequest::answer_note`]), the caller's
//! full description instead, and only its meanings beside an enforced schema.
//! When a server rejects a form, the next one down its ladder is tried at once
//! ([`ladder`]); [`Structured::form`] says which one worked, for the gateway to remember.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::shape;
use crate::types::{
    ChatMessage, CompletionRequest, CompletionResponse, FinishReason, JsonForm, JsonSchemaSpec,
    LlmClient, LlmError, Role,
};

/// SPEC §10: a malformed answer is reported back to the model once.
pub const MAX_ATTEMPTS: usize = 2;

/// How far the candidate search looks before giving up; keeps hostile text linear-ish.
const MAX_CANDIDATES: usize = 32;

/// Far above any real answer's structure, far below what overflows the repair parser's stack.
const MAX_REPAIR_BRACKETS: usize = 512;

#[derive(Clone, Debug)]
pub struct Structured<T> {
    pub value: T,
    /// One per attempt, in order, for usage accounting.
    pub responses: Vec<CompletionResponse>,
    /// The accepted answer needed JSON repair (not merely fence or prose stripping).
    pub repaired: bool,
    /// How the answer was asked for: what this server accepts.
    pub form: JsonForm,
}

#[derive(Debug, thiserror::Error)]
pub enum StructuredError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("the model's answer was unusable after a retry: {last_error}")]
    Invalid {
        last_error: String,
        /// The last answer as the model gave it.
        raw: String,
        /// Every attempt's response, so the failed calls are still accounted for.
        responses: Vec<CompletionResponse>,
    },
}

/// JSON found in model text.
#[derive(Clone, Debug, PartialEq)]
pub struct Extracted {
    pub value: Value,
    pub repaired: bool,
}

pub async fn complete_json<T: DeserializeOwned + JsonSchema>(
    client: &dyn LlmClient,
    req: CompletionRequest,
) -> Result<Structured<T>, StructuredError> {
    complete_with_schema::<T>(client, req, schemars::schema_for!(T).to_value()).await
}

/// The same pipeline for a schema known only at run time (`cubicle-cli ask --schema`).
pub async fn complete_json_value(
    client: &dyn LlmClient,
    req: CompletionRequest,
    schema: Value,
) -> Result<Structured<Value>, StructuredError> {
    complete_with_schema::<Value>(client, req, schema).await
}

/// The forms of `client`'s ladder that can carry `schema`, from `start` (what worked
/// last time, when the gateway knows) or from the best. A tool's input must be an object,
/// so an array answer skips Anthropic's tool form.
pub fn ladder(client: &dyn LlmClient, schema: &Value, start: Option<JsonForm>) -> Vec<JsonForm> {
    let object_root = schema.get("type") == Some(&Value::String("object".into()));
    let forms: Vec<JsonForm> = client
        .json_forms()
        .into_iter()
        .filter(|f| object_root || *f != JsonForm::Tool)
        .collect();
    let from = start
        .and_then(|s| forms.iter().position(|f| *f == s))
        .unwrap_or(0);
    let mut forms: Vec<JsonForm> = forms.into_iter().skip(from).collect();
    if forms.is_empty() {
        forms.push(JsonForm::Prompt);
    }
    forms
}

/// The request exactly as the pipeline sends it in `form`: the schema compacted (no doc
/// comments, titles or `$defs`), on the wire when the form carries it; appended to the
/// system prompt, the caller's note on the answer (its meanings beside an enforced
/// schema, in full otherwise) or, without a note and unenforced, the one-line shape.
pub fn prepare(req: &CompletionRequest, schema: &Value, form: JsonForm) -> CompletionRequest {
    let mut out = req.clone();
    out.json_form = Some(form);
    out.json_schema = (form != JsonForm::Prompt).then(|| JsonSchemaSpec {
        name: schema_name(schema),
        schema: shape::wire_schema(schema),
    });
    match (&req.answer_note, form.enforced()) {
        (Some(note), true) => add_to_system(&mut out.messages, &note.meanings),
        (Some(note), false) => add_to_system(&mut out.messages, &note.full),
        (None, true) => {}
        (None, false) => add_instruction(&mut out.messages, schema),
    }
    out
}

async fn complete_with_schema<T: DeserializeOwned>(
    client: &dyn LlmClient,
    req: CompletionRequest,
    schema: Value,
) -> Result<Structured<T>, StructuredError> {
    let forms = ladder(client, &schema, req.json_form);
    let mut step = 0;
    // The exchange of a retry (the rejected answer, then why), kept apart from the
    // request so a change of form rebuilds the prompt around it.
    let mut turns: Vec<ChatMessage> = Vec::new();
    let mut responses = Vec::with_capacity(MAX_ATTEMPTS);
    loop {
        let form = forms.get(step).copied().unwrap_or(JsonForm::Prompt);
        let mut attempt = prepare(&req, &schema, form);
        attempt.messages.extend(turns.iter().cloned());
        let resp = match client.complete(attempt).await {
            Ok(resp) => resp,
            Err(LlmError::UnsupportedJsonForm { status, body, .. }) if step + 1 < forms.len() => {
                tracing::warn!(
                    provider = client.provider_id(),
                    rejected = %form,
                    next = %forms[step + 1],
                    status,
                    %body,
                    "the server rejected this form of structured output; trying the next"
                );
                step += 1;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let outcome = parse_answer::<T>(&resp, &schema);
        let raw = resp.text.clone();
        responses.push(resp);
        match outcome {
            Ok((value, repaired)) => {
                return Ok(Structured {
                    value,
                    responses,
                    repaired,
                    form,
                });
            }
            Err(error) if responses.len() >= MAX_ATTEMPTS => {
                tracing::warn!(%error, attempts = responses.len(), "structured answer dropped");
                return Err(StructuredError::Invalid {
                    last_error: error,
                    raw,
                    responses,
                });
            }
            Err(error) => {
                tracing::debug!(%error, "structured answer rejected; asking once more");
                turns.push(ChatMessage::assistant(raw));
                turns.push(ChatMessage::user(format!(
                    "Your previous answer could not be used: {error}\n\
                     Reply again with only the corrected JSON value, no prose and no code fences."
                )));
            }
        }
    }
}

fn parse_answer<T: DeserializeOwned>(
    resp: &CompletionResponse,
    schema: &Value,
) -> Result<(T, bool), String> {
    parse_text(&resp.text, resp.finish_reason, schema)
}

/// One answer through extract → repair → validate → deserialize: the typed value and
/// whether it needed repair, or why it is unusable. Pure (the fuzzer's entry point).
pub fn parse_text<T: DeserializeOwned>(
    text: &str,
    finish_reason: FinishReason,
    schema: &Value,
) -> Result<(T, bool), String> {
    let extracted = match extract(text) {
        // Repair would "close" a cut-off answer into something plausible but incomplete.
        Ok(e) if e.repaired && finish_reason == FinishReason::Length => {
            return Err(cut_off_message());
        }
        Ok(e) => e,
        Err(_) if finish_reason == FinishReason::Length => return Err(cut_off_message()),
        Err(e) => return Err(e),
    };
    validate(schema, &extracted.value)?;
    let value = serde_json::from_value::<T>(extracted.value)
        .map_err(|e| format!("the JSON does not fit the expected type: {e}"))?;
    Ok((value, extracted.repaired))
}

fn cut_off_message() -> String {
    "the answer was cut off at the token limit; give a shorter complete JSON value".into()
}

/// OpenAI wants `^[a-zA-Z0-9_-]{1,64}$`; schemars titles can hold `<`, spaces and more.
fn schema_name(schema: &Value) -> String {
    let title = schema
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("answer");
    let name: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "answer".into()
    } else {
        name
    }
}

fn add_instruction(messages: &mut Vec<ChatMessage>, schema: &Value) {
    let instruction = format!(
        "Answer with one JSON value and nothing else: no prose, no code fences. \
         Shape (? = may be left out, ≤n = at most n characters or items):\n{}",
        shape::shape_line(schema)
    );
    add_to_system(messages, &instruction);
}

/// `text` at the end of the system prompt (its stable prefix stays cacheable).
fn add_to_system(messages: &mut Vec<ChatMessage>, text: &str) {
    if text.is_empty() {
        return;
    }
    // Some local chat templates accept a system message only in first position.
    match messages.first_mut() {
        Some(first) if first.role == Role::System => {
            first.content.push_str("\n\n");
            first.content.push_str(text);
        }
        _ => messages.insert(0, ChatMessage::system(text.to_owned())),
    }
}

/// The JSON value in a model's answer, tolerating fences, prose around it and the usual
/// syntax slips.
pub fn extract_json(text: &str) -> Result<Value, String> {
    extract(text).map(|e| e.value)
}

/// [`extract_json`], also saying whether repair was needed.
pub fn extract(text: &str) -> Result<Extracted, String> {
    let text = text.trim();
    let clean = |value| Extracted {
        value,
        repaired: false,
    };
    if let Ok(v) = serde_json::from_str(text) {
        return Ok(clean(v));
    }
    let fenced = fenced_block(text);
    if let Some(fenced) = fenced
        && let Ok(v) = serde_json::from_str(fenced.trim())
    {
        return Ok(clean(v));
    }
    let spans = candidates(fenced.unwrap_or(text));
    match longest_parsed(&spans) {
        Some(found) => Ok(found),
        None => repair_longest(&spans),
    }
}

/// What may open the answer: an object or an array.
const OPENERS: [char; 2] = ['{', '['];

/// Every object/array start is a candidate, with its start and its balanced span (or the
/// rest of the text when it never closes); prose such as "{as asked}" can precede the
/// real answer, and the real answer is the longest one.
fn candidates(body: &str) -> Vec<(usize, &str)> {
    body.char_indices()
        .filter(|(_, c)| OPENERS.contains(c))
        .take(MAX_CANDIDATES)
        .map(|(start, _)| {
            let rest = &body[start..];
            (start, balanced_end(rest).map_or(rest, |end| &rest[..end]))
        })
        .collect()
}

/// The longest candidate that parses as it is — unless a broken candidate around it
/// repairs into the whole answer.
fn longest_parsed(spans: &[(usize, &str)]) -> Option<Extracted> {
    let (start, len, v) = spans
        .iter()
        .filter_map(|&(start, c)| {
            serde_json::from_str::<Value>(c)
                .ok()
                .map(|v| (start, c.len(), v))
        })
        .max_by_key(|(_, len, _)| *len)?;
    // A clean fragment inside a broken answer (`"messages": []` in an object with a
    // trailing comma) is not the answer: the answer around it, repaired, is.
    let around = spans
        .iter()
        .filter(|&&(s, c)| s < start && s + c.len() >= start + len)
        .map(|(_, c)| *c)
        .max_by_key(|c| c.len());
    if let Some(value @ (Value::Object(_) | Value::Array(_))) = around.and_then(repair) {
        return Some(Extracted {
            value,
            repaired: true,
        });
    }
    Some(Extracted {
        value: v,
        repaired: false,
    })
}

/// No candidate parses: the longest one repaired, or why it cannot be.
fn repair_longest(spans: &[(usize, &str)]) -> Result<Extracted, String> {
    let Some(candidate) = spans.iter().map(|(_, c)| *c).max_by_key(|c| c.len()) else {
        return Err("the answer contains no JSON object".into());
    };
    match repair(candidate) {
        Some(value @ (Value::Object(_) | Value::Array(_))) => Ok(Extracted {
            value,
            repaired: true,
        }),
        _ => {
            let err = serde_json::from_str::<Value>(candidate)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            Err(format!(
                "the answer is not valid JSON and could not be repaired ({err})"
            ))
        }
    }
}

/// The inside of the first ``` block (language tag dropped); an unclosed block runs to the end.
fn fenced_block(text: &str) -> Option<&str> {
    let open = text.find("```")?;
    let after = &text[open + 3..];
    let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
    // Only a language tag may follow the opening fence on its line.
    if after[..body_start]
        .trim()
        .contains(|c: char| !c.is_ascii_alphanumeric() && c != '-')
    {
        return None;
    }
    let body = &after[body_start..];
    Some(body.find("```").map_or(body, |close| &body[..close]))
}

/// Byte length of the object/array starting at `s[0]`, aware of strings and escapes.
fn balanced_end(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// llm_json is a port of a Python library and its parser indexes freely; a panic inside it
/// must cost one answer, not the engine. It also recurses once per `{`/`[`, and a stack
/// overflow aborts the process (no unwinding), so very bracket-heavy text is not repaired:
/// measured here, 3,200 nested levels overflow a 2 MB tokio worker stack in a debug build.
fn repair(candidate: &str) -> Option<Value> {
    if candidate.chars().filter(|c| OPENERS.contains(c)).count() > MAX_REPAIR_BRACKETS {
        return None;
    }
    let candidate = candidate.to_owned();
    std::panic::catch_unwind(move || {
        llm_json::loads(&candidate, &llm_json::RepairOptions::default()).ok()
    })
    .ok()
    .flatten()
}

/// Checks `value` against `schema`, listing (up to five of) the violations with their paths.
pub fn validate(schema: &Value, value: &Value) -> Result<(), String> {
    let validator = jsonschema::validator_for(schema)
        .map_err(|e| format!("the schema itself is invalid: {e}"))?;
    let errors: Vec<String> = validator
        .iter_errors(value)
        .take(5)
        .map(|e| {
            let path = e.instance_path().to_string();
            if path.is_empty() {
                e.to_string()
            } else {
                format!("at {path}: {e}")
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the JSON does not match the schema: {}",
            errors.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_json_is_taken_as_is() {
        let e = extract(r#" {"a": 1} "#).unwrap();
        assert_eq!(
            e,
            Extracted {
                value: json!({"a": 1}),
                repaired: false
            }
        );
    }

    #[test]
    fn fences_are_stripped_with_or_without_a_language_tag() {
        assert_eq!(
            extract_json("```json\n{\"a\": 1}\n```").unwrap(),
            json!({"a": 1})
        );
        assert_eq!(extract_json("```\n[1, 2]\n```").unwrap(), json!([1, 2]));
        assert_eq!(
            extract_json("Sure:\n```json\n{\"a\": 1}\n```\nDone.").unwrap(),
            json!({"a": 1})
        );
        assert!(!extract("```json\n{\"a\": 1}\n```").unwrap().repaired);
    }

    #[test]
    fn prose_before_and_after_is_ignored() {
        let text = "Here is the plan {as asked}: {\"steps\": [\"a\", \"b\"]} Let me know!";
        assert_eq!(extract_json(text).unwrap(), json!({"steps": ["a", "b"]}));
        assert!(!extract(text).unwrap().repaired);
    }

    #[test]
    fn braces_and_quotes_inside_strings_do_not_confuse_the_scan() {
        let text = r#"Result: {"msg": "use {x} and \"}\" here", "n": [1, {"m": "]"}]} ok"#;
        assert_eq!(
            extract_json(text).unwrap(),
            json!({"msg": "use {x} and \"}\" here", "n": [1, {"m": "]"}]})
        );
    }

    #[test]
    fn slips_are_repaired_and_flagged() {
        let e = extract("```json\n{\"name\": \"Ann\", \"age\": 30,}\n```").unwrap();
        assert_eq!(e.value, json!({"name": "Ann", "age": 30}));
        assert!(e.repaired);
        let e = extract("{'name': 'Ann'}").unwrap();
        assert_eq!(e.value, json!({"name": "Ann"}));
        let e = extract(r#"{"name": "Ann", "tags": ["a", "b""#).unwrap();
        assert_eq!(e.value, json!({"name": "Ann", "tags": ["a", "b"]}));
    }

    /// Found by the hostile corpus: a clean inner array used to win over the broken
    /// object around it, so any slip in a thought (which always has `messages`) lost it.
    #[test]
    fn a_slip_around_a_clean_fragment_repairs_the_whole_answer() {
        let e = extract("{'innerThoughts': 'x', 'messages': [], 'shouldSpeak': false}").unwrap();
        assert_eq!(
            e.value,
            json!({"innerThoughts": "x", "messages": [], "shouldSpeak": false})
        );
        assert!(e.repaired);
        let e = extract(r#"{"messages": [{"content": "hi"}], "shouldSpeak": true,}"#).unwrap();
        assert_eq!(
            e.value,
            json!({"messages": [{"content": "hi"}], "shouldSpeak": true})
        );
        let e =
            extract(r#"{"shouldSpeak": true, "messages": [], "memoryOps": [{"op": "add", "impor"#)
                .unwrap();
        assert_eq!(e.value["shouldSpeak"], json!(true));
        assert!(e.repaired);
    }

    #[test]
    fn text_without_json_is_an_error_not_a_guess() {
        assert!(extract_json("I cannot help with that.").is_err());
        assert!(extract_json("").is_err());
        assert!(extract_json("}}]]").is_err());
    }

    #[test]
    fn hostile_nesting_is_refused_without_crashing() {
        let deep = format!("{}1", "{\"a\": [".repeat(5000));
        assert!(extract(&deep).is_err());
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(extract(&deep).is_err(), "past serde_json's recursion limit");
    }

    /// A cheap stand-in until the fuzzer exists: JSON-ish noise must never panic or hang.
    #[test]
    fn noise_never_panics() {
        let alphabet: Vec<char> = "{}[]\",:'\\ a1\ntrue null é中`-.e+".chars().collect();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let len = (next() % 120) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            if let Ok(e) = extract(&text) {
                assert!(
                    e.value.is_object() || e.value.is_array() || !e.repaired,
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn validation_names_the_failing_path() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        assert!(validate(&schema, &json!({"n": 3})).is_ok());
        let err = validate(&schema, &json!({"n": "three"})).unwrap_err();
        assert!(err.contains("/n"), "{err}");
        assert!(validate(&schema, &json!({})).unwrap_err().contains("\"n\""));
    }

    #[test]
    fn schema_names_are_what_openai_accepts() {
        assert_eq!(
            schema_name(&json!({"title": "Reply_for_Vec<String>"})),
            "Reply_for_Vec_String_"
        );
        assert_eq!(schema_name(&json!({})), "answer");
    }

    #[test]
    fn the_instruction_joins_an_existing_system_message() {
        let mut msgs = vec![ChatMessage::system("You are Ann."), ChatMessage::user("hi")];
        add_instruction(&mut msgs, &json!({"type": "object"}));
        assert_eq!(msgs.len(), 2);
        assert!(msgs[0].content.starts_with("You are Ann.") && msgs[0].content.contains("Shape"));
        let mut msgs = vec![ChatMessage::user("hi")];
        add_instruction(&mut msgs, &json!({"type": "object"}));
        assert_eq!(msgs[0].role, Role::System);
    }
}
