//! Asking for a tool (SPEC §8): whether this employee may ask at all, what these very
//! arguments risk, and what the approval policy does with the call — run it at once,
//! approve it on the boss's behalf with a row the boss can see afterwards, or file it
//! as a waiting approval, sealed with what the boss will be shown.

use chrono::{DateTime, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{approval, employee};
use cubicle_store::{DatabaseTransaction, DbErr, approval as q, effect, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};

use super::policy::PolicyOwner;
use super::told::{self, Refusal};
use super::{
    ApprovalStatus, Approvals, CallOutcome, DecidedVia, DecisionRecord, LogEntry, Outcome, policy,
};
use crate::events::DomainEvent;
use crate::people::Approver;
use crate::roles;
use crate::tools::{self, Risk, ToolCall, ToolContext, ToolError};
use crate::types::link::Link;
use crate::types::{ApprovalPolicy, EmployeeStatus};

/// One call being asked for, by whom and from where: what every step of a request
/// shares.
struct Asked<'a> {
    employee: &'a employee::Model,
    call: &'a ToolCall,
    trace_id: Option<&'a str>,
    chat_id: Option<i32>,
    /// A pending thought's call is logged (or filed) once under its key.
    key: Option<&'a str>,
    /// The risk the tool's name carries, before its arguments are assessed.
    named_risk: Option<Risk>,
}

/// What authorizes a call: whose decision it is, the effective policy, the rule as the
/// chain states it, and the chain so far (who proposed it, who supported it).
struct Authority {
    approver: Approver,
    policy: ApprovalPolicy,
    rule: String,
    chain: Vec<Link>,
}

/// One approval row about to be filed: the call with its bound arguments and risk,
/// whom it goes to and the chain so far. Built once per request, whether the policy
/// decides it or it waits for a person.
struct NewApproval<'a> {
    asked: &'a Asked<'a>,
    /// The person it goes to; `None`: the boss.
    approver_id: Option<i32>,
    args: &'a serde_json::Value,
    risk: Risk,
    chain: Vec<Link>,
}

/// An approval row filed (waiting) inside a transaction its filer still has to finish.
struct Filing {
    txn: DatabaseTransaction,
    row: approval::Model,
    now: DateTime<Utc>,
}

