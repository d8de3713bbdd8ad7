//! Where a requirement stands, read from its tasks after each one ends: work pending →
//! in progress; only reviews pending → in review; nothing pending → done, unless a
//! deliverable needs the boss's review (then waiting for the boss). What went to
//! the boss holds it at "waiting for the boss" until the boss moves it on the board, and
//! a requirement the boss closed or cancelled stays so.

use crate::work::TaskOrigin;
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::task;
use cubicle_store::{DbErr, work as q};
use sea_orm::ActiveValue::Set;
use sea_orm::IntoActiveModel;

use super::board::RequirementStatus;
use super::{TaskStatus, Work};
use crate::events::DomainEvent;

/// A requirement whose work all ended just now, for the boss's mailbox.
#[derive(Clone, Debug, PartialEq)]
pub struct RequirementDone {
    pub requirement_id: i32,
    pub name: String,
    pub chat_id: Option<i32>,
    pub owner_id: Option<i32>,
    pub reviewer_id: Option<i32>,
    /// (description, result) of each piece of work, oldest first; reviews and the
    /// planning task left out.
    pub deliverables: Vec<(String, Option<String>)>,
    /// How many reviews passed.
    pub reviews_passed: usize,
}

impl Work {
    /// Moves requirement `id` to where its tasks say it stands; `Some` when this move
    /// is the one that finished it.
    pub async fn settle_requirement(&self, id: i32) -> Result<Option<RequirementDone>, DbErr> {
        let txn = self.db.begin_write().await?;
        let Some(r) = q::find_requirement(&txn, id).await? else {
            return Ok(None);
        };
        let now = r.status;
        let tasks = q::tasks_of_requirement(&txn, id).await?;
        let Some(next) = next_status(now, &tasks) else {
            return Ok(None);
        };
        let done = (next == RequirementStatus::Done).then(|| RequirementDone {
            requirement_id: r.id,
            name: r.name.clone(),
            chat_id: r.chat_id,
            owner_id: r.owner_id,
            reviewer_id: r.reviewer_id,
            deliverables: tasks
                .iter()
                .filter(|t| t.review_of.is_none() && t.created_by != TaskOrigin::Plan)
                .map(|t| (t.description.clone(), t.result.clone()))
                .collect(),
            reviews_passed: tasks
                .iter()
                .filter(|t| t.review_of.is_some() && t.status == TaskStatus::Resolved)
                .count(),
        });
        let mut am = r.into_active_model();
        am.status = Set(next);
        q::update_requirement(&txn, am).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(done)
    }

    /// A plan its owner resolved without giving out any work leaves the work with the
    /// owner: one task, the requirement itself, so it does not stall with nothing to do.
    pub async fn work_left_with_owner(
        &self,
        plan: &task::Model,
    ) -> Result<Option<super::TaskDto>, DbErr> {
        let Some(id) = plan
            .requirement_id
            .filter(|_| plan.created_by == TaskOrigin::Plan)
        else {
            return Ok(None);
        };
        let tasks = q::tasks_of_requirement(&self.db, id).await?;
        if tasks.iter().any(|t| t.id != plan.id) {
            return Ok(None);
        }
        let Some(r) = q::find_requirement(&self.db, id).await? else {
            return Ok(None);
        };
        let task = self
            .create(super::NewTask {
                requirement_id: Some(id),
                trace_id: plan.trace_id.clone(),
                ..super::NewTask::new(plan.owner_id, &r.description, TaskOrigin::Owner)
            })
            .await?;
        Ok(Some(task))
    }

    /// A colleague's review passed work whose deliverable the check had flagged: that
    /// review was the look it waited for, so the work counts as done. A rework that
    /// passed clears the attempts it redid as well (the work is one piece). Returns
    /// whether any flag was cleared.
    pub async fn clear_needs_review(&self, task_id: i32) -> Result<bool, DbErr> {
        let txn = self.db.begin_write().await?;
        let mut next = Some(task_id);
        let mut cleared = false;
        // Bounded: attempts are capped, and a broken chain must not loop.
        for _ in 0..=crate::guard::MAX_RERUNS {
            let Some(t) = (match next {
                Some(id) => q::find_task(&txn, id).await?,
                None => None,
            }) else {
                break;
            };
            next = t.parent_task_id.filter(|_| t.attempt > 0);
            if t.needs_review.is_some() {
                let mut am = t.into_active_model();
                am.needs_review = Set(None);
                q::update_task(&txn, am).await?;
                cleared = true;
            }
        }
        txn.commit().await?;
        if cleared {
            self.bus.publish(DomainEvent::WorkChanged);
        }
        Ok(cleared)
    }

