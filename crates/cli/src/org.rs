//! `cubicle-cli org …`

use anyhow::{Context, Result, anyhow, bail};
use clap::builder::PossibleValue;
use clap::{Subcommand, ValueEnum};
use cubicle_core::AppCore;
use cubicle_core::org::{
    FireEmployee, MoveEmployee, NewDepartment, NewEmployee, OrgSnapshot, SetupCompany,
};
use cubicle_core::types::read_name;
use cubicle_core::types::*;
use std::sync::LazyLock;

#[derive(Subcommand)]
pub enum OrgCommand {
    /// Print the org chart (or the whole snapshot as JSON).
    Show {
        #[arg(long)]
        json: bool,
    },
    /// Set up the company (once per database).
    Init {
        #[arg(long)]
        name: String,
        #[arg(long)]
        boss: String,
        #[arg(long, value_enum, default_value_t = LanguageArg(Language::En))]
        language: LanguageArg,
        #[arg(long)]
        mission: Option<String>,
    },
    /// Create a department.
    AddDepartment {
        name: String,
        /// Parent department (name or id); top level when omitted.
        #[arg(long)]
        parent: Option<String>,
        #[arg(long)]
        mission: Option<String>,
    },
    /// Hire someone by hand (the secretary proposes hires the same way).
    Hire {
        name: String,
        #[arg(long)]
        title: String,
        /// Department (name or id).
        #[arg(long)]
        department: Option<String>,
        /// Manager (name or id).
        #[arg(long)]
        manager: Option<String>,
        /// One of the 12 archetypes, e.g. ultra_grinder; default from the role.
        #[arg(long)]
        archetype: Option<String>,
    },
    /// Move a person to another department.
    Move {
        /// Employee (name or id).
        employee: String,
        /// Target department (name or id), or "none" for unassigned.
        #[arg(long)]
        to: String,
    },
    /// End someone's employment (their record stays).
    Fire {
        /// Employee (name or id).
        employee: String,
    },
    /// What tools someone may use, their own approval policy, and the command a CLI
    /// employee runs (each only when given).
    SetTools {
        /// Employee (name or id).
        employee: String,
        /// Comma-separated tool names (e.g. read_file,write_file,post_webhook); "" for none.
        #[arg(long)]
        tools: Option<String>,
        /// auto, key_steps, manual, or "company" to follow the company's policy.
        #[arg(long)]
        policy: Option<String>,
        /// The command `run_cli` runs in the employee's folder; "" to clear it.
        #[arg(long)]
        cli_command: Option<String>,
        /// Whether the sandbox `run_shell` and `run_cli` run in has the network (off by
        /// default).
        #[arg(long)]
        network: Option<Switch>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// `--language`: a company [`Language`] as clap reads it. The languages are the enum's
/// own and each is spelled as the company stores it (its serde name), so the CLI keeps no
/// list of languages of its own.
#[derive(Clone, Copy)]
pub struct LanguageArg(pub Language);

/// Clap wants the variants as a `'static` slice and their names as `'static` strings.
static LANGUAGE_ARGS: LazyLock<Vec<LanguageArg>> =
    LazyLock::new(|| Language::all().map(LanguageArg).collect());
static LANGUAGE_NAMES: LazyLock<Vec<(Language, String)>> = LazyLock::new(|| {
    Language::all()
        .filter_map(|l| match serde_json::to_value(l) {
            Ok(serde_json::Value::String(name)) => Some((l, name)),
            _ => None,
        })
        .collect()
});

impl ValueEnum for LanguageArg {
    fn value_variants<'a>() -> &'a [Self] {
        &LANGUAGE_ARGS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        LANGUAGE_NAMES
            .iter()
            .find(|(l, _)| *l == self.0)
            .map(|(_, name)| PossibleValue::new(name.as_str()))
    }
}

pub async fn run(core: &AppCore, cmd: OrgCommand) -> Result<()> {
    match cmd {
        OrgCommand::Show { json } => show(core, json).await,
        OrgCommand::Init {
            name,
            boss,
            language,
            mission,
        } => init(core, name, boss, language.0, mission).await,
        OrgCommand::AddDepartment {
            name,
            parent,
            mission,
        } => add_department(core, name, parent, mission).await,
        OrgCommand::Hire {
            name,
            title,
            department,
            manager,
            archetype,
        } => hire(core, name, title, department, manager, archetype).await,
        OrgCommand::Move { employee, to } => move_employee(core, &employee, &to).await,
        OrgCommand::Fire { employee } => fire(core, &employee).await,
        OrgCommand::SetTools {
            employee,
            tools,
            policy,
            cli_command,
            network,
        } => {
            let employee_id = find_employee(&core.org.snapshot().await?, &employee)?;
            let settings = ToolSettings {
                tools: tools.as_deref().map(parse_tools).transpose()?,
                policy: policy.as_deref().map(parse_policy).transpose()?,
                cli_command,
                network,
            };
            set_tools(core, employee_id, settings).await?;
            print_tools(core, employee_id).await
        }
    }
}

async fn show(core: &AppCore, json: bool) -> Result<()> {
    let snap = core.org.snapshot().await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&snap)?);
    } else {
        print!("{}", render_tree(&snap));
    }
    Ok(())
}

