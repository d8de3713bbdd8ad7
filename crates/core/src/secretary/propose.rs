//! The action cards the secretary proposes for one intent (hire, task, requirement,
//! department deletion, meeting), each resolved against the real company: a name that
//! matches nobody or several people becomes a question, never a guess.

use super::actions::Proposal;
use super::intent::Slots;
use super::service::{Outcome, Secretary};
use super::text::{Pick, next_name, pick_department};
use crate::org::{DepartmentDto, EmployeeDto, OrgSnapshot};
use crate::roles;
use crate::types::*;

impl Secretary {
    pub(super) fn hire(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        cards: &[roles::LibraryCard],
        lang: Language,
        taken: &mut Vec<String>,
    ) -> Outcome {
        let Some(role) = s.role.as_deref() else {
            return Outcome::Say(lang.pick("Which role should I hire for?", "要招什么岗位？"));
        };
        let dept = match s.department.as_deref() {
            Some(name) => match self.department(Some(name), snap, lang) {
                Ok(d) => Some(d),
                Err(q) => return Outcome::Say(q),
            },
            None if snap.departments.len() == 1 => snap.departments.first(),
            None if snap.departments.is_empty() => None,
            None => {
                let names: Vec<_> = snap.departments.iter().map(|d| d.name.as_str()).collect();
                return Outcome::Say(lang.pick(
                    format!(
                        "Which department should the new {role} join: {}?",
                        names.join(", ")
                    ),
                    format!("新的{role}要加入哪个部门：{}？", names.join("、")),
                ));
            }
        };
        let card = roles::library_card(cards, role);
        let title = match (card, lang) {
            (Some(c), Language::ZhCn) => c
                .card
                .name_zh
                .clone()
                .unwrap_or_else(|| c.card.name.clone()),
            (Some(c), Language::En) => c.card.name.clone(),
            (None, _) => role.to_owned(),
        };
        let role_card = card.map(|c| RoleOnCard::new(c, &s.role_fit, lang));
        let lead = dept
            .and_then(|d| d.lead_id)
            .and_then(|id| snap.employees.iter().find(|e| e.id == id));
        let count = s.count.unwrap_or(1).clamp(1, 10);
        let mut proposals = Vec::new();
        for i in 0..count {
            let name = match (&s.name, i) {
                (Some(n), 0) => n.clone(),
                _ => next_name(lang, taken),
            };
            taken.push(name.clone());
            let rc = role_card.clone().unwrap_or_default();
            proposals.push(Proposal::Hire {
                name,
                title: title.clone(),
                department_id: dept.map(|d| d.id),
                department_name: dept.map(|d| d.name.clone()),
                manager_id: lead.map(|e| e.id),
                manager_name: lead.map(|e| e.name.clone()),
                archetype: rc.archetype,
                skills: rc.skills,
                role_key: rc.key,
                why: rc.why,
                tools: rc.tools,
                unknown_tools: rc.unknown_tools,
                model: rc.model,
                temperature: rc.temperature,
            });
        }
        let why = role_card.and_then(|c| c.why);
        let say = hire_summary(lang, count, &title, dept.map(|d| d.name.as_str()), why);
        Outcome::Propose(proposals, say)
    }

    /// Letting someone go waits for the boss's confirmation like every card.
    pub(super) fn fire(&self, s: &Slots, snap: &OrgSnapshot, lang: Language) -> Outcome {
        match self.person(s.name.as_deref(), snap, lang) {
            Err(q) => Outcome::Say(q),
            Ok(e) => Outcome::Propose(
                vec![Proposal::Fire {
                    employee_id: e.id,
                    name: e.name.clone(),
                }],
                lang.pick(
                    format!(
                        "Firing {} can't be taken back lightly — please confirm.",
                        e.name
                    ),
                    format!("确定要辞退{}吗？请确认。", e.name),
                ),
            ),
        }
    }

