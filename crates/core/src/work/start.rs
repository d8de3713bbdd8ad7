//! A requirement starts itself: the boss opens it, and in the same breath someone owns
//! it — its department's lead, or the member whose skills fit it best when the
//! department has no lead — and has a first task: plan the work, give it out and post
//! the plan in the requirement's group chat. The engine wakes the owner for that task
//! like for any other, so a requirement opened while no engine ran is planned when one
//! starts ([`Work::unstarted_requirements`] finds what could not be started then).

use crate::work::TaskOrigin;
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{employee, requirement};
use cubicle_store::{DbErr, chat as chat_q, org as oq, work as q};
use sea_orm::ActiveValue::Set;
use sea_orm::IntoActiveModel;

use super::board::RequirementStatus;
use super::{NewTask, RequirementDto, Work, requirement_dto};
use crate::events::DomainEvent;
use crate::roles::json_strings;
use crate::types::Language;

impl Work {
    /// The boss's requirement: recorded with its group chat, then started (an owner and
    /// a planning task) when its department has anyone to own it.
    pub async fn open_requirement(
        &self,
        name: &str,
        description: &str,
        department_id: Option<i32>,
    ) -> Result<RequirementDto, DbErr> {
        let r = self
            .create_requirement(name, description, department_id)
            .await?;
        Ok(self.start_requirement(r.id).await?.unwrap_or(r))
    }

    /// Gives an open requirement nobody owns an owner and a planning task, in one
    /// transaction. `None` when it is not waiting to start (owned, moved on, already
    /// worked on) or nobody in its department can own it yet.
    pub async fn start_requirement(&self, id: i32) -> Result<Option<RequirementDto>, DbErr> {
        let txn = self.db.begin_write().await?;
        let Some(r) = q::find_requirement(&txn, id).await? else {
            return Ok(None);
        };
        if !waits_to_start(&r) || !q::tasks_of_requirement(&txn, id).await?.is_empty() {
            return Ok(None);
        }
        let Some(company) = oq::find_company(&txn).await? else {
            return Ok(None);
        };
        let staff = oq::list_employees(&txn, company.id, false).await?;
        let lead = match r.department_id {
            Some(d) => oq::find_department(&txn, d).await?.and_then(|d| d.lead_id),
            None => None,
        };
        let Some(owner) = pick_owner(&r, lead, &staff) else {
            return Ok(None);
        };
        let now = self.clock.now();
        if let Some(chat_id) = r.chat_id
            && chat_q::find_member(&txn, chat_id, owner.id)
                .await?
                .is_none()
        {
            crate::chat::insert_member(&txn, chat_id, owner.id, now).await?;
        }
        let (description, hint) = plan_task_text(&r, company.language);
        let plan = NewTask {
            requirement_id: Some(r.id),
            on_resolve_target: r.chat_id.map(|c| format!("chat:{c}")),
            on_resolve_hint: Some(hint),
            ..NewTask::new(owner.id, &description, TaskOrigin::Plan)
        };
        q::insert_task(&txn, plan.into_row(now)).await?;
        let mut am = r.into_active_model();
        am.owner_id = Set(Some(owner.id));
        am.status = Set(RequirementStatus::InProgress);
        let r = q::update_requirement(&txn, am).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(Some(requirement_dto(&r)))
    }

    /// Open requirements nobody owns and nobody works on: opened while their department
    /// was empty, or before requirements started themselves. The engine tries them at
    /// start.
    pub async fn unstarted_requirements(&self) -> Result<Vec<i32>, DbErr> {
        let mut out = Vec::new();
        for r in q::list_requirements(&self.db).await? {
            if waits_to_start(&r) && q::tasks_of_requirement(&self.db, r.id).await?.is_empty() {
                out.push(r.id);
            }
        }
        Ok(out)
    }
}

fn waits_to_start(r: &requirement::Model) -> bool {
    r.owner_id.is_none() && r.status == RequirementStatus::Open
}

/// The department's lead when it has one; else the member whose skills and title share
/// the most words with the requirement (the longest-serving on a tie). Nobody for a
/// requirement without a department: no one is in a position to take it on.
fn pick_owner<'a>(
    r: &requirement::Model,
    lead: Option<i32>,
    staff: &'a [employee::Model],
) -> Option<&'a employee::Model> {
    let dept = r.department_id?;
    if let Some(lead) = lead.and_then(|id| staff.iter().find(|e| e.id == id)) {
        return Some(lead);
    }
    let text = format!("{} {}", r.name, r.description).to_lowercase();
    staff
        .iter()
        .filter(|e| e.department_id == Some(dept) && e.fired_at.is_none())
        .max_by_key(|e| (fit(e, &text), std::cmp::Reverse(e.id)))
}

