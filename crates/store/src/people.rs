//! Queries and mutations for people and their duties. Each function is one statement (or
//! one small read) so the people service can compose them inside a single transaction.

use sea_orm::{
    ActiveModelTrait, ActiveValue::NotSet, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr,
    EntityTrait, QueryFilter, QueryOrder,
};

use crate::entity::{chat_person, person, person_duty, proxy_line};

/// Everyone of the company, by name.
pub async fn list_people(
    conn: &impl ConnectionTrait,
    company_id: i32,
) -> Result<Vec<person::Model>, DbErr> {
    person::Entity::find()
        .filter(person::Column::CompanyId.eq(company_id))
        .order_by_asc(person::Column::Name)
        .order_by_asc(person::Column::Id)
        .all(conn)
        .await
}

pub async fn find_person(
    conn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<person::Model>, DbErr> {
    person::Entity::find_by_id(id).one(conn).await
}

/// The person of the company with exactly this name (names are unique per company).
/// [`find_person`], taking turns with every other transaction that makes something once
/// per person (see [`crate::db::take_turns`]).
pub async fn lock_person(
    txn: &impl ConnectionTrait,
    id: i32,
) -> Result<Option<person::Model>, DbErr> {
    crate::db::take_turns(txn, crate::db::Turn::Person, id).await?;
    find_person(txn, id).await
}

pub async fn find_person_named(
    conn: &impl ConnectionTrait,
    company_id: i32,
    name: &str,
) -> Result<Option<person::Model>, DbErr> {
    person::Entity::find()
        .filter(person::Column::CompanyId.eq(company_id))
        .filter(person::Column::Name.eq(name))
        .one(conn)
        .await
}

pub async fn insert_person(
    conn: &impl ConnectionTrait,
    model: person::ActiveModel,
) -> Result<person::Model, DbErr> {
    model.insert(conn).await
}

pub async fn update_person(
    conn: &impl ConnectionTrait,
    model: person::ActiveModel,
) -> Result<person::Model, DbErr> {
    model.update(conn).await
}

/// Removes a person; their duties go with them (foreign key cascade).
pub async fn delete_person(conn: &impl ConnectionTrait, id: i32) -> Result<u64, DbErr> {
    // Duties first: SQLite enforces the cascade only with foreign keys switched on. Their
    // proxy's conversation goes with them; what it wrote in chats stays, as history.
    person_duty::Entity::delete_many()
        .filter(person_duty::Column::PersonId.eq(id))
        .exec(conn)
        .await?;
    proxy_line::Entity::delete_many()
        .filter(proxy_line::Column::PersonId.eq(id))
        .exec(conn)
        .await?;
    chat_person::Entity::delete_many()
        .filter(chat_person::Column::PersonId.eq(id))
        .exec(conn)
        .await?;
    Ok(person::Entity::delete_by_id(id)
        .exec(conn)
        .await?
        .rows_affected)
}

/// Every duty of these people (all of the company's when `people` lists them all).
pub async fn list_duties(
    conn: &impl ConnectionTrait,
    people: Vec<i32>,
) -> Result<Vec<person_duty::Model>, DbErr> {
    person_duty::Entity::find()
        .filter(person_duty::Column::PersonId.is_in(people))
        .order_by_asc(person_duty::Column::Id)
        .all(conn)
        .await
}

/// Replaces a person's duties with these departments and employees.
pub async fn set_duties(
    conn: &impl ConnectionTrait,
    person_id: i32,
    departments: &[i32],
    employees: &[i32],
) -> Result<(), DbErr> {
    person_duty::Entity::delete_many()
        .filter(person_duty::Column::PersonId.eq(person_id))
        .exec(conn)
        .await?;
    let rows = departments
        .iter()
        .map(|d| (Some(*d), None))
        .chain(employees.iter().map(|e| (None, Some(*e))))
        .map(|(department_id, employee_id)| person_duty::ActiveModel {
            id: NotSet,
            person_id: Set(person_id),
            department_id: Set(department_id),
            employee_id: Set(employee_id),
        })
        .collect::<Vec<_>>();
    if !rows.is_empty() {
        person_duty::Entity::insert_many(rows)
            .exec_without_returning(conn)
            .await?;
    }
    Ok(())
}