    /// A new department, under the parent named if any.
    pub(super) fn create_department(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Language,
    ) -> Outcome {
        let Some(name) = s.department.as_deref().or(s.new_name.as_deref()) else {
            return Outcome::Say(lang.pick(
                "What should the new department be called?",
                "新部门叫什么名字？",
            ));
        };
        let parent = match s.target_department.as_deref() {
            None => None,
            Some(p) => match self.department(Some(p), snap, lang) {
                Ok(d) => Some(d),
                Err(q) => return Outcome::Say(q),
            },
        };
        Outcome::Propose(
            vec![Proposal::CreateDepartment {
                name: name.to_owned(),
                parent_id: parent.map(|d| d.id),
                parent_name: parent.map(|d| d.name.clone()),
            }],
            lang.pick(
                format!("I'll create the {name} department."),
                format!("我来新建{name}。"),
            ),
        )
    }

    pub(super) fn rename_department(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Language,
    ) -> Outcome {
        let d = match self.department(s.department.as_deref(), snap, lang) {
            Ok(d) => d,
            Err(q) => return Outcome::Say(q),
        };
        let Some(new_name) = s.new_name.as_deref() else {
            return Outcome::Say(lang.pick("What should it be called?", "要改成什么名字？"));
        };
        Outcome::Propose(
            vec![Proposal::RenameDepartment {
                department_id: d.id,
                old_name: d.name.clone(),
                new_name: new_name.to_owned(),
            }],
            lang.pick(
                format!("I'll rename {} to {new_name}.", d.name),
                format!("我来把{}改名为{new_name}。", d.name),
            ),
        )
    }

    /// Moves the person named, and any named with them ("把李娜和王强调到市场部"), to
    /// the target department: one card each.
    pub(super) fn transfer(&self, s: &Slots, snap: &OrgSnapshot, lang: Language) -> Outcome {
        let names = std::iter::once(s.name.as_deref())
            .chain(s.participants.iter().map(|p| Some(p.as_str())));
        let mut people = Vec::new();
        for name in names {
            match self.person(name, snap, lang) {
                Ok(e) => people.push(e),
                Err(q) => return Outcome::Say(q),
            }
        }
        let target = s.target_department.as_deref().or(s.department.as_deref());
        let d = match self.department(target, snap, lang) {
            Ok(d) => d,
            Err(q) => return Outcome::Say(q),
        };
        let mut cards = Vec::new();
        let mut moved = Vec::new();
        for e in people {
            if e.department_id == Some(d.id) {
                if s.participants.is_empty() {
                    return Outcome::Say(lang.pick(
                        format!("{} is already in {}.", e.name, d.name),
                        format!("{}已经在{}了。", e.name, d.name),
                    ));
                }
                continue;
            }
            moved.push(e.name.clone());
            cards.push(Proposal::Transfer {
                employee_id: e.id,
                name: e.name.clone(),
                department_id: d.id,
                department_name: d.name.clone(),
            });
        }
        if cards.is_empty() {
            return Outcome::Say(lang.pick(
                format!("They are all in {} already.", d.name),
                format!("他们都已经在{}了。", d.name),
            ));
        }
        Outcome::Propose(
            cards,
            lang.pick(
                format!("I'll move {} to {}.", moved.join(", "), d.name),
                format!("我来把{}调到{}。", moved.join("、"), d.name),
            ),
        )
    }

