//! The soak's figures, computed from the database after the run: the cost ledger (every
//! attempt, retry wait, refusal and breaker change), the thoughts, the tasks, the
//! messages and the employees; plus the engine's queue for the end-of-run check.

use cubicle_core::chat::SenderKind;
use cubicle_core::chat::gates::SilenceReason;
use cubicle_core::types::EmployeeStatus;
use cubicle_core::work::{TaskKind, TaskOrigin, TaskStatus};
use std::collections::BTreeMap;

use anyhow::Result;
use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::AppCore;
use cubicle_core::approvals::ApprovalStatus;
use cubicle_core::bundle::entity::{approval, cost_ledger, employee, task};
use cubicle_core::engine::Engine;
use cubicle_core::gateway::{LedgerOutcome, StructuredOutput, start_of_day};
use serde::Serialize;

/// A task pending this long with no model call by its owner (budget stops aside) is
/// stuck. Longer than the engine's longest pause after failed thoughts (1 h).
pub const STUCK_AFTER: TimeDelta = TimeDelta::hours(2);

#[derive(Clone, Debug, Default, Serialize)]
pub struct DaySpend {
    pub day: String,
    pub spent_usd: f64,
    pub budget_usd: f64,
    /// What the call in flight when the budget was reached cost (0 if never reached).
    pub in_flight_usd: f64,
    pub refused: u64,
    /// Spent ≤ budget + the one call in flight, and nothing paid after the first refusal.
    pub within_rule: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Stuck {
    pub employee: String,
    pub why: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Figures {
    pub simulated_days: u32,
    pub employees: usize,
    /// Gateway calls (first attempts) and all attempts on the wire.
    pub calls: u64,
    pub attempts: u64,
    pub attempts_ok: u64,
    /// Failed attempts by what the ledger says went wrong.
    pub attempts_failed: BTreeMap<String, u64>,
    /// Failed attempts the gateway retried (their row carries the wait), and the waits.
    pub retries: u64,
    pub retry_wait_ms_total: i64,
    pub retry_wait_ms_max: i64,
    pub breaker_opened: u64,
    pub breaker_closed: u64,
    pub refused_breaker_open: u64,
    pub refused_budget: u64,
    pub days_budget_bound: u64,
    /// Structured answers by what became of them.
    pub outputs: BTreeMap<StructuredOutput, u64>,
    /// Thoughts had, and thoughts lost by reason (`malformed`, `model_error`, `budget`).
    pub thoughts_ok: u64,
    pub thoughts_lost: BTreeMap<String, u64>,
    pub boss_messages: u64,
    pub employee_messages: u64,
    pub tasks_by_boss: u64,
    pub tasks_by_employees: u64,
    pub tasks_resolved: u64,
    pub tasks_failed: u64,
    pub tasks_pending_at_end: u64,
    pub spend: Vec<DaySpend>,
    pub spend_total_usd: f64,
    pub crashes: u64,
    pub stuck: Vec<Stuck>,
    pub wall_seconds: f64,
}

/// What a failed attempt's `error` says, as a report row.
fn kind_of(error: &str) -> String {
    let code = error.split(':').next().unwrap_or("");
    match code {
        "rate_limited" if error.contains("retry after") => "429 + Retry-After".into(),
        "rate_limited" => "429 (no Retry-After)".into(),
        "http" if error.contains("500") => "HTTP 500".into(),
        "timeout" => "timeout".into(),
        "transport" | "stream_cut" => "cut (connection closed mid-body)".into(),
        other => other.to_owned(),
    }
}

pub async fn compute(
    core: &AppCore,
    engine: &Engine,
    from: DateTime<Utc>,
    days: u32,
    budget: f64,
) -> Result<Figures> {
    // The whole company as one consistent moment, read through core.
    let all = cubicle_core::bundle::export(core).await?.tables;
    let mut ledger = all.cost_ledger;
    ledger.sort_by_key(|r| r.id);
    let mut f = Figures {
        simulated_days: days,
        ..Figures::default()
    };
    tally_calls(&mut f, &ledger);
    f.spend = spend_per_day(&ledger, from, days, budget);
    f.days_budget_bound = f.spend.iter().filter(|d| d.refused > 0).count() as u64;
    f.spend_total_usd = ledger.iter().map(|r| r.cost_usd).sum();

    for t in &all.thought {
        match t.silenced_by {
            Some(
                why
                @ (SilenceReason::Malformed | SilenceReason::ModelError | SilenceReason::Budget),
            ) => {
                *f.thoughts_lost.entry(why.to_string()).or_default() += 1;
            }
            _ => f.thoughts_ok += 1,
        }
    }
    for m in &all.chat_message {
        match m.sender_kind {
            SenderKind::Boss => f.boss_messages += 1,
            SenderKind::Employee => f.employee_messages += 1,
            // The soak's company has no people besides the boss.
            SenderKind::System | SenderKind::Person | SenderKind::Proxy => {}
        }
    }
    let tasks = all.task;
    for t in &tasks {
        if t.created_by == TaskOrigin::Boss {
            f.tasks_by_boss += 1;
        } else {
            f.tasks_by_employees += 1;
        }
        match t.status {
            TaskStatus::Resolved => f.tasks_resolved += 1,
            TaskStatus::Failed => f.tasks_failed += 1,
            _ => f.tasks_pending_at_end += 1,
        }
    }

    let staff = all.employee;
    f.employees = staff.iter().filter(|e| e.fired_at.is_none()).count();
    let end = from + TimeDelta::days(i64::from(days));
    let books = Books {
        staff: &staff,
        tasks: &tasks,
        ledger: &ledger,
        approvals: &all.approval,
    };
    f.stuck = stuck(core, engine, books, end).await?;
    Ok(f)
}

/// Spend per simulated day against the budget, and the rule: once a day's ledger reaches
/// the budget no new call is admitted, so nothing is paid after the day's first
/// `budget_exceeded` refusal, and the day's spend exceeds the budget by at most the one
/// call in flight when it was reached (that call's attempts, including its one
/// structured retry).
fn spend_per_day(
    ledger: &[cost_ledger::Model],
    from: DateTime<Utc>,
    days: u32,
    budget: f64,
) -> Vec<DaySpend> {
    (0..days)
        .map(|d| {
            let day = start_of_day(from + TimeDelta::days(i64::from(d)) + TimeDelta::hours(12));
            let next = day + TimeDelta::days(1);
            let rows: Vec<&cost_ledger::Model> = ledger
                .iter()
                .filter(|r| r.at >= day && r.at < next)
                .collect();
            let spent: f64 = rows.iter().map(|r| r.cost_usd).sum();
            let refused = rows
                .iter()
                .filter(|r| r.outcome == LedgerOutcome::BudgetExceeded)
                .count() as u64;
            let paid_after_refusal = rows
                .iter()
                .skip_while(|r| r.outcome != LedgerOutcome::BudgetExceeded)
                .any(|r| r.cost_usd > 0.0);
            // The row that reached the budget, and the call it belongs to.
            let mut total = 0.0;
            let crossing = rows.iter().position(|r| {
                total += r.cost_usd;
                total >= budget
            });
            let in_flight = crossing.map_or(0.0, |i| {
                let call_start = rows[..=i].iter().rposition(|r| r.attempt == 1).unwrap_or(i);
                // The call's first attempt and the retries that follow it.
                rows[call_start].cost_usd
                    + rows[call_start + 1..]
                        .iter()
                        .take_while(|r| r.attempt > 1)
                        .map(|r| r.cost_usd)
                        .sum::<f64>()
            });
            DaySpend {
                day: day.format("%a %Y-%m-%d").to_string(),
                spent_usd: spent,
                budget_usd: budget,
                in_flight_usd: in_flight,
                refused,
                within_rule: !paid_after_refusal && spent <= budget + in_flight + 1e-9,
            }
        })
        .collect()
}

/// Calls, attempts, retries, breaker turns and refusals, from the ledger.
fn tally_calls(f: &mut Figures, ledger: &[cost_ledger::Model]) {
    for r in ledger {
        match r.outcome {
            LedgerOutcome::Ok | LedgerOutcome::Error | LedgerOutcome::Cancelled => {
                f.attempts += 1;
                f.calls += u64::from(r.attempt == 1);
                if r.outcome == LedgerOutcome::Ok {
                    f.attempts_ok += 1;
                } else {
                    *f.attempts_failed
                        .entry(kind_of(r.error.as_deref().unwrap_or("")))
                        .or_default() += 1;
                }
                if let Some(ms) = r.backoff_ms {
                    f.retries += 1;
                    f.retry_wait_ms_total += i64::from(ms);
                    f.retry_wait_ms_max = f.retry_wait_ms_max.max(i64::from(ms));
                }
                if let Some(o) = r.output {
                    *f.outputs.entry(o).or_default() += 1;
                }
            }
            LedgerOutcome::BreakerOpened => f.breaker_opened += 1,
            LedgerOutcome::BreakerClosed => f.breaker_closed += 1,
            LedgerOutcome::BreakerOpen => f.refused_breaker_open += 1,
            LedgerOutcome::BudgetExceeded => f.refused_budget += 1,
        }
    }
}

/// A status other than idle at the end, unless an approval of theirs still waits.
fn unexplained_status(e: &employee::Model, approvals: &[approval::Model]) -> Option<Stuck> {
    let waits = approvals
        .iter()
        .any(|a| a.employee_id == e.id && a.status == ApprovalStatus::Waiting);
    (e.status != EmployeeStatus::Idle && !(e.status == EmployeeStatus::WaitingApproval && waits))
        .then(|| Stuck {
            employee: e.name.clone(),
            why: format!("status {} at the end with nothing to explain it", e.status),
        })
}

/// The spans in which nobody could work: after a day's first refusal for money, until
/// midnight.
fn budget_stops(ledger: &[cost_ledger::Model]) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
    let mut v: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::new();
    for r in ledger
        .iter()
        .filter(|r| r.outcome == LedgerOutcome::BudgetExceeded)
    {
        let midnight = start_of_day(r.at) + TimeDelta::days(1);
        if v.last().is_none_or(|(_, to)| *to != midnight) {
            v.push((r.at, midnight));
        }
    }
    v
}

/// What the end of the run holds, as read once for the report.
#[derive(Clone, Copy)]
struct Books<'a> {
    staff: &'a [employee::Model],
    tasks: &'a [task::Model],
    ledger: &'a [cost_ledger::Model],
    approvals: &'a [approval::Model],
}

