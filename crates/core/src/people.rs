//! People (SPEC §12): the humans of a company besides the boss, and who answers for what.
//!
//! The boss invites people, each with a role, a language, an approval policy of their own
//! and duties: the departments (with everything below them) and the employees they answer
//! for. Whatever nobody else answers for is the boss's. [`People::approver_for`] is the one
//! place that says whose decision an employee's action is.
//!
//! Every change runs in one transaction and publishes [`DomainEvent::PeopleChanged`] after
//! the commit.

use std::collections::HashMap;

use chrono::Utc;
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{department, employee, person, person_duty};
use cubicle_store::{ConnectionTrait, Db, org as q, people as p};
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::IntoActiveModel;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::events::{DomainEvent, EventBus};
use crate::org::rules::{clean_name, names_clash};
use crate::org::{OrgError, OrgResult, require_company};
use crate::types::{ApprovalPolicy, Language};

/// Longest role we keep ("Head of Product, EMEA").
pub const MAX_ROLE_CHARS: usize = 120;

/// A human member of the company besides the boss.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PersonDto {
    pub id: i32,
    pub name: String,
    pub role: String,
    pub language: Language,
    pub approval_policy: ApprovalPolicy,
    /// The departments they answer for, each with everything below it.
    pub departments: Vec<i32>,
    /// The employees they answer for, wherever those sit.
    pub employees: Vec<i32>,
}

/// Someone the boss invites.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewPerson {
    pub name: String,
    #[serde(default)]
    pub role: String,
    /// The company's language when not given.
    #[serde(default)]
    pub language: Option<Language>,
    /// Key steps (the default policy) when not given.
    #[serde(default)]
    pub approval_policy: Option<ApprovalPolicy>,
    #[serde(default)]
    pub departments: Vec<i32>,
    #[serde(default)]
    pub employees: Vec<i32>,
}

/// A change to a person; what is not given stays as it is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePerson {
    pub id: i32,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub language: Option<Language>,
    #[serde(default)]
    pub approval_policy: Option<ApprovalPolicy>,
    /// Replaces all of their department duties.
    #[serde(default)]
    pub departments: Option<Vec<i32>>,
    /// Replaces all of their employee duties.
    #[serde(default)]
    pub employees: Option<Vec<i32>>,
}

/// One person, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PersonRef {
    pub person_id: i32,
}

/// Who uses this desktop (SPEC §12): the person signed in to the company server as
/// their own role; else, on a computer the people share, whoever said so when the app
/// asked; else the boss. Their queue, their decisions, their proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeskUser {
    /// `None`: the boss.
    pub person_id: Option<i32>,
    /// False when signed in to a server as a person: the database says who this is.
    pub can_change: bool,
    /// Whether the app has asked (or had no need to) since it started.
    pub chosen: bool,
}

/// "I am …" on a shared desktop: a person, or `None` for the boss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UseDeskAs {
    pub person_id: Option<i32>,
}

/// Whose decision an employee's action is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Approver {
    /// Nobody else answers for the employee.
    Boss { name: String },
    /// The person who answers for the employee or for a department above them.
    Person { person: PersonDto },
}

impl Approver {
    pub fn name(&self) -> &str {
        match self {
            Approver::Boss { name } => name,
            Approver::Person { person } => &person.name,
        }
    }

    pub fn person_id(&self) -> Option<i32> {
        match self {
            Approver::Boss { .. } => None,
            Approver::Person { person } => Some(person.id),
        }
    }
}

#[derive(Clone, Debug)]
pub struct People {
    db: Db,
    bus: EventBus,
}

impl People {
    pub fn new(db: Db, bus: EventBus) -> Self {
        Self { db, bus }
    }

    /// Everyone besides the boss, by name.
    pub async fn list(&self) -> OrgResult<Vec<PersonDto>> {
        let Some(c) = q::find_company(&self.db).await? else {
            return Ok(vec![]);
        };
        read_people(&self.db, c.id).await
    }

    pub async fn get(&self, id: i32) -> OrgResult<PersonDto> {
        let c = require_company(&self.db).await?;
        read_people(&self.db, c.id)
            .await?
            .into_iter()
            .find(|p| p.id == id)
            .ok_or(OrgError::NotFound { what: "person", id })
    }