    /// A task for a person, or for a department (its lead takes it).
    pub(super) fn assign_task(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        requirements: &[crate::work::RequirementDto],
        cards: &[roles::LibraryCard],
        lang: Language,
    ) -> Outcome {
        let Some(description) = s.description.as_deref().filter(|d| !d.trim().is_empty()) else {
            return Outcome::Say(lang.pick("What should the task be?", "要安排什么任务？"));
        };
        let description = description.trim();
        let who = s.assignee.as_deref().or(s.name.as_deref());
        let (owner, fit) = match self.task_owner(who, description, snap, cards, lang) {
            Ok(found) => found,
            Err(q) => return Outcome::Say(q),
        };
        let requirement = match s.requirement.as_deref() {
            None => None,
            Some(words) => match self.requirement(Some(words), requirements, lang) {
                Ok(r) => Some(r),
                Err(q) => return Outcome::Say(q),
            },
        };
        let helpers = match self.participants(s, owner, snap, lang) {
            Ok(h) => h,
            Err(q) => return Outcome::Say(q),
        };
        let helper_names: Vec<String> = helpers.iter().map(|e| e.name.clone()).collect();
        let mut say = task_reply(owner, description, &helper_names, requirement, lang);
        if !fit.is_empty() {
            // Given to a department, the task went to the member whose card fits it.
            say.push_str(&lang.pick(
                format!(
                    " {} ({}) fits it best: {}.",
                    owner.name,
                    owner.title,
                    fit.join(", ")
                ),
                format!(
                    "{}（{}）最对口：{}。",
                    owner.name,
                    owner.title,
                    fit.join("、")
                ),
            ));
        }
        Outcome::Propose(
            vec![Proposal::AssignTask {
                employee_id: owner.id,
                name: owner.name.clone(),
                description: description.to_owned(),
                requirement_id: requirement.map(|r| r.id),
                requirement_name: requirement.map(|r| r.name.clone()),
                participant_ids: helpers.iter().map(|e| e.id).collect(),
                participant_names: helper_names,
            }],
            say,
        )
    }

