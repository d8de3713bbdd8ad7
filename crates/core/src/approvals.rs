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
//! action runs once. Nothing an approval describes happens before it is approved.
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

mod destinations;
mod employee_tools;
pub mod policy;
mod recovery;
mod run;
mod seal;
mod types;
pub mod watch;

pub use employee_tools::*;
pub use recovery::INTERRUPTED;
pub use seal::{APPROVAL_KEY_ENV, KeySource, Seal, SealError};
pub use types::*;
use types::{dto, tool_call_dto};

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_store::entity::{approval, employee, tool_call};
use cubicle_store::{Db, DbErr, TransactionTrait, approval as q, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::{ActiveEnum, Iterable};

use crate::chat::Chats;
use crate::clock::SharedClock;
use crate::events::{DomainEvent, EventBus};
use crate::mailbox::{MailKind, Mailbox, NewMail};
use crate::meeting::arbitration::Link;
use crate::roles;
use crate::secrets::SecretStore;
use crate::tools::{self, Risk, ToolCall, ToolContext, ToolError, ToolRuntime};
use crate::types::{ApprovalPolicy, EmployeeStatus};

/// SPEC §8: an unanswered approval expires after a day (configurable).
pub const DEFAULT_APPROVAL_TTL: Duration = Duration::from_secs(24 * 3600);
/// The most rows a listing returns.
const LIST_LIMIT: u64 = 500;
/// A tool's output kept in the tool-call log.
const LOG_OUTPUT_CHARS: usize = 2000;

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

// What a call is logged as.
use types::CallLogOutcome as Outcome;

/// One approval row about to be filed, sealed.
struct NewApproval<'a> {
    employee: &'a employee::Model,
    call: &'a ToolCall,
    args: &'a serde_json::Value,
    seal: String,
    risk: Risk,
    trace_id: Option<&'a str>,
    chat_id: Option<i32>,
    chain: Vec<Link>,
    now: DateTime<Utc>,
}

