//! A decision is sealed with its row (SPEC §8): `approval.decision_seal` holds an HMAC of
//! the action, whom it went to, until when and the decision itself, under the company's
//! approval key, written by the process that decided (when it holds the key). The engine
//! runs an approved action only when that seal matches the row as it is then; a status
//! set outside Cubicle, or a row copied back into the queue, carries no matching seal.
//!
//! On PostgreSQL a desktop attached to the server decides without the key, so there the
//! database's rights are what vouch for an unsealed decision. This migration narrows a
//! person's row policies to match: a person files no approval at all (the engine, on the
//! server's own role, files them), and decides only a waiting one routed to them, in
//! their own name, or lets it expire — never starting its run nor writing a seal. Which
//! columns a person may write at all is in their grants (`cubicle_store::login`).

use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// A person's role (`cubicle_person_id()` not NULL) files nothing and decides only what is
/// theirs; any other role (the server's own when it does not own the tables) keeps every
/// right it had.
const NARROWED_POLICIES: [&str; 4] = [
    "DROP POLICY IF EXISTS approval_request ON approval",
    "CREATE POLICY approval_request ON approval FOR INSERT \
     WITH CHECK (cubicle_person_id() IS NULL)",
    "DROP POLICY IF EXISTS approval_decide ON approval",
    "CREATE POLICY approval_decide ON approval FOR UPDATE \
     USING (cubicle_person_id() IS NULL \
       OR (approver_id = cubicle_person_id() AND status = 'waiting')) \
     WITH CHECK (cubicle_person_id() IS NULL \
       OR (approver_id = cubicle_person_id() AND run_started_at IS NULL \
         AND executed_at IS NULL AND decision_seal IS NULL \
         AND ((status IN ('approved', 'rejected') AND decided_by = cubicle_person_id()) \
           OR (status = 'expired' AND decided_by IS NULL))))",
];

/// The policies as migration 31 made them, for `down`.
const PREVIOUS_POLICIES: [&str; 4] = [
    "DROP POLICY IF EXISTS approval_request ON approval",
    "CREATE POLICY approval_request ON approval FOR INSERT \
     WITH CHECK (cubicle_person_id() IS NULL \
       OR (status = 'waiting' AND decided_by IS NULL AND decided_at IS NULL \
         AND run_started_at IS NULL))",
    "DROP POLICY IF EXISTS approval_decide ON approval",
    "CREATE POLICY approval_decide ON approval FOR UPDATE \
     USING (cubicle_person_id() IS NULL \
       OR (approver_id = cubicle_person_id() AND status = 'waiting')) \
     WITH CHECK (cubicle_person_id() IS NULL \
       OR (approver_id = cubicle_person_id() AND run_started_at IS NULL \
         AND (decided_by = cubicle_person_id() OR (status = 'expired' AND decided_by IS NULL))))",
];

fn on_postgres(manager: &SchemaManager) -> bool {
    manager.get_connection().get_database_backend() == DbBackend::Postgres
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Approval::Table)
                    .add_column(string_null(Approval::DecisionSeal))
                    .to_owned(),
            )
            .await?;
        if on_postgres(manager) {
            for statement in NARROWED_POLICIES {
                manager
                    .get_connection()
                    .execute_unprepared(statement)
                    .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // The narrowed policy reads the column: it goes first.
        if on_postgres(manager) {
            for statement in PREVIOUS_POLICIES {
                manager
                    .get_connection()
                    .execute_unprepared(statement)
                    .await?;
            }
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Approval::Table)
                    .drop_column(Approval::DecisionSeal)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Approval {
    Table,
    DecisionSeal,
}
