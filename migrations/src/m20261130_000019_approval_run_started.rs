//! When an approved action's run began (SPEC §8, §10). Set by whoever runs it, in the
//! same update that claims the run, so an action runs once however many processes see it
//! approved: the app or CLI that decided it, or — for a desktop attached to a company
//! server, which only records the decision — the server's engine. Approved with no run
//! started means "queued for the engine"; started, never finished means a stop fell in
//! the run (never retried). Approvals decided before this column are all counted as
//! started, so an old interruption is never taken for a queued action.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Approval::Table)
                    .add_column(timestamp_with_time_zone_null(Approval::RunStartedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::update()
                    .table(Approval::Table)
                    .value(Approval::RunStartedAt, Expr::col(Approval::DecidedAt))
                    .and_where(Expr::col(Approval::Status).eq("approved"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Approval::Table)
                    .drop_column(Approval::RunStartedAt)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Approval {
    Table,
    Status,
    DecidedAt,
    RunStartedAt,
}
