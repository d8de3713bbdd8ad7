//! The org service: company, departments, teams and employees (SPEC §2).
//!
//! Every public method that changes something runs in one transaction and, after the
//! commit, publishes exactly one [`DomainEvent`] per changed record.

mod dto;
mod restore;
pub mod rules;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{company, department, employee};
use cubicle_store::{ConnectionTrait, Db, DbErr, org as q};
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::IntoActiveModel;

use crate::chat;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::roles;
use crate::types::*;

pub use dto::*;
pub use restore::DeletedDepartment;

pub use crate::gateway::DEFAULT_DAILY_BUDGET_USD;
/// A typo guard: nobody means to let the company spend more than this per day.
pub const MAX_DAILY_BUDGET_USD: f64 = 10_000.0;
pub use crate::providers::COMPANY_DEFAULT_PROVIDER;
/// Archetype of a hire whose role has no card and who was given none.
const FALLBACK_ARCHETYPE: Archetype = roles::FALLBACK_ARCHETYPE;

#[derive(Debug, thiserror::Error)]
pub enum OrgError {
    #[error("{what} {id} does not exist")]
    NotFound { what: &'static str, id: i32 },
    #[error("a department named \"{0}\" already exists there")]
    DuplicateName(String),
    #[error("a department cannot be moved under itself or one of its sub-departments")]
    DepartmentCycle,
    #[error("invalid manager: {0}")]
    InvalidManager(String),
    #[error(
        "the department still has {employees} people and {subdepartments} sub-departments; say where they should go"
    )]
    DepartmentNotEmpty { employees: u64, subdepartments: u64 },
    #[error("{0}")]
    InvalidInput(String),
    #[error("\"{name}\" is already the name of {who}; choose another")]
    NameTaken { name: String, who: &'static str },
    #[error("{0} no longer works here")]
    AlreadyFired(String),
    #[error("no company has been set up yet")]
    CompanyMissing,
    #[error("a company is already set up")]
    CompanyExists,
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl OrgError {
    pub fn code(&self) -> ErrorCode {
        match self {
            OrgError::NotFound { .. } => ErrorCode::NotFound,
            OrgError::DuplicateName(_) | OrgError::NameTaken { .. } => ErrorCode::DuplicateName,
            OrgError::DepartmentCycle => ErrorCode::DepartmentCycle,
            OrgError::InvalidManager(_) => ErrorCode::InvalidManager,
            OrgError::DepartmentNotEmpty { .. } => ErrorCode::DepartmentNotEmpty,
            OrgError::InvalidInput(_) => ErrorCode::InvalidInput,
            OrgError::AlreadyFired(_) => ErrorCode::AlreadyFired,
            OrgError::CompanyMissing => ErrorCode::CompanyMissing,
            OrgError::CompanyExists => ErrorCode::CompanyExists,
            OrgError::Storage(_) => ErrorCode::Storage,
        }
    }
}

impl From<OrgError> for IpcError {
    fn from(e: OrgError) -> Self {
        if let OrgError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

pub type OrgResult<T> = Result<T, OrgError>;

#[derive(Clone, Debug)]
pub struct OrgService {
    db: Db,
    bus: EventBus,
}

impl OrgService {
    pub fn new(db: Db, bus: EventBus) -> Self {
        Self { db, bus }
    }

    /// Tells the UI and the engine which group chats gained or lost a member.
    fn announce_chats(&self, chat_ids: Vec<i32>) {
        let mut ids = chat_ids;
        ids.sort_unstable();
        ids.dedup();
        for chat_id in ids {
            self.bus.publish(DomainEvent::ChatChanged { chat_id });
        }
    }

    // ---------- reads ----------

    pub async fn company(&self) -> OrgResult<Option<CompanyDto>> {
        Ok(q::find_company(&self.db).await?.map(|c| company_dto(&c)))
    }

    pub async fn snapshot(&self) -> OrgResult<OrgSnapshot> {
        let Some(c) = q::find_company(&self.db).await? else {
            return Ok(OrgSnapshot {
                company: None,
                departments: vec![],
                teams: vec![],
                employees: vec![],
            });
        };
        let departments = q::list_departments(&self.db, c.id).await?;
        let teams = q::list_teams(&self.db, departments.iter().map(|d| d.id).collect()).await?;
        let employees = q::list_employees(&self.db, c.id, false).await?;
        Ok(OrgSnapshot {
            company: Some(company_dto(&c)),
            departments: departments.iter().map(department_dto).collect(),
            teams: teams
                .iter()
                .map(|t| TeamDto {
                    id: t.id,
                    name: t.name.clone(),
                    department_id: t.department_id,
                })
                .collect(),
            employees: employees.iter().map(employee_dto).collect(),
        })
    }

    /// Every employee ever hired, including former ones (for history and the CLI).
    pub async fn all_employees(&self) -> OrgResult<Vec<EmployeeDto>> {
        let c = require_company(&self.db).await?;
        Ok(q::list_employees(&self.db, c.id, true)
            .await?
            .iter()
            .map(employee_dto)
            .collect())
    }

    pub async fn role_templates(&self) -> OrgResult<Vec<RoleTemplateDto>> {
        Ok(q::list_role_templates(&self.db)
            .await?
            .iter()
            .map(roles::to_dto)
            .collect())
    }

    // ---------- company ----------

    pub async fn setup_company(&self, input: SetupCompany) -> OrgResult<CompanyDto> {
        let name = rules::clean_name(&input.name, "company name")?;
        let boss = rules::clean_name(&input.boss_name, "boss name")?;
        let txn = self.db.begin_write().await?;
        if q::find_company(&txn).await?.is_some() {
            return Err(OrgError::CompanyExists);
        }
        let now = Utc::now();
        let c = q::insert_company(
            &txn,
            company::ActiveModel {
                id: NotSet,
                name: Set(name),
                mission: Set(input.mission.unwrap_or_default().trim().to_owned()),
                boss_name: Set(boss),
                language: Set(input.language),
                approval_policy: Set(ApprovalPolicy::KeySteps),
                daily_budget_usd: Set(DEFAULT_DAILY_BUDGET_USD),
                secret_scope: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
            },
        )
        .await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::CompanyUpdated { company_id: c.id });
        Ok(company_dto(&c))
    }

    pub async fn update_company(&self, input: UpdateCompany) -> OrgResult<CompanyDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let mut am = c.into_active_model();
        if let Some(name) = input.name {
            am.name = Set(rules::clean_name(&name, "company name")?);
        }
        if let Some(boss) = input.boss_name {
            am.boss_name = Set(rules::clean_name(&boss, "boss name")?);
        }
        if let Some(mission) = input.mission {
            am.mission = Set(mission.trim().to_owned());
        }
        if let Some(lang) = input.language {
            am.language = Set(lang);
        }
        let c = q::update_company(&txn, am).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::CompanyUpdated { company_id: c.id });
        Ok(company_dto(&c))
    }

    /// The company's daily model budget (SPEC §10): finite and positive, always.
    pub async fn set_budget(&self, input: SetBudget) -> OrgResult<CompanyDto> {
        let budget = input.daily_budget_usd;
        if !budget.is_finite() || budget <= 0.0 || budget > MAX_DAILY_BUDGET_USD {
            return Err(OrgError::InvalidInput(format!(
                "the daily budget must be more than $0 and at most ${MAX_DAILY_BUDGET_USD}"
            )));
        }
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let mut am = c.into_active_model();
        am.daily_budget_usd = Set(budget);
        let c = q::update_company(&txn, am).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::CompanyUpdated { company_id: c.id });
        Ok(company_dto(&c))
    }

    // ---------- departments ----------

    pub async fn create_department(&self, input: NewDepartment) -> OrgResult<DepartmentDto> {
        let name = rules::clean_name(&input.name, "department name")?;
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        if let Some(parent) = input.parent_id {
            self.require_department(&txn, c.id, parent).await?;
        }
        ensure_unique_sibling(&txn, c.id, input.parent_id, &name, None).await?;
        let d = q::insert_department(
            &txn,
            department::ActiveModel {
                id: NotSet,
                company_id: Set(c.id),
                name: Set(name),
                mission: Set(input.mission.unwrap_or_default().trim().to_owned()),
                parent_id: Set(input.parent_id),
                lead_id: Set(None),
                created_at: Set(Utc::now()),
            },
        )
        .await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::DepartmentCreated {
            department_id: d.id,
        });
        Ok(department_dto(&d))
    }

    pub async fn rename_department(&self, input: RenameDepartment) -> OrgResult<DepartmentDto> {
        let name = rules::clean_name(&input.name, "department name")?;
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let d = self.require_department(&txn, c.id, input.id).await?;
        ensure_unique_sibling(&txn, c.id, d.parent_id, &name, Some(d.id)).await?;
        let mut am = d.into_active_model();
        am.name = Set(name);
        let d = q::update_department(&txn, am).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::DepartmentUpdated {
            department_id: d.id,
        });
        Ok(department_dto(&d))
    }

    pub async fn move_department(&self, input: MoveDepartment) -> OrgResult<DepartmentDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let d = self.require_department(&txn, c.id, input.id).await?;
        if let Some(parent) = input.parent_id {
            self.require_department(&txn, c.id, parent).await?;
        }
        let parents = parent_map(&txn, c.id).await?;
        if rules::would_create_cycle(&parents, d.id, input.parent_id) {
            return Err(OrgError::DepartmentCycle);
        }
        ensure_unique_sibling(&txn, c.id, input.parent_id, &d.name, Some(d.id)).await?;
        let mut am = d.into_active_model();
        am.parent_id = Set(input.parent_id);
        let d = q::update_department(&txn, am).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::DepartmentUpdated {
            department_id: d.id,
        });
        Ok(department_dto(&d))
    }

    /// Deletes a department. People and sub-departments move to `reassign_to`, which
    /// is required when there are any and must lie outside the deleted department.
    pub async fn delete_department(&self, input: DeleteDepartment) -> OrgResult<()> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let d = self.require_department(&txn, c.id, input.id).await?;
        let employees = q::count_current_employees_in(&txn, d.id).await?;
        let subdepartments = q::count_child_departments(&txn, d.id).await?;
        let mut moved_people = Vec::new();
        let mut moved_departments = Vec::new();
        let mut chats = Vec::new();
        match input.reassign_to {
            None if employees > 0 || subdepartments > 0 => {
                return Err(OrgError::DepartmentNotEmpty {
                    employees,
                    subdepartments,
                });
            }
            None => {}
            Some(target) => {
                self.require_department(&txn, c.id, target).await?;
                let parents = parent_map(&txn, c.id).await?;
                // Moving them into the deleted subtree would leave them nowhere.
                if rules::subtree(&parents, d.id).contains(&target) {
                    return Err(OrgError::DepartmentCycle);
                }
                // Children land beside the target's own children: their names must not clash.
                let children: Vec<_> = q::list_departments(&txn, c.id)
                    .await?
                    .into_iter()
                    .filter(|x| x.parent_id == Some(d.id))
                    .collect();
                for child in &children {
                    ensure_unique_sibling(&txn, c.id, Some(target), &child.name, Some(child.id))
                        .await?;
                }
                moved_departments = children.iter().map(|x| x.id).collect();
                moved_people = q::list_employees(&txn, c.id, false)
                    .await?
                    .into_iter()
                    .filter(|e| e.department_id == Some(d.id))
                    .map(|e| e.id)
                    .collect();
                q::reparent_child_departments(&txn, d.id, Some(target)).await?;
                q::move_teams(&txn, d.id, target).await?;
                q::move_employees_of_department(&txn, d.id, target).await?;
                for id in &moved_people {
                    chats.extend(
                        chat::follow_department(&txn, *id, Some(target), Utc::now()).await?,
                    );
                }
            }
        }
        q::delete_department(&txn, d.id).await?;
        txn.commit().await?;
        for id in moved_departments {
            self.bus
                .publish(DomainEvent::DepartmentUpdated { department_id: id });
        }
        for id in moved_people {
            self.bus
                .publish(DomainEvent::EmployeeUpdated { employee_id: id });
        }
        self.bus.publish(DomainEvent::DepartmentDeleted {
            department_id: d.id,
        });
        self.announce_chats(chats);
        Ok(())
    }

    pub async fn set_department_lead(&self, input: SetDepartmentLead) -> OrgResult<DepartmentDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let d = self
            .require_department(&txn, c.id, input.department_id)
            .await?;
        if let Some(lead) = input.employee_id {
            let e = self.require_current_employee(&txn, c.id, lead).await?;
            if e.department_id != Some(d.id) {
                return Err(OrgError::InvalidInput(format!(
                    "{} is not in {}; move them there first",
                    e.name, d.name
                )));
            }
        }
        let mut am = d.into_active_model();
        am.lead_id = Set(input.employee_id);
        let d = q::update_department(&txn, am).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::DepartmentUpdated {
            department_id: d.id,
        });
        Ok(department_dto(&d))
    }

    // ---------- employees ----------

    /// Adds a person directly (the manual path; the secretary proposes hires through
    /// this too). Role defaults come from the card whose name matches the title.
    pub async fn hire(&self, input: NewEmployee) -> OrgResult<EmployeeDto> {
        self.hire_as(input, None).await
    }

    /// [`Self::hire`] from the card `role_key` names (the secretary's pick, which holds
    /// even when the boss edited the title), else from the card matching the title. The
    /// hire takes the card's persona, tools (only those Cubicle has), model route,
    /// temperature and retries; each can be changed on the employee afterwards.
    pub async fn hire_as(
        &self,
        input: NewEmployee,
        role_key: Option<&str>,
    ) -> OrgResult<EmployeeDto> {
        let name = rules::clean_name(&input.name, "employee name")?;
        let title = rules::clean_name(&input.title, "title")?;
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        if let Some(dept) = input.department_id {
            self.require_department(&txn, c.id, dept).await?;
        }
        if let Some(manager) = input.manager_id {
            self.require_current_employee(&txn, c.id, manager)
                .await
                .map_err(|e| match e {
                    OrgError::Storage(_) => e,
                    other => OrgError::InvalidManager(other.to_string()),
                })?;
        }
        let card = roles::hire_defaults(&txn, role_key, &title)
            .await?
            .unwrap_or_default();
        let archetype = input
            .archetype
            .or(card.archetype)
            .unwrap_or(FALLBACK_ARCHETYPE);
        let (provider, model) = card
            .backend
            .clone()
            .unwrap_or((COMPANY_DEFAULT_PROVIDER.to_owned(), String::new()));
        let e = q::insert_employee(
            &txn,
            employee::ActiveModel {
                id: NotSet,
                company_id: Set(c.id),
                name: Set(name),
                title: Set(title),
                department_id: Set(input.department_id),
                team_id: Set(None),
                manager_id: Set(input.manager_id),
                archetype: Set(archetype),
                speaking_style: Set(crate::types::archetypes::profile(archetype)
                    .style
                    .to_owned()),
                skills: Set(serde_json::json!(card.skills)),
                backend_provider: Set(provider),
                backend_model: Set(model),
                tool_whitelist: Set(serde_json::json!(card.tools)),
                avatar: Set(None),
                status: Set(EmployeeStatus::Idle),
                hired_at: Set(Utc::now()),
                fired_at: Set(None),
                approval_policy: Set(None),
                cli_command: Set(None),
                network_access: Set(false),
                imported_cli_command: Set(None),
                persona: Set(card.persona),
                temperature: Set(card.temperature),
                max_retries: Set(card
                    .max_retries
                    .map(|n| i32::try_from(n).unwrap_or(i32::MAX))),
            },
        )
        .await?;
        let chats = chat::follow_department(&txn, e.id, e.department_id, Utc::now()).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::EmployeeHired { employee_id: e.id });
        self.announce_chats(chats);
        Ok(employee_dto(&e))
    }

    pub async fn move_employee(&self, input: MoveEmployee) -> OrgResult<EmployeeDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let e = self
            .require_current_employee(&txn, c.id, input.employee_id)
            .await?;
        if let Some(dept) = input.department_id {
            self.require_department(&txn, c.id, dept).await?;
        }
        if e.department_id == input.department_id {
            return Ok(employee_dto(&e));
        }
        // A lead who leaves the department stops leading it.
        if let Some(old) = e.department_id
            && let Some(d) = q::find_department(&txn, old).await?
            && d.lead_id == Some(e.id)
        {
            let mut am = d.into_active_model();
            am.lead_id = Set(None);
            q::update_department(&txn, am).await?;
        }
        let mut am = e.into_active_model();
        am.department_id = Set(input.department_id);
        am.team_id = Set(None);
        let e = q::update_employee(&txn, am).await?;
        let chats = chat::follow_department(&txn, e.id, e.department_id, Utc::now()).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::EmployeeUpdated { employee_id: e.id });
        self.announce_chats(chats);
        Ok(employee_dto(&e))
    }

    pub async fn set_manager(&self, input: SetManager) -> OrgResult<EmployeeDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let e = self
            .require_current_employee(&txn, c.id, input.employee_id)
            .await?;
        if let Some(manager) = input.manager_id {
            if manager == e.id {
                return Err(OrgError::InvalidManager(
                    "nobody can be their own manager".into(),
                ));
            }
            self.require_current_employee(&txn, c.id, manager)
                .await
                .map_err(|err| match err {
                    OrgError::Storage(_) => err,
                    other => OrgError::InvalidManager(other.to_string()),
                })?;
            let managers: HashMap<i32, Option<i32>> = q::list_employees(&txn, c.id, false)
                .await?
                .into_iter()
                .map(|x| (x.id, x.manager_id))
                .collect();
            if rules::would_create_reporting_loop(&managers, e.id, manager) {
                return Err(OrgError::InvalidManager(
                    "that would make the reporting line a loop".into(),
                ));
            }
        }
        let mut am = e.into_active_model();
        am.manager_id = Set(input.manager_id);
        let e = q::update_employee(&txn, am).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::EmployeeUpdated { employee_id: e.id });
        Ok(employee_dto(&e))
    }

    /// Gives an employee a model backend of their own; an empty provider goes back to
    /// the company's routes. Memory, persona, tasks and relationships are untouched
    /// (SPEC §1). The caller checks that the provider exists.
    pub async fn set_backend(
        &self,
        employee_id: i32,
        backend: BackendRef,
    ) -> OrgResult<EmployeeDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let e = self
            .require_current_employee(&txn, c.id, employee_id)
            .await?;
        let mut am = e.into_active_model();
        am.backend_provider = Set(backend.provider.trim().to_owned());
        am.backend_model = Set(if backend.provider.trim().is_empty() {
            String::new()
        } else {
            backend.model.trim().to_owned()
        });
        let e = q::update_employee(&txn, am).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::EmployeeUpdated { employee_id: e.id });
        Ok(employee_dto(&e))
    }

    /// Takes back a hire made minutes ago (the secretary's Undo): the row goes, as if the
    /// hire never happened. Refused once anyone reports to them or they lead something.
    pub async fn undo_hire(&self, employee_id: i32) -> OrgResult<()> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let e = self
            .require_current_employee(&txn, c.id, employee_id)
            .await?;
        let has_reports = q::list_employees(&txn, c.id, false)
            .await?
            .iter()
            .any(|x| x.manager_id == Some(e.id));
        let leads = q::list_departments(&txn, c.id)
            .await?
            .iter()
            .any(|d| d.lead_id == Some(e.id));
        if has_reports || leads {
            return Err(OrgError::InvalidInput(format!(
                "{} already has reports or leads a department; fire them instead",
                e.name
            )));
        }
        q::delete_employee(&txn, e.id).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::EmployeeFired { employee_id: e.id });
        Ok(())
    }

    /// Takes back a firing made minutes ago (the secretary's Undo): they are staff again,
    /// with their former reports and department leads restored.
    pub async fn undo_fire(
        &self,
        employee_id: i32,
        reports: &[i32],
        led_departments: &[i32],
    ) -> OrgResult<EmployeeDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let e = q::find_employee(&txn, employee_id)
            .await?
            .filter(|e| e.company_id == c.id && e.fired_at.is_some())
            .ok_or(OrgError::NotFound {
                what: "former employee",
                id: employee_id,
            })?;
        let mut am = e.into_active_model();
        am.fired_at = Set(None);
        am.status = Set(EmployeeStatus::Idle);
        let e = q::update_employee(&txn, am).await?;
        for id in reports {
            if let Some(r) = q::find_employee(&txn, *id)
                .await?
                .filter(|r| r.fired_at.is_none())
            {
                let mut am = r.into_active_model();
                am.manager_id = Set(Some(e.id));
                q::update_employee(&txn, am).await?;
            }
        }
        for id in led_departments {
            if let Some(d) = q::find_department(&txn, *id).await?
                && d.lead_id.is_none()
                && e.department_id == Some(d.id)
            {
                let mut am = d.into_active_model();
                am.lead_id = Set(Some(e.id));
                q::update_department(&txn, am).await?;
            }
        }
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::EmployeeHired { employee_id: e.id });
        Ok(employee_dto(&e))
    }

    /// The company's approval policy (SPEC §8).
    pub async fn set_approval_policy(&self, policy: ApprovalPolicy) -> OrgResult<CompanyDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let mut am = c.into_active_model();
        am.approval_policy = Set(policy);
        let c = q::update_company(&txn, am).await?;
        txn.commit().await?;
        self.bus
            .publish(DomainEvent::CompanyUpdated { company_id: c.id });
        Ok(company_dto(&c))
    }

    /// Ends someone's employment. The record stays (with `fired_at`) so their history
    /// remains readable; their reports move up to their own manager.
    pub async fn fire(&self, input: FireEmployee) -> OrgResult<EmployeeDto> {
        let txn = self.db.begin_write().await?;
        let c = require_company(&txn).await?;
        let e = q::find_employee(&txn, input.employee_id)
            .await?
            .filter(|e| e.company_id == c.id)
            .ok_or(OrgError::NotFound {
                what: "employee",
                id: input.employee_id,
            })?;
        if e.fired_at.is_some() {
            return Err(OrgError::AlreadyFired(e.name));
        }
        let reports: Vec<i32> = q::list_employees(&txn, c.id, false)
            .await?
            .into_iter()
            .filter(|x| x.manager_id == Some(e.id))
            .map(|x| x.id)
            .collect();
        q::reassign_reports(&txn, e.id, e.manager_id).await?;
        q::clear_department_lead(&txn, e.id).await?;
        let mut am = e.into_active_model();
        am.fired_at = Set(Some(Utc::now()));
        am.status = Set(EmployeeStatus::Fired);
        let e = q::update_employee(&txn, am).await?;
        txn.commit().await?;
        for id in reports {
            self.bus
                .publish(DomainEvent::EmployeeUpdated { employee_id: id });
        }
        self.bus
            .publish(DomainEvent::EmployeeFired { employee_id: e.id });
        Ok(employee_dto(&e))
    }

    // ---------- helpers ----------

    async fn require_department(
        &self,
        conn: &impl ConnectionTrait,
        company_id: i32,
        id: i32,
    ) -> OrgResult<department::Model> {
        q::find_department(conn, id)
            .await?
            .filter(|d| d.company_id == company_id)
            .ok_or(OrgError::NotFound {
                what: "department",
                id,
            })
    }

    async fn require_current_employee(
        &self,
        conn: &impl ConnectionTrait,
        company_id: i32,
        id: i32,
    ) -> OrgResult<employee::Model> {
        let e = q::find_employee(conn, id)
            .await?
            .filter(|e| e.company_id == company_id)
            .ok_or(OrgError::NotFound {
                what: "employee",
                id,
            })?;
        if e.fired_at.is_some() {
            return Err(OrgError::AlreadyFired(e.name));
        }
        Ok(e)
    }
}

