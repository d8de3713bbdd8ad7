//! Tools that act on the company itself: recall memories (read-only), and — on an
//! employee's request, always high risk — raise the budget, hire and fire.

use cubicle_store::{chat as cq, org as oq, work as wq};
use schemars::JsonSchema;
use sea_orm::ActiveEnum;
use serde::{Deserialize, Serialize};

use super::{Risk, Tool, ToolContext, ToolError, ToolName};
use crate::mind::memory_rules::Viewer;
use crate::org::{CompanyDto, EmployeeDto, FireEmployee, NewEmployee, SetBudget};
use crate::types::Language;

/// The most memories one call returns.
const MAX_MEMORIES: usize = 20;
const DEFAULT_MEMORIES: usize = 8;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadMemoryArgs {
    /// What to look for (keywords).
    pub query: String,
    /// At most this many (default 8, at most 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecalledMemory {
    pub id: i32,
    pub owner_id: i32,
    pub kind: String,
    pub visibility: String,
    pub content: String,
}

pub struct ReadMemory;

impl Tool for ReadMemory {
    const NAME: ToolName = ToolName::ReadMemory;
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str =
        "Search the memories you may see (your own, your team's, the company's).";
    type Args = ReadMemoryArgs;
    type Output = Vec<RecalledMemory>;

    async fn run(
        cx: &ToolContext<'_>,
        args: ReadMemoryArgs,
    ) -> Result<Vec<RecalledMemory>, ToolError> {
        let db = &cx.runtime.db;
        let me = cx.employee;
        // The same viewer the engine recalls with: its department and the requirements
        // whose chats it is in (team memories reach those).
        let my_chats: Vec<i32> = cq::chats_of_employee(db, me.id)
            .await?
            .iter()
            .map(|c| c.id)
            .collect();
        let requirement_ids = wq::list_requirements(db)
            .await?
            .iter()
            .filter(|r| r.chat_id.is_some_and(|c| my_chats.contains(&c)))
            .map(|r| r.id)
            .collect();
        let viewer = Viewer {
            employee_id: me.id,
            department_id: me.department_id,
            requirement_ids,
        };
        let cap = args
            .limit
            .unwrap_or(DEFAULT_MEMORIES)
            .clamp(1, MAX_MEMORIES);
        let items = cx.runtime.minds.recall(&viewer, &args.query, cap).await?;
        Ok(items
            .into_iter()
            .map(|m| RecalledMemory {
                id: m.id,
                owner_id: m.owner_id,
                kind: m.kind.to_value(),
                visibility: m.visibility.to_value(),
                content: m.content,
            })
            .collect())
    }

    fn describe(args: &ReadMemoryArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("recall memories about {:?}", args.query),
            Language::ZhCn => format!("回忆关于“{}”的记忆", args.query),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RaiseBudgetArgs {
    /// USD added to the company's daily model budget.
    pub amount_usd: f64,
}

pub struct RaiseBudget;

impl Tool for RaiseBudget {
    const NAME: ToolName = ToolName::RaiseBudget;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Ask to raise the company's daily model budget by an amount.";
    type Args = RaiseBudgetArgs;
    type Output = CompanyDto;

    fn bind(_cx: &ToolContext<'_>, args: RaiseBudgetArgs) -> Result<RaiseBudgetArgs, ToolError> {
        if !args.amount_usd.is_finite() || args.amount_usd <= 0.0 {
            return Err(ToolError::InvalidArgs {
                tool: Self::NAME.to_string(),
                message: "the amount must be a positive number of USD".into(),
            });
        }
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: RaiseBudgetArgs) -> Result<CompanyDto, ToolError> {
        let current = oq::find_company(&cx.runtime.db)
            .await?
            .ok_or(crate::org::OrgError::CompanyMissing)?
            .daily_budget_usd;
        Ok(cx
            .runtime
            .org
            .set_budget(SetBudget {
                daily_budget_usd: current + args.amount_usd,
            })
            .await?)
    }

    fn describe(args: &RaiseBudgetArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("raise the daily budget by ${:.2}", args.amount_usd),
            Language::ZhCn => format!("把每日预算提高 ${:.2}", args.amount_usd),
        }
    }

    fn cost_estimate(args: &RaiseBudgetArgs) -> f64 {
        args.amount_usd
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HireArgs {
    pub name: String,
    /// A role title (a catalogue role gives skills and tools).
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub department_id: Option<i32>,
}

pub struct Hire;

impl Tool for Hire {
    const NAME: ToolName = ToolName::Hire;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Ask the boss to hire someone.";
    type Args = HireArgs;
    type Output = EmployeeDto;

    async fn run(cx: &ToolContext<'_>, args: HireArgs) -> Result<EmployeeDto, ToolError> {
        Ok(cx
            .runtime
            .org
            .hire(NewEmployee {
                name: args.name,
                title: args.title,
                department_id: args.department_id,
                manager_id: None,
                archetype: None,
            })
            .await?)
    }

    fn describe(args: &HireArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("hire {} as {}", args.name, args.title),
            Language::ZhCn => format!("招聘{}担任{}", args.name, args.title),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FireArgs {
    pub employee_id: i32,
}

pub struct Fire;

impl Tool for Fire {
    const NAME: ToolName = ToolName::Fire;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Ask the boss to let a colleague go.";
    type Args = FireArgs;
    type Output = EmployeeDto;

    async fn run(cx: &ToolContext<'_>, args: FireArgs) -> Result<EmployeeDto, ToolError> {
        Ok(cx
            .runtime
            .org
            .fire(FireEmployee {
                employee_id: args.employee_id,
            })
            .await?)
    }

    fn describe(args: &FireArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("fire employee #{}", args.employee_id),
            Language::ZhCn => format!("解雇员工 #{}", args.employee_id),
        }
    }
}
