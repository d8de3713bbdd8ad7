//! One group-chat thought in a six-person department with a full context: 20+ messages
//! in its chat, memories, impressions of every colleague and pending tasks; the boss
//! posts and everyone thinks, twice. Run once per dialect, to count what each sends and
//! what two consecutive thoughts of one employee send alike.

use anyhow::Result;
use chrono::TimeDelta;
use cubicle_core::clock::Clock as _;
use cubicle_core::mind::memory_rules::{MemoryKind, Visibility};
use cubicle_core::mind::minds::NewMemory;
use cubicle_core::org::{EmployeeDto, NewDepartment};
use cubicle_core::types::Archetype;
use cubicle_core::work::TaskOrigin;

use super::race::Contender;
use super::{World, world};

pub(super) struct DeptThought {
    /// Each thought's prompt as the engine estimates it.
    pub(super) prompt_tokens: Vec<usize>,
    pub(super) messages: usize,
    pub(super) memories: usize,
    pub(super) tasks: usize,
    /// The requests as they arrived at the server.
    pub(super) bodies: Vec<serde_json::Value>,
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
pub(super) async fn department_thought(preset: &str, model: &str) -> Result<DeptThought> {
    let w = world(preset, model, true).await?;
    let (chat_id, people) = engineering(&w).await?;
    past_talk(&w, chat_id, &people).await?;
    let memories = fill_minds(&w, chat_id, &people).await?;
    for e in &people {
        for t in DEPT_TASKS {
            w.core.work.assign(e.id, t, TaskOrigin::Boss).await?;
        }
    }

    let engine = w.engine(Contender::Ours);
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
    // A second round, so each member's next thought can be set against the first: what
    // the two requests share from their first byte is what a prompt cache serves again.
    w.clock.advance(TimeDelta::minutes(4));
    w.boss_says(chat_id, "Good. Anything blocking the release notes?")
        .await?;
    let until = w.clock.now() + TimeDelta::seconds(13);
    engine.run_simulated(&w.clock, until).await;
    let prompt_tokens: Vec<usize> = engine
        .take_timings()
        .iter()
        .map(|t| t.prompt_tokens)
        .collect();
    Ok(DeptThought {
        prompt_tokens,
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