    /// Who takes a task: the person named, or — "ask Engineering to …" — the department's
    /// lead, else its most willing member. Otherwise the question to ask.
    /// Who takes a task given to `who`: that person, or for a department
    /// [`department_taker`].
    fn task_owner<'a>(
        &self,
        who: Option<&str>,
        task: &str,
        snap: &'a OrgSnapshot,
        cards: &[roles::LibraryCard],
        lang: Language,
    ) -> Result<(&'a EmployeeDto, Vec<String>), String> {
        let question = match self.person(who, snap, lang) {
            Ok(e) => return Ok((e, vec![])),
            Err(q) => q,
        };
        let dept = who.and_then(|w| match pick_department(w, &snap.departments) {
            Pick::One(d) => Some(d),
            _ => None,
        });
        let Some(d) = dept else {
            return Err(question);
        };
        department_taker(d, task, snap, cards, lang)
    }

    /// A requirement (project) in a department, with its own group chat.
    pub(super) fn create_requirement(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Language,
    ) -> Outcome {
        let Some(description) = s
            .description
            .as_deref()
            .or(s.topic.as_deref())
            .filter(|d| !d.trim().is_empty())
        else {
            return Outcome::Say(
                lang.pick("What is the requirement about?", "这个需求是关于什么的？"),
            );
        };
        // "… for the login page in Engineering": the department named at the end owns it.
        let (description, named) = match s.department {
            Some(_) => (description.trim().to_owned(), None),
            None => split_department(description, snap),
        };
        let description = description.as_str();
        let dept = match s.department.as_deref() {
            Some(name) => match self.department(Some(name), snap, lang) {
                Ok(d) => Some(d),
                Err(q) => return Outcome::Say(q),
            },
            None if named.is_some() => named,
            None if snap.departments.len() <= 1 => snap.departments.first(),
            None => {
                let names: Vec<_> = snap.departments.iter().map(|d| d.name.as_str()).collect();
                return Outcome::Say(lang.pick(
                    format!("Which department owns it: {}?", names.join(", ")),
                    format!("这个需求归哪个部门：{}？", names.join("、")),
                ));
            }
        };
        let reviewer = match s.reviewer.as_deref() {
            None => None,
            Some(who) => match self.person(Some(who), snap, lang) {
                Ok(e) => Some(e),
                Err(q) => return Outcome::Say(q),
            },
        };
        let name: String = description.trim().chars().take(60).collect();
        let mut say = lang.pick(
            format!("I'll open a requirement \"{name}\" with its own group chat."),
            format!("我来新建需求“{name}”，并为它建一个群聊。"),
        );
        if let Some(e) = reviewer {
            say.push_str(&lang.pick(
                format!(" {} reviews its deliverables.", e.name),
                format!("由{}评审交付物。", e.name),
            ));
        }
        Outcome::Propose(
            vec![Proposal::CreateRequirement {
                name: name.clone(),
                description: description.trim().to_owned(),
                department_id: dept.map(|d| d.id),
                department_name: dept.map(|d| d.name.clone()),
                reviewer_id: reviewer.map(|e| e.id),
                reviewer_name: reviewer.map(|e| e.name.clone()),
            }],
            say,
        )
    }

    pub(super) fn delete_department(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Language,
    ) -> Outcome {
        let d = match self.department(s.department.as_deref(), snap, lang) {
            Ok(d) => d,
            Err(q) => return Outcome::Say(q),
        };
        let headcount = snap
            .employees
            .iter()
            .filter(|e| e.department_id == Some(d.id))
            .count();
        let children = snap
            .departments
            .iter()
            .filter(|x| x.parent_id == Some(d.id))
            .count();
        let destination = match s.target_department.as_deref() {
            None => None,
            Some(t) => match self.department(Some(t), snap, lang) {
                Ok(t) if t.id == d.id => {
                    return Outcome::Say(lang.pick(
                        format!(
                            "{}'s people need to go to another department. Which one?",
                            d.name
                        ),
                        format!("{}的人需要调到别的部门，调到哪个？", d.name),
                    ));
                }
                Ok(t) => Some(t),
                Err(q) => return Outcome::Say(q),
            },
        };
        if destination.is_none() && (headcount > 0 || children > 0) {
            return Outcome::Say(where_should_they_go(d, snap, headcount, children, lang));
        }
        Outcome::Propose(
            vec![Proposal::DeleteDepartment {
                department_id: d.id,
                name: d.name.clone(),
                destination_id: destination.map(|t| t.id),
                destination_name: destination.map(|t| t.name.clone()),
                headcount: u32::try_from(headcount).unwrap_or(u32::MAX),
            }],
            confirm_delete(
                d,
                destination,
                headcount > 0 || children > 0,
                headcount,
                lang,
            ),
        )
    }

    /// A meeting needs a topic and at least two people; a department named among the
    /// participants brings all its members.
    pub(super) fn convene_meeting(&self, s: &Slots, snap: &OrgSnapshot, lang: Language) -> Outcome {
        let Some(topic) = s.topic.as_deref().or(s.description.as_deref()) else {
            return Outcome::Say(
                lang.pick("What should the meeting be about?", "会议要讨论什么？"),
            );
        };
        let mut wanted: Vec<&str> = s.participants.iter().map(String::as_str).collect();
        if let Some(d) = s.department.as_deref() {
            wanted.push(d);
        }
        let mut people: Vec<&EmployeeDto> = Vec::new();
        for name in wanted {
            let by_department = snap.departments.iter().find(|d| {
                d.name.eq_ignore_ascii_case(name)
                    || d.name.trim_end_matches('部') == name.trim_end_matches('部')
            });
            // "convene 工程部" where the department is "Engineering": the same department
            // by its other name, when only one fits.
            let by_department = by_department.or_else(|| {
                (!self.is_person(name, snap))
                    .then(|| match pick_department(name, &snap.departments) {
                        Pick::One(d) => Some(d),
                        _ => None,
                    })
                    .flatten()
            });
            let found: Vec<&EmployeeDto> = match by_department {
                Some(d) => snap
                    .employees
                    .iter()
                    .filter(|e| e.department_id == Some(d.id))
                    .collect(),
                None => match self.person(Some(name), snap, lang) {
                    Ok(e) => vec![e],
                    Err(q) => return Outcome::Say(q),
                },
            };
            for e in found {
                if !people.iter().any(|p| p.id == e.id) {
                    people.push(e);
                }
            }
        }
        if people.len() < 2 {
            return Outcome::Say(lang.pick(
                format!(
                    "Who should meet about \"{topic}\"? Name at least two people or a department."
                ),
                format!("“{topic}”这个会要叫上谁？请说出至少两个人或一个部门。"),
            ));
        }
        let names: Vec<String> = people.iter().map(|e| e.name.clone()).collect();
        Outcome::Propose(
            vec![Proposal::ConveneMeeting {
                topic: topic.to_owned(),
                participant_ids: people.iter().map(|e| e.id).collect(),
                participant_names: names.clone(),
            }],
            lang.pick(
                format!(
                    "I'll call a meeting on \"{topic}\" with {}.",
                    names.join(", ")
                ),
                format!("我来召集{}开会讨论“{topic}”。", names.join("、")),
            ),
        )
    }
}

