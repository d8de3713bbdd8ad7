//! The dashboard's own figures (SPEC §11): pending work by urgency and what happened
//! lately. Headcount, spend against the budget and unread counts come from the services
//! that own them; this module adds what no other view answers in one place.

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_store::{Db, DbErr, chat as cq, mailbox as mq, work as wq};
use sea_orm::ActiveEnum;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chat::{Names, SenderKind, rfc3339};
use crate::clock::SharedClock;
use crate::work::urgency::{self, Urgency};

/// How many items the activity feed shows.
const ACTIVITY_ITEMS: usize = 30;
/// The activity status of a task resolved with a deliverable that waits for review.
pub const NEEDS_REVIEW: &str = "needs_review";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DashboardTask {
    pub id: i32,
    pub owner_id: i32,
    pub owner_name: String,
    pub description: String,
    pub urgency: Urgency,
    pub age_minutes: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ActivityKind {
    /// Someone posted in a chat.
    Message,
    /// A task was created, resolved or failed.
    Task,
    /// Something reached the mailbox.
    Mail,
}

/// One line of the activity feed, linking to where it happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ActivityItem {
    pub kind: ActivityKind,
    pub at: String,
    pub employee_id: Option<i32>,
    /// Who did it: an employee, the boss, or empty for the system.
    pub actor: String,
    pub text: String,
    pub chat_id: Option<i32>,
    pub task_id: Option<i32>,
    pub mail_id: Option<i32>,
    /// For tasks: `pending`, `resolved`, `failed`, `escalated` or `needs_review` (resolved,
    /// but its deliverable does not address the task).
    pub status: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DashboardDto {
    /// Pending tasks, the most urgent (then the oldest) first.
    pub tasks: Vec<DashboardTask>,
    /// The latest activity, newest first.
    pub activity: Vec<ActivityItem>,
    /// Actions waiting for the boss's approval.
    pub pending_approvals: u32,
}

pub async fn dashboard(db: &Db, clock: &SharedClock) -> Result<DashboardDto, DbErr> {
    let names = Names::load(db).await?;
    Ok(DashboardDto {
        tasks: pending_by_urgency(db, &names, clock.now()).await?,
        activity: activity(db, &names).await?,
        pending_approvals: u32::try_from(cubicle_store::approval::count_waiting(db, None).await?)
            .unwrap_or(u32::MAX),
    })
}

/// Pending tasks, the most urgent (then the oldest) first.
async fn pending_by_urgency(
    db: &Db,
    names: &Names,
    now: DateTime<Utc>,
) -> Result<Vec<DashboardTask>, DbErr> {
    let mut tasks: Vec<DashboardTask> = wq::pending_tasks(db)
        .await?
        .into_iter()
        .map(|t| {
            let age = now - t.created_at;
            DashboardTask {
                id: t.id,
                owner_id: t.owner_id,
                owner_name: names.person(t.owner_id).to_owned(),
                description: t.description,
                urgency: urgency::urgency(age.max(TimeDelta::zero())),
                age_minutes: u32::try_from(age.num_minutes().max(0)).unwrap_or(u32::MAX),
            }
        })
        .collect();
    tasks.sort_by(|a, b| {
        b.urgency
            .cmp(&a.urgency)
            .then(b.age_minutes.cmp(&a.age_minutes))
    });
    Ok(tasks)
}

/// The latest messages, tasks and mail together, newest first.
async fn activity(db: &Db, names: &Names) -> Result<Vec<ActivityItem>, DbErr> {
    let mut feed: Vec<(DateTime<Utc>, ActivityItem)> = Vec::new();
    let person = |id: Option<i32>| id.map(|id| names.person(id).to_owned()).unwrap_or_default();
    for m in cq::recent_messages_everywhere(db, ACTIVITY_ITEMS as u64).await? {
        let actor = match m.sender_kind {
            SenderKind::Boss => names.boss().to_owned(),
            SenderKind::Employee | SenderKind::System => person(m.sender_employee_id),
            SenderKind::Person | SenderKind::Proxy => m
                .sender_person_id
                .map(|id| names.human(id).to_owned())
                .unwrap_or_default(),
        };
        let item = ActivityItem {
            kind: ActivityKind::Message,
            at: rfc3339(m.created_at),
            employee_id: m.sender_employee_id,
            actor,
            text: m.text.chars().take(200).collect(),
            chat_id: Some(m.chat_id),
            task_id: None,
            mail_id: None,
            status: None,
        };
        feed.push((m.created_at, item));
    }
    for t in wq::list_tasks(db, ACTIVITY_ITEMS as u64).await? {
        let at = t.resolved_at.unwrap_or(t.created_at);
        let item = ActivityItem {
            kind: ActivityKind::Task,
            at: rfc3339(at),
            employee_id: Some(t.owner_id),
            actor: names.person(t.owner_id).to_owned(),
            text: t.description,
            chat_id: None,
            task_id: Some(t.id),
            mail_id: None,
            // Resolved with a deliverable that does not address the task: not done.
            status: Some(match t.needs_review {
                Some(_) if t.status == cubicle_store::enums::TaskStatus::Resolved => {
                    NEEDS_REVIEW.to_owned()
                }
                _ => t.status.to_value(),
            }),
        };
        feed.push((at, item));
    }
    for m in mq::list_mail(db, None, None, None, ACTIVITY_ITEMS as u64).await? {
        let item = ActivityItem {
            kind: ActivityKind::Mail,
            at: rfc3339(m.created_at),
            employee_id: m.employee_id,
            actor: person(m.employee_id),
            text: m.title,
            chat_id: m.chat_id,
            task_id: m.task_id,
            mail_id: Some(m.id),
            status: None,
        };
        feed.push((m.created_at, item));
    }
    feed.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    Ok(feed
        .into_iter()
        .take(ACTIVITY_ITEMS)
        .map(|(_, item)| item)
        .collect())
}
