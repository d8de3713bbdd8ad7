//! Queries for people's proxies: each person's conversation with their proxy, the chats
//! between people, and the lines a proxy wrote in its person's name.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::entity::{chat, chat_message, chat_person, proxy_line};
use crate::enums::{ChatKind, SenderKind};

pub async fn insert_line(
    conn: &impl ConnectionTrait,
    model: proxy_line::ActiveModel,
) -> Result<proxy_line::Model, DbErr> {
    model.insert(conn).await
}

/// The newest `limit` lines of a person's conversation with their proxy, oldest first.
pub async fn recent_lines(
    conn: &impl ConnectionTrait,
    person_id: i32,
    limit: u64,
) -> Result<Vec<proxy_line::Model>, DbErr> {
    let mut lines = proxy_line::Entity::find()
        .filter(proxy_line::Column::PersonId.eq(person_id))
        .order_by_desc(proxy_line::Column::Id)
        .limit(limit)
        .all(conn)
        .await?;
    lines.reverse();
    Ok(lines)
}

/// The chat between exactly these two people, if they have one.
pub async fn people_chat(
    conn: &impl ConnectionTrait,
    a: i32,
    b: i32,
) -> Result<Option<chat::Model>, DbErr> {
    let of = |p: i32| async move {
        chat_person::Entity::find()
            .filter(chat_person::Column::PersonId.eq(p))
            .all(conn)
            .await
            .map(|rows| rows.into_iter().map(|r| r.chat_id).collect::<Vec<_>>())
    };
    let (mine, theirs) = (of(a).await?, of(b).await?);
    let shared: Vec<i32> = mine.into_iter().filter(|c| theirs.contains(c)).collect();
    chat::Entity::find()
        .filter(chat::Column::Id.is_in(shared))
        .filter(chat::Column::Kind.eq(ChatKind::People))
        .order_by_asc(chat::Column::Id)
        .one(conn)
        .await
}

pub async fn insert_chat_person(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    person_id: i32,
) -> Result<(), DbErr> {
    chat_person::ActiveModel {
        chat_id: sea_orm::ActiveValue::Set(chat_id),
        person_id: sea_orm::ActiveValue::Set(person_id),
    }
    .insert(conn)
    .await
    .map(|_| ())
}

/// The people in a chat between people.
pub async fn chat_people(conn: &impl ConnectionTrait, chat_id: i32) -> Result<Vec<i32>, DbErr> {
    Ok(chat_person::Entity::find()
        .filter(chat_person::Column::ChatId.eq(chat_id))
        .order_by_asc(chat_person::Column::PersonId)
        .all(conn)
        .await?
        .into_iter()
        .map(|r| r.person_id)
        .collect())
}

/// What a person's proxy wrote in their name, newest first.
pub async fn written_for(
    conn: &impl ConnectionTrait,
    person_id: i32,
    limit: u64,
) -> Result<Vec<chat_message::Model>, DbErr> {
    chat_message::Entity::find()
        .filter(chat_message::Column::SenderKind.eq(SenderKind::Proxy))
        .filter(chat_message::Column::SenderPersonId.eq(person_id))
        .order_by_desc(chat_message::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

pub async fn find_message(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<chat_message::Model>, DbErr> {
    chat_message::Entity::find_by_id(id).one(conn).await
}

/// The corrections among `message_ids`' replies: each line a person wrote in place of one
/// of those their proxy wrote.
pub async fn corrections_of(
    conn: &impl ConnectionTrait,
    message_ids: &[i32],
) -> Result<Vec<chat_message::Model>, DbErr> {
    chat_message::Entity::find()
        .filter(chat_message::Column::CorrectsId.is_in(message_ids.iter().copied()))
        .all(conn)
        .await
}

/// The correction that replaced a proxy-written line, if its person made one.
pub async fn correction_of(
    conn: &impl ConnectionTrait,
    message_id: i32,
) -> Result<Option<chat_message::Model>, DbErr> {
    chat_message::Entity::find()
        .filter(chat_message::Column::CorrectsId.eq(message_id))
        .one(conn)
        .await
}
