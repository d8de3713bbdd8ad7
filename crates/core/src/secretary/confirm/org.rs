//! Confirmed org changes: hiring, firing, moving someone, making, renaming and deleting
//! a department, and the approval policy with its budget — each through the org service,
//! each with the diff its card shows and how to undo it.

use sea_orm::ActiveEnum;

use crate::org::OrgError;
use crate::org::{
    DeleteDepartment, FireEmployee, MoveEmployee, NewDepartment, NewEmployee, RenameDepartment,
    SetBudget,
};
use crate::secretary::actions::*;
use crate::secretary::service::Secretary;
use crate::types::*;

use super::Applied;

impl Secretary {
    /// Hires them, and their department's chat hears them introduce themselves.
    pub(super) async fn apply_hire(&self, p: &Proposal) -> Result<Applied, OrgError> {
        let Proposal::Hire {
            name,
            title,
            department_id,
            department_name,
            manager_id,
            manager_name,
            archetype,
            role_key,
            ..
        } = p
        else {
            return Err(OrgError::InvalidInput("not a hire".into()));
        };
        let e = self
            .org
            .hire_as(
                NewEmployee {
                    name: name.clone(),
                    title: title.clone(),
                    department_id: *department_id,
                    manager_id: *manager_id,
                    archetype: Some(*archetype),
                },
                role_key.as_deref(),
            )
            .await?;
        if let Err(err) = self.welcome(&e).await {
            tracing::warn!(error = %err, employee = e.id, "could not greet the new hire in their department chat");
        }
        let lang = self.diff_language().await;
        let title = self.title_in(&e.title, lang).await;
        let mut diff = lang.pick(
            format!("+1 {title} ({})", e.name),
            format!("+1 {title}（{}）", e.name),
        );
        if let Some(d) = department_name {
            diff.push_str(&format!(" → {d}"));
        }
        if let (Some(_), Some(m)) = (manager_id, manager_name) {
            diff.push_str(&lang.pick(format!(", reports to {m}"), format!("，汇报给{m}")));
        }
        Ok((Some(Undo::RemoveHire { employee_id: e.id }), diff))
    }

