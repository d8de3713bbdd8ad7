//! A requirement has an owner: the employee who plans it and answers for it (its
//! department's lead, or the member most fit by skills). Older rows read NULL: nobody
//! owned them, and the engine starts them when it next starts.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Requirement::Table)
                    .add_column(integer_null(Requirement::OwnerId))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Requirement::Table)
                    .drop_column(Requirement::OwnerId)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Requirement {
    Table,
    OwnerId,
}
