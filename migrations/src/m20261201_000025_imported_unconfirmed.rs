//! What came in with a company bundle and must not be used until the boss confirms it on
//! this computer: a provider's base URL (where prompts, and any key, would be sent) and a
//! CLI employee's command (what `run_cli` would run). Each column holds the value as it
//! was imported; while the live value still equals it, the thing is unconfirmed. Null
//! for everything the boss set up here, and for every row from before this migration.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One change per ALTER: SQLite takes no more.
        manager
            .alter_table(
                Table::alter()
                    .table(Provider::Table)
                    .add_column(text_null(Provider::ImportedBaseUrl))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Employee::Table)
                    .add_column(text_null(Employee::ImportedCliCommand))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Employee::Table)
                    .drop_column(Employee::ImportedCliCommand)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Provider::Table)
                    .drop_column(Provider::ImportedBaseUrl)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Provider {
    Table,
    ImportedBaseUrl,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    ImportedCliCommand,
}
