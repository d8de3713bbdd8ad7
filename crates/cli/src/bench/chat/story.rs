//! `cubicle-cli bench story`: seed 001's job — a product-launch plan by six people (a
//! lead, engineering, QA, design, marketing, compliance) — on a temp company, against a
//! cooperative scripted model that answers from the real prompt: who is thinking, which
//! tasks their prompt lists, whether it asks for a report. Nothing in the script knows
//! the order of the story; the engine carries it (the requirement starts itself, its
//! lead plans, each does their part, the reviewer passes it, the boss gets the report).
//!
//! What it reports is what arrived at the server: calls, and the tokens the model read
//! (OpenAI's dialect, counted by o200k, schema included), the simulated minutes from the
//! boss's word to the done report in the mailbox, and messages per person — beside what
//! seed 001 published for the same job done by its proxies (240 model calls, about
//! 210,000 tokens, 47 minutes).

use std::collections::BTreeMap;
use std::sync::Arc;

use anyhow::{Context as _, Result, bail};
use chrono::TimeDelta;
use cubicle_core::clock::Clock as _;
use cubicle_core::mailbox::{MailFilter, MailKind};
use cubicle_core::org::{NewDepartment, SetDepartmentLead};
use cubicle_core::types::Archetype;
use serde_json::{Value, json};

use super::script::{Script, between, prompt_parts};
use super::{BUSY_MODEL, BUSY_PRESET, BUSY_TOKENIZER, World, sent, world_answering};
use crate::bench::goals;

/// What seed 001 published for the launch plan done by six people's proxies.
const SEED_001_CALLS: f64 = 240.0;
const SEED_001_TOKENS: f64 = 210_000.0;
const SEED_001_MINUTES: f64 = 47.0;
/// How long the story may take before it counts as not finished (simulated).
const STORY_LIMIT_MINUTES: i64 = 180;
const REQUIREMENT: &str = "plan the launch of the gripper v2";

/// The six: name, title, archetype, and the part the lead gives them (none for the lead).
const TEAM: [(&str, &str, Archetype, Option<&str>); 6] = [
    ("Lena", "Product Lead", Archetype::OldHand, None),
    (
        "Bob",
        "Backend Engineer",
        Archetype::UltraGrinder,
        Some("Freeze the v2 firmware and write its release checklist"),
    ),
    (
        "Dan",
        "QA Engineer",
        Archetype::AnxiousPerfectionist,
        Some("Write the launch test plan for the v2 gripper"),
    ),
    (
        "Carol",
        "UI/UX Designer",
        Archetype::Idealist,
        Some("Design the v2 launch page and product shots"),
    ),
    (
        "Mia",
        "Marketing Manager",
        Archetype::WarmHearted,
        Some("Draft the launch announcement and the campaign calendar"),
    ),
    (
        "Sam",
        "Compliance Officer",
        Archetype::Philosopher,
        Some("Check the launch claims against the CE safety file"),
    ),
];

/// The outcome each one writes when they resolve their part.
fn outcome(name: &str) -> &'static str {
    match name {
        "Bob" => "Firmware 2.0.3 frozen; release checklist of 12 steps in the wiki",
        "Dan" => "Test plan: 40 cases, 6 on the new calibration timeout, run on 3 rigs",
        "Carol" => "Launch page wireframe and 5 product shots ready",
        // An announcement is a document: the part is the text itself, not word that it
        // exists (a one-line "drafted" is flagged for review, as it should be).
        "Mia" => {
            "Announcement: \"Meet the v2 gripper: it calibrates itself in seconds and is certified safe around people. On sale from launch day.\" Campaign over 3 weeks from launch day"
        }
        "Sam" => "Claims checked: 'safe around people' reworded to the certified wording",
        _ => "done",
    }
}

/// What one thought's prompt shows the script.
struct Seen {
    name: String,
    /// Pending tasks: id and description.
    tasks: Vec<(i64, String)>,
    reporting: bool,
}

impl Seen {
    fn read(body: &Value) -> Self {
        let (system, user) = prompt_parts(body);
        let tasks = user
            .lines()
            .filter_map(|l| {
                // "1. [normal, 3 min] #12 Write the launch test plan"
                let rest = l.split_once(" min] #")?.1;
                let (id, desc) = rest.split_once(' ')?;
                Some((id.parse().ok()?, desc.to_owned()))
            })
            .collect();
        Self {
            name: between(system, "You are ", ",").unwrap_or("?").to_owned(),
            tasks,
            reporting: user.contains("Write the report yourself"),
        }
    }

    fn task(&self, containing: &str) -> Option<i64> {
        self.tasks
            .iter()
            .find(|(_, d)| d.to_lowercase().contains(&containing.to_lowercase()))
            .map(|(id, _)| *id)
    }

