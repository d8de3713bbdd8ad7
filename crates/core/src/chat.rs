//! Chats: department group chats now; DMs, requirement and casual groups build on the
//! same tables (issue 5). Every post is persisted before it is announced.

pub mod gates;
pub mod polling;

use chrono::Utc;
use cubicle_store::entity::{chat, chat_member, chat_message};
use cubicle_store::{ConnectionTrait, Db, DbErr, TransactionTrait, chat as q};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::events::{DomainEvent, EventBus};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessageDto {
    pub id: i32,
    pub chat_id: i32,
    /// `boss`, `employee` or `system`.
    pub sender_kind: String,
    pub sender_employee_id: Option<i32>,
    pub text: String,
    pub created_at: String,
}

#[derive(Clone, Debug)]
pub struct Chats {
    db: Db,
    bus: EventBus,
}

impl Chats {
    pub fn new(db: Db, bus: EventBus) -> Self {
        Self { db, bus }
    }

    /// The department's group chat, created on first use.
    pub async fn department_chat(
        &self,
        department_id: i32,
        name: &str,
    ) -> Result<chat::Model, DbErr> {
        department_chat(&self.db, department_id, name).await
    }

    /// Adds an employee to a chat (once).
    pub async fn join(&self, chat_id: i32, employee_id: i32) -> Result<(), DbErr> {
        if q::find_member(&self.db, chat_id, employee_id)
            .await?
            .is_none()
        {
            q::insert_member(
                &self.db,
                chat_member::ActiveModel {
                    id: NotSet,
                    chat_id: Set(chat_id),
                    employee_id: Set(employee_id),
                    joined_at: Set(Utc::now()),
                    ..Default::default()
                },
            )
            .await?;
        }
        Ok(())
    }

    pub async fn post_as_employee(
        &self,
        chat_id: i32,
        employee_id: i32,
        text: &str,
    ) -> Result<ChatMessageDto, DbErr> {
        let m = q::insert_message(
            &self.db,
            chat_message::ActiveModel {
                id: NotSet,
                chat_id: Set(chat_id),
                sender_kind: Set("employee".into()),
                sender_employee_id: Set(Some(employee_id)),
                text: Set(text.to_owned()),
                trace_id: Set(None),
                created_at: Set(Utc::now()),
                ..Default::default()
            },
        )
        .await?;
        self.bus.publish(DomainEvent::ChatMessagePosted {
            chat_id,
            message_id: m.id,
        });
        Ok(message_dto(&m))
    }

    pub async fn messages(&self, chat_id: i32) -> Result<Vec<ChatMessageDto>, DbErr> {
        Ok(q::messages(&self.db, chat_id)
            .await?
            .iter()
            .map(message_dto)
            .collect())
    }

    pub async fn members(&self, chat_id: i32) -> Result<Vec<i32>, DbErr> {
        Ok(q::members(&self.db, chat_id)
            .await?
            .into_iter()
            .map(|m| m.employee_id)
            .collect())
    }

    /// A meeting (SPEC §9): a work chat on a topic with its participants, opened by a
    /// system message that states the topic.
    pub async fn create_meeting(
        &self,
        topic: &str,
        participant_ids: &[i32],
    ) -> Result<chat::Model, DbErr> {
        let txn = self.db.begin().await?;
        let now = Utc::now();
        let c = q::insert_chat(
            &txn,
            chat::ActiveModel {
                id: NotSet,
                kind: Set("meeting".into()),
                name: Set(topic.to_owned()),
                department_id: Set(None),
                mode: Set("work".into()),
                topic: Set(Some(topic.to_owned())),
                created_at: Set(now),
                ..Default::default()
            },
        )
        .await?;
        for id in participant_ids {
            q::insert_member(
                &txn,
                chat_member::ActiveModel {
                    id: NotSet,
                    chat_id: Set(c.id),
                    employee_id: Set(*id),
                    joined_at: Set(now),
                    ..Default::default()
                },
            )
            .await?;
        }
        let m = q::insert_message(
            &txn,
            chat_message::ActiveModel {
                id: NotSet,
                chat_id: Set(c.id),
                sender_kind: Set("system".into()),
                sender_employee_id: Set(None),
                text: Set(topic.to_owned()),
                trace_id: Set(None),
                created_at: Set(now),
                ..Default::default()
            },
        )
        .await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatMessagePosted {
            chat_id: c.id,
            message_id: m.id,
        });
        Ok(c)
    }

    /// Every chat, oldest first.
    pub async fn all(&self) -> Result<Vec<chat::Model>, DbErr> {
        q::list_chats(&self.db).await
    }

    /// Takes back a meeting convened by mistake, with its messages.
    pub async fn end_meeting(&self, chat_id: i32) -> Result<(), DbErr> {
        q::delete_chat(&self.db, chat_id).await
    }

    pub async fn find_department_chat(
        &self,
        department_id: i32,
    ) -> Result<Option<chat::Model>, DbErr> {
        q::find_department_chat(&self.db, department_id).await
    }
}

async fn department_chat(
    conn: &impl ConnectionTrait,
    department_id: i32,
    name: &str,
) -> Result<chat::Model, DbErr> {
    if let Some(c) = q::find_department_chat(conn, department_id).await? {
        return Ok(c);
    }
    q::insert_chat(
        conn,
        chat::ActiveModel {
            id: NotSet,
            kind: Set("department".into()),
            name: Set(name.to_owned()),
            department_id: Set(Some(department_id)),
            mode: Set("casual".into()),
            created_at: Set(Utc::now()),
            ..Default::default()
        },
    )
    .await
}

fn message_dto(m: &chat_message::Model) -> ChatMessageDto {
    ChatMessageDto {
        id: m.id,
        chat_id: m.chat_id,
        sender_kind: m.sender_kind.clone(),
        sender_employee_id: m.sender_employee_id,
        text: m.text.clone(),
        created_at: m
            .created_at
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    }
}
