//! The built-in catalogue of role templates (SPEC §2): what a new hire of a given
//! role starts with. Seeded into the `role_template` table, where the boss may add more.

use cubicle_store::{ConnectionTrait, DbErr, entity::role_template, org as q};
use sea_orm::ActiveValue::{NotSet, Set};

use crate::types::Archetype;

use crate::org::RoleTemplateDto;

pub struct RoleTemplate {
    pub key: &'static str,
    pub title: &'static str,
    pub title_zh: &'static str,
    pub archetype: Archetype,
    pub skills: &'static [&'static str],
    pub tools: &'static [&'static str],
    pub description: &'static str,
}

// Tool names are those of `crate::tools`; the risky ones still wait for the boss
// under `key_steps` (SPEC §8), the whitelist only says who may ask at all.
const READ: &[&str] = &["read_memory", "read_file"];
const READ_WRITE: &[&str] = &["read_memory", "read_file", "write_file"];

pub const CATALOGUE: &[RoleTemplate] = &[
    RoleTemplate {
        key: "frontend_engineer",
        title: "Frontend Engineer",
        title_zh: "前端工程师",
        archetype: Archetype::UltraGrinder,
        skills: &["react", "typescript", "css", "accessibility"],
        tools: READ_WRITE,
        description: "Builds the user interface and cares about how it feels.",
    },
    RoleTemplate {
        key: "backend_engineer",
        title: "Backend Engineer",
        title_zh: "后端工程师",
        archetype: Archetype::OldHand,
        skills: &["rust", "sql", "api design", "performance"],
        tools: READ_WRITE,
        description: "Designs services, data models and APIs.",
    },
    RoleTemplate {
        key: "fullstack_engineer",
        title: "Full-stack Engineer",
        title_zh: "全栈工程师",
        archetype: Archetype::RebelSlacker,
        skills: &["typescript", "rust", "databases", "deployment"],
        tools: READ_WRITE,
        description: "Ships features end to end.",
    },
    RoleTemplate {
        key: "mobile_engineer",
        title: "Mobile Engineer",
        title_zh: "移动端工程师",
        archetype: Archetype::Chatterbox,
        skills: &["swift", "kotlin", "react native"],
        tools: READ_WRITE,
        description: "Builds the iOS and Android apps.",
    },
    RoleTemplate {
        key: "devops_engineer",
        title: "DevOps Engineer",
        title_zh: "运维工程师",
        archetype: Archetype::ZenSlacker,
        skills: &["ci/cd", "linux", "monitoring", "cloud"],
        tools: &[
            "read_memory",
            "read_file",
            "write_file",
            "delete_file",
            "run_shell",
        ],
        description: "Keeps builds, deployments and servers healthy.",
    },
    RoleTemplate {
        key: "qa_engineer",
        title: "QA Engineer",
        title_zh: "测试工程师",
        archetype: Archetype::AnxiousPerfectionist,
        skills: &["test plans", "automation", "bug triage"],
        tools: READ_WRITE,
        description: "Finds what breaks before users do.",
    },
    RoleTemplate {
        key: "data_scientist",
        title: "Data Scientist",
        title_zh: "数据科学家",
        archetype: Archetype::Philosopher,
        skills: &["statistics", "python", "experiments", "visualisation"],
        tools: READ_WRITE,
        description: "Turns data into decisions.",
    },
    RoleTemplate {
        key: "ui_designer",
        title: "UI/UX Designer",
        title_zh: "UI/UX 设计师",
        archetype: Archetype::Idealist,
        skills: &[
            "interaction design",
            "visual design",
            "prototyping",
            "user research",
        ],
        tools: READ_WRITE,
        description: "Designs flows and screens people enjoy using.",
    },
    RoleTemplate {
        key: "product_manager",
        title: "Product Manager",
        title_zh: "产品经理",
        archetype: Archetype::WarmHearted,
        skills: &[
            "roadmaps",
            "requirements",
            "prioritisation",
            "user interviews",
        ],
        tools: READ_WRITE,
        description: "Decides what to build and why.",
    },
    RoleTemplate {
        key: "project_manager",
        title: "Project Manager",
        title_zh: "项目经理",
        archetype: Archetype::OldHand,
        skills: &["planning", "risk management", "coordination"],
        tools: READ_WRITE,
        description: "Keeps work on schedule and people in sync.",
    },
    RoleTemplate {
        key: "researcher",
        title: "Researcher",
        title_zh: "研究员",
        archetype: Archetype::ShyIntrovert,
        skills: &["literature review", "analysis", "summaries"],
        tools: READ_WRITE,
        description: "Investigates questions and reports findings.",
    },
    RoleTemplate {
        key: "technical_writer",
        title: "Technical Writer",
        title_zh: "技术文档工程师",
        archetype: Archetype::AnxiousPerfectionist,
        skills: &["documentation", "editing", "tutorials"],
        tools: READ_WRITE,
        description: "Writes docs people can follow.",
    },
    RoleTemplate {
        key: "content_writer",
        title: "Content Writer",
        title_zh: "文案策划",
        archetype: Archetype::ComedyRelief,
        skills: &["copywriting", "storytelling", "social media"],
        tools: READ_WRITE,
        description: "Writes copy for the website, blog and campaigns.",
    },
    RoleTemplate {
        key: "marketing_manager",
        title: "Marketing Manager",
        title_zh: "市场经理",
        archetype: Archetype::Chatterbox,
        skills: &["campaigns", "positioning", "analytics"],
        tools: &["read_memory", "read_file", "write_file", "post_webhook"],
        description: "Gets the product in front of the right people.",
    },
    RoleTemplate {
        key: "sales_representative",
        title: "Sales Representative",
        title_zh: "销售代表",
        archetype: Archetype::UltraGrinder,
        skills: &["prospecting", "negotiation", "crm"],
        tools: READ_WRITE,
        description: "Finds customers and closes deals.",
    },
    RoleTemplate {
        key: "customer_support",
        title: "Customer Support Specialist",
        title_zh: "客服专员",
        archetype: Archetype::WarmHearted,
        skills: &["empathy", "troubleshooting", "knowledge base"],
        tools: READ_WRITE,
        description: "Helps customers and feeds their problems back to the team.",
    },
    RoleTemplate {
        key: "operations_manager",
        title: "Operations Manager",
        title_zh: "运营经理",
        archetype: Archetype::OldHand,
        skills: &["processes", "vendors", "reporting"],
        tools: &["read_memory", "read_file", "write_file", "post_webhook"],
        description: "Runs the day-to-day machinery of the company.",
    },
    RoleTemplate {
        key: "legal_counsel",
        title: "Legal Counsel",
        title_zh: "法务顾问",
        archetype: Archetype::PassiveAggressive,
        skills: &["contracts", "compliance", "privacy"],
        tools: READ,
        description: "Keeps the company compliant and its contracts sound.",
    },
    RoleTemplate {
        key: "finance_analyst",
        title: "Finance Analyst",
        title_zh: "财务分析师",
        archetype: Archetype::AnxiousPerfectionist,
        skills: &["budgeting", "forecasting", "spreadsheets"],
        tools: &["read_memory", "read_file", "raise_budget"],
        description: "Tracks spend and plans the budget.",
    },
    RoleTemplate {
        key: "hr_specialist",
        title: "HR Specialist",
        title_zh: "人事专员",
        archetype: Archetype::WarmHearted,
        skills: &["recruiting", "onboarding", "culture"],
        tools: &["read_memory", "read_file", "hire", "fire"],
        description: "Looks after hiring and the people in the company.",
    },
];