/// The colleague of `owner` in the requirement's department whose skills fit it best
/// (the longest-serving on a tie); `None` when the owner is alone there.
pub(crate) fn best_helper<'a>(
    r: &requirement::Model,
    owner: i32,
    staff: impl Iterator<Item = &'a employee::Model>,
) -> Option<&'a employee::Model> {
    let text = format!("{} {}", r.name, r.description).to_lowercase();
    staff
        .filter(|e| e.id != owner && e.fired_at.is_none())
        .filter(|e| r.department_id.is_some() && e.department_id == r.department_id)
        .max_by_key(|e| (fit(e, &text), std::cmp::Reverse(e.id)))
}

/// How many of the employee's skills and title words the requirement's text names.
fn fit(e: &employee::Model, text: &str) -> usize {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let title = e.title.to_lowercase();
    let skills = json_strings(&e.skills);
    skills
        .iter()
        .map(|s| s.to_lowercase())
        .chain(title.split_whitespace().map(str::to_owned))
        .filter(|k| k.chars().count() > 2)
        .filter(|k| {
            // Chinese has no spaces: a skill is named when the text contains it.
            if k.is_ascii() {
                words.iter().any(|w| w == k || w.trim_end_matches('s') == k)
            } else {
                text.contains(k.as_str())
            }
        })
        .count()
}

/// The planning task and the hint for its report, in the company's language.
fn plan_task_text(r: &requirement::Model, lang: Language) -> (String, String) {
    match lang {
        Language::ZhCn => (
            format!(
                "规划需求“{}”：{}。这个需求由你负责：拆成最初的几项任务，每项交给最合适的同事，然后把计划写进这项任务的结果。",
                r.name, r.description
            ),
            "在需求群里发出计划：谁做什么。".to_owned(),
        ),
        Language::En => (
            format!(
                "Plan the requirement \"{}\": {}. You own it: split it into the first tasks, give each to the colleague best suited, and resolve this task with the plan.",
                r.name, r.description
            ),
            "Post the plan in the requirement's group: who does what.".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(id: i32, title: &str, skills: &[&str]) -> employee::Model {
        employee::Model {
            id,
            company_id: 1,
            name: format!("e{id}"),
            title: title.into(),
            department_id: Some(1),
            team_id: None,
            manager_id: None,
            archetype: crate::types::Archetype::OldHand,
            speaking_style: String::new(),
            skills: serde_json::json!(skills),
            backend_provider: String::new(),
            backend_model: String::new(),
            network_access: false,
            tool_whitelist: serde_json::json!([]),
            avatar: None,
            status: crate::types::EmployeeStatus::Idle,
            hired_at: chrono::Utc::now(),
            fired_at: None,
            approval_policy: None,
            cli_command: None,
            imported_cli_command: None,
            persona: None,
            temperature: None,
            max_retries: None,
        }
    }

    fn login() -> requirement::Model {
        requirement::Model {
            id: 1,
            name: "build the login page".into(),
            description: "build the login page with a React form".into(),
            department_id: Some(1),
            status: crate::work::board::RequirementStatus::Open,
            chat_id: Some(3),
            created_at: chrono::Utc::now(),
            reviewer_id: None,
            owner_id: None,
        }
    }

    #[test]
    fn the_lead_owns_it_else_the_member_whose_skills_fit_best() {
        let staff = [
            person(1, "Backend Engineer", &["rust", "sql"]),
            person(2, "Frontend Engineer", &["react", "css"]),
            person(3, "QA Engineer", &["testing"]),
        ];
        assert_eq!(pick_owner(&login(), Some(3), &staff).map(|e| e.id), Some(3));
        assert_eq!(pick_owner(&login(), None, &staff).map(|e| e.id), Some(2));
        // Nobody fits: the longest-serving member.
        let mut other = login();
        other.name = "quarterly numbers".into();
        other.description = "quarterly numbers".into();
        assert_eq!(pick_owner(&other, None, &staff).map(|e| e.id), Some(1));
        // No department, nobody to own it.
        other.department_id = None;
        assert!(pick_owner(&other, None, &staff).is_none());
    }
}
