//! Queries and mutations for chats, members and messages, and the read marks on them.
//!
//! A read mark is the id of the last message seen (`None`: nothing seen yet); a message
//! is unread when its id is past the mark and someone else sent it.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Func, Query, SelectStatement};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::{chat, chat_member, chat_message};
use crate::enums::{ChatKind, ChatMode};

pub async fn find_department_chat(
    conn: &impl ConnectionTrait,
    department_id: i32,
) -> Result<Option<chat::Model>, DbErr> {
    chat::Entity::find()
        .filter(chat::Column::Kind.eq(ChatKind::Department))
        .filter(chat::Column::DepartmentId.eq(department_id))
        .one(conn)
        .await
}

pub async fn insert_chat(
    conn: &impl ConnectionTrait,
    model: chat::ActiveModel,
) -> Result<chat::Model, DbErr> {
    model.insert(conn).await
}

pub async fn list_chats(conn: &impl ConnectionTrait) -> Result<Vec<chat::Model>, DbErr> {
    chat::Entity::find()
        .order_by_asc(chat::Column::Id)
        .all(conn)
        .await
}

pub async fn find_member(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    employee_id: i32,
) -> Result<Option<chat_member::Model>, DbErr> {
    chat_member::Entity::find()
        .filter(chat_member::Column::ChatId.eq(chat_id))
        .filter(chat_member::Column::EmployeeId.eq(employee_id))
        .one(conn)
        .await
}

