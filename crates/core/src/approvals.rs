//! Approvals (SPEC §8): the whole state machine, `waiting → approved | rejected |
//! expired`, and the only way a tool runs.
//!
//! [`Approvals::request`] is what an employee's thought calls: it applies the
//! whitelist and the approval policy, runs what may run at once and files the rest as a
//! waiting approval sealed with an HMAC of the exact tool and its canonical arguments
//! under the company's approval key ([`Seal`]).
//! [`Approvals::decide`] is what the boss's UI, a notification's buttons, the CLI or a
//! policy call; nothing a model writes reaches it. An approval carries the seal of what
//! its decider displayed: one that differs, or a row whose arguments no longer match
//! its seal, is refused. Deciding is claimed by a conditional
//! UPDATE (`WHERE status = 'waiting'`), so however many deciders race, one wins and the
//! action runs once; a decider holding the key seals its decision in that same UPDATE,
//! and nothing runs whose decision does not match the row right before it runs (see
//! `run`). Nothing an approval describes happens before it is approved.
//!
//! For the parts built on top of this:
//! - the thought integration calls `request` with the thought's `trace_id` and chat and
//!   tells the model the [`CallOutcome`]; a waiting call is resumed by nobody — the
//!   requester hears the decision as a system note in its chat with the boss;
//! - the engine's scheduler calls `expire_due(now)` at `next_expiry()`;
//! - notifications listen for `ApprovalRequested`, show `ApprovalDto::summary`, and call
//!   `decide(.., DecidedVia::Notification, ..)`; `ApprovalDecided` is sent on the decision
//!   and again once the approved action has run (with its result or error);
//! - a crash between claiming an approval and running it leaves it `approved` with no
//!   `executed_at`: it is not re-run automatically, since whether it ran is unknown;
//!   [`Approvals::flag_interrupted`] (at engine start) notes it and tells the boss.
//!
//! The state machine's steps live beside this file, one module per use case: asking
//! (`request/`), deciding one or a batch (`decide/`), sealing the waiting anew after an
//! import (`reseal`), expiring (`expiry`), running what was approved (`run`), crash
//! safety (`recovery`) and the tool-call log (`call_log`); the seal itself (`seal`) is
//! what they share.

mod call_log;
mod decide;
mod destinations;
mod employee_tools;
mod expiry;
pub mod policy;
mod recovery;
mod request;
mod reseal;
mod run;
mod seal;
mod told;
mod types;
pub mod watch;

use call_log::{LogEntry, Outcome};
pub use decide::{DecideApproval, DecideApprovals, Decider, Decision, DecisionResult};
pub use employee_tools::*;
pub use recovery::INTERRUPTED;
pub use request::CallOutcome;
pub use seal::{APPROVAL_KEY_ENV, DecisionRecord, KeySource, Seal, SealError};
pub use told::{BUDGET_FIX, budget_line, budget_note, tools_fix, webhooks_fix};
pub use types::*;
use types::{dto, tool_call_dto};

use std::time::Duration;

use chrono::TimeDelta;
use cubicle_store::entity::{approval, employee};
use cubicle_store::{Db, DbErr, approval as q, org as oq};
use sea_orm::ActiveValue::Set;
use sea_orm::Iterable;

use crate::chat::Chats;
use crate::clock::SharedClock;
use crate::events::{DomainEvent, EventBus};
use crate::mailbox::{MailKind, Mailbox, NewMail};
use crate::secrets::SecretStore;
use crate::tools::ToolRuntime;
use crate::types::{ApprovalPolicy, EmployeeStatus};

/// SPEC §8: an unanswered approval expires after a day (configurable).
pub const DEFAULT_APPROVAL_TTL: Duration = Duration::from_secs(24 * 3600);
/// The most rows a listing returns.
const LIST_LIMIT: u64 = 500;

#[derive(Clone)]
pub struct Approvals {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
    chats: Chats,
    mailbox: Mailbox,
    runtime: ToolRuntime,
    ttl: TimeDelta,
    /// Whether an approved action runs where it is decided (the app with its engine,
    /// the CLI); not on a desktop attached to a company server, whose engine runs it.
    run_here: bool,
    /// The person this process signs in as on a company server (their own database
    /// role): every decision here is theirs, whoever the caller names.
    signed_in: Option<i32>,
    /// The company's approval key: what binds a decision to what the boss saw.
    seal: Seal,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals")
            .field("runtime", &self.runtime)
            .finish_non_exhaustive()
    }
}

