//! Queries and mutations for the org tables. Each function is one statement (or one
//! small read) so the org service can compose them inside a single transaction.

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder,
};

use crate::entity::{company, department, employee, role_template, team};

// ---------- company ----------

/// The one company this database holds, if set up.
pub async fn find_company(conn: &impl ConnectionTrait) -> Result<Option<company::Model>, DbErr> {
    company::Entity::find()
        .order_by_asc(company::Column::Id)
        .one(conn)
        .await
}

pub async fn insert_company(
    conn: &impl ConnectionTrait,
    model: company::ActiveModel,
) -> Result<company::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_company(
    conn: &impl ConnectionTrait,
    mut model: company::ActiveModel,
) -> Result<company::Model, DbErr> {
    model.updated_at = Set(Utc::now());
    model.update(conn).await
}

/// The company's keychain scope: `candidate` if it had none yet (first writer wins, so
/// two processes opening one database agree), else the one it has. `None` without a company.
pub async fn claim_secret_scope(
    conn: &impl ConnectionTrait,
    candidate: &str,
) -> Result<Option<String>, DbErr> {
    let Some(c) = find_company(conn).await? else {
        return Ok(None);
    };
    if let Some(scope) = c.secret_scope {
        return Ok(Some(scope));
    }
    company::Entity::update_many()
        .col_expr(company::Column::SecretScope, Expr::value(candidate))
        .filter(company::Column::Id.eq(c.id))
        .filter(company::Column::SecretScope.is_null())
        .exec(conn)
        .await?;
    Ok(find_company(conn).await?.and_then(|c| c.secret_scope))
}

// ---------- departments ----------

pub async fn list_departments(
    conn: &impl ConnectionTrait,
    company_id: i32,
) -> Result<Vec<department::Model>, DbErr> {
    department::Entity::find()
        .filter(department::Column::CompanyId.eq(company_id))
        .order_by_asc(department::Column::Id)
        .all(conn)
        .await
}