pub async fn delete_member(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    employee_id: i32,
) -> Result<u64, DbErr> {
    let res = chat_member::Entity::delete_many()
        .filter(chat_member::Column::ChatId.eq(chat_id))
        .filter(chat_member::Column::EmployeeId.eq(employee_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

pub async fn insert_member(
    conn: &impl ConnectionTrait,
    model: chat_member::ActiveModel,
) -> Result<chat_member::Model, DbErr> {
    model.insert(conn).await
}

pub async fn members(
    conn: &impl ConnectionTrait,
    chat_id: i32,
) -> Result<Vec<chat_member::Model>, DbErr> {
    chat_member::Entity::find()
        .filter(chat_member::Column::ChatId.eq(chat_id))
        .order_by_asc(chat_member::Column::Id)
        .all(conn)
        .await
}

pub async fn insert_message(
    conn: &impl ConnectionTrait,
    model: chat_message::ActiveModel,
) -> Result<chat_message::Model, DbErr> {
    model.insert(conn).await
}

pub async fn messages(
    conn: &impl ConnectionTrait,
    chat_id: i32,
) -> Result<Vec<chat_message::Model>, DbErr> {
    chat_message::Entity::find()
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .order_by_asc(chat_message::Column::Id)
        .all(conn)
        .await
}

pub async fn delete_chat(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    chat::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}

pub async fn find_chat(conn: &impl ConnectionTrait, id: i32) -> Result<Option<chat::Model>, DbErr> {
    chat::Entity::find_by_id(id).one(conn).await
}

/// The ids of the chats `employee_id` is a member of.
fn chat_ids_of(employee_id: i32) -> SelectStatement {
    Query::select()
        .column(chat_member::Column::ChatId)
        .from(chat_member::Entity)
        .and_where(chat_member::Column::EmployeeId.eq(employee_id))
        .to_owned()
}

/// Every chat `employee_id` is a member of, by id.
pub async fn chats_of_employee(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<Vec<chat::Model>, DbErr> {
    chat::Entity::find()
        .filter(chat::Column::Id.in_subquery(chat_ids_of(employee_id)))
        .order_by_asc(chat::Column::Id)
        .all(conn)
        .await
}

/// The first chat of `kind` whose members are exactly `ids` (no one else).
async fn find_chat_with_exactly(
    conn: &impl ConnectionTrait,
    kind: ChatKind,
    ids: &[i32],
) -> Result<Option<chat::Model>, DbErr> {
    let mut distinct = ids.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut query = chat::Entity::find().filter(chat::Column::Kind.eq(kind));
    for &id in &distinct {
        query = query.filter(chat::Column::Id.in_subquery(chat_ids_of(id)));
    }
    for c in query.order_by_asc(chat::Column::Id).all(conn).await? {
        let n = chat_member::Entity::find()
            .filter(chat_member::Column::ChatId.eq(c.id))
            .count(conn)
            .await?;
        if n == distinct.len() as u64 {
            return Ok(Some(c));
        }
    }
    Ok(None)
}

/// The direct-message chat (kind `dm`) whose members are exactly `a` and `b`.
pub async fn find_dm(
    conn: &impl ConnectionTrait,
    a: i32,
    b: i32,
) -> Result<Option<chat::Model>, DbErr> {
    find_chat_with_exactly(conn, ChatKind::Dm, &[a, b]).await
}

/// The boss's private chat with `employee_id` (kind `boss`, that one member).
pub async fn find_boss_chat(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<Option<chat::Model>, DbErr> {
    find_chat_with_exactly(conn, ChatKind::Boss, &[employee_id]).await
}

/// Sets the chat's mode (`work` / `casual`).
pub async fn set_chat_mode(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    mode: ChatMode,
) -> Result<u64, DbErr> {
    let res = chat::Entity::update_many()
        .col_expr(chat::Column::Mode, Expr::value(mode))
        .filter(chat::Column::Id.eq(chat_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Sets or clears the chat's topic.
pub async fn set_chat_topic(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    topic: Option<&str>,
) -> Result<u64, DbErr> {
    let res = chat::Entity::update_many()
        .col_expr(chat::Column::Topic, Expr::value(topic.map(str::to_owned)))
        .filter(chat::Column::Id.eq(chat_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

pub async fn find_message(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<chat_message::Model>, DbErr> {
    chat_message::Entity::find_by_id(id).one(conn).await
}

/// Sets the mentions (a JSON array of employee ids) of a posted message.
pub async fn set_message_mentions(
    conn: &impl ConnectionTrait,
    message_id: i32,
    mentions: Option<serde_json::Value>,
) -> Result<u64, DbErr> {
    let res = chat_message::Entity::update_many()
        .col_expr(chat_message::Column::Mentions, Expr::value(mentions))
        .filter(chat_message::Column::Id.eq(message_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// The newest `n` messages of a chat, returned oldest first.
pub async fn last_messages(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    n: u64,
) -> Result<Vec<chat_message::Model>, DbErr> {
    let mut rows = chat_message::Entity::find()
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .order_by_desc(chat_message::Column::Id)
        .limit(n)
        .all(conn)
        .await?;
    rows.reverse();
    Ok(rows)
}

/// The messages of a chat after message `after_id`, oldest first.
pub async fn messages_after(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    after_id: i32,
) -> Result<Vec<chat_message::Model>, DbErr> {
    chat_message::Entity::find()
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .filter(chat_message::Column::Id.gt(after_id))
        .order_by_asc(chat_message::Column::Id)
        .all(conn)
        .await
}

/// The id of the chat's newest message, `None` when it has none.
pub async fn latest_message_id(
    conn: &impl ConnectionTrait,
    chat_id: i32,
) -> Result<Option<i32>, DbErr> {
    chat_message::Entity::find()
        .select_only()
        .column(chat_message::Column::Id)
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .order_by_desc(chat_message::Column::Id)
        .into_tuple::<i32>()
        .one(conn)
        .await
}

/// Moves a member's read mark to `message_id` (as given: it may also move back).
/// Returns 0 when `employee_id` is not a member.
pub async fn set_member_read(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    employee_id: i32,
    message_id: i32,
) -> Result<u64, DbErr> {
    let res = chat_member::Entity::update_many()
        .col_expr(
            chat_member::Column::LastReadMessageId,
            Expr::value(message_id),
        )
        .filter(chat_member::Column::ChatId.eq(chat_id))
        .filter(chat_member::Column::EmployeeId.eq(employee_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Moves the boss's read mark of a chat to `message_id`.
pub async fn set_boss_read(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    message_id: i32,
) -> Result<u64, DbErr> {
    let res = chat::Entity::update_many()
        .col_expr(chat::Column::BossLastReadMessageId, Expr::value(message_id))
        .filter(chat::Column::Id.eq(chat_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Messages not sent by `employee_id` (boss and system messages count).
fn not_sent_by(employee_id: i32) -> Condition {
    Condition::any()
        .add(chat_message::Column::SenderEmployeeId.is_null())
        .add(chat_message::Column::SenderEmployeeId.ne(employee_id))
}

/// How many messages past the member's read mark others sent; 0 for a non-member.
pub async fn unread_for_member(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    employee_id: i32,
) -> Result<u64, DbErr> {
    let Some(member) = find_member(conn, chat_id, employee_id).await? else {
        return Ok(0);
    };
    let mut query = chat_message::Entity::find()
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .filter(not_sent_by(employee_id));
    if let Some(mark) = member.last_read_message_id {
        query = query.filter(chat_message::Column::Id.gt(mark));
    }
    query.count(conn).await
}

/// How many messages past the boss's read mark were not sent by the boss; 0 when
/// the chat does not exist.
pub async fn unread_for_boss(conn: &impl ConnectionTrait, chat_id: i32) -> Result<u64, DbErr> {
    let Some(c) = find_chat(conn, chat_id).await? else {
        return Ok(0);
    };
    let mut query = chat_message::Entity::find()
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .filter(chat_message::Column::SenderKind.ne("boss"));
    if let Some(mark) = c.boss_last_read_message_id {
        query = query.filter(chat_message::Column::Id.gt(mark));
    }
    query.count(conn).await
}

/// When `employee_id` posted in the chat at or after `since`, oldest first (for the
/// anti-spam and cooldown gates).
pub async fn posts_by_since(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    employee_id: i32,
    since: DateTime<Utc>,
) -> Result<Vec<DateTime<Utc>>, DbErr> {
    chat_message::Entity::find()
        .select_only()
        .column(chat_message::Column::CreatedAt)
        .filter(chat_message::Column::ChatId.eq(chat_id))
        .filter(chat_message::Column::SenderEmployeeId.eq(employee_id))
        .filter(chat_message::Column::CreatedAt.gte(since))
        .order_by_asc(chat_message::Column::Id)
        .into_tuple::<DateTime<Utc>>()
        .all(conn)
        .await
}

/// The chats (ids, ascending) where `employee_id` has something unread: a message
/// past its read mark that someone else sent.
pub async fn chats_with_unread_for(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<Vec<i32>, DbErr> {
    let unread = Query::select()
        .expr(Expr::val(1))
        .from(chat_message::Entity)
        .and_where(
            Expr::col((chat_message::Entity, chat_message::Column::ChatId))
                .equals((chat_member::Entity, chat_member::Column::ChatId)),
        )
        .and_where(
            Expr::col((chat_message::Entity, chat_message::Column::Id)).gt(Func::coalesce([
                Expr::col((chat_member::Entity, chat_member::Column::LastReadMessageId)),
                Expr::val(0),
            ])),
        )
        .cond_where(
            Condition::any()
                .add(
                    Expr::col((chat_message::Entity, chat_message::Column::SenderEmployeeId))
                        .is_null(),
                )
                .add(
                    Expr::col((chat_message::Entity, chat_message::Column::SenderEmployeeId))
                        .ne(employee_id),
                ),
        )
        .to_owned();
    chat_member::Entity::find()
        .select_only()
        .column(chat_member::Column::ChatId)
        .filter(chat_member::Column::EmployeeId.eq(employee_id))
        .filter(Expr::exists(unread))
        .order_by_asc(chat_member::Column::ChatId)
        .into_tuple::<i32>()
        .all(conn)
        .await
}

/// The newest messages of every chat, newest first.
pub async fn recent_messages_everywhere(
    conn: &impl ConnectionTrait,
    limit: u64,
) -> Result<Vec<chat_message::Model>, DbErr> {
    use sea_orm::QuerySelect;
    chat_message::Entity::find()
        .order_by_desc(chat_message::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

/// `(message id, chat id)` of the newest `limit` messages anywhere, newest first.
pub async fn recent_message_ids(
    conn: &impl ConnectionTrait,
    limit: u64,
) -> Result<Vec<(i32, i32)>, DbErr> {
    use sea_orm::QuerySelect;
    chat_message::Entity::find()
        .select_only()
        .column(chat_message::Column::Id)
        .column(chat_message::Column::ChatId)
        .order_by_desc(chat_message::Column::Id)
        .limit(limit)
        .into_tuple::<(i32, i32)>()
        .all(conn)
        .await
}

/// Employees' messages posted since `since`, and in how many chats.
pub async fn employee_posts_since(
    conn: &impl ConnectionTrait,
    since: DateTime<Utc>,
) -> Result<(u64, u64), DbErr> {
    use sea_orm::QuerySelect;
    let chats: Vec<i32> = chat_message::Entity::find()
        .select_only()
        .column(chat_message::Column::ChatId)
        .filter(chat_message::Column::SenderKind.eq("employee"))
        .filter(chat_message::Column::CreatedAt.gte(since))
        .into_tuple::<i32>()
        .all(conn)
        .await?;
    let mut distinct = chats.clone();
    distinct.sort_unstable();
    distinct.dedup();
    Ok((chats.len() as u64, distinct.len() as u64))
}
