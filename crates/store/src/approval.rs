//! Queries and mutations for approvals and the tool-call log (SPEC §8).
//!
//! Deciding is a conditional UPDATE (`WHERE status = 'waiting'`): whoever changes the
//! row claimed the decision, everyone else changed nothing; the decision's seal, when
//! the decider has one, is written in that same update. No rule lives here.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::{approval, tool_call};

use crate::enums::{ApprovalStatus, CallLogOutcome, DecidedVia, EmployeeStatus};

const WAITING: ApprovalStatus = ApprovalStatus::Waiting;
const APPROVED: ApprovalStatus = ApprovalStatus::Approved;

pub async fn insert_approval(
    conn: &impl ConnectionTrait,
    model: approval::ActiveModel,
) -> Result<approval::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_approval(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<approval::Model>, DbErr> {
    approval::Entity::find_by_id(id).one(conn).await
}

/// A waiting approval of this employee for exactly this action, if any.
pub async fn find_waiting_same(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    tool: &str,
    args_hash: &str,
) -> Result<Option<approval::Model>, DbErr> {
    approval::Entity::find()
        .filter(approval::Column::EmployeeId.eq(employee_id))
        .filter(approval::Column::Tool.eq(tool))
        .filter(approval::Column::ArgsHash.eq(args_hash))
        .filter(approval::Column::Status.eq(WAITING))
        .one(conn)
        .await
}

/// Every waiting approval.
pub async fn all_waiting(conn: &impl ConnectionTrait) -> Result<Vec<approval::Model>, DbErr> {
    approval::Entity::find()
        .filter(approval::Column::Status.eq(WAITING))
        .order_by_asc(approval::Column::Id)
        .all(conn)
        .await
}

/// Sets a still-waiting approval's seal; false when it was decided meanwhile.
pub async fn reseal_waiting(
    conn: &impl ConnectionTrait,
    id: i32,
    args_hash: &str,
) -> Result<bool, DbErr> {
    let r = approval::Entity::update_many()
        .col_expr(approval::Column::ArgsHash, Expr::value(args_hash))
        .filter(approval::Column::Id.eq(id))
        .filter(approval::Column::Status.eq(WAITING))
        .exec(conn)
        .await?;
    Ok(r.rows_affected == 1)
}

/// What a decision writes, claimed only if the row is still waiting and (when
/// `unexpired_at` is given) has not expired by then.
#[derive(Clone, Debug)]
pub struct Claim<'a> {
    pub status: ApprovalStatus,
    pub decided_at: DateTime<Utc>,
    pub decided_via: DecidedVia,
    pub note: Option<&'a str>,
    pub authorization_chain: serde_json::Value,
    pub unexpired_at: Option<DateTime<Utc>>,
    /// Set when the decider runs the approved action itself, claiming its run in the
    /// same update; `None` leaves an approval queued for the engine.
    pub run_started_at: Option<DateTime<Utc>>,
    /// The person deciding; the claim holds only if the approval is routed to them.
    /// `None`: the boss or a policy, who may decide any approval.
    pub decided_by: Option<i32>,
    /// The decision sealed with the company's approval key, by a decider that holds it;
    /// written in the same update, so no decision of ours is ever left without it.
    pub decision_seal: Option<String>,
}

