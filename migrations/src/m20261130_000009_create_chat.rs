//! Chats (department groups first; DMs, requirement and casual groups share the tables),
//! their members and messages.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_chat(manager).await?;
        create_chat_member(manager).await?;
        create_chat_message(manager).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for t in [
            ChatMessage::Table.into_iden(),
            ChatMember::Table.into_iden(),
            Chat::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(t).to_owned())
                .await?;
        }
        Ok(())
    }
}

async fn create_chat(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Chat::Table)
                .if_not_exists()
                .col(pk_auto(Chat::Id))
                .col(string(Chat::Kind))
                .col(string(Chat::Name))
                .col(integer_null(Chat::DepartmentId))
                .col(timestamp_with_time_zone(Chat::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_chat_department")
                        .from(Chat::Table, Chat::DepartmentId)
                        .to(Department::Table, Department::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_chat_member(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ChatMember::Table)
                .if_not_exists()
                .col(pk_auto(ChatMember::Id))
                .col(integer(ChatMember::ChatId))
                .col(integer(ChatMember::EmployeeId))
                .col(timestamp_with_time_zone(ChatMember::JoinedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_chat_member_chat")
                        .from(ChatMember::Table, ChatMember::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_chat_member_employee")
                        .from(ChatMember::Table, ChatMember::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_chat_member_unique")
                .table(ChatMember::Table)
                .col(ChatMember::ChatId)
                .col(ChatMember::EmployeeId)
                .unique()
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_chat_message(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ChatMessage::Table)
                .if_not_exists()
                .col(pk_auto(ChatMessage::Id))
                .col(integer(ChatMessage::ChatId))
                .col(string(ChatMessage::SenderKind))
                // Only an undone hire deletes an employee row; their words go with it.
                .col(integer_null(ChatMessage::SenderEmployeeId))
                .col(text(ChatMessage::Text))
                .col(string_null(ChatMessage::TraceId))
                .col(timestamp_with_time_zone(ChatMessage::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_chat_message_chat")
                        .from(ChatMessage::Table, ChatMessage::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_chat_message_sender")
                        .from(ChatMessage::Table, ChatMessage::SenderEmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_chat_message_chat")
                .table(ChatMessage::Table)
                .col(ChatMessage::ChatId)
                .to_owned(),
        )
        .await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
    Kind,
    Name,
    DepartmentId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ChatMember {
    Table,
    Id,
    ChatId,
    EmployeeId,
    JoinedAt,
}

#[derive(DeriveIden)]
enum ChatMessage {
    Table,
    Id,
    ChatId,
    SenderKind,
    SenderEmployeeId,
    Text,
    TraceId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Department {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
}
