//! Every company table read and written whole: the storage half of a company bundle
//! (export / import). The tables a bundle holds are listed once, in [`Tables`], in an
//! order where each table comes after the tables its foreign keys point to.
//!
//! Left out on purpose:
//! - `role_template`: the built-in catalogue, seeded on every open from code.
//! - `app_setting`: machine-local settings (the path of the built-in model's GGUF file)
//!   that mean nothing on another computer.
//! - API keys: they are not in the database at all (OS keychain / environment).
//!
//! Nothing else is left out: the scheduler keeps no table (its wake-ups are rebuilt from
//! chats, tasks and the clock on start), so the rows below are the whole company.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, DbErr, EntityTrait, IntoActiveModel, Iterable,
    PaginatorTrait, PrimaryKeyToColumn, QueryFilter, QueryOrder, Statement,
};
use serde::{Deserialize, Serialize};

use crate::entity::*;

/// Rows per INSERT: well under SQLite's bound-parameter limit for our widest table.
const INSERT_CHUNK: usize = 100;

macro_rules! tables {
    ($($name:ident),* $(,)?) => {
        /// Every row of every bundled table, each table ordered by primary key.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Tables {
            $(pub $name: Vec<$name::Model>,)*
        }

        /// The bundled tables, in insertion order.
        pub const TABLES: &[&str] = &[$(stringify!($name)),*];

        /// Reads every bundled table whole.
        pub async fn read_all(conn: &impl ConnectionTrait) -> Result<Tables, DbErr> {
            Ok(Tables {
                $($name: all::<$name::Entity>(conn).await?,)*
            })
        }

        /// How many rows each bundled table holds, in [`TABLES`] order.
        pub async fn counts(conn: &impl ConnectionTrait) -> Result<Vec<(&'static str, u64)>, DbErr> {
            Ok(vec![
                $((stringify!($name), $name::Entity::find().count(conn).await?),)*
            ])
        }

        /// Inserts every table's rows, in [`TABLES`] order, ids kept.
        async fn insert_all(conn: &impl ConnectionTrait, t: Tables) -> Result<(), DbErr> {
            $(insert_rows::<$name::Entity, $name::ActiveModel>(conn, t.$name).await?;)*
            Ok(())
        }

        impl Tables {
            /// Rows in all tables together.
            pub fn row_count(&self) -> usize {
                0 $(+ self.$name.len())*
            }
        }
    };
}

tables!(
    company,
    department,
    team,
    employee,
    employee_state,
    person,
    person_duty,
    provider,
    model_price,
    model_route,
    secretary_message,
    secretary_action,
    trace,
    chat,
    chat_member,
    chat_person,
    chat_message,
    proxy_line,
    chat_summary,
    requirement,
    task,
    memory,
    relationship,
    thought,
    mail,
    meeting,
    moderator_note,
    decision,
    approval,
    tool_call,
    cost_ledger,
);

/// Every row of `E`, by primary key.
async fn all<E: EntityTrait>(conn: &impl ConnectionTrait) -> Result<Vec<E::Model>, DbErr> {
    let mut q = E::find();
    for key in E::PrimaryKey::iter() {
        q = q.order_by_asc(key.into_column());
    }
    q.all(conn).await
}

async fn insert_rows<E, A>(conn: &impl ConnectionTrait, rows: Vec<E::Model>) -> Result<(), DbErr>
where
    E: EntityTrait,
    E::Model: IntoActiveModel<A>,
    A: sea_orm::ActiveModelTrait<Entity = E> + Send,
{
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<A> = rows
            .by_ref()
            .take(INSERT_CHUNK)
            .map(IntoActiveModel::into_active_model)
            .collect();
        E::insert_many(chunk).exec_without_returning(conn).await?;
    }
    Ok(())
}

/// Writes `t` with every id kept, so links between rows stay intact. Rows that point at
/// a row of their own table (a parent department, a manager, a parent task) are written
/// without that link first and linked once all rows are in, so their order is free.
/// Run it inside a transaction: it stops at the first error and leaves partial writes
/// for the caller to roll back.
pub async fn write_all(conn: &impl ConnectionTrait, mut t: Tables) -> Result<(), DbErr> {
    let links = SelfLinks::take(&mut t);
    insert_all(conn, t).await?;
    links.restore(conn).await?;
    if conn.get_database_backend() == DbBackend::Postgres {
        advance_sequences(conn).await?;
    }
    Ok(())
}

/// The links from a row to another row of the same table, as `(row, target)` pairs.
struct SelfLinks {
    parent_departments: Vec<(i32, i32)>,
    managers: Vec<(i32, i32)>,
    parent_tasks: Vec<(i32, i32)>,
}

impl SelfLinks {
    /// Takes the links out of the rows, so the rows can be inserted in any order.
    fn take(t: &mut Tables) -> Self {
        Self {
            parent_departments: t
                .department
                .iter_mut()
                .filter_map(|d| d.parent_id.take().map(|p| (d.id, p)))
                .collect(),
            managers: t
                .employee
                .iter_mut()
                .filter_map(|e| e.manager_id.take().map(|m| (e.id, m)))
                .collect(),
            parent_tasks: t
                .task
                .iter_mut()
                .filter_map(|x| x.parent_task_id.take().map(|p| (x.id, p)))
                .collect(),
        }
    }

    /// Puts the links back once every row is in.
    async fn restore(self, conn: &impl ConnectionTrait) -> Result<(), DbErr> {
        for (id, parent) in self.parent_departments {
            department::Entity::update_many()
                .col_expr(department::Column::ParentId, Expr::value(parent))
                .filter(department::Column::Id.eq(id))
                .exec(conn)
                .await?;
        }
        for (id, manager) in self.managers {
            employee::Entity::update_many()
                .col_expr(employee::Column::ManagerId, Expr::value(manager))
                .filter(employee::Column::Id.eq(id))
                .exec(conn)
                .await?;
        }
        for (id, parent) in self.parent_tasks {
            task::Entity::update_many()
                .col_expr(task::Column::ParentTaskId, Expr::value(parent))
                .filter(task::Column::Id.eq(id))
                .exec(conn)
                .await?;
        }
        Ok(())
    }
}

/// Tables whose integer `id` comes from a sequence.
const SERIAL_TABLES: &[&str] = &[
    "company",
    "department",
    "team",
    "employee",
    "model_price",
    "secretary_message",
    "secretary_action",
    "chat",
    "chat_member",
    "chat_message",
    "proxy_line",
    "chat_summary",
    "requirement",
    "task",
    "memory",
    "relationship",
    "thought",
    "mail",
    "meeting",
    "moderator_note",
    "decision",
    "approval",
    "tool_call",
    "cost_ledger",
];

/// PostgreSQL does not move a sequence past explicitly inserted ids (SQLite does): move
/// each one to its table's largest id so the next insert does not collide.
async fn advance_sequences(conn: &impl ConnectionTrait) -> Result<(), DbErr> {
    for table in SERIAL_TABLES {
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), \
             COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM \"{table}\""
        );
        conn.query_one_raw(Statement::from_string(DbBackend::Postgres, sql))
            .await?;
    }
    Ok(())
}