async fn parent_map(
    conn: &impl ConnectionTrait,
    company_id: i32,
) -> OrgResult<HashMap<i32, Option<i32>>> {
    Ok(q::list_departments(conn, company_id)
        .await?
        .into_iter()
        .map(|d| (d.id, d.parent_id))
        .collect())
}

async fn ensure_unique_sibling(
    conn: &impl ConnectionTrait,
    company_id: i32,
    parent_id: Option<i32>,
    name: &str,
    except: Option<i32>,
) -> OrgResult<()> {
    let siblings = q::list_sibling_departments(conn, company_id, parent_id).await?;
    if siblings
        .iter()
        .any(|s| Some(s.id) != except && rules::names_clash(&s.name, name))
    {
        return Err(OrgError::DuplicateName(name.to_owned()));
    }
    Ok(())
}

fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

pub fn company_dto(c: &company::Model) -> CompanyDto {
    CompanyDto {
        id: c.id,
        name: c.name.clone(),
        mission: c.mission.clone(),
        boss_name: c.boss_name.clone(),
        language: c.language,
        approval_policy: c.approval_policy,
        daily_budget_usd: c.daily_budget_usd,
        created_at: rfc3339(&c.created_at),
    }
}

pub fn department_dto(d: &department::Model) -> DepartmentDto {
    DepartmentDto {
        id: d.id,
        name: d.name.clone(),
        mission: d.mission.clone(),
        parent_id: d.parent_id,
        lead_id: d.lead_id,
        created_at: rfc3339(&d.created_at),
    }
}

pub fn employee_dto(e: &employee::Model) -> EmployeeDto {
    EmployeeDto {
        id: e.id,
        name: e.name.clone(),
        title: e.title.clone(),
        department_id: e.department_id,
        team_id: e.team_id,
        manager_id: e.manager_id,
        archetype: e.archetype,
        speaking_style: e.speaking_style.clone(),
        skills: roles::json_strings(&e.skills),
        backend: BackendRef {
            provider: e.backend_provider.clone(),
            model: e.backend_model.clone(),
        },
        tool_whitelist: roles::json_strings(&e.tool_whitelist),
        avatar: e.avatar.clone(),
        status: e.status,
        hired_at: rfc3339(&e.hired_at),
        fired_at: e.fired_at.as_ref().map(rfc3339),
        approval_policy: e.approval_policy,
        cli_command: e.cli_command.clone(),
        persona: e.persona.clone(),
        temperature: e.temperature,
        max_retries: e.max_retries.and_then(|n| u32::try_from(n).ok()),
    }
}

/// The company this database holds, or [`OrgError::CompanyMissing`].
pub(crate) async fn require_company(conn: &impl ConnectionTrait) -> OrgResult<company::Model> {
    q::find_company(conn).await?.ok_or(OrgError::CompanyMissing)
}