    /// Adds a person to the company with their duties, in one transaction.
    pub async fn invite(&self, input: NewPerson) -> OrgResult<PersonDto> {
        let name = clean_name(&input.name, "a person's name")?;
        let role = clean_role(&input.role)?;
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        ensure_free_name(&txn, &c, &name).await?;
        let duties = Duties::checked(&txn, c.id, &input.departments, &input.employees).await?;
        let now = Utc::now();
        let row = p::insert_person(
            &txn,
            person::ActiveModel {
                id: NotSet,
                company_id: Set(c.id),
                name: Set(name),
                role: Set(role),
                language: Set(input.language.unwrap_or(c.language)),
                approval_policy: Set(input.approval_policy.unwrap_or(ApprovalPolicy::KeySteps)),
                db_role: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
            },
        )
        .await?;
        p::set_duties(&txn, row.id, &duties.departments, &duties.employees).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::PeopleChanged { person_id: row.id });
        Ok(dto(&row, &duties.rows(row.id)))
    }

    /// Changes a person's role, language, policy or duties, in one transaction.
    pub async fn update(&self, input: UpdatePerson) -> OrgResult<PersonDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let row = require_person(&txn, c.id, input.id).await?;
        let before = p::list_duties(&txn, vec![row.id]).await?;
        let departments = input
            .departments
            .unwrap_or_else(|| before.iter().filter_map(|d| d.department_id).collect());
        let employees = input
            .employees
            .unwrap_or_else(|| before.iter().filter_map(|d| d.employee_id).collect());
        let duties = Duties::checked(&txn, c.id, &departments, &employees).await?;
        let mut am = row.into_active_model();
        if let Some(role) = input.role {
            am.role = Set(clean_role(&role)?);
        }
        if let Some(language) = input.language {
            am.language = Set(language);
        }
        if let Some(policy) = input.approval_policy {
            am.approval_policy = Set(policy);
        }
        am.updated_at = Set(Utc::now());
        let row = p::update_person(&txn, am).await?;
        p::set_duties(&txn, row.id, &duties.departments, &duties.employees).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::PeopleChanged { person_id: row.id });
        Ok(dto(&row, &duties.rows(row.id)))
    }

    /// Removes a person; what they answered for goes back up the tree, and their
    /// sign-in on a company server goes with them.
    pub async fn remove(&self, id: i32) -> OrgResult<()> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let row = require_person(&txn, c.id, id).await?;
        p::delete_person(&txn, id).await?;
        if let Some(role) = &row.db_role {
            cubicle_store::login::drop_login(&txn, role).await?;
        }
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::PeopleChanged { person_id: id });
        Ok(())
    }

    /// Whose decision an action of `employee_id` is: the person who answers for the
    /// employee, else for the nearest department above them, else the boss.
    pub async fn approver_for(&self, employee_id: i32) -> OrgResult<Approver> {
        approver_for(&self.db, employee_id).await
    }

    /// Gives a person their own sign-in on the company's PostgreSQL server: a database
    /// role of their own, whose rights the database enforces (they decide only what is
    /// routed to them, and never change policy, providers or people). A new password
    /// each time; a sign-in they had before stops working. Only the server's own role
    /// can do this; on a desktop's SQLite file there are no roles.
    pub async fn issue_login(&self, id: i32) -> OrgResult<PersonLogin> {
        if self.db.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Err(OrgError::InvalidInput(
                "a sign-in of their own exists only on a company server (PostgreSQL); \
                 on this computer's company the app asks who is using it"
                    .into(),
            ));
        }
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let row = require_person(&txn, c.id, id).await?;
        let tag: u32 = rand::random();
        let role = format!("cubicle_person_{}_{tag:08x}", row.id);
        let password = format!("{:032x}", rand::random::<u128>());
        cubicle_store::login::create_login(&txn, row.id, &role, &password)
            .await
            .map_err(|e| match e.to_string() {
                m if m.contains("permission denied to create role") => OrgError::InvalidInput(
                    "the server's role may not create roles: give it CREATEROLE \
                     (ALTER ROLE … CREATEROLE) to sign people in"
                        .into(),
                ),
                _ => OrgError::Storage(e),
            })?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::PeopleChanged { person_id: row.id });
        Ok(PersonLogin {
            person_id: row.id,
            name: row.name,
            role,
            password,
        })
    }
}

