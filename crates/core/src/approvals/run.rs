//! Running approved actions (SPEC §8): once, by whoever claimed the run, with the
//! outcome recorded and the requester told.
//!
//! Where an action runs: where it was decided (the app with its engine, the CLI — the
//! run is claimed together with the decision), except on a desktop attached to a company
//! server ([`Approvals::running_here`]`(false)`), which only records the decision; the
//! server's engine then runs what is queued, each once, in the server's workspace and
//! from its network, and tells the requester how it went.

use cubicle_store::entity::approval;
use cubicle_store::{DbErr, approval as q, org as oq};
use sea_orm::ActiveEnum;

use super::{ApprovalError, Approvals, DecidedVia, Decision, LogEntry, Outcome};
use crate::events::DomainEvent;
use crate::tools::{self, ToolContext, ToolError};

impl Approvals {
    /// Runs every approved action nobody has started, oldest first; each is claimed
    /// before it runs, so two engines (or a restart racing a decision) never run one
    /// twice. Returns the ids run here. Nothing happens where this process only decides.
    pub async fn run_queued(&self) -> Result<Vec<i32>, ApprovalError> {
        let mut ran = Vec::new();
        if !self.run_here {
            return Ok(ran);
        }
        for row in q::queued_runs(&self.db).await? {
            if !q::claim_run(&self.db, row.id, self.clock.now()).await? {
                continue;
            }
            tracing::info!(approval_id = row.id, tool = %row.tool, "running an approval decided elsewhere");
            let via = row.decided_via.unwrap_or(DecidedVia::Ui);
            let row = self.reload(row.id).await?;
            self.conclude(&row, Decision::Approve, via).await?;
            ran.push(row.id);
        }
        Ok(ran)
    }

    /// After a decision this process owns the outcome of: runs an approved action,
    /// frees the requester and tells it what happened.
    pub(super) async fn conclude(
        &self,
        row: &approval::Model,
        decision: Decision,
        via: DecidedVia,
    ) -> Result<(), ApprovalError> {
        let verb = decision.status().to_value();
        let outcome = if decision == Decision::Approve {
            match self.execute(row).await? {
                Ok(_) => "It was done.".to_owned(),
                Err(e) => format!("It failed: {e}"),
            }
        } else {
            "Nothing was done.".to_owned()
        };
        self.settle_requester(row.employee_id).await?;
        let summary = tools::describe_short(&row.tool, &row.args);
        let decider = if via == DecidedVia::Policy {
            "The approval policy"
        } else {
            "The boss"
        };
        self.tell_requester(
            row,
            &format!("{decider} {verb} your request to {summary}. {outcome}"),
        )
        .await;
        Ok(())
    }

    /// Runs an approved action once (the caller claimed the decision) and records what
    /// happened. The stored arguments must still hash to what was approved.
    pub(super) async fn execute(
        &self,
        row: &approval::Model,
    ) -> Result<Result<serde_json::Value, ToolError>, DbErr> {
        let result = self.run_approved(row).await;
        let now = self.clock.now();
        let (value, error) = match &result {
            Ok(v) => (Some(v.clone()), None),
            Err(e) => (None, Some(e.to_string())),
        };
        q::record_execution(&self.db, row.id, value, error.clone(), now).await?;
        self.log(LogEntry {
            employee_id: row.employee_id,
            tool: &row.tool,
            args: &row.args,
            risk: Some(row.risk),
            outcome: if result.is_ok() {
                Outcome::Ok
            } else {
                Outcome::Error
            },
            output: Some(match &result {
                Ok(v) => v.to_string(),
                Err(e) => e.to_string(),
            }),
            approval_id: Some(row.id),
            trace_id: row.trace_id.as_deref(),
        })
        .await?;
        self.bus.publish(DomainEvent::ApprovalDecided {
            approval_id: row.id,
        });
        Ok(result)
    }

    async fn run_approved(&self, row: &approval::Model) -> Result<serde_json::Value, ToolError> {
        // Checked again right before it runs, with this process's key: a decision made on
        // an attached desktop, or a row edited after its decision, is held to its seal here.
        let sealed = self
            .seal
            .verify(&row.tool, &row.args, &row.args_hash)
            .await?;
        if !sealed {
            tracing::warn!(
                approval_id = row.id,
                "approved arguments do not match their seal; not run"
            );
            return Err(ToolError::ArgsChanged);
        }
        let e = oq::find_employee(&self.db, row.employee_id)
            .await?
            .ok_or(ToolError::EmployeeNotFound(row.employee_id))?;
        if e.fired_at.is_some() {
            return Err(ToolError::NotConfigured(format!(
                "{} no longer works here",
                e.name
            )));
        }
        let cx = ToolContext {
            runtime: &self.runtime,
            employee: &e,
        };
        tools::execute(&cx, &row.tool, row.args.clone()).await
    }
}
