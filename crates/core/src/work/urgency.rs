//! Task urgency by age (SPEC §6), and the task section of every thought's prompt. An
//! employee has no sense of time between thoughts; the label tells it how late it is,
//! and the escalation times tell the scheduler when to wake it so an ignored task gets
//! louder by itself.
//!
//! Boundaries: each threshold belongs to the more urgent level — normal is [0, 5 min),
//! aging [5, 15), overdue [15, 30), critical from 30 min on. That way a wake-up scheduled
//! exactly at a threshold by [`next_escalation`] already sees the new level.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How late a pending task is, least to most urgent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Urgency {
    /// Under 5 minutes old.
    Normal,
    /// 5 to 15 minutes: follow up.
    Aging,
    /// 15 to 30 minutes: needs attention now.
    Overdue,
    /// 30 minutes or more: escalate or resolve now.
    Critical,
}

/// Age thresholds in minutes: aging, overdue, critical.
const THRESHOLD_MINUTES: [i64; 3] = [5, 15, 30];

/// The urgency of a task this old (a negative age, from clock skew, is normal).
pub fn urgency(age: TimeDelta) -> Urgency {
    let [aging, overdue, critical] = THRESHOLD_MINUTES.map(TimeDelta::minutes);
    if age >= critical {
        Urgency::Critical
    } else if age >= overdue {
        Urgency::Overdue
    } else if age >= aging {
        Urgency::Aging
    } else {
        Urgency::Normal
    }
}

/// What the prompt says about a task at this level (SPEC §6 wording).
pub fn label(u: Urgency) -> &'static str {
    match u {
        Urgency::Normal => "new",
        Urgency::Aging => "follow up",
        Urgency::Overdue => "needs attention now",
        Urgency::Critical => "escalate or resolve now",
    }
}

/// When a task created at `created_at` next changes level after `now` (created + 5, 15
/// or 30 min); `None` once it is critical, since nothing escalates further.
pub fn next_escalation(created_at: DateTime<Utc>, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    THRESHOLD_MINUTES
        .into_iter()
        .map(|m| created_at + TimeDelta::minutes(m))
        .find(|&t| t > now)
}

/// The next escalation of a pending task: only one-shot tasks age into urgency; an
/// ongoing (`long_running`) or a `conditional` task waits without escalating.
pub fn next_escalation_of(
    task: &cubicle_store::entity::task::Model,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    if task.kind != crate::work::TaskKind::Oneshot {
        return None;
    }
    next_escalation(task.created_at, now)
}

/// The instruction when nothing is pending: light, so idle employees don't invent work.
pub const NO_TASKS: &str = "No pending tasks. You may take on work if it fits your role.";

/// Longest task description quoted in the prompt, in characters.
const DESCRIPTION_MAX_CHARS: usize = 300;

/// The task section of a prompt from (description, age) pairs: [`NO_TASKS`] when there
/// are none, otherwise a TOP PRIORITY section listing each task with its urgency label,
/// the most urgent (oldest) first.
pub fn task_section(tasks: &[(String, TimeDelta)]) -> String {
    if tasks.is_empty() {
        return NO_TASKS.to_owned();
    }
    let mut sorted: Vec<&(String, TimeDelta)> = tasks.iter().collect();
    // Urgency only grows with age, so oldest first is most urgent first; the sort is
    // stable, so equal ages keep the caller's order.
    sorted.sort_by_key(|task| std::cmp::Reverse(task.1));
    let mut out = String::from(
        "TOP PRIORITY — your pending tasks, most urgent first: resolve or fail each with \
         taskOps, or say what blocks it.",
    );
    for (i, (description, age)) in sorted.into_iter().enumerate() {
        out.push_str(&format!(
            "\n{n}. [{label}, {mins} min] {text}",
            n = i + 1,
            label = label(urgency(*age)),
            mins = age.num_minutes().max(0),
            text = one_line(description),
        ));
    }
    out
}

