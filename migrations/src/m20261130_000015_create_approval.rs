//! Approvals and tools (SPEC §8): the approval queue, the log of every tool call, and
//! per-employee settings: an approval policy that overrides the company's, and the
//! command a CLI employee runs.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_approval(manager).await?;
        create_tool_call(manager).await?;
        add_employee_approval_policy(manager).await?;
        add_employee_cli_command(manager).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Employee::Table)
                    .drop_column(Employee::CliCommand)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Employee::Table)
                    .drop_column(Employee::ApprovalPolicy)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(ToolCall::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Approval::Table).to_owned())
            .await
    }
}

async fn create_approval(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Approval::Table)
                .if_not_exists()
                .col(pk_auto(Approval::Id))
                .col(integer(Approval::EmployeeId))
                .col(string(Approval::Tool))
                .col(json(Approval::Args))
                .col(string(Approval::ArgsHash))
                .col(text(Approval::Reason))
                .col(string(Approval::Risk))
                .col(string_null(Approval::TraceId))
                .col(integer_null(Approval::ChatId))
                .col(string(Approval::Status).default("waiting"))
                .col(timestamp_with_time_zone(Approval::CreatedAt))
                .col(timestamp_with_time_zone(Approval::ExpiresAt))
                .col(timestamp_with_time_zone_null(Approval::DecidedAt))
                .col(string_null(Approval::DecidedVia))
                .col(text_null(Approval::Note))
                .col(json(Approval::AuthorizationChain))
                .col(json_null(Approval::Result))
                .col(text_null(Approval::Error))
                .col(timestamp_with_time_zone_null(Approval::ExecutedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_approval_employee")
                        .from(Approval::Table, Approval::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_approval_chat")
                        .from(Approval::Table, Approval::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_approval_status")
                .table(Approval::Table)
                .col(Approval::Status)
                .col(Approval::ExpiresAt)
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_approval_trace")
                .table(Approval::Table)
                .col(Approval::TraceId)
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_tool_call(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ToolCall::Table)
                .if_not_exists()
                .col(pk_auto(ToolCall::Id))
                .col(integer(ToolCall::EmployeeId))
                .col(string(ToolCall::Tool))
                .col(json(ToolCall::Args))
                .col(string(ToolCall::Risk))
                .col(string(ToolCall::Outcome))
                .col(text_null(ToolCall::Output))
                .col(integer_null(ToolCall::ApprovalId))
                .col(string_null(ToolCall::TraceId))
                .col(timestamp_with_time_zone(ToolCall::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_tool_call_employee")
                        .from(ToolCall::Table, ToolCall::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_tool_call_approval")
                        .from(ToolCall::Table, ToolCall::ApprovalId)
                        .to(Approval::Table, Approval::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_tool_call_employee")
                .table(ToolCall::Table)
                .col(ToolCall::EmployeeId)
                .col(ToolCall::CreatedAt)
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn add_employee_approval_policy(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // SQLite takes one change per ALTER.
    manager
        .alter_table(
            Table::alter()
                .table(Employee::Table)
                .add_column(string_null(Employee::ApprovalPolicy))
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn add_employee_cli_command(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .alter_table(
            Table::alter()
                .table(Employee::Table)
                .add_column(text_null(Employee::CliCommand))
                .to_owned(),
        )
        .await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Approval {
    Table,
    Id,
    EmployeeId,
    Tool,
    Args,
    ArgsHash,
    Reason,
    Risk,
    TraceId,
    ChatId,
    Status,
    CreatedAt,
    ExpiresAt,
    DecidedAt,
    DecidedVia,
    Note,
    AuthorizationChain,
    Result,
    Error,
    ExecutedAt,
}

#[derive(DeriveIden)]
enum ToolCall {
    Table,
    Id,
    EmployeeId,
    Tool,
    Args,
    Risk,
    Outcome,
    Output,
    ApprovalId,
    TraceId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
    ApprovalPolicy,
    CliCommand,
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
}
