//! Queries and mutations for the boss's mailbox.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::mail;
use crate::enums::{MailKind, MailStatus};

pub async fn insert_mail(
    conn: &impl ConnectionTrait,
    model: mail::ActiveModel,
) -> Result<mail::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_mail(conn: &impl ConnectionTrait, id: i32) -> Result<Option<mail::Model>, DbErr> {
    mail::Entity::find_by_id(id).one(conn).await
}

/// Mail, newest first; each filter applies when given.
pub async fn list_mail(
    conn: &impl ConnectionTrait,
    status: Option<MailStatus>,
    kind: Option<MailKind>,
    employee_id: Option<i32>,
    limit: u64,
) -> Result<Vec<mail::Model>, DbErr> {
    let mut q = mail::Entity::find();
    if let Some(s) = status {
        q = q.filter(mail::Column::Status.eq(s));
    }
    if let Some(k) = kind {
        q = q.filter(mail::Column::Kind.eq(k));
    }
    if let Some(e) = employee_id {
        q = q.filter(mail::Column::EmployeeId.eq(e));
    }
    q.order_by_desc(mail::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

pub async fn set_mail_status(
    conn: &impl ConnectionTrait,
    id: i32,
    status: MailStatus,
) -> Result<u64, DbErr> {
    let res = mail::Entity::update_many()
        .col_expr(mail::Column::Status, Expr::value(status))
        .filter(mail::Column::Id.eq(id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

pub async fn count_unread(conn: &impl ConnectionTrait) -> Result<u64, DbErr> {
    mail::Entity::find()
        .filter(mail::Column::Status.eq(MailStatus::Unread))
        .count(conn)
        .await
}

/// Whether a mail of `kind` (about `task_id`, when given) was filed since `since`.
pub async fn mail_since(
    conn: &impl ConnectionTrait,
    kind: MailKind,
    task_id: Option<i32>,
    since: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let mut q = mail::Entity::find()
        .filter(mail::Column::Kind.eq(kind))
        .filter(mail::Column::CreatedAt.gte(since));
    if let Some(t) = task_id {
        q = q.filter(mail::Column::TaskId.eq(t));
    }
    Ok(q.count(conn).await? > 0)
}

/// Mail filed since `since`, as (kind, count) pairs.
pub async fn mail_counts_since(
    conn: &impl ConnectionTrait,
    since: DateTime<Utc>,
) -> Result<Vec<(MailKind, i64)>, DbErr> {
    use sea_orm::QuerySelect;
    mail::Entity::find()
        .select_only()
        .column(mail::Column::Kind)
        .column_as(mail::Column::Id.count(), "n")
        .filter(mail::Column::CreatedAt.gte(since))
        .group_by(mail::Column::Kind)
        .into_tuple::<(MailKind, i64)>()
        .all(conn)
        .await
}
