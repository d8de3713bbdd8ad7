//! Queries and mutations for the secretary's conversation and actions.

use sea_orm::{
    ActiveEnum, ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::entity::{secretary_action, secretary_message};
use crate::enums::ActionStatus;

pub async fn insert_message(
    conn: &impl ConnectionTrait,
    model: secretary_message::ActiveModel,
) -> Result<secretary_message::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_message(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<secretary_message::Model>, DbErr> {
    secretary_message::Entity::find_by_id(id).one(conn).await
}

/// The last `limit` messages, oldest first.
pub async fn recent_messages(
    conn: &impl ConnectionTrait,
    limit: u64,
) -> Result<Vec<secretary_message::Model>, DbErr> {
    let mut rows = secretary_message::Entity::find()
        .order_by_desc(secretary_message::Column::Id)
        .limit(limit)
        .all(conn)
        .await?;
    rows.reverse();
    Ok(rows)
}

pub async fn insert_action(
    conn: &impl ConnectionTrait,
    model: secretary_action::ActiveModel,
) -> Result<secretary_action::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_action(
    conn: &impl ConnectionTrait,
    model: secretary_action::ActiveModel,
) -> Result<secretary_action::Model, DbErr> {
    model.update(conn).await
}

pub async fn find_action(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<secretary_action::Model>, DbErr> {
    secretary_action::Entity::find_by_id(id).one(conn).await
}

pub async fn actions_of_messages(
    conn: &impl ConnectionTrait,
    message_ids: Vec<i32>,
) -> Result<Vec<secretary_action::Model>, DbErr> {
    secretary_action::Entity::find()
        .filter(secretary_action::Column::MessageId.is_in(message_ids))
        .order_by_asc(secretary_action::Column::Id)
        .all(conn)
        .await
}

/// Moves an action from `from` to `to` only if it is still in `from`: true when this
/// caller won (so two clicks on Confirm apply it once).
pub async fn transition_action(
    conn: &impl ConnectionTrait,
    id: i32,
    from: ActionStatus,
    to: ActionStatus,
) -> Result<bool, DbErr> {
    let res = secretary_action::Entity::update_many()
        .col_expr(
            secretary_action::Column::Status,
            sea_orm::sea_query::Expr::value(to.to_value()),
        )
        .filter(secretary_action::Column::Id.eq(id))
        .filter(secretary_action::Column::Status.eq(from))
        .exec(conn)
        .await?;
    Ok(res.rows_affected == 1)
}