async fn init(
    core: &AppCore,
    name: String,
    boss_name: String,
    language: Language,
    mission: Option<String>,
) -> Result<()> {
    let c = core
        .org
        .setup_company(SetupCompany {
            name,
            boss_name,
            language,
            mission,
        })
        .await?;
    println!("company {} set up (#{})", c.name, c.id);
    Ok(())
}

async fn add_department(
    core: &AppCore,
    name: String,
    parent: Option<String>,
    mission: Option<String>,
) -> Result<()> {
    let snap = core.org.snapshot().await?;
    let parent_id = parent.map(|p| find_department(&snap, &p)).transpose()?;
    let d = core
        .org
        .create_department(NewDepartment {
            name,
            parent_id,
            mission,
        })
        .await?;
    println!("department {} created (#{})", d.name, d.id);
    Ok(())
}

async fn hire(
    core: &AppCore,
    name: String,
    title: String,
    department: Option<String>,
    manager: Option<String>,
    archetype: Option<String>,
) -> Result<()> {
    let snap = core.org.snapshot().await?;
    let department_id = department.map(|d| find_department(&snap, &d)).transpose()?;
    let manager_id = manager.map(|m| find_employee(&snap, &m)).transpose()?;
    let archetype = archetype.as_deref().map(parse_archetype).transpose()?;
    let e = core
        .org
        .hire(NewEmployee {
            name,
            title,
            department_id,
            manager_id,
            archetype,
        })
        .await?;
    println!("hired {} as {} (#{})", e.name, e.title, e.id);
    Ok(())
}

fn parse_archetype(a: &str) -> Result<Archetype> {
    read_name(a).ok_or_else(|| {
        anyhow!(
            "unknown archetype {a:?}; one of: {}",
            Archetype::ALL.map(|x| x.to_string()).join(", ")
        )
    })
}

async fn move_employee(core: &AppCore, employee: &str, to: &str) -> Result<()> {
    let snap = core.org.snapshot().await?;
    let employee_id = find_employee(&snap, employee)?;
    let department_id = if to.eq_ignore_ascii_case("none") {
        None
    } else {
        Some(find_department(&snap, to)?)
    };
    let e = core
        .org
        .move_employee(MoveEmployee {
            employee_id,
            department_id,
        })
        .await?;
    println!("moved {}", e.name);
    Ok(())
}

async fn fire(core: &AppCore, employee: &str) -> Result<()> {
    let snap = core.org.snapshot().await?;
    let employee_id = find_employee(&snap, employee)?;
    let e = core.org.fire(FireEmployee { employee_id }).await?;
    println!("{} no longer works here (record kept)", e.name);
    Ok(())
}

/// What `org set-tools` changes; `None` leaves a setting as it is.
struct ToolSettings {
    tools: Option<Vec<String>>,
    /// `Some(None)`: follow the company's policy.
    policy: Option<Option<ApprovalPolicy>>,
    cli_command: Option<String>,
    network: Option<Switch>,
}

