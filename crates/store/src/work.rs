//! Queries and mutations for requirements and tasks.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
};

use crate::entity::{requirement, task};
use crate::enums::TaskStatus;

pub async fn insert_task(
    conn: &impl ConnectionTrait,
    model: task::ActiveModel,
) -> Result<task::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_task(conn: &impl ConnectionTrait, id: i32) -> Result<Option<task::Model>, DbErr> {
    task::Entity::find_by_id(id).one(conn).await
}

pub async fn delete_task(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    task::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}

/// Pending tasks, oldest first.
pub async fn pending_tasks(conn: &impl ConnectionTrait) -> Result<Vec<task::Model>, DbErr> {
    task::Entity::find()
        .filter(task::Column::Status.eq(TaskStatus::Pending))
        .order_by_asc(task::Column::Id)
        .all(conn)
        .await
}

/// Every task, newest first (at most `limit`).
pub async fn list_tasks(
    conn: &impl ConnectionTrait,
    limit: u64,
) -> Result<Vec<task::Model>, DbErr> {
    use sea_orm::QuerySelect;
    task::Entity::find()
        .order_by_desc(task::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

/// One employee's pending tasks, oldest first.
pub async fn pending_tasks_of(
    conn: &impl ConnectionTrait,
    owner_id: i32,
) -> Result<Vec<task::Model>, DbErr> {
    task::Entity::find()
        .filter(task::Column::Status.eq(TaskStatus::Pending))
        .filter(task::Column::OwnerId.eq(owner_id))
        .order_by_asc(task::Column::Id)
        .all(conn)
        .await
}

pub async fn update_task(
    conn: &impl ConnectionTrait,
    model: task::ActiveModel,
) -> Result<task::Model, DbErr> {
    model.update(conn).await
}

pub async fn insert_requirement(
    conn: &impl ConnectionTrait,
    model: requirement::ActiveModel,
) -> Result<requirement::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_requirement(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<requirement::Model>, DbErr> {
    requirement::Entity::find_by_id(id).one(conn).await
}

pub async fn update_requirement(
    conn: &impl ConnectionTrait,
    model: requirement::ActiveModel,
) -> Result<requirement::Model, DbErr> {
    model.update(conn).await
}

/// Every task of one requirement, oldest first (the board's task tree).
pub async fn tasks_of_requirement(
    conn: &impl ConnectionTrait,
    requirement_id: i32,
) -> Result<Vec<task::Model>, DbErr> {
    task::Entity::find()
        .filter(task::Column::RequirementId.eq(requirement_id))
        .order_by_asc(task::Column::Id)
        .all(conn)
        .await
}

pub async fn delete_requirement(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    requirement::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}

pub async fn list_requirements(
    conn: &impl ConnectionTrait,
) -> Result<Vec<requirement::Model>, DbErr> {
    requirement::Entity::find()
        .order_by_asc(requirement::Column::Id)
        .all(conn)
        .await
}

/// Tasks created or finished since `since`, plus every task still pending.
pub async fn tasks_for_day(
    conn: &impl ConnectionTrait,
    since: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<task::Model>, DbErr> {
    use sea_orm::Condition;
    task::Entity::find()
        .filter(
            Condition::any()
                .add(task::Column::CreatedAt.gte(since))
                .add(task::Column::ResolvedAt.gte(since))
                .add(task::Column::Status.eq(TaskStatus::Pending)),
        )
        .order_by_asc(task::Column::Id)
        .all(conn)
        .await
}

/// Marks a task's report owed from `due` (`None`: written, or no longer owed).
pub async fn set_report_due(
    conn: &impl ConnectionTrait,
    task_id: i32,
    due: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<(), DbErr> {
    use sea_orm::sea_query::Expr;
    task::Entity::update_many()
        .col_expr(task::Column::ReportDueAt, Expr::value(due))
        .filter(task::Column::Id.eq(task_id))
        .exec(conn)
        .await?;
    Ok(())
}

/// Resolved tasks whose report is still owed (by `owner`, when given), oldest due first.
pub async fn reports_due(
    conn: &impl ConnectionTrait,
    owner: Option<i32>,
) -> Result<Vec<task::Model>, DbErr> {
    let mut q = task::Entity::find()
        .filter(task::Column::Status.eq(TaskStatus::Resolved))
        .filter(task::Column::ReportDueAt.is_not_null());
    if let Some(owner) = owner {
        q = q.filter(task::Column::OwnerId.eq(owner));
    }
    q.order_by_asc(task::Column::ReportDueAt)
        .order_by_asc(task::Column::Id)
        .all(conn)
        .await
}
