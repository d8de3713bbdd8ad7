//! An approval goes to the person who answers for its requester (SPEC §12): `approver_id`
//! is that person, NULL for the boss (and for every approval filed before people existed);
//! `decided_by` is the person who decided, NULL when the boss or a policy did.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One change per ALTER: SQLite takes no more.
        for column in [Approval::ApproverId, Approval::DecidedBy] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Approval::Table)
                        .add_column(integer_null(column))
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_approval_approver")
                    .table(Approval::Table)
                    .col(Approval::ApproverId)
                    .col(Approval::Status)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_approval_approver")
                    .table(Approval::Table)
                    .to_owned(),
            )
            .await?;
        for column in [Approval::ApproverId, Approval::DecidedBy] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Approval::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Approval {
    Table,
    ApproverId,
    DecidedBy,
    Status,
}