    /// Work that was done but stopped on its way (a rework that repeats itself, a third
    /// rejection) waits for the boss: the task is no longer shown as resolved, and its
    /// requirement says it waits for the boss. A failed task keeps its status and holds
    /// its requirement the same way.
    pub async fn escalate(&self, task_id: i32) -> Result<(), DbErr> {
        let txn = self.db.begin_write().await?;
        let Some(t) = q::find_task(&txn, task_id).await? else {
            return Ok(());
        };
        let requirement = t.requirement_id;
        if t.status == TaskStatus::Resolved {
            let mut am = t.into_active_model();
            am.status = Set(TaskStatus::Escalated);
            q::update_task(&txn, am).await?;
        }
        if let Some(r) = requirement
            && let Some(r) = q::find_requirement(&txn, r).await?
            && !matches!(
                r.status,
                RequirementStatus::Done | RequirementStatus::Cancelled
            )
        {
            let mut am = r.into_active_model();
            am.status = Set(RequirementStatus::WaitingForBoss);
            q::update_requirement(&txn, am).await?;
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(())
    }
}

/// The status the tasks call for, when it differs from `now` and may change: the boss's
/// word (waiting, done, cancelled) is not overruled by the engine.
fn next_status(now: RequirementStatus, tasks: &[task::Model]) -> Option<RequirementStatus> {
    use RequirementStatus as S;
    if matches!(now, S::WaitingForBoss | S::Done | S::Cancelled) {
        return None;
    }
    // A plan alone is no work done: the requirement is done when work given out is.
    if !tasks
        .iter()
        .any(|t| t.created_by != TaskOrigin::Plan && t.review_of.is_none())
    {
        return None;
    }
    let pending = |review: bool| {
        tasks
            .iter()
            .any(|t| t.status == TaskStatus::Pending && t.review_of.is_some() == review)
    };
    // Work resolved with a deliverable that does not address its task is not done: it
    // waits for the boss like work that was stopped on its way.
    let needs_review = tasks.iter().any(|t| {
        t.review_of.is_none() && t.status == TaskStatus::Resolved && t.needs_review.is_some()
    });
    let next = if pending(false) {
        S::InProgress
    } else if pending(true) {
        S::InReview
    } else if needs_review {
        S::WaitingForBoss
    } else {
        S::Done
    };
    (next != now).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(id: i32, status: &str, review_of: Option<i32>) -> task::Model {
        task::Model {
            id,
            owner_id: 1,
            description: format!("t{id}"),
            kind: crate::work::TaskKind::Oneshot,
            condition: None,
            status: crate::types::read_name(status).unwrap(),
            result: None,
            on_resolve_target: None,
            on_resolve_hint: None,
            parent_task_id: None,
            requirement_id: Some(1),
            trace_id: None,
            created_by: TaskOrigin::Owner,
            created_at: chrono::Utc::now(),
            resolved_at: None,
            attempt: 0,
            review_of,
            report_due_at: None,
            needs_review: None,
        }
    }

    #[test]
    fn work_then_review_then_done_and_the_boss_word_stands() {
        use RequirementStatus as S;
        let working = [t(1, "resolved", None), t(2, "pending", None)];
        assert_eq!(next_status(S::Open, &working), Some(S::InProgress));
        assert_eq!(next_status(S::InProgress, &working), None);
        let reviewing = [t(1, "resolved", None), t(2, "pending", Some(1))];
        assert_eq!(next_status(S::InProgress, &reviewing), Some(S::InReview));
        let finished = [t(1, "resolved", None), t(2, "resolved", Some(1))];
        assert_eq!(next_status(S::InReview, &finished), Some(S::Done));
        // A rework after a rejection is work again.
        let rework = [
            t(1, "resolved", None),
            t(2, "failed", Some(1)),
            t(3, "pending", None),
        ];
        assert_eq!(next_status(S::InReview, &rework), Some(S::InProgress));
        // Work whose deliverable needs review holds the requirement for the boss.
        let mut unfit = t(1, "resolved", None);
        unfit.needs_review = Some(crate::work::ReviewReason::OffTopic);
        assert_eq!(
            next_status(S::InProgress, &[unfit.clone()]),
            Some(S::WaitingForBoss)
        );
        assert_eq!(
            next_status(S::InProgress, &[unfit, t(2, "pending", None)]),
            None,
            "still in progress while other work is pending"
        );
        for held in [S::WaitingForBoss, S::Done, S::Cancelled] {
            assert_eq!(next_status(held, &working), None, "{held:?}");
        }
        assert_eq!(next_status(S::Open, &[]), None);
        let mut plan = t(1, "resolved", None);
        plan.created_by = TaskOrigin::Plan;
        assert_eq!(
            next_status(S::InProgress, &[plan]),
            None,
            "a plan is not the work"
        );
    }
}
