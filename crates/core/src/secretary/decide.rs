//! Approving and rejecting by chat (SPEC §8 from the secretary's side): the boss says
//! "approve #12" — or "approve it" / "reject it" when exactly one thing waits — and the
//! approval is decided through the same service as the queue's buttons, as the boss's
//! own decision in the app (`decided_via = ui`). With several waiting and no number the
//! secretary lists them and asks which; it never picks one itself.

use cubicle_store::approval as aq;

use super::intent::Slots;
use super::service::{Outcome, Secretary, SecretaryResult};
use super::text::Lang;
use crate::approvals::{ApprovalError, ApprovalStatus, DecidedVia, Decision};
use crate::types::OrgSnapshot;

impl Secretary {
    pub(super) async fn decide_by_chat(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Lang,
        approve: bool,
    ) -> SecretaryResult<Outcome> {
        let waiting = aq::list_approvals(&self.db, &["waiting"], None, 20).await?;
        let named = s
            .name
            .as_deref()
            .map(|n| n.trim().trim_start_matches('#').trim())
            .and_then(|n| n.parse::<i32>().ok());
        let id = match (named, waiting.as_slice()) {
            (Some(id), _) => id,
            (None, []) => {
                return Ok(Outcome::Say(lang.pick(
                    "Nothing is waiting for your approval right now.",
                    "目前没有等待你审批的事项。",
                )));
            }
            (None, [only]) => only.id,
            (None, many) => {
                let lines: Vec<String> = many
                    .iter()
                    .map(|a| {
                        format!(
                            "#{} {}: {} — {}",
                            a.id,
                            person(snap, a.employee_id),
                            a.tool,
                            a.reason
                        )
                    })
                    .collect();
                return Ok(Outcome::Say(lang.pick(
                    format!(
                        "{} things wait for you — which one? Say e.g. \"approve #{}\".\n{}",
                        many.len(),
                        many[0].id,
                        lines.join("\n")
                    ),
                    format!(
                        "有 {} 项等你审批，是哪一项？比如说“批准 #{}”。\n{}",
                        many.len(),
                        many[0].id,
                        lines.join("\n")
                    ),
                )));
            }
        };
        let decision = if approve {
            Decision::Approve
        } else {
            Decision::Reject
        };
        Ok(Outcome::Say(
            match self
                .approvals
                .decide(id, decision, DecidedVia::Ui, None)
                .await
            {
                Ok(a) => {
                    let who = person(snap, a.employee_id);
                    match (a.status, a.error.as_deref(), lang) {
                        (ApprovalStatus::Approved, None, Lang::Zh) => {
                            format!("已批准 #{id}：{who}——{}。已经执行。", a.summary)
                        }
                        (ApprovalStatus::Approved, None, Lang::En) => {
                            format!("Approved #{id}: {who} — {}. It was done.", a.summary)
                        }
                        (ApprovalStatus::Approved, Some(e), Lang::Zh) => {
                            format!("已批准 #{id}，但执行失败：{e}")
                        }
                        (ApprovalStatus::Approved, Some(e), Lang::En) => {
                            format!("Approved #{id}, but it failed: {e}")
                        }
                        (_, _, Lang::Zh) => {
                            format!("已拒绝 #{id}：{who}——{}。什么都没做。", a.summary)
                        }
                        (_, _, Lang::En) => {
                            format!("Rejected #{id}: {who} — {}. Nothing was done.", a.summary)
                        }
                    }
                }
                Err(ApprovalError::Storage(e)) => return Err(e.into()),
                Err(e) => lang.pick(format!("I couldn't: {e}."), format!("没办成：{e}。")),
            },
        ))
    }
}

fn person(snap: &OrgSnapshot, id: i32) -> String {
    snap.employees
        .iter()
        .find(|e| e.id == id)
        .map_or_else(|| "?".to_owned(), |e| e.name.clone())
}