/// Comma-separated tool names, each one the catalogue knows.
fn parse_tools(tools: &str) -> Result<Vec<String>> {
    let names: Vec<String> = tools
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(bad) = names
        .iter()
        .find(|t| cubicle_core::tools::risk_of(t).is_none())
    {
        bail!(
            "no tool named {bad:?}; tools: {}",
            cubicle_core::tools::catalogue()
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(names)
}

/// An approval level, or `None` for "company".
fn parse_policy(policy: &str) -> Result<Option<ApprovalPolicy>> {
    match policy.trim() {
        "company" => Ok(None),
        other => Ok(Some(read_name::<ApprovalPolicy>(other).ok_or_else(
            || anyhow!("policy must be auto, key_steps, manual or company"),
        )?)),
    }
}

async fn set_tools(core: &AppCore, employee_id: i32, settings: ToolSettings) -> Result<()> {
    let approvals = &core.approvals;
    if let Some(names) = settings.tools {
        approvals.set_tool_whitelist(employee_id, names).await?;
    }
    if let Some(level) = settings.policy {
        approvals.set_employee_policy(employee_id, level).await?;
    }
    if let Some(c) = settings.cli_command {
        let c = c.trim();
        approvals
            .set_cli_command(employee_id, (!c.is_empty()).then(|| c.to_owned()))
            .await?;
    }
    if let Some(n) = settings.network {
        approvals
            .set_network_access(employee_id, n == Switch::On)
            .await?;
    }
    Ok(())
}

/// One line: the employee's tools, approval policy, sandbox network and CLI command.
async fn print_tools(core: &AppCore, employee_id: i32) -> Result<()> {
    let e = core
        .org
        .snapshot()
        .await?
        .employees
        .into_iter()
        .find(|e| e.id == employee_id)
        .ok_or_else(|| anyhow!("employee {employee_id} is gone"))?;
    let network = if core.approvals.network_access(employee_id).await? {
        "on"
    } else {
        "off"
    };
    println!(
        "{}: tools {}; approvals {}; sandbox network {network}{}",
        e.name,
        if e.tool_whitelist.is_empty() {
            "none".to_owned()
        } else {
            e.tool_whitelist.join(", ")
        },
        e.approval_policy
            .map_or_else(|| "as the company".to_owned(), |p| p.to_string()),
        e.cli_command
            .as_deref()
            .map(|c| format!("; runs `{c}`"))
            .unwrap_or_default()
    );
    Ok(())
}

/// An id, or a unique case-insensitive name.
pub(crate) fn find_department(snap: &OrgSnapshot, key: &str) -> Result<i32> {
    if let Ok(id) = key.parse::<i32>() {
        return Ok(id);
    }
    let hits: Vec<_> = snap
        .departments
        .iter()
        .filter(|d| d.name.eq_ignore_ascii_case(key.trim()))
        .collect();
    match hits.as_slice() {
        [one] => Ok(one.id),
        [] => bail!("no department named {key:?}"),
        many => bail!(
            "{} departments are named {key:?}; use an id: {}",
            many.len(),
            many.iter()
                .map(|d| d.id.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub(crate) fn find_employee(snap: &OrgSnapshot, key: &str) -> Result<i32> {
    if let Ok(id) = key.parse::<i32>() {
        return Ok(id);
    }
    let hits: Vec<_> = snap
        .employees
        .iter()
        .filter(|e| e.name.eq_ignore_ascii_case(key.trim()))
        .collect();
    match hits.as_slice() {
        [one] => Ok(one.id),
        [] => {
            Err(anyhow!("no current employee named {key:?}")).context("use an id or the full name")
        }
        many => bail!(
            "{} people are named {key:?}; use an id: {}",
            many.len(),
            many.iter()
                .map(|e| e.id.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The org chart as an indented tree.
pub fn render_tree(snap: &OrgSnapshot) -> String {
    let Some(c) = &snap.company else {
        return "No company yet. Run `cubicle-cli org init --name NAME --boss YOU`.\n".into();
    };
    let mut out = format!(
        "{} — boss: {} · {} in {} departments\n",
        c.name,
        c.boss_name,
        headcount(snap.employees.len()),
        snap.departments.len()
    );
    fn dept(snap: &OrgSnapshot, parent: Option<i32>, indent: &str, out: &mut String) {
        for d in snap.departments.iter().filter(|d| d.parent_id == parent) {
            let people: Vec<_> = snap
                .employees
                .iter()
                .filter(|e| e.department_id == Some(d.id))
                .collect();
            out.push_str(&format!(
                "{indent}■ {} (#{}, {})\n",
                d.name,
                d.id,
                headcount(people.len())
            ));
            for e in people {
                out.push_str(&format!(
                    "{indent}    · {} — {} (#{}, {})\n",
                    e.name, e.title, e.id, e.archetype
                ));
            }
            dept(snap, Some(d.id), &format!("{indent}    "), out);
        }
    }
    dept(snap, None, "", &mut out);
    let unassigned: Vec<_> = snap
        .employees
        .iter()
        .filter(|e| e.department_id.is_none())
        .collect();
    if !unassigned.is_empty() {
        out.push_str("□ Unassigned\n");
        for e in unassigned {
            out.push_str(&format!("    · {} — {} (#{})\n", e.name, e.title, e.id));
        }
    }
    out
}

fn headcount(n: usize) -> String {
    if n == 1 {
        "1 person".into()
    } else {
        format!("{n} people")
    }
}
