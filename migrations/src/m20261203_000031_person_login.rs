//! Each person is someone where the data lives (SPEC §12): on PostgreSQL a person signs in
//! as a database role of their own (`person.db_role`), and the database itself holds them
//! to their rights. Row-level security on `approval` lets a person's role decide only
//! the approvals routed to them, in their own name, and file only waiting ones; the grants
//! that keep company policy, providers and people read-only for them are given with each
//! role (`cubicle_store::login`). The server's own role owns the tables and so is not
//! bound by these policies: it migrates, runs the engine and acts for the boss.
//!
//! On SQLite (one desktop) only the column is added: the app asks who is using it.

use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The person the session's role signs in as; NULL for the server's own role.
const PERSON_FUNCTION: &str = "CREATE OR REPLACE FUNCTION cubicle_person_id() RETURNS integer \
     LANGUAGE sql STABLE AS $$ SELECT id FROM person WHERE db_role = current_user $$";

/// Everyone may read the queue; a person decides only what is routed to them, names
/// themselves as who decided (or lets it expire), never claims a run, and files only
/// waiting approvals; a person deletes none. Any role that is not a person's (the
/// server's own role when it does not own the tables) keeps every right it had.
const APPROVAL_POLICIES: [&str; 5] = [
    "ALTER TABLE approval ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY approval_read ON approval FOR SELECT USING (true)",
    "CREATE POLICY approval_decide ON approval FOR UPDATE \
     USING (cubicle_person_id() IS NULL \
       OR (approver_id = cubicle_person_id() AND status = 'waiting')) \
     WITH CHECK (cubicle_person_id() IS NULL \
       OR (approver_id = cubicle_person_id() AND run_started_at IS NULL \
         AND (decided_by = cubicle_person_id() OR (status = 'expired' AND decided_by IS NULL))))",
    "CREATE POLICY approval_request ON approval FOR INSERT \
     WITH CHECK (cubicle_person_id() IS NULL \
       OR (status = 'waiting' AND decided_by IS NULL AND decided_at IS NULL \
         AND run_started_at IS NULL))",
    "CREATE POLICY approval_remove ON approval FOR DELETE USING (cubicle_person_id() IS NULL)",
];

const UNDO_POLICIES: [&str; 6] = [
    "DROP POLICY IF EXISTS approval_remove ON approval",
    "DROP POLICY IF EXISTS approval_request ON approval",
    "DROP POLICY IF EXISTS approval_decide ON approval",
    "DROP POLICY IF EXISTS approval_read ON approval",
    "ALTER TABLE approval DISABLE ROW LEVEL SECURITY",
    "DROP FUNCTION IF EXISTS cubicle_person_id()",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Person::Table)
                    .add_column(string_null(Person::DbRole))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_person_db_role")
                    .table(Person::Table)
                    .col(Person::DbRole)
                    .unique()
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        if db.get_database_backend() == DbBackend::Postgres {
            db.execute_unprepared(PERSON_FUNCTION).await?;
            for statement in APPROVAL_POLICIES {
                db.execute_unprepared(statement).await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if db.get_database_backend() == DbBackend::Postgres {
            for statement in UNDO_POLICIES {
                db.execute_unprepared(statement).await?;
            }
        }
        manager
            .drop_index(
                Index::drop()
                    .name("idx_person_db_role")
                    .table(Person::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Person::Table)
                    .drop_column(Person::DbRole)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Person {
    Table,
    DbRole,
}