    /// Fires them, remembering whom they managed and what they led, for the undo.
    pub(super) async fn apply_fire(
        &self,
        employee_id: i32,
        name: &str,
    ) -> Result<Applied, OrgError> {
        let snap = self.org.snapshot().await?;
        let reports = snap
            .employees
            .iter()
            .filter(|e| e.manager_id == Some(employee_id))
            .map(|e| e.id)
            .collect();
        let led_departments = snap
            .departments
            .iter()
            .filter(|d| d.lead_id == Some(employee_id))
            .map(|d| d.id)
            .collect();
        self.org.fire(FireEmployee { employee_id }).await?;
        let undo = Undo::Unfire {
            employee_id,
            reports,
            led_departments,
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("−1 {name} (record kept)"),
                format!("−1 {name}（保留记录）"),
            ),
        ))
    }

    pub(super) async fn apply_transfer(
        &self,
        employee_id: i32,
        name: &str,
        department_id: i32,
        department_name: &str,
    ) -> Result<Applied, OrgError> {
        let snap = self.org.snapshot().await?;
        let from = snap
            .employees
            .iter()
            .find(|e| e.id == employee_id)
            .and_then(|e| e.department_id);
        self.org
            .move_employee(MoveEmployee {
                employee_id,
                department_id: Some(department_id),
            })
            .await?;
        let from_name = from
            .and_then(|id| snap.departments.iter().find(|d| d.id == id))
            .map_or("—", |d| d.name.as_str());
        let undo = Undo::MoveBack {
            employee_id,
            department_id: from,
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("{name}: {from_name} → {department_name}"),
                format!("{name}：{from_name} → {department_name}"),
            ),
        ))
    }

    pub(super) async fn apply_create_department(
        &self,
        name: &str,
        parent_id: Option<i32>,
        parent_name: Option<&str>,
    ) -> Result<Applied, OrgError> {
        let d = self
            .org
            .create_department(NewDepartment {
                name: name.to_owned(),
                parent_id,
                mission: None,
            })
            .await?;
        let lang = self.diff_language().await;
        let diff = match (parent_name, lang) {
            (Some(p), Language::En) => format!("+ department {} (in {p})", d.name),
            (None, Language::En) => format!("+ department {}", d.name),
            (Some(p), Language::ZhCn) => format!("+ 部门 {}（隶属{p}）", d.name),
            (None, Language::ZhCn) => format!("+ 部门 {}", d.name),
        };
        let undo = Undo::DeleteDepartment {
            department_id: d.id,
        };
        Ok((Some(undo), diff))
    }

    pub(super) async fn apply_rename_department(
        &self,
        department_id: i32,
        old_name: &str,
        new_name: &str,
    ) -> Result<Applied, OrgError> {
        self.org
            .rename_department(RenameDepartment {
                id: department_id,
                name: new_name.to_owned(),
            })
            .await?;
        let undo = Undo::RenameBack {
            department_id,
            name: old_name.to_owned(),
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("department {old_name} → {new_name}"),
                format!("部门 {old_name} → {new_name}"),
            ),
        ))
    }

    /// Deletes it, keeping a record (its chat included) to restore it from.
    pub(super) async fn apply_delete_department(
        &self,
        department_id: i32,
        name: &str,
        destination: Option<(i32, &str)>,
        headcount: u32,
    ) -> Result<Applied, OrgError> {
        let chat_id = self
            .chats
            .find_department_chat(department_id)
            .await?
            .map(|c| c.id);
        let record = self.org.deletion_record(department_id, chat_id).await?;
        self.org
            .delete_department(DeleteDepartment {
                id: department_id,
                reassign_to: destination.map(|(id, _)| id),
            })
            .await?;
        let lang = self.diff_language().await;
        let diff = match (destination, lang) {
            (Some((_, to)), Language::En) if headcount > 0 || !record.children.is_empty() => {
                format!("− department {name}; its {headcount} people → {to}")
            }
            (Some((_, to)), Language::ZhCn) if headcount > 0 || !record.children.is_empty() => {
                format!("− 部门 {name}；其{headcount}人 → {to}")
            }
            (_, Language::En) => format!("− department {name}"),
            (_, Language::ZhCn) => format!("− 部门 {name}"),
        };
        Ok((Some(Undo::RestoreDepartment { record }), diff))
    }

    pub(super) async fn apply_set_policy(
        &self,
        level: Option<ApprovalPolicy>,
        daily_budget_usd: Option<f64>,
    ) -> Result<Applied, OrgError> {
        let org = &self.org;
        let before = org.company().await?.ok_or(OrgError::CompanyMissing)?;
        let lang = before.language;
        let level_words = |l: ApprovalPolicy| match (lang, l) {
            (Language::En, l) => l.to_value(),
            (Language::ZhCn, ApprovalPolicy::Auto) => "自动".to_owned(),
            (Language::ZhCn, ApprovalPolicy::KeySteps) => "关键步骤".to_owned(),
            (Language::ZhCn, ApprovalPolicy::Manual) => "手动".to_owned(),
        };
        let mut diff = Vec::new();
        if let Some(b) = daily_budget_usd {
            org.set_budget(SetBudget {
                daily_budget_usd: b,
            })
            .await?;
            let was = before.daily_budget_usd;
            diff.push(lang.pick(
                format!("daily budget ${was:.2} → ${b:.2}"),
                format!("每日预算 ${was:.2} → ${b:.2}"),
            ));
        }
        if let Some(l) = level {
            org.set_approval_policy(l).await?;
            let (was, now) = (level_words(before.approval_policy), level_words(l));
            diff.push(lang.pick(
                format!("approvals {was} → {now}"),
                format!("审批 {was} → {now}"),
            ));
        }
        let undo = Undo::RestorePolicy {
            level: before.approval_policy,
            daily_budget_usd: before.daily_budget_usd,
        };
        Ok((Some(undo), diff.join(&lang.pick("; ", "；"))))
    }
}
