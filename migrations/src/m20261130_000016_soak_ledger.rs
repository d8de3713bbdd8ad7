//! The cost ledger shows the guard rails at work (SPEC §10): how long the
//! gateway waited before retrying a failed attempt (backoff, or the provider's
//! `Retry-After`), and what became of a structured answer (valid, repaired, reported
//! back to the model, dropped). Breaker transitions are rows of their own
//! (`breaker_opened`, `breaker_closed`) and need no column.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite takes one change per ALTER.
        manager
            .alter_table(
                Table::alter()
                    .table(CostLedger::Table)
                    .add_column(integer_null(CostLedger::BackoffMs))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(CostLedger::Table)
                    .add_column(string_null(CostLedger::Output))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(CostLedger::Table)
                    .drop_column(CostLedger::Output)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(CostLedger::Table)
                    .drop_column(CostLedger::BackoffMs)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum CostLedger {
    Table,
    BackoffMs,
    Output,
}
