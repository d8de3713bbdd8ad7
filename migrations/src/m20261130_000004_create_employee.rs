use sea_orm_migration::{prelude::*, schema::*};

use crate::m20261130_000001_create_company::Company;
use crate::m20261130_000002_create_department::Department;
use crate::m20261130_000003_create_team::Team;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Employee::Table)
                    .if_not_exists()
                    .col(pk_auto(Employee::Id))
                    .col(integer(Employee::CompanyId))
                    .col(string(Employee::Name))
                    .col(string(Employee::Title))
                    .col(integer_null(Employee::DepartmentId))
                    .col(integer_null(Employee::TeamId))
                    .col(integer_null(Employee::ManagerId))
                    .col(string(Employee::Archetype))
                    .col(text(Employee::SpeakingStyle).default(""))
                    .col(json(Employee::Skills))
                    .col(string(Employee::BackendProvider))
                    .col(string(Employee::BackendModel))
                    .col(json(Employee::ToolWhitelist))
                    .col(string_null(Employee::Avatar))
                    .col(string(Employee::Status).default("idle"))
                    .col(timestamp_with_time_zone(Employee::HiredAt))
                    .col(timestamp_with_time_zone_null(Employee::FiredAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_employee_company")
                            .from(Employee::Table, Employee::CompanyId)
                            .to(Company::Table, Company::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_employee_department")
                            .from(Employee::Table, Employee::DepartmentId)
                            .to(Department::Table, Department::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_employee_team")
                            .from(Employee::Table, Employee::TeamId)
                            .to(Team::Table, Team::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_employee_manager")
                            .from(Employee::Table, Employee::ManagerId)
                            .to(Employee::Table, Employee::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_employee_department")
                    .table(Employee::Table)
                    .col(Employee::DepartmentId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Employee::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
pub enum Employee {
    Table,
    Id,
    CompanyId,
    Name,
    Title,
    DepartmentId,
    TeamId,
    ManagerId,
    Archetype,
    SpeakingStyle,
    Skills,
    BackendProvider,
    BackendModel,
    ToolWhitelist,
    Avatar,
    Status,
    HiredAt,
    FiredAt,
}
