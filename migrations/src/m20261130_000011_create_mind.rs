//! Employees' minds (SPEC §4, §5, §7): memories, per-chat rolling summaries,
//! relationships, stamina state and stored flows of thought; plus read marks, a
//! work/casual mode and a topic on chats, and mentions on messages.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_memory(manager).await?;
        create_chat_summary(manager).await?;
        create_relationship(manager).await?;
        create_employee_state(manager).await?;
        create_thought(manager).await?;
        add_read_marks_and_chat_modes(manager).await?;
        mark_existing_work_chats(manager).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for t in [
            Thought::Table.into_iden(),
            EmployeeState::Table.into_iden(),
            Relationship::Table.into_iden(),
            ChatSummary::Table.into_iden(),
            Memory::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(t).to_owned())
                .await?;
        }
        for (table, column) in [
            (
                ChatMessage::Table.into_iden(),
                ChatMessage::Mentions.into_iden(),
            ),
            (Chat::Table.into_iden(), Chat::Topic.into_iden()),
            (
                Chat::Table.into_iden(),
                Chat::BossLastReadMessageId.into_iden(),
            ),
            (Chat::Table.into_iden(), Chat::Mode.into_iden()),
            (
                ChatMember::Table.into_iden(),
                ChatMember::LastReadMessageId.into_iden(),
            ),
        ] {
            manager
                .alter_table(Table::alter().table(table).drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}

async fn create_memory(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Memory::Table)
                .if_not_exists()
                .col(pk_auto(Memory::Id))
                .col(integer(Memory::EmployeeId))
                .col(string(Memory::Kind))
                .col(text(Memory::Content))
                .col(integer(Memory::Importance))
                .col(string(Memory::Visibility))
                .col(integer_null(Memory::DepartmentId))
                .col(integer_null(Memory::RequirementId))
                .col(integer_null(Memory::SourceChatId))
                .col(timestamp_with_time_zone_null(Memory::ExpiresAt))
                .col(timestamp_with_time_zone(Memory::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_memory_employee")
                        .from(Memory::Table, Memory::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_memory_department")
                        .from(Memory::Table, Memory::DepartmentId)
                        .to(Department::Table, Department::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_memory_requirement")
                        .from(Memory::Table, Memory::RequirementId)
                        .to(Requirement::Table, Requirement::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                // A memory outlives the chat it came from.
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_memory_source_chat")
                        .from(Memory::Table, Memory::SourceChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_memory_employee_kind")
                .table(Memory::Table)
                .col(Memory::EmployeeId)
                .col(Memory::Kind)
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_chat_summary(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ChatSummary::Table)
                .if_not_exists()
                .col(pk_auto(ChatSummary::Id))
                .col(integer_uniq(ChatSummary::ChatId))
                .col(text(ChatSummary::Summary))
                .col(integer(ChatSummary::UptoMessageId))
                .col(timestamp_with_time_zone(ChatSummary::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_chat_summary_chat")
                        .from(ChatSummary::Table, ChatSummary::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_relationship(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Relationship::Table)
                .if_not_exists()
                .col(pk_auto(Relationship::Id))
                .col(integer(Relationship::EmployeeId))
                .col(integer(Relationship::OtherEmployeeId))
                .col(text(Relationship::Impression))
                .col(integer(Relationship::Affinity))
                .col(integer(Relationship::Interactions).default(0))
                .col(timestamp_with_time_zone(Relationship::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_relationship_employee")
                        .from(Relationship::Table, Relationship::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_relationship_other")
                        .from(Relationship::Table, Relationship::OtherEmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_relationship_pair")
                .table(Relationship::Table)
                .col(Relationship::EmployeeId)
                .col(Relationship::OtherEmployeeId)
                .unique()
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_employee_state(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(EmployeeState::Table)
                .if_not_exists()
                // One row per employee, keyed by the employee itself.
                .col(integer(EmployeeState::EmployeeId).primary_key())
                .col(double(EmployeeState::Patience))
                .col(double(EmployeeState::Fatigue))
                .col(double(EmployeeState::Stress))
                .col(integer_null(EmployeeState::LastInterest))
                .col(integer_null(EmployeeState::LastSaturation))
                .col(integer(EmployeeState::ReviewRejections).default(0))
                .col(timestamp_with_time_zone(EmployeeState::UpdatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_employee_state_employee")
                        .from(EmployeeState::Table, EmployeeState::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_thought(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Thought::Table)
                .if_not_exists()
                .col(pk_auto(Thought::Id))
                .col(integer(Thought::EmployeeId))
                .col(integer_null(Thought::ChatId))
                .col(text(Thought::InnerThoughts))
                .col(text(Thought::Reason))
                .col(boolean(Thought::ShouldSpeak))
                .col(boolean(Thought::Spoke))
                .col(string_null(Thought::SilencedBy))
                .col(integer_null(Thought::Interest))
                .col(integer_null(Thought::Saturation))
                .col(string(Thought::PerspectiveSeed))
                .col(integer(Thought::PromptTokens))
                .col(json(Thought::Ops))
                .col(string_null(Thought::TraceId))
                .col(timestamp_with_time_zone(Thought::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_thought_employee")
                        .from(Thought::Table, Thought::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_thought_chat")
                        .from(Thought::Table, Thought::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_thought_chat")
                .table(Thought::Table)
                .col(Thought::ChatId)
                .col(Thought::Id)
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_thought_employee")
                .table(Thought::Table)
                .col(Thought::EmployeeId)
                .col(Thought::Id)
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn add_read_marks_and_chat_modes(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // SQLite: one change per ALTER, and no foreign keys on added columns (the
    // read marks are plain message ids).
    for alter in [
        Table::alter()
            .table(ChatMember::Table)
            .add_column(integer_null(ChatMember::LastReadMessageId))
            .to_owned(),
        Table::alter()
            .table(Chat::Table)
            .add_column(string(Chat::Mode).default("casual"))
            .to_owned(),
        Table::alter()
            .table(Chat::Table)
            .add_column(integer_null(Chat::BossLastReadMessageId))
            .to_owned(),
        Table::alter()
            .table(Chat::Table)
            .add_column(text_null(Chat::Topic))
            .to_owned(),
        Table::alter()
            .table(ChatMessage::Table)
            .add_column(json_null(ChatMessage::Mentions))
            .to_owned(),
    ] {
        manager.alter_table(alter).await?;
    }
    Ok(())
}

async fn mark_existing_work_chats(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // Chats that existed before the column: requirement groups and DMs are work
    // chats (SPEC §4); department groups keep the default.
    manager
        .exec_stmt(
            Query::update()
                .table(Chat::Table)
                .value(Chat::Mode, "work")
                .and_where(Expr::col(Chat::Kind).is_in(["requirement", "dm"]))
                .to_owned(),
        )
        .await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Memory {
    Table,
    Id,
    EmployeeId,
    Kind,
    Content,
    Importance,
    Visibility,
    DepartmentId,
    RequirementId,
    SourceChatId,
    ExpiresAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ChatSummary {
    Table,
    Id,
    ChatId,
    Summary,
    UptoMessageId,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Relationship {
    Table,
    Id,
    EmployeeId,
    OtherEmployeeId,
    Impression,
    Affinity,
    Interactions,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum EmployeeState {
    Table,
    EmployeeId,
    Patience,
    Fatigue,
    Stress,
    LastInterest,
    LastSaturation,
    ReviewRejections,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Thought {
    Table,
    Id,
    EmployeeId,
    ChatId,
    InnerThoughts,
    Reason,
    ShouldSpeak,
    Spoke,
    SilencedBy,
    Interest,
    Saturation,
    PerspectiveSeed,
    PromptTokens,
    Ops,
    TraceId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
    Kind,
    Mode,
    BossLastReadMessageId,
    Topic,
}

#[derive(DeriveIden)]
enum ChatMember {
    Table,
    LastReadMessageId,
}

#[derive(DeriveIden)]
enum ChatMessage {
    Table,
    Mentions,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Department {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Requirement {
    Table,
    Id,
}
