//! Write-ahead rows of thoughts whose effects are being written, and the keys of the
//! effects already written under them (crash safety, SPEC §10). An effect's key is
//! inserted in the same transaction as the effect itself, so after a kill either both
//! are there or neither is.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::NotSet, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr,
    EntityTrait, QueryFilter, QueryOrder, SqlErr,
};

use crate::entity::{applied_effect, pending_thought};

pub async fn insert_pending(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    chat_id: i32,
    plan: serde_json::Value,
    now: DateTime<Utc>,
) -> Result<pending_thought::Model, DbErr> {
    pending_thought::ActiveModel {
        id: NotSet,
        employee_id: Set(employee_id),
        chat_id: Set(chat_id),
        plan: Set(plan),
        created_at: Set(now),
    }
    .insert(conn)
    .await
}

/// Every pending thought, oldest first.
pub async fn pending_thoughts(
    conn: &impl ConnectionTrait,
) -> Result<Vec<pending_thought::Model>, DbErr> {
    pending_thought::Entity::find()
        .order_by_asc(pending_thought::Column::Id)
        .all(conn)
        .await
}

/// Deletes a pending thought; how many rows went (0 when it was already gone).
pub async fn delete_pending(conn: &impl ConnectionTrait, id: i32) -> Result<u64, DbErr> {
    Ok(pending_thought::Entity::delete_by_id(id)
        .exec(conn)
        .await?
        .rows_affected)
}

/// The effect written under `key`, if it was: `Some(row it made)`.
pub async fn applied(conn: &impl ConnectionTrait, key: &str) -> Result<Option<Option<i32>>, DbErr> {
    Ok(applied_effect::Entity::find_by_id(key.to_owned())
        .one(conn)
        .await?
        .map(|e| e.row_id))
}

/// Claims `key` as the first statement of the effect's transaction: true when it is
/// new (write the effect, then commit), false when the effect is already written (drop
/// the transaction). Writing first takes SQLite's write lock at once, so the reads that
/// follow in the transaction cannot go stale under another writer.
pub async fn claim(
    conn: &impl ConnectionTrait,
    key: &str,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let inserted = applied_effect::ActiveModel {
        key: Set(key.to_owned()),
        row_id: Set(None),
        created_at: Set(now),
    }
    .insert(conn)
    .await;
    match inserted {
        Ok(_) => Ok(true),
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Notes the row a claimed effect made.
pub async fn set_row(conn: &impl ConnectionTrait, key: &str, row_id: i32) -> Result<(), DbErr> {
    applied_effect::Entity::update_many()
        .col_expr(applied_effect::Column::RowId, Expr::value(row_id))
        .filter(applied_effect::Column::Key.eq(key))
        .exec(conn)
        .await?;
    Ok(())
}

/// The keys written under one pending thought (`prefix` is `pt<id>:`).
pub async fn applied_under(
    conn: &impl ConnectionTrait,
    prefix: &str,
) -> Result<Vec<applied_effect::Model>, DbErr> {
    applied_effect::Entity::find()
        .filter(applied_effect::Column::Key.starts_with(prefix))
        .order_by_asc(applied_effect::Column::Key)
        .all(conn)
        .await
}
