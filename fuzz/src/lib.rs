//! The checks the fuzz targets run: each feeds one input through a real pipeline and
//! panics (a crash for libFuzzer) when it panics itself or breaks one of its rules.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::LazyLock;

use arbitrary::{Result as AResult, Unstructured};
use cubicle_core::chat::polling::Mood;
use cubicle_core::engine::plan::{
    self, MAX_TOOL_CALLS, MemoryPlan, OpsPlan, SUMMARY_MAX_CHARS, TaskPlan,
};
use cubicle_core::mind::memory_rules::{IMPORTANCE_MAX, IMPORTANCE_MIN, MAX_SHORT_TERM_TTL_HOURS};
use cubicle_core::mind::minds::MEMORY_MAX_CHARS;
use cubicle_core::mind::relationship_rules::{
    AFFINITY_MAX, AFFINITY_MIN, IMPRESSION_MAX_CHARS, clip_impression,
};
use cubicle_core::mind::thought::Thought;
use cubicle_core::mind::{CHAT_MESSAGE_MAX_CHARS, clean_chat_message};
use cubicle_core::secretary::intent::{IntentKind, Parse, Tier};
use cubicle_core::secretary::normalize::{self, MAX_COUNT};
use cubicle_core::secretary::parse_rules;
use cubicle_core::secretary::rules::{MAX_RULE_INPUT_CHARS, UNKNOWN_CONFIDENCE};
use cubicle_core::types::{Archetype, EmployeeStatus};
use cubicle_core::org::{BackendRef, EmployeeDto};
use cubicle_llm::FinishReason;
use cubicle_llm::structured::{extract, parse_text, validate};
use cubicle_store::entity::employee;
use serde_json::{Map, Value, json};

/// The most intents one message yields (rules.rs MAX_INTENTS).
const MAX_INTENTS: usize = 8;
/// Task texts are cut to this (work.rs TASK_MAX_CHARS).
const TASK_MAX_CHARS: usize = 1000;

pub static THOUGHT_SCHEMA: LazyLock<Value> =
    LazyLock::new(|| schemars::schema_for!(Thought).to_value());
pub static INTENT_SCHEMA: LazyLock<Value> =
    LazyLock::new(|| schemars::schema_for!(Parse).to_value());

/// Bytes as the model's text: valid UTF-8 as is, anything else lossily (what a lossy
/// HTTP body decode would hand over).
pub fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

// ---------------------------------------------------------------- the rule tier

/// The secretary's rule tier and its number readers on any text.
pub fn check_rules(text: &str) {
    let p = parse_rules(text);
    assert_eq!(p.tier, Tier::Rules);
    assert!(
        (1..=MAX_INTENTS).contains(&p.intents.len()),
        "{} intents",
        p.intents.len()
    );
    for i in &p.intents {
        assert!(
            i.confidence.is_finite() && (0.0..=1.0).contains(&i.confidence),
            "confidence {}",
            i.confidence
        );
        if let Some(n) = i.slots.count {
            assert!((1..=MAX_COUNT).contains(&n), "count {n}");
        }
        if let Some(a) = i.slots.amount {
            assert!(a.is_finite() && a >= 0.0, "amount {a}");
        }
    }
    let normalized = normalize::normalize(text);
    if normalized.chars().count() > MAX_RULE_INPUT_CHARS {
        assert_eq!(p.intents.len(), 1);
        assert_eq!(p.intents[0].kind, IntentKind::Unknown);
        assert_eq!(p.intents[0].confidence, UNKNOWN_CONFIDENCE);
    }
    assert_eq!(
        normalize::normalize(&normalized),
        normalized,
        "normalize is not idempotent"
    );
    // The rule tier's answer is the model tier's contract: it fits the same schema and
    // survives the JSON round trip the CLI prints.
    let json = serde_json::to_value(&p).unwrap();
    if let Err(e) = validate(&INTENT_SCHEMA, &json) {
        panic!("rule-tier parse fails the intent schema: {e}\n{json}");
    }
    assert_eq!(serde_json::from_value::<Parse>(json).unwrap(), p);
    assert_eq!(parse_rules(text), p, "not deterministic");

    if let Some(a) = normalize::parse_amount(text) {
        assert!(a.is_finite() && a >= 0.0, "amount {a}");
    }
    for word in normalized.split(|c: char| c.is_whitespace() || c.is_ascii_punctuation()) {
        if let Some(n) = normalize::parse_count(word) {
            assert!((1..=MAX_COUNT).contains(&n), "count {n} from {word:?}");
        }
        let _ = normalize::parse_chinese_number(word);
    }
    let _ = normalize::parse_count(text);
    let _ = normalize::parse_chinese_number(text);
}

