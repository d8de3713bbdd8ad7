//! `cubicle-cli people …`: the company's people besides the boss, and whose decision an
//! employee's action is.

use anyhow::{Result, anyhow};
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::org::OrgSnapshot;
use cubicle_core::people::{Approver, NewPerson, PersonDto, UpdatePerson};
use cubicle_core::types::{ApprovalPolicy, Language};
use serde::de::DeserializeOwned;

use crate::org::{find_department, find_employee};

#[derive(Subcommand)]
pub enum PeopleCommand {
    /// Everyone besides the boss, with what they answer for.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Invite a person (they answer for the departments and employees given).
    Add {
        name: String,
        /// What they do here, e.g. "Head of Product".
        #[arg(long, default_value = "")]
        role: String,
        /// en or zh-CN; the company's language when omitted.
        #[arg(long)]
        language: Option<String>,
        /// auto, key_steps or manual: how the approvals routed to them are decided.
        #[arg(long)]
        policy: Option<String>,
        /// A department they answer for (name or id), sub-departments included; repeatable.
        #[arg(long = "department")]
        departments: Vec<String>,
        /// An employee they answer for (name or id); repeatable.
        #[arg(long = "employee")]
        employees: Vec<String>,
    },
    /// Change a person's role, language, policy or duties (each only when given).
    Set {
        /// Person (name or id).
        person: String,
        #[arg(long)]
        role: Option<String>,
        #[arg(long)]
        language: Option<String>,
        #[arg(long)]
        policy: Option<String>,
        /// Replaces their department duties; "none" clears them. Repeatable.
        #[arg(long = "department")]
        departments: Vec<String>,
        /// Replaces their employee duties; "none" clears them. Repeatable.
        #[arg(long = "employee")]
        employees: Vec<String>,
    },
    /// Remove a person: what they answered for goes back up the tree.
    Remove {
        /// Person (name or id).
        person: String,
    },
    /// Whose decision an employee's action is.
    Approver {
        /// Employee (name or id).
        employee: String,
    },
    /// Give a person their own sign-in on this company server (a PostgreSQL role whose
    /// rights the database enforces). Prints it once, to hand to them; a sign-in they
    /// had before stops working.
    Login {
        /// Person (name or id).
        person: String,
    },
}

pub async fn run(core: &AppCore, server_url: &str, cmd: PeopleCommand) -> Result<()> {
    match cmd {
        PeopleCommand::Login { person } => login(core, server_url, &person).await,
        PeopleCommand::List { json } => list(core, json).await,
        PeopleCommand::Add {
            name,
            role,
            language,
            policy,
            departments,
            employees,
        } => {
            let snap = core.org.snapshot().await?;
            let person = core
                .people
                .invite(NewPerson {
                    name,
                    role,
                    language: language.as_deref().map(self::language).transpose()?,
                    approval_policy: policy.as_deref().map(self::policy).transpose()?,
                    departments: ids(&snap, &departments, find_department)?,
                    employees: ids(&snap, &employees, find_employee)?,
                })
                .await?;
            println!("invited {}", line(&person, &snap));
            Ok(())
        }
        PeopleCommand::Set {
            person,
            role,
            language,
            policy,
            departments,
            employees,
        } => {
            let snap = core.org.snapshot().await?;
            let id = find_person(core, &person).await?;
            let replaced = |keys: &[String], find| -> Result<Option<Vec<i32>>> {
                match keys {
                    [] => Ok(None),
                    [none] if none.eq_ignore_ascii_case("none") => Ok(Some(vec![])),
                    keys => ids(&snap, keys, find).map(Some),
                }
            };
            let person = core
                .people
                .update(UpdatePerson {
                    id,
                    role,
                    language: language.as_deref().map(self::language).transpose()?,
                    approval_policy: policy.as_deref().map(self::policy).transpose()?,
                    departments: replaced(&departments, find_department)?,
                    employees: replaced(&employees, find_employee)?,
                })
                .await?;
            println!("{}", line(&person, &snap));
            Ok(())
        }
        PeopleCommand::Remove { person } => {
            let id = find_person(core, &person).await?;
            core.people.remove(id).await?;
            println!("removed person {id}");
            Ok(())
        }
        PeopleCommand::Approver { employee } => {
            let snap = core.org.snapshot().await?;
            let id = find_employee(&snap, &employee)?;
            match core.people.approver_for(id).await? {
                Approver::Boss { name } => println!("{name} (the boss)"),
                Approver::Person { person } => println!("{}", line(&person, &snap)),
            }
            Ok(())
        }
    }
}