struct LogEntry<'a> {
    employee_id: i32,
    tool: &'a str,
    args: &'a serde_json::Value,
    risk: Option<Risk>,
    outcome: Outcome,
    output: Option<String>,
    approval_id: Option<i32>,
    trace_id: Option<&'a str>,
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

    /// Seals every waiting approval anew with this company's key: for a company just
    /// imported, whose rows carry another company's seals, or seals whoever edited the
    /// file made up. The boss sees each one here before deciding it. Returns how many.
    pub async fn reseal_waiting(&self) -> Result<usize, ApprovalError> {
        let mut n = 0;
        for row in q::all_waiting(&self.db).await? {
            let seal = self.seal.seal(&row.tool, &row.args).await?;
            if q::reseal_waiting(&self.db, row.id, &seal).await? {
                n += 1;
            }
        }
        Ok(n)
    }

    /// With `run_here` false, decisions only: an approved action is queued for the
    /// company server's engine ([`Approvals::run_queued`]) instead of running here — for
    /// a desktop attached to a shared database, so actions run on the server, in its
    /// workspace.
    pub fn running_here(mut self, run_here: bool) -> Self {
        self.run_here = run_here;
        self
    }

    /// The tools and the workspace they run in.
    pub fn runtime(&self) -> &ToolRuntime {
        &self.runtime
    }

    /// An employee asks to use a tool. Refused when the tool is unknown, not on their
    /// whitelist or they no longer work here (logged either way); run at once when the
    /// effective policy allows; otherwise filed as a waiting approval (the same request
    /// while one is waiting returns that one) and the employee waits.
    pub async fn request(
        &self,
        employee_id: i32,
        call: ToolCall,
        trace_id: Option<&str>,
        chat_id: Option<i32>,
    ) -> Result<CallOutcome, ToolError> {
        let e = oq::find_employee(&self.db, employee_id)
            .await?
            .ok_or(ToolError::EmployeeNotFound(employee_id))?;
        let risk = tools::risk_of(&call.tool);
        let refusal = if e.fired_at.is_some() {
            Some(format!("{} no longer works here", e.name))
        } else if risk.is_none() {
            Some(format!("there is no tool named {:?}", call.tool))
        } else if !tools::whitelisted(&roles::json_strings(&e.tool_whitelist), &call.tool) {
            Some(format!("{} is not on {}'s tool list", call.tool, e.name))
        } else {
            None
        };
        let tool = call.tool.as_str();
        // A pending thought's call is logged (or filed) once under its key.
        let key = call.effect_key.as_deref();
        let log = |outcome, output, args: serde_json::Value, approval_id| async move {
            self.log_keyed(
                LogEntry {
                    employee_id,
                    tool,
                    args: &args,
                    risk,
                    outcome,
                    output,
                    approval_id,
                    trace_id,
                },
                key,
            )
            .await
        };
        if let Some(why) = refusal {
            tracing::info!(employee_id, tool = %call.tool, reason = %why, "tool call refused");
            log(Outcome::Refused, Some(why.clone()), call.args.clone(), None).await?;
            return Ok(CallOutcome::Refused(why));
        }
        let cx = ToolContext {
            runtime: &self.runtime,
            employee: &e,
        };
        // Risk follows the effect of these very arguments, not the tool's name alone.
        let checked = match tools::bind(&cx, &call.tool, call.args.clone()) {
            Ok(a) => tools::assess(&cx, &call.tool, &a).await.map(|r| (a, r)),
            Err(err) => Err(err),
        };
        let (args, risk) = match checked {
            Ok(ok) => ok,
            Err(err) => {
                log(
                    Outcome::Error,
                    Some(err.to_string()),
                    call.args.clone(),
                    None,
                )
                .await?;
                return Err(err);
            }
        };
        let company = oq::find_company(&self.db)
            .await?
            .ok_or(crate::org::OrgError::CompanyMissing)?;
        let company_policy = company.approval_policy;
        let own = e.approval_policy;
        let policy = policy::effective(company_policy, own);
        let rule = policy::rule_text(policy, own.is_some());
        let mut chain = vec![policy::proposed(&e.name, e.id, &call.reason)];
        for id in &call.supported_by {
            if let Some(s) = oq::find_employee(&self.db, *id).await? {
                chain.push(policy::supported(&s.name, s.id));
            }
        }

        // The row either path files: this call, sealed, with its chain so far.
        let filing = |seal: String, chain: Vec<Link>, now: DateTime<Utc>| NewApproval {
            employee: &e,
            call: &call,
            args: &args,
            seal,
            risk,
            trace_id,
            chat_id,
            chain,
            now,
        };
        if !policy::needs_approval(policy, risk) {
            if risk != Risk::High {
                // At most once: the key is taken before the tool runs, since whether a
                // tool that was interrupted ran is unknown.
                if let Some(key) = key
                    && !cubicle_store::effect::claim(&self.db, key, self.clock.now()).await?
                {
                    return Ok(CallOutcome::Refused("already asked".into()));
                }
                let result = tools::execute(&cx, &call.tool, args.clone()).await;
                let (outcome, output) = match &result {
                    Ok(v) => (Outcome::Ok, Some(v.to_string())),
                    Err(err) => (Outcome::Error, Some(err.to_string())),
                };
                self.log(LogEntry {
                    employee_id,
                    tool,
                    args: &args,
                    risk: Some(risk),
                    outcome,
                    output,
                    approval_id: None,
                    trace_id,
                })
                .await?;
                return result.map(CallOutcome::Done);
            }
            // A high-risk action the policy lets through still gets an approval row,
            // decided by the policy, so the boss can see afterwards what ran unasked.
            chain.push(policy::decided("policy", rule));
            // Sealed before the transaction: finding the key may write the company row,
            // which would wait on this very transaction's lock.
            let seal = self.seal.seal(&call.tool, &args).await?;
            let now = self.clock.now();
            let txn = self.db.begin().await?;
            if let Some(key) = key
                && !cubicle_store::effect::claim(&txn, key, now).await?
            {
                return Ok(CallOutcome::Refused("already asked".into()));
            }
            let row =
                Self::insert_approval_in(&txn, filing(seal, chain, now), now + self.ttl).await?;
            txn.commit().await?;
            let claimed = q::claim_decision(
                &self.db,
                row.id,
                q::Claim {
                    status: ApprovalStatus::Approved,
                    decided_at: now,
                    decided_via: DecidedVia::Policy,
                    note: None,
                    authorization_chain: row.authorization_chain.clone(),
                    unexpired_at: None,
                    run_started_at: Some(now),
                },
            )
            .await?;
            if !claimed {
                return Ok(CallOutcome::Refused("the approval was taken".into()));
            }
            self.bus.publish(DomainEvent::ApprovalDecided {
                approval_id: row.id,
            });
            let row = q::find_approval(&self.db, row.id).await?.unwrap_or(row);
            return match self.execute(&row).await? {
                Ok(v) => Ok(CallOutcome::Done(v)),
                Err(err) => Err(err),
            };
        }

        let seal = self.seal.seal(&call.tool, &args).await?;
        if let Some(existing) = q::find_waiting_same(&self.db, e.id, &call.tool, &seal).await? {
            log(
                Outcome::WaitingApproval,
                None,
                args.clone(),
                Some(existing.id),
            )
            .await?;
            return Ok(CallOutcome::Waiting(existing.id));
        }
        let now = self.clock.now();
        let txn = self.db.begin().await?;
        if let Some(key) = key
            && !cubicle_store::effect::claim(&txn, key, now).await?
        {
            return Ok(CallOutcome::Refused("already asked".into()));
        }
        let row = Self::insert_approval_in(&txn, filing(seal, chain, now), now + self.ttl).await?;
        q::insert_tool_call(
            &txn,
            Self::log_row(
                LogEntry {
                    employee_id,
                    tool: &call.tool,
                    args: &args,
                    risk: Some(risk),
                    outcome: Outcome::WaitingApproval,
                    output: None,
                    approval_id: Some(row.id),
                    trace_id,
                },
                now,
            ),
        )
        .await?;
        q::set_employee_status(&txn, e.id, EmployeeStatus::WaitingApproval, None).await?;
        if let Some(key) = key {
            cubicle_store::effect::set_row(&txn, key, row.id).await?;
        }
        txn.commit().await?;
        tracing::info!(approval_id = row.id, employee_id, tool = %call.tool, "approval requested");
        self.bus.publish(DomainEvent::ApprovalRequested {
            approval_id: row.id,
        });
        self.bus
            .publish(DomainEvent::EmployeeUpdated { employee_id: e.id });
        Ok(CallOutcome::Waiting(row.id))
    }

    /// The boss (or a policy) decides. The first decision wins and, when it approves,
    /// runs the action once; deciding again the same way returns the approval
    /// unchanged, the other way is [`ApprovalError::AlreadyDecided`]; an expired
    /// approval is [`ApprovalError::Expired`]. A failing action is recorded in the
    /// approval's `error`, not returned as an error: the decision itself stood.
    pub async fn decide(
        &self,
        input: DecideApproval,
        via: DecidedVia,
    ) -> Result<ApprovalDto, ApprovalError> {
        let DecideApproval {
            approval_id: id,
            decision,
            note,
            args_hash: shown,
        } = input;
        let row = self.reload(id).await?;
        if decision == Decision::Approve && row.status == ApprovalStatus::Waiting {
            self.check_seal(&row, &shown).await?;
        }
        let now = self.clock.now();
        if row.status == ApprovalStatus::Waiting && row.expires_at <= now {
            self.expire_one(&row, now).await?;
        }
        let mut chain: Vec<Link> =
            serde_json::from_value(row.authorization_chain.clone()).unwrap_or_default();
        let verb = decision.status().to_value();
        let who = if via == DecidedVia::Policy {
            "policy"
        } else {
            "boss"
        };
        let mut rule = format!("{verb} via {}", via.to_value());
        if let Some(n) = note.as_deref().filter(|n| !n.trim().is_empty()) {
            rule.push_str(&format!(": {}", n.trim()));
        }
        chain.push(policy::decided(who, rule));
        let claimed = q::claim_decision(
            &self.db,
            id,
            q::Claim {
                status: decision.status(),
                decided_at: now,
                decided_via: via,
                note: note.as_deref(),
                authorization_chain: serde_json::to_value(&chain).unwrap_or_default(),
                unexpired_at: Some(now),
                // Run here: claimed with the decision, so nobody else starts it.
                run_started_at: (decision == Decision::Approve && self.run_here).then_some(now),
            },
        )
        .await?;
        if !claimed {
            let row = self.reload(id).await?;
            return match row.status {
                s if s == decision.status() => self.dto(&row).await,
                ApprovalStatus::Expired => Err(ApprovalError::Expired(id)),
                // Still waiting means it expired between our read and our write.
                ApprovalStatus::Waiting => Err(ApprovalError::Expired(id)),
                s => Err(ApprovalError::AlreadyDecided { id, status: s }),
            };
        }
        tracing::info!(
            approval_id = id,
            decision = %verb,
            via = %via.to_value(),
            "approval decided"
        );
        self.bus
            .publish(DomainEvent::ApprovalDecided { approval_id: id });
        let row = self.reload(id).await?;
        if decision == Decision::Approve && !self.run_here {
            // Queued: the server's engine runs it and tells the requester how it went.
            self.settle_requester(row.employee_id).await?;
            return self.dto(&row).await;
        }
        self.conclude(&row, decision, via).await?;
        self.dto(&self.reload(id).await?).await
    }

    /// Decides each of `batch` in turn, as [`Approvals::decide`] would one by one, and
    /// says what came of each: one refused or settled elsewhere does not stop the rest.
    pub async fn decide_all(
        &self,
        batch: DecideApprovals,
        via: DecidedVia,
    ) -> Result<Vec<DecisionResult>, ApprovalError> {
        let mut out = Vec::with_capacity(batch.decisions.len());
        for input in batch.decisions {
            let id = input.approval_id;
            out.push(match self.decide(input, via).await {
                Ok(approval) => DecisionResult::Decided { approval },
                Err(ApprovalError::AlreadyDecided { .. } | ApprovalError::Expired(_)) => {
                    DecisionResult::SettledElsewhere {
                        approval: self.get(id).await?,
                    }
                }
                Err(ApprovalError::Storage(e)) => return Err(ApprovalError::Storage(e)),
                Err(e) => DecisionResult::Failed {
                    approval_id: id,
                    error: e.into(),
                },
            });
        }
        Ok(out)
    }

    /// Expires every waiting approval whose time is up at `now`; each requester is told
    /// (a note in its chat with the boss and a mailbox item). Returns the expired ones.
    pub async fn expire_due(&self, now: DateTime<Utc>) -> Result<Vec<ApprovalDto>, ApprovalError> {
        let mut out = Vec::new();
        for row in q::due_approvals(&self.db, now).await? {
            if self.expire_one(&row, now).await? {
                out.push(self.dto(&self.reload(row.id).await?).await?);
            }
        }
        Ok(out)
    }

    /// When the next waiting approval expires (for the scheduler's wake-up).
    pub async fn next_expiry(&self) -> Result<Option<DateTime<Utc>>, ApprovalError> {
        Ok(q::next_expiry(&self.db).await?)
    }

    /// Approvals waiting for the boss (the badge).
    pub async fn pending_count(&self) -> Result<u64, ApprovalError> {
        Ok(q::count_waiting(&self.db, None).await?)
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
        Ok(rows
            .iter()
            .map(|r| dto(r, names.person(r.employee_id)))
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

    /// An approval goes ahead only for what the decider showed (`shown`, the seal it
    /// displayed) and only while the row still matches its seal. The key is checked
    /// where the action will run: a desktop attached to a server has no copy of the
    /// server's key, and the server checks again before running.
    async fn check_seal(&self, row: &approval::Model, shown: &str) -> Result<(), ApprovalError> {
        if shown != row.args_hash {
            tracing::warn!(approval_id = row.id, "approval refused: not what was shown");
            return Err(ApprovalError::NotWhatWasShown(row.id));
        }
        if self.run_here
            && !self
                .seal
                .verify(&row.tool, &row.args, &row.args_hash)
                .await?
        {
            tracing::warn!(
                approval_id = row.id,
                "approval refused: arguments do not match the seal"
            );
            return Err(ApprovalError::Unverified(row.id));
        }
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
        Ok(dto(row, &name))
    }

    async fn insert_approval_in(
        conn: &impl cubicle_store::ConnectionTrait,
        new: NewApproval<'_>,
        expires_at: DateTime<Utc>,
    ) -> Result<approval::Model, DbErr> {
        let NewApproval {
            employee: e,
            call,
            args,
            seal,
            risk,
            trace_id,
            chat_id,
            chain,
            now,
        } = new;
        q::insert_approval(
            conn,
            approval::ActiveModel {
                id: NotSet,
                employee_id: Set(e.id),
                tool: Set(call.tool.clone()),
                args: Set(args.clone()),
                args_hash: Set(seal),
                reason: Set(call.reason.chars().take(2000).collect()),
                risk: Set(risk),
                trace_id: Set(trace_id.map(str::to_owned)),
                chat_id: Set(chat_id),
                status: Set(ApprovalStatus::Waiting),
                created_at: Set(now),
                expires_at: Set(expires_at),
                decided_at: Set(None),
                decided_via: Set(None),
                note: Set(None),
                authorization_chain: Set(serde_json::to_value(&chain).unwrap_or_default()),
                result: Set(None),
                error: Set(None),
                executed_at: Set(None),
                run_started_at: Set(None),
            },
        )
        .await
    }

    /// Marks one waiting approval expired (if nobody decided it first) and tells the
    /// requester. True when this call expired it.
    async fn expire_one(&self, row: &approval::Model, now: DateTime<Utc>) -> Result<bool, DbErr> {
        let mut chain: Vec<Link> =
            serde_json::from_value(row.authorization_chain.clone()).unwrap_or_default();
        let hours = self.ttl.num_minutes() as f64 / 60.0;
        chain.push(policy::decided(
            "policy",
            format!("expired: unanswered for {hours} h"),
        ));
        let claimed = q::claim_decision(
            &self.db,
            row.id,
            q::Claim {
                status: ApprovalStatus::Expired,
                decided_at: now,
                decided_via: DecidedVia::Policy,
                note: None,
                authorization_chain: serde_json::to_value(&chain).unwrap_or_default(),
                unexpired_at: None,
                run_started_at: None,
            },
        )
        .await?;
        if !claimed {
            return Ok(false);
        }
        tracing::info!(approval_id = row.id, "approval expired");
        self.bus.publish(DomainEvent::ApprovalDecided {
            approval_id: row.id,
        });
        self.settle_requester(row.employee_id).await?;
        let summary = tools::describe_short(&row.tool, &row.args);
        let text = format!(
            "Your request to {summary} expired without an answer from the boss; nothing was done."
        );
        self.tell_requester(row, &text).await;
        let filed = self
            .mailbox
            .file(NewMail {
                kind: MailKind::Escalation,
                employee_id: Some(row.employee_id),
                chat_id: row.chat_id,
                task_id: None,
                title: format!("Approval expired: {}", row.tool),
                body: format!("{text}\nReason given: {}", row.reason),
                trace_id: row.trace_id.clone(),
            })
            .await;
        if let Err(e) = filed {
            tracing::warn!(error = %e, approval_id = row.id, "could not file the expiry mail");
        }
        Ok(true)
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

    async fn log(&self, entry: LogEntry<'_>) -> Result<tool_call::Model, DbErr> {
        q::insert_tool_call(&self.db, Self::log_row(entry, self.clock.now())).await
    }

    fn log_row(entry: LogEntry<'_>, now: DateTime<Utc>) -> tool_call::ActiveModel {
        tool_call::ActiveModel {
            id: NotSet,
            employee_id: Set(entry.employee_id),
            tool: Set(entry.tool.to_owned()),
            args: Set(entry.args.clone()),
            risk: Set(entry
                .risk
                .map_or_else(|| "unknown".to_owned(), |r| r.to_value())),
            outcome: Set(entry.outcome),
            output: Set(entry
                .output
                .map(|o| o.chars().take(LOG_OUTPUT_CHARS).collect())),
            approval_id: Set(entry.approval_id),
            trace_id: Set(entry.trace_id.map(str::to_owned)),
            created_at: Set(now),
        }
    }
}
