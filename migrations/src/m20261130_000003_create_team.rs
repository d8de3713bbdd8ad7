use sea_orm_migration::{prelude::*, schema::*};

use crate::m20261130_000002_create_department::Department;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Team::Table)
                    .if_not_exists()
                    .col(pk_auto(Team::Id))
                    .col(integer(Team::DepartmentId))
                    .col(string(Team::Name))
                    .col(timestamp_with_time_zone(Team::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_team_department")
                            .from(Team::Table, Team::DepartmentId)
                            .to(Department::Table, Department::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Team::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
pub enum Team {
    Table,
    Id,
    DepartmentId,
    Name,
    CreatedAt,
}
