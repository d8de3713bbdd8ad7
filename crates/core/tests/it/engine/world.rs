//! The world of the engine scenarios: a six-person department with its group chat,
//! thinking through a scripted OpenAI-compatible model whose mood the tests switch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::chat::PostMessage;
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::org::{EmployeeDto, SetBudget};
use cubicle_core::providers::SetPrice;
use serde_json::{Value, json};
use wiremock::{MockServer, Request, Respond, ResponseTemplate};

use crate::util::{TestCompany, scripted_company};

/// How the scripted model behaves; tests switch it mid-run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Mood {
    /// Speaks while the topic is fresh; saturation rises with each reply since the
    /// boss's last message, so a conversation dies down on its own.
    Lively,
    /// Everything is saturated (9): only an @mention from the boss gets an answer.
    Tired,
}

#[derive(Default)]
pub(super) struct Script {
    pub(super) mood: Option<Mood>,
    /// Employees whose answers are garbage.
    pub(super) broken: Vec<String>,
    /// (speaker, colleague): the speaker's messages go to a private word with them.
    pub(super) private: Option<(String, String)>,
    /// Employees whose messages speak as someone else ("Bob: …").
    pub(super) impostors: Vec<String>,
    /// (employee, task id): that employee resolves the task in its next thought.
    pub(super) resolves: Option<(String, i64)>,
    pub(super) calls: u64,
    pub(super) by_name: HashMap<String, u64>,
    /// (who thought, what their prompt showed), in the order the calls came.
    pub(super) prompts: Vec<(String, String)>,
}

#[derive(Clone)]
pub(super) struct ScriptedModel(Arc<Mutex<Script>>);

pub(super) fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = text.find(start)? + start.len();
    let j = text[i..].find(end)? + i;
    Some(&text[i..j])
}

/// Varied lines, so the repetition check (similarity ≥ 0.85) lets real variety through.
pub(super) fn say(name: &str, n: u64) -> String {
    const LINES: [&str; 12] = [
        "we should benchmark the API gateway before Friday",
        "the rollback plan for the database migration needs an owner",
        "I can pair with design on the onboarding screens",
        "customers keep asking about offline mode, worth a spike",
        "our flaky integration tests cost us an hour a day",
        "let's cut scope: ship search without filters first",
        "the pricing page copy still says beta",
        "monitoring alerts fire too often at night",
        "a short demo for the boss on Thursday would help",
        "the Android build is two versions behind",
        "we could reuse the payment widget from last quarter",
        "I'd like a written spec before we estimate",
    ];
    let offset = name.bytes().map(u64::from).sum::<u64>();
    let idx = usize::try_from((n + offset) % 12).unwrap_or(0);
    format!("{} ({n})", LINES[idx])
}

impl Respond for ScriptedModel {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let system = body["messages"][0]["content"].as_str().unwrap_or("");
        let user = body["messages"][1]["content"].as_str().unwrap_or("");
        let name = between(system, "You are ", ",").unwrap_or("?").to_owned();
        let other = between(system, "Present: ", " (").unwrap_or("").to_owned();
        let mut s = self.0.lock().unwrap();
        s.calls += 1;
        s.prompts.push((name.clone(), user.to_owned()));
        let n = {
            let c = s.by_name.entry(name.clone()).or_default();
            *c += 1;
            *c
        };
        let to = s
            .private
            .as_ref()
            .filter(|(from, _)| *from == name && !system.contains("private chat"))
            .map(|(_, to)| to.clone());
        let content = if s.broken.contains(&name) {
            "I think we should {not json".to_owned()
        } else {
            let since_boss = user
                .rsplit("(boss):")
                .next()
                .map_or(0, |tail| tail.lines().filter(|l| l.contains("] ")).count());
            let saturation = match s.mood.unwrap_or(Mood::Lively) {
                Mood::Lively => (2 + since_boss / 2).min(10),
                Mood::Tired => 9,
            };
            json!({
                "innerThoughts": format!("{name} weighs thought {n}"),
                "interestLevel": 8,
                "topicSaturation": saturation,
                "shouldSpeak": true,
                "reason": "I have something to add",
                "messages": [{"content": if s.impostors.contains(&name) { format!("{other}: {}", say(&name, n)) } else { say(&name, n) }, "to": to}],
                "memorySummary": format!("The team discussed the plan ({n})"),
                "memoryOps": [{"op": "add", "type": "short_term", "content": format!("remember: {}", say(&name, n * 7 + 3)), "importance": 4}],
                "relationshipOps": [{"name": other, "impression": format!("{other} keeps the plan moving"), "affinity": 95}],
                "taskOps": match &s.resolves {
                    Some((who, id)) if *who == name => json!([{"op": "resolve", "id": id, "result": "REST for now, GraphQL later"}]),
                    _ => json!([]),
                }
            })
            .to_string()
        };
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "t", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 120}
        }))
    }
}

