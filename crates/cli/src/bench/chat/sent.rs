//! What one thought costs as it goes over the wire, per dialect: the request bodies the
//! scripted server received, counted with the model family's own tokenizer.
//!
//! Counted: every text the model reads — each message's content (Anthropic's system
//! blocks included), the structured-output form as JSON text (`response_format`, or the
//! forced tool and its `tool_choice`), and the role framing of each message. Not counted:
//! the envelope a server parses and never shows the model (`model`, `temperature`, JSON
//! punctuation around the messages).

use anyhow::{Context as _, Result};
use cubicle_core::gateway::pricing;
use cubicle_core::secrets::{SecretError, SecretStore};
use cubicle_llm::ApiKey;
use serde_json::Value;

/// The role framing of one chat message (`<|im_start|>role\n … <|im_end|>\n` and its
/// kin): OpenAI's published rule for counting chat prompts, used for every dialect.
const TOKENS_PER_MESSAGE: usize = 4;
/// Anthropic publishes no tokenizer; cl100k is the nearest public BPE of its size.
const ANTHROPIC_STAND_IN: &str = "cl100k_base";

/// The paid presets need a key to be built; the server they talk to is on loopback and
/// never sees a real one.
pub(super) struct PlaceholderKeys;

impl SecretStore for PlaceholderKeys {
    fn get(&self, _: &str) -> Result<Option<ApiKey>, SecretError> {
        Ok(Some(ApiKey::new("bench-placeholder-key")))
    }
    fn set(&self, _: &str, _: &ApiKey) -> Result<(), SecretError> {
        Ok(())
    }
    fn delete(&self, _: &str) -> Result<(), SecretError> {
        Ok(())
    }
}

/// How a department thought's answer contract goes over the wire: the families of
/// providers the bench measures, not the providers' API dialects themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ContractForm {
    /// `response_format: json_schema` (OpenAI; vLLM, LM Studio and Ollama send the same).
    OpenAiNative,
    /// `response_format: json_object`, the shape in the prompt (also Qwen, Moonshot).
    DeepSeek,
    /// A forced tool whose `input_schema` is the schema.
    Anthropic,
    /// A small local model (the built-in one, or one its size served locally): no JSON
    /// thought, the engine's short steps (SPEC §13); counted through the built-in
    /// model's chat template and vocabulary.
    Builtin,
}

impl ContractForm {
    /// The dialects with a wire, each run through the engine against the scripted server.
    pub(super) const ALL: [ContractForm; 4] = [
        ContractForm::OpenAiNative,
        ContractForm::DeepSeek,
        ContractForm::Anthropic,
        ContractForm::Builtin,
    ];

    pub(super) fn key(self) -> &'static str {
        match self {
            ContractForm::OpenAiNative => "openai_native",
            ContractForm::DeepSeek => "deepseek",
            ContractForm::Anthropic => "anthropic",
            ContractForm::Builtin => "builtin",
        }
    }

    pub(super) fn preset(self) -> &'static str {
        match self {
            ContractForm::OpenAiNative => "openai",
            ContractForm::DeepSeek => "deepseek",
            ContractForm::Anthropic => "anthropic",
            // What a small model gets is the same through a local server (Ollama's
            // wire) as in process, and only a wire can be captured.
            ContractForm::Builtin => "ollama",
        }
    }

    /// The model id the run routes thoughts to: its size decides the engine's path.
    pub(super) fn model(self) -> &'static str {
        match self {
            ContractForm::Builtin => "smollm2-135m-instruct",
            _ => "bench",
        }
    }
}

/// One dialect's figure.
pub(super) struct Measured {
    pub(super) dialect: ContractForm,
    /// Mean per thought.
    pub(super) tokens: f64,
    /// What of it every thought of this employee in this chat sends again; `None` for the
    /// small model, whose steps are counted through its own template.
    pub(super) standing: Option<Standing>,
    pub(super) tokenizer: String,
    pub(super) requests: usize,
    pub(super) body_bytes: f64,
    /// What the provider's prompt cache makes of an employee's next thought; `None` for the
    /// small model, which runs locally.
    pub(super) cache: Option<Cached>,
}