// ------------------------------------------------------ the structured pipeline

/// Model text through extract → repair → validate → deserialize against the schemas the
/// app really uses.
pub fn check_structured(text: &str) {
    if let Ok(e) = extract(text) {
        assert!(
            !e.repaired || e.value.is_object() || e.value.is_array(),
            "repair produced a scalar"
        );
    }
    check_against(text, &THOUGHT_SCHEMA, thought_shape);
    check_against(text, &INTENT_SCHEMA, intent_shape);
    // The typed paths agree with the untyped one: a value is never Ok as a type while
    // the same text fails as a value.
    if let Ok((t, _)) = parse_text::<Thought>(text, FinishReason::Stop, &THOUGHT_SCHEMA) {
        let (v, _) = parse_text::<Value>(text, FinishReason::Stop, &THOUGHT_SCHEMA)
            .expect("typed Ok but value Err");
        assert_eq!(serde_json::from_value::<Thought>(v).unwrap(), t);
    }
    if let Ok((p, _)) = parse_text::<Parse>(text, FinishReason::Stop, &INTENT_SCHEMA) {
        for i in &p.intents {
            assert!(IntentKind::ALL.contains(&i.kind));
        }
    }
}

fn check_against(text: &str, schema: &Value, shape: fn(&Value) -> Result<(), String>) {
    let stop = parse_text::<Value>(text, FinishReason::Stop, schema);
    let cut = parse_text::<Value>(text, FinishReason::Length, schema);
    match &stop {
        Ok((v, repaired)) => {
            // Whatever passed really is valid: validate again, and check by hand.
            validate(schema, v).expect("Ok value fails re-validation");
            if let Err(e) = shape(v) {
                panic!("validated value has the wrong shape: {e}\n{v}");
            }
            // A cut-off answer is only taken when it needed no repair.
            match &cut {
                Ok((cv, false)) => assert_eq!(cv, v),
                Ok((_, true)) => panic!("a repaired cut-off answer was accepted"),
                Err(_) => assert!(*repaired, "clean answer refused when cut off"),
            }
        }
        Err(e) => {
            assert!(!e.is_empty(), "an error without a message");
            assert!(cut.is_err(), "cut-off Ok where a finished answer fails");
        }
    }
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("missing {key}"))
}

/// The Thought schema's required keys and their types.
fn thought_shape(v: &Value) -> Result<(), String> {
    v.as_object().ok_or("not an object")?;
    field(v, "innerThoughts")?
        .as_str()
        .ok_or("innerThoughts not a string")?;
    field(v, "shouldSpeak")?
        .as_bool()
        .ok_or("shouldSpeak not a bool")?;
    for m in field(v, "messages")?
        .as_array()
        .ok_or("messages not an array")?
    {
        m.as_object().ok_or("a message is not an object")?;
    }
    Ok(())
}

