//! The daily digest (SPEC §6 mailbox, §11): once a day, in the evening, one item in the
//! boss's mailbox that says what the company did today — facts from the database, no
//! model call. A day with nothing to tell files nothing.

use chrono::{DateTime, Local, NaiveTime, TimeDelta, Utc};
use cubicle_store::{Db, DbErr, chat as cq, mailbox as mq, org as oq, work as wq};

use crate::gateway::start_of_day;
use crate::mailbox::{MailKind, Mailbox, NewMail};
use crate::types::Language;
use crate::work::TaskStatus;
use crate::work::urgency::{self, Urgency};

/// When the digest is filed, local time.
pub const DIGEST_HOUR: u32 = 18;

/// The next digest time after `now`: today at 18:00 local if that is still ahead, else
/// tomorrow's.
pub fn next_digest_at(now: DateTime<Utc>) -> DateTime<Utc> {
    let at = NaiveTime::from_hms_opt(DIGEST_HOUR, 0, 0).unwrap_or_default();
    let local = now.with_timezone(&Local);
    let today = local
        .date_naive()
        .and_time(at)
        .and_local_timezone(Local)
        .earliest()
        .map(|t| t.with_timezone(&Utc));
    match today {
        Some(t) if t > now => t,
        Some(t) => t + TimeDelta::days(1),
        None => now + TimeDelta::days(1),
    }
}

/// What happened in one day.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Day {
    pub instructions: u64,
    pub tasks_created: u64,
    pub tasks_resolved: u64,
    pub tasks_failed: u64,
    pub tasks_pending: u64,
    /// Pending tasks 30 minutes old or more.
    pub tasks_critical: u64,
    pub messages: u64,
    pub chats: u64,
    pub reports: u64,
    pub escalations: u64,
    pub spent_usd: f64,
    pub budget_usd: f64,
}

impl Day {
    /// Nothing worth a digest: no work, no talk, no spend.
    pub fn is_quiet(&self) -> bool {
        self.instructions == 0
            && self.tasks_created == 0
            && self.tasks_resolved == 0
            && self.tasks_failed == 0
            && self.tasks_pending == 0
            && self.messages == 0
            && self.spent_usd == 0.0
    }
}

/// The digest's title and body, in the company's language.
pub fn compose(company: &str, d: &Day, lang: Language) -> (String, String) {
    match lang {
        Language::ZhCn => {
            let mut lines = vec![
                format!(
                    "任务：完成 {}，失败 {}，新建 {}，待办 {}{}。",
                    d.tasks_resolved,
                    d.tasks_failed,
                    d.tasks_created,
                    d.tasks_pending,
                    if d.tasks_critical > 0 {
                        format!("（其中 {} 项已超过 30 分钟）", d.tasks_critical)
                    } else {
                        String::new()
                    }
                ),
                format!(
                    "沟通：{} 个会话里共 {} 条消息；你下了 {} 条指示。",
                    d.chats, d.messages, d.instructions
                ),
                format!("花费：${:.2}，预算 ${:.2}。", d.spent_usd, d.budget_usd),
            ];
            if d.reports + d.escalations > 0 {
                lines.push(format!(
                    "邮箱：{} 份汇报，{} 件需要你处理。",
                    d.reports, d.escalations
                ));
            }
            (format!("{company} 今日小结"), lines.join("\n"))
        }
        Language::En => {
            let mut lines = vec![
                format!(
                    "Tasks: {} resolved, {} failed, {} new, {} pending{}.",
                    d.tasks_resolved,
                    d.tasks_failed,
                    d.tasks_created,
                    d.tasks_pending,
                    if d.tasks_critical > 0 {
                        format!(" ({} waiting 30 minutes or more)", d.tasks_critical)
                    } else {
                        String::new()
                    }
                ),
                format!(
                    "Talk: {} in {}; {} from you.",
                    count(d.messages, "message", "messages"),
                    count(d.chats, "chat", "chats"),
                    count(d.instructions, "instruction", "instructions"),
                ),
                format!("Spend: ${:.2} of ${:.2}.", d.spent_usd, d.budget_usd),
            ];
            if d.reports + d.escalations > 0 {
                lines.push(format!(
                    "Mailbox: {}, {} that {} you.",
                    count(d.reports, "report", "reports"),
                    count(d.escalations, "item", "items"),
                    if d.escalations == 1 { "needs" } else { "need" }
                ));
            }
            (format!("Today at {company}"), lines.join("\n"))
        }
    }
}

fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Counts the day that `now` falls in.
pub async fn day(db: &Db, now: DateTime<Utc>, spent_usd: f64) -> Result<Day, DbErr> {
    let since = start_of_day(now);
    let mut d = Day {
        spent_usd,
        ..Day::default()
    };
    if let Some(c) = oq::find_company(db).await? {
        d.budget_usd = c.daily_budget_usd;
    }
    for t in wq::tasks_for_day(db, since).await? {
        if t.created_at >= since {
            d.tasks_created += 1;
        }
        let finished_today = t.resolved_at.is_some_and(|at| at >= since);
        match t.status {
            TaskStatus::Resolved if finished_today => d.tasks_resolved += 1,
            TaskStatus::Failed if finished_today => d.tasks_failed += 1,
            TaskStatus::Pending => {
                d.tasks_pending += 1;
                if urgency::urgency(now - t.created_at) == Urgency::Critical {
                    d.tasks_critical += 1;
                }
            }
            _ => {}
        }
    }
    (d.messages, d.chats) = cq::employee_posts_since(db, since).await?;
    for (kind, n) in mq::mail_counts_since(db, since).await? {
        match kind {
            MailKind::Report => d.reports += u64::try_from(n).unwrap_or(0),
            MailKind::Escalation => d.escalations += u64::try_from(n).unwrap_or(0),
            _ => {}
        }
    }
    d.instructions = cubicle_store::trace::traces_since(db, since).await?;
    Ok(d)
}

/// Files today's digest unless it is filed already or the day was quiet. Returns
/// whether one was filed.
pub async fn file_digest(
    db: &Db,
    mailbox: &Mailbox,
    now: DateTime<Utc>,
    spent_usd: f64,
) -> Result<bool, DbErr> {
    if mailbox.filed_today(MailKind::Digest, None).await? {
        return Ok(false);
    }
    let Some(company) = oq::find_company(db).await? else {
        return Ok(false);
    };
    let d = day(db, now, spent_usd).await?;
    if d.is_quiet() {
        return Ok(false);
    }
    let (title, body) = compose(&company.name, &d, mailbox.language().await?);
    mailbox
        .file(NewMail {
            kind: MailKind::Digest,
            employee_id: None,
            chat_id: None,
            task_id: None,
            title,
            body,
            trace_id: None,
        })
        .await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_comes_at_six_in_the_evening_local_time() {
        let now = Utc::now();
        let at = next_digest_at(now);
        assert!(at > now);
        assert!(at - now <= TimeDelta::days(1));
        let local = at.with_timezone(&Local);
        assert_eq!(
            local.time(),
            NaiveTime::from_hms_opt(DIGEST_HOUR, 0, 0).unwrap()
        );
        // Asked exactly then, the next one is a day later.
        assert_eq!(next_digest_at(at), at + TimeDelta::days(1));
    }

    #[test]
    fn a_quiet_day_has_no_digest_and_a_busy_one_says_what_happened() {
        assert!(Day::default().is_quiet());
        let d = Day {
            instructions: 2,
            tasks_created: 3,
            tasks_resolved: 2,
            tasks_failed: 1,
            tasks_pending: 1,
            tasks_critical: 1,
            messages: 40,
            chats: 4,
            reports: 2,
            escalations: 1,
            spent_usd: 0.4234,
            budget_usd: 2.0,
        };
        assert!(!d.is_quiet());
        let (title, body) = compose("Acme", &d, Language::En);
        assert_eq!(title, "Today at Acme");
        assert_eq!(
            body,
            "Tasks: 2 resolved, 1 failed, 3 new, 1 pending (1 waiting 30 minutes or more).\n\
             Talk: 40 messages in 4 chats; 2 instructions from you.\n\
             Spend: $0.42 of $2.00.\n\
             Mailbox: 2 reports, 1 item that needs you."
        );
        let (title, body) = compose("Acme", &d, Language::ZhCn);
        assert_eq!(title, "Acme 今日小结");
        assert!(
            body.starts_with("任务：完成 2，失败 1，新建 3，待办 1（其中 1 项已超过 30 分钟）。")
        );
        assert!(body.contains("花费：$0.42，预算 $2.00。"));
    }
}
