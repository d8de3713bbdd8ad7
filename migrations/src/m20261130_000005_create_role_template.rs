use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(RoleTemplate::Table)
                    .if_not_exists()
                    .col(pk_auto(RoleTemplate::Id))
                    .col(string_uniq(RoleTemplate::Key))
                    .col(string(RoleTemplate::Title))
                    .col(string(RoleTemplate::TitleZh))
                    .col(string(RoleTemplate::Archetype))
                    .col(json(RoleTemplate::Skills))
                    .col(json(RoleTemplate::Tools))
                    .col(text(RoleTemplate::Description).default(""))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(RoleTemplate::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum RoleTemplate {
    Table,
    Id,
    Key,
    Title,
    TitleZh,
    Archetype,
    Skills,
    Tools,
    Description,
}
