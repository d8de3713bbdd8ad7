//! Hostile model output (tests/corpus/hostile, also the fuzzers' seed corpus) through
//! every pipeline that reads it: the secretary's rule tier, the structured-output
//! pipeline against the thought and intent schemas, and the thought-ops planner. Each
//! file must not panic and must land in the class `expected.tsv` gives it: `valid`,
//! `repaired` (valid after repair) or `error` (a clear error: nothing is applied).

use std::collections::HashMap;
use std::path::PathBuf;

use cubicle_core::engine::plan::{self, MAX_TOOL_CALLS, MemoryPlan, OpsPlan, TaskPlan};
use cubicle_core::mind::clean_chat_message;
use cubicle_core::mind::thought::Thought;
use cubicle_core::org::{BackendRef, EmployeeDto};
use cubicle_core::secretary::{IntentKind, Parse, parse_rules};
use cubicle_core::types::*;
use cubicle_llm::FinishReason;
use cubicle_llm::structured::{parse_text, validate};
use cubicle_store::entity::employee;
use serde::de::DeserializeOwned;
use serde_json::Value;

const ME: i32 = 1;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/hostile")
}

fn staff() -> HashMap<i32, employee::Model> {
    let epoch = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
    let person = |id: i32, name: &str, fired: bool| employee::Model {
        id,
        company_id: 1,
        name: name.into(),
        title: "Engineer".into(),
        department_id: Some(1),
        team_id: None,
        manager_id: None,
        archetype: cubicle_core::types::Archetype::OldHand,
        speaking_style: String::new(),
        skills: serde_json::json!([]),
        backend_provider: String::new(),
        backend_model: String::new(),
        tool_whitelist: serde_json::json!([]),
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
    };
    [
        person(ME, "Alice Wang", false),
        person(2, "Bob", false),
        person(3, "Carol", true),
        person(4, "Bo Li", false),
        person(5, "张伟", false),
    ]
    .into_iter()
    .map(|e| (e.id, e))
    .collect()
}

fn me_dto() -> EmployeeDto {
    EmployeeDto {
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
    }
}

/// The outcome class of one text against one schema, checking the pipeline's promises
/// on the way: an Ok value re-validates, and a cut-off answer is never taken repaired.
fn class_of<T: DeserializeOwned>(text: &str, schema: &Value) -> (&'static str, Option<T>) {
    let as_value = parse_text::<Value>(text, FinishReason::Stop, schema);
    if let Ok((v, _)) = &as_value {
        assert!(validate(schema, v).is_ok(), "an Ok value fails validation");
    }
    let cut = parse_text::<Value>(text, FinishReason::Length, schema);
    match (&as_value, &cut) {
        (Ok((_, true)), Ok(_)) => panic!("a repaired cut-off answer was accepted"),
        (Err(_), Ok(_)) => panic!("a cut-off answer passed where the whole one fails"),
        _ => {}
    }
    match parse_text::<T>(text, FinishReason::Stop, schema) {
        Ok((t, false)) => ("valid", Some(t)),
        Ok((t, true)) => ("repaired", Some(t)),
        Err(e) => {
            assert!(!e.is_empty(), "an error says what is wrong");
            ("error", None)
        }
    }
}

fn check_plan(p: &OpsPlan, staff: &HashMap<i32, employee::Model>) {
    for m in &p.memory {
        if let MemoryPlan::Add {
            content,
            importance,
            ttl_hours,
            ..
        } = m
        {
            assert!(!content.trim().is_empty() && content.chars().count() <= 500);
            assert!((1..=10).contains(importance), "importance {importance}");
            assert!(
                ttl_hours.is_none_or(|h| (1..=720).contains(&h)),
                "{ttl_hours:?}"
            );
        }
    }
    for r in &p.relationships {
        assert_ne!(r.other, ME);
        assert!(staff[&r.other].fired_at.is_none());
        assert!(r.affinity.is_none_or(|a| (1..=100).contains(&a)));
        assert!(
            r.impression
                .as_ref()
                .is_none_or(|i| i.chars().count() <= 200)
        );
    }
    for t in &p.tasks {
        if let TaskPlan::Create { description, .. } = t {
            assert!(!description.trim().is_empty() && description.chars().count() <= 1000);
        }
    }
    assert!(p.tool_calls.len() <= MAX_TOOL_CALLS);
    assert!(p.tool_calls.iter().all(|c| c.supported_by.is_empty()));
}

/// `expected.tsv`: each file's expected class against the thought and intent schemas.
fn expected_classes(manifest: &str) -> HashMap<&str, (&str, &str)> {
    manifest
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "expected.tsv line {l:?}");
            (cols[0], (cols[1], cols[2]))
        })
        .collect()
}

/// What every corpus file is read against: both schemas, the staff, and Alice with the
/// names she must never speak as.
struct Readers {
    thought_schema: Value,
    intent_schema: Value,
    staff: HashMap<i32, employee::Model>,
    me: EmployeeDto,
    others: Vec<&'static str>,
}

impl Readers {
    fn new() -> Self {
        Self {
            thought_schema: schemars::schema_for!(Thought).to_value(),
            intent_schema: schemars::schema_for!(Parse).to_value(),
            staff: staff(),
            me: me_dto(),
            others: ["Bob", "Carol", "Bo Li", "张伟", "Ada"].to_vec(),
        }
    }
}

