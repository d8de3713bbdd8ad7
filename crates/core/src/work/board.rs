//! The requirements board (SPEC §6, §11): requirements by status, each with its group
//! chat, its reviewer and its task tree (`parent_task_id`: reworks hang under the work
//! they redo; review tasks under the work they review).

use std::collections::HashMap;

use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{requirement, task};
use cubicle_store::{DbErr, org as oq, work as q};
use sea_orm::ActiveValue::Set;
use sea_orm::{IntoActiveModel, Iterable};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{RequirementDto, TaskDto, Work, requirement_dto, task_dto};
use crate::chat::Names;
use crate::error::{ErrorCode, IpcError};
use crate::events::DomainEvent;
use crate::work::TaskStatus;

pub use cubicle_store::enums::RequirementStatus;

/// A task in a requirement's tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaskNodeDto {
    pub task: TaskDto,
    pub owner_name: String,
    pub children: Vec<TaskNodeDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BoardItemDto {
    pub requirement: RequirementDto,
    pub department_name: Option<String>,
    pub reviewer_id: Option<i32>,
    pub reviewer_name: Option<String>,
    /// Who plans it and answers for it.
    pub owner_name: Option<String>,
    pub tasks_pending: u32,
    pub tasks_done: u32,
    pub tree: Vec<TaskNodeDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BoardColumnDto {
    pub status: RequirementStatus,
    pub items: Vec<BoardItemDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BoardDto {
    /// One column per status, in the order open → in progress → in review → waiting for
    /// the boss → done → cancelled.
    pub columns: Vec<BoardColumnDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetRequirementStatus {
    pub requirement_id: i32,
    pub status: RequirementStatus,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetReviewer {
    pub requirement_id: i32,
    /// `None` removes the reviewer: deliverables are reported without review.
    pub reviewer_id: Option<i32>,
}

#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    #[error("{what} {id} does not exist")]
    NotFound { what: &'static str, id: i32 },
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<BoardError> for IpcError {
    fn from(e: BoardError) -> Self {
        let code = match &e {
            BoardError::NotFound { .. } => ErrorCode::NotFound,
            BoardError::Storage(inner) => {
                tracing::error!(error = %inner, "storage error");
                ErrorCode::Storage
            }
        };
        IpcError::new(code, e.to_string())
    }
}

impl Work {
    pub async fn board(&self) -> Result<BoardDto, BoardError> {
        let names = Names::load(&self.db).await?;
        let departments: HashMap<i32, String> = match oq::find_company(&self.db).await? {
            Some(c) => oq::list_departments(&self.db, c.id)
                .await?
                .into_iter()
                .map(|d| (d.id, d.name))
                .collect(),
            None => HashMap::new(),
        };
        let mut columns: Vec<BoardColumnDto> = RequirementStatus::iter()
            .map(|status| BoardColumnDto {
                status,
                items: vec![],
            })
            .collect();
        for r in q::list_requirements(&self.db).await? {
            let tasks = q::tasks_of_requirement(&self.db, r.id).await?;
            let item = BoardItemDto {
                requirement: requirement_dto(&r),
                department_name: r.department_id.and_then(|d| departments.get(&d).cloned()),
                reviewer_id: r.reviewer_id,
                reviewer_name: r.reviewer_id.map(|id| names.person(id).to_owned()),
                owner_name: r.owner_id.map(|id| names.person(id).to_owned()),
                tasks_pending: count(&tasks, TaskStatus::Pending),
                tasks_done: count(&tasks, TaskStatus::Resolved),
                tree: tree(&tasks, &names),
            };
            let status = item.requirement.status;
            if let Some(col) = columns.iter_mut().find(|c| c.status == status) {
                col.items.push(item);
            }
        }
        Ok(BoardDto { columns })
    }

    /// The boss moves a requirement on the board. Moving it to done is the boss's own
    /// review: deliverables flagged as needing review are accepted with it, in the same
    /// transaction.
    pub async fn set_requirement_status(
        &self,
        input: SetRequirementStatus,
    ) -> Result<RequirementDto, BoardError> {
        let r = self.require_requirement(input.requirement_id).await?;
        let txn = self.db.begin_write().await?;
        if input.status == RequirementStatus::Done {
            for t in q::tasks_of_requirement(&txn, r.id).await? {
                if t.needs_review.is_some() {
                    let mut am = t.into_active_model();
                    am.needs_review = Set(None);
                    q::update_task(&txn, am).await?;
                }
            }
        }
        let mut am = r.into_active_model();
        am.status = Set(input.status);
        let r = q::update_requirement(&txn, am).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(requirement_dto(&r))
    }

    /// Names the employee who reviews a requirement's deliverables.
    pub async fn set_reviewer(&self, input: SetReviewer) -> Result<RequirementDto, BoardError> {
        let r = self.require_requirement(input.requirement_id).await?;
        if let Some(id) = input.reviewer_id {
            let ok = oq::find_employee(&self.db, id)
                .await?
                .is_some_and(|e| e.fired_at.is_none());
            if !ok {
                return Err(BoardError::NotFound {
                    what: "employee",
                    id,
                });
            }
        }
        let mut am = r.into_active_model();
        am.reviewer_id = Set(input.reviewer_id);
        let r = q::update_requirement(&self.db, am).await?;
        self.bus.publish(DomainEvent::WorkChanged);
        Ok(requirement_dto(&r))
    }

    async fn require_requirement(&self, id: i32) -> Result<requirement::Model, BoardError> {
        q::find_requirement(&self.db, id)
            .await?
            .ok_or(BoardError::NotFound {
                what: "requirement",
                id,
            })
    }
}

fn count(tasks: &[task::Model], status: TaskStatus) -> u32 {
    u32::try_from(tasks.iter().filter(|t| t.status == status).count()).unwrap_or(u32::MAX)
}

/// Tasks as a forest: a task hangs under its parent (a rework under the work it redoes),
/// a review under the work it reviews; the rest are roots. Oldest first at each level.
pub(crate) fn tree(tasks: &[task::Model], names: &Names) -> Vec<TaskNodeDto> {
    let ids: std::collections::HashSet<i32> = tasks.iter().map(|t| t.id).collect();
    let parent_of = |t: &task::Model| {
        t.parent_task_id
            .or(t.review_of)
            .filter(|p| ids.contains(p) && *p != t.id)
    };
    let mut children: HashMap<i32, Vec<&task::Model>> = HashMap::new();
    let mut roots = Vec::new();
    for t in tasks {
        match parent_of(t) {
            Some(p) => children.entry(p).or_default().push(t),
            None => roots.push(t),
        }
    }
    fn build(
        t: &task::Model,
        children: &HashMap<i32, Vec<&task::Model>>,
        names: &Names,
        depth: usize,
    ) -> TaskNodeDto {
        TaskNodeDto {
            task: task_dto(t),
            owner_name: names.person(t.owner_id).to_owned(),
            // Depth-bounded: a corrupt chain must not recurse forever.
            children: if depth > 16 {
                vec![]
            } else {
                children
                    .get(&t.id)
                    .map(|c| {
                        c.iter()
                            .map(|k| build(k, children, names, depth + 1))
                            .collect()
                    })
                    .unwrap_or_default()
            },
        }
    }
    roots
        .into_iter()
        .map(|t| build(t, &children, names, 0))
        .collect()
}
