//! A person's own sign-in on a PostgreSQL server (SPEC §12): a login role per person, the
//! grants that keep company policy, providers, settings and people read-only for it, and
//! who the current session signs in as. Row-level security on `approval` (migrations 31
//! and 32) does the rest. The server's own role owns the tables, so none of this binds it.
//!
//! SQLite has no roles: there every session is the desktop's own.

use crate::db::BeginWrite as _;
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement};

use crate::Db;

/// Tables a person's role reads but never writes: the company and its policy, the org
/// chart (departments, teams), providers and model routes, settings (the webhook
/// allowlist, budgets), people and their duties, role cards, the employees themselves
/// (their policies and tools: only their working status moves, when a decision frees
/// one), approvals (only their decision moves, see [`APPROVAL_DECISION_COLUMNS`]), and
/// the schema's own bookkeeping.
pub const READ_ONLY_TABLES: [&str; 13] = [
    "company",
    "department",
    "team",
    "person",
    "person_duty",
    "provider",
    "model_price",
    "model_route",
    "app_setting",
    "role_template",
    "employee",
    "approval",
    "seaql_migrations",
];

/// The columns of `approval` a person's role may write: its decision, as a person's
/// process claims it (deciding, or letting it expire), and nothing else. Never what the
/// action is (tool, args, args_hash, the requester), whose it is (approver_id), until
/// when (expires_at), the decision's seal, or the record of its run: an action and its
/// routing are the engine's, and an unsealed decision is trusted on a server only
/// because a person could have made no other. Which rows: row-level security
/// (migrations 31 and 32). No INSERT either: the engine files approvals, on the
/// server's own role, and a person who could file one could file any action, sealed
/// and routed to themselves.
const APPROVAL_DECISION_COLUMNS: &str =
    "status, decided_at, decided_via, note, authorization_chain, decided_by";

fn is_server(db: &impl ConnectionTrait) -> bool {
    db.get_database_backend() == DbBackend::Postgres
}

/// A role or password we generate is made of these only, so it needs no quoting.
fn plain(s: &str) -> Result<&str, DbErr> {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(s)
    } else {
        // Not echoed: it may be a password.
        Err(DbErr::Custom(
            "a role name or password may hold only letters, digits and _".into(),
        ))
    }
}

/// Creates `role` (a login with `password`) for `person_id`, gives it a person's grants
/// and records it on the person. A role the person had before is dropped. The caller's
/// role needs `CREATEROLE`; run inside one transaction, a failure leaves nothing behind.
pub async fn create_login(
    conn: &impl ConnectionTrait,
    person_id: i32,
    role: &str,
    password: &str,
) -> Result<(), DbErr> {
    let (role, password) = (plain(role)?, plain(password)?);
    let before = previous_role(conn, person_id).await?;
    conn.execute_unprepared(&format!(
        "CREATE ROLE {role} LOGIN PASSWORD '{password}' NOSUPERUSER NOCREATEDB NOCREATEROLE"
    ))
    .await?;
    grant(conn, role).await?;
    conn.execute_raw(Statement::from_sql_and_values(
        DbBackend::Postgres,
        "UPDATE person SET db_role = $1 WHERE id = $2",
        [role.into(), person_id.into()],
    ))
    .await?;
    if let Some(old) = before {
        drop_login(conn, &old).await?;
    }
    Ok(())
}

async fn previous_role(
    conn: &impl ConnectionTrait,
    person_id: i32,
) -> Result<Option<String>, DbErr> {
    let row = conn
        .query_one_raw(Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT db_role FROM person WHERE id = $1",
            [person_id.into()],
        ))
        .await?;
    Ok(row.and_then(|r| r.try_get::<Option<String>>("", "db_role").ok().flatten()))
}

