//! The soak's company and its boss: departments, people, group chats, and a week of
//! instructions drawn from a seeded RNG.

use anyhow::{Context as _, Result};
use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::AppCore;
use cubicle_core::chat::gates::ChatMode;
use cubicle_core::chat::{CreateGroup, PostMessage};
use cubicle_core::org::{NewDepartment, NewEmployee};
use cubicle_core::types::Archetype;
use cubicle_core::work::TaskOrigin;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// Departments and the share of people each gets (the rest go to the last one).
const DEPARTMENTS: [(&str, &str, usize); 4] = [
    ("Engineering", "Build the product", 4),
    ("Product", "Decide what to build next", 3),
    ("Design", "Make it a joy to use", 2),
    ("Sales", "Put it in every workshop", 3),
];
const NAMES: [&str; 24] = [
    "Alice Chen",
    "Bruno Silva",
    "Chloe Novak",
    "Dev Patel",
    "Elena Rossi",
    "Farid Haddad",
    "Grace Kim",
    "Hugo Moreau",
    "Ines Tanaka",
    "Jonas Larsen",
    "Kira Petrov",
    "Luis Reyes",
    "Maya Okafor",
    "Nils Berg",
    "Olga Ivanova",
    "Pavel Horak",
    "Quinn Adams",
    "Rosa Diaz",
    "Sami Laine",
    "Tara Singh",
    "Uma Das",
    "Victor Lin",
    "Wen Zhao",
    "Yara Haddad",
];
const TITLES: [&str; 4] = [
    "Backend Engineer",
    "Product Manager",
    "UI/UX Designer",
    "Sales Representative",
];
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
const TASKS: [&str; 8] = [
    "write a one-page summary of the customer feedback",
    "check why the nightly build failed and fix it",
    "draft the release notes for the next version",
    "prepare three slides for Friday's demo",
    "review the onboarding screens and list the top issues",
    "estimate the export feature in days",
    "call the pilot customer and collect their wishes",
    "update the pricing page copy",
];

pub struct Company {
    pub people: Vec<i32>,
    /// Group chats (departments, projects, a social group).
    pub chats: Vec<i32>,
}

/// One thing the boss does.
#[derive(Clone, Debug)]
pub enum Action {
    /// A message in a group chat (by index into [`Company::chats`]).
    Post { chat: usize, text: String },
    /// A task for one person (by index), announced in their boss chat.
    Task { person: usize, text: String },
}

