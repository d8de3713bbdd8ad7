//! Work: requirements (projects with their own group chat, a reviewer and a task tree)
//! and tasks (SPEC §6). This module records and reads work; the engine decides when
//! tasks are picked up, escalated, reviewed and reported (`engine/review.rs`), and
//! `work/urgency.rs` holds the urgency rules.

pub mod board;
pub mod check;
pub mod deliverables;
mod progress;
pub(crate) mod start;
pub mod urgency;

pub use progress::RequirementDone;

use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{chat, requirement, task};
use cubicle_store::{Db, DbErr, chat as chat_q, work as q};
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::IntoActiveModel;

/// A task description or result longer than this is cut: tasks are pointers, not documents.
const TASK_MAX_CHARS: usize = 1000;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::clock::SharedClock;
use crate::events::{DomainEvent, EventBus};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaskDto {
    pub id: i32,
    pub owner_id: i32,
    pub description: String,
    pub status: TaskStatus,
    pub requirement_id: Option<i32>,
    pub created_by: TaskOrigin,
    pub created_at: String,
    pub result: Option<String>,
    pub resolved_at: Option<String>,
    pub parent_task_id: Option<i32>,
    pub trace_id: Option<String>,
    /// 0 for the first try; each rework after a rejected review adds one.
    pub attempt: i32,
    /// For a review task: the task under review.
    pub review_of: Option<i32>,
    pub kind: TaskKind,
    pub condition: Option<String>,
    /// Resolved with a deliverable that does not address the task: why it waits for the
    /// boss's review instead of counting as done.
    pub needs_review: Option<ReviewReason>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequirementDto {
    pub id: i32,
    pub name: String,
    pub description: String,
    pub department_id: Option<i32>,
    pub status: board::RequirementStatus,
    pub chat_id: Option<i32>,
    pub created_at: String,
    pub reviewer_id: Option<i32>,
    /// Who plans it and answers for it (its department's lead, or the member most fit).
    pub owner_id: Option<i32>,
}

use board::RequirementStatus;
pub use cubicle_store::enums::{ReviewReason, TaskKind, TaskOrigin, TaskStatus};

/// A task to create; [`NewTask::new`] gives a plain one-shot task.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTask {
    pub owner_id: i32,
    pub description: String,
    pub created_by: TaskOrigin,
    pub trace_id: Option<String>,
    pub parent_task_id: Option<i32>,
    pub requirement_id: Option<i32>,
    /// Where the owner reports when done (`chat:<id>`); the boss chat by default.
    pub on_resolve_target: Option<String>,
    pub on_resolve_hint: Option<String>,
    pub attempt: i32,
    pub review_of: Option<i32>,
    pub kind: TaskKind,
    /// What a conditional task waits for.
    pub condition: Option<String>,
    /// Made by a pending thought (`pt<id>:task:<n>`): created once however often the
    /// thought is replayed after a kill (SPEC §10).
    pub effect_key: Option<String>,
}

impl NewTask {
    pub fn new(owner_id: i32, description: &str, created_by: TaskOrigin) -> Self {
        Self {
            owner_id,
            description: description.to_owned(),
            created_by,
            trace_id: None,
            parent_task_id: None,
            requirement_id: None,
            on_resolve_target: None,
            on_resolve_hint: None,
            attempt: 0,
            review_of: None,
            kind: TaskKind::default(),
            condition: None,
            effect_key: None,
        }
    }

    fn into_row(self, now: chrono::DateTime<chrono::Utc>) -> task::ActiveModel {
        task::ActiveModel {
            id: NotSet,
            owner_id: Set(self.owner_id),
            description: Set(clip_task_text(&self.description)),
            kind: Set(self.kind),
            condition: Set(self.condition.map(|c| clip_task_text(&c))),
            status: Set(TaskStatus::Pending),
            result: Set(None),
            on_resolve_target: Set(self.on_resolve_target),
            on_resolve_hint: Set(self.on_resolve_hint.map(|h| clip_task_text(&h))),
            parent_task_id: Set(self.parent_task_id),
            requirement_id: Set(self.requirement_id),
            trace_id: Set(self.trace_id),
            created_by: Set(self.created_by),
            created_at: Set(now),
            resolved_at: Set(None),
            attempt: Set(self.attempt),
            review_of: Set(self.review_of),
            report_due_at: Set(None),
            needs_review: Set(None),
        }
    }
}

/// Tasks are pointers, not documents: long text is cut.
pub fn clip_task_text(s: &str) -> String {
    s.trim().chars().take(TASK_MAX_CHARS).collect()
}

#[derive(Clone, Debug)]
pub struct Work {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
}

impl Work {
    pub fn new(db: Db, bus: EventBus, clock: SharedClock) -> Self {
        Self { db, bus, clock }
    }

