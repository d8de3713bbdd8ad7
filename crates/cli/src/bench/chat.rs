//! `cubicle-cli bench chat`: the conversation engine on a temp SQLite company, thinking
//! through a zero-latency scripted model on a manual clock, measured side by side in one
//! run:
//!
//! 1. engine overhead per thought (the whole thought minus its model call), p50 / p99;
//! 2. thoughts per second of wall-clock time in a busy company (many employees, many
//!    chats; `run_simulated` handles the wake-ups one after another);
//! 3. prompt size per thought against a naive prompt that sends the whole chat history,
//!    every memory and every relationship, priced for the very same thoughts;
//! 4. model calls per employee-hour in a quiet company against a 10-s polling loop that
//!    thinks at every poll;
//! 5. the prompt of one group-chat thought in a six-person department with a full
//!    context, against IdeaCo's (~23,000 characters, ~6,000 tokens);
//! 6. that thought as it goes over the wire in each dialect (OpenAI native schema,
//!    DeepSeek's JSON mode, Anthropic's forced tool, the built-in model), counted with
//!    each model's own tokenizer.
//!
//! The scripted model answers from the request alone, like the one in the engine tests:
//! the speaker from "You are NAME," in the system prompt, varied lines (so the repetition
//! filter lets them through), and a saturation that rises with every message since the
//! boss last spoke, so conversations die down on their own.

use cubicle_core::work::TaskOrigin;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::chat::{PostMessage, SenderKind};
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::engine::{Engine, EngineConfig, EngineStats, ThoughtTiming};
use cubicle_core::gateway::Purpose;
use cubicle_core::mind::memory_rules::{MemoryKind, Visibility};
use cubicle_core::mind::minds::NewMemory;
use cubicle_core::mind::thought::{PROMPT_TOKEN_BUDGET, approx_tokens};
use cubicle_core::org::{EmployeeDto, NewDepartment, NewEmployee, SetBudget, SetupCompany};
use cubicle_core::providers::{SaveProvider, SetRoute};
use cubicle_core::types::{Archetype, Language};
use serde_json::json;

use super::{percentile, scripted_server};

mod script;
mod sent;

use script::{Asked, Script};

/// IdeaCo's group-chat prompt for a department of this kind: about 23,000 characters,
/// ~6,000 tokens per thought, as IdeaCo's own prompt builder assembles it.
const IDEACO_DEPT_PROMPT_TOKENS: f64 = 6000.0;
/// A polling loop that thinks at every 10-s poll: 3600 s / 10 s, by definition.
const POLLING_CALLS_PER_EMPLOYEE_HOUR: f64 = 360.0;
/// Seeds the engine's delays, jitter and perspective seeds: one run repeats exactly.
const SEED: u64 = 42;
const BOSS: &str = "Ada";
/// What the token figures count.
const TOKEN_UNIT: &str = "estimated tokens (chars÷4, CJK 1/char)";

/// How big the busy company is and how long each phase runs (simulated time).
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub departments: usize,
    pub dept_size: usize,
    pub busy_minutes: u32,
    pub quiet_hours: f64,
}

impl Sizes {
    /// Each size within what one run can simulate in reasonable time.
    fn clamped(self) -> Self {
        Self {
            departments: self.departments.clamp(1, 20),
            dept_size: self.dept_size.clamp(2, 40),
            busy_minutes: self.busy_minutes.clamp(1, 24 * 60),
            quiet_hours: if self.quiet_hours.is_finite() {
                self.quiet_hours.clamp(1.0 / 6.0, 24.0)
            } else {
                2.0
            },
        }
    }
}

pub async fn run(sizes: Sizes, json_out: bool) -> Result<()> {
    let sizes = sizes.clamped();
    let started = Instant::now();
    let big = busy_and_quiet(sizes).await?;
    let (dept, sent) = department_in_each_dialect().await?;
    let elapsed = started.elapsed();
    let f = Figures::new(&big, &dept, sizes);
    if json_out {
        print_json(&f, &sent);
        return Ok(());
    }
    print_company(sizes, &big);
    print_engine(&f, &big);
    print_prompts(&f, &big, sizes);
    print_department(&f, &dept, &sent);
    println!();
    println!("whole bench: {:.1} s", elapsed.as_secs_f64());
    Ok(())
}

