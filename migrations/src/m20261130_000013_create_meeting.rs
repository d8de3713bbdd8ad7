//! Meetings (SPEC §9): one row per meeting chat, the moderator's notes (its reasoning
//! lives only here, never in `chat_message`) and the decision records of arbitration.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_meeting(manager).await?;
        create_moderator_note(manager).await?;
        create_decision(manager).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Decision::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(ModeratorNote::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Meeting::Table).to_owned())
            .await
    }
}

async fn create_meeting(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Meeting::Table)
                .if_not_exists()
                .col(pk_auto(Meeting::Id))
                .col(integer_uniq(Meeting::ChatId))
                .col(string(Meeting::Strategy))
                .col(text(Meeting::Topic))
                .col(string(Meeting::Status).default("open"))
                .col(integer(Meeting::MaxTurns))
                .col(integer_null(Meeting::CurrentSpeakerId))
                .col(text_null(Meeting::Minutes))
                .col(timestamp_with_time_zone(Meeting::CreatedAt))
                .col(timestamp_with_time_zone_null(Meeting::ClosedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_meeting_chat")
                        .from(Meeting::Table, Meeting::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_meeting_speaker")
                        .from(Meeting::Table, Meeting::CurrentSpeakerId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_moderator_note(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ModeratorNote::Table)
                .if_not_exists()
                .col(pk_auto(ModeratorNote::Id))
                .col(integer(ModeratorNote::MeetingId))
                .col(string(ModeratorNote::Move))
                .col(integer_null(ModeratorNote::EmployeeId))
                .col(text(ModeratorNote::Reason))
                .col(timestamp_with_time_zone(ModeratorNote::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_moderator_note_meeting")
                        .from(ModeratorNote::Table, ModeratorNote::MeetingId)
                        .to(Meeting::Table, Meeting::Id)
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_moderator_note_employee")
                        .from(ModeratorNote::Table, ModeratorNote::EmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_decision(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Decision::Table)
                .if_not_exists()
                .col(pk_auto(Decision::Id))
                .col(integer_null(Decision::MeetingId))
                .col(integer_null(Decision::ChatId))
                .col(string_null(Decision::TraceId))
                .col(text(Decision::Question))
                .col(string(Decision::DecisionType))
                .col(string(Decision::Outcome))
                .col(string(Decision::DecidedByKind))
                .col(integer_null(Decision::DecidedByEmployeeId))
                .col(string(Decision::Status))
                .col(json(Decision::AuthorizationChain))
                .col(timestamp_with_time_zone(Decision::CreatedAt))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_decision_meeting")
                        .from(Decision::Table, Decision::MeetingId)
                        .to(Meeting::Table, Meeting::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_decision_chat")
                        .from(Decision::Table, Decision::ChatId)
                        .to(Chat::Table, Chat::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_decision_employee")
                        .from(Decision::Table, Decision::DecidedByEmployeeId)
                        .to(Employee::Table, Employee::Id)
                        .on_delete(ForeignKeyAction::SetNull),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Meeting {
    Table,
    Id,
    ChatId,
    Strategy,
    Topic,
    Status,
    MaxTurns,
    CurrentSpeakerId,
    Minutes,
    CreatedAt,
    ClosedAt,
}

#[derive(DeriveIden)]
enum ModeratorNote {
    Table,
    Id,
    MeetingId,
    Move,
    EmployeeId,
    Reason,
    CreatedAt,
}

#[allow(clippy::enum_variant_names)] // the column is `decision_type`
#[derive(DeriveIden)]
enum Decision {
    Table,
    Id,
    MeetingId,
    ChatId,
    TraceId,
    Question,
    DecisionType,
    Outcome,
    DecidedByKind,
    DecidedByEmployeeId,
    Status,
    AuthorizationChain,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Chat {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
}
