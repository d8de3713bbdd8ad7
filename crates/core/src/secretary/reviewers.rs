//! What the secretary proposes about requirements beyond opening one: who reviews it
//! ("make Dan the reviewer of the login page requirement"), which requirement a task
//! belongs to, and who works on a task with its assignee ("让李娜跟王强一起…",
//! "和整个团队").

use super::actions::Proposal;
use super::intent::{Slots, TEAM};
use super::service::{Outcome, Secretary};
use crate::org::{EmployeeDto, OrgSnapshot};
use crate::types::*;
use crate::work::RequirementDto;

/// Words the boss may use for the assignee's own team.
const TEAM_WORDS: &[&str] = &[
    TEAM,
    "团队",
    "整个团队",
    "the team",
    "whole team",
    "her team",
    "his team",
];

impl Secretary {
    /// The requirement the boss means: the one whose name (or description) holds the
    /// words, an exact name first; several or none become a question.
    pub(super) fn requirement<'a>(
        &self,
        words: Option<&str>,
        all: &'a [RequirementDto],
        lang: Language,
    ) -> Result<&'a RequirementDto, String> {
        let Some(words) = words.map(str::trim).filter(|w| !w.is_empty()) else {
            return Err(lang.pick("Which requirement?", "是哪个需求？"));
        };
        let w = words.to_lowercase();
        if let Some(r) = all.iter().find(|r| r.name.to_lowercase() == w) {
            return Ok(r);
        }
        let found: Vec<&RequirementDto> = all
            .iter()
            .filter(|r| {
                let (n, d) = (r.name.to_lowercase(), r.description.to_lowercase());
                n.contains(&w) || d.contains(&w) || w.contains(&n)
            })
            .collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(lang.pick(
                format!("I can't find a requirement about \"{words}\"."),
                format!("没有找到关于“{words}”的需求。"),
            )),
            many => {
                let names: Vec<&str> = many.iter().map(|r| r.name.as_str()).collect();
                Err(lang.pick(
                    format!(
                        "Several requirements match \"{words}\": {}. Which one?",
                        names.join(", ")
                    ),
                    format!("有几个需求符合“{words}”：{}。是哪一个？", names.join("、")),
                ))
            }
        }
    }

    /// "make Dan the reviewer of the login page requirement".
    pub(super) fn set_reviewer(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        all: &[RequirementDto],
        lang: Language,
    ) -> Outcome {
        let r = match self.requirement(s.requirement.as_deref(), all, lang) {
            Ok(r) => r,
            Err(q) => return Outcome::Say(q),
        };
        let e = match self.person(s.reviewer.as_deref().or(s.name.as_deref()), snap, lang) {
            Ok(e) => e,
            Err(q) => return Outcome::Say(q),
        };
        if r.reviewer_id == Some(e.id) {
            return Outcome::Say(lang.pick(
                format!("{} already reviews \"{}\".", e.name, r.name),
                format!("{}已经是“{}”的评审了。", e.name, r.name),
            ));
        }
        Outcome::Propose(
            vec![Proposal::SetReviewer {
                requirement_id: r.id,
                requirement_name: r.name.clone(),
                employee_id: e.id,
                name: e.name.clone(),
            }],
            lang.pick(
                format!("I'll make {} the reviewer of \"{}\".", e.name, r.name),
                format!("我来让{}担任“{}”的评审。", e.name, r.name),
            ),
        )
    }

    /// The people who work on a task with `lead`: named colleagues, or everyone else in
    /// the lead's department for "the team".
    pub(super) fn participants<'a>(
        &self,
        s: &Slots,
        lead: &EmployeeDto,
        snap: &'a OrgSnapshot,
        lang: Language,
    ) -> Result<Vec<&'a EmployeeDto>, String> {
        let mut out: Vec<&EmployeeDto> = Vec::new();
        for p in &s.participants {
            let team = TEAM_WORDS.contains(&p.trim().to_lowercase().as_str());
            let found: Vec<&EmployeeDto> = if team {
                let Some(dept) = lead.department_id else {
                    return Err(lang.pick(
                        format!(
                            "{} is in no department, so has no team to bring in.",
                            lead.name
                        ),
                        format!("{}不在任何部门，没有团队可以带。", lead.name),
                    ));
                };
                snap.employees
                    .iter()
                    .filter(|e| e.department_id == Some(dept))
                    .collect()
            } else {
                vec![self.person(Some(p), snap, lang)?]
            };
            for e in found {
                if e.id != lead.id && !out.iter().any(|x| x.id == e.id) {
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}