/// The same department thought in each dialect, captured at the server: the first
/// dialect's run, and what each sent.
async fn department_in_each_dialect() -> Result<(DeptThought, Vec<sent::Measured>)> {
    let mut sent_by_dialect = Vec::new();
    let mut dept = None;
    for dialect in sent::ContractForm::ALL {
        let run = department_thought(dialect.preset(), dialect.model()).await?;
        sent_by_dialect.push((dialect, run.bodies.clone()));
        dept.get_or_insert(run);
    }
    let dept = dept.context("at least one dialect")?;
    Ok((dept, sent::measure(&sent_by_dialect)?))
}

/// The headline figures, computed once for either output.
struct Figures {
    /// Engine overhead per thought, sorted.
    overhead: Vec<Duration>,
    o50: Duration,
    o99: Duration,
    model_mean: f64,
    thoughts_per_s: f64,
    ours: f64,
    naive: f64,
    prompt_ratio: f64,
    calls_per_eh: f64,
    idle_ratio: f64,
    dept_tokens: f64,
    dept_naive: f64,
    dept_ratio: f64,
}

impl Figures {
    fn new(big: &Big, dept: &DeptThought, sizes: Sizes) -> Self {
        let mut overhead: Vec<Duration> = big
            .timings
            .iter()
            .map(|t| t.total.saturating_sub(t.model))
            .collect();
        overhead.sort();
        let (o50, o99) = (percentile(&overhead, 0.5), percentile(&overhead, 0.99));
        let ours = mean(big.priced.iter().map(|(o, _)| *o as f64));
        let naive = mean(big.priced.iter().map(|(_, n)| *n as f64));
        let employee_hours = big.employees as f64 * sizes.quiet_hours;
        let calls_per_eh = big.quiet.model_calls as f64 / employee_hours;
        let dept_tokens = mean(dept.prompt_tokens.iter().map(|t| *t as f64));
        Self {
            overhead,
            o50,
            o99,
            model_mean: mean(big.timings.iter().map(|t| t.model.as_secs_f64() * 1e6)),
            thoughts_per_s: big.busy.thoughts as f64 / big.busy_wall.as_secs_f64().max(1e-9),
            ours,
            naive,
            prompt_ratio: naive / ours.max(1e-9),
            calls_per_eh,
            idle_ratio: POLLING_CALLS_PER_EMPLOYEE_HOUR / calls_per_eh.max(1e-9),
            dept_tokens,
            dept_naive: mean(dept.naive.iter().map(|t| *t as f64)),
            dept_ratio: IDEACO_DEPT_PROMPT_TOKENS / dept_tokens.max(1e-9),
        }
    }
}

fn print_json(f: &Figures, sent: &[sent::Measured]) {
    let sent_tokens: serde_json::Map<String, serde_json::Value> = sent
        .iter()
        .map(|m| (m.dialect.key().to_owned(), json!(round(m.tokens, 1))))
        .collect();
    let sent_tokenizers: serde_json::Map<String, serde_json::Value> = sent
        .iter()
        .map(|m| (m.dialect.key().to_owned(), json!(m.tokenizer)))
        .collect();
    println!(
        "{}",
        json!({
            "overhead_us_p50": f.o50.as_micros() as u64,
            "overhead_us_p99": f.o99.as_micros() as u64,
            "thoughts_per_s": round(f.thoughts_per_s, 1),
            "prompt_tokens_per_thought": round(f.ours, 1),
            "prompt_tokens_ratio": round(f.prompt_ratio, 2),
            "idle_calls_ratio": round(f.idle_ratio, 2),
            "dept_thought_prompt_tokens": round(f.dept_tokens, 1),
            "sent_prompt_tokens_per_thought": sent_tokens,
            "sent_prompt_tokenizer": sent_tokenizers,
        })
    );
}

fn print_company(sizes: Sizes, big: &Big) {
    println!(
        "bench chat — conversation engine against a zero-latency scripted model (loopback HTTP), \
         temp SQLite company, manual clock, seed {SEED}"
    );
    println!(
        "company: {} employees ({} departments × {}), {} chats ({} department + {} project); \
         busy phase {} simulated min (the boss posts once in every chat), quiet phase {} \
         simulated h (one boss message per chat every 10 min)",
        big.employees,
        sizes.departments,
        sizes.dept_size,
        big.chats,
        sizes.departments,
        big.chats - sizes.departments,
        sizes.busy_minutes,
        sizes.quiet_hours,
    );
    println!();
}