/// A person's own sign-in on the company's server, as issued: given once, to be handed
/// to them (it is a password; it is never stored by Cubicle outside a keychain).
#[derive(Clone, PartialEq)]
pub struct PersonLogin {
    pub person_id: i32,
    pub name: String,
    /// The database role they sign in as.
    pub role: String,
    password: String,
}

impl PersonLogin {
    /// The server's URL with this person's role and password in it: what they connect
    /// with (`CUBICLE_DATABASE_URL`, or their keychain).
    pub fn url(&self, server_url: &str) -> String {
        crate::location::url_with_login(server_url, &self.role, &self.password)
    }
}

impl std::fmt::Debug for PersonLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PersonLogin")
            .field("person_id", &self.person_id)
            .field("role", &self.role)
            .field("password", &"***")
            .finish()
    }
}

/// [`People::approver_for`] on any connection (inside another service's transaction too).
pub async fn approver_for(conn: &impl ConnectionTrait, employee_id: i32) -> OrgResult<Approver> {
    let c = require_company(conn).await?;
    let employee = q::find_employee(conn, employee_id)
        .await?
        .filter(|e| e.company_id == c.id)
        .ok_or(OrgError::NotFound {
            what: "employee",
            id: employee_id,
        })?;
    let people = read_people(conn, c.id).await?;
    let parents: HashMap<i32, Option<i32>> = q::list_departments(conn, c.id)
        .await?
        .iter()
        .map(|d| (d.id, d.parent_id))
        .collect();
    Ok(
        match responsible(&people, &parents, employee.id, employee.department_id) {
            Some(person) => Approver::Person {
                person: person.clone(),
            },
            None => Approver::Boss { name: c.boss_name },
        },
    )
}

/// The person who answers for an employee: one named for the employee first, then one
/// named for their department or the nearest one above it. Among several, the one
/// invited first.
pub fn responsible<'a>(
    people: &'a [PersonDto],
    parents: &HashMap<i32, Option<i32>>,
    employee_id: i32,
    department_id: Option<i32>,
) -> Option<&'a PersonDto> {
    let first =
        |hit: &dyn Fn(&PersonDto) -> bool| people.iter().filter(|p| hit(p)).min_by_key(|p| p.id);
    if let Some(p) = first(&|p| p.employees.contains(&employee_id)) {
        return Some(p);
    }
    let mut cursor = department_id;
    let mut seen = Vec::new();
    while let Some(dept) = cursor {
        if seen.contains(&dept) {
            break;
        }
        seen.push(dept);
        if let Some(p) = first(&|p| p.departments.contains(&dept)) {
            return Some(p);
        }
        cursor = parents.get(&dept).copied().flatten();
    }
    None
}

/// Departments and employees checked to be of the company (and employees still here),
/// each once.
struct Duties {
    departments: Vec<i32>,
    employees: Vec<i32>,
}

impl Duties {
    async fn checked(
        conn: &impl ConnectionTrait,
        company_id: i32,
        departments: &[i32],
        employees: &[i32],
    ) -> OrgResult<Self> {
        let known: Vec<department::Model> = q::list_departments(conn, company_id).await?;
        let staff: Vec<employee::Model> = q::list_employees(conn, company_id, false).await?;
        let mut out = Duties {
            departments: Vec::new(),
            employees: Vec::new(),
        };
        for &id in departments {
            if !known.iter().any(|d| d.id == id) {
                return Err(OrgError::NotFound {
                    what: "department",
                    id,
                });
            }
            if !out.departments.contains(&id) {
                out.departments.push(id);
            }
        }
        for &id in employees {
            if !staff.iter().any(|e| e.id == id) {
                return Err(OrgError::NotFound {
                    what: "employee",
                    id,
                });
            }
            if !out.employees.contains(&id) {
                out.employees.push(id);
            }
        }
        Ok(out)
    }

    /// As the rows they are stored as (for the DTO of a person just written).
    fn rows(&self, person_id: i32) -> Vec<person_duty::Model> {
        let departments = self.departments.iter().map(|d| (Some(*d), None));
        let employees = self.employees.iter().map(|e| (None, Some(*e)));
        departments
            .chain(employees)
            .map(|(department_id, employee_id)| person_duty::Model {
                id: 0,
                person_id,
                department_id,
                employee_id,
            })
            .collect()
    }
}

