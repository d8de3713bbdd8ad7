//! Each person's proxy (SPEC §12): their private conversation with it (`proxy_line`), the
//! people in a chat between people (`chat_person`), and who a chat line speaks for: a
//! person writing themself, or their proxy writing in their name (`sender_person_id`),
//! with the proxy-written line a person's own correction replaces (`corrects_id`).
//!
//! Also: a task an employee gave itself was `created_by = 'self'`; now that the column is
//! a typed set whose derive cannot name a variant `self`, it is `own`.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ProxyLine::Table)
                    .if_not_exists()
                    .col(pk_auto(ProxyLine::Id))
                    .col(integer(ProxyLine::PersonId))
                    .col(timestamp_with_time_zone(ProxyLine::At))
                    .col(string(ProxyLine::Speaker))
                    .col(text(ProxyLine::Text))
                    .col(integer_null(ProxyLine::ChatMessageId))
                    .col(string_null(ProxyLine::TraceId))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_proxy_line_person")
                            .from(ProxyLine::Table, ProxyLine::PersonId)
                            .to(Person::Table, Person::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_proxy_line_person")
                    .table(ProxyLine::Table)
                    .col(ProxyLine::PersonId)
                    .col(ProxyLine::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ChatPerson::Table)
                    .if_not_exists()
                    .col(integer(ChatPerson::ChatId))
                    .col(integer(ChatPerson::PersonId))
                    .primary_key(
                        Index::create()
                            .col(ChatPerson::ChatId)
                            .col(ChatPerson::PersonId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_chat_person_chat")
                            .from(ChatPerson::Table, ChatPerson::ChatId)
                            .to(Chat::Table, Chat::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_chat_person_person")
                            .from(ChatPerson::Table, ChatPerson::PersonId)
                            .to(Person::Table, Person::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        add_sender_columns(manager).await?;
        rename_created_by(manager, "self", "own").await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        rename_created_by(manager, "own", "self").await?;
        for column in [ChatMessage::SenderPersonId, ChatMessage::CorrectsId] {
            manager
                .alter_table(
                    Table::alter()
                        .table(ChatMessage::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .drop_table(Table::drop().table(ChatPerson::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(ProxyLine::Table).to_owned())
            .await
    }
}

/// Who a chat line speaks for, and the proxy-written line a correction replaces.
async fn add_sender_columns(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // One change per ALTER: SQLite takes no more.
    for column in [ChatMessage::SenderPersonId, ChatMessage::CorrectsId] {
        manager
            .alter_table(
                Table::alter()
                    .table(ChatMessage::Table)
                    .add_column(integer_null(column))
                    .to_owned(),
            )
            .await?;
    }
    Ok(())
}

/// Tasks an employee gave itself: `from` becomes `to`.
async fn rename_created_by(manager: &SchemaManager<'_>, from: &str, to: &str) -> Result<(), DbErr> {
    manager
        .exec_stmt(
            Query::update()
                .table(Task::Table)
                .value(Task::CreatedBy, to)
                .and_where(Expr::col(Task::CreatedBy).eq(from))
                .to_owned(),
        )
        .await
}

#[derive(DeriveIden)]
enum ProxyLine {
    Table,
    Id,
    PersonId,
    At,
    Speaker,
    Text,
    ChatMessageId,
    TraceId,
}

#[derive(DeriveIden)]
enum ChatPerson {
    Table,
    ChatId,
    PersonId,
}

#[derive(DeriveIden)]
enum ChatMessage {
    Table,
    SenderPersonId,
    CorrectsId,
}

#[derive(DeriveIden)]
enum Person {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Task {
    Table,
    CreatedBy,
}