/// A person's grants on every table of the schema: read and write, except the
/// [`READ_ONLY_TABLES`], of which only an approval's decision and an employee's working
/// status may be written. Given again after each migration, so tables added later are
/// covered and rights taken back since are gone.
pub async fn grant(conn: &impl ConnectionTrait, role: &str) -> Result<(), DbErr> {
    let role = plain(role)?;
    let statements = [
        format!("GRANT USAGE ON SCHEMA public TO {role}"),
        format!("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}"),
        format!("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}"),
        format!(
            "REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON {} FROM {role}",
            READ_ONLY_TABLES.join(", ")
        ),
        // After the REVOKE above, which also takes back column grants given before.
        format!("GRANT UPDATE ({APPROVAL_DECISION_COLUMNS}) ON approval TO {role}"),
        format!("GRANT UPDATE (status) ON employee TO {role}"),
    ];
    for statement in statements {
        conn.execute_unprepared(&statement).await?;
    }
    Ok(())
}

/// The advisory lock one owner session at a time holds while it gives the grants
/// (`CUBG` in ASCII; the engine lease has a namespace of its own): two processes opening
/// the company at once (the server's engine and a terminal) would otherwise grant on the
/// same roles together, and PostgreSQL refuses one of them ("tuple concurrently updated").
const GRANTS_LOCK: (i32, i32) = (0x4355_4247, 0);

/// Gives every person's role its grants again (after a migration added tables), one
/// opening process at a time.
pub async fn regrant_all(db: &Db) -> Result<(), DbErr> {
    if !is_server(db) {
        return Ok(());
    }
    let txn = db.begin_write().await?;
    txn.execute_raw(Statement::from_sql_and_values(
        DbBackend::Postgres,
        "SELECT pg_advisory_xact_lock($1, $2)",
        [GRANTS_LOCK.0.into(), GRANTS_LOCK.1.into()],
    ))
    .await?;
    let rows = txn
        .query_all_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT p.db_role FROM person p JOIN pg_roles r ON r.rolname = p.db_role",
        ))
        .await?;
    for row in rows {
        let role: String = row.try_get("", "db_role")?;
        grant(&txn, &role).await?;
    }
    txn.commit().await
}

/// Removes a person's role: its grants first (it owns nothing), then the role itself.
pub async fn drop_login(conn: &impl ConnectionTrait, role: &str) -> Result<(), DbErr> {
    let role = plain(role)?;
    let exists = conn
        .query_one_raw(Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT 1 AS one FROM pg_roles WHERE rolname = $1",
            [role.into()],
        ))
        .await?
        .is_some();
    if exists {
        conn.execute_unprepared(&format!("DROP OWNED BY {role}"))
            .await?;
        conn.execute_unprepared(&format!("DROP ROLE {role}"))
            .await?;
    }
    Ok(())
}

/// Who this session signs in as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Session {
    /// The role that owns the schema (or a superuser), or any SQLite session: it
    /// migrates, runs the engine and acts for the boss.
    Owner,
    /// A person's own role: it reads and decides within its grants and never migrates.
    Person { person_id: i32 },
    /// A role that neither owns the schema nor belongs to a person.
    Stranger,
}

/// What the current session is. On a server before the schema exists, the owner (the
/// one who will create it).
pub async fn session(db: &impl ConnectionTrait) -> Result<Session, DbErr> {
    if !is_server(db) {
        return Ok(Session::Owner);
    }
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser, \
               (SELECT tableowner = current_user FROM pg_tables \
                 WHERE schemaname = 'public' AND tablename = 'seaql_migrations') AS owner, \
               (SELECT to_regprocedure('cubicle_person_id()') IS NOT NULL) AS has_people",
        ))
        .await?
        .ok_or_else(|| DbErr::Custom("no answer to who this session is".into()))?;
    let superuser: Option<bool> = row.try_get("", "superuser")?;
    let owner: Option<bool> = row.try_get("", "owner")?;
    if superuser == Some(true) || owner.is_none_or(|o| o) {
        return Ok(Session::Owner);
    }
    let has_people: Option<bool> = row.try_get("", "has_people")?;
    if has_people != Some(true) {
        return Ok(Session::Stranger);
    }
    let person = db
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT cubicle_person_id() AS person_id",
        ))
        .await?
        .and_then(|r| r.try_get::<Option<i32>>("", "person_id").ok().flatten());
    Ok(match person {
        Some(person_id) => Session::Person { person_id },
        None => Session::Stranger,
    })
}
