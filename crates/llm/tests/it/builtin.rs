//! The built-in backend against real llama.cpp and the real SmolLM2-135M GGUF.
//! The model comes from `CUBICLE_BUILTIN_MODEL` or the app's data dir; when it is missing,
//! every test here fails and says to run `scripts/install-model.sh`.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(feature = "builtin")]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use cubicle_llm::builtin::{BuiltinClient, BuiltinModel, BuiltinOptions, default_model_path};
use cubicle_llm::{
    ChatMessage, CompletionRequest, FinishReason, JsonSchemaSpec, LlmClient, LlmError, StreamEvent,
};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::json;

fn model_path() -> PathBuf {
    let path = default_model_path();
    assert!(
        path.is_file(),
        "the built-in model is not installed at {}: run scripts/install-model.sh \
         (or set CUBICLE_BUILTIN_MODEL to a GGUF file)",
        path.display()
    );
    path
}

/// One model for the whole test binary, as in the app.
fn shared_model() -> Arc<BuiltinModel> {
    static MODEL: OnceLock<Arc<BuiltinModel>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let path = model_path();
            let started = Instant::now();
            let model = BuiltinModel::load(&path, BuiltinOptions::default())
                .unwrap_or_else(|e| panic!("loading {} failed: {e}", path.display()));
            println!(
                "[builtin] loaded {} ({}) in {:?} (load_time {:?}), context {} tokens",
                path.display(),
                model.name(),
                started.elapsed(),
                model.load_time(),
                model.context_len()
            );
            model
        })
        .clone()
}

fn client() -> BuiltinClient {
    BuiltinClient::new(shared_model())
}

fn capital_question(max_tokens: u32) -> CompletionRequest {
    CompletionRequest {
        messages: vec![
            ChatMessage::system("You are a helpful assistant. Answer briefly."),
            ChatMessage::user("What is the capital of France?"),
        ],
        temperature: Some(0.0),
        max_tokens: Some(max_tokens),
        ..Default::default()
    }
}

#[tokio::test]
async fn plain_completion_returns_text_and_usage() {
    let c = client();
    assert_eq!(c.provider_id(), "builtin");
    let caps = c.capabilities();
    assert!(caps.json_schema && caps.json_object && caps.stream);

    let (resp, stats) = c.complete_with_stats(capital_question(48)).await.unwrap();
    println!(
        "[builtin] plain: {:?} {:?} {:?}",
        resp.text, resp.usage, resp.finish_reason
    );
    assert!(!resp.text.trim().is_empty());
    assert!(resp.usage.input_tokens > 10, "{:?}", resp.usage);
    assert!(
        (1..=48).contains(&resp.usage.output_tokens),
        "{:?}",
        resp.usage
    );
    if resp.finish_reason == FinishReason::Length {
        assert_eq!(resp.usage.output_tokens, 48);
    } else {
        assert_eq!(resp.finish_reason, FinishReason::Stop);
    }
    assert!(!resp.model.is_empty());
    assert_eq!(stats.prompt_tokens, resp.usage.input_tokens);
    assert_eq!(stats.generated_tokens, resp.usage.output_tokens);
}

