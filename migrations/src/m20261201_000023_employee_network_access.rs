//! Whether an employee's sandboxed processes (`run_shell`, `run_cli`) get the network.
//! Off for everyone until the boss turns it on for someone: a prompt-injected command
//! must not be able to send the workspace anywhere by default.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Employee::Table)
                    .add_column(boolean(Employee::NetworkAccess).default(false))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Employee::Table)
                    .drop_column(Employee::NetworkAccess)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    NetworkAccess,
}
