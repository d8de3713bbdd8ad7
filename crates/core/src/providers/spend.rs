//! What model calls cost: today, the last 7 days, by employee and by model.

use std::collections::BTreeMap;

use chrono::{Days, Local, NaiveDate, Utc};
use cubicle_store::entity::cost_ledger;
use cubicle_store::models as q;

use super::{ProviderResult, Providers, SPEND_DAYS};
use crate::gateway::{LedgerOutcome, StructuredOutput};
use crate::providers::{SpendByEmployee, SpendByModel, SpendDay, SpendReport};

impl Providers {
    /// Model answers since `since` that stopped at the token cap (unusable).
    pub async fn answers_cut_off_since(&self, since: chrono::DateTime<Utc>) -> ProviderResult<u64> {
        let rows = q::ledger_since(&self.db, since).await?;
        Ok(rows
            .iter()
            .filter(|r| r.output == Some(StructuredOutput::CutOff))
            .count() as u64)
    }

    pub async fn spend(&self) -> ProviderResult<SpendReport> {
        let today = Local::now().date_naive();
        let first = today
            .checked_sub_days(Days::new(SPEND_DAYS - 1))
            .unwrap_or(today);
        let rows = q::ledger_since(&self.db, local_midnight_utc(first)).await?;
        let company = cubicle_store::org::find_company(&self.db).await?;
        let budget = company
            .as_ref()
            .map(|c| c.daily_budget_usd)
            .unwrap_or(crate::gateway::DEFAULT_DAILY_BUDGET_USD);
        let names: BTreeMap<i32, String> = match &company {
            Some(c) => cubicle_store::org::list_employees(&self.db, c.id, true)
                .await?
                .into_iter()
                .map(|e| (e.id, e.name))
                .collect(),
            None => BTreeMap::new(),
        };
        let mut tally = Tally::new(first, today);
        for r in &rows {
            tally.add(r, &names);
        }
        Ok(tally.into_report(budget))
    }
}

/// The ledger summed up as it is read: today, each day of the window, each employee and
/// each model.
struct Tally {
    today: NaiveDate,
    days: BTreeMap<NaiveDate, SpendDay>,
    by_employee: BTreeMap<Option<i32>, SpendByEmployee>,
    by_model: BTreeMap<(String, String), SpendByModel>,
    today_usd: f64,
    calls_today: u32,
    refused_today: u32,
}

impl Tally {
    /// Every day from `first` to today at zero, so a quiet day still shows.
    fn new(first: NaiveDate, today: NaiveDate) -> Self {
        let days = (0..SPEND_DAYS)
            .filter_map(|i| first.checked_add_days(Days::new(i)))
            .map(|d| {
                let day = SpendDay {
                    date: d.format("%Y-%m-%d").to_string(),
                    cost_usd: 0.0,
                    calls: 0,
                };
                (d, day)
            })
            .collect();
        Self {
            today,
            days,
            by_employee: BTreeMap::new(),
            by_model: BTreeMap::new(),
            today_usd: 0.0,
            calls_today: 0,
            refused_today: 0,
        }
    }

    fn add(&mut self, r: &cost_ledger::Model, names: &BTreeMap<i32, String>) {
        // A breaker opening or closing is a note, neither a call nor a refusal.
        if matches!(
            r.outcome,
            LedgerOutcome::BreakerOpened | LedgerOutcome::BreakerClosed
        ) {
            return;
        }
        let made = r.attempt > 0;
        let day = r.at.with_timezone(&Local).date_naive();
        if day == self.today {
            if made {
                self.today_usd += r.cost_usd;
                self.calls_today += 1;
            } else {
                self.refused_today += 1;
            }
        }
        if !made {
            return;
        }
        if let Some(entry) = self.days.get_mut(&day) {
            entry.cost_usd += r.cost_usd;
            entry.calls += 1;
        }
        let e = self
            .by_employee
            .entry(r.employee_id)
            .or_insert_with(|| SpendByEmployee {
                employee_id: r.employee_id,
                name: r.employee_id.and_then(|id| names.get(&id).cloned()),
                cost_usd: 0.0,
                calls: 0,
            });
        e.cost_usd += r.cost_usd;
        e.calls += 1;
        let m = self
            .by_model
            .entry((r.provider_id.clone(), r.model.clone()))
            .or_insert_with(|| SpendByModel {
                provider_id: r.provider_id.clone(),
                model: r.model.clone(),
                cost_usd: 0.0,
                calls: 0,
                input_tokens: 0,
                output_tokens: 0,
                fallback_calls: 0,
            });
        m.cost_usd += r.cost_usd;
        m.calls += 1;
        m.input_tokens += u32::try_from(r.input_tokens).unwrap_or(0);
        m.output_tokens += u32::try_from(r.output_tokens).unwrap_or(0);
        m.fallback_calls += u32::from(r.fallback);
    }

    /// The report, the most expensive employees and models first.
    fn into_report(self, budget_usd: f64) -> SpendReport {
        let mut by_employee: Vec<_> = self.by_employee.into_values().collect();
        by_employee.sort_by(|a, b| b.cost_usd.total_cmp(&a.cost_usd));
        let mut by_model: Vec<_> = self.by_model.into_values().collect();
        by_model.sort_by(|a, b| b.cost_usd.total_cmp(&a.cost_usd));
        SpendReport {
            today_usd: self.today_usd,
            budget_usd,
            calls_today: self.calls_today,
            refused_today: self.refused_today,
            days: self.days.into_values().collect(),
            by_employee,
            by_model,
        }
    }
}

fn local_midnight_utc(day: NaiveDate) -> chrono::DateTime<Utc> {
    day.and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_local_timezone(Local).earliest())
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(Utc::now)
}