/// Claims the decision: true when this call changed the row (and so owns the outcome).
pub async fn claim_decision(
    conn: &impl ConnectionTrait,
    id: i32,
    claim: Claim<'_>,
) -> Result<bool, DbErr> {
    let mut q = approval::Entity::update_many()
        .col_expr(approval::Column::Status, Expr::value(claim.status))
        .col_expr(approval::Column::DecidedAt, Expr::value(claim.decided_at))
        .col_expr(approval::Column::DecidedVia, Expr::value(claim.decided_via))
        .col_expr(
            approval::Column::Note,
            Expr::value(claim.note.map(str::to_owned)),
        )
        .col_expr(
            approval::Column::AuthorizationChain,
            Expr::value(claim.authorization_chain),
        )
        .filter(approval::Column::Id.eq(id))
        .filter(approval::Column::Status.eq(WAITING));
    if let Some(t) = claim.run_started_at {
        q = q.col_expr(approval::Column::RunStartedAt, Expr::value(t));
    }
    if let Some(seal) = claim.decision_seal {
        q = q.col_expr(approval::Column::DecisionSeal, Expr::value(seal));
    }
    if let Some(person) = claim.decided_by {
        q = q
            .col_expr(approval::Column::DecidedBy, Expr::value(person))
            .filter(approval::Column::ApproverId.eq(person));
    }
    if let Some(t) = claim.unexpired_at {
        q = q.filter(approval::Column::ExpiresAt.gt(t));
    }
    Ok(q.exec(conn).await?.rows_affected == 1)
}

/// Records what executing an approved action produced.
pub async fn record_execution(
    conn: &impl ConnectionTrait,
    id: i32,
    result: Option<serde_json::Value>,
    error: Option<String>,
    executed_at: DateTime<Utc>,
) -> Result<(), DbErr> {
    approval::Entity::update_many()
        .col_expr(approval::Column::Result, Expr::value(result))
        .col_expr(approval::Column::Error, Expr::value(error))
        .col_expr(approval::Column::ExecutedAt, Expr::value(executed_at))
        .filter(approval::Column::Id.eq(id))
        .exec(conn)
        .await?;
    Ok(())
}

/// Approved actions whose run began but never recorded an end, with no note yet: a
/// stop fell in the run (SPEC §10). Oldest first.
pub async fn interrupted_runs(conn: &impl ConnectionTrait) -> Result<Vec<approval::Model>, DbErr> {
    approved_not_run(conn, true).await
}

/// Approved actions nobody has started: decided where they are not run (a desktop
/// attached to a company server), queued for the engine. Oldest first.
pub async fn queued_runs(conn: &impl ConnectionTrait) -> Result<Vec<approval::Model>, DbErr> {
    approved_not_run(conn, false).await
}

/// Approved, no result and no note yet; whose run began (`started`) or not.
async fn approved_not_run(
    conn: &impl ConnectionTrait,
    started: bool,
) -> Result<Vec<approval::Model>, DbErr> {
    let begun = approval::Column::RunStartedAt;
    approval::Entity::find()
        .filter(approval::Column::Status.eq(APPROVED))
        .filter(if started {
            begun.is_not_null()
        } else {
            begun.is_null()
        })
        .filter(approval::Column::ExecutedAt.is_null())
        .filter(approval::Column::Error.is_null())
        .order_by_asc(approval::Column::Id)
        .all(conn)
        .await
}

/// Claims the run of a queued approved action: true when this call owns it (so it runs
/// once, whoever else saw it queued).
pub async fn claim_run(
    conn: &impl ConnectionTrait,
    id: i32,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let res = approval::Entity::update_many()
        .col_expr(approval::Column::RunStartedAt, Expr::value(now))
        .filter(approval::Column::Id.eq(id))
        .filter(approval::Column::Status.eq(APPROVED))
        .filter(approval::Column::RunStartedAt.is_null())
        .filter(approval::Column::ExecutedAt.is_null())
        .filter(approval::Column::Error.is_null())
        .exec(conn)
        .await?;
    Ok(res.rows_affected == 1)
}

/// Notes why an approved action never ran, once: true when this call wrote the note.
pub async fn mark_interrupted(
    conn: &impl ConnectionTrait,
    id: i32,
    error: &str,
) -> Result<bool, DbErr> {
    let res = approval::Entity::update_many()
        .col_expr(approval::Column::Error, Expr::value(error))
        .filter(approval::Column::Id.eq(id))
        .filter(approval::Column::Status.eq(APPROVED))
        .filter(approval::Column::ExecutedAt.is_null())
        .filter(approval::Column::Error.is_null())
        .exec(conn)
        .await?;
    Ok(res.rows_affected == 1)
}