/// The Parse schema's required keys and their types.
fn intent_shape(v: &Value) -> Result<(), String> {
    let tier = field(v, "tier")?.as_str().ok_or("tier not a string")?;
    if !matches!(tier, "rules" | "model") {
        return Err(format!("tier {tier}"));
    }
    for i in field(v, "intents")?
        .as_array()
        .ok_or("intents not an array")?
    {
        let kind = field(i, "kind")?.as_str().ok_or("kind not a string")?;
        serde_json::from_value::<IntentKind>(Value::from(kind))
            .map_err(|_| format!("kind {kind}"))?;
        field(i, "confidence")?
            .as_f64()
            .ok_or("confidence not a number")?;
        field(i, "slots")?
            .as_object()
            .ok_or("slots not an object")?;
    }
    Ok(())
}

// ---------------------------------------------------------- the thought ops

/// The thinker.
pub const ME: i32 = 1;

fn employee(id: i32, name: &str, fired: bool) -> employee::Model {
    let epoch = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
    employee::Model {
        id,
        company_id: 1,
        name: name.into(),
        title: "Engineer".into(),
        department_id: Some(1),
        team_id: None,
        manager_id: None,
        archetype: Archetype::OldHand,
        speaking_style: String::new(),
        skills: json!([]),
        backend_provider: String::new(),
        backend_model: String::new(),
        tool_whitelist: json!([]),
        avatar: None,
        status: cubicle_core::types::EmployeeStatus::Idle,
        hired_at: epoch,
        fired_at: fired.then_some(epoch),
        approval_policy: None,
        cli_command: None,
        network_access: false,
        imported_cli_command: None,
        persona: None,
        temperature: None,
        max_retries: None,
    }
}

/// A small company: the thinker, colleagues with Latin and Chinese names, one fired.
pub static STAFF: LazyLock<HashMap<i32, employee::Model>> = LazyLock::new(|| {
    [
        employee(ME, "Alice Wang", false),
        employee(2, "Bob", false),
        employee(3, "Carol", true),
        employee(4, "Bo Li", false),
        employee(5, "张伟", false),
    ]
    .into_iter()
    .map(|e| (e.id, e))
    .collect()
});

static ME_DTO: LazyLock<EmployeeDto> = LazyLock::new(|| EmployeeDto {
    id: ME,
    name: "Alice Wang".into(),
    title: "Engineer".into(),
    department_id: Some(1),
    team_id: None,
    manager_id: None,
    archetype: Archetype::OldHand,
    speaking_style: String::new(),
    skills: vec![],
    backend: BackendRef {
        provider: String::new(),
        model: String::new(),
    },
    tool_whitelist: vec![],
    avatar: None,
    status: EmployeeStatus::Idle,
    hired_at: String::new(),
    fired_at: None,
    approval_policy: None,
    cli_command: None,
    persona: None,
    temperature: None,
    max_retries: None,
});

/// Model text as a thought: through the real pipeline, then the planner.
pub fn check_thought_text(text: &str) {
    if let Ok((t, _)) = parse_text::<Thought>(text, FinishReason::Stop, &THOUGHT_SCHEMA) {
        check_thought(&t);
    }
}

/// A parsed thought: what it plans and what its messages become stays within the rules.
pub fn check_thought(t: &Thought) {
    let p = plan::plan(t, ME, &STAFF);
    check_plan(&p);
    assert_eq!(plan::plan(t, ME, &STAFF), p, "not deterministic");
    let others: Vec<&str> = STAFF
        .values()
        .filter(|e| e.id != ME)
        .map(|e| e.name.as_str())
        .chain(["Ada"])
        .collect();
    for m in &t.messages {
        if let Some(c) = clean_chat_message(&m.content, &ME_DTO, &others) {
            assert!(!c.trim().is_empty(), "an empty message is posted");
            assert!(
                c.chars().count() <= CHAT_MESSAGE_MAX_CHARS,
                "message too long"
            );
        }
    }
    for is_dm in [false, true] {
        let mood = Mood::from_answer(t.interest_level, t.topic_saturation, is_dm);
        assert!((1..=10).contains(&mood.interest()));
        assert!(mood.saturation() <= 10);
    }
}

