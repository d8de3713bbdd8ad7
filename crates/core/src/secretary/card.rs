//! A card's other transitions — cancelling a proposal and undoing an applied one within
//! its window — and the claim every transition makes, so none happens twice.

use chrono::Utc;
use cubicle_store::entity::secretary_action;
use cubicle_store::{DbErr, secretary as q};
use sea_orm::ActiveValue::Set;
use sea_orm::IntoActiveModel;

use super::actions::*;
use super::service::{Secretary, SecretaryError, SecretaryResult, action_dto};
use crate::org::OrgError;
use crate::org::{DeleteDepartment, MoveEmployee, RenameDepartment, SetBudget};

impl Secretary {
    pub async fn cancel(&self, action_id: i32) -> SecretaryResult<ActionDto> {
        self.require(action_id, ActionStatus::Proposed).await?;
        self.claim(action_id, ActionStatus::Proposed, ActionStatus::Cancelled)
            .await?;
        let row = self.require(action_id, ActionStatus::Cancelled).await?;
        Ok(action_dto(&row))
    }

    pub async fn undo(&self, action_id: i32) -> SecretaryResult<ActionDto> {
        let row = self.require(action_id, ActionStatus::Applied).await?;
        let (Some(undo), Some(until)) = (row.undo.clone(), row.undo_until) else {
            return Err(SecretaryError::NotUndoable);
        };
        if Utc::now() > until {
            return Err(SecretaryError::UndoExpired);
        }
        let undo: Undo = serde_json::from_value(undo)
            .map_err(|e| SecretaryError::Storage(DbErr::Custom(format!("bad undo: {e}"))))?;
        self.claim(action_id, ActionStatus::Applied, ActionStatus::InProgress)
            .await?;
        if let Err(e) = self.reverse(undo).await {
            // Nothing was reversed: the action stays applied (and undoable while time lasts).
            q::transition_action(
                &self.db,
                action_id,
                ActionStatus::InProgress,
                ActionStatus::Applied,
            )
            .await?;
            return Err(e.into());
        }
        let mut am = row.into_active_model();
        am.status = Set(ActionStatus::Undone);
        Ok(action_dto(&q::update_action(&self.db, am).await?))
    }

    pub(super) async fn claim(
        &self,
        id: i32,
        from: ActionStatus,
        to: ActionStatus,
    ) -> SecretaryResult<()> {
        if q::transition_action(&self.db, id, from, to).await? {
            Ok(())
        } else {
            // Another caller moved it first: it is being handled.
            Err(SecretaryError::WrongStatus {
                id,
                status: ActionStatus::InProgress,
                expected: from,
            })
        }
    }

    pub(super) async fn require(
        &self,
        id: i32,
        expected: ActionStatus,
    ) -> SecretaryResult<secretary_action::Model> {
        let row = q::find_action(&self.db, id)
            .await?
            .ok_or(SecretaryError::NoAction(id))?;
        if row.status != expected {
            return Err(SecretaryError::WrongStatus {
                id,
                status: row.status,
                expected,
            });
        }
        Ok(row)
    }

    async fn reverse(&self, undo: Undo) -> Result<(), OrgError> {
        let org = &self.org;
        match undo {
            Undo::RemoveHire { employee_id } => org.undo_hire(employee_id).await,
            Undo::Unfire {
                employee_id,
                reports,
                led_departments,
            } => org
                .undo_fire(employee_id, &reports, &led_departments)
                .await
                .map(|_| ()),
            Undo::MoveBack {
                employee_id,
                department_id,
            } => org
                .move_employee(MoveEmployee {
                    employee_id,
                    department_id,
                })
                .await
                .map(|_| ()),
            Undo::DeleteDepartment { department_id } => {
                org.delete_department(DeleteDepartment {
                    id: department_id,
                    reassign_to: None,
                })
                .await
            }
            Undo::RenameBack {
                department_id,
                name,
            } => org
                .rename_department(RenameDepartment {
                    id: department_id,
                    name,
                })
                .await
                .map(|_| ()),
            Undo::WithdrawTask { task_id, helpers } => self.withdraw(task_id, helpers).await,
            Undo::RemovePerson { person_id } => self.people.remove(person_id).await,
            Undo::RestoreReviewer {
                requirement_id,
                reviewer_id,
            } => self.write_reviewer(requirement_id, reviewer_id).await,
            Undo::RemoveRequirement {
                requirement_id,
                chat_id,
            } => {
                let removed = self
                    .work
                    .remove_requirement(requirement_id, chat_id)
                    .await?;
                removed.then_some(()).ok_or_else(|| {
                    OrgError::InvalidInput("the requirement is already being worked on".into())
                })
            }
            Undo::RestorePolicy {
                level,
                daily_budget_usd,
            } => {
                org.set_budget(SetBudget { daily_budget_usd }).await?;
                org.set_approval_policy(level).await.map(|_| ())
            }
            Undo::RestoreDepartment { record } => org.restore_department(&record).await.map(|_| ()),
            Undo::EndMeeting { chat_id } => Ok(self.chats.end_meeting(chat_id).await?),
        }
    }

    /// Takes a task back (with its helpers' tasks) while nobody has worked on it.
    async fn withdraw(&self, task_id: i32, helpers: Vec<i32>) -> Result<(), OrgError> {
        if !self.work.withdraw_task(task_id).await? {
            return Err(OrgError::InvalidInput(
                "the task has already been worked on".into(),
            ));
        }
        for h in helpers {
            self.work.withdraw_task(h).await?;
        }
        Ok(())
    }

    pub(super) async fn write_reviewer(
        &self,
        requirement_id: i32,
        reviewer_id: Option<i32>,
    ) -> Result<(), OrgError> {
        use crate::work::board::{BoardError, SetReviewer};
        self.work
            .set_reviewer(SetReviewer {
                requirement_id,
                reviewer_id,
            })
            .await
            .map(|_| ())
            .map_err(|e| match e {
                BoardError::Storage(e) => OrgError::Storage(e),
                other => OrgError::InvalidInput(other.to_string()),
            })
    }
}