/// Finds the template whose English or Chinese title matches `title` (case-insensitive).
pub fn match_title(title: &str) -> Option<&'static RoleTemplate> {
    let t = title.trim().to_lowercase();
    CATALOGUE
        .iter()
        .find(|r| r.title.to_lowercase() == t || r.title_zh == t || r.key == t)
}

/// Inserts the catalogue's roles that the table does not have yet (by key).
pub async fn seed(conn: &impl ConnectionTrait) -> Result<(), DbErr> {
    for role in CATALOGUE {
        if q::find_role_template(conn, role.key).await?.is_some() {
            continue;
        }
        q::insert_role_template(
            conn,
            role_template::ActiveModel {
                id: NotSet,
                key: Set(role.key.to_owned()),
                title: Set(role.title.to_owned()),
                title_zh: Set(role.title_zh.to_owned()),
                archetype: Set(role.archetype),
                skills: Set(serde_json::json!(role.skills)),
                tools: Set(serde_json::json!(role.tools)),
                description: Set(role.description.to_owned()),
            },
        )
        .await?;
    }
    Ok(())
}

pub fn to_dto(m: &role_template::Model) -> RoleTemplateDto {
    RoleTemplateDto {
        key: m.key.clone(),
        title: m.title.clone(),
        title_zh: m.title_zh.clone(),
        archetype: m.archetype,
        skills: json_strings(&m.skills),
    }
}

/// A JSON array of strings as a `Vec`; anything else reads as empty.
pub fn json_strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn catalogue_has_at_least_fifteen_distinct_roles() {
        let keys: HashSet<_> = CATALOGUE.iter().map(|r| r.key).collect();
        assert!(keys.len() >= 15, "only {} roles", keys.len());
        assert_eq!(keys.len(), CATALOGUE.len(), "duplicate keys");
    }

    #[test]
    fn titles_match_in_both_languages() {
        assert_eq!(
            match_title("frontend engineer").map(|r| r.key),
            Some("frontend_engineer")
        );
        assert_eq!(
            match_title("测试工程师").map(|r| r.key),
            Some("qa_engineer")
        );
        assert!(match_title("astronaut").is_none());
    }
}
