//! Cubicle's schema, one dated migration per change.
//!
//! Owns the tables and nothing else: no queries, no rules. Every migration must run
//! up and down on SQLite and on PostgreSQL (see `tests/up_down.rs`). Keep SQLite's
//! limits in mind: one change per `ALTER`, foreign keys only in `CREATE TABLE`.

pub use sea_orm_migration::prelude::*;

mod m20261130_000001_create_company;
mod m20261130_000002_create_department;
mod m20261130_000003_create_team;
mod m20261130_000004_create_employee;
mod m20261130_000005_create_role_template;
mod m20261130_000006_create_model_tables;
mod m20261130_000007_create_app_setting;
mod m20261130_000008_create_secretary;
mod m20261130_000009_create_chat;
mod m20261130_000010_create_work;
mod m20261130_000011_create_mind;
mod m20261130_000012_create_mailbox;
mod m20261130_000013_create_meeting;
mod m20261130_000014_create_trace;
mod m20261130_000015_create_approval;
mod m20261130_000016_soak_ledger;
mod m20261130_000017_create_pending_thought;
mod m20261130_000018_task_report_due;
mod m20261130_000019_approval_run_started;
mod m20261201_000021_ledger_cached_tokens;
mod m20261201_000022_requirement_owner;
mod m20261201_000023_employee_network_access;
mod m20261201_000024_company_secret_scope;
mod m20261201_000025_imported_unconfirmed;
mod m20261202_000026_employee_state_without_last_mood;
mod m20261202_000027_create_person;
mod m20261202_000028_approval_routed;
mod m20261202_000029_person_proxy;
mod m20261202_000030_role_cards;
mod m20261203_000031_person_login;
mod m20261205_000032_approval_decision_seal;
mod m20261205_000033_task_needs_review;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261130_000001_create_company::Migration),
            Box::new(m20261130_000002_create_department::Migration),
            Box::new(m20261130_000003_create_team::Migration),
            Box::new(m20261130_000004_create_employee::Migration),
            Box::new(m20261130_000005_create_role_template::Migration),
            Box::new(m20261130_000006_create_model_tables::Migration),
            Box::new(m20261130_000007_create_app_setting::Migration),
            Box::new(m20261130_000008_create_secretary::Migration),
            Box::new(m20261130_000009_create_chat::Migration),
            Box::new(m20261130_000010_create_work::Migration),
            Box::new(m20261130_000011_create_mind::Migration),
            Box::new(m20261130_000012_create_mailbox::Migration),
            Box::new(m20261130_000013_create_meeting::Migration),
            Box::new(m20261130_000014_create_trace::Migration),
            Box::new(m20261130_000015_create_approval::Migration),
            Box::new(m20261130_000016_soak_ledger::Migration),
            Box::new(m20261130_000017_create_pending_thought::Migration),
            Box::new(m20261130_000018_task_report_due::Migration),
            Box::new(m20261130_000019_approval_run_started::Migration),
            Box::new(m20261201_000021_ledger_cached_tokens::Migration),
            Box::new(m20261201_000022_requirement_owner::Migration),
            Box::new(m20261201_000023_employee_network_access::Migration),
            Box::new(m20261201_000024_company_secret_scope::Migration),
            Box::new(m20261201_000025_imported_unconfirmed::Migration),
            Box::new(m20261202_000026_employee_state_without_last_mood::Migration),
            Box::new(m20261202_000027_create_person::Migration),
            Box::new(m20261202_000028_approval_routed::Migration),
            Box::new(m20261202_000029_person_proxy::Migration),
            Box::new(m20261202_000030_role_cards::Migration),
            Box::new(m20261203_000031_person_login::Migration),
            Box::new(m20261205_000032_approval_decision_seal::Migration),
            Box::new(m20261205_000033_task_needs_review::Migration),
        ]
    }
}
