//! Running approved actions (SPEC §8): once, by whoever claimed the run, with the
//! outcome recorded and the requester told.
//!
//! Where an action runs: where it was decided (the app with its engine, the CLI — the
//! run is claimed together with the decision), except on a desktop attached to a company
//! server ([`Approvals::running_here`]`(false)`), which only records the decision; the
//! server's engine then runs what is queued, each once, in the server's workspace and
//! from its network, and tells the requester how it went.
//!
//! Right before anything runs, the row as it is then must still hold what was decided:
//! its arguments their seal, its decision the seal its decider made (or, on PostgreSQL,
//! a decision only the database's rights let be made), and the run must have begun
//! before the approval expired. Otherwise nothing runs ([`NotRun`]), the row and the
//! tool-call log say why, the requester is told and the boss gets a mailbox item.

use cubicle_store::entity::approval;
use cubicle_store::{DbErr, approval as q, org as oq};
use sea_orm::DbBackend;

use super::{
    ApprovalError, ApprovalStatus, Approvals, DecidedVia, Decision, DecisionRecord, LogEntry,
    NotRun, Outcome,
};
use crate::events::DomainEvent;
use crate::tools::{self, ToolContext, ToolError};
use crate::types::Language;

impl Approvals {
    /// Runs every approved action nobody has started, oldest first; each is claimed
    /// before it runs, so two engines (or a restart racing a decision) never run one
    /// twice. Returns the ids run here (not those refused as [`NotRun`]). Nothing happens
    /// where this process only decides.
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
            if self.conclude(&row, Decision::Approve, via).await? {
                ran.push(row.id);
            }
        }
        Ok(ran)
    }

    /// After a decision this process owns the outcome of: runs an approved action,
    /// frees the requester and tells it what happened. False when an approved action was
    /// not run because its decision does not hold ([`NotRun`]).
    pub(super) async fn conclude(
        &self,
        row: &approval::Model,
        decision: Decision,
        via: DecidedVia,
    ) -> Result<bool, ApprovalError> {
        let lang = self.mailbox.language().await?;
        let mut error = None;
        if decision == Decision::Approve {
            match self.execute(row).await? {
                Ok(_) => {}
                // Nobody may have decided it: the requester hears that, not "approved".
                Err(ToolError::NotRun(why)) => {
                    self.settle_requester(row.employee_id).await?;
                    let texts = not_run_texts(row, why, lang);
                    self.tell_requester(row, &texts.note).await;
                    return Ok(false);
                }
                Err(e) => error = Some(e.in_language(lang)),
            }
        }
        self.settle_requester(row.employee_id).await?;
        let line = super::told::outcome_line(
            row,
            decision == Decision::Approve,
            via == DecidedVia::Policy,
            error.as_deref(),
            lang,
        );
        self.tell_requester(row, &line).await;
        Ok(true)
    }

    /// Runs an approved action once (the caller claimed the decision) and records what
    /// happened. The stored arguments must still hash to what was approved.
    pub(super) async fn execute(
        &self,
        row: &approval::Model,
    ) -> Result<Result<serde_json::Value, ToolError>, DbErr> {
        let result = self.run_approved(row).await;
        let now = self.clock.now();
        let lang = self.mailbox.language().await?;
        if let Err(e) = &result {
            tracing::info!(approval_id = row.id, error = %e, "approved action failed");
        }
        let (value, error) = match &result {
            Ok(v) => (Some(v.clone()), None),
            Err(e) => (None, Some(e.in_language(lang))),
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
                Err(e) => e.in_language(lang),
            }),
            approval_id: Some(row.id),
            trace_id: row.trace_id.as_deref(),
        })
        .await?;
        self.bus.publish(DomainEvent::ApprovalDecided {
            approval_id: row.id,
        });
        if let Err(ToolError::NotRun(why)) = &result {
            self.tell_the_boss_it_did_not_run(row, *why).await?;
        }
        Ok(result)
    }

    /// Whether `row`, as it is right before it runs, holds a decision the engine can
    /// stand behind: approved, sealed by whoever decided it with this company's key, and
    /// its run begun before the approval expired. On PostgreSQL the database itself says
    /// who could have decided, sealed or not (a desktop attached to the server has no
    /// copy of the server's key, or a key of its own): its row security and column grants
    /// let a person decide only what is routed to them, in their own name, and anyone
    /// else is the schema's owner, trusted as the engine is. SQLite has no such rights:
    /// anyone with the file can write any row, so there every decision must be sealed.
    async fn check_decision(&self, row: &approval::Model) -> Result<(), ToolError> {
        let sealed = match &row.decision_seal {
            Some(seal) => {
                self.seal
                    .verify_decision(&DecisionRecord::of(row), seal)
                    .await?
            }
            None => false,
        };
        let vouched = sealed || self.db.get_database_backend() == DbBackend::Postgres;
        if row.status != ApprovalStatus::Approved || !vouched {
            return Err(NotRun::Unsealed.into());
        }
        let began = row.run_started_at.unwrap_or_else(|| self.clock.now());
        if began >= row.expires_at {
            return Err(NotRun::Late.into());
        }
        Ok(())
    }

    /// The boss hears, in the mailbox and in the company's language, that an approved
    /// action did not run and why.
    async fn tell_the_boss_it_did_not_run(
        &self,
        row: &approval::Model,
        why: NotRun,
    ) -> Result<(), DbErr> {
        tracing::warn!(approval_id = row.id, tool = %row.tool, reason = %why, "approved action not run");
        let texts = not_run_texts(row, why, self.mailbox.language().await?);
        self.escalate(row, texts.title, texts.body).await;
        Ok(())
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
        self.check_decision(row).await?;
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

/// What the boss and the requester are told about an approved action that did not run.
struct NotRunTexts {
    title: String,
    body: String,
    /// For the requester's chat with the boss.
    note: String,
}

fn not_run_texts(row: &approval::Model, why: NotRun, language: Language) -> NotRunTexts {
    let summary = tools::describe_short(&row.tool, &row.args, language);
    let (id, expired) = (row.id, crate::chat::rfc3339(row.expires_at));
    let (title, body, note) = match (language, why) {
        (Language::ZhCn, NotRun::Unsealed) => (
            format!("未执行：{}", row.tool),
            format!(
                "请求 #{id}（{summary}）被标记为已批准，但不是在 Cubicle 里做出的决定：它的记录在应用之外被改过（有人直接改了公司的数据库）。什么都没有执行。如果仍然需要，请让员工重新发起，在这里决定；也请查一查谁能改动公司的数据库。"
            ),
            format!(
                "你的请求（{summary}）在 Cubicle 之外被标记为已批准，并不是真正的决定；它没有被执行。"
            ),
        ),
        (Language::ZhCn, NotRun::Late) => (
            format!("未执行：{}", row.tool),
            format!(
                "请求 #{id}（{summary}）已获批准，但在审批过期（{expired}）之前没有开始执行；什么都没有执行。如果仍然需要，请重新发起。"
            ),
            format!("你的请求（{summary}）已获批准，但在审批过期前没有开始执行；它没有被执行。"),
        ),
        (Language::En, NotRun::Unsealed) => (
            format!("Not run: {}", row.tool),
            format!(
                "Approval #{id} ({summary}) was marked approved, but not by a decision made in Cubicle: its row was changed outside the app, by someone who can write the company's database. Nothing was run. If it is still needed, let the employee ask again and decide it here; and check who can change the company's database."
            ),
            format!(
                "Your request to {summary} was marked approved outside Cubicle, not by a decision; it was not run."
            ),
        ),
        (Language::En, NotRun::Late) => (
            format!("Not run: {}", row.tool),
            format!(
                "Approval #{id} ({summary}) was approved, but its run had not begun when the approval expired ({expired}). Nothing was run; ask again if it is still needed."
            ),
            format!(
                "Your request to {summary} was approved, but it had not begun when the approval expired; it was not run."
            ),
        ),
    };
    NotRunTexts { title, body, note }
}