/// Figures 1 and 2: the engine's own cost per thought and its throughput.
fn print_engine(f: &Figures, big: &Big) {
    println!(
        "1. engine overhead per thought (whole thought − model call), {} thoughts:",
        f.overhead.len()
    );
    println!(
        "     p50 {:>8} µs    p99 {:>8} µs    (the model call itself: mean {:.0} µs over loopback HTTP)",
        f.o50.as_micros(),
        f.o99.as_micros(),
        f.model_mean
    );
    println!(
        "2. thoughts per second, busy phase, {} employees in {} chats:",
        big.employees, big.chats
    );
    println!(
        "     {:>8.1} thoughts/s wall-clock ({} thoughts, {} messages posted, {} held back by the gates, \
         in {:.2} s; wake-ups run one after another in run_simulated, model calls included)",
        f.thoughts_per_s,
        big.busy.thoughts,
        big.busy.messages_posted,
        big.busy.silenced,
        big.busy_wall.as_secs_f64()
    );
}

/// Figures 3 and 4: prompt size against a naive prompt, model calls against polling.
fn print_prompts(f: &Figures, big: &Big, sizes: Sizes) {
    let Figures {
        ours,
        naive,
        prompt_ratio,
        calls_per_eh,
        idle_ratio,
        ..
    } = *f;
    println!(
        "3. prompt per thought, {TOKEN_UNIT}, the same {} thoughts priced twice:",
        big.priced.len()
    );
    println!(
        "     ours  {ours:>8.0}   (the real prompt builder: last 20 messages, ranked memories, impressions of those present, budget {PROMPT_TOKEN_BUDGET})"
    );
    println!(
        "     naive {naive:>8.0}   (same system prompt and instructions + every message of the chat so far + every memory + every relationship; no budget, no ranking)"
    );
    println!("     naive ÷ ours = {prompt_ratio:.2}×");
    println!(
        "4. model calls per employee-hour, quiet phase ({} employees × {} h):",
        big.employees, sizes.quiet_hours
    );
    println!(
        "     ours  {calls_per_eh:>8.1}   ({} model calls measured; {} idle wake-ups cost nothing)",
        big.quiet.model_calls, big.quiet.idle_wakeups
    );
    println!(
        "     10-s polling {POLLING_CALLS_PER_EMPLOYEE_HOUR:>3.0}   (thinks at every poll: 3600 s ÷ 10 s, computed analytically, not simulated)"
    );
    println!("     polling ÷ ours = {idle_ratio:.2}×");
}

/// Figures 5 and 6: one department thought against IdeaCo's, and as sent per dialect.
fn print_department(f: &Figures, dept: &DeptThought, sent: &[sent::Measured]) {
    let Figures {
        dept_tokens,
        dept_naive,
        dept_ratio,
        ..
    } = *f;
    println!(
        "5. one group-chat thought in a 6-person department with a full context ({} messages in the chat, \
         {} memories and {} pending tasks each, impressions of the 5 colleagues), {} thoughts:",
        dept.messages,
        dept.memories,
        dept.tasks,
        dept.prompt_tokens.len()
    );
    println!(
        "     ours  {dept_tokens:>8.0}   {TOKEN_UNIT}, budget {PROMPT_TOKEN_BUDGET} (a naive full-context prompt for the same thoughts: {dept_naive:.0})"
    );
    println!(
        "     IdeaCo {IDEACO_DEPT_PROMPT_TOKENS:>7.0}   (~23,000 characters per group-chat thought)"
    );
    println!("     IdeaCo ÷ ours = {dept_ratio:.2}× (target: ≥ 4)");
    println!(
        "6. the same thought as sent, per dialect: the request bodies captured at the server, \
         every text the model reads (messages + the structured-output form) with a real tokenizer:"
    );
    for m in sent {
        println!(
            "     {:<14} {:>7.1} tokens ({}; {} requests, {:.0} body bytes each; goal ≤ {})",
            m.dialect.key(),
            m.tokens,
            m.tokenizer,
            m.requests,
            m.body_bytes,
            sent::GOAL_TOKENS
        );
    }
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

// ---------- a company on a manual clock ----------

struct World {
    core: AppCore,
    clock: ManualClock,
    script: Script,
    _dir: tempfile::TempDir,
}

fn start() -> DateTime<Utc> {
    DateTime::from_timestamp(1_796_025_600, 0).unwrap_or_default() // 2026-11-30 08:00 UTC
}

/// The busy company's provider: a local OpenAI-compatible server.
const BUSY_PRESET: &str = "vllm";

/// The company talks to the scripted server through `preset`'s dialect and structured-
/// output form (a paid preset gets a placeholder key; the server is on loopback).
async fn world(preset: &str, model: &str) -> Result<World> {
    let clock = ManualClock::new(start());
    let dir = tempfile::tempdir()?;
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("bench.db").display()
    );
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            clock: clock.shared(),
            secrets: Arc::new(sent::PlaceholderKeys),
            ..CoreOptions::default()
        },
    )
    .await?;
    core.org
        .setup_company(SetupCompany {
            name: "Bench Robotics".into(),
            boss_name: BOSS.into(),
            language: Language::En,
            mission: Some("Build helpful robots".into()),
        })
        .await?;
    // The gateway must never refuse for money in a benchmark.
    core.org
        .set_budget(SetBudget {
            daily_budget_usd: 10_000.0,
        })
        .await?;
    let mut script = Script::new(clock.shared());
    script.keep_bodies = preset != BUSY_PRESET;
    let answering = script.clone();
    let base = scripted_server(Arc::new(move |body| answering.answer(body))).await?;
    let p = core
        .providers
        .save(SaveProvider {
            id: None,
            name: "Scripted".into(),
            preset: preset.into(),
            base_url: base,
            default_model: model.into(),
            models: vec![],
            enabled: true,
        })
        .await?;
    core.providers
        .set_route(SetRoute {
            purpose: Purpose::Thought,
            provider_id: p.id,
            model: model.into(),
        })
        .await?;
    Ok(World {
        core,
        clock,
        script,
        _dir: dir,
    })
}

