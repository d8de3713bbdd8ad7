//! onResolve (SPEC §6): where a resolved task's report goes, when it is written, and
//! the thought that writes it.
//!
//! A report is owed from the moment it is scheduled until its copy is in the mailbox
//! (`task.report_due_at`), so neither a stop nor a failed model call loses it: owed
//! reports are scheduled again at start and taken up at the owner's next poll.

use crate::work::TaskOrigin;
use cubicle_store::work as wq;

use super::{Engine, Focus, WakeReason, lock};

impl Engine {
    /// onResolve (SPEC §6): the owner reports a resolved task in its target chat (the
    /// boss chat unless the task names another), in its own voice; a copy goes to the
    /// mailbox.
    pub(super) async fn report(
        &self,
        employee_id: i32,
        task_id: i32,
    ) -> Result<(), cubicle_store::DbErr> {
        let db = &self.core().db;
        let Some(t) = wq::find_task(db, task_id).await? else {
            return Ok(());
        };
        if t.report_due_at.is_none() {
            // Written already (a second wake-up for the same report).
            return Ok(());
        }
        if t.owner_id != employee_id || t.status != crate::work::TaskStatus::Resolved {
            // Reopened or handed over since: nobody owes this report any more.
            return wq::set_report_due(db, task_id, None).await;
        }
        let chat_id = self
            .report_chat(
                employee_id,
                t.on_resolve_target.as_deref(),
                t.requirement_id,
            )
            .await?;
        self.think(employee_id, Some(chat_id), Focus::Report { task_id })
            .await
    }

    /// The oldest report `employee_id` owes in `chat_id` that has fallen due. Whatever
    /// wakes the employee there writes that report first: its other thoughts in the
    /// chat would otherwise take the posts its gates allow, and a report, the step that
    /// closes a story, could wait behind them for ever.
    pub(super) async fn report_due_in(
        &self,
        employee_id: i32,
        chat_id: i32,
    ) -> Result<Option<cubicle_store::entity::task::Model>, cubicle_store::DbErr> {
        let now = self.now();
        for t in wq::reports_due(&self.core().db, Some(employee_id)).await? {
            if t.report_due_at.is_none_or(|due| due > now) {
                break; // oldest due first: the rest are later still
            }
            let target = t.on_resolve_target.as_deref();
            if self
                .report_chat(employee_id, target, t.requirement_id)
                .await?
                == chat_id
            {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// Where a task's report goes: `chat:<id>` when the owner is a member there; else,
    /// for work on a requirement, its group chat (where the work is discussed, so the
    /// team sees it; the boss still gets the mailbox copy); else the owner's chat with
    /// the boss.
    async fn report_chat(
        &self,
        employee_id: i32,
        target: Option<&str>,
        requirement: Option<i32>,
    ) -> Result<i32, cubicle_store::DbErr> {
        let db = &self.core().db;
        let named = target
            .and_then(|t| t.strip_prefix("chat:"))
            .and_then(|id| id.trim().parse::<i32>().ok());
        let group = match (target, requirement) {
            (None, Some(r)) => wq::find_requirement(db, r).await?.and_then(|r| r.chat_id),
            _ => None,
        };
        for id in [named, group].into_iter().flatten() {
            if cubicle_store::chat::find_member(db, id, employee_id)
                .await?
                .is_some()
            {
                return Ok(id);
            }
        }
        Ok(self.boss_chat(employee_id).await?.id)
    }

    /// The group chat of the requirement the employee's oldest pending one-shot task
    /// (or, with `plans_only`, planning task) belongs to, when it is a member there:
    /// work on a requirement is discussed in its group, not in the boss's private chat.
    pub(super) async fn work_chat(
        &self,
        employee_id: i32,
        tasks: &[cubicle_store::entity::task::Model],
        plans_only: bool,
    ) -> Result<Option<cubicle_store::entity::chat::Model>, cubicle_store::DbErr> {
        let db = &self.core().db;
        let Some(r) = tasks
            .iter()
            .filter(|t| t.kind == crate::work::TaskKind::Oneshot)
            .filter(|t| !plans_only || t.created_by == TaskOrigin::Plan)
            .find_map(|t| t.requirement_id)
        else {
            return Ok(None);
        };
        let Some(chat_id) = wq::find_requirement(db, r).await?.and_then(|r| r.chat_id) else {
            return Ok(None);
        };
        if cubicle_store::chat::find_member(db, chat_id, employee_id)
            .await?
            .is_none()
        {
            return Ok(None);
        }
        cubicle_store::chat::find_chat(db, chat_id).await
    }

    /// The employee's chat with the boss, created on first use.
    pub(crate) async fn boss_chat(
        &self,
        employee_id: i32,
    ) -> Result<cubicle_store::entity::chat::Model, cubicle_store::DbErr> {
        match self.core().chats.boss_chat_model(employee_id).await {
            Ok(c) => Ok(c),
            Err(crate::chat::ChatError::Storage(e)) => Err(e),
            Err(e) => Err(cubicle_store::DbErr::Custom(e.to_string())),
        }
    }

    /// Owes the report of a task resolved just now and schedules it, soon; if the
    /// target chat's gates are still closed then (the thought that resolved the task may
    /// have just spoken there), the report waits for them to reopen.
    pub(crate) async fn owe_report(
        &self,
        employee_id: i32,
        task_id: i32,
    ) -> Result<(), cubicle_store::DbErr> {
        let delay = {
            let mut rng = lock(&self.inner.rng);
            self.inner.config.nudge.absorb_wait(&mut *rng)
        };
        let at = self.now() + delay;
        wq::set_report_due(&self.core().db, task_id, Some(at)).await?;
        self.schedule(at, employee_id, WakeReason::Report { task_id });
        Ok(())
    }

    /// Schedules the reports still owed — everyone's (at start), or one employee's (at
    /// its poll: a report thought that failed, or was stopped by the day's budget, is
    /// tried again with the employee's next thought). A report whose owner has left is
    /// no longer owed.
    pub(crate) async fn take_up_owed_reports(
        &self,
        owner: Option<i32>,
    ) -> Result<(), cubicle_store::DbErr> {
        let db = &self.core().db;
        let now = self.now();
        for t in wq::reports_due(db, owner).await? {
            let active = cubicle_store::org::find_employee(db, t.owner_id)
                .await?
                .is_some_and(|e| e.fired_at.is_none());
            if !active {
                wq::set_report_due(db, t.id, None).await?;
                continue;
            }
            let at = t.report_due_at.map_or(now, |due| due.max(now));
            self.schedule(at, t.owner_id, WakeReason::Report { task_id: t.id });
        }
        Ok(())
    }
}