    /// A task of theirs that is not a review.
    fn own_task(&self) -> Option<i64> {
        self.tasks
            .iter()
            .find(|(_, d)| !d.to_lowercase().starts_with("review"))
            .map(|(id, _)| *id)
    }
}

fn speak(inner: &str, line: &str, task_ops: Value) -> Value {
    json!({
        "innerThoughts": inner,
        "shouldSpeak": true,
        "reason": "I have something to add",
        "messages": [{"content": line}],
        "topicSaturation": 3,
        "interestLevel": 8,
        "taskOps": task_ops
    })
}

fn silent() -> Value {
    json!({
        "innerThoughts": "nothing for me to add",
        "shouldSpeak": false,
        "reason": "nothing new",
        "messages": [],
        "topicSaturation": 6,
        "interestLevel": 3
    })
}

/// People, not a workflow: the lead plans what she is asked to plan, each does the part
/// they hold, the reviewer passes what she is given, whoever reports says so.
fn play(s: &Seen) -> Value {
    if s.reporting {
        return speak(
            "Tell them.",
            &format!(
                "{}: my part of the launch plan is done and reviewed.",
                s.name
            ),
            json!([]),
        );
    }
    if s.name == "Lena" {
        let Some(plan) = s.task("Plan the requirement") else {
            return silent();
        };
        let mut ops: Vec<Value> = TEAM
            .iter()
            .filter_map(|(name, _, _, part)| {
                part.map(|p| json!({"op": "create", "description": p, "assignee": name}))
            })
            .collect();
        ops.push(json!({"op": "resolve", "id": plan, "result": "Five parts given out: firmware, tests, design, marketing, compliance"}));
        return speak(
            "Five parts, one each.",
            "Plan for the launch: Bob freezes the firmware, Dan writes the test plan, Carol the launch page, Mia the announcement, Sam checks the claims.",
            Value::Array(ops),
        );
    }
    if let Some((review, what)) = s.tasks.iter().find(|(_, d)| d.starts_with("Review")) {
        return speak(
            "Looks right.",
            &format!("Reviewed \"{what}\": it passes."),
            json!([{"op": "resolve", "id": review, "result": "pass"}]),
        );
    }
    match s.own_task() {
        Some(id) => speak(
            "Done.",
            &format!("{}: my part is ready for review.", s.name),
            json!([{"op": "resolve", "id": id, "result": outcome(&s.name)}]),
        ),
        None => silent(),
    }
}

/// The story's figures.
struct Figures {
    finished: bool,
    /// The done report as the boss reads it.
    report: Option<String>,
    calls: u64,
    sent_tokens: u64,
    minutes_to_report: f64,
    messages_per_person: BTreeMap<String, usize>,
}