#[tokio::test]
async fn the_token_cap_and_stop_strings_end_generation() {
    let c = client();
    let mut req = capital_question(3);
    req.messages[1].content = "Write a long story about a cat who works in an office.".into();
    let capped = c.complete(req.clone()).await.unwrap();
    assert_eq!(capped.finish_reason, FinishReason::Length, "{capped:?}");
    assert_eq!(capped.usage.output_tokens, 3);

    // Cut at the first space: the reply must be one word, without the space.
    req.max_tokens = Some(64);
    req.stop = vec![" ".into()];
    let stopped = c.complete(req).await.unwrap();
    println!("[builtin] stopped: {stopped:?}");
    assert_eq!(stopped.finish_reason, FinishReason::Stop, "{stopped:?}");
    assert!(!stopped.text.contains(' '), "{stopped:?}");
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Thought {
    inner_thoughts: String,
    topic_saturation: i64,
    interest_level: i64,
    should_speak: bool,
    reason: String,
    messages: Vec<Said>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Said {
    content: String,
}

fn flow_of_thought_schema() -> serde_json::Value {
    // Tight limits so the grammar always closes well inside the token cap.
    json!({
        "type": "object",
        "properties": {
            "innerThoughts": {"type": "string", "maxLength": 200},
            "topicSaturation": {"type": "integer", "minimum": 1, "maximum": 10},
            "interestLevel": {"type": "integer", "minimum": 1, "maximum": 10},
            "shouldSpeak": {"type": "boolean"},
            "reason": {"type": "string", "maxLength": 120},
            "messages": {
                "type": "array",
                "maxItems": 2,
                "items": {
                    "type": "object",
                    "properties": {"content": {"type": "string", "maxLength": 200}},
                    "required": ["content"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["innerThoughts", "topicSaturation", "interestLevel", "shouldSpeak", "reason", "messages"],
        "additionalProperties": false
    })
}

fn flow_of_thought_request() -> CompletionRequest {
    CompletionRequest {
        messages: vec![
            ChatMessage::system(
                "You are Mia, a cheerful frontend engineer at a small company. You are in the \
                 group chat #general with Tom (backend) and the boss. Think first, then decide \
                 whether to say something. Reply with one JSON object: innerThoughts (private), \
                 topicSaturation 1-10, interestLevel 1-10, shouldSpeak, reason, messages.",
            ),
            ChatMessage::user(
                "[boss] Team, the login page is slow on phones. Who can look at it today?\n\
                 [Tom] I can check the API side after lunch.",
            ),
        ],
        json_schema: Some(JsonSchemaSpec {
            name: "flow_of_thought".into(),
            schema: flow_of_thought_schema(),
        }),
        temperature: Some(0.5),
        max_tokens: Some(1024),
        ..Default::default()
    }
}

#[tokio::test]
async fn flow_of_thought_json_offline() {
    let c = client();
    let mut failures = Vec::new();
    for attempt in 1..=3 {
        let (resp, stats) = c
            .complete_with_stats(flow_of_thought_request())
            .await
            .unwrap();
        println!(
            "[builtin] flow-of-thought attempt {attempt}: {} prompt tokens in {:?} ({:.0} tok/s), \
             {} generated in {:?} ({:.1} tok/s), setup {:?}, finish {:?}",
            stats.prompt_tokens,
            stats.prompt_time,
            stats.prompt_tokens_per_sec(),
            stats.generated_tokens,
            stats.generation_time,
            stats.generation_tokens_per_sec(),
            stats.setup_time,
            resp.finish_reason
        );
        println!("[builtin] output: {}", resp.text);
        match serde_json::from_str::<Thought>(&resp.text) {
            Ok(t) => {
                assert!((1..=10).contains(&t.topic_saturation), "{t:?}");
                assert!((1..=10).contains(&t.interest_level), "{t:?}");
                assert!(t.inner_thoughts.chars().count() <= 200, "{t:?}");
                assert!(t.reason.chars().count() <= 120, "{t:?}");
                assert!(t.messages.len() <= 2, "{t:?}");
                assert!(
                    t.messages.iter().all(|m| m.content.chars().count() <= 200),
                    "{t:?}"
                );
                let _ = t.should_speak;
                // Keys come in the schema's order, not alphabetically.
                let at = |k: &str| resp.text.find(&format!("\"{k}\"")).unwrap();
                assert!(at("innerThoughts") < at("topicSaturation"), "{}", resp.text);
                assert!(at("interestLevel") < at("shouldSpeak"), "{}", resp.text);
                assert!(at("shouldSpeak") < at("reason"), "{}", resp.text);
                assert!(at("reason") < at("messages"), "{}", resp.text);
                assert_eq!(resp.finish_reason, FinishReason::Stop);
                println!("[builtin] valid flow-of-thought after {attempt} attempt(s)");
                return;
            }
            Err(e) => failures.push(format!("attempt {attempt}: {e}: {}", resp.text)),
        }
    }
    panic!(
        "no valid flow-of-thought in 3 attempts:\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn streaming_deltas_add_up_to_the_completion() {
    let c = client();
    let whole = c.complete(capital_question(40)).await.unwrap();

    let mut stream = c.stream(capital_question(40)).await.unwrap();
    let mut deltas = Vec::new();
    let mut done = None;
    while let Some(event) = stream.next().await {
        match event.unwrap() {
            StreamEvent::Delta(d) => {
                assert!(done.is_none(), "a delta after Done");
                assert!(!d.is_empty());
                deltas.push(d);
            }
            StreamEvent::Done {
                usage,
                finish_reason,
            } => done = Some((usage, finish_reason)),
        }
    }
    let (usage, finish_reason) = done.expect("the stream ended without Done");
    println!("[builtin] {} deltas: {deltas:?}", deltas.len());
    assert!(deltas.len() > 1);
    // Greedy decoding: the stream says exactly what the completion said.
    assert_eq!(deltas.concat(), whole.text);
    assert_eq!(usage, whole.usage);
    assert_eq!(finish_reason, whole.finish_reason);
}

#[tokio::test]
async fn a_missing_or_broken_model_file_is_a_builtin_error() {
    let missing = PathBuf::from("/nonexistent/cubicle/no-such-model.gguf");
    match BuiltinModel::load(&missing, BuiltinOptions::default()) {
        Err(LlmError::Builtin(msg)) => {
            assert!(
                msg.contains("/nonexistent/cubicle/no-such-model.gguf"),
                "{msg}"
            );
            assert!(msg.contains("install-model.sh"), "{msg}");
        }
        other => panic!("expected a Builtin error, got {other:?}"),
    }

    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.gguf");
    std::fs::write(&junk, b"this is not a GGUF file at all").unwrap();
    match BuiltinModel::load(&junk, BuiltinOptions::default()) {
        Err(LlmError::Builtin(msg)) => assert!(msg.contains("junk.gguf"), "{msg}"),
        other => panic!("expected a Builtin error, got {other:?}"),
    }
}

#[tokio::test]
async fn an_over_long_prompt_is_a_clear_error() {
    // A second, small-context instance of the same file (mmap'd, so cheap).
    let small = BuiltinModel::load(
        model_path(),
        BuiltinOptions {
            context_len: 256,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(small.context_len(), 256);
    let c = BuiltinClient::new(small);
    let long = CompletionRequest {
        messages: vec![ChatMessage::user(
            "the office coffee machine is broken again. ".repeat(200),
        )],
        max_tokens: Some(16),
        ..Default::default()
    };
    match c.complete(long.clone()).await {
        Err(LlmError::Builtin(msg)) => {
            println!("[builtin] over-long prompt: {msg}");
            assert!(msg.contains("context holds 256"), "{msg}");
        }
        other => panic!("expected a Builtin error, got {other:?}"),
    }
    match c.stream(long).await {
        Err(LlmError::Builtin(msg)) => assert!(msg.contains("context holds 256"), "{msg}"),
        Err(e) => panic!("expected a Builtin error, got {e:?}"),
        Ok(_) => panic!("expected a Builtin error, got a stream"),
    }

    // A prompt that nearly fills the context: the answer is cut at the context's end.
    let near = CompletionRequest {
        messages: vec![ChatMessage::user(format!(
            "{}Now tell a long story.",
            "coffee is good. ".repeat(45)
        ))],
        max_tokens: Some(500),
        temperature: Some(0.0),
        ..Default::default()
    };
    let resp = c.complete(near).await.unwrap();
    println!(
        "[builtin] near-full context: {:?} / {:?}",
        resp.usage, resp.finish_reason
    );
    assert!(
        resp.usage.input_tokens + resp.usage.output_tokens <= 256,
        "{:?}",
        resp.usage
    );
}

#[tokio::test]
async fn concurrent_requests_share_one_model() {
    let c = client();
    let (a, b) = tokio::join!(
        c.complete(capital_question(8)),
        c.complete(capital_question(8))
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.text, b.text, "greedy answers to the same prompt agree");
}

#[tokio::test]
async fn speed_is_measured_and_printed() {
    let c = client();
    let req = CompletionRequest {
        messages: vec![
            ChatMessage::system("You are a helpful assistant. ".repeat(20)),
            ChatMessage::user("List ten colours, one per line."),
        ],
        temperature: Some(0.0),
        max_tokens: Some(64),
        ..Default::default()
    };
    let started = Instant::now();
    let (resp, stats) = c.complete_with_stats(req).await.unwrap();
    println!(
        "[builtin] speed (1 thread): prompt {} tokens {:.0} tok/s; generation {} tokens {:.1} tok/s; \
         setup {:?}; wall {:?}; finish {:?}",
        stats.prompt_tokens,
        stats.prompt_tokens_per_sec(),
        stats.generated_tokens,
        stats.generation_tokens_per_sec(),
        stats.setup_time,
        started.elapsed(),
        resp.finish_reason
    );
}

#[tokio::test]
async fn a_caller_that_goes_away_stops_the_generation() {
    let model = shared_model();
    let mut req = capital_question(200);
    req.messages[1].content = "Write a long story about a cat who works in an office.".into();

    // The cancel flag (set when a `complete` future is dropped) ends it at the next token.
    let m = model.clone();
    let r = req.clone();
    let (result, seen) = tokio::task::spawn_blocking(move || {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let mut seen = 0;
        let result = m.generate_blocking(&r, &cancel, &mut |_| {
            seen += 1;
            if seen == 3 {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            true
        });
        (result, seen)
    })
    .await
    .unwrap();
    assert_eq!(seen, 3);
    match result {
        Err(LlmError::Builtin(msg)) => assert!(msg.contains("cancelled"), "{msg}"),
        other => panic!("expected a cancelled generation, got {other:?}"),
    }

    // A stream dropped after its first delta frees the model for the next request.
    let c = client();
    let mut stream = c.stream(req).await.unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(StreamEvent::Delta(_)))
    ));
    drop(stream);
    let after = c.complete(capital_question(8)).await.unwrap();
    assert!(!after.text.is_empty());
}

/// Random text from a shape's alphabet: ASCII, Latin, Greek, CJK and other BMP letters,
/// line breaks where allowed — characters from one to three bytes of UTF-8.
fn random_text(next: &mut impl FnMut() -> u64, len: usize, single_line: bool) -> String {
    const POOLS: [(u32, u32); 6] = [
        (0x20, 0x7E),
        (0xA0, 0x24F),
        (0x370, 0x3FF),
        (0x4E00, 0x9FFF),
        (0xAC00, 0xD7A3),
        (0xE000, 0xFFFD),
    ];
    (0..len)
        .map(|_| {
            if !single_line && next().is_multiple_of(17) {
                return '\n';
            }
            let (lo, hi) = POOLS[(next() % POOLS.len() as u64) as usize];
            let c = char::from_u32(lo + (next() % u64::from(hi - lo + 1)) as u32).unwrap_or('x');
            if cubicle_llm::shape_char_allowed(c, single_line) {
                c
            } else {
                'x'
            }
        })
        .collect()
}

/// The bound a shape promises — an answer ends within `max_tokens` — checked against the
/// model's own tokenizer and grammar over random answers of every allowed kind, at the
/// longest the shape allows: the grammar accepts each, allows it to end there, and its
/// tokens never exceed the bound; one character more is refused.
#[test]
fn no_answer_of_a_shape_can_pass_its_token_bound() {
    use cubicle_llm::TextShape;
    let model = shared_model();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut worst = 0.0f64;
    for case in 0..240 {
        let single_line = case % 2 == 0;
        let max_chars = [1u32, 7, 40, 240, 900][case % 5];
        let shape = TextShape::Text {
            max_chars,
            single_line,
        };
        let len = if case % 3 == 0 {
            max_chars as usize
        } else {
            1 + (next() % u64::from(max_chars)) as usize
        };
        let text = random_text(&mut next, len, single_line);
        assert!(shape.accepts(&text), "{text:?}");
        let check = model.check_shape(&shape, &text).unwrap();
        assert!(
            check.accepted,
            "the grammar refused an answer of its shape: {text:?}"
        );
        assert!(check.may_end, "the grammar would not let {text:?} end");
        assert!(
            check.tokens < shape.max_tokens() as usize,
            "{} tokens > bound {} for {text:?}",
            check.tokens,
            shape.max_tokens() - 1
        );
        worst = worst.max(check.tokens as f64 / f64::from(shape.max_bytes()));
        if len == max_chars as usize {
            let over = format!("{text}x");
            let check = model.check_shape(&shape, &over).unwrap();
            assert!(
                !(check.accepted && check.may_end),
                "one character too many passed"
            );
        }
    }
    println!("[builtin] worst tokens / bound over 240 random answers: {worst:.2}");
    let choice = TextShape::OneOf {
        options: vec!["reply".into(), "silent".into()],
    };
    for (text, ok) in [
        ("reply", true),
        ("silent", true),
        ("maybe", false),
        ("replyx", false),
    ] {
        let check = model.check_shape(&choice, text).unwrap();
        assert_eq!(check.accepted && check.may_end, ok, "{text}");
        assert!(check.tokens <= choice.max_tokens() as usize);
    }
    assert!(
        model
            .check_shape(&choice, "\u{1F600}")
            .map(|c| !c.accepted)
            .unwrap()
    );
}

/// A model asked to ramble, at a high temperature, still ends every shaped answer by
/// itself: never at the token cap, always within the shape.
#[tokio::test]
async fn shaped_answers_end_by_themselves() {
    use cubicle_llm::TextShape;
    let c = client();
    for (i, shape) in [
        TextShape::Text {
            max_chars: 60,
            single_line: true,
        },
        TextShape::Text {
            max_chars: 300,
            single_line: false,
        },
        TextShape::OneOf {
            options: vec!["task".into(), "reply".into()],
        },
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..3u64 {
            let req = CompletionRequest {
                messages: vec![
                    ChatMessage::system("You are a storyteller who never stops."),
                    ChatMessage::user("Tell me the longest story you know, with many chapters."),
                ],
                temperature: Some(1.3),
                // The shape's bound wins over a smaller cap.
                max_tokens: Some(8),
                seed: Some(seed * 31 + i as u64),
                shape: Some(shape.clone()),
                ..Default::default()
            };
            let resp = c.complete(req).await.unwrap();
            assert_eq!(
                resp.finish_reason,
                FinishReason::Stop,
                "{shape:?}: {:?}",
                resp.text
            );
            assert!(shape.accepts(&resp.text), "{shape:?}: {:?}", resp.text);
            assert!(resp.usage.output_tokens <= shape.max_bytes());
        }
    }
}

#[test]
fn the_built_in_model_is_small() {
    let model = shared_model();
    let profile = model.profile();
    assert!(profile.small, "{} parameters", model.parameters());
    assert_eq!(profile.context_len, model.context_len());
}
