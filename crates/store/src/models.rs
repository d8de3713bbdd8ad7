//! Queries and mutations for providers, prices, routes and the cost ledger.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, FromQueryResult,
    QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::{app_setting, cost_ledger, model_price, model_route, provider};
use crate::enums::Purpose;

// ---------- providers ----------

pub async fn list_providers(conn: &impl ConnectionTrait) -> Result<Vec<provider::Model>, DbErr> {
    provider::Entity::find()
        .order_by_asc(provider::Column::CreatedAt)
        .all(conn)
        .await
}

pub async fn find_provider(
    conn: &impl ConnectionTrait,
    id: &str,
) -> Result<Option<provider::Model>, DbErr> {
    provider::Entity::find_by_id(id.to_owned()).one(conn).await
}

pub async fn insert_provider(
    conn: &impl ConnectionTrait,
    model: provider::ActiveModel,
) -> Result<provider::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_provider(
    conn: &impl ConnectionTrait,
    model: provider::ActiveModel,
) -> Result<provider::Model, DbErr> {
    model.update(conn).await
}

/// Marks an imported provider's base URL confirmed, only while it is still `shown` (what
/// the boss checked). False when the provider does not exist or its URL is another now.
pub async fn confirm_provider_url(
    conn: &impl ConnectionTrait,
    id: &str,
    shown: &str,
) -> Result<bool, DbErr> {
    let done = provider::Entity::update_many()
        .col_expr(
            provider::Column::ImportedBaseUrl,
            sea_orm::sea_query::Expr::value(Option::<String>::None),
        )
        .filter(provider::Column::Id.eq(id))
        .filter(provider::Column::BaseUrl.eq(shown))
        .exec(conn)
        .await?;
    Ok(done.rows_affected == 1)
}

pub async fn delete_provider(conn: &impl ConnectionTrait, id: &str) -> Result<(), DbErr> {
    provider::Entity::delete_by_id(id.to_owned())
        .exec(conn)
        .await?;
    Ok(())
}

// ---------- prices ----------

pub async fn list_prices(conn: &impl ConnectionTrait) -> Result<Vec<model_price::Model>, DbErr> {
    model_price::Entity::find()
        .order_by_asc(model_price::Column::ProviderId)
        .order_by_asc(model_price::Column::Model)
        .all(conn)
        .await
}

pub async fn find_price(
    conn: &impl ConnectionTrait,
    provider_id: &str,
    model: &str,
) -> Result<Option<model_price::Model>, DbErr> {
    model_price::Entity::find()
        .filter(model_price::Column::ProviderId.eq(provider_id))
        .filter(model_price::Column::Model.eq(model))
        .one(conn)
        .await
}

pub async fn insert_price(
    conn: &impl ConnectionTrait,
    model: model_price::ActiveModel,
) -> Result<model_price::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_price(
    conn: &impl ConnectionTrait,
    model: model_price::ActiveModel,
) -> Result<model_price::Model, DbErr> {
    model.update(conn).await
}

// ---------- routes ----------

pub async fn list_routes(conn: &impl ConnectionTrait) -> Result<Vec<model_route::Model>, DbErr> {
    model_route::Entity::find().all(conn).await
}

pub async fn find_route(
    conn: &impl ConnectionTrait,
    purpose: Purpose,
) -> Result<Option<model_route::Model>, DbErr> {
    model_route::Entity::find_by_id(purpose).one(conn).await
}

pub async fn delete_route(conn: &impl ConnectionTrait, purpose: Purpose) -> Result<(), DbErr> {
    model_route::Entity::delete_by_id(purpose)
        .exec(conn)
        .await?;
    Ok(())
}

pub async fn insert_route(
    conn: &impl ConnectionTrait,
    model: model_route::ActiveModel,
) -> Result<model_route::Model, DbErr> {
    model.insert(conn).await
}

// ---------- ledger ----------

pub async fn insert_ledger(
    conn: &impl ConnectionTrait,
    model: cost_ledger::ActiveModel,
) -> Result<cost_ledger::Model, DbErr> {
    model.insert(conn).await
}

/// Marks ledger rows with what became of their answer.
pub async fn set_ledger_output(
    conn: &impl ConnectionTrait,
    ids: &[i32],
    output: crate::enums::StructuredOutput,
) -> Result<(), DbErr> {
    cost_ledger::Entity::update_many()
        .col_expr(
            cost_ledger::Column::Output,
            sea_orm::sea_query::Expr::value(output),
        )
        .filter(cost_ledger::Column::Id.is_in(ids.iter().copied()))
        .exec(conn)
        .await?;
    Ok(())
}

#[derive(Debug, FromQueryResult)]
struct Total {
    total: Option<f64>,
}

/// Money spent on model calls since `since`.
pub async fn spent_since(conn: &impl ConnectionTrait, since: DateTime<Utc>) -> Result<f64, DbErr> {
    let row = cost_ledger::Entity::find()
        .select_only()
        .column_as(cost_ledger::Column::CostUsd.sum(), "total")
        .filter(cost_ledger::Column::At.gte(since))
        .into_model::<Total>()
        .one(conn)
        .await?;
    Ok(row.and_then(|r| r.total).unwrap_or(0.0))
}

/// Money one employee's model calls cost, since `since` or ever.
pub async fn spent_by_employee(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    since: Option<DateTime<Utc>>,
) -> Result<f64, DbErr> {
    let mut q = cost_ledger::Entity::find()
        .select_only()
        .column_as(cost_ledger::Column::CostUsd.sum(), "total")
        .filter(cost_ledger::Column::EmployeeId.eq(employee_id));
    if let Some(since) = since {
        q = q.filter(cost_ledger::Column::At.gte(since));
    }
    let row = q.into_model::<Total>().one(conn).await?;
    Ok(row.and_then(|r| r.total).unwrap_or(0.0))
}

/// Ledger rows since `since`, oldest first.
pub async fn ledger_since(
    conn: &impl ConnectionTrait,
    since: DateTime<Utc>,
) -> Result<Vec<cost_ledger::Model>, DbErr> {
    cost_ledger::Entity::find()
        .filter(cost_ledger::Column::At.gte(since))
        .order_by_asc(cost_ledger::Column::Id)
        .all(conn)
        .await
}

// ---------- app settings ----------

pub async fn get_setting(conn: &impl ConnectionTrait, key: &str) -> Result<Option<String>, DbErr> {
    Ok(app_setting::Entity::find_by_id(key.to_owned())
        .one(conn)
        .await?
        .map(|s| s.value))
}

/// Sets `key` to `value`, or removes it when `value` is `None`.
pub async fn set_setting(
    conn: &impl ConnectionTrait,
    key: &str,
    value: Option<&str>,
) -> Result<(), DbErr> {
    app_setting::Entity::delete_by_id(key.to_owned())
        .exec(conn)
        .await?;
    if let Some(v) = value {
        app_setting::ActiveModel {
            key: sea_orm::ActiveValue::Set(key.to_owned()),
            value: sea_orm::ActiveValue::Set(v.to_owned()),
        }
        .insert(conn)
        .await?;
    }
    Ok(())
}
