//! Queries for traces (SPEC §10): the instruction rows and everything that carries a
//! trace id, read back by that id.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::{
    approval, chat_message, cost_ledger, decision, mail, task, thought, tool_call, trace,
};
use crate::enums::SilenceReason;

pub async fn insert_trace(
    conn: &impl ConnectionTrait,
    model: trace::ActiveModel,
) -> Result<trace::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Option<trace::Model>, DbErr> {
    trace::Entity::find_by_id(id.to_owned()).one(conn).await
}

/// The newest `limit` instructions, newest first.
pub async fn recent_traces(
    conn: &impl ConnectionTrait,
    limit: u64,
) -> Result<Vec<trace::Model>, DbErr> {
    trace::Entity::find()
        .order_by_desc(trace::Column::CreatedAt)
        .order_by_desc(trace::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

pub async fn tasks_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<task::Model>, DbErr> {
    task::Entity::find()
        .filter(task::Column::TraceId.eq(id))
        .order_by_asc(task::Column::Id)
        .all(conn)
        .await
}

pub async fn messages_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<chat_message::Model>, DbErr> {
    chat_message::Entity::find()
        .filter(chat_message::Column::TraceId.eq(id))
        .order_by_asc(chat_message::Column::Id)
        .all(conn)
        .await
}

pub async fn thoughts_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<thought::Model>, DbErr> {
    thought::Entity::find()
        .filter(thought::Column::TraceId.eq(id))
        .order_by_asc(thought::Column::Id)
        .all(conn)
        .await
}

/// The trace's steps (SPEC §10), oldest first: thoughts under it that spoke, or that
/// wanted to and were held back for one of the `held_back` reasons.
pub async fn steps_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
    held_back: &[SilenceReason],
) -> Result<Vec<thought::Model>, DbErr> {
    thought::Entity::find()
        .filter(thought::Column::TraceId.eq(id))
        .filter(
            Condition::any()
                .add(thought::Column::Spoke.eq(true))
                .add(thought::Column::SilencedBy.is_in(held_back.iter().copied())),
        )
        .order_by_asc(thought::Column::Id)
        .all(conn)
        .await
}

pub async fn ledger_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<cost_ledger::Model>, DbErr> {
    cost_ledger::Entity::find()
        .filter(cost_ledger::Column::TraceId.eq(id))
        .order_by_asc(cost_ledger::Column::Id)
        .all(conn)
        .await
}

pub async fn mail_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<mail::Model>, DbErr> {
    mail::Entity::find()
        .filter(mail::Column::TraceId.eq(id))
        .order_by_asc(mail::Column::Id)
        .all(conn)
        .await
}

/// Spend per trace for the given ids, in one query: `(trace id, calls, cost)`.
pub async fn cost_of_traces(
    conn: &impl ConnectionTrait,
    ids: Vec<String>,
) -> Result<Vec<(String, i64, f64)>, DbErr> {
    cost_ledger::Entity::find()
        .select_only()
        .column(cost_ledger::Column::TraceId)
        .column_as(cost_ledger::Column::Id.count(), "calls")
        .column_as(cost_ledger::Column::CostUsd.sum(), "cost")
        .filter(cost_ledger::Column::TraceId.is_in(ids))
        .group_by(cost_ledger::Column::TraceId)
        .into_tuple::<(Option<String>, i64, Option<f64>)>()
        .all(conn)
        .await
        .map(|rows| {
            rows.into_iter()
                .filter_map(|(id, n, c)| id.map(|id| (id, n, c.unwrap_or(0.0))))
                .collect()
        })
}

/// Boss instructions given since `since`.
pub async fn traces_since(
    conn: &impl ConnectionTrait,
    since: chrono::DateTime<chrono::Utc>,
) -> Result<u64, DbErr> {
    trace::Entity::find()
        .filter(trace::Column::CreatedAt.gte(since))
        .count(conn)
        .await
}

pub async fn approvals_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<approval::Model>, DbErr> {
    approval::Entity::find()
        .filter(approval::Column::TraceId.eq(id))
        .order_by_asc(approval::Column::Id)
        .all(conn)
        .await
}

/// The tool calls made under a trace, whatever became of them, oldest first.
pub async fn tool_calls_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<tool_call::Model>, DbErr> {
    tool_call::Entity::find()
        .filter(tool_call::Column::TraceId.eq(id))
        .order_by_asc(tool_call::Column::Id)
        .all(conn)
        .await
}

/// Rulings made under a trace (a meeting's, when the boss convened it), oldest first.
pub async fn decisions_of_trace(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Vec<decision::Model>, DbErr> {
    decision::Entity::find()
        .filter(decision::Column::TraceId.eq(id))
        .order_by_asc(decision::Column::Id)
        .all(conn)
        .await
}

/// The latest moment the company's record reaches: the newest message, thought, mail,
/// task or approval. A simulated calendar resumes from here, so a second simulated run
/// never writes before what the first one wrote.
pub async fn latest_moment(conn: &impl ConnectionTrait) -> Result<Option<DateTime<Utc>>, DbErr> {
    let newest = [
        newest::<chat_message::Entity>(conn, chat_message::Column::CreatedAt).await?,
        newest::<thought::Entity>(conn, thought::Column::CreatedAt).await?,
        newest::<mail::Entity>(conn, mail::Column::CreatedAt).await?,
        newest::<task::Entity>(conn, task::Column::CreatedAt).await?,
        newest::<approval::Entity>(conn, approval::Column::CreatedAt).await?,
    ];
    Ok(newest.into_iter().flatten().max())
}

/// The newest value of one table's creation time.
async fn newest<E: EntityTrait>(
    conn: &impl ConnectionTrait,
    created_at: E::Column,
) -> Result<Option<DateTime<Utc>>, DbErr> {
    E::find()
        .select_only()
        .column(created_at)
        .order_by_desc(created_at)
        .into_tuple::<DateTime<Utc>>()
        .one(conn)
        .await
}
