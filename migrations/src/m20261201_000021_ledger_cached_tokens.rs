//! Prompt caching shows in the cost ledger: of an attempt's input tokens, how many the
//! provider served from its prompt cache (OpenAI `cached_tokens`, DeepSeek
//! `prompt_cache_hit_tokens`, Anthropic `cache_read_input_tokens`). Older rows read 0:
//! nothing was known about caching when they were written.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(CostLedger::Table)
                    .add_column(integer(CostLedger::CachedTokens).default(0))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(CostLedger::Table)
                    .drop_column(CostLedger::CachedTokens)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum CostLedger {
    Table,
    CachedTokens,
}
