//! onResolve (SPEC §6): where a resolved task's report goes, when it is written, and
//! the thought that writes it.

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
        let Some(t) = cubicle_store::work::find_task(&self.core().db, task_id).await? else {
            return Ok(());
        };
        if t.owner_id != employee_id || t.status != "resolved" {
            return Ok(());
        }
        let chat_id = self
            .report_chat(employee_id, t.on_resolve_target.as_deref())
            .await?;
        self.think(employee_id, Some(chat_id), Focus::Report { task_id })
            .await
    }

    /// Where a task's report goes: `chat:<id>` when the owner is a member there, else
    /// the owner's chat with the boss.
    async fn report_chat(
        &self,
        employee_id: i32,
        target: Option<&str>,
    ) -> Result<i32, cubicle_store::DbErr> {
        let db = &self.core().db;
        if let Some(id) = target
            .and_then(|t| t.strip_prefix("chat:"))
            .and_then(|id| id.trim().parse::<i32>().ok())
            && cubicle_store::chat::find_member(db, id, employee_id)
                .await?
                .is_some()
        {
            return Ok(id);
        }
        Ok(self.boss_chat(employee_id).await?.id)
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

    /// Schedules the report of a task resolved just now, soon; if the target chat's
    /// gates are still closed then (the thought that resolved the task may have just
    /// spoken there), the report waits for them to reopen.
    pub(crate) fn schedule_report(&self, employee_id: i32, task_id: i32) {
        let delay = {
            let mut rng = lock(&self.inner.rng);
            self.inner.config.nudge.absorb_wait(&mut *rng)
        };
        self.schedule(
            self.now() + delay,
            employee_id,
            WakeReason::Report { task_id },
        );
    }
}
