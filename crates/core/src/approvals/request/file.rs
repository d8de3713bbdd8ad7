//! Filing a waiting approval: the sealed row, its log line and the employee set waiting,
//! in one transaction, once under the call's key; the same call while one waits is that
//! one.

use chrono::{DateTime, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::approval;
use cubicle_store::{DatabaseTransaction, DbErr, approval as q, effect};
use sea_orm::ActiveValue::{NotSet, Set};

use super::{CallOutcome, NewApproval};
use crate::approvals::{ApprovalStatus, Approvals, LogEntry, Outcome};
use crate::events::DomainEvent;
use crate::tools::ToolError;
use crate::types::EmployeeStatus;

/// An approval row filed (waiting) inside a transaction its filer still has to finish.
pub(super) struct Filing {
    pub(super) txn: DatabaseTransaction,
    pub(super) row: approval::Model,
    pub(super) now: DateTime<Utc>,
}

impl Approvals {
    /// Files the call as a waiting approval, logs it and sets the employee waiting, in
    /// one transaction; the same call while one is waiting is that one.
    pub(super) async fn file_waiting(
        &self,
        new: NewApproval<'_>,
    ) -> Result<CallOutcome, ToolError> {
        let (asked, args, risk) = (new.asked, new.args, new.risk);
        let (e, call) = (asked.employee, asked.call);
        let seal = self.seal.seal(&call.tool, args).await?;
        if let Some(existing) = q::find_waiting_same(&self.db, e.id, &call.tool, &seal).await? {
            self.log_asked(
                asked,
                Outcome::WaitingApproval,
                None,
                args,
                Some(existing.id),
            )
            .await?;
            return Ok(CallOutcome::Waiting(existing.id));
        }
        let Some(Filing { txn, row, now }) = self.begin_filing(new, seal).await? else {
            return Ok(CallOutcome::Refused("already asked".into()));
        };
        let entry = LogEntry {
            employee_id: e.id,
            tool: &call.tool,
            args,
            risk: Some(risk),
            outcome: Outcome::WaitingApproval,
            output: None,
            approval_id: Some(row.id),
            trace_id: asked.trace_id,
        };
        q::insert_tool_call(&txn, Self::log_row(entry, now)).await?;
        q::set_employee_status(&txn, e.id, EmployeeStatus::WaitingApproval, None).await?;
        if let Some(key) = asked.key {
            effect::set_row(&txn, key, row.id).await?;
        }
        txn.commit().await?;
        tracing::info!(approval_id = row.id, employee_id = e.id, tool = %call.tool, "approval requested");
        self.bus.publish(DomainEvent::ApprovalRequested {
            approval_id: row.id,
        });
        self.bus
            .publish(DomainEvent::EmployeeUpdated { employee_id: e.id });
        Ok(CallOutcome::Waiting(row.id))
    }

    /// Opens the transaction a request is filed in: claims the call's key (`None` when
    /// it was already asked) and inserts the sealed row, waiting.
    pub(super) async fn begin_filing(
        &self,
        new: NewApproval<'_>,
        seal: String,
    ) -> Result<Option<Filing>, DbErr> {
        let now = self.clock.now();
        let txn = self.db.begin_write().await?;
        if let Some(key) = new.asked.key
            && !effect::claim(&txn, key, now).await?
        {
            return Ok(None);
        }
        let NewApproval {
            asked,
            approver_id,
            args,
            risk,
            chain,
        } = new;
        let row = q::insert_approval(
            &txn,
            approval::ActiveModel {
                id: NotSet,
                employee_id: Set(asked.employee.id),
                tool: Set(asked.call.tool.clone()),
                args: Set(args.clone()),
                args_hash: Set(seal),
                reason: Set(asked.call.reason.chars().take(2000).collect()),
                risk: Set(risk),
                trace_id: Set(asked.trace_id.map(str::to_owned)),
                chat_id: Set(asked.chat_id),
                status: Set(ApprovalStatus::Waiting),
                created_at: Set(now),
                expires_at: Set(now + self.ttl),
                decided_at: Set(None),
                decided_via: Set(None),
                note: Set(None),
                authorization_chain: Set(serde_json::to_value(&chain).unwrap_or_default()),
                result: Set(None),
                error: Set(None),
                executed_at: Set(None),
                run_started_at: Set(None),
                approver_id: Set(approver_id),
                decided_by: Set(None),
                decision_seal: Set(None),
            },
        )
        .await?;
        Ok(Some(Filing { txn, row, now }))
    }
}
