//! A resolved task's report is owed until it is written (SPEC §6 onResolve, §10): the
//! wake-up that writes it lived only in the engine's queue, so a stop or a failed model
//! call between the resolution and the report lost the report. `report_due_at` is set
//! when the report is scheduled and cleared when its copy is in the mailbox; the engine
//! schedules every owed report again at start.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Task::Table)
                    .add_column(timestamp_with_time_zone_null(Task::ReportDueAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Task::Table)
                    .drop_column(Task::ReportDueAt)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Task {
    Table,
    ReportDueAt,
}