pub async fn find_department(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<department::Model>, DbErr> {
    department::Entity::find_by_id(id).one(conn).await
}

/// [`find_department`], taking turns with every other transaction that makes something
/// once per department (see [`crate::db::take_turns`]).
pub async fn lock_department(
    txn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<department::Model>, DbErr> {
    crate::db::take_turns(txn, crate::db::Turn::Department, id).await?;
    find_department(txn, id).await
}

/// Departments that share `parent_id` (top level when `None`).
pub async fn list_sibling_departments(
    conn: &impl ConnectionTrait,
    company_id: i32,
    parent_id: Option<i32>,
) -> Result<Vec<department::Model>, DbErr> {
    let parent_filter = match parent_id {
        Some(p) => department::Column::ParentId.eq(p),
        None => department::Column::ParentId.is_null(),
    };
    department::Entity::find()
        .filter(department::Column::CompanyId.eq(company_id))
        .filter(parent_filter)
        .all(conn)
        .await
}

pub async fn insert_department(
    conn: &impl ConnectionTrait,
    model: department::ActiveModel,
) -> Result<department::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_department(
    conn: &impl ConnectionTrait,
    model: department::ActiveModel,
) -> Result<department::Model, DbErr> {
    model.update(conn).await
}

pub async fn delete_department(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    department::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}

pub async fn count_child_departments(conn: &impl ConnectionTrait, id: i32) -> Result<u64, DbErr> {
    department::Entity::find()
        .filter(department::Column::ParentId.eq(id))
        .count(conn)
        .await
}

/// Re-parents every child of `from` under `to`.
pub async fn reparent_child_departments(
    conn: &impl ConnectionTrait,
    from: i32,
    to: Option<i32>,
) -> Result<u64, DbErr> {
    let res = department::Entity::update_many()
        .col_expr(department::Column::ParentId, Expr::value(to))
        .filter(department::Column::ParentId.eq(from))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Clears the lead of any department led by `employee_id`.
pub async fn clear_department_lead(
    conn: &impl ConnectionTrait,
    employee_id: i32,
) -> Result<u64, DbErr> {
    let res = department::Entity::update_many()
        .col_expr(department::Column::LeadId, Expr::value(Option::<i32>::None))
        .filter(department::Column::LeadId.eq(employee_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

// ---------- teams ----------

pub async fn list_teams(
    conn: &impl ConnectionTrait,
    department_ids: Vec<i32>,
) -> Result<Vec<team::Model>, DbErr> {
    team::Entity::find()
        .filter(team::Column::DepartmentId.is_in(department_ids))
        .order_by_asc(team::Column::Id)
        .all(conn)
        .await
}

pub async fn move_teams(conn: &impl ConnectionTrait, from: i32, to: i32) -> Result<u64, DbErr> {
    let res = team::Entity::update_many()
        .col_expr(team::Column::DepartmentId, Expr::value(to))
        .filter(team::Column::DepartmentId.eq(from))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Puts the given teams into a department (restoring a deleted one).
pub async fn set_teams_department(
    conn: &impl ConnectionTrait,
    team_ids: Vec<i32>,
    department_id: i32,
) -> Result<u64, DbErr> {
    let res = team::Entity::update_many()
        .col_expr(team::Column::DepartmentId, Expr::value(department_id))
        .filter(team::Column::Id.is_in(team_ids))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Links a group chat to a department (its own chat survives the department's deletion
/// with no department, and an undo links it again).
pub async fn set_chat_department(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    department_id: Option<i32>,
) -> Result<u64, DbErr> {
    let res = crate::entity::chat::Entity::update_many()
        .col_expr(
            crate::entity::chat::Column::DepartmentId,
            Expr::value(department_id),
        )
        .filter(crate::entity::chat::Column::Id.eq(chat_id))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

// ---------- employees ----------

/// Employees of the company; fired ones only when `include_fired`.
pub async fn list_employees(
    conn: &impl ConnectionTrait,
    company_id: i32,
    include_fired: bool,
) -> Result<Vec<employee::Model>, DbErr> {
    let mut q = employee::Entity::find().filter(employee::Column::CompanyId.eq(company_id));
    if !include_fired {
        q = q.filter(employee::Column::FiredAt.is_null());
    }
    q.order_by_asc(employee::Column::Id).all(conn).await
}

pub async fn find_employee(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<employee::Model>, DbErr> {
    employee::Entity::find_by_id(id).one(conn).await
}

/// [`find_employee`], taking turns with every other transaction that makes something
/// once per employee (see [`crate::db::take_turns`]), so racing first uses make it once.
pub async fn lock_employee(
    txn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<employee::Model>, DbErr> {
    crate::db::take_turns(txn, crate::db::Turn::Employee, id).await?;
    find_employee(txn, id).await
}

pub async fn count_current_employees_in(
    conn: &impl ConnectionTrait,
    department_id: i32,
) -> Result<u64, DbErr> {
    employee::Entity::find()
        .filter(employee::Column::DepartmentId.eq(department_id))
        .filter(employee::Column::FiredAt.is_null())
        .count(conn)
        .await
}

pub async fn insert_employee(
    conn: &impl ConnectionTrait,
    model: employee::ActiveModel,
) -> Result<employee::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_employee(
    conn: &impl ConnectionTrait,
    model: employee::ActiveModel,
) -> Result<employee::Model, DbErr> {
    model.update(conn).await
}

/// Marks an employee's imported CLI command confirmed, only while it is still `shown`
/// (what the boss checked). False when there is no such employee or the command changed.
pub async fn confirm_cli_command(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    shown: &str,
) -> Result<bool, DbErr> {
    let done = employee::Entity::update_many()
        .col_expr(
            employee::Column::ImportedCliCommand,
            Expr::value(Option::<String>::None),
        )
        .filter(employee::Column::Id.eq(employee_id))
        .filter(employee::Column::CliCommand.eq(shown))
        .exec(conn)
        .await?;
    Ok(done.rows_affected == 1)
}

/// Moves everyone (current and former) recorded in department `from` to `to`; their
/// team is cleared because teams belong to a department.
pub async fn move_employees_of_department(
    conn: &impl ConnectionTrait,
    from: i32,
    to: i32,
) -> Result<u64, DbErr> {
    let res = employee::Entity::update_many()
        .col_expr(employee::Column::DepartmentId, Expr::value(to))
        .filter(employee::Column::DepartmentId.eq(from))
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

/// Points the current reports of `manager_id` at `new_manager`.
pub async fn reassign_reports(
    conn: &impl ConnectionTrait,
    manager_id: i32,
    new_manager: Option<i32>,
) -> Result<u64, DbErr> {
    let res = employee::Entity::update_many()
        .col_expr(employee::Column::ManagerId, Expr::value(new_manager))
        .filter(employee::Column::ManagerId.eq(manager_id))
        .filter(employee::Column::FiredAt.is_null())
        .exec(conn)
        .await?;
    Ok(res.rows_affected)
}

// ---------- role templates ----------

pub async fn list_role_templates(
    conn: &impl ConnectionTrait,
) -> Result<Vec<role_template::Model>, DbErr> {
    role_template::Entity::find()
        .order_by_asc(role_template::Column::Id)
        .all(conn)
        .await
}

pub async fn find_role_template(
    conn: &impl ConnectionTrait,
    key: &str,
) -> Result<Option<role_template::Model>, DbErr> {
    role_template::Entity::find()
        .filter(role_template::Column::Key.eq(key))
        .one(conn)
        .await
}

pub async fn insert_role_template(
    conn: &impl ConnectionTrait,
    model: role_template::ActiveModel,
) -> Result<role_template::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_role_template(
    conn: &impl ConnectionTrait,
    model: role_template::ActiveModel,
) -> Result<role_template::Model, DbErr> {
    model.update(conn).await
}

pub async fn delete_role_template(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    role_template::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}

/// Removes an employee row outright. Only for undoing a hire minutes after it was made;
/// everything else keeps the record and sets `fired_at`.
pub async fn delete_employee(conn: &impl ConnectionTrait, id: i32) -> Result<(), DbErr> {
    employee::Entity::delete_by_id(id).exec(conn).await?;
    Ok(())
}