/// What the secretary says about a task card: who takes it, who helps, which requirement.
fn task_reply(
    owner: &EmployeeDto,
    description: &str,
    helper_names: &[String],
    requirement: Option<&crate::work::RequirementDto>,
    lang: Language,
) -> String {
    let mut say = lang.pick(
        format!("I'll give {} the task: {description}.", owner.name),
        format!("我来把这个任务交给{}：{description}。", owner.name),
    );
    if !helper_names.is_empty() {
        say.push_str(&lang.pick(
            format!(" {} will work on it with them.", helper_names.join(", ")),
            format!("{}会和{}一起做。", helper_names.join("、"), owner.name),
        ));
    }
    if let Some(r) = requirement {
        say.push_str(&lang.pick(
            format!(" It is part of the requirement \"{}\".", r.name),
            format!("这个任务属于需求“{}”。", r.name),
        ));
    }
    say
}

/// Who in department `d` takes a task given to the department: the member whose role
/// card fits `task` best (with the words that fit), else its lead, else its most willing
/// member.
fn department_taker<'a>(
    d: &DepartmentDto,
    task: &str,
    snap: &'a OrgSnapshot,
    cards: &[roles::LibraryCard],
    lang: Language,
) -> Result<(&'a EmployeeDto, Vec<String>), String> {
    let members: Vec<(&EmployeeDto, &roles::LibraryCard)> = snap
        .employees
        .iter()
        .filter(|e| e.department_id == Some(d.id))
        .filter_map(|e| roles::library_card(cards, &e.title).map(|c| (e, c)))
        .collect();
    if let Some((e, fit)) = roles::best_for_task(task, &[d.name.as_str()], &members) {
        return Ok((*e, fit.words));
    }
    if let Some(lead) = d
        .lead_id
        .and_then(|id| snap.employees.iter().find(|e| e.id == id))
    {
        return Ok((lead, vec![]));
    }
    // No lead: whoever is most willing to take work on (their archetype's tendency,
    // SPEC §4), the longest-serving among equals.
    snap.employees
        .iter()
        .filter(|e| e.department_id == Some(d.id))
        .max_by(|a, b| {
            willingness(a)
                .total_cmp(&willingness(b))
                .then(b.id.cmp(&a.id))
        })
        .map(|e| (e, vec![]))
        .ok_or_else(|| {
            lang.pick(
                format!("{} has nobody in it yet to take the task.", d.name),
                format!("{}还没有人，这个任务暂时没人能接。", d.name),
            )
        })
}

fn willingness(e: &EmployeeDto) -> f32 {
    crate::mind::archetypes::profile(e.archetype).task_willingness
}

/// A description that ends by naming a department ("the login page in Engineering",
/// "… for the Design department"): the description without it, and that department.
fn split_department<'a>(
    description: &str,
    snap: &'a OrgSnapshot,
) -> (String, Option<&'a crate::org::DepartmentDto>) {
    let trimmed = description.trim();
    let lower = trimmed.to_lowercase();
    let mut departments: Vec<&crate::org::DepartmentDto> = snap.departments.iter().collect();
    // Longest names first: "Product Design" before "Design".
    departments.sort_by_key(|d| std::cmp::Reverse(d.name.chars().count()));
    for d in departments {
        let name = d.name.to_lowercase();
        for tail in [
            format!(" in the {name} department"),
            format!(" for the {name} department"),
            format!(" in {name}"),
            format!(" for {name}"),
        ] {
            if let Some(head) = lower.strip_suffix(&tail) {
                let kept: String = trimmed.chars().take(head.chars().count()).collect();
                if !kept.trim().is_empty() {
                    return (kept.trim().to_owned(), Some(d));
                }
            }
        }
    }
    (trimmed.to_owned(), None)
}