/// An employee's next thought against its previous one, per thought (the mean over every
/// member's second thought), priced as the preset's default model.
#[derive(Clone, Debug)]
pub(super) struct Cached {
    /// The model whose price and cache rules apply.
    pub(super) priced_as: String,
    /// What the provider bills a cached input token, over its base price.
    pub(super) ratio: f64,
    /// The shortest prefix the provider caches.
    pub(super) min_tokens: usize,
    /// Tokens sent by the thoughts that had a previous one.
    pub(super) sent: f64,
    /// Of those, the prefix the previous thought sent byte for byte (up to a breakpoint
    /// where the provider needs one).
    pub(super) shared: f64,
    /// Of that, what the provider's rules serve from its cache.
    pub(super) hit: f64,
    /// Uncached + cached × ratio.
    pub(super) billed: f64,
    /// Thoughts with a previous one.
    pub(super) pairs: usize,
}

/// Of a dialect's mean, the parts that do not depend on the conversation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Standing {
    /// The structured-output form on the wire (the schema and its envelope).
    pub(super) form: f64,
    /// The system prompt: who the employee is, the scene and the answer's notes.
    pub(super) system: f64,
}

/// The messages a model reads in one request body (system first), and its structured-output
/// form as JSON text.
pub(super) fn read_texts(body: &Value) -> (Vec<String>, Option<String>) {
    let mut messages = system_blocks(&body["system"]);
    for m in body["messages"].as_array().into_iter().flatten() {
        match &m["content"] {
            Value::String(s) => messages.push(s.clone()),
            Value::Array(blocks) => messages.push(
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            _ => {}
        }
    }
    let form = if let Some(format) = body.get("response_format") {
        Some(format.to_string())
    } else {
        body.get("tools")
            .map(|tools| format!("{tools}{}", body.get("tool_choice").unwrap_or(&Value::Null)))
    };
    (messages, form)
}

/// Anthropic's top-level `system`: a string or text blocks.
fn system_blocks(system: &Value) -> Vec<String> {
    match system {
        Value::String(s) => vec![s.clone()],
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// Tokens of one request as its model reads it.
pub(super) fn sent_tokens(body: &Value, count: &dyn Fn(&str) -> usize) -> usize {
    let (messages, form) = read_texts(body);
    messages
        .iter()
        .map(|m| count(m) + TOKENS_PER_MESSAGE)
        .sum::<usize>()
        + form.as_deref().map_or(0, count)
}

/// Of [`sent_tokens`], the system prompt's share (Anthropic's system blocks, or the
/// leading system message), its framing included.
pub(super) fn system_tokens(body: &Value, count: &dyn Fn(&str) -> usize) -> usize {
    let blocks = system_blocks(&body["system"]);
    if !blocks.is_empty() {
        // Framed as `sent_tokens` frames them: each block as one message.
        return blocks.iter().map(|t| count(t) + TOKENS_PER_MESSAGE).sum();
    }
    body["messages"]
        .as_array()
        .and_then(|m| m.first())
        .filter(|m| m["role"] == "system")
        .and_then(|m| m["content"].as_str())
        .map_or(0, |t| count(t) + TOKENS_PER_MESSAGE)
}

/// Of [`sent_tokens`], the structured-output form's share: the schema and its envelope.
pub(super) fn form_tokens(body: &Value, count: &dyn Fn(&str) -> usize) -> usize {
    read_texts(body).1.as_deref().map_or(0, count)
}

/// One piece of what a model reads, in the order the provider lays the prompt out.
struct Piece {
    text: String,
    /// Framing tokens around it (a message's role header), 0 for the form.
    framing: usize,
    /// The request marks a cache breakpoint at its end (Anthropic's `cache_control`).
    breakpoint: bool,
}

/// A request body as its prompt is laid out: the structured-output form first (OpenAI and
/// Anthropic put tools and schemas in front of the messages), then Anthropic's system
/// blocks, then the messages.
fn pieces(body: &Value) -> Vec<Piece> {
    let (_, form) = read_texts(body);
    let mut out: Vec<Piece> = form
        .into_iter()
        .map(|text| Piece {
            text,
            framing: 0,
            breakpoint: false,
        })
        .collect();
    let marked = |b: &Value| b.get("cache_control").is_some();
    if let Value::Array(blocks) = &body["system"] {
        for b in blocks {
            out.push(Piece {
                text: b["text"].as_str().unwrap_or_default().to_owned(),
                framing: TOKENS_PER_MESSAGE,
                breakpoint: marked(b),
            });
        }
    } else if let Value::String(text) = &body["system"] {
        out.push(Piece {
            text: text.clone(),
            framing: TOKENS_PER_MESSAGE,
            breakpoint: false,
        });
    }
    for m in body["messages"].as_array().into_iter().flatten() {
        let (text, breakpoint) = match &m["content"] {
            Value::String(s) => (s.clone(), false),
            Value::Array(blocks) => (
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                blocks.iter().any(marked),
            ),
            _ => continue,
        };
        out.push(Piece {
            text,
            framing: TOKENS_PER_MESSAGE,
            breakpoint,
        });
    }
    out
}

/// Tokens of `next`'s prompt that `previous` sent byte for byte from its first byte: whole
/// pieces, then the common start of the first piece that differs (less one token, as the
/// cut may split one). With `explicit_breakpoints`, only up to the last breakpoint in the
/// shared part: the provider caches nothing else.
pub(super) fn shared_prefix_tokens(
    previous: &Value,
    next: &Value,
    explicit_breakpoints: bool,
    count: &dyn Fn(&str) -> usize,
) -> usize {
    let (a, b) = (pieces(previous), pieces(next));
    let (mut shared, mut at_breakpoint) = (0, 0);
    for (x, y) in a.iter().zip(&b) {
        if x.text == y.text && x.framing == y.framing {
            shared += count(&x.text) + x.framing;
            if x.breakpoint && y.breakpoint {
                at_breakpoint = shared;
            }
            continue;
        }
        let common = x
            .text
            .char_indices()
            .zip(y.text.chars())
            .find(|((_, c), d)| c != d)
            .map_or(x.text.len().min(y.text.len()), |((i, _), _)| i);
        let partial = count(&x.text[..common]);
        shared += partial.saturating_sub(1) + if partial > 0 { x.framing } else { 0 };
        break;
    }
    if explicit_breakpoints {
        at_breakpoint
    } else {
        shared
    }
}

/// The employee a thought's request is for: "You are NAME," opens its system prompt.
fn thinker(body: &Value) -> String {
    let (texts, _) = read_texts(body);
    texts
        .first()
        .and_then(|s| super::script::between(s, "You are ", ","))
        .unwrap_or_default()
        .to_owned()
}

/// Each employee's consecutive thoughts set against each other, priced as the preset's
/// default model with its published cache rules.
fn cached(
    dialect: ContractForm,
    bodies: &[Value],
    count: &dyn Fn(&str) -> usize,
) -> Option<Cached> {
    let model = cubicle_llm::presets::preset(dialect.preset())?.default_model;
    let price = pricing::default_price(dialect.preset(), model)?;
    let rules = pricing::cache_rules(dialect.preset(), model);
    let mut last: std::collections::HashMap<String, &Value> = std::collections::HashMap::new();
    let (mut sent, mut shared, mut hit, mut billed, mut pairs) = (0.0, 0.0, 0.0, 0.0, 0usize);
    for body in bodies {
        let who = thinker(body);
        if let Some(previous) = last.insert(who, body) {
            let s = sent_tokens(body, count);
            let common = rules.map_or(0, |r| {
                shared_prefix_tokens(previous, body, r.explicit_breakpoints, count)
            });
            let h = rules.map_or(0, |r| r.hit(common)).min(s);
            sent += s as f64;
            shared += common as f64;
            hit += h as f64;
            billed += (s - h) as f64 + h as f64 * price.cached_ratio();
            pairs += 1;
        }
    }
    let per = |x: f64| if pairs == 0 { 0.0 } else { x / pairs as f64 };
    Some(Cached {
        priced_as: model.to_owned(),
        ratio: price.cached_ratio(),
        min_tokens: rules.map_or(usize::MAX, |r| r.min_tokens),
        sent: per(sent),
        shared: per(shared),
        hit: per(hit),
        billed: per(billed),
        pairs,
    })
}

pub(super) fn tokenizer(name: &str) -> Result<&'static tiktoken::CoreBpe> {
    tiktoken::get_encoding(name).with_context(|| format!("tokenizer {name} is not built in"))
}

fn mean(xs: &[usize]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<usize>() as f64 / xs.len() as f64
    }
}

/// Each dialect's bodies, as captured at the server, counted with its tokenizer; the
/// small model's steps through the built-in model's own template and vocabulary.
pub(super) fn measure(runs: &[(ContractForm, Vec<Value>)]) -> Result<Vec<Measured>> {
    let mut out = Vec::new();
    for (dialect, bodies) in runs {
        let (name, label) = match dialect {
            ContractForm::OpenAiNative => ("o200k_base", "o200k_base".to_owned()),
            ContractForm::DeepSeek => ("deepseek_v3", "deepseek_v3".to_owned()),
            ContractForm::Anthropic => (
                ANTHROPIC_STAND_IN,
                format!("{ANTHROPIC_STAND_IN} (stand-in: Anthropic publishes no tokenizer)"),
            ),
            ContractForm::Builtin => continue,
        };
        let enc = tokenizer(name)?;
        let counts: Vec<usize> = bodies
            .iter()
            .map(|b| sent_tokens(b, &|t| enc.count(t)))
            .collect();
        let forms: Vec<usize> = bodies
            .iter()
            .map(|b| form_tokens(b, &|t| enc.count(t)))
            .collect();
        let systems: Vec<usize> = bodies
            .iter()
            .map(|b| system_tokens(b, &|t| enc.count(t)))
            .collect();
        let bytes: Vec<usize> = bodies.iter().map(|b| b.to_string().len()).collect();
        out.push(Measured {
            dialect: *dialect,
            tokens: mean(&counts),
            standing: Some(Standing {
                form: mean(&forms),
                system: mean(&systems),
            }),
            tokenizer: label,
            requests: bodies.len(),
            body_bytes: mean(&bytes),
            cache: cached(*dialect, bodies, &|t| enc.count(t)),
        });
    }
    let small = runs
        .iter()
        .find(|(d, _)| *d == ContractForm::Builtin)
        .map(|(_, b)| b.as_slice())
        .unwrap_or_default();
    out.push(builtin(small)?);
    Ok(out)
}

#[cfg(feature = "builtin")]
fn builtin(bodies: &[Value]) -> Result<Measured> {
    use cubicle_llm::ChatMessage;
    use cubicle_llm::builtin::{BuiltinModel, BuiltinOptions};

    let path = cubicle_llm::model_file::default_model_path();
    let model = if path.is_file() {
        Some(BuiltinModel::load(&path, BuiltinOptions::default())?)
    } else {
        None
    };
    let Some(model) = model else {
        return builtin_fallback(bodies, &format!("not installed at {}", path.display()));
    };
    let mut counts = Vec::new();
    for body in bodies {
        let (texts, _) = read_texts(body);
        let messages: Vec<ChatMessage> = texts
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                if i == 0 {
                    ChatMessage::system(t)
                } else {
                    ChatMessage::user(t)
                }
            })
            .collect();
        counts.push(model.count_prompt_tokens(&messages)?);
    }
    Ok(Measured {
        dialect: ContractForm::Builtin,
        tokens: mean(&counts),
        standing: None,
        tokenizer: format!("{} (llama.cpp, its chat template)", model.name()),
        requests: bodies.len(),
        body_bytes: 0.0,
        cache: None,
    })
}

