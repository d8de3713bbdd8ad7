//! A call refused outright: the employee no longer works here, there is no such tool,
//! it is not on their list, or the boss has not allowed the webhook's host. Logged,
//! told in the chat it was asked in and to the boss with the place that fixes it.

use cubicle_store::{DbErr, org as oq};

use super::{Asked, CallOutcome};
use crate::approvals::told::{self, Refusal};
use crate::approvals::{Approvals, Outcome};
use crate::roles;
use crate::tools::{self, ToolCall, ToolError};

impl Approvals {
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
    pub(super) async fn refuse(
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
}

/// Why this employee may not ask for this tool at all: they no longer work here, there
/// is no such tool, or it is not on their list.
pub(super) fn refusal(asked: &Asked<'_>) -> Option<Refusal> {
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
