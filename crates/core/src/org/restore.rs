//! Undoing a department's deletion: what the deletion moved is recorded first, so the
//! department can come back with its people, sub-departments, teams, lead and chat.

use chrono::Utc;
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::department;
use cubicle_store::org as q;
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::IntoActiveModel;

use super::{OrgResult, OrgService, department_dto, ensure_unique_sibling};
use crate::events::DomainEvent;
use crate::org::DepartmentDto;

/// A deleted department as it was: enough to undo the deletion.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DeletedDepartment {
    pub name: String,
    pub mission: String,
    pub parent_id: Option<i32>,
    pub lead_id: Option<i32>,
    pub people: Vec<i32>,
    pub children: Vec<i32>,
    pub teams: Vec<i32>,
    pub chat_id: Option<i32>,
}

impl OrgService {
    /// What deleting a department would move, recorded so the deletion can be undone.
    pub async fn deletion_record(
        &self,
        department_id: i32,
        chat_id: Option<i32>,
    ) -> OrgResult<DeletedDepartment> {
        let c = super::require_company(&self.db).await?;
        let d = self
            .require_department(&self.db, c.id, department_id)
            .await?;
        let departments = q::list_departments(&self.db, c.id).await?;
        Ok(DeletedDepartment {
            name: d.name.clone(),
            mission: d.mission.clone(),
            parent_id: d.parent_id,
            lead_id: d.lead_id,
            people: q::list_employees(&self.db, c.id, false)
                .await?
                .into_iter()
                .filter(|e| e.department_id == Some(d.id))
                .map(|e| e.id)
                .collect(),
            children: departments
                .iter()
                .filter(|x| x.parent_id == Some(d.id))
                .map(|x| x.id)
                .collect(),
            teams: q::list_teams(&self.db, vec![d.id])
                .await?
                .into_iter()
                .map(|t| t.id)
                .collect(),
            chat_id,
        })
    }

    /// Brings a deleted department back (the secretary's Undo): same name, mission and
    /// parent, its people, sub-departments, teams, lead and group chat. People who left
    /// the company since stay gone; a parent deleted since makes it a top-level department.
    pub async fn restore_department(&self, r: &DeletedDepartment) -> OrgResult<DepartmentDto> {
        let txn = self.db.begin_write().await?;
        let c = super::require_company(&txn).await?;
        let parent_id = match r.parent_id {
            Some(p) => q::find_department(&txn, p)
                .await?
                .filter(|d| d.company_id == c.id)
                .map(|d| d.id),
            None => None,
        };
        ensure_unique_sibling(&txn, c.id, parent_id, &r.name, None).await?;
        let d = q::insert_department(
            &txn,
            department::ActiveModel {
                id: NotSet,
                company_id: Set(c.id),
                name: Set(r.name.clone()),
                mission: Set(r.mission.clone()),
                parent_id: Set(parent_id),
                lead_id: Set(None),
                created_at: Set(Utc::now()),
            },
        )
        .await?;
        let mut moved = Vec::new();
        for id in &r.people {
            if let Some(e) = q::find_employee(&txn, *id)
                .await?
                .filter(|e| e.company_id == c.id && e.fired_at.is_none())
            {
                let mut am = e.into_active_model();
                am.department_id = Set(Some(d.id));
                moved.push(q::update_employee(&txn, am).await?.id);
            }
        }
        for id in &r.children {
            if let Some(child) = q::find_department(&txn, *id).await? {
                let mut am = child.into_active_model();
                am.parent_id = Set(Some(d.id));
                q::update_department(&txn, am).await?;
            }
        }
        q::set_teams_department(&txn, r.teams.clone(), d.id).await?;
        if let Some(chat_id) = r.chat_id {
            q::set_chat_department(&txn, chat_id, Some(d.id)).await?;
        }
        let d = match r.lead_id.filter(|l| moved.contains(l)) {
            Some(lead) => {
                let mut am = d.into_active_model();
                am.lead_id = Set(Some(lead));
                q::update_department(&txn, am).await?
            }
            None => d,
        };
        txn.commit().await?;
        self.bus.publish(DomainEvent::DepartmentCreated {
            department_id: d.id,
        });
        for id in &r.children {
            self.bus
                .publish(DomainEvent::DepartmentUpdated { department_id: *id });
        }
        for id in moved {
            self.bus
                .publish(DomainEvent::EmployeeUpdated { employee_id: id });
        }
        Ok(department_dto(&d))
    }
}