#[cfg(not(feature = "builtin"))]
fn builtin(bodies: &[Value]) -> Result<Measured> {
    builtin_fallback(bodies, "this build has no built-in model")
}

fn builtin_fallback(bodies: &[Value], why: &str) -> Result<Measured> {
    let enc = tokenizer("cl100k_base")?;
    let counts: Vec<usize> = bodies
        .iter()
        .map(|b| {
            let (messages, _) = read_texts(b);
            messages
                .iter()
                .map(|m| enc.count(m) + TOKENS_PER_MESSAGE)
                .sum()
        })
        .collect();
    Ok(Measured {
        dialect: ContractForm::Builtin,
        tokens: mean(&counts),
        standing: None,
        tokenizer: format!("cl100k_base (fallback: the built-in model is {why})"),
        requests: bodies.len(),
        body_bytes: 0.0,
        cache: None,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_text_the_model_reads_is_counted_once() {
        let words = |t: &str| t.split_whitespace().count();
        let openai = json!({
            "model": "m", "temperature": 0.8,
            "messages": [{"role": "system", "content": "one two three"},
                         {"role": "user", "content": "four five"}],
            "response_format": {"type": "json_object"}
        });
        // 3 + 2 words, 2 × the framing, and the form's JSON text as one "word".
        assert_eq!(sent_tokens(&openai, &words), 5 + 2 * TOKENS_PER_MESSAGE + 1);
        assert_eq!(form_tokens(&openai, &words), 1);
        assert_eq!(system_tokens(&openai, &words), 3 + TOKENS_PER_MESSAGE);
        let anthropic = json!({
            "system": [{"type": "text", "text": "one two three", "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": "four five"}],
            "tools": [{"name": "Thought", "input_schema": {"type": "object"}}],
            "tool_choice": {"type": "tool", "name": "Thought"}
        });
        let (texts, form) = read_texts(&anthropic);
        assert_eq!(texts, ["one two three", "four five"]);
        assert_eq!(system_tokens(&anthropic, &words), 3 + TOKENS_PER_MESSAGE);
        assert!(form.is_some_and(|f| f.contains("input_schema") && f.contains("\"tool\"")));
        let plain = json!({"messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(read_texts(&plain).1, None);
        assert_eq!(form_tokens(&plain, &words), 0);
        assert_eq!(system_tokens(&plain, &words), 0);
    }

    #[test]
    fn the_shared_prefix_ends_where_the_bodies_first_differ_or_at_the_last_breakpoint() {
        let words = |t: &str| t.split_whitespace().count();
        let openai = |user: &str| {
            json!({"messages": [{"role": "system", "content": "You are Bob,"},
                                {"role": "user", "content": user}],
                   "response_format": {"type": "json_object"}})
        };
        let (a, b) = (openai("one two three four"), openai("one two six"));
        // The form (1), the system message (3 + framing), "one two" less the cut token,
        // and the user message's framing.
        let want = 1 + 3 + TOKENS_PER_MESSAGE + 1 + TOKENS_PER_MESSAGE;
        assert_eq!(shared_prefix_tokens(&a, &b, false, &words), want);
        assert_eq!(
            shared_prefix_tokens(&a, &a, false, &words),
            sent_tokens(&a, &words)
        );
        let anthropic = |user: &str| {
            json!({"system": [{"type": "text", "text": "You are Bob,", "cache_control": {"type": "ephemeral"}}],
                   "messages": [{"role": "user", "content": user}],
                   "tools": [{"name": "T", "input_schema": {}}], "tool_choice": {"type": "tool"}})
        };
        let (a, b) = (anthropic("one two three"), anthropic("one two six"));
        // Only up to the breakpoint on the system block: the tool and the system prompt.
        assert_eq!(
            shared_prefix_tokens(&a, &b, true, &words),
            1 + 3 + TOKENS_PER_MESSAGE
        );
        assert_eq!(thinker(&a), "Bob");
    }

    #[test]
    fn the_tokenizers_are_built_in_and_differ() {
        let text =
            "Answer with one JSON object: {\"innerThoughts\": private, \"shouldSpeak\": bool}";
        let o200k = tokenizer("o200k_base").map(|e| e.count(text)).unwrap_or(0);
        let deepseek = tokenizer("deepseek_v3").map(|e| e.count(text)).unwrap_or(0);
        assert!(o200k > 10 && deepseek > 10, "{o200k} {deepseek}");
        assert!(o200k < text.len() / 2);
    }
}
