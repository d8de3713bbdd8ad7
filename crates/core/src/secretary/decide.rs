//! Approving and rejecting by chat (SPEC §8 from the secretary's side): the boss says
//! "approve #12" — or "approve it" / "reject it" when exactly one thing waits — and the
//! approval is decided through the same service as the queue's buttons, as the boss's
//! own decision in the app (`decided_via = ui`). With several waiting and no number the
//! secretary lists them and asks which; it never picks one itself. Only the rule tier's
//! reading decides: when the model tier read the words, the secretary asks for them plainly.

use cubicle_store::approval as aq;
use cubicle_store::entity::approval;

use super::intent::{Slots, Tier};
use super::service::{Outcome, Secretary, SecretaryResult};
use crate::approvals::{
    ApprovalDto, ApprovalError, ApprovalStatus, DecideApproval, DecidedVia, Decision,
};
use crate::org::OrgSnapshot;
use crate::tools::{SHORT_DESCRIPTION_CHARS, clip};
use crate::types::Language;

impl Secretary {
    pub(super) async fn decide_by_chat(
        &self,
        s: &Slots,
        tier: Tier,
        snap: &OrgSnapshot,
        lang: Language,
        approve: bool,
    ) -> SecretaryResult<Outcome> {
        let waiting = aq::list_approvals(&self.db, &[ApprovalStatus::Waiting], None, 20).await?;
        if tier != Tier::Rules {
            // A model read the words as a decision: it may have been steered (a pasted
            // message, an injected name). It says what it understood and decides nothing.
            return Ok(Outcome::Say(lang.pick(
                "I only decide approvals when you say it plainly, e.g. \"approve #12\" or \"reject #12\" — or use the approval queue.",
                "审批只按你的明确指令执行，比如“批准 #12”或“拒绝 #12”，也可以在审批队列里处理。",
            )));
        }
        let id = match chosen(s, &waiting, snap, lang) {
            Ok(id) => id,
            Err(ask) => return Ok(Outcome::Say(ask)),
        };
        let decision = if approve {
            Decision::Approve
        } else {
            Decision::Reject
        };
        // What the boss refers to is the action as it stands now; its seal still has to
        // hold, so one edited behind Cubicle's back is refused.
        let Some(shown) = aq::find_approval(&self.db, id).await?.map(|a| a.args_hash) else {
            return Ok(Outcome::Say(lang.pick(
                format!("There is no approval #{id}."),
                format!("没有编号为 #{id} 的审批。"),
            )));
        };
        let input = DecideApproval {
            approval_id: id,
            decision,
            note: None,
            args_hash: shown,
        };
        Ok(Outcome::Say(
            match self.approvals.decide(input, DecidedVia::Ui).await {
                Ok(a) => decided(&a, snap, lang),
                Err(ApprovalError::Storage(e)) => return Err(e.into()),
                Err(e) => lang.pick(format!("I couldn't: {e}."), format!("没办成：{e}。")),
            },
        ))
    }
}

/// The approval the boss means: the number they said, or the only one waiting. Otherwise
/// the reply: nothing waits, or the list to choose from — the secretary never picks one.
fn chosen(
    s: &Slots,
    waiting: &[approval::Model],
    snap: &OrgSnapshot,
    lang: Language,
) -> Result<i32, String> {
    let named = s
        .name
        .as_deref()
        .map(|n| n.trim().trim_start_matches('#').trim())
        .and_then(|n| n.parse::<i32>().ok());
    match (named, waiting) {
        (Some(id), _) => Ok(id),
        (None, []) => Err(lang.pick(
            "Nothing is waiting for your approval right now.",
            "目前没有等待你审批的事项。",
        )),
        (None, [only]) => Ok(only.id),
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
            Err(lang.pick(
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
            ))
        }
    }
}

/// What became of a decided approval: done, approved but failed, or rejected.
fn decided(a: &ApprovalDto, snap: &OrgSnapshot, lang: Language) -> String {
    let id = a.id;
    let who = person(snap, a.employee_id);
    let what = clip(&a.summary, SHORT_DESCRIPTION_CHARS);
    match (a.status, a.error.as_deref(), lang) {
        (ApprovalStatus::Approved, None, Language::ZhCn) => {
            format!("已批准 #{id}：{who}——{what}。已经执行。")
        }
        (ApprovalStatus::Approved, None, Language::En) => {
            format!("Approved #{id}: {who} — {what}. It was done.")
        }
        (ApprovalStatus::Approved, Some(e), Language::ZhCn) => {
            format!("已批准 #{id}，但执行失败：{e}")
        }
        (ApprovalStatus::Approved, Some(e), Language::En) => {
            format!("Approved #{id}, but it failed: {e}")
        }
        (_, _, Language::ZhCn) => format!("已拒绝 #{id}：{who}——{what}。什么都没做。"),
        (_, _, Language::En) => format!("Rejected #{id}: {who} — {what}. Nothing was done."),
    }
}

fn person(snap: &OrgSnapshot, id: i32) -> String {
    snap.employees
        .iter()
        .find(|e| e.id == id)
        .map_or_else(|| "?".to_owned(), |e| e.name.clone())
}
