use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Company::Table)
                    .if_not_exists()
                    .col(pk_auto(Company::Id))
                    .col(string(Company::Name))
                    .col(text(Company::Mission).default(""))
                    .col(string(Company::BossName))
                    .col(string(Company::Language).default("en"))
                    .col(string(Company::ApprovalPolicy).default("key_steps"))
                    .col(double(Company::DailyBudgetUsd).default(2.0))
                    .col(timestamp_with_time_zone(Company::CreatedAt))
                    .col(timestamp_with_time_zone(Company::UpdatedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Company::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
pub enum Company {
    Table,
    Id,
    Name,
    Mission,
    BossName,
    Language,
    ApprovalPolicy,
    DailyBudgetUsd,
    CreatedAt,
    UpdatedAt,
}
