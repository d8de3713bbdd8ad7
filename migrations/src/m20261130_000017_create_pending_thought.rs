//! Crash safety (SPEC §10): a thought's effects are written one by one, so a kill can
//! land between them. `pending_thought` is the write-ahead row of a thought whose model
//! reply is in hand but whose effects are not all written yet; `applied_effect` holds
//! the key of every effect written under such a row (in the same transaction as the
//! effect), so replaying the thought after a restart skips what is already there.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PendingThought::Table)
                    .if_not_exists()
                    .col(pk_auto(PendingThought::Id))
                    .col(integer(PendingThought::EmployeeId))
                    .col(integer(PendingThought::ChatId))
                    .col(json(PendingThought::Plan))
                    .col(timestamp_with_time_zone(PendingThought::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_pending_thought_employee")
                            .from(PendingThought::Table, PendingThought::EmployeeId)
                            .to(Employee::Table, Employee::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_pending_thought_chat")
                            .from(PendingThought::Table, PendingThought::ChatId)
                            .to(Chat::Table, Chat::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AppliedEffect::Table)
                    .if_not_exists()
                    .col(string(AppliedEffect::Key).primary_key())
                    .col(integer_null(AppliedEffect::RowId))
                    .col(timestamp_with_time_zone(AppliedEffect::CreatedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(AppliedEffect::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(PendingThought::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum PendingThought {
    Table,
    Id,
    EmployeeId,
    ChatId,
    Plan,
    CreatedAt,
}

#[derive(DeriveIden)]
enum AppliedEffect {
    Table,
    Key,
    RowId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
}