/// Stuck employees, precisely:
/// 1. at the end, a status other than `idle` that nothing explains (`waiting_approval`
///    with no approval waiting);
/// 2. at the end, a pending one-shot task or an unread message, and no wake-up queued
///    for them in the engine (nothing will ever make them look at it);
/// 3. during the run, a one-shot task pending for more than [`STUCK_AFTER`] with no
///    model call by its owner (any ledger row, refusals included), not counting the
///    hours after the day's budget ran out.
async fn stuck(
    core: &AppCore,
    engine: &Engine,
    books: Books<'_>,
    end: DateTime<Utc>,
) -> Result<Vec<Stuck>> {
    let Books {
        staff,
        tasks,
        ledger,
        approvals: waiting,
    } = books;
    let mut out = Vec::new();
    let stops = budget_stops(ledger);
    let stopped = |a: DateTime<Utc>, b: DateTime<Utc>| -> TimeDelta {
        stops
            .iter()
            .map(|(from, to)| (b.min(*to) - a.max(*from)).max(TimeDelta::zero()))
            .sum()
    };
    for e in staff.iter().filter(|e| e.fired_at.is_none()) {
        let name = e.name.clone();
        out.extend(unexplained_status(e, waiting));
        let pending = tasks
            .iter()
            .filter(|t| {
                t.owner_id == e.id && t.kind == TaskKind::Oneshot && t.status == TaskStatus::Pending
            })
            .count();
        let unread = core.chats.unread_chats_of(e.id).await?.len();
        if (pending > 0 || unread > 0) && engine.pending_for(e.id).is_empty() {
            out.push(Stuck {
                employee: name.clone(),
                why: format!(
                    "{pending} pending task(s), {unread} chat(s) with unread messages and no wake-up queued"
                ),
            });
        }
        let calls: Vec<DateTime<Utc>> = ledger
            .iter()
            .filter(|r| r.employee_id == Some(e.id))
            .map(|r| r.at)
            .collect();
        for t in tasks
            .iter()
            .filter(|t| t.owner_id == e.id && t.kind == TaskKind::Oneshot)
        {
            let until = t.resolved_at.unwrap_or(end).min(end);
            let mut points: Vec<DateTime<Utc>> = vec![t.created_at];
            points.extend(
                calls
                    .iter()
                    .filter(|at| **at > t.created_at && **at < until),
            );
            points.push(until);
            let worst = points
                .windows(2)
                .map(|w| (w[1] - w[0]) - stopped(w[0], w[1]))
                .max()
                .unwrap_or_default();
            if worst > STUCK_AFTER {
                out.push(Stuck {
                    employee: name.clone(),
                    why: format!(
                        "task #{} pending {:.1} h with no model call",
                        t.id,
                        worst.num_minutes() as f64 / 60.0
                    ),
                });
            }
        }
    }
    Ok(out)
}