/// Approvals, newest first; each filter applies when given.
pub async fn list_approvals(
    conn: &impl ConnectionTrait,
    statuses: &[ApprovalStatus],
    employee_id: Option<i32>,
    limit: u64,
) -> Result<Vec<approval::Model>, DbErr> {
    let mut q = approval::Entity::find();
    if !statuses.is_empty() {
        q = q.filter(approval::Column::Status.is_in(statuses.iter().copied()));
    }
    if let Some(e) = employee_id {
        q = q.filter(approval::Column::EmployeeId.eq(e));
    }
    q.order_by_desc(approval::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

/// Waiting approvals whose time ran out by `now`, oldest first.
pub async fn due_approvals(
    conn: &impl ConnectionTrait,
    now: DateTime<Utc>,
) -> Result<Vec<approval::Model>, DbErr> {
    approval::Entity::find()
        .filter(approval::Column::Status.eq(WAITING))
        .filter(approval::Column::ExpiresAt.lte(now))
        .order_by_asc(approval::Column::ExpiresAt)
        .all(conn)
        .await
}

/// When the next waiting approval expires.
pub async fn next_expiry(conn: &impl ConnectionTrait) -> Result<Option<DateTime<Utc>>, DbErr> {
    Ok(approval::Entity::find()
        .filter(approval::Column::Status.eq(WAITING))
        .order_by_asc(approval::Column::ExpiresAt)
        .one(conn)
        .await?
        .map(|a| a.expires_at))
}

/// Waiting approvals, all or one employee's.
pub async fn count_waiting(
    conn: &impl ConnectionTrait,
    employee_id: Option<i32>,
) -> Result<u64, DbErr> {
    let mut q = approval::Entity::find().filter(approval::Column::Status.eq(WAITING));
    if let Some(e) = employee_id {
        q = q.filter(approval::Column::EmployeeId.eq(e));
    }
    q.count(conn).await
}

pub async fn insert_tool_call(
    conn: &impl ConnectionTrait,
    model: tool_call::ActiveModel,
) -> Result<tool_call::Model, DbErr> {
    model.insert(conn).await
}

/// Tool calls, newest first; each filter applies when given.
pub async fn list_tool_calls(
    conn: &impl ConnectionTrait,
    employee_id: Option<i32>,
    approval_id: Option<i32>,
    limit: u64,
) -> Result<Vec<tool_call::Model>, DbErr> {
    let mut q = tool_call::Entity::find();
    if let Some(e) = employee_id {
        q = q.filter(tool_call::Column::EmployeeId.eq(e));
    }
    if let Some(a) = approval_id {
        q = q.filter(tool_call::Column::ApprovalId.eq(a));
    }
    q.order_by_desc(tool_call::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

/// The newest calls of `tool` that ran (`ok`), newest first.
pub async fn ok_calls_of_tool(
    conn: &impl ConnectionTrait,
    tool: &str,
    limit: u64,
) -> Result<Vec<tool_call::Model>, DbErr> {
    tool_call::Entity::find()
        .filter(tool_call::Column::Tool.eq(tool))
        .filter(tool_call::Column::Outcome.eq(CallLogOutcome::Ok))
        .order_by_desc(tool_call::Column::Id)
        .limit(limit)
        .all(conn)
        .await
}

/// Sets an employee's status (only from `from`, when given) unless they were fired:
/// `fired` is never overwritten. True when the row changed.
pub async fn set_employee_status(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    status: EmployeeStatus,
    from: Option<EmployeeStatus>,
) -> Result<bool, DbErr> {
    use crate::entity::employee;
    let mut q = employee::Entity::update_many()
        .col_expr(employee::Column::Status, Expr::value(status))
        .filter(employee::Column::Id.eq(employee_id))
        .filter(employee::Column::FiredAt.is_null());
    if let Some(f) = from {
        q = q.filter(employee::Column::Status.eq(f));
    }
    let res = q.exec(conn).await?;
    Ok(res.rows_affected == 1)
}
