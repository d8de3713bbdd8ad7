//! Queries and mutations for employees' minds: memories, chat summaries,
//! relationships, stamina state and stored thoughts. Caps, clamps, TTLs and
//! visibility rules are decided in core; these functions only read and write.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DbErr,
    EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::{chat_summary, employee_state, memory, relationship, thought};
use crate::enums::{MemoryKind, Visibility};

// ---------- memories ----------

pub async fn insert_memory(
    conn: &impl ConnectionTrait,
    model: memory::ActiveModel,
) -> Result<memory::Model, DbErr> {
    model.insert(conn).await
}

pub async fn find_memory(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<memory::Model>, DbErr> {
    memory::Entity::find_by_id(id).one(conn).await
}

/// Every memory of an employee, all kinds, oldest first.
pub async fn memories(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<Vec<memory::Model>, DbErr> {
    memory::Entity::find()
        .filter(memory::Column::EmployeeId.eq(employee_id))
        .order_by_asc(memory::Column::Id)
        .all(conn)
        .await
}

/// An employee's memories of one kind, oldest first.
pub async fn memories_of_kind(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    kind: MemoryKind,
) -> Result<Vec<memory::Model>, DbErr> {
    memory::Entity::find()
        .filter(memory::Column::EmployeeId.eq(employee_id))
        .filter(memory::Column::Kind.eq(kind))
        .order_by_asc(memory::Column::Id)
        .all(conn)
        .await
}

/// Shared memories that could be visible to a reader in `department_id` working on
/// `requirement_ids`: every `public` entry, and the `team` entries of that department
/// or of those requirements, oldest first. Entries of every employee are returned,
/// the reader's own included; core drops those and filters again.
pub async fn visible_memories_candidates(
    conn: &impl ConnectionTrait,
    department_id: Option<i32>,
    requirement_ids: &[i32],
) -> Result<Vec<memory::Model>, DbErr> {
    memory::Entity::find()
        .filter(shared_with(department_id, requirement_ids))
        .order_by_asc(memory::Column::Id)
        .all(conn)
        .await
}

/// [`visible_memories_candidates`] without the entries of `employee_id` itself.
pub async fn visible_memories_candidates_for(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    department_id: Option<i32>,
    requirement_ids: &[i32],
) -> Result<Vec<memory::Model>, DbErr> {
    memory::Entity::find()
        .filter(memory::Column::EmployeeId.ne(employee_id))
        .filter(shared_with(department_id, requirement_ids))
        .order_by_asc(memory::Column::Id)
        .all(conn)
        .await
}

fn shared_with(department_id: Option<i32>, requirement_ids: &[i32]) -> Condition {
    let mut team = Condition::any();
    if let Some(d) = department_id {
        team = team.add(memory::Column::DepartmentId.eq(d));
    }
    if !requirement_ids.is_empty() {
        team = team.add(memory::Column::RequirementId.is_in(requirement_ids.iter().copied()));
    }
    let mut cond = Condition::any().add(memory::Column::Visibility.eq(Visibility::Public));
    if !team.is_empty() {
        cond = cond.add(
            Condition::all()
                .add(memory::Column::Visibility.eq(Visibility::Team))
                .add(team),
        );
    }
    cond
}

pub async fn delete_memory(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    memory::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}

/// Deletes the memories with these ids; returns how many went.
pub async fn delete_memories(conn: &impl ConnectionTrait, ids: &[i32]) -> Result<u64, DbErr> {
    if ids.is_empty() {
        return Ok(0);
    }
    let res = memory::Entity::delete_many()
        .filter(memory::Column::Id.is_in(ids.iter().copied()))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Deletes every memory that expired at or before `now`; returns how many went.
pub async fn delete_expired_memories(
    conn: &impl ConnectionTrait,
    now: DateTime<Utc>,
) -> Result<u64, DbErr> {
    let res = memory::Entity::delete_many()
        .filter(memory::Column::ExpiresAt.lte(now))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Re-files a memory (e.g. archives a short-term entry as long-term); returns the
/// number of rows changed (0 when `id` is gone).
pub async fn update_memory_kind_importance(
    conn: &impl ConnectionTrait,
    id: i32,
    kind: MemoryKind,
    importance: i32,
    expires_at: Option<DateTime<Utc>>,
) -> Result<u64, DbErr> {
    let res = memory::Entity::update_many()
        .col_expr(memory::Column::Kind, Expr::value(kind))
        .col_expr(memory::Column::Importance, Expr::value(importance))
        .col_expr(memory::Column::ExpiresAt, Expr::value(expires_at))
        .filter(memory::Column::Id.eq(id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

// ---------- chat summaries ----------

pub async fn chat_summary(
    conn: &impl ConnectionTrait,
    chat_id: i32,
) -> Result<Option<chat_summary::Model>, DbErr> {
    chat_summary::Entity::find()
        .filter(chat_summary::Column::ChatId.eq(chat_id))
        .one(conn)
        .await
}

/// Creates or replaces the chat's rolling summary in one statement.
pub async fn upsert_chat_summary(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    summary: &str,
    upto_message_id: i32,
    now: DateTime<Utc>,
) -> Result<chat_summary::Model, DbErr> {
    chat_summary::Entity::insert(chat_summary::ActiveModel {
        chat_id: Set(chat_id),
        summary: Set(summary.to_owned()),
        upto_message_id: Set(upto_message_id),
        updated_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(chat_summary::Column::ChatId)
            .update_columns([
                chat_summary::Column::Summary,
                chat_summary::Column::UptoMessageId,
                chat_summary::Column::UpdatedAt,
            ])
            .to_owned(),
    )
    .exec_with_returning(conn)
    .await
}

// ---------- relationships ----------

/// What `employee_id` thinks of `other_id`.
pub async fn relationship(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    other_id: i32,
) -> Result<Option<relationship::Model>, DbErr> {
    relationship::Entity::find()
        .filter(relationship::Column::EmployeeId.eq(employee_id))
        .filter(relationship::Column::OtherEmployeeId.eq(other_id))
        .one(conn)
        .await
}

/// Everything `employee_id` thinks of its colleagues, by colleague id.
pub async fn relationships_of(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<Vec<relationship::Model>, DbErr> {
    relationship::Entity::find()
        .filter(relationship::Column::EmployeeId.eq(employee_id))
        .order_by_asc(relationship::Column::OtherEmployeeId)
        .all(conn)
        .await
}

/// Every relationship in the company (the relationship graph), by id.
pub async fn all_relationships(
    conn: &impl ConnectionTrait,
) -> Result<Vec<relationship::Model>, DbErr> {
    relationship::Entity::find()
        .order_by_asc(relationship::Column::Id)
        .all(conn)
        .await
}

/// Records one interaction: sets the impression and affinity and counts it (a new
/// relationship starts at one interaction). One statement, so concurrent writers
/// cannot lose a count.
pub async fn upsert_relationship(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    other_id: i32,
    impression: &str,
    affinity: i32,
    now: DateTime<Utc>,
) -> Result<relationship::Model, DbErr> {
    relationship::Entity::insert(relationship::ActiveModel {
        employee_id: Set(employee_id),
        other_employee_id: Set(other_id),
        impression: Set(impression.to_owned()),
        affinity: Set(affinity),
        interactions: Set(1),
        updated_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            relationship::Column::EmployeeId,
            relationship::Column::OtherEmployeeId,
        ])
        .update_columns([
            relationship::Column::Impression,
            relationship::Column::Affinity,
            relationship::Column::UpdatedAt,
        ])
        .value(
            relationship::Column::Interactions,
            Expr::col((relationship::Entity, relationship::Column::Interactions)).add(1),
        )
        .to_owned(),
    )
    .exec_with_returning(conn)
    .await
}

/// Forgets what `employee_id` thinks of `other_id`; returns the rows removed.
pub async fn delete_relationship(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    other_id: i32,
) -> Result<u64, DbErr> {
    let res = relationship::Entity::delete_many()
        .filter(relationship::Column::EmployeeId.eq(employee_id))
        .filter(relationship::Column::OtherEmployeeId.eq(other_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Forgets everything `employee_id` thinks of others (what others think of it stays).
pub async fn delete_relationships_of(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<u64, DbErr> {
    let res = relationship::Entity::delete_many()
        .filter(relationship::Column::EmployeeId.eq(employee_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

// ---------- stamina state ----------

pub async fn employee_state(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<Option<employee_state::Model>, DbErr> {
    employee_state::Entity::find_by_id(employee_id)
        .one(conn)
        .await
}

/// Writes the fields set in `model` (its `employee_id` must be set). A new row needs
/// patience, fatigue, stress and updated_at; an existing one takes any subset.
pub async fn upsert_employee_state(
    conn: &impl ConnectionTrait,
    model: employee_state::ActiveModel,
) -> Result<employee_state::Model, DbErr> {
    let Some(&employee_id) = model.employee_id.try_as_ref() else {
        return Err(DbErr::Custom(
            "upsert_employee_state: employee_id is not set".into(),
        ));
    };
    let exists = employee_state::Entity::find_by_id(employee_id)
        .one(conn)
        .await?
        .is_some();
    if exists {
        model.update(conn).await
    } else {
        model.insert(conn).await
    }
}

// ---------- thoughts ----------

pub async fn insert_thought(
    conn: &impl ConnectionTrait,
    model: thought::ActiveModel,
) -> Result<thought::Model, DbErr> {
    model.insert(conn).await
}

/// The newest `limit` thoughts had in a chat, returned oldest first.
pub async fn thoughts_in_chat(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    limit: u64,
) -> Result<Vec<thought::Model>, DbErr> {
    let mut rows = thought::Entity::find()
        .filter(thought::Column::ChatId.eq(chat_id))
        .order_by_desc(thought::Column::Id)
        .limit(limit)
        .all(conn)
        .await?;
    rows.reverse();
    Ok(rows)
}

/// Every thought had since `since`, oldest first.
pub async fn thoughts_since(
    conn: &impl ConnectionTrait,
    since: DateTime<Utc>,
) -> Result<Vec<thought::Model>, DbErr> {
    thought::Entity::find()
        .filter(thought::Column::CreatedAt.gte(since))
        .order_by_asc(thought::Column::Id)
        .all(conn)
        .await
}

/// The newest `limit` thoughts of an employee (any chat), returned oldest first.
pub async fn thoughts_of(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    limit: u64,
) -> Result<Vec<thought::Model>, DbErr> {
    let mut rows = thought::Entity::find()
        .filter(thought::Column::EmployeeId.eq(employee_id))
        .order_by_desc(thought::Column::Id)
        .limit(limit)
        .all(conn)
        .await?;
    rows.reverse();
    Ok(rows)
}