    /// A one-shot task for `owner`, pending until they resolve it.
    pub async fn assign(
        &self,
        owner_id: i32,
        description: &str,
        created_by: TaskOrigin,
    ) -> Result<TaskDto, DbErr> {
        self.create(NewTask::new(owner_id, description, created_by))
            .await
    }

    /// A task an employee gave itself in a thought (`taskOps: create`).
    pub async fn create_own(&self, owner_id: i32, description: &str) -> Result<TaskDto, DbErr> {
        self.create(NewTask::new(owner_id, description, TaskOrigin::Own))
            .await
    }

    pub async fn create(&self, mut new: NewTask) -> Result<TaskDto, DbErr> {
        let key = new.effect_key.take();
        let txn = self.db.begin_write().await?;
        if let Some(key) = key.as_deref()
            && !cubicle_store::effect::claim(&txn, key, self.clock.now()).await?
        {
            drop(txn);
            // Already made by an earlier run of the same thought: that task.
            let id = cubicle_store::effect::applied(&self.db, key)
                .await?
                .flatten()
                .ok_or_else(|| DbErr::RecordNotFound(format!("the task of {key}")))?;
            return q::find_task(&self.db, id)
                .await?
                .map(|t| task_dto(&t))
                .ok_or_else(|| DbErr::RecordNotFound(format!("task {id}")));
        }
        // Work on an open requirement means it is in progress.
        if let Some(r) = new.requirement_id
            && let Some(r) = q::find_requirement(&txn, r).await?
            && r.status == RequirementStatus::Open
        {
            let mut am = r.into_active_model();
            am.status = Set(RequirementStatus::InProgress);
            q::update_requirement(&txn, am).await?;
        }
        // Whoever works on a requirement is in its group chat.
        if let Some(chat_id) = match new.requirement_id {
            Some(r) => q::find_requirement(&txn, r).await?.and_then(|r| r.chat_id),
            None => None,
        } && chat_q::find_member(&txn, chat_id, new.owner_id)
            .await?
            .is_none()
        {
            crate::chat::insert_member(&txn, chat_id, new.owner_id, self.clock.now()).await?;
        }
        let t = q::insert_task(&txn, new.into_row(self.clock.now())).await?;
        if let Some(key) = key.as_deref() {
            cubicle_store::effect::set_row(&txn, key, t.id).await?;
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(task_dto(&t))
    }

    /// Resolves (or fails) one of the owner's pending tasks. `None` when the task is not
    /// theirs or no longer pending: a thought cannot close someone else's work.
    pub async fn finish(
        &self,
        owner_id: i32,
        task_id: i32,
        resolved: bool,
        result: Option<&str>,
    ) -> Result<Option<task::Model>, DbErr> {
        let Some(t) = q::find_task(&self.db, task_id)
            .await?
            .filter(|t| t.owner_id == owner_id && t.status == TaskStatus::Pending)
        else {
            return Ok(None);
        };
        let mut am = t.into_active_model();
        am.status = Set(if resolved {
            TaskStatus::Resolved
        } else {
            TaskStatus::Failed
        });
        am.result = Set(result.map(clip_task_text));
        am.resolved_at = Set(Some(self.clock.now()));
        let t = q::update_task(&self.db, am).await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(Some(t))
    }

    /// [`Work::finish`] once under `key` (a pending thought's effect): the task's new
    /// status, why its deliverable needs review (if it does) and the key are one
    /// transaction. `None` also when it was done before.
    pub async fn finish_keyed(
        &self,
        owner_id: i32,
        task_id: i32,
        resolved: bool,
        result: Option<&str>,
        needs_review: Option<ReviewReason>,
        key: &str,
    ) -> Result<Option<task::Model>, DbErr> {
        let txn = self.db.begin_write().await?;
        if !cubicle_store::effect::claim(&txn, key, self.clock.now()).await? {
            return Ok(None);
        }
        let Some(t) = q::find_task(&txn, task_id)
            .await?
            .filter(|t| t.owner_id == owner_id && t.status == TaskStatus::Pending)
        else {
            return Ok(None);
        };
        let mut am = t.into_active_model();
        am.status = Set(if resolved {
            TaskStatus::Resolved
        } else {
            TaskStatus::Failed
        });
        am.result = Set(result.map(clip_task_text));
        am.needs_review = Set(needs_review.filter(|_| resolved));
        am.resolved_at = Set(Some(self.clock.now()));
        let t = q::update_task(&txn, am).await?;
        cubicle_store::effect::set_row(&txn, key, t.id).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(Some(t))
    }

    /// One employee's pending tasks, oldest first.
    pub async fn pending_of(&self, owner_id: i32) -> Result<Vec<task::Model>, DbErr> {
        q::pending_tasks_of(&self.db, owner_id).await
    }

    /// Takes back a task that nobody has worked on yet.
    pub async fn withdraw_task(&self, id: i32) -> Result<bool, DbErr> {
        match q::find_task(&self.db, id).await? {
            Some(t) if t.status == TaskStatus::Pending => {
                q::delete_task(&self.db, id).await?;
                self.bus.publish(DomainEvent::WorkChanged);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Every task (the newest 500), newest first.
    pub async fn all(&self) -> Result<Vec<TaskDto>, DbErr> {
        Ok(q::list_tasks(&self.db, 500)
            .await?
            .iter()
            .map(task_dto)
            .collect())
    }

    pub async fn pending(&self) -> Result<Vec<TaskDto>, DbErr> {
        Ok(q::pending_tasks(&self.db)
            .await?
            .iter()
            .map(task_dto)
            .collect())
    }

    /// A requirement and its own group chat, in one transaction.
    pub async fn create_requirement(
        &self,
        name: &str,
        description: &str,
        department_id: Option<i32>,
    ) -> Result<RequirementDto, DbErr> {
        let txn = self.db.begin_write().await?;
        let c = chat_q::insert_chat(
            &txn,
            chat::ActiveModel {
                id: NotSet,
                kind: Set(crate::chat::ChatKind::Requirement),
                name: Set(name.to_owned()),
                department_id: Set(department_id),
                mode: Set(crate::chat::gates::ChatMode::Work),
                topic: Set(Some(description.to_owned())),
                created_at: Set(self.clock.now()),
                ..Default::default()
            },
        )
        .await?;
        let r = q::insert_requirement(
            &txn,
            requirement::ActiveModel {
                id: NotSet,
                name: Set(name.to_owned()),
                description: Set(description.to_owned()),
                department_id: Set(department_id),
                status: Set(RequirementStatus::Open),
                chat_id: Set(Some(c.id)),
                created_at: Set(self.clock.now()),
                reviewer_id: Set(None),
                owner_id: Set(None),
            },
        )
        .await?;
        // The department that owns it works on it: its people are in the group.
        if let Some(d) = department_id
            && let Some(company) = cubicle_store::org::find_company(&txn).await?
        {
            for e in cubicle_store::org::list_employees(&txn, company.id, false).await? {
                if e.department_id == Some(d) {
                    crate::chat::insert_member(&txn, c.id, e.id, self.clock.now()).await?;
                }
            }
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(requirement_dto(&r))
    }

    /// Removes a requirement and its chat (the secretary's Undo, minutes after creating
    /// it), with its planning task while nobody has worked on it; `false`, and nothing
    /// removed, once there is any other work in it.
    pub async fn remove_requirement(&self, id: i32, chat_id: Option<i32>) -> Result<bool, DbErr> {
        let txn = self.db.begin_write().await?;
        let tasks = q::tasks_of_requirement(&txn, id).await?;
        let untouched = tasks
            .iter()
            .all(|t| t.created_by == TaskOrigin::Plan && t.status == TaskStatus::Pending);
        if !untouched {
            return Ok(false);
        }
        for t in tasks {
            q::delete_task(&txn, t.id).await?;
        }
        q::delete_requirement(&txn, id).await?;
        if let Some(c) = chat_id {
            chat_q::delete_chat(&txn, c).await?;
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(true)
    }

    pub async fn requirements(&self) -> Result<Vec<RequirementDto>, DbErr> {
        Ok(q::list_requirements(&self.db)
            .await?
            .iter()
            .map(requirement_dto)
            .collect())
    }
}

pub(crate) fn task_dto(t: &task::Model) -> TaskDto {
    TaskDto {
        id: t.id,
        owner_id: t.owner_id,
        description: t.description.clone(),
        status: t.status,
        requirement_id: t.requirement_id,
        created_by: t.created_by,
        created_at: t
            .created_at
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        result: t.result.clone(),
        resolved_at: t
            .resolved_at
            .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        parent_task_id: t.parent_task_id,
        trace_id: t.trace_id.clone(),
        attempt: t.attempt,
        review_of: t.review_of,
        kind: t.kind,
        condition: t.condition.clone(),
        needs_review: t.needs_review,
    }
}

pub(crate) fn requirement_dto(r: &requirement::Model) -> RequirementDto {
    RequirementDto {
        id: r.id,
        name: r.name.clone(),
        description: r.description.clone(),
        department_id: r.department_id,
        status: r.status,
        chat_id: r.chat_id,
        reviewer_id: r.reviewer_id,
        owner_id: r.owner_id,
        created_at: r
            .created_at
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    }
}