impl Approvals {
    pub fn new(
        db: Db,
        bus: EventBus,
        clock: SharedClock,
        chats: Chats,
        mailbox: Mailbox,
        runtime: ToolRuntime,
        ttl: Duration,
    ) -> Self {
        Self {
            db: db.clone(),
            bus,
            clock,
            chats,
            mailbox,
            runtime,
            ttl: TimeDelta::from_std(ttl).unwrap_or(TimeDelta::days(1)),
            run_here: true,
            signed_in: None,
            seal: Seal::new(db, None),
        }
    }

    /// Keeps the approval key in `secrets` (the OS keychain) instead of this process.
    pub fn sealed_with(mut self, secrets: std::sync::Arc<dyn SecretStore>) -> Self {
        self.seal = Seal::new(self.db.clone(), Some(secrets));
        self
    }

    /// The company's approval key.
    pub fn seal(&self) -> &Seal {
        &self.seal
    }

    /// With `run_here` false, decisions only: an approved action is queued for the
    /// company server's engine ([`Approvals::run_queued`]) instead of running here — for
    /// a desktop attached to a shared database, so actions run on the server, in its
    /// workspace.
    pub fn running_here(mut self, run_here: bool) -> Self {
        self.run_here = run_here;
        self
    }

    /// Every decision made here is `person_id`'s: a process signed in to a company
    /// server as a person's own role (the database enforces it as well).
    pub fn signed_in_as(mut self, person_id: Option<i32>) -> Self {
        self.signed_in = person_id;
        self
    }

    /// The tools and the workspace they run in.
    pub fn runtime(&self) -> &ToolRuntime {
        &self.runtime
    }

    /// Approvals waiting for the boss (the badge); signed in as a person, theirs.
    pub async fn pending_count(&self) -> Result<u64, ApprovalError> {
        self.pending_count_for(Decider::Boss).await
    }

    /// How many approvals wait in `decider`'s queue ([`Approvals::pending_for`]): the
    /// tray's count on a desktop someone is using.
    pub async fn pending_count_for(&self, decider: Decider) -> Result<u64, ApprovalError> {
        match (decider, self.signed_in) {
            (Decider::Boss, None) => Ok(q::count_waiting(&self.db, None).await?),
            _ => Ok(self.pending_for(decider).await?.len() as u64),
        }
    }

    /// The person this process signs in as on a company server, if any.
    pub fn signed_in(&self) -> Option<i32> {
        self.signed_in
    }

    pub async fn get(&self, id: i32) -> Result<ApprovalDto, ApprovalError> {
        self.dto(&self.reload(id).await?).await
    }

    pub async fn list(&self, filter: ApprovalFilter) -> Result<Vec<ApprovalDto>, ApprovalError> {
        let rows = match filter {
            ApprovalFilter::Pending => {
                let mut rows =
                    q::list_approvals(&self.db, &[ApprovalStatus::Waiting], None, LIST_LIMIT)
                        .await?;
                rows.reverse();
                // Signed in as a person: their queue (and so their notifications and badge).
                if let Some(me) = self.signed_in {
                    rows.retain(|r| r.approver_id == Some(me));
                }
                rows
            }
            ApprovalFilter::History {
                status,
                employee_id,
            } => {
                let statuses: Vec<ApprovalStatus> = match status {
                    Some(s) => vec![s],
                    None => ApprovalStatus::iter()
                        .filter(|s| *s != ApprovalStatus::Waiting)
                        .collect(),
                };
                q::list_approvals(&self.db, &statuses, employee_id, LIST_LIMIT).await?
            }
        };
        let names = crate::chat::Names::load(&self.db).await?;
        let lang = self.mailbox.language().await?;
        Ok(rows
            .iter()
            .map(|r| dto(r, names.person(r.employee_id), lang))
            .collect())
    }

    /// The queue as `decider` sees it: the boss sees every waiting approval, a person the
    /// ones routed to them (signed in as a person, "the boss" is them). Oldest first.
    pub async fn pending_for(&self, decider: Decider) -> Result<Vec<ApprovalDto>, ApprovalError> {
        // Signed in as a person, the list is already theirs.
        let all = self.list(ApprovalFilter::Pending).await?;
        Ok(all
            .into_iter()
            .filter(|a| decider.sees(a.approver_id))
            .collect())
    }

