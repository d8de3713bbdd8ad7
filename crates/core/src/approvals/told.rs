//! Never silent (SPEC §17): a refused call is told to the employee (as its tool result,
//! so it does not promise what cannot happen), in the chat where it was asked (a system
//! line) and to the boss (a mailbox item with the reason and the one place in the app
//! that fixes it); an approved action's outcome is told to its requester. All of it in
//! the company's language.

use cubicle_store::DbErr;
use cubicle_store::entity::approval;

use super::Approvals;
use crate::mailbox::{MailKind, NewMail};
use crate::tools::{self, webhook};
use crate::types::Language;

/// Why a call was refused before anything was filed or run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// The employee no longer works here.
    Fired,
    /// The model named a tool that does not exist: its own mistake, told to it alone.
    UnknownTool,
    /// The tool is not on the employee's tool list (the boss's tool policy).
    NotOnList,
    /// The webhook's host is not on the boss's allowlist.
    HostNotAllowed { host: String },
}

/// What a refusal is told as: to the employee, in the chat, and (when the boss can fix
/// it) in the mailbox.
pub(super) struct RefusalTexts {
    /// The tool result the employee sees.
    pub why: String,
    /// The system line in the chat where it was asked; `None`: nobody but the employee
    /// needs to hear it.
    pub line: Option<String>,
    pub mail: Option<RefusalMail>,
}

pub(super) struct RefusalMail {
    pub title: String,
    pub body: String,
    /// The place in the app that fixes it (a route: `#settings/webhooks/<host>`).
    pub fix: String,
    /// One mail a day per employee and this.
    pub about: String,
}

/// The one place that lets `host` be posted to: Settings → Webhooks with it filled in.
pub fn webhooks_fix(host: &str) -> String {
    format!("#settings/webhooks/{host}")
}

/// The one place that changes what `employee_id` may use: their profile's tools.
pub fn tools_fix(employee_id: i32) -> String {
    format!("#employee/{employee_id}")
}

pub use crate::gateway::BUDGET_FIX;

pub(super) struct Asking<'a> {
    pub name: &'a str,
    pub employee_id: i32,
    pub tool: &'a str,
    pub args: &'a serde_json::Value,
    pub reason: &'a str,
}

pub(super) fn refusal_texts(r: &Refusal, a: &Asking<'_>, lang: Language) -> RefusalTexts {
    let (name, tool) = (a.name, a.tool);
    let reason = a.reason.trim();
    let asked_why = match (reason.is_empty(), lang) {
        (true, _) => String::new(),
        (false, Language::En) => format!(" (reason: {})", clip_end(reason, 300)),
        (false, Language::ZhCn) => format!("（理由：{}）", clip_end(reason, 300)),
    };
    match r {
        Refusal::Fired => RefusalTexts {
            why: lang.pick(
                format!("{name} no longer works here"),
                format!("{name} 已不在公司任职"),
            ),
            line: None,
            mail: None,
        },
        Refusal::UnknownTool => RefusalTexts {
            why: lang.pick(
                format!("there is no tool named {tool:?}"),
                format!("没有名为 {tool:?} 的工具"),
            ),
            line: None,
            mail: None,
        },
        Refusal::NotOnList => not_on_list(a, &asked_why, lang),
        Refusal::HostNotAllowed { host } => host_not_allowed(a, host, &asked_why, lang),
    }
}

