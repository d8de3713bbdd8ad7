use sea_orm_migration::{prelude::*, schema::*};

use crate::m20261130_000001_create_company::Company;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Department::Table)
                    .if_not_exists()
                    .col(pk_auto(Department::Id))
                    .col(integer(Department::CompanyId))
                    .col(string(Department::Name))
                    .col(text(Department::Mission).default(""))
                    .col(integer_null(Department::ParentId))
                    // The lead is an employee; employee also points at department, so this
                    // one reference is checked by the org service instead of a foreign key.
                    .col(integer_null(Department::LeadId))
                    .col(timestamp_with_time_zone(Department::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_department_company")
                            .from(Department::Table, Department::CompanyId)
                            .to(Company::Table, Company::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_department_parent")
                            .from(Department::Table, Department::ParentId)
                            .to(Department::Table, Department::Id)
                            .on_delete(ForeignKeyAction::Restrict),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_department_parent")
                    .table(Department::Table)
                    .col(Department::ParentId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite drops a table by deleting its rows first, and the RESTRICT on the
        // parent reference would refuse that for any tree: flatten the tree first.
        manager
            .exec_stmt(
                Query::update()
                    .table(Department::Table)
                    .value(Department::ParentId, Option::<i32>::None)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(Department::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
pub enum Department {
    Table,
    Id,
    CompanyId,
    Name,
    Mission,
    ParentId,
    LeadId,
    CreatedAt,
}
