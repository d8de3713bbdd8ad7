//! The company every contender of `bench chat` runs: departments with their group
//! chats, project chats mixing people across departments, and the boss's part — one
//! post in every chat to open a busy stretch, then one per chat every 10 minutes.

use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::engine::{Engine, EngineStats};
use cubicle_core::org::{EmployeeDto, NewDepartment};
use cubicle_core::types::Archetype;

use super::{Sizes, World};

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

pub(super) fn delta(after: EngineStats, before: EngineStats) -> EngineStats {
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

/// Every department with its people in its group chat: each person with their index in
/// the department, and the chats.
pub(super) async fn staff_departments(
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
pub(super) async fn project_chats(
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
pub(super) async fn busy_phase(
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
pub(super) async fn quiet_phase(
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