impl World {
    fn engine(&self) -> Engine {
        Engine::new(
            &self.core,
            EngineConfig {
                seed: Some(SEED),
                record_timings: true,
                ..EngineConfig::default()
            },
        )
    }

    async fn boss_says(&self, chat_id: i32, text: &str) -> Result<()> {
        self.core
            .chats
            .post_as_boss(PostMessage {
                chat_id,
                text: text.into(),
            })
            .await?;
        Ok(())
    }

    async fn hire(
        &self,
        name: &str,
        title: &str,
        department_id: i32,
        archetype: Archetype,
    ) -> Result<EmployeeDto> {
        Ok(self
            .core
            .org
            .hire(NewEmployee {
                name: name.into(),
                title: title.into(),
                department_id: Some(department_id),
                manager_id: None,
                archetype: Some(archetype),
            })
            .await?)
    }
}

const DEPARTMENTS: [(&str, &str); 5] = [
    ("Engineering", "Build the robots' brains"),
    ("Product", "Decide what the robots should do next"),
    ("Design", "Make the robots a joy to use"),
    ("Sales", "Put a robot in every workshop"),
    ("Support", "Keep every customer's robot running"),
];
const TITLES: [&str; 10] = [
    "Backend Engineer",
    "QA Engineer",
    "Frontend Engineer",
    "DevOps Engineer",
    "Product Manager",
    "UI/UX Designer",
    "Data Scientist",
    "Technical Writer",
    "Sales Representative",
    "Customer Support Specialist",
];
const FIRST: [&str; 12] = [
    "Alex", "Blair", "Casey", "Drew", "Emery", "Finley", "Gray", "Harper", "Indy", "Jordan", "Kai",
    "Logan",
];
const LAST: [&str; 10] = [
    "Chen", "Okafor", "Silva", "Novak", "Haddad", "Moreau", "Tanaka", "Larsen", "Petrov", "Reyes",
];
const PROJECTS: [&str; 5] = ["Atlas", "Beacon", "Comet", "Delta", "Ember"];
const BOSS_LINES: [&str; 12] = [
    "Team, let's plan the next step of the launch.",
    "Quick update: the customer demo moved to Thursday.",
    "Reminder: budget reviews are due this week.",
    "Heads-up: the staging server restarts at noon.",
    "Please share one risk you see for this sprint.",
    "Good news, the pilot customer renewed.",
    "What's blocking you today? Keep it short.",
    "New priority: battery life complaints from the field.",
    "Let's agree on the release date by Friday.",
    "FYI the hiring plan for next quarter is approved.",
    "Can someone summarise where we are on the roadmap?",
    "Thanks all, the last release went smoothly.",
];

fn person_name(i: usize) -> String {
    let base = format!(
        "{} {}",
        FIRST[i % FIRST.len()],
        LAST[(i / FIRST.len()) % LAST.len()]
    );
    if i < FIRST.len() * LAST.len() {
        base
    } else {
        format!("{base} {}", i / (FIRST.len() * LAST.len()) + 1)
    }
}

/// What the busy and quiet phases measured.
struct Big {
    employees: usize,
    chats: usize,
    busy: EngineStats,
    busy_wall: Duration,
    quiet: EngineStats,
    timings: Vec<ThoughtTiming>,
    /// (ours, naive) prompt size of every thought.
    priced: Vec<(usize, usize)>,
}