pub(super) struct World {
    pub(super) provider_id: String,
    pub(super) co: TestCompany,
    pub(super) clock: ManualClock,
    pub(super) engine: Engine,
    pub(super) script: Arc<Mutex<Script>>,
    pub(super) _model: MockServer,
    pub(super) people: Vec<EmployeeDto>,
    pub(super) dept_chat: i32,
}

pub(super) fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A six-person department with its group chat, thinking through the scripted model.
pub(super) async fn world() -> World {
    world_with(EngineConfig {
        seed: Some(7),
        ..EngineConfig::default()
    })
    .await
}

/// The same world, its engine configured by `config`.
pub(super) async fn world_with(config: EngineConfig) -> World {
    let script = Arc::new(Mutex::new(Script::default()));
    let (co, clock, model, provider_id) =
        scripted_company(start(), ScriptedModel(script.clone())).await;
    let eng = co.dept("Engineering", None).await;
    let mut people = Vec::new();
    for (name, title) in [
        ("Alice", "Backend Engineer"),
        ("Bob", "QA Engineer"),
        ("Carol", "Frontend Engineer"),
        ("Dave", "DevOps Engineer"),
        ("Erin", "Product Manager"),
        ("Frank", "UI/UX Designer"),
    ] {
        people.push(co.hire(name, title, Some(eng.id)).await);
    }
    let chat = co
        .core
        .chats
        .department_chat(eng.id, "Engineering")
        .await
        .unwrap();
    for p in &people {
        co.core.chats.join(chat.id, p.id).await.unwrap();
    }
    let engine = Engine::new(&co.core, config);
    World {
        provider_id,
        co,
        clock,
        engine,
        script,
        _model: model,
        people,
        dept_chat: chat.id,
    }
}

impl World {
    /// Prices the scripted model so a thought or two spends `daily_budget_usd`.
    pub(super) async fn expensive(&self, daily_budget_usd: f64) {
        self.co
            .core
            .providers
            .set_price(SetPrice {
                provider_id: self.provider_id.clone(),
                model: "m".into(),
                input_per_mtok: 1_000.0,
                output_per_mtok: 1_000.0,
            })
            .await
            .unwrap();
        self.co
            .core
            .org
            .set_budget(SetBudget { daily_budget_usd })
            .await
            .unwrap();
    }

    pub(super) async fn boss_says(&self, chat_id: i32, text: &str) -> i32 {
        self.co
            .core
            .chats
            .post_as_boss(PostMessage {
                chat_id,
                text: text.into(),
            })
            .await
            .unwrap()
            .id
    }

    pub(super) async fn run_for(&self, d: TimeDelta) {
        let until = self.clock.now() + d;
        self.engine.run_simulated(&self.clock, until).await;
    }

    pub(super) fn id(&self, name: &str) -> i32 {
        self.people.iter().find(|p| p.name == name).unwrap().id
    }
}
