//! Traces (SPEC §10): one row per boss instruction, with indexes so one instruction's
//! whole story (tasks, messages, thoughts, model calls, mail) is found by its id; and
//! the columns review needs (SPEC §6, seed 002): a task's attempt number, the task a
//! review task is about, and a requirement's reviewer.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Tables that carry a `trace_id` and are read by it.
const TRACED: [&str; 5] = ["task", "chat_message", "thought", "mail", "cost_ledger"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Trace::Table)
                    .if_not_exists()
                    .col(string(Trace::Id).primary_key())
                    .col(string(Trace::Origin))
                    .col(text(Trace::Instruction))
                    .col(integer_null(Trace::ChatId))
                    .col(timestamp_with_time_zone(Trace::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_trace_created")
                    .table(Trace::Table)
                    .col(Trace::CreatedAt)
                    .to_owned(),
            )
            .await?;
        for table in TRACED {
            manager
                .create_index(
                    Index::create()
                        .name(format!("idx_{table}_trace"))
                        .table(Alias::new(table))
                        .col(Alias::new("trace_id"))
                        .to_owned(),
                )
                .await?;
        }
        // SQLite takes one change per ALTER.
        manager
            .alter_table(
                Table::alter()
                    .table(Task::Table)
                    .add_column(integer(Task::Attempt).default(0))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Task::Table)
                    .add_column(integer_null(Task::ReviewOf))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Requirement::Table)
                    .add_column(integer_null(Requirement::ReviewerId))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Requirement::Table)
                    .drop_column(Requirement::ReviewerId)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Task::Table)
                    .drop_column(Task::ReviewOf)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Task::Table)
                    .drop_column(Task::Attempt)
                    .to_owned(),
            )
            .await?;
        for table in TRACED {
            manager
                .drop_index(
                    Index::drop()
                        .name(format!("idx_{table}_trace"))
                        .table(Alias::new(table))
                        .to_owned(),
                )
                .await?;
        }
        manager
            .drop_table(Table::drop().table(Trace::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Trace {
    Table,
    Id,
    Origin,
    Instruction,
    ChatId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Task {
    Table,
    Attempt,
    ReviewOf,
}

#[derive(DeriveIden)]
enum Requirement {
    Table,
    ReviewerId,
}