fn delta(after: EngineStats, before: EngineStats) -> EngineStats {
    EngineStats {
        wakeups: after.wakeups - before.wakeups,
        idle_wakeups: after.idle_wakeups - before.idle_wakeups,
        thoughts: after.thoughts - before.thoughts,
        model_calls: after.model_calls - before.model_calls,
        messages_posted: after.messages_posted - before.messages_posted,
        silenced: after.silenced - before.silenced,
        malformed: after.malformed - before.malformed,
        deferred: after.deferred - before.deferred,
        replayed: after.replayed - before.replayed,
        interrupted: after.interrupted - before.interrupted,
    }
}

/// Departments with their group chats and as many project chats mixing people across
/// departments; the boss posts in every chat (busy phase), then once per chat every
/// 10 minutes (quiet phase).
async fn busy_and_quiet(sizes: Sizes) -> Result<Big> {
    let w = world(BUSY_PRESET, "bench").await?;
    let (people, mut chats) = staff_departments(&w, sizes).await?;
    chats.extend(project_chats(&w, sizes, &people).await?);
    let engine = w.engine();
    let busy_end = start() + TimeDelta::minutes(i64::from(sizes.busy_minutes));
    let (busy, busy_wall) = busy_phase(&w, &engine, &chats, busy_end).await?;
    let quiet = quiet_phase(&w, &engine, &chats, busy_end, sizes.quiet_hours).await?;
    let asked = w.script.take_asked();
    let history = History::load(&w.core).await?;
    let priced = asked.iter().map(|a| (a.ours, history.naive(a))).collect();
    Ok(Big {
        employees: people.len(),
        chats: chats.len(),
        busy,
        busy_wall,
        quiet,
        timings: engine.take_timings(),
        priced,
    })
}

/// Every department with its people in its group chat: each person with their index in
/// the department, and the chats.
async fn staff_departments(
    w: &World,
    sizes: Sizes,
) -> Result<(Vec<(usize, EmployeeDto)>, Vec<i32>)> {
    let core = &w.core;
    let mut people: Vec<(usize, EmployeeDto)> = Vec::new();
    let mut chats = Vec::new();
    for d in 0..sizes.departments {
        let (name, mission) = DEPARTMENTS.get(d).map_or_else(
            || (format!("Team {}", d + 1), "Help the company"),
            |(n, m)| ((*n).to_owned(), *m),
        );
        let dept = core
            .org
            .create_department(NewDepartment {
                name: name.clone(),
                parent_id: None,
                mission: Some(mission.into()),
            })
            .await?;
        let chat = core.chats.department_chat(dept.id, &name).await?;
        chats.push(chat.id);
        for i in 0..sizes.dept_size {
            let n = people.len();
            let e = w
                .hire(
                    &person_name(n),
                    TITLES[(d * 3 + i) % TITLES.len()],
                    dept.id,
                    Archetype::ALL[n % Archetype::ALL.len()],
                )
                .await?;
            core.chats.join(chat.id, e.id).await?;
            people.push((i, e));
        }
    }
    Ok((people, chats))
}

/// One requirement per department whose chat takes the people at the same index in every
/// department (when at least two), so each project chat mixes departments.
async fn project_chats(
    w: &World,
    sizes: Sizes,
    people: &[(usize, EmployeeDto)],
) -> Result<Vec<i32>> {
    let core = &w.core;
    let mut chats = Vec::new();
    for p in 0..sizes.departments {
        let members: Vec<i32> = people
            .iter()
            .filter(|(i, _)| i % sizes.departments == p)
            .map(|(_, e)| e.id)
            .collect();
        if members.len() < 2 {
            continue;
        }
        let project = PROJECTS
            .get(p)
            .map_or_else(|| format!("Project {}", p + 1), |n| format!("Project {n}"));
        let r = core
            .work
            .create_requirement(
                &project,
                "Ship the next robot firmware with the field team's fixes",
                None,
            )
            .await?;
        let chat_id = r.chat_id.context("a requirement has its chat")?;
        for id in members {
            core.chats.join(chat_id, id).await?;
        }
        chats.push(chat_id);
    }
    Ok(chats)
}

