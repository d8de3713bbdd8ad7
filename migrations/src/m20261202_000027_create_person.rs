//! People (SPEC §12): the humans of a company besides the boss, each with a role, a
//! language and an approval policy of their own, and what each answers for (a department,
//! its sub-departments included, or one employee). The boss is not a row here: the boss is
//! the company's own `boss_name` and `approval_policy`, and everything nobody else answers
//! for goes to the boss.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Person::Table)
                    .if_not_exists()
                    .col(pk_auto(Person::Id))
                    .col(integer(Person::CompanyId))
                    .col(string(Person::Name))
                    .col(string(Person::Role))
                    .col(string(Person::Language))
                    .col(string(Person::ApprovalPolicy))
                    .col(timestamp_with_time_zone(Person::CreatedAt))
                    .col(timestamp_with_time_zone(Person::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_person_company")
                            .from(Person::Table, Person::CompanyId)
                            .to(Company::Table, Company::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // Two people of one company never share a name: the secretary and the CLI name them.
        manager
            .create_index(
                Index::create()
                    .name("idx_person_company_name")
                    .table(Person::Table)
                    .col(Person::CompanyId)
                    .col(Person::Name)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(PersonDuty::Table)
                    .if_not_exists()
                    .col(pk_auto(PersonDuty::Id))
                    .col(integer(PersonDuty::PersonId))
                    .col(integer_null(PersonDuty::DepartmentId))
                    .col(integer_null(PersonDuty::EmployeeId))
                    // Exactly one of the two: a duty is for a department or for one employee.
                    .check(Expr::cust(
                        "(department_id IS NULL) <> (employee_id IS NULL)",
                    ))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_person_duty_person")
                            .from(PersonDuty::Table, PersonDuty::PersonId)
                            .to(Person::Table, Person::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_person_duty_department")
                            .from(PersonDuty::Table, PersonDuty::DepartmentId)
                            .to(Department::Table, Department::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_person_duty_employee")
                            .from(PersonDuty::Table, PersonDuty::EmployeeId)
                            .to(Employee::Table, Employee::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_person_duty_person")
                    .table(PersonDuty::Table)
                    .col(PersonDuty::PersonId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(PersonDuty::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Person::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Person {
    Table,
    Id,
    CompanyId,
    Name,
    Role,
    Language,
    ApprovalPolicy,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum PersonDuty {
    Table,
    Id,
    PersonId,
    DepartmentId,
    EmployeeId,
}

#[derive(DeriveIden)]
enum Company {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Department {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Employee {
    Table,
    Id,
}