fn not_on_list(a: &Asking<'_>, asked_why: &str, lang: Language) -> RefusalTexts {
    let (name, tool) = (a.name, a.tool);
    let what = bare(&tools::describe_short(tool, a.args, lang));
    RefusalTexts {
        why: lang.pick(
            format!(
                "{tool} is not on {name}'s tool list, so it was not done and will not be unless the boss adds it. Do not say it will happen."
            ),
            format!(
                "{tool} 不在 {name} 的工具清单上，所以没有执行；老板加上它之前也不会执行。不要说它会发生。"
            ),
        ),
        line: Some(lang.pick(
            format!(
                "Refused: {name} may not use {tool} (it is not on {name}'s tool list), so nothing was done. The boss can change {name}'s tools on the profile."
            ),
            format!(
                "已拒绝：{name} 不能使用 {tool}（不在 {name} 的工具清单上），什么都没有执行。老板可以在 {name} 的档案里修改工具。"
            ),
        )),
        mail: Some(RefusalMail {
            title: lang.pick(
                format!("Refused: {name} may not use {tool}"),
                format!("已拒绝：{name} 不能使用 {tool}"),
            ),
            body: lang.pick(
                format!(
                    "{name} asked to {what}{asked_why}. It was refused: {tool} is not on {name}'s tool list. Nothing was done. If {name} should be able to, add {tool} to {name}'s tools."
                ),
                format!(
                    "{name} 请求：{what}{asked_why}。请求被拒绝：{tool} 不在 {name} 的工具清单上。什么都没有执行。如果 {name} 应该能用它，请把 {tool} 加入 {name} 的工具。"
                ),
            ),
            fix: tools_fix(a.employee_id),
            about: tool.to_owned(),
        }),
    }
}

fn host_not_allowed(a: &Asking<'_>, host: &str, asked_why: &str, lang: Language) -> RefusalTexts {
    let name = a.name;
    RefusalTexts {
    why: lang.pick(
        format!(
            "{host} is not on the boss's list of webhook destinations, so nothing was posted, and nothing will be until the boss adds it in Settings → Webhooks. Do not say it will be posted."
        ),
        format!(
            "{host} 不在老板允许的 webhook 目标列表中，所以什么都没有发送；老板在 设置 → Webhook 中添加它之前也不会发送。不要说它会被发送。"
        ),
    ),
    line: Some(lang.pick(
        format!(
            "Refused: {name}'s post to {host} was not sent: {host} is not on the webhook allowlist. The boss can allow it in Settings → Webhooks."
        ),
        format!(
            "已拒绝：{name} 发往 {host} 的消息没有发送：{host} 不在 webhook 允许列表中。老板可以在 设置 → Webhook 中允许它。"
        ),
    )),
    mail: Some(RefusalMail {
        title: lang.pick(
            format!("Not sent: {host} is not an allowed webhook destination"),
            format!("未发送：{host} 不是允许的 webhook 目标"),
        ),
        body: lang.pick(
            format!(
                "{name} asked to post to {url}{asked_why}. It was refused because {host} is not on your list of webhook destinations; nothing was sent. If you trust {host}, allow it in Settings → Webhooks, then ask {name} again.",
                url = webhook_target(a.args),
            ),
            format!(
                "{name} 请求发往 {url}{asked_why}。请求被拒绝：{host} 不在你的 webhook 目标列表中，什么都没有发送。如果你信任 {host}，请在 设置 → Webhook 中允许它，然后让 {name} 再试一次。",
                url = webhook_target(a.args),
            ),
        ),
        fix: webhooks_fix(host),
        about: host.to_owned(),
    }),
}
}

/// Where a webhook call meant to post, without the secret in its path.
fn webhook_target(args: &serde_json::Value) -> String {
    args.get("url")
        .and_then(|u| u.as_str())
        .map(webhook::redacted_url)
        .unwrap_or_default()
}

/// `s` without its closing full stop(s), so a sentence built around it has one.
pub(super) fn bare(s: &str) -> String {
    s.trim()
        .trim_end_matches(['.', '。', '!', '！'])
        .trim_end()
        .to_owned()
}

fn clip_end(s: &str, max: usize) -> String {
    let bare = bare(s);
    if bare.chars().count() <= max {
        bare
    } else {
        let mut out: String = bare.chars().take(max).collect();
        out.push('…');
        out
    }
}

/// The line in the chat where `name` was working when the day's budget stopped her
/// thought: said once a day per chat (and per budget: a raised budget spent again is
/// told again), whoever else it stops there.
pub fn budget_line(name: &str, spent: f64, budget: f64, lang: Language) -> String {
    lang.pick(
        format!(
            "Paused: today's model budget is spent (${spent:.2} of ${budget:.2}), so {name} could not answer here. Work picks up tomorrow, or as soon as the boss raises the daily budget in Settings → Daily budget."
        ),
        format!(
            "已暂停：今日模型预算已用完（已花费 ${spent:.2}，预算 ${budget:.2}），{name} 没能在这里回复。明天会继续；老板在 设置 → 每日预算 中提高预算后也会马上继续。"
        ),
    )
}