fn check_plan(p: &OpsPlan) {
    check_memories(p);
    check_relationships(p);
    check_tasks(p);
    check_tool_calls(p);
    if let Some(s) = &p.summary {
        assert!(!s.trim().is_empty() && s.chars().count() <= SUMMARY_MAX_CHARS);
    }
}

/// Every memory added is trimmed, non-empty, within its length, importance and TTL.
fn check_memories(p: &OpsPlan) {
    for m in &p.memory {
        if let MemoryPlan::Add {
            content,
            importance,
            ttl_hours,
            ..
        } = m
        {
            assert!(!content.trim().is_empty(), "empty memory");
            assert!(
                !content.starts_with(char::is_whitespace),
                "untrimmed memory"
            );
            assert!(
                content.chars().count() <= MEMORY_MAX_CHARS,
                "memory too long"
            );
            assert!(
                (IMPORTANCE_MIN..=IMPORTANCE_MAX).contains(importance),
                "importance {importance}"
            );
            if let Some(h) = ttl_hours {
                assert!((1..=MAX_SHORT_TERM_TTL_HOURS).contains(h), "ttl {h}");
            }
        }
    }
}

/// Opinions only of current colleagues, never of oneself, clipped and in range.
fn check_relationships(p: &OpsPlan) {
    for r in &p.relationships {
        assert_ne!(r.other, ME, "an opinion of oneself");
        let other = STAFF.get(&r.other).expect("a stranger");
        assert!(other.fired_at.is_none(), "an opinion of someone fired");
        if let Some(i) = &r.impression {
            assert!(!i.is_empty());
            assert!(
                i.chars().count() <= IMPRESSION_MAX_CHARS,
                "impression too long"
            );
            assert_eq!(&clip_impression(i), i, "clip is not idempotent");
        }
        if let Some(a) = r.affinity {
            assert!((AFFINITY_MIN..=AFFINITY_MAX).contains(&a), "affinity {a}");
        }
    }
}

/// Tasks created or finished carry bounded, non-empty text.
fn check_tasks(p: &OpsPlan) {
    for t in &p.tasks {
        match t {
            TaskPlan::Create {
                description,
                condition,
                ..
            } => {
                assert!(!description.trim().is_empty(), "empty task");
                assert!(description.chars().count() <= TASK_MAX_CHARS);
                if let Some(c) = condition {
                    assert!(!c.trim().is_empty() && c.chars().count() <= TASK_MAX_CHARS);
                }
            }
            TaskPlan::Finish { result, .. } => {
                if let Some(r) = result {
                    assert!(r.chars().count() <= TASK_MAX_CHARS);
                }
            }
        }
    }
}

/// Few tool calls, each a bare request: no approval, status or support rides along.
fn check_tool_calls(p: &OpsPlan) {
    assert!(p.tool_calls.len() <= MAX_TOOL_CALLS, "too many tool calls");
    for c in &p.tool_calls {
        assert!(
            !c.tool.is_empty() && c.tool.trim() == c.tool,
            "tool {:?}",
            c.tool
        );
        assert!(c.args.is_object());
        assert!(c.supported_by.is_empty(), "a thought cannot claim support");
        // A request and nothing more: no approval, status or decision rides along.
        let json = serde_json::to_value(c).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for k in keys {
            assert!(
                ["tool", "args", "reason", "supportedBy"].contains(&k),
                "tool call carries {k}"
            );
        }
    }
}

// ------------------------------------------------- a JSON-ish thought generator