    /// The tool-call log, newest first (all employees when `None`).
    pub async fn tool_calls(
        &self,
        employee_id: Option<i32>,
    ) -> Result<Vec<ToolCallDto>, ApprovalError> {
        Ok(q::list_tool_calls(&self.db, employee_id, None, LIST_LIMIT)
            .await?
            .iter()
            .map(tool_call_dto)
            .collect())
    }

    /// Sets (or with `None` clears) an employee's own approval policy.
    pub async fn set_employee_policy(
        &self,
        employee_id: i32,
        policy: Option<ApprovalPolicy>,
    ) -> Result<(), ApprovalError> {
        self.set_employee_field(employee_id, |am| {
            am.approval_policy = Set(policy);
        })
        .await
    }

    /// Replaces the tools an employee may ask for (SPEC §8 whitelist).
    pub async fn set_tool_whitelist(
        &self,
        employee_id: i32,
        tools: Vec<String>,
    ) -> Result<(), ApprovalError> {
        self.set_employee_field(employee_id, |am| {
            am.tool_whitelist = Set(serde_json::json!(tools));
        })
        .await
    }

    /// Makes an employee a CLI employee (or not, with `None`): `run_cli` runs this.
    pub async fn set_cli_command(
        &self,
        employee_id: i32,
        command: Option<String>,
    ) -> Result<(), ApprovalError> {
        let command = command
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty());
        self.set_employee_field(employee_id, |am| am.cli_command = Set(command))
            .await
    }

    // ---------- internals ----------

    async fn set_employee_field(
        &self,
        employee_id: i32,
        f: impl FnOnce(&mut employee::ActiveModel),
    ) -> Result<(), ApprovalError> {
        use sea_orm::IntoActiveModel;
        let e = oq::find_employee(&self.db, employee_id)
            .await?
            .ok_or(ApprovalError::NotFound(employee_id))?;
        let mut am = e.into_active_model();
        f(&mut am);
        oq::update_employee(&self.db, am).await?;
        self.bus
            .publish(DomainEvent::EmployeeUpdated { employee_id });
        Ok(())
    }

    async fn reload(&self, id: i32) -> Result<approval::Model, ApprovalError> {
        q::find_approval(&self.db, id)
            .await?
            .ok_or(ApprovalError::NotFound(id))
    }

    async fn dto(&self, row: &approval::Model) -> Result<ApprovalDto, ApprovalError> {
        let name = oq::find_employee(&self.db, row.employee_id)
            .await?
            .map(|e| e.name)
            .unwrap_or_default();
        Ok(dto(row, &name, self.mailbox.language().await?))
    }

    /// The requester stops waiting once nothing of theirs waits any more.
    async fn settle_requester(&self, employee_id: i32) -> Result<(), DbErr> {
        if q::count_waiting(&self.db, Some(employee_id)).await? == 0
            && q::set_employee_status(
                &self.db,
                employee_id,
                EmployeeStatus::Idle,
                Some(EmployeeStatus::WaitingApproval),
            )
            .await?
        {
            self.bus
                .publish(DomainEvent::EmployeeUpdated { employee_id });
        }
        Ok(())
    }

    /// An escalation about `row` in the boss's mailbox. Best effort as well: what
    /// happened to the approval stands even if the mail cannot be filed.
    async fn escalate(&self, row: &approval::Model, title: String, body: String) {
        let filed = self
            .mailbox
            .file(NewMail {
                kind: MailKind::Escalation,
                employee_id: Some(row.employee_id),
                chat_id: row.chat_id,
                task_id: None,
                title,
                body,
                trace_id: row.trace_id.clone(),
            })
            .await;
        if let Err(e) = filed {
            tracing::warn!(error = %e, approval_id = row.id, "could not file the mail about an approval");
        }
    }

    /// A system note in the requester's chat with the boss. Best effort: the decision
    /// stands even if the note cannot be written (a former employee has no such chat).
    async fn tell_requester(&self, row: &approval::Model, text: &str) {
        let chat = match self.chats.boss_chat_model(row.employee_id).await {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!(error = %e, approval_id = row.id, "no chat to tell the requester in");
                return;
            }
        };
        if let Err(e) = self
            .chats
            .post_system_traced(chat.id, text, row.trace_id.clone())
            .await
        {
            tracing::warn!(error = %e, approval_id = row.id, "could not tell the requester");
        }
    }
}
