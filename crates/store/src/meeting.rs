//! Queries and mutations for meetings, their moderator notes and decision records.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
};

use crate::entity::{decision, meeting, moderator_note};
use crate::enums::MeetingStatus;

pub async fn insert_meeting(
    conn: &impl ConnectionTrait,
    model: meeting::ActiveModel,
) -> Result<meeting::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_meeting_by_chat(
    conn: &impl ConnectionTrait,
    chat_id: i32,
) -> Result<Option<meeting::Model>, DbErr> {
    meeting::Entity::find()
        .filter(meeting::Column::ChatId.eq(chat_id))
        .one(conn)
        .await
}

/// Every open meeting, oldest first.
pub async fn open_meetings(conn: &impl ConnectionTrait) -> Result<Vec<meeting::Model>, DbErr> {
    meeting::Entity::find()
        .filter(meeting::Column::Status.eq(MeetingStatus::Open))
        .order_by_asc(meeting::Column::Id)
        .all(conn)
        .await
}

pub async fn set_current_speaker(
    conn: &impl ConnectionTrait,
    meeting_id: i32,
    employee_id: Option<i32>,
) -> Result<(), DbErr> {
    meeting::Entity::update_many()
        .col_expr(meeting::Column::CurrentSpeakerId, Expr::value(employee_id))
        .filter(meeting::Column::Id.eq(meeting_id))
        .exec(conn)
        .await?;
    Ok(())
}

/// Closes an open meeting; `false` when it was closed already (so minutes are taken
/// once even if two closes race).
pub async fn close_meeting(
    conn: &impl ConnectionTrait,
    meeting_id: i32,
    minutes: &str,
    at: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let res = meeting::Entity::update_many()
        .col_expr(meeting::Column::Status, Expr::value(MeetingStatus::Closed))
        .col_expr(meeting::Column::Minutes, Expr::value(minutes))
        .col_expr(meeting::Column::ClosedAt, Expr::value(at))
        .col_expr(
            meeting::Column::CurrentSpeakerId,
            Expr::value(Option::<i32>::None),
        )
        .filter(meeting::Column::Id.eq(meeting_id))
        .filter(meeting::Column::Status.eq(MeetingStatus::Open))
        .exec(conn)
        .await?;
    Ok(res.rows_affected > 0)
}

pub async fn insert_note(
    conn: &impl ConnectionTrait,
    model: moderator_note::ActiveModel,
) -> Result<moderator_note::Model, DbErr> {
    model.insert(conn).await
}

/// A meeting's moderator notes, oldest first.
pub async fn notes(
    conn: &impl ConnectionTrait,
    meeting_id: i32,
) -> Result<Vec<moderator_note::Model>, DbErr> {
    moderator_note::Entity::find()
        .filter(moderator_note::Column::MeetingId.eq(meeting_id))
        .order_by_asc(moderator_note::Column::Id)
        .all(conn)
        .await
}

pub async fn insert_decision(
    conn: &impl ConnectionTrait,
    model: decision::ActiveModel,
) -> Result<decision::Model, DbErr> {
    model.insert(conn).await
}

/// Every decision, oldest first.
pub async fn all_decisions(conn: &impl ConnectionTrait) -> Result<Vec<decision::Model>, DbErr> {
    decision::Entity::find()
        .order_by_asc(decision::Column::Id)
        .all(conn)
        .await
}

/// The decisions taken in a chat, oldest first.
pub async fn decisions_in_chat(
    conn: &impl ConnectionTrait,
    chat_id: i32,
) -> Result<Vec<decision::Model>, DbErr> {
    decision::Entity::find()
        .filter(decision::Column::ChatId.eq(chat_id))
        .order_by_asc(decision::Column::Id)
        .all(conn)
        .await
}
