//! Answers about the company, from the database only (SPEC §3: never invented).

use super::intent::Slots;
use super::service::Secretary;
use super::text::people_count;
use crate::org::{DepartmentDto, EmployeeDto, OrgSnapshot};
use crate::types::*;
use crate::work::board::RequirementStatus;
use crate::work::{RequirementDto, TaskDto};
use sea_orm::ActiveEnum;

impl Secretary {
    /// Answers from the database only: who is where, headcounts, leads.
    pub(super) fn facts(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Language,
        tasks: &[TaskDto],
        requirements: &[RequirementDto],
    ) -> String {
        if let Some(name) = s.name.as_deref().or(s.assignee.as_deref()) {
            return match self.person(Some(name), snap, lang) {
                Err(q) => q,
                Ok(e) => person_facts(e, snap, lang, tasks),
            };
        }
        if let Some(name) = s.department.as_deref() {
            return match self.department(Some(name), snap, lang) {
                Err(q) => q,
                Ok(d) => department_facts(d, snap, lang),
            };
        }
        let mut out = headcount(snap, lang);
        out.push_str(&work_summary(lang, tasks, requirements));
        out
    }
}

/// One employee: title, department, manager, status and pending tasks.
fn person_facts(e: &EmployeeDto, snap: &OrgSnapshot, lang: Language, tasks: &[TaskDto]) -> String {
    let dept = e
        .department_id
        .and_then(|id| snap.departments.iter().find(|d| d.id == id))
        .map(|d| d.name.clone())
        .unwrap_or_else(|| lang.pick("no department", "未分配部门"));
    let manager = e
        .manager_id
        .and_then(|m| snap.employees.iter().find(|x| x.id == m))
        .map(|m| m.name.clone());
    let mut out = match (lang, manager) {
        (Language::En, Some(m)) => format!(
            "{} is a {} in {dept}, reporting to {m}. Status: {}.",
            e.name,
            e.title,
            e.status.to_value()
        ),
        (Language::En, None) => format!(
            "{} is a {} in {dept}. Status: {}.",
            e.name,
            e.title,
            e.status.to_value()
        ),
        (Language::ZhCn, Some(m)) => format!(
            "{}是{}的{}，汇报给{m}。状态：{}。",
            e.name,
            dept,
            e.title,
            status_zh(e.status)
        ),
        (Language::ZhCn, None) => format!(
            "{}是{}的{}。状态：{}。",
            e.name,
            dept,
            e.title,
            status_zh(e.status)
        ),
    };
    let mine: Vec<&str> = tasks
        .iter()
        .filter(|t| t.owner_id == e.id)
        .map(|t| t.description.as_str())
        .collect();
    out.push(' ');
    out.push_str(&if mine.is_empty() {
        lang.pick("No pending tasks.", "目前没有待办任务。")
    } else {
        lang.pick(
            format!("Pending tasks: {}.", mine.join("; ")),
            format!("待办任务：{}。", mine.join("；")),
        )
    });
    out
}

/// An employee's state as a Chinese company reads it (the words of the app's own pages).
fn status_zh(status: EmployeeStatus) -> &'static str {
    match status {
        EmployeeStatus::Idle => "空闲",
        EmployeeStatus::Receiving => "接收中",
        EmployeeStatus::Planning => "规划中",
        EmployeeStatus::Acting => "工作中",
        EmployeeStatus::Reporting => "汇报中",
        EmployeeStatus::WaitingApproval => "等待审批",
        EmployeeStatus::Fired => "已离职",
    }
}

/// One department: its people, lead and sub-departments.
fn department_facts(d: &DepartmentDto, snap: &OrgSnapshot, lang: Language) -> String {
    let people: Vec<_> = snap
        .employees
        .iter()
        .filter(|e| e.department_id == Some(d.id))
        .map(|e| format!("{} ({})", e.name, e.title))
        .collect();
    let subs: Vec<_> = snap
        .departments
        .iter()
        .filter(|x| x.parent_id == Some(d.id))
        .map(|x| x.name.as_str())
        .collect();
    let lead = d
        .lead_id
        .and_then(|id| snap.employees.iter().find(|e| e.id == id))
        .map(|e| e.name.clone());
    let mut out = lang.pick(
        format!("{} has {}", d.name, people_count(people.len())),
        format!("{}有{}人", d.name, people.len()),
    );
    if !people.is_empty() {
        out.push_str(&lang.pick(
            format!(": {}", people.join(", ")),
            format!("：{}", people.join("、")),
        ));
    }
    out.push('.');
    if let Some(l) = lead {
        out.push_str(&lang.pick(format!(" Lead: {l}."), format!(" 负责人：{l}。")));
    }
    if !subs.is_empty() {
        out.push_str(&lang.pick(
            format!(" Sub-departments: {}.", subs.join(", ")),
            format!(" 下属部门：{}。", subs.join("、")),
        ));
    }
    out
}

/// The whole company: people and departments, then a line per department and the unassigned.
fn headcount(snap: &OrgSnapshot, lang: Language) -> String {
    let mut out = lang.pick(
        format!(
            "{} in {}.",
            people_count(snap.employees.len()),
            match snap.departments.len() {
                1 => "1 department".to_owned(),
                n => format!("{n} departments"),
            }
        ),
        format!(
            "公司共有{}人，{}个部门。",
            snap.employees.len(),
            snap.departments.len()
        ),
    );
    for d in &snap.departments {
        let n = snap
            .employees
            .iter()
            .filter(|e| e.department_id == Some(d.id))
            .count();
        out.push_str(&lang.pick(
            format!("\n· {}: {n}", d.name),
            format!("\n· {}：{n}人", d.name),
        ));
    }
    let unassigned = snap
        .employees
        .iter()
        .filter(|e| e.department_id.is_none())
        .count();
    if unassigned > 0 {
        out.push_str(&lang.pick(
            format!("\n· not in a department: {unassigned}"),
            format!("\n· 未分配部门：{unassigned}人"),
        ));
    }
    out
}

/// Pending tasks, open requirements, and the requirements held for the boss.
fn work_summary(lang: Language, tasks: &[TaskDto], requirements: &[RequirementDto]) -> String {
    let open = requirements
        .iter()
        .filter(|r| {
            !matches!(
                r.status,
                RequirementStatus::Done | RequirementStatus::Cancelled
            )
        })
        .count();
    let mut out = lang.pick(
        format!(
            "\nPending tasks: {}. Open requirements: {open}. Nothing is waiting for your approval.",
            tasks.len()
        ),
        format!(
            "\n待办任务：{}个。进行中的需求：{open}个。没有等待你审批的事项。",
            tasks.len()
        ),
    );
    // A requirement held for the boss's decision is theirs to move: name it.
    let waiting: Vec<&str> = requirements
        .iter()
        .filter(|r| r.status == RequirementStatus::WaitingForBoss)
        .map(|r| r.name.as_str())
        .collect();
    if !waiting.is_empty() {
        out.push_str(&lang.pick(
            format!(
                "\nWaiting for your decision (see the mailbox): {}.",
                waiting.join(", ")
            ),
            format!("\n等你决定的需求（见邮箱）：{}。", waiting.join("、")),
        ));
    }
    out
}