impl Figures {
    fn measured(&self) -> [(&'static str, f64); 4] {
        [
            ("finished", if self.finished { 1.0 } else { 0.0 }),
            (
                "seed_001_calls_ratio",
                SEED_001_CALLS / (self.calls.max(1) as f64),
            ),
            (
                "seed_001_tokens_ratio",
                SEED_001_TOKENS / (self.sent_tokens.max(1) as f64),
            ),
            ("minutes_to_report", self.minutes_to_report),
        ]
    }

    fn json(&self, missed: &[String]) -> Value {
        let m = self.measured();
        json!({
            "finished": self.finished,
            "calls": self.calls,
            "sent_tokens": self.sent_tokens,
            "tokenizer": BUSY_TOKENIZER,
            "minutes_to_report": self.minutes_to_report,
            "messages_per_person": self.messages_per_person,
            "report": self.report,
            "seed_001": {"calls": SEED_001_CALLS, "tokens": SEED_001_TOKENS, "minutes": SEED_001_MINUTES},
            "seed_001_calls_ratio": m[1].1,
            "seed_001_tokens_ratio": m[2].1,
            "missed": missed,
        })
    }

    fn print(&self, missed: &[String]) {
        let m = self.measured();
        println!(
            "bench story — a product-launch plan by six people, cooperative scripted model (OpenAI dialect, {BUSY_TOKENIZER})"
        );
        println!(
            "  finished            {}",
            if self.finished { "yes" } else { "no" }
        );
        println!(
            "  model calls         {:>8}   seed 001: {SEED_001_CALLS:>8.0}   ({:.1}× fewer)",
            self.calls, m[1].1
        );
        println!(
            "  tokens sent         {:>8}   seed 001: {SEED_001_TOKENS:>8.0}   ({:.1}× fewer)",
            self.sent_tokens, m[2].1
        );
        println!(
            "  minutes to report   {:>8.1}   seed 001: {SEED_001_MINUTES:>8.0}   (simulated; seed 001's were wall-clock with a real model)",
            self.minutes_to_report
        );
        if let Some(r) = &self.report {
            println!(
                "  the boss's mailbox  {}",
                r.replace('\n', "\n                      ")
            );
        }
        let per: Vec<String> = self
            .messages_per_person
            .iter()
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        println!("  messages per person {}", per.join(", "));
        if missed.is_empty() {
            println!("  goals: all met");
        } else {
            println!("  goals missed: {}", missed.join("; "));
        }
    }
}

/// Runs the story and prints its figures; with `check`, fails when a goal is missed.
pub async fn run(json_out: bool, check: bool, overrides: &[(String, f64)]) -> Result<()> {
    let f = story().await?;
    let missed = goals::missed(goals::STORY, &f.measured(), overrides);
    if json_out {
        println!("{}", f.json(&missed));
    } else {
        f.print(&missed);
    }
    if check && !missed.is_empty() {
        bail!("bench story missed its goals: {}", missed.join("; "));
    }
    Ok(())
}

async fn story() -> Result<Figures> {
    let script = Script::new(sent::tokenizer(BUSY_TOKENIZER)?);
    let counting = script.clone();
    let answer = Arc::new(move |raw: &[u8]| {
        let body: Value = serde_json::from_slice(raw).unwrap_or(Value::Null);
        counting.count(raw, &body);
        play(&Seen::read(&body)).to_string()
    });
    let w = world_answering((BUSY_PRESET, BUSY_MODEL), script.clone(), answer).await?;
    launch_department(&w).await?;
    let engine = w.engine(super::race::Contender::Ours);
    let opened = w.clock.now();
    let turn = w
        .core
        .secretary
        .say(
            &format!("start a requirement to {REQUIREMENT} in Launch, reviewed by Dan"),
            true,
        )
        .await?;
    if turn.reply.actions.is_empty() {
        bail!(
            "the secretary did not open the requirement: {}",
            turn.reply.text
        );
    }
    let mut finished = None;
    for _ in 0..STORY_LIMIT_MINUTES {
        let until = w.clock.now() + TimeDelta::minutes(1);
        engine.run_simulated(&w.clock, until).await;
        if let Some(report) = done_mail(&w).await? {
            finished = Some((w.clock.now(), report));
            break;
        }
    }
    let wire = script.wire();
    Ok(Figures {
        finished: finished.is_some(),
        report: finished.as_ref().map(|(_, r)| r.clone()),
        calls: wire.requests,
        sent_tokens: wire.tokens,
        minutes_to_report: finished.map_or(STORY_LIMIT_MINUTES as f64, |(t, _)| {
            (t - opened).num_seconds() as f64 / 60.0
        }),
        messages_per_person: messages_per_person(&w).await?,
    })
}

/// Launch: the six, with Lena its lead.
async fn launch_department(w: &World) -> Result<()> {
    let dept = w
        .core
        .org
        .create_department(NewDepartment {
            name: "Launch".into(),
            parent_id: None,
            mission: Some("Bring the gripper v2 to market".into()),
        })
        .await?;
    let mut lead = None;
    for (name, title, archetype, _) in TEAM {
        let e = w.hire(name, title, dept.id, archetype).await?;
        lead.get_or_insert(e.id);
    }
    w.core
        .org
        .set_department_lead(SetDepartmentLead {
            department_id: dept.id,
            employee_id: Some(lead.context("a lead")?),
        })
        .await?;
    Ok(())
}

/// The requirement's done report in the boss's mailbox, when it is there.
async fn done_mail(w: &World) -> Result<Option<String>> {
    let mail = w
        .core
        .mailbox
        .list(MailFilter {
            kind: Some(MailKind::Report),
            ..Default::default()
        })
        .await?;
    Ok(mail
        .items
        .into_iter()
        .find(|m| m.title.starts_with("Requirement done"))
        .map(|m| format!("{}\n{}", m.title, m.body)))
}

async fn messages_per_person(w: &World) -> Result<BTreeMap<String, usize>> {
    let staff = w.core.org.all_employees().await?;
    let mut out: BTreeMap<String, usize> = staff.iter().map(|e| (e.name.clone(), 0)).collect();
    for chat in w.core.chats.list().await? {
        for m in w.core.chats.messages(chat.id).await? {
            let name = m
                .sender_employee_id
                .and_then(|id| staff.iter().find(|e| e.id == id));
            if let Some(e) = name {
                *out.entry(e.name.clone()).or_default() += 1;
            }
        }
    }
    Ok(out)
}
