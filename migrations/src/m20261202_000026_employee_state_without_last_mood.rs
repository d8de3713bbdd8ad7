//! An employee's interest and saturation live on each thought's own row (`thought.interest`,
//! `thought.saturation`), where the next poll is spaced from; the copies of the last ones
//! on `employee_state` were written and never read, so they go.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One change per ALTER: SQLite takes no more.
        for column in [EmployeeState::LastInterest, EmployeeState::LastSaturation] {
            manager
                .alter_table(
                    Table::alter()
                        .table(EmployeeState::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [EmployeeState::LastInterest, EmployeeState::LastSaturation] {
            manager
                .alter_table(
                    Table::alter()
                        .table(EmployeeState::Table)
                        .add_column(integer_null(column))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum EmployeeState {
    Table,
    LastInterest,
    LastSaturation,
}
