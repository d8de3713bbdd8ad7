//! Asking for a tool (SPEC §8): whether this employee may ask at all, what these very
//! arguments risk, and what the approval policy does with the call — run it at once,
//! approve it on the boss's behalf with a row the boss can see afterwards, or file it
//! as a waiting approval, sealed with what the boss will be shown.
//!
//! The use case's parts: what a request is and what comes of it (here, with the steps
//! every request takes in order), whether it is refused outright (`refuse`), whose
//! decision it is and under which policy (`authority`), what runs without waiting for
//! anyone (`at_once`) and filing a waiting approval (`file`).

mod at_once;
mod authority;
mod file;
mod refuse;

use cubicle_store::entity::employee;
use cubicle_store::{DbErr, org as oq};

use self::authority::Authority;
use self::refuse::refusal;
use super::told::Refusal;
use super::{Approvals, LogEntry, Outcome, policy};
use crate::tools::{self, Risk, ToolCall, ToolContext, ToolError};
use crate::types::link::Link;

/// What became of a tool call right away.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    /// It ran; its output.
    Done(serde_json::Value),
    /// It waits for the boss: the approval's id.
    Waiting(i32),
    /// It may not run (not on the whitelist, no such tool, a former employee).
    Refused(String),
}

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
}