/// The boss starts a conversation in every chat and the company talks until `busy_end`:
/// what the engine did, and the wall-clock time it took.
async fn busy_phase(
    w: &World,
    engine: &Engine,
    chats: &[i32],
    busy_end: DateTime<Utc>,
) -> Result<(EngineStats, Duration)> {
    for (i, c) in chats.iter().enumerate() {
        w.boss_says(*c, BOSS_LINES[i % BOSS_LINES.len()]).await?;
    }
    let before = engine.stats();
    let t = Instant::now();
    engine.run_simulated(&w.clock, busy_end).await;
    let busy_wall = t.elapsed();
    Ok((delta(engine.stats(), before), busy_wall))
}

/// One boss message per chat every 10 minutes for `quiet_hours`, the chats staggered.
async fn quiet_phase(
    w: &World,
    engine: &Engine,
    chats: &[i32],
    busy_end: DateTime<Utc>,
    quiet_hours: f64,
) -> Result<EngineStats> {
    let quiet_secs = (quiet_hours * 3600.0).round() as i64;
    let slot = TimeDelta::minutes(10);
    let gap = TimeDelta::seconds(600 / chats.len().max(1) as i64);
    let before = engine.stats();
    let mut k = 0i64;
    'quiet: loop {
        for (i, c) in chats.iter().enumerate() {
            let at = busy_end + slot * k as i32 + gap * i as i32;
            if at >= busy_end + TimeDelta::seconds(quiet_secs) {
                break 'quiet;
            }
            engine.run_simulated(&w.clock, at).await;
            let text = BOSS_LINES[(k as usize * 5 + i) % BOSS_LINES.len()];
            w.boss_says(*c, &format!("{text} ({})", k + 1)).await?;
        }
        k += 1;
    }
    engine
        .run_simulated(&w.clock, busy_end + TimeDelta::seconds(quiet_secs))
        .await;
    Ok(delta(engine.stats(), before))
}

/// Everything a naive prompt would send, line by line with its time, to price any
/// thought of the run after the fact.
struct History {
    /// Chat name → (posted at, tokens of its prompt line), oldest first.
    messages: HashMap<String, Vec<(DateTime<Utc>, usize)>>,
    /// Employee name → (created at, tokens of its prompt line).
    memories: HashMap<String, Vec<(DateTime<Utc>, usize)>>,
    /// Employee name → (last updated, tokens of its prompt line).
    relationships: HashMap<String, Vec<(DateTime<Utc>, usize)>>,
}

impl History {
    async fn load(core: &AppCore) -> Result<Self> {
        // The whole company as one consistent moment, read through core.
        let mut all = cubicle_core::bundle::export(core).await?.tables;
        all.chat_message.sort_by_key(|m| m.id);
        all.memory.sort_by_key(|m| m.id);
        all.relationship.sort_by_key(|r| r.other_employee_id);
        let staff = core.org.all_employees().await?;
        let names: HashMap<i32, String> = staff.iter().map(|e| (e.id, e.name.clone())).collect();
        let mut messages = HashMap::new();
        for c in core.chats.all().await? {
            let lines = all
                .chat_message
                .iter()
                .filter(|m| m.chat_id == c.id)
                .map(|m| {
                    let who = match m.sender_kind {
                        SenderKind::Boss => format!("{BOSS} (boss)"),
                        SenderKind::System => "(note)".to_owned(),
                        SenderKind::Employee => m
                            .sender_employee_id
                            .and_then(|id| names.get(&id).cloned())
                            .unwrap_or_else(|| "someone".to_owned()),
                        // The bench company has no people besides the boss.
                        SenderKind::Person | SenderKind::Proxy => "a person".to_owned(),
                    };
                    let l = format!("[{}] {who}: {}\n", m.created_at.format("%H:%M"), m.text);
                    (m.created_at, approx_tokens(&l))
                })
                .collect();
            messages.insert(c.name, lines);
        }
        let mut memories = HashMap::new();
        let mut relationships = HashMap::new();
        for e in &staff {
            let mine = all
                .memory
                .iter()
                .filter(|m| m.employee_id == e.id)
                .map(|m| {
                    let l = format!("- #{} ({}) {}\n", m.id, m.importance, m.content);
                    (m.created_at, approx_tokens(&l))
                })
                .collect();
            memories.insert(e.name.clone(), mine);
            let rels = all
                .relationship
                .iter()
                .filter(|r| r.employee_id == e.id)
                .map(|r| {
                    let other = names
                        .get(&r.other_employee_id)
                        .map_or("someone", String::as_str);
                    let l = format!("- {other} (affinity {}): {}\n", r.affinity, r.impression);
                    (r.updated_at, approx_tokens(&l))
                })
                .collect();
            relationships.insert(e.name.clone(), rels);
        }
        Ok(Self {
            messages,
            memories,
            relationships,
        })
    }

