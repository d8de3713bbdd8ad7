//! The name a company's keychain entries are filed under (its approval key, its
//! providers' API keys). Random per company and never taken from a bundle, so an
//! imported company cannot reach the keys of one already on this computer. Null until
//! first needed: filled then by core, which owns the random source.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Company::Table)
                    .add_column(string_null(Company::SecretScope))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Company::Table)
                    .drop_column(Company::SecretScope)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Company {
    Table,
    SecretScope,
}