/// What the employee's next thought is told after the day's budget stopped her last
/// one (beside her tool results), so she neither pretends she answered nor promises
/// what was never started.
pub fn budget_note(lang: Language) -> String {
    lang.pick(
        "daily budget → refused: today's model budget ran out, so your last thought was not had and nothing you meant to do then was done. Do not say it was, or that it will be done by then.",
        "每日预算 → 已拒绝：今日模型预算已用完，你上一次没能思考，当时想做的事都没有做。不要说已经做了，也不要承诺在那之前做完。",
    )
}

/// What the requester is told once a decision is carried out.
pub(super) fn outcome_line(
    row: &approval::Model,
    approved: bool,
    by_policy: bool,
    error: Option<&str>,
    lang: Language,
) -> String {
    let what = bare(&tools::describe_short(&row.tool, &row.args, lang));
    let error = error.map(bare);
    match lang {
        Language::En => {
            let who = if by_policy {
                "The approval policy"
            } else {
                "The boss"
            };
            let verb = if approved { "approved" } else { "rejected" };
            let then = match (approved, error) {
                (false, _) => "Nothing was done.".to_owned(),
                (true, None) => "It was done.".to_owned(),
                (true, Some(e)) => format!("It failed: {e}."),
            };
            format!("{who} {verb} your request to {what}. {then}")
        }
        Language::ZhCn => {
            let who = if by_policy { "审批策略" } else { "老板" };
            let verb = if approved { "批准" } else { "拒绝" };
            let then = match (approved, error) {
                (false, _) => "什么都没有执行。".to_owned(),
                (true, None) => "已经完成。".to_owned(),
                (true, Some(e)) => format!("执行失败：{e}。"),
            };
            format!("{who}{verb}了你的请求（{what}）。{then}")
        }
    }
}

impl Approvals {
    /// Tells a refusal: the line in the chat where it was asked (else the requester's
    /// chat with the boss) and the boss's mail with the fix, once a day per employee
    /// and cause. Best effort: the refusal stands whatever happens here.
    pub(super) async fn tell_refusal(
        &self,
        employee_id: i32,
        chat_id: Option<i32>,
        trace_id: Option<&str>,
        texts: &RefusalTexts,
    ) -> Result<(), DbErr> {
        if let Some(line) = &texts.line {
            let chat = match chat_id {
                Some(id) => Some(id),
                None => self
                    .chats
                    .boss_chat_model(employee_id)
                    .await
                    .ok()
                    .map(|c| c.id),
            };
            if let Some(chat) = chat
                && let Err(e) = self
                    .chats
                    .post_system_traced(chat, line, trace_id.map(str::to_owned))
                    .await
            {
                tracing::warn!(error = %e, employee_id, "could not post the refusal in the chat");
            }
        }
        if let Some(mail) = &texts.mail {
            let day = crate::gateway::start_of_day(self.clock.now()).date_naive();
            let key = format!("refused:{employee_id}:{}:{day}", mail.about);
            let filed = self
                .mailbox
                .file_keyed(
                    NewMail {
                        kind: MailKind::Escalation,
                        employee_id: Some(employee_id),
                        chat_id,
                        task_id: None,
                        title: mail.title.clone(),
                        body: mail.body.clone(),
                        trace_id: trace_id.map(str::to_owned),
                    }
                    .with_fix(&mail.fix),
                    &key,
                )
                .await;
            match filed {
                // Filed now (not earlier today): the desktop hears of it too.
                Ok(Some(m)) => self
                    .bus
                    .publish(crate::events::DomainEvent::FixNeeded { mail_id: m.id }),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(error = %e, employee_id, "could not file the refusal for the boss");
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_built_around_a_description_has_one_full_stop() {
        assert_eq!(
            bare("post to x: Release 1.2 is out."),
            "post to x: Release 1.2 is out"
        );
        assert_eq!(bare("发布了。"), "发布了");
        assert_eq!(bare("v1.2"), "v1.2");
    }
}