    /// The naive prompt for the thought `a`: our fixed parts (system prompt, scene, tasks,
    /// instructions) + every message of the chat before it + every memory and every
    /// relationship it held by then. Memories evicted by the caps and relationships
    /// updated later are not counted, so the baseline errs on the small side.
    fn naive(&self, a: &Asked) -> usize {
        let before = |lines: Option<&Vec<(DateTime<Utc>, usize)>>| -> usize {
            lines.map_or(0, |ls| {
                ls.iter().filter(|(t, _)| *t < a.at).map(|(_, n)| n).sum()
            })
        };
        a.fixed
            + before(self.messages.get(&a.chat))
            + before(self.memories.get(&a.employee))
            + before(self.relationships.get(&a.employee))
    }
}

// ---------- one department thought with a full context ----------

struct DeptThought {
    prompt_tokens: Vec<usize>,
    naive: Vec<usize>,
    messages: usize,
    memories: usize,
    tasks: usize,
    /// The requests as they arrived at the server.
    bodies: Vec<serde_json::Value>,
}

const DEPT_TALK: [&str; 20] = [
    "Morning all. The firmware build from last night failed on the arm controller tests again, looking into it now.",
    "I saw that too; the timeout on the gripper calibration test is 2 s and the new motor driver needs about 2.4 s.",
    "Can we bump the timeout for now and open a ticket to speed the calibration up properly?",
    "Fine by me as long as the ticket has an owner and a date, otherwise it stays at 3 s forever.",
    "I'll own it. Target is end of next week, I'll post the profiling numbers here.",
    "On the design side: the new status screen mockups are in the shared folder, feedback welcome before Thursday.",
    "Looked at them. The battery icon is hard to read on the dark theme, maybe bump the contrast?",
    "Good catch, I'll try a thicker outline and a warmer yellow for the low state.",
    "Customer from the Lyon pilot asked whether the robot can pause itself when a person walks into the cell.",
    "We have the lidar data for that already; the hard part is the certification paperwork, not the code.",
    "Let's not promise anything to Lyon until legal has read the safety standard section on collaborative mode.",
    "Agreed. I'll put it in the roadmap doc as a candidate for Q3 with a note about certification.",
    "Staging is back up after the restart. Deploys are green again, the flaky DNS check is disabled for now.",
    "Thanks! Is the disabled check tracked somewhere? Last time we forgot about it for a month.",
    "Yes, there's a reminder on Friday's ops review agenda, I'll re-enable it there or explain why not.",
    "Quick question for whoever knows: do we still support the old USB teach pendant in this release?",
    "Officially yes until December; after that only the tablet app. The release notes should say so.",
    "I'll add a line to the release notes and ping support so they can warn the two customers still using it.",
    "The docs for the new API endpoints are half done, I need examples for the trajectory upload call.",
    "I can write those this afternoon, I have a script that uploads a sample trajectory anyway.",
];
const MEMORY_TOPICS: [&str; 11] = [
    "the arm controller timeout",
    "the Lyon pilot customer",
    "the dark theme contrast",
    "the staging DNS check",
    "the USB teach pendant",
    "the trajectory upload API",
    "the Q3 roadmap",
    "the safety certification",
    "the motor driver supplier",
    "the release notes",
    "the gripper calibration",
];
const MEMORY_FACTS: [&str; 4] = [
    "needs a decision from the boss before the end of the month, keep an eye on it",
    "caused a late night last quarter; a checklist helped a lot afterwards",
    "is something I promised to follow up on with a short written summary",
    "came up in the retrospective as a recurring pain point for the team",
];

/// The open tasks every member of the department holds.
const DEPT_TASKS: [&str; 2] = [
    "review the arm controller timeout change and report back",
    "draft the release-note line about the USB teach pendant",
];

