//! Model providers (never their keys: those live in the OS keychain), per-model prices,
//! model routes per purpose, and the cost ledger.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_provider(manager).await?;
        create_model_price(manager).await?;
        create_model_route(manager).await?;
        create_cost_ledger(manager).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            CostLedger::Table.into_iden(),
            ModelRoute::Table.into_iden(),
            ModelPrice::Table.into_iden(),
            Provider::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}

async fn create_provider(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Provider::Table)
                .if_not_exists()
                .col(string(Provider::Id).primary_key())
                .col(string(Provider::Name))
                .col(string(Provider::Preset))
                .col(string(Provider::Dialect))
                .col(string(Provider::BaseUrl))
                .col(string(Provider::DefaultModel))
                .col(json(Provider::Models))
                .col(boolean(Provider::Enabled).default(true))
                .col(timestamp_with_time_zone(Provider::CreatedAt))
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_model_price(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ModelPrice::Table)
                .if_not_exists()
                .col(pk_auto(ModelPrice::Id))
                .col(string(ModelPrice::ProviderId))
                .col(string(ModelPrice::Model))
                .col(double(ModelPrice::InputPerMtok))
                .col(double(ModelPrice::OutputPerMtok))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_model_price_provider_model")
                .table(ModelPrice::Table)
                .col(ModelPrice::ProviderId)
                .col(ModelPrice::Model)
                .unique()
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_model_route(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(ModelRoute::Table)
                .if_not_exists()
                .col(string(ModelRoute::Purpose).primary_key())
                .col(string(ModelRoute::ProviderId))
                .col(string(ModelRoute::Model))
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_cost_ledger(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(CostLedger::Table)
                .if_not_exists()
                .col(pk_auto(CostLedger::Id))
                .col(timestamp_with_time_zone(CostLedger::At))
                .col(string_null(CostLedger::TraceId))
                .col(integer_null(CostLedger::EmployeeId))
                .col(string(CostLedger::Purpose))
                .col(string(CostLedger::ProviderId))
                .col(string(CostLedger::Model))
                .col(integer(CostLedger::Attempt))
                .col(integer(CostLedger::InputTokens))
                .col(integer(CostLedger::OutputTokens))
                .col(double(CostLedger::CostUsd))
                .col(integer(CostLedger::LatencyMs))
                .col(string(CostLedger::Outcome))
                .col(boolean(CostLedger::Fallback).default(false))
                .col(text_null(CostLedger::Error))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_cost_ledger_at")
                .table(CostLedger::Table)
                .col(CostLedger::At)
                .to_owned(),
        )
        .await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Provider {
    Table,
    Id,
    Name,
    Preset,
    Dialect,
    BaseUrl,
    DefaultModel,
    Models,
    Enabled,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ModelPrice {
    Table,
    Id,
    ProviderId,
    Model,
    InputPerMtok,
    OutputPerMtok,
}

#[derive(DeriveIden)]
enum ModelRoute {
    Table,
    Purpose,
    ProviderId,
    Model,
}

#[derive(DeriveIden)]
enum CostLedger {
    Table,
    Id,
    At,
    TraceId,
    EmployeeId,
    Purpose,
    ProviderId,
    Model,
    Attempt,
    InputTokens,
    OutputTokens,
    CostUsd,
    LatencyMs,
    Outcome,
    Fallback,
    Error,
}
