//! Approving and rejecting by chat (SPEC §8 from the secretary's side): the boss says
//! "approve #12" — or "approve it" / "reject it" when exactly one thing waits — and the
//! approval is decided through the same service as the queue's buttons, as the boss's
//! own decision in the app (`decided_via = ui`). With several waiting and no number the
//! secretary lists them and asks which; it never picks one itself. Only the rule tier's
//! reading decides: when the model tier read the words, the secretary asks for them plainly.
//!
//! A typed yes or no ("确认", "ok", "cancel", "算了") answers the secretary's own card
//! first: the one card waiting is confirmed or cancelled exactly as its buttons would;
//! with several the secretary lists them and asks which; with none it says so.

use cubicle_store::approval as aq;
use cubicle_store::entity::approval;
use cubicle_store::secretary as sq;

use super::actions::{ActionDto, ActionStatus, Proposal};
use super::intent::{Slots, Tier};
use super::rules::TypedAnswer;
use super::service::{
    HISTORY_LIMIT, Outcome, Secretary, SecretaryError, SecretaryResult, action_dto,
};
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
        typed: Option<TypedAnswer>,
    ) -> SecretaryResult<Outcome> {
        let waiting = aq::list_approvals(&self.db, &[ApprovalStatus::Waiting], None, 20).await?;
        if tier == Tier::Rules && number(s).is_none() {
            // A bare yes/no is for the secretary's cards; "approve it" is for them only
            // when no approval waits.
            let cards = self.waiting_cards().await?;
            if typed.is_some() || waiting.is_empty() {
                match cards.as_slice() {
                    [one] => return Ok(Outcome::Say(self.answer_card(one, approve, lang).await?)),
                    [] => {}
                    many => return Ok(Outcome::Say(which_card(many, approve, lang))),
                }
                if typed.is_some_and(|a| !a.firm) {
                    return Ok(Outcome::Say(nothing_waiting(&waiting, lang)));
                }
            }
        }
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

impl Secretary {
    /// The cards the boss can still confirm or cancel in the conversation they see.
    async fn waiting_cards(&self) -> SecretaryResult<Vec<ActionDto>> {
        let messages = sq::recent_messages(&self.db, HISTORY_LIMIT).await?;
        let actions =
            sq::actions_of_messages(&self.db, messages.iter().map(|m| m.id).collect()).await?;
        Ok(actions
            .iter()
            .filter(|a| a.status == ActionStatus::Proposed)
            .map(action_dto)
            .collect())
    }

    /// Confirms or cancels one card through the same calls as its buttons, and says
    /// what came of it.
    async fn answer_card(
        &self,
        card: &ActionDto,
        yes: bool,
        lang: Language,
    ) -> SecretaryResult<String> {
        let what = describe(&card.proposal, lang);
        let done = if yes {
            self.confirm(card.id, None).await
        } else {
            self.cancel(card.id).await
        };
        Ok(match done {
            Ok(a) if a.status == ActionStatus::Applied => {
                let diff = a.diff.unwrap_or(what);
                lang.pick(format!("Done: {diff}"), format!("已确认：{diff}"))
            }
            Ok(a) if a.status == ActionStatus::Cancelled => lang.pick(
                format!("Cancelled: {what}. Nothing was changed."),
                format!("已取消：{what}。什么都没有改。"),
            ),
            Ok(a) => {
                let error = a.error.unwrap_or_default();
                lang.pick(
                    format!("I tried ({what}), but it failed: {error}"),
                    format!("已确认（{what}），但执行失败：{error}"),
                )
            }
            // Someone pressed its button meanwhile: it is being handled or already decided.
            Err(SecretaryError::WrongStatus { .. } | SecretaryError::NoAction(_)) => lang.pick(
                format!("That card ({what}) was already handled; nothing more was done."),
                format!("这张卡片（{what}）已经处理过了，没有再做任何事。"),
            ),
            Err(e) => return Err(e),
        })
    }
}

/// A number the boss gave ("#12", "12"), if any.
fn number(s: &Slots) -> Option<i32> {
    s.name
        .as_deref()
        .map(|n| n.trim().trim_start_matches('#').trim())
        .and_then(|n| n.parse::<i32>().ok())
}

/// Several cards wait: list them and ask which, changing nothing.
fn which_card(cards: &[ActionDto], yes: bool, lang: Language) -> String {
    let lines: Vec<String> = cards
        .iter()
        .map(|c| format!("· {}", describe(&c.proposal, lang)))
        .collect();
    let n = cards.len();
    match (lang, yes) {
        (Language::En, true) => format!(
            "{n} cards are waiting — which one should I confirm? Press Confirm on it, or tell me more precisely. Nothing was changed.\n{}",
            lines.join("\n")
        ),
        (Language::En, false) => format!(
            "{n} cards are waiting — which one should I cancel? Press Cancel on it, or tell me more precisely. Nothing was changed.\n{}",
            lines.join("\n")
        ),
        (Language::ZhCn, true) => format!(
            "有{n}张卡片在等你确认，要确认哪一张？请在那张卡片上点“确认”，或者说得更具体些。目前什么都没有改。\n{}",
            lines.join("\n")
        ),
        (Language::ZhCn, false) => format!(
            "有{n}张卡片在等你确认，要取消哪一张？请在那张卡片上点“取消”，或者说得更具体些。目前什么都没有改。\n{}",
            lines.join("\n")
        ),
    }
}

/// A yes or no with nothing of the secretary's waiting; approvals are only pointed to.
fn nothing_waiting(approvals: &[approval::Model], lang: Language) -> String {
    let mut out = lang.pick(
        "There is nothing waiting for your confirmation right now.",
        "目前没有等你确认的事项。",
    );
    if let Some(first) = approvals.first() {
        let n = approvals.len();
        out.push(' ');
        out.push_str(&match (lang, n) {
            (Language::En, 1) => format!(
                "One approval waits in the approval queue — say \"approve #{}\" to approve it.",
                first.id
            ),
            (Language::En, _) => format!(
                "{n} approvals wait in the approval queue — say e.g. \"approve #{}\".",
                first.id
            ),
            (Language::ZhCn, _) => {
                format!("审批队列里有{n}项等你处理，可以说“批准 #{}”。", first.id)
            }
        });
    }
    out
}

/// A card in a few words, in the company's language.
pub(super) fn describe(p: &Proposal, lang: Language) -> String {
    let zh = lang == Language::ZhCn;
    match p {
        Proposal::Hire {
            name,
            title,
            department_name,
            ..
        } => match (zh, department_name) {
            (false, Some(d)) => format!("hire {title} {name} for {d}"),
            (false, None) => format!("hire {title} {name}"),
            (true, Some(d)) => format!("为{d}招聘{title}{name}"),
            (true, None) => format!("招聘{title}{name}"),
        },
        Proposal::Fire { name, .. } => lang.pick(format!("let {name} go"), format!("辞退{name}")),
        Proposal::Transfer {
            name,
            department_name,
            ..
        } => lang.pick(
            format!("move {name} to {department_name}"),
            format!("把{name}调到{department_name}"),
        ),
        Proposal::CreateDepartment { name, .. } => lang.pick(
            format!("create the {name} department"),
            format!("新建部门{name}"),
        ),
        Proposal::RenameDepartment {
            old_name, new_name, ..
        } => lang.pick(
            format!("rename {old_name} to {new_name}"),
            format!("把{old_name}改名为{new_name}"),
        ),
        Proposal::SetPolicy { .. } => {
            lang.pick("change the approval policy or budget", "调整审批策略或预算")
        }
        Proposal::AssignTask {
            name, description, ..
        } => {
            let d = clip(description, SHORT_DESCRIPTION_CHARS);
            lang.pick(
                format!("a task for {name}: {d}"),
                format!("给{name}的任务：{d}"),
            )
        }
        Proposal::CreateRequirement { name, .. } => lang.pick(
            format!("open the requirement \"{name}\""),
            format!("新建需求“{name}”"),
        ),
        Proposal::SetReviewer {
            requirement_name,
            name,
            ..
        } => lang.pick(
            format!("{name} reviews \"{requirement_name}\""),
            format!("由{name}评审“{requirement_name}”"),
        ),
        Proposal::DeleteDepartment { name, .. } => lang.pick(
            format!("delete the {name} department"),
            format!("删除部门{name}"),
        ),
        Proposal::ConveneMeeting { topic, .. } => lang.pick(
            format!("a meeting on {topic}"),
            format!("关于{topic}的会议"),
        ),
        Proposal::InvitePerson { name, role, .. } => lang.pick(
            format!("invite {name} as {role}"),
            format!("邀请{name}（{role}）"),
        ),
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
    match (number(s), waiting) {
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
