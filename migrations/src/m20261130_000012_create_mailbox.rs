//! The boss's mailbox (SPEC §6, §11): reports, escalations, budget stops and digest items.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Mail::Table)
                    .if_not_exists()
                    .col(pk_auto(Mail::Id))
                    .col(string(Mail::Kind))
                    .col(integer_null(Mail::EmployeeId))
                    .col(integer_null(Mail::ChatId))
                    .col(integer_null(Mail::TaskId))
                    .col(string(Mail::Title))
                    .col(text(Mail::Body))
                    .col(string(Mail::Status).default("unread"))
                    .col(string_null(Mail::TraceId))
                    .col(timestamp_with_time_zone(Mail::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_mail_employee")
                            .from(Mail::Table, Mail::EmployeeId)
                            .to(Employee::Table, Employee::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_mail_chat")
                            .from(Mail::Table, Mail::ChatId)
                            .to(Chat::Table, Chat::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_mail_task")
                            .from(Mail::Table, Mail::TaskId)
                            .to(Task::Table, Task::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_mail_status")
                    .table(Mail::Table)
                    .col(Mail::Status)
                    .col(Mail::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Mail::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Mail {
    Table,
    Id,
    Kind,
    EmployeeId,
    ChatId,
    TaskId,
    Title,
    Body,
    Status,
    TraceId,
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

#[derive(DeriveIden)]
enum Task {
    Table,
    Id,
}