/// One corpus file through every pipeline: the rule tier gives 1–8 intents with sane
/// confidences; the structured pipeline classes it against both schemas; an intent
/// read has only known kinds; a thought read plans within the rules and its cleaned
/// messages are within bounds. The two classes and the thought's plan, if any.
fn through_every_pipeline(
    r: &Readers,
    name: &str,
    text: &str,
) -> (&'static str, &'static str, Option<(OpsPlan, Thought)>) {
    let rules = parse_rules(text);
    assert!((1..=8).contains(&rules.intents.len()), "{name}");
    assert!(
        rules
            .intents
            .iter()
            .all(|i| (0.0..=1.0).contains(&i.confidence))
    );

    let (thought_class, thought) = class_of::<Thought>(text, &r.thought_schema);
    let (intent_class, intent) = class_of::<Parse>(text, &r.intent_schema);
    if let Some(p) = intent {
        assert!(p.intents.iter().all(|i| IntentKind::ALL.contains(&i.kind)));
    }
    let planned = thought.map(|t| {
        let p = plan::plan(&t, ME, &r.staff);
        check_plan(&p, &r.staff);
        for m in &t.messages {
            if let Some(c) = clean_chat_message(&m.content, &r.me, &r.others) {
                assert!(!c.trim().is_empty() && c.chars().count() <= 1000, "{name}");
            }
        }
        (p, t)
    });
    (thought_class, intent_class, planned)
}

/// What the rules make of the worst requests and impostors: a self-approved request is
/// still only a request, and messages speaking as someone else are dropped.
fn requests_and_impostors_are_held(plans: &HashMap<String, (OpsPlan, Thought)>, r: &Readers) {
    let (p, _) = &plans["approved-true.json"];
    assert_eq!(p.tool_calls.len(), 1, "still only a request");
    assert_eq!(p.tool_calls[0].tool, "send_email");
    assert!(
        p.tool_calls[0].supported_by.is_empty(),
        "no support it claimed"
    );
    assert_eq!(p.tool_calls[0].args["to"], "ceo@rival.example");

    let (_, t) = &plans["prompt-injection.json"];
    assert!(
        t.messages
            .iter()
            .all(|m| clean_chat_message(&m.content, &r.me, &r.others).is_none()),
        "messages speaking as Bob or 张伟 are dropped"
    );
    let (_, t) = &plans["identity-unicode-case.json"];
    assert!(
        t.messages
            .iter()
            .all(|m| clean_chat_message(&m.content, &r.me, &r.others).is_none()),
        "\"i'm Eve\" after case-changing letters is still someone else"
    );
}

/// What the rules make of out-of-range numbers, forbidden relationships and too many
/// or blank tool calls and task ops: clamped, dropped or cut to the limit.
fn scores_relationships_and_calls_are_bounded(plans: &HashMap<String, (OpsPlan, Thought)>) {
    let (p, _) = &plans["out-of-range-scores.json"];
    let adds: Vec<(i32, Option<i64>, &str)> = p
        .memory
        .iter()
        .filter_map(|m| match m {
            MemoryPlan::Add {
                importance,
                ttl_hours,
                content,
                ..
            } => Some((*importance, *ttl_hours, content.as_str())),
            MemoryPlan::Delete { .. } => None,
        })
        .collect();
    assert_eq!(
        adds,
        [(10, None, "likes tea"), (1, Some(1), "meeting at 3")],
        "clamped, trimmed, blank dropped"
    );
    assert!(
        !p.memory
            .iter()
            .any(|m| matches!(m, MemoryPlan::Delete { .. })),
        "an id past i32 deletes nothing"
    );
    let affinities: Vec<Option<i32>> = p.relationships.iter().map(|r| r.affinity).collect();
    assert_eq!(affinities, [Some(100), Some(1)]);

    let (p, _) = &plans["self-and-fired-relationships.json"];
    assert!(p.relationships.is_empty(), "{:?}", p.relationships);
    let (p, _) = &plans["too-many-toolcalls.json"];
    assert_eq!(p.tool_calls.len(), MAX_TOOL_CALLS);
    let (p, _) = &plans["blank-tool-names.json"];
    assert_eq!(p.tool_calls.len(), 1);
    assert_eq!(p.tool_calls[0].tool, "web_search");
    let (p, _) = &plans["task-ops-edge.json"];
    assert_eq!(p.tasks.len(), 2, "{:?}", p.tasks);
}

#[test]
fn hostile_model_output_is_repaired_or_refused_never_half_applied() {
    let dir = corpus_dir();
    let manifest = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let expected = expected_classes(&manifest);
    let readers = Readers::new();

    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expected.tsv")
        .collect();
    files.sort();
    assert!(files.len() >= 30, "the corpus has {} files", files.len());
    let mut wrong = Vec::new();
    let mut plans: HashMap<String, (OpsPlan, Thought)> = HashMap::new();
    for name in &files {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let (thought_class, intent_class, planned) = through_every_pipeline(&readers, name, &text);
        if let Some(planned) = planned {
            plans.insert(name.clone(), planned);
        }
        match expected.get(name.as_str()) {
            Some(&(t, i)) if t == thought_class && i == intent_class => {}
            Some(&(t, i)) => wrong.push(format!(
                "{name}: expected thought {t} / intent {i}, got {thought_class} / {intent_class}"
            )),
            None => wrong.push(format!(
                "{name}: not in expected.tsv (got {name}\t{thought_class}\t{intent_class})"
            )),
        }
    }
    for name in expected.keys() {
        if !files.iter().any(|f| f == name) {
            wrong.push(format!("{name}: listed in expected.tsv but missing"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));

    // What the rules make of the worst of them.
    requests_and_impostors_are_held(&plans, &readers);
    scores_relationships_and_calls_are_bounded(&plans);
}