async fn list(core: &AppCore, json: bool) -> Result<()> {
    let people = core.people.list().await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&people)?);
        return Ok(());
    }
    if people.is_empty() {
        println!("nobody besides the boss yet (invite with `people add NAME --department …`)");
        return Ok(());
    }
    let snap = core.org.snapshot().await?;
    for p in &people {
        println!("{}", line(p, &snap));
    }
    Ok(())
}

/// `#3 Lin (Head of Product, zh-CN, key_steps): answers for Product, Bob`.
fn line(p: &PersonDto, snap: &OrgSnapshot) -> String {
    let departments = p.departments.iter().map(|id| {
        snap.departments
            .iter()
            .find(|d| d.id == *id)
            .map_or_else(|| format!("department {id}"), |d| d.name.clone())
    });
    let employees = p.employees.iter().map(|id| {
        snap.employees
            .iter()
            .find(|e| e.id == *id)
            .map_or_else(|| format!("employee {id}"), |e| e.name.clone())
    });
    let duties: Vec<String> = departments.chain(employees).collect();
    let language = serde_json::to_value(p.language)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    format!(
        "#{} {} ({}{language}, {}): {}",
        p.id,
        p.name,
        if p.role.is_empty() {
            String::new()
        } else {
            format!("{}, ", p.role)
        },
        p.approval_policy,
        if duties.is_empty() {
            "answers for nothing yet".to_owned()
        } else {
            format!("answers for {}", duties.join(", "))
        }
    )
}

/// A stored value from its JSON spelling (`zh-CN`, `key_steps`), with the choices on error.
fn parse_as<T: DeserializeOwned>(raw: &str, choices: &str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(raw.trim().to_owned()))
        .map_err(|_| anyhow!("{raw:?} is not one of: {choices}"))
}

fn language(raw: &str) -> Result<Language> {
    parse_as(raw, "en, zh-CN")
}

fn policy(raw: &str) -> Result<ApprovalPolicy> {
    parse_as(raw, "auto, key_steps, manual")
}

fn ids(
    snap: &OrgSnapshot,
    keys: &[String],
    find: fn(&OrgSnapshot, &str) -> Result<i32>,
) -> Result<Vec<i32>> {
    keys.iter().map(|k| find(snap, k)).collect()
}

/// An id, or a unique case-insensitive name.
pub(crate) async fn find_person(core: &AppCore, key: &str) -> Result<i32> {
    if let Ok(id) = key.trim().parse::<i32>() {
        return Ok(id);
    }
    core.people
        .list()
        .await?
        .into_iter()
        .find(|p| p.name.eq_ignore_ascii_case(key.trim()))
        .map(|p| p.id)
        .ok_or_else(|| anyhow!("nobody named {key:?} besides the boss (see `people list`)"))
}

/// `people login`: a sign-in of their own for a person, shown once, to hand over.
async fn login(core: &AppCore, server_url: &str, person: &str) -> Result<()> {
    let id = find_person(core, person).await?;
    let login = core.people.issue_login(id).await?;
    println!(
        "{}'s sign-in (database role {}). Hand it to them privately; it is shown only \
         this once. On their computer: `cubicle-cli sign-in`, then paste it — it goes \
         to their keychain.\n{}",
        login.name,
        login.role,
        login.url(server_url)
    );
    Ok(())
}

/// `cubicle-cli sign-in`: reads the sign-in from stdin (never the command line, where other
/// users of this computer could see it), checks that it opens the company, and keeps it
/// in the keychain.
pub async fn sign_in(forget: bool) -> Result<()> {
    let keychain = cubicle_core::secrets::KeyringStore;
    if forget {
        cubicle_core::sign_in::forget(&keychain)?;
        println!("this computer's company-server sign-in is forgotten");
        return Ok(());
    }
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("paste the sign-in the boss gave you, then press Enter:");
    }
    let mut url = String::new();
    std::io::stdin().read_line(&mut url)?;
    let who = cubicle_core::sign_in::save(&keychain, &url).await?;
    println!(
        "signed in to {} on {} as {}; saved in this computer's keychain",
        who.company,
        who.server,
        who.person
            .as_deref()
            .unwrap_or("the server's own role (the boss)")
    );
    Ok(())
}
