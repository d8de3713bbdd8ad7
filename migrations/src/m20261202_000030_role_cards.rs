//! Role cards: each `role_template` row keeps its card file's text (`card`) and whether
//! it shipped with the app (`builtin`; every row before this change did); each employee
//! keeps what their card gave them for thinking — persona, temperature, retries — so
//! editing or deleting a card later never changes someone already hired.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One change per ALTER: SQLite takes no more.
        let role_columns = [
            text(RoleTemplate::Card).default("").to_owned(),
            boolean(RoleTemplate::Builtin).default(true).to_owned(),
        ];
        for column in role_columns {
            manager
                .alter_table(
                    Table::alter()
                        .table(RoleTemplate::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        let employee_columns = [
            text_null(Employee::Persona),
            double_null(Employee::Temperature),
            integer_null(Employee::MaxRetries),
        ];
        for column in employee_columns {
            manager
                .alter_table(
                    Table::alter()
                        .table(Employee::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [RoleTemplate::Card, RoleTemplate::Builtin] {
            manager
                .alter_table(
                    Table::alter()
                        .table(RoleTemplate::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        for column in [
            Employee::Persona,
            Employee::Temperature,
            Employee::MaxRetries,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Employee::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum RoleTemplate {
    Table,
    Card,
    Builtin,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Persona,
    Temperature,
    MaxRetries,
}
