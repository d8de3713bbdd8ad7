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
    provider,
    model_price,
    model_route,
    secretary_message,
    secretary_action,
    trace,
    chat,
    chat_member,
    chat_message,
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
pub async fn write_all(conn: &impl ConnectionTrait, t: Tables) -> Result<(), DbErr> {
    let Tables {
        company,
        mut department,
        team,
        mut employee,
        employee_state,
        provider,
        model_price,
        model_route,
        secretary_message,
        secretary_action,
        trace,
        chat,
        chat_member,
        chat_message,
        chat_summary,
        requirement,
        mut task,
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
    } = t;
    let parents: Vec<(i32, i32)> = department
        .iter_mut()
        .filter_map(|d| d.parent_id.take().map(|p| (d.id, p)))
        .collect();
    let managers: Vec<(i32, i32)> = employee
        .iter_mut()
        .filter_map(|e| e.manager_id.take().map(|m| (e.id, m)))
        .collect();
    let parent_tasks: Vec<(i32, i32)> = task
        .iter_mut()
        .filter_map(|x| x.parent_task_id.take().map(|p| (x.id, p)))
        .collect();

    insert_rows::<company::Entity, company::ActiveModel>(conn, company).await?;
    insert_rows::<department::Entity, department::ActiveModel>(conn, department).await?;
    insert_rows::<team::Entity, team::ActiveModel>(conn, team).await?;
    insert_rows::<employee::Entity, employee::ActiveModel>(conn, employee).await?;
    insert_rows::<employee_state::Entity, employee_state::ActiveModel>(conn, employee_state)
        .await?;
    insert_rows::<provider::Entity, provider::ActiveModel>(conn, provider).await?;
    insert_rows::<model_price::Entity, model_price::ActiveModel>(conn, model_price).await?;
    insert_rows::<model_route::Entity, model_route::ActiveModel>(conn, model_route).await?;
    insert_rows::<secretary_message::Entity, secretary_message::ActiveModel>(
        conn,
        secretary_message,
    )
    .await?;
    insert_rows::<secretary_action::Entity, secretary_action::ActiveModel>(conn, secretary_action)
        .await?;
    insert_rows::<trace::Entity, trace::ActiveModel>(conn, trace).await?;
    insert_rows::<chat::Entity, chat::ActiveModel>(conn, chat).await?;
    insert_rows::<chat_member::Entity, chat_member::ActiveModel>(conn, chat_member).await?;
    insert_rows::<chat_message::Entity, chat_message::ActiveModel>(conn, chat_message).await?;
    insert_rows::<chat_summary::Entity, chat_summary::ActiveModel>(conn, chat_summary).await?;
    insert_rows::<requirement::Entity, requirement::ActiveModel>(conn, requirement).await?;
    insert_rows::<task::Entity, task::ActiveModel>(conn, task).await?;
    insert_rows::<memory::Entity, memory::ActiveModel>(conn, memory).await?;
    insert_rows::<relationship::Entity, relationship::ActiveModel>(conn, relationship).await?;
    insert_rows::<thought::Entity, thought::ActiveModel>(conn, thought).await?;
    insert_rows::<mail::Entity, mail::ActiveModel>(conn, mail).await?;
    insert_rows::<meeting::Entity, meeting::ActiveModel>(conn, meeting).await?;
    insert_rows::<moderator_note::Entity, moderator_note::ActiveModel>(conn, moderator_note)
        .await?;
    insert_rows::<decision::Entity, decision::ActiveModel>(conn, decision).await?;
    insert_rows::<approval::Entity, approval::ActiveModel>(conn, approval).await?;
    insert_rows::<tool_call::Entity, tool_call::ActiveModel>(conn, tool_call).await?;
    insert_rows::<cost_ledger::Entity, cost_ledger::ActiveModel>(conn, cost_ledger).await?;

    for (id, parent) in parents {
        department::Entity::update_many()
            .col_expr(department::Column::ParentId, Expr::value(parent))
            .filter(department::Column::Id.eq(id))
            .exec(conn)
            .await?;
    }
    for (id, manager) in managers {
        employee::Entity::update_many()
            .col_expr(employee::Column::ManagerId, Expr::value(manager))
            .filter(employee::Column::Id.eq(id))
            .exec(conn)
            .await?;
    }
    for (id, parent) in parent_tasks {
        task::Entity::update_many()
            .col_expr(task::Column::ParentTaskId, Expr::value(parent))
            .filter(task::Column::Id.eq(id))
            .exec(conn)
            .await?;
    }
    if conn.get_database_backend() == DbBackend::Postgres {
        advance_sequences(conn).await?;
    }
    Ok(())
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
