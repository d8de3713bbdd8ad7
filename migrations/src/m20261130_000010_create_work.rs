//! Requirements (projects with their own group chat) and tasks (SPEC §6).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_requirement(manager).await?;
        create_task(manager).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Task::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Requirement::Table).to_owned())
            .await
    }
}

async fn create_requirement(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Requirement::Table)
                .if_not_exists()
                .col(pk_auto(Requirement::Id))
                .col(string(Requirement::Name))
                .col(text(Requirement::Description).default(""))
                .col(integer_null(Requirement::DepartmentId))
                .col(string(Requirement::Status).default("open"))
                .col(integer_null(Requirement::ChatId))
                .col(timestamp_with_time_zone(Requirement::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_requirement_department")
                        .from(Requirement::Table, Requirement::DepartmentId)
                        .to(Department::Table, Department::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_requirement_chat")
                        .from(Requirement::Table, Requirement::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_task(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Task::Table)
                .if_not_exists()
                .col(pk_auto(Task::Id))
                .col(integer(Task::OwnerId))
                .col(text(Task::Description))
                .col(string(Task::Kind).default("oneshot"))
                .col(text_null(Task::Condition))
                .col(string(Task::Status).default("pending"))
                .col(text_null(Task::Result))
                .col(string_null(Task::OnResolveTarget))
                .col(text_null(Task::OnResolveHint))
                .col(integer_null(Task::ParentTaskId))
                .col(integer_null(Task::RequirementId))
                .col(string_null(Task::TraceId))
                .col(string(Task::CreatedBy))
                .col(timestamp_with_time_zone(Task::CreatedAt))
                .col(timestamp_with_time_zone_null(Task::ResolvedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_task_owner")
                        .from(Task::Table, Task::OwnerId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_task_parent")
                        .from(Task::Table, Task::ParentTaskId)
                        .to(Task::Table, Task::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_task_requirement")
                        .from(Task::Table, Task::RequirementId)
                        .to(Requirement::Table, Requirement::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_task_owner_status")
                .table(Task::Table)
                .col(Task::OwnerId)
                .col(Task::Status)
                .to_owned(),
        )
        .await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Requirement {
    Table,
    Id,
    Name,
    Description,
    DepartmentId,
    Status,
    ChatId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Task {
    Table,
    Id,
    OwnerId,
    Description,
    Kind,
    Condition,
    Status,
    Result,
    OnResolveTarget,
    OnResolveHint,
    ParentTaskId,
    RequirementId,
    TraceId,
    CreatedBy,
    CreatedAt,
    ResolvedAt,
}

#[derive(DeriveIden)]
enum Department {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
}