/// A description on one line and within budget, so one long task can't crowd the prompt.
fn one_line(s: &str) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= DESCRIPTION_MAX_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(DESCRIPTION_MAX_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(minutes: i64) -> TimeDelta {
        TimeDelta::minutes(minutes)
    }

    fn t(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000, 0).unwrap() + TimeDelta::seconds(secs)
    }

    #[test]
    fn thresholds_belong_to_the_more_urgent_level() {
        let s = TimeDelta::seconds;
        assert_eq!(urgency(TimeDelta::zero()), Urgency::Normal);
        assert_eq!(urgency(s(-30)), Urgency::Normal);
        assert_eq!(urgency(m(5) - s(1)), Urgency::Normal);
        assert_eq!(urgency(m(5)), Urgency::Aging);
        assert_eq!(urgency(m(15) - s(1)), Urgency::Aging);
        assert_eq!(urgency(m(15)), Urgency::Overdue);
        assert_eq!(urgency(m(30) - s(1)), Urgency::Overdue);
        assert_eq!(urgency(m(30)), Urgency::Critical);
        assert_eq!(urgency(TimeDelta::days(3)), Urgency::Critical);
    }

    #[test]
    fn levels_order_and_names() {
        assert!(Urgency::Normal < Urgency::Aging);
        assert!(Urgency::Aging < Urgency::Overdue);
        assert!(Urgency::Overdue < Urgency::Critical);
        for (u, name) in [
            (Urgency::Normal, "normal"),
            (Urgency::Aging, "aging"),
            (Urgency::Overdue, "overdue"),
            (Urgency::Critical, "critical"),
        ] {
            assert_eq!(serde_json::to_value(u).unwrap(), name);
        }
        assert_eq!(label(Urgency::Aging), "follow up");
        assert_eq!(label(Urgency::Overdue), "needs attention now");
        assert_eq!(label(Urgency::Critical), "escalate or resolve now");
    }

    #[test]
    fn escalation_times() {
        let c = t(0);
        assert_eq!(next_escalation(c, c), Some(t(300)));
        assert_eq!(next_escalation(c, t(299)), Some(t(300)));
        // At a threshold the level has already changed: the next one is due.
        assert_eq!(next_escalation(c, t(300)), Some(t(900)));
        assert_eq!(next_escalation(c, t(899)), Some(t(900)));
        assert_eq!(next_escalation(c, t(900)), Some(t(1800)));
        assert_eq!(next_escalation(c, t(1799)), Some(t(1800)));
        assert_eq!(next_escalation(c, t(1800)), None);
        assert_eq!(next_escalation(c, t(99_999)), None);
        // Each escalation wake-up lands exactly on a level change.
        let mut now = c;
        let mut seen = vec![urgency(now - c)];
        while let Some(next) = next_escalation(c, now) {
            now = next;
            seen.push(urgency(now - c));
        }
        assert_eq!(
            seen,
            vec![
                Urgency::Normal,
                Urgency::Aging,
                Urgency::Overdue,
                Urgency::Critical
            ]
        );
    }

    #[test]
    fn no_tasks_is_a_light_instruction() {
        let s = task_section(&[]);
        assert_eq!(
            s,
            "No pending tasks. You may take on work if it fits your role."
        );
        assert!(!s.contains("TOP PRIORITY"));
    }

    #[test]
    fn pending_tasks_are_top_priority_most_urgent_first() {
        let s = task_section(&[
            ("Write release notes".into(), m(2)),
            ("Fix the\n login   bug".into(), m(42)),
            ("Review PR #12".into(), m(7)),
            ("Update the roadmap".into(), m(20)),
        ]);
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("TOP PRIORITY"));
        assert_eq!(
            &lines[1..],
            [
                "1. [escalate or resolve now, 42 min] Fix the login bug",
                "2. [needs attention now, 20 min] Update the roadmap",
                "3. [follow up, 7 min] Review PR #12",
                "4. [new, 2 min] Write release notes",
            ]
        );
    }

    #[test]
    fn long_descriptions_are_cut() {
        let s = task_section(&[("x".repeat(1000), m(1))]);
        let line = s.lines().nth(1).unwrap();
        assert!(line.ends_with('…'));
        assert!(line.chars().count() < 330);
    }
}
