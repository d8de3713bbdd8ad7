//! Queries and mutations for chats, members and messages.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
};

use crate::entity::{chat, chat_member, chat_message};

pub async fn find_department_chat(
    conn: &impl ConnectionTrait,
    department_id: i32,
) -> Result<Option<chat::Model>, DbErr> {
    chat::Entity::find()
        .filter(chat::Column::Kind.eq("department"))
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