/// The boss's week: a kick-off post in every group chat on Monday at 09:00, a few
/// instructions per working day between 09:00 and 17:00, one on weekend days, about a
/// third of them tasks; and each working day's outage, which starts a few seconds
/// after the day's first group post (so calls are in flight).
pub struct Plan {
    pub actions: Vec<(DateTime<Utc>, Action)>,
    pub outages: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

pub fn plan(
    seed: u64,
    start: DateTime<Utc>,
    days: u32,
    people: usize,
    chats: usize,
    outage: TimeDelta,
) -> Plan {
    let mut rng = StdRng::seed_from_u64(seed ^ 0xb055);
    let mut actions = Vec::new();
    let mut outages = Vec::new();
    for day in 0..days {
        let midnight = start + TimeDelta::days(i64::from(day));
        let weekend = day % 7 >= 5;
        let n = if weekend { 1 } else { rng.random_range(4..=8) };
        let mut times: Vec<DateTime<Utc>> = (0..n)
            .map(|_| midnight + TimeDelta::minutes(rng.random_range(9 * 60..17 * 60)))
            .collect();
        times.sort();
        // Mondays open with a word in every group chat: the week's kick-off.
        let monday = day % 7 == 0;
        if monday {
            // Monday's outage starts with the kick-off, when everyone answers.
            let from = midnight + TimeDelta::hours(9) + TimeDelta::seconds(5);
            outages.push((from, from + outage));
            for chat in 0..chats {
                let at = midnight + TimeDelta::hours(9) + TimeDelta::minutes(chat as i64);
                actions.push((
                    at,
                    Action::Post {
                        chat,
                        text: format!(
                            "Good morning! Plans for this week, everyone? (day {})",
                            day + 1
                        ),
                    },
                ));
            }
        }
        for (i, at) in times.into_iter().enumerate() {
            let action = if rng.random_bool(0.35) || (i == 0 && day == 0) {
                Action::Task {
                    person: rng.random_range(0..people.max(1)),
                    text: (*TASKS.choose(&mut rng).unwrap_or(&TASKS[0])).to_owned(),
                }
            } else {
                Action::Post {
                    chat: rng.random_range(0..chats.max(1)),
                    text: format!(
                        "{} (day {})",
                        BOSS_LINES.choose(&mut rng).unwrap_or(&BOSS_LINES[0]),
                        day + 1
                    ),
                }
            };
            // On other working days the outage begins right after the day's first action,
            // before the budget can have run out, when people answer.
            if !weekend && !monday && i == 0 {
                let from = at + TimeDelta::seconds(5);
                outages.push((from, from + outage));
                // Make sure that action is a group post: it gets everyone thinking.
                actions.push((
                    at,
                    Action::Post {
                        chat: rng.random_range(0..chats.max(1)),
                        text: format!(
                            "Everyone, a quick round please: how is your week going? (day {})",
                            day + 1
                        ),
                    },
                ));
                continue;
            }
            actions.push((at, action));
        }
    }
    actions.sort_by_key(|(at, _)| *at);
    Plan { actions, outages }
}

/// Departments with their group chats, `size` people spread over them, two project
/// chats across departments and a casual social group.
pub async fn build(core: &AppCore, size: usize) -> Result<Company> {
    let mut people = Vec::new();
    let mut chats = Vec::new();
    let mut by_dept: Vec<Vec<i32>> = Vec::new();
    let total: usize = DEPARTMENTS.iter().map(|d| d.2).sum();
    for (d, (name, mission, share)) in DEPARTMENTS.iter().enumerate() {
        let dept = core
            .org
            .create_department(NewDepartment {
                name: (*name).into(),
                parent_id: None,
                mission: Some((*mission).into()),
            })
            .await?;
        let chat = core.chats.department_chat(dept.id, name).await?;
        chats.push(chat.id);
        let count = if d + 1 == DEPARTMENTS.len() {
            size.saturating_sub(people.len())
        } else {
            (size * share).div_ceil(total).max(1)
        };
        let mut members = Vec::new();
        for _ in 0..count {
            let i = people.len();
            let name = if i < NAMES.len() {
                NAMES[i].to_owned()
            } else {
                format!("{} {}", NAMES[i % NAMES.len()], i / NAMES.len() + 1)
            };
            let e = core
                .org
                .hire(NewEmployee {
                    name,
                    title: TITLES[d].into(),
                    department_id: Some(dept.id),
                    manager_id: None,
                    archetype: Some(Archetype::ALL[i % Archetype::ALL.len()]),
                })
                .await?;
            core.chats.join(chat.id, e.id).await?;
            people.push(e.id);
            members.push(e.id);
        }
        by_dept.push(members);
    }
    // Projects mix people across departments: every other person of each department.
    for (p, name) in ["Atlas", "Beacon"].iter().enumerate() {
        let r = core
            .work
            .create_requirement(
                &format!("Project {name}"),
                "Ship the next version with the field team's fixes",
                None,
            )
            .await?;
        let chat_id = r.chat_id.context("a requirement has its chat")?;
        for members in &by_dept {
            for id in members.iter().skip(p).step_by(2) {
                core.chats.join(chat_id, *id).await?;
            }
        }
        chats.push(chat_id);
    }
    let social: Vec<i32> = by_dept.iter().filter_map(|m| m.first().copied()).collect();
    if social.len() >= 2 {
        let g = core
            .chats
            .create_group(CreateGroup {
                name: "Lunch crew".into(),
                member_ids: social,
                mode: ChatMode::Casual,
            })
            .await?;
        chats.push(g.id);
    }
    Ok(Company { people, chats })
}

/// Carries out one of the boss's actions.
pub async fn act(core: &AppCore, company: &Company, action: &Action) -> Result<()> {
    match action {
        Action::Post { chat, text } => {
            let chat_id = company.chats[chat % company.chats.len()];
            core.chats
                .post_as_boss(PostMessage {
                    chat_id,
                    text: text.clone(),
                })
                .await?;
        }
        Action::Task { person, text } => {
            let id = company.people[person % company.people.len()];
            core.work.assign(id, text, TaskOrigin::Boss).await?;
        }
    }
    Ok(())
}
