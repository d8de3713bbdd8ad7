//! The secretary's conversation with the boss and the actions it proposed.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SecretaryMessage::Table)
                    .if_not_exists()
                    .col(pk_auto(SecretaryMessage::Id))
                    .col(timestamp_with_time_zone(SecretaryMessage::At))
                    .col(string(SecretaryMessage::Role))
                    .col(text(SecretaryMessage::Text))
                    .col(string_null(SecretaryMessage::TraceId))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(SecretaryAction::Table)
                    .if_not_exists()
                    .col(pk_auto(SecretaryAction::Id))
                    .col(integer(SecretaryAction::MessageId))
                    .col(timestamp_with_time_zone(SecretaryAction::CreatedAt))
                    .col(string(SecretaryAction::Kind))
                    .col(string(SecretaryAction::Status))
                    .col(json(SecretaryAction::Proposal))
                    .col(json_null(SecretaryAction::Undo))
                    .col(text_null(SecretaryAction::Diff))
                    .col(timestamp_with_time_zone_null(SecretaryAction::UndoUntil))
                    .col(text_null(SecretaryAction::Error))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_secretary_action_message")
                            .from(SecretaryAction::Table, SecretaryAction::MessageId)
                            .to(SecretaryMessage::Table, SecretaryMessage::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(SecretaryAction::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(SecretaryMessage::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum SecretaryMessage {
    Table,
    Id,
    At,
    Role,
    Text,
    TraceId,
}

#[derive(DeriveIden)]
enum SecretaryAction {
    Table,
    Id,
    MessageId,
    CreatedAt,
    Kind,
    Status,
    Proposal,
    Undo,
    Diff,
    UndoUntil,
    Error,
}