async fn read_people(conn: &impl ConnectionTrait, company_id: i32) -> OrgResult<Vec<PersonDto>> {
    let rows = p::list_people(conn, company_id).await?;
    let duties = p::list_duties(conn, rows.iter().map(|r| r.id).collect()).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let own: Vec<person_duty::Model> = duties
                .iter()
                .filter(|d| d.person_id == r.id)
                .cloned()
                .collect();
            dto(r, &own)
        })
        .collect())
}

fn dto(row: &person::Model, duties: &[person_duty::Model]) -> PersonDto {
    PersonDto {
        id: row.id,
        name: row.name.clone(),
        role: row.role.clone(),
        language: row.language,
        approval_policy: row.approval_policy,
        departments: duties.iter().filter_map(|d| d.department_id).collect(),
        employees: duties.iter().filter_map(|d| d.employee_id).collect(),
    }
}

fn clean_role(raw: &str) -> OrgResult<String> {
    let role = raw.trim();
    if role.chars().count() > MAX_ROLE_CHARS {
        return Err(OrgError::InvalidInput(format!(
            "a role is at most {MAX_ROLE_CHARS} characters"
        )));
    }
    if role.chars().any(char::is_control) {
        return Err(OrgError::InvalidInput(
            "a role must not contain control characters".into(),
        ));
    }
    Ok(role.to_owned())
}

/// A person is named in chats, by the secretary and in @mentions: their name must not be
/// the boss's, an employee's still here, or another person's.
async fn ensure_free_name(
    conn: &impl ConnectionTrait,
    company: &cubicle_store::entity::company::Model,
    name: &str,
) -> OrgResult<()> {
    let taken_by = if names_clash(&company.boss_name, name) {
        Some("the boss")
    } else if q::list_employees(conn, company.id, false)
        .await?
        .iter()
        .any(|e| names_clash(&e.name, name))
    {
        Some("an employee")
    } else if p::list_people(conn, company.id)
        .await?
        .iter()
        .any(|p| names_clash(&p.name, name))
    {
        Some("someone already in the company")
    } else {
        None
    };
    match taken_by {
        Some(who) => Err(OrgError::NameTaken {
            name: name.to_owned(),
            who,
        }),
        None => Ok(()),
    }
}

async fn require_person(
    conn: &impl ConnectionTrait,
    company_id: i32,
    id: i32,
) -> OrgResult<person::Model> {
    p::find_person(conn, id)
        .await?
        .filter(|p| p.company_id == company_id)
        .ok_or(OrgError::NotFound { what: "person", id })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(id: i32, departments: &[i32], employees: &[i32]) -> PersonDto {
        PersonDto {
            id,
            name: format!("p{id}"),
            role: String::new(),
            language: Language::En,
            approval_policy: ApprovalPolicy::KeySteps,
            departments: departments.to_vec(),
            employees: employees.to_vec(),
        }
    }

    #[test]
    fn the_nearest_duty_decides_and_the_boss_has_the_rest() {
        // 1 Company ─ 2 Product ─ 3 Mobile; 4 Engineering.
        let parents = HashMap::from([(1, None), (2, Some(1)), (3, Some(2)), (4, Some(1))]);
        let people = [
            person(10, &[2], &[]),
            person(11, &[3], &[]),
            person(12, &[], &[40]),
        ];
        let who = |e, d| responsible(&people, &parents, e, d).map(|p| p.id);
        assert_eq!(who(30, Some(3)), Some(11), "the department itself");
        assert_eq!(who(31, Some(2)), Some(10));
        assert_eq!(who(40, Some(3)), Some(12), "a named employee comes first");
        assert_eq!(
            who(32, Some(4)),
            None,
            "nobody answers for Engineering: the boss"
        );
        assert_eq!(who(33, None), None, "no department: the boss");
        let both = [person(21, &[2], &[]), person(20, &[2], &[])];
        assert_eq!(
            responsible(&both, &parents, 1, Some(3)).map(|p| p.id),
            Some(20),
            "the first invited among equals"
        );
    }

    #[test]
    fn a_cycle_in_the_tree_ends_the_walk() {
        let parents = HashMap::from([(1, Some(2)), (2, Some(1))]);
        assert_eq!(responsible(&[], &parents, 1, Some(1)), None);
    }
}