impl Approvals {
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
        let asked = Asked {
            employee: &e,
            call: &call,
            trace_id,
            chat_id,
            key: call.effect_key.as_deref(),
            named_risk: tools::risk_of(&call.tool),
        };
        if let Some(refused) = refusal(&asked) {
            return self.refuse(&asked, refused, &call.args).await;
        }
        let (args, risk) = match self.bind_and_assess(&e, &call).await {
            Ok(ok) => ok,
            // Not a mistake of the model's: the boss has not allowed the host. Refused
            // like a call off the tool list, and told, so nobody waits for a post that
            // cannot happen.
            Err(ToolError::Webhook(cubicle_llm::PostError::NotAllowed(host))) => {
                // The entry that would allow it: the host with the URL's explicit port.
                let host = call
                    .args
                    .get("url")
                    .and_then(|u| u.as_str())
                    .and_then(|u| cubicle_llm::webhook::destination(u).ok())
                    .unwrap_or(host);
                return self
                    .refuse(&asked, Refusal::HostNotAllowed { host }, &call.args)
                    .await;
            }
            Err(err) => {
                let output = Some(err.to_string());
                self.log_asked(&asked, Outcome::Error, output, &call.args, None)
                    .await?;
                return Err(err);
            }
        };
        let Authority {
            approver,
            policy,
            rule,
            chain,
        } = self.authority(&e, &call).await?;
        let waits = policy::needs_approval(policy, risk);
        if !waits && risk != Risk::High {
            return self.run_unasked(&asked, args, risk).await;
        }
        let new = NewApproval {
            asked: &asked,
            approver_id: approver.person_id(),
            args: &args,
            risk,
            chain,
        };
        if waits {
            self.file_waiting(new).await
        } else {
            self.approve_by_policy(new, rule).await
        }
    }

    /// Whether [`Approvals::request`] would refuse `call` outright for `employee_id`
    /// (no such tool, not on their list, a host the allowlist does not hold) — not a
    /// call that would wait for approval, run, or fail on its arguments. Nothing is
    /// logged, filed or told: a thought asks this before its messages are posted, so a
    /// promise beside a call that cannot happen is held back (SPEC §17).
    pub async fn would_refuse(&self, employee_id: i32, call: &ToolCall) -> Result<bool, DbErr> {
        let Some(e) = oq::find_employee(&self.db, employee_id).await? else {
            return Ok(false);
        };
        let asked = Asked {
            employee: &e,
            call,
            trace_id: None,
            chat_id: None,
            key: None,
            named_risk: tools::risk_of(&call.tool),
        };
        if refusal(&asked).is_some() {
            return Ok(true);
        }
        Ok(match self.bind_and_assess(&e, call).await {
            Err(ToolError::Webhook(cubicle_llm::PostError::NotAllowed(_))) => true,
            Err(ToolError::Storage(db)) => return Err(db),
            _ => false,
        })
    }

    /// Refuses the call: logged with why (the employee's tool result), and told in the
    /// chat it was asked in and to the boss with the place that fixes it.
    async fn refuse(
        &self,
        asked: &Asked<'_>,
        refused: Refusal,
        args: &serde_json::Value,
    ) -> Result<CallOutcome, ToolError> {
        let (e, call) = (asked.employee, asked.call);
        let lang = self.mailbox.language().await?;
        let texts = told::refusal_texts(
            &refused,
            &told::Asking {
                name: &e.name,
                employee_id: e.id,
                tool: &call.tool,
                args,
                reason: &call.reason,
            },
            lang,
        );
        tracing::info!(employee_id = e.id, tool = %call.tool, reason = %texts.why, "tool call refused");
        self.log_asked(asked, Outcome::Refused, Some(texts.why.clone()), args, None)
            .await?;
        self.tell_refusal(e.id, asked.chat_id, asked.trace_id, &texts)
            .await?;
        Ok(CallOutcome::Refused(texts.why))
    }

    /// Binds the call's arguments and assesses them: risk follows the effect of these
    /// very arguments, not the tool's name alone.
    async fn bind_and_assess(
        &self,
        e: &employee::Model,
        call: &ToolCall,
    ) -> Result<(serde_json::Value, Risk), ToolError> {
        let cx = ToolContext {
            runtime: &self.runtime,
            employee: e,
        };
        let args = tools::bind(&cx, &call.tool, call.args.clone())?;
        let risk = tools::assess(&cx, &call.tool, &args).await?;
        Ok((args, risk))
    }

    /// Whose decision the call is (the person who answers for the employee, else the
    /// boss), the policy that applies (the employee's own, else that person's, else the
    /// company's) and the chain of who proposed and who supported the call.
    async fn authority(
        &self,
        e: &employee::Model,
        call: &ToolCall,
    ) -> Result<Authority, ToolError> {
        let company = oq::find_company(&self.db)
            .await?
            .ok_or(crate::org::OrgError::CompanyMissing)?;
        let approver =
            crate::people::approver_for(&self.db, e.id)
                .await
                .map_err(|err| match err {
                    crate::org::OrgError::Storage(db) => ToolError::from(db),
                    _ => ToolError::EmployeeNotFound(e.id),
                })?;
        let (policy, owner) = match (e.approval_policy, &approver) {
            (Some(own), _) => (own, PolicyOwner::Employee),
            (None, Approver::Person { person }) => {
                (person.approval_policy, PolicyOwner::Person(&person.name))
            }
            (None, Approver::Boss { .. }) => (company.approval_policy, PolicyOwner::Company),
        };
        let rule = policy::rule_text(policy, owner);
        let mut chain = vec![policy::proposed(&e.name, e.id, &call.reason)];
        for id in &call.supported_by {
            if let Some(s) = oq::find_employee(&self.db, *id).await? {
                chain.push(policy::supported(&s.name, s.id));
            }
        }
        Ok(Authority {
            approver,
            policy,
            rule,
            chain,
        })
    }

    /// A call the policy lets through that is not high-risk runs at once, and is logged
    /// with its result.
    async fn run_unasked(
        &self,
        asked: &Asked<'_>,
        args: serde_json::Value,
        risk: Risk,
    ) -> Result<CallOutcome, ToolError> {
        // At most once: the key is taken before the tool runs, since whether a tool
        // that was interrupted ran is unknown.
        if let Some(key) = asked.key
            && !effect::claim(&self.db, key, self.clock.now()).await?
        {
            return Ok(CallOutcome::Refused("already asked".into()));
        }
        let cx = ToolContext {
            runtime: &self.runtime,
            employee: asked.employee,
        };
        let result = tools::execute(&cx, &asked.call.tool, args.clone()).await;
        let (outcome, output) = match &result {
            Ok(v) => (Outcome::Ok, Some(v.to_string())),
            Err(err) => (Outcome::Error, Some(err.to_string())),
        };
        self.log(LogEntry {
            employee_id: asked.employee.id,
            tool: &asked.call.tool,
            args: &args,
            risk: Some(risk),
            outcome,
            output,
            approval_id: None,
            trace_id: asked.trace_id,
        })
        .await?;
        result.map(CallOutcome::Done)
    }

    /// A high-risk call the policy lets through still gets an approval row, decided by
    /// the policy, so the boss can see afterwards what ran unasked; then it runs.
    async fn approve_by_policy(
        &self,
        mut new: NewApproval<'_>,
        rule: String,
    ) -> Result<CallOutcome, ToolError> {
        new.chain.push(policy::decided("policy", rule));
        // Sealed before the transaction: finding the key may write the company row,
        // which would wait on this very transaction's lock.
        let seal = self.seal.seal(&new.asked.call.tool, new.args).await?;
        let Some(Filing { txn, row, now }) = self.begin_filing(new, seal).await? else {
            return Ok(CallOutcome::Refused("already asked".into()));
        };
        // Decided in the same transaction it is filed in: nobody ever sees it waiting (a
        // boss could otherwise decide a call the policy had already let through), and a
        // stop in between cannot leave it waiting with its key spent. Sealed as the row
        // reads back (the key is already at hand, so nothing else is written meanwhile).
        let filed = q::find_approval(&txn, row.id).await?.unwrap_or(row);
        let decided = DecisionRecord::deciding(
            &filed,
            ApprovalStatus::Approved,
            None,
            Some(DecidedVia::Policy),
        );
        let decision_seal = Some(self.seal.seal_decision(&decided).await?);
        let claimed = q::claim_decision(
            &txn,
            filed.id,
            q::Claim {
                status: ApprovalStatus::Approved,
                decided_at: now,
                decided_via: DecidedVia::Policy,
                note: None,
                authorization_chain: filed.authorization_chain.clone(),
                unexpired_at: None,
                run_started_at: Some(now),
                decided_by: None,
                decision_seal,
            },
        )
        .await?;
        if !claimed {
            return Ok(CallOutcome::Refused("the approval was taken".into()));
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::ApprovalDecided {
            approval_id: filed.id,
        });
        let row = q::find_approval(&self.db, filed.id).await?.unwrap_or(filed);
        match self.execute(&row).await? {
            Ok(v) => Ok(CallOutcome::Done(v)),
            Err(err) => Err(err),
        }
    }

    /// Files the call as a waiting approval, logs it and sets the employee waiting, in
    /// one transaction; the same call while one is waiting is that one.
    async fn file_waiting(&self, new: NewApproval<'_>) -> Result<CallOutcome, ToolError> {
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

    /// Logs the call (once under its key) with the risk of the tool's name.
    async fn log_asked(
        &self,
        asked: &Asked<'_>,
        outcome: Outcome,
        output: Option<String>,
        args: &serde_json::Value,
        approval_id: Option<i32>,
    ) -> Result<(), DbErr> {
        let entry = LogEntry {
            employee_id: asked.employee.id,
            tool: &asked.call.tool,
            args,
            risk: asked.named_risk,
            outcome,
            output,
            approval_id,
            trace_id: asked.trace_id,
        };
        self.log_keyed(entry, asked.key).await
    }

    /// Opens the transaction a request is filed in: claims the call's key (`None` when
    /// it was already asked) and inserts the sealed row, waiting.
    async fn begin_filing(
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

/// Why this employee may not ask for this tool at all: they no longer work here, there
/// is no such tool, or it is not on their list.
fn refusal(asked: &Asked<'_>) -> Option<Refusal> {
    let (e, call) = (asked.employee, asked.call);
    if e.fired_at.is_some() {
        Some(Refusal::Fired)
    } else if asked.named_risk.is_none() {
        Some(Refusal::UnknownTool)
    } else if !tools::whitelisted(&roles::json_strings(&e.tool_whitelist), &call.tool) {
        Some(Refusal::NotOnList)
    } else {
        None
    }
}