const KEYS: &[&str] = &[
    "innerThoughts",
    "topicSaturation",
    "interestLevel",
    "shouldSpeak",
    "reason",
    "messages",
    "memorySummary",
    "memoryOps",
    "relationshipOps",
    "taskOps",
    "toolCalls",
];
const OP_KEYS: &[&str] = &[
    "op",
    "type",
    "content",
    "importance",
    "ttl",
    "id",
    "visibility",
    "employeeId",
    "name",
    "impression",
    "affinity",
    "description",
    "result",
    "condition",
    "reportTo",
    "tool",
    "args",
    "reason",
    "approved",
    "to",
    "status",
];
const WORDS: &[&str] = &[
    "add",
    "delete",
    "long_term",
    "short_term",
    "longTerm",
    "private",
    "team",
    "public",
    "create",
    "resolve",
    "fail",
    "oneshot",
    "long_running",
    "conditional",
    "Bob",
    "bob",
    "Bo",
    "Carol",
    "Alice Wang",
    "Alice",
    "张伟",
    "#general",
    "boss",
    "老板",
    "send_email",
    "run_shell",
    " ",
    "",
    "I'm Bob",
    "我是张伟",
    "Bob: hi",
    "Alice Wang: hi",
    "ȺȺ i'm Eve",
    "approved",
    "true",
    "\u{0}",
    "\u{200B}",
];

/// One thought-like JSON object: the real keys with values of any type, numbers at the
/// edges, strings of names, ops and hostile text.
pub fn thought_value(u: &mut Unstructured<'_>) -> AResult<Value> {
    let mut obj = Map::new();
    for key in KEYS {
        if u.ratio(1, 4)? {
            continue;
        }
        let v = match *key {
            "memoryOps" | "relationshipOps" | "taskOps" | "toolCalls" | "messages" => {
                let n = u.int_in_range(0..=5)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(op_value(u)?);
                }
                Value::Array(items)
            }
            "shouldSpeak" if u.ratio(3, 4)? => Value::Bool(u.arbitrary()?),
            _ => scalar(u, 0)?,
        };
        obj.insert((*key).into(), v);
    }
    Ok(Value::Object(obj))
}

fn op_value(u: &mut Unstructured<'_>) -> AResult<Value> {
    if u.ratio(1, 10)? {
        return scalar(u, 0);
    }
    let mut obj = Map::new();
    let n = u.int_in_range(0..=6)?;
    for _ in 0..n {
        let key = *u.choose(OP_KEYS)?;
        let v = if key == "args" && u.ratio(3, 4)? {
            json!({"to": scalar(u, 1)?, "approved": true})
        } else {
            scalar(u, 1)?
        };
        obj.insert(key.into(), v);
    }
    Ok(Value::Object(obj))
}

fn scalar(u: &mut Unstructured<'_>, depth: u8) -> AResult<Value> {
    Ok(match u.int_in_range(0..=9)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => json!(*u.choose(&[
            0i64,
            1,
            -1,
            10,
            11,
            100,
            101,
            i64::MAX,
            i64::MIN,
            2_147_483_648
        ])?),
        3 => {
            let f: f64 = u.arbitrary()?;
            serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
        }
        4 => json!(*u.choose(&[0.5, 9.5, 10.49, 1e300, -1e300, 5e-324, 99.5, 720.4])?),
        5 | 6 => Value::String((*u.choose(WORDS)?).into()),
        7 => {
            let s: String = u.arbitrary()?;
            let times = u.int_in_range(1..=300)?;
            Value::String(s.repeat(times))
        }
        8 if depth < 3 => Value::Array(vec![scalar(u, depth + 1)?, scalar(u, depth + 1)?]),
        _ => Value::String(u.arbitrary()?),
    })
}

/// How the generated JSON reaches the pipeline: as is, or dressed the way models do.
pub fn dress(u: &mut Unstructured<'_>, json: &str) -> AResult<String> {
    Ok(match u.int_in_range(0..=5)? {
        0 => format!("```json\n{json}\n```"),
        1 => format!("Sure! Here is my answer: {json} Hope that helps."),
        2 => {
            // Cut off mid-way (at a char boundary).
            let at = u.int_in_range(0..=json.len())?;
            let at = (0..=at)
                .rev()
                .find(|i| json.is_char_boundary(*i))
                .unwrap_or(0);
            json[..at].to_owned()
        }
        3 => json.replacen("}", ",}", 1).replacen('"', "'", 2),
        _ => json.to_owned(),
    })
}