/// The question when a department still holds people or sub-departments and the boss did
/// not say where they go.
fn where_should_they_go(
    d: &DepartmentDto,
    snap: &OrgSnapshot,
    headcount: usize,
    children: usize,
    lang: Language,
) -> String {
    let others: Vec<&str> = snap
        .departments
        .iter()
        .filter(|x| x.id != d.id)
        .map(|x| x.name.as_str())
        .collect();
    lang.pick(
        format!(
            "{} still has {headcount} people and {children} sub-departments. Where should they go? Say e.g. \"delete {} and move its people to {}\".",
            d.name,
            d.name,
            others.first().copied().unwrap_or("Sales"),
        ),
        format!(
            "{}还有{headcount}个人和{children}个下级部门，要调到哪里？比如“删除{}，人员调到{}”。",
            d.name,
            d.name,
            others.first().copied().unwrap_or("销售部"),
        ),
    )
}

/// What the secretary asks the boss to confirm for a department's deletion.
fn confirm_delete(
    d: &DepartmentDto,
    destination: Option<&DepartmentDto>,
    moving: bool,
    headcount: usize,
    lang: Language,
) -> String {
    match destination {
        Some(t) if moving => lang.pick(
            format!(
                "Delete {} and move its {headcount} people to {}? Please confirm.",
                d.name, t.name
            ),
            format!(
                "确定删除{}，并把{headcount}个人调到{}吗？请确认。",
                d.name, t.name
            ),
        ),
        _ => lang.pick(
            format!("Delete the {} department? Please confirm.", d.name),
            format!("确定删除{}吗？请确认。", d.name),
        ),
    }
}

/// The line above the hire cards, with why the role was picked when a card was fitted.
fn hire_summary(
    lang: Language,
    count: u32,
    title: &str,
    dept: Option<&str>,
    why: Option<String>,
) -> String {
    let say = match (lang, dept) {
        (Language::En, Some(d)) => {
            format!("Here is my proposal for {count} × {title} in {d}. Confirm, edit or cancel.")
        }
        (Language::En, None) => {
            format!("Here is my proposal for {count} × {title}. Confirm, edit or cancel.")
        }
        (Language::ZhCn, Some(d)) => {
            format!("为{d}招聘{count}名{title}的方案如下，请确认、修改或取消。")
        }
        (Language::ZhCn, None) => {
            format!("招聘{count}名{title}的方案如下，请确认、修改或取消。")
        }
    };
    match why {
        Some(why) => format!("{say}\n{why}"),
        None => say,
    }
}

/// What a hire's card shows of the role card it starts from.
#[derive(Clone, Debug)]
struct RoleOnCard {
    key: Option<String>,
    archetype: Archetype,
    skills: Vec<String>,
    tools: Vec<String>,
    unknown_tools: Vec<String>,
    model: Option<String>,
    temperature: Option<f64>,
    why: Option<String>,
}

impl Default for RoleOnCard {
    fn default() -> Self {
        Self {
            key: None,
            archetype: roles::FALLBACK_ARCHETYPE,
            skills: vec![],
            tools: vec![],
            unknown_tools: vec![],
            model: None,
            temperature: None,
            why: None,
        }
    }
}

impl RoleOnCard {
    /// `fit`: the words that picked the card (empty when the boss named the role).
    fn new(c: &roles::LibraryCard, fit: &[String], lang: Language) -> Self {
        let (tools, unknown_tools) = roles::split_tools(&c.card.tools);
        let why = (!fit.is_empty()).then(|| {
            let name = match lang {
                Language::ZhCn => c.card.name_zh.as_deref().unwrap_or(&c.card.name),
                Language::En => &c.card.name,
            };
            let words: Vec<String> = fit.iter().map(|w| format!("“{w}”")).collect();
            lang.pick(
                format!(
                    "Why {name}: {} in your message fit its role card — “{}”",
                    words.join(", "),
                    c.card.description
                ),
                format!(
                    "为什么是{name}：你说的{}与这张角色卡相符——“{}”",
                    words.join("、"),
                    c.card.description
                ),
            )
        });
        Self {
            key: Some(c.key.clone()),
            archetype: c.card.archetype.unwrap_or(roles::FALLBACK_ARCHETYPE),
            skills: c.card.skills_in(lang).to_vec(),
            tools,
            unknown_tools,
            model: c.card.model.clone(),
            temperature: c.card.temperature,
            why,
        }
    }
}