/// A six-person department with 20+ messages in its group chat, memories, impressions
/// of every colleague and pending tasks; the boss posts and everyone thinks once.
async fn department_thought(preset: &str, model: &str) -> Result<DeptThought> {
    let w = world(preset, model).await?;
    let (chat_id, people) = engineering(&w).await?;
    past_talk(&w, chat_id, &people).await?;
    let memories = fill_minds(&w, chat_id, &people).await?;
    for e in &people {
        for t in DEPT_TASKS {
            w.core.work.assign(e.id, t, TaskOrigin::Boss).await?;
        }
    }

    let engine = w.engine();
    w.clock.advance(TimeDelta::minutes(5));
    w.boss_says(
        chat_id,
        "Thanks all. Let's lock the release plan today: what's still open on your side?",
    )
    .await?;
    // The opening, the team's talk and this message.
    let messages = DEPT_TALK.len() + 2;
    // Every member is nudged within 1–5 s and thinks after absorbing for 2–8 s.
    let until = w.clock.now() + TimeDelta::seconds(13);
    engine.run_simulated(&w.clock, until).await;
    let prompt_tokens: Vec<usize> = engine
        .take_timings()
        .iter()
        .map(|t| t.prompt_tokens)
        .collect();
    let asked = w.script.take_asked();
    let history = History::load(&w.core).await?;
    Ok(DeptThought {
        prompt_tokens,
        naive: asked.iter().map(|a| history.naive(a)).collect(),
        messages,
        memories,
        tasks: DEPT_TASKS.len(),
        bodies: w.script.take_bodies(),
    })
}

/// Engineering with six people in its group chat: the chat and the people.
async fn engineering(w: &World) -> Result<(i32, Vec<EmployeeDto>)> {
    let core = &w.core;
    let dept = core
        .org
        .create_department(NewDepartment {
            name: "Engineering".into(),
            parent_id: None,
            mission: Some("Build the robots' brains".into()),
        })
        .await?;
    let chat = core.chats.department_chat(dept.id, "Engineering").await?;
    let mut people = Vec::new();
    for (i, (name, title)) in [
        ("Alice", "Backend Engineer"),
        ("Bob", "QA Engineer"),
        ("Carol", "Frontend Engineer"),
        ("Dave", "DevOps Engineer"),
        ("Erin", "Product Manager"),
        ("Frank", "UI/UX Designer"),
    ]
    .into_iter()
    .enumerate()
    {
        let e = w
            .hire(
                name,
                title,
                dept.id,
                Archetype::ALL[(i * 5) % Archetype::ALL.len()],
            )
            .await?;
        core.chats.join(chat.id, e.id).await?;
        people.push(e);
    }
    Ok((chat.id, people))
}

/// The conversation so far: the boss opens, the team talks (no engine yet).
async fn past_talk(w: &World, chat_id: i32, people: &[EmployeeDto]) -> Result<()> {
    w.boss_says(
        chat_id,
        "Morning team, what's the state of the firmware release?",
    )
    .await?;
    for (i, text) in DEPT_TALK.iter().enumerate() {
        w.clock.advance(TimeDelta::minutes(3));
        w.core
            .chats
            .post_as_employee(chat_id, people[i % people.len()].id, text)
            .await?;
    }
    Ok(())
}

/// Memories (long- and short-term) and impressions of every colleague for each person;
/// returns how many memories each holds (the fewest, should one be a duplicate).
async fn fill_minds(w: &World, chat_id: i32, people: &[EmployeeDto]) -> Result<usize> {
    let mut memories = usize::MAX;
    for (i, e) in people.iter().enumerate() {
        memories = memories.min(remember_topics(w, chat_id, i, e).await?);
        for other in people.iter().filter(|o| o.id != e.id) {
            let impression = format!(
                "{} is a dependable {} who explains things patiently; sometimes slow to answer in the \
                 afternoon, but the work is careful and well tested.",
                other.name,
                other.title.to_lowercase()
            );
            w.core
                .minds
                .relate(
                    e.id,
                    other.id,
                    Some(&impression),
                    Some(55 + (i32::try_from(i).unwrap_or(0) * 7) % 40),
                )
                .await?;
        }
    }
    Ok(memories)
}

/// Half the facts of every topic as memories of the `i`-th person; how many were kept.
async fn remember_topics(w: &World, chat_id: i32, i: usize, e: &EmployeeDto) -> Result<usize> {
    let mut mine = 0;
    for (j, topic) in MEMORY_TOPICS.iter().enumerate() {
        for (f, fact) in MEMORY_FACTS.iter().enumerate().skip((i + j) % 2).step_by(2) {
            let kind = if (j + f) % 3 == 0 {
                MemoryKind::ShortTerm
            } else {
                MemoryKind::LongTerm
            };
            let added = w
                .core
                .minds
                .remember(
                    e.id,
                    e.department_id,
                    NewMemory {
                        kind,
                        content: format!("{topic} {fact}"),
                        importance: Some(i32::try_from(2 + (i + j + f) % 8).unwrap_or(5)),
                        ttl_hours: None,
                        visibility: Visibility::Private,
                        requirement_id: None,
                        source_chat_id: Some(chat_id),
                    },
                )
                .await?;
            mine += usize::from(added.is_some());
        }
    }
    Ok(mine)
}
