//! Inviting a person through the secretary (seed 001): "add Lin as head of Product, she
//! approves Product's work", "邀请林做产品部负责人". The card says who joins, in what role
//! and for which department's work; confirming it invites them through the people
//! service, and Undo removes them again.

use super::actions::{Proposal, Undo};
use super::confirm::Applied;
use super::intent::Slots;
use super::service::{Outcome, Secretary};
use crate::org::{OrgError, OrgSnapshot};
use crate::people::{NewPerson, PersonDto};
use crate::types::*;

impl Secretary {
    /// The card for a new person, or the question to ask instead: who, and for which
    /// department when one was named but is not found.
    pub(super) fn invite_person(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        people: &[PersonDto],
        lang: Language,
    ) -> Outcome {
        let Some(name) = s.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) else {
            let example = super::text::invite_example(lang, snap);
            return Outcome::Say(lang.pick(
                format!("Whom should I invite? Say e.g. \"{example}\"."),
                format!("要邀请谁呢？比如“{example}”。"),
            ));
        };
        if let Some(p) = people.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
            return Outcome::Say(lang.pick(
                format!(
                    "{} is already in the company ({}). Change what they answer for in Settings → People.",
                    p.name, p.role
                ),
                format!("{}已经在公司里了（{}）。可以在“设置 → 成员”里修改其负责的范围。", p.name, p.role),
            ));
        }
        let department = match s.department.as_deref() {
            None => None,
            Some(d) => match self.department(Some(d), snap, lang) {
                Ok(d) => Some(d),
                Err(question) => return Outcome::Say(question),
            },
        };
        let role = s.role.clone().unwrap_or_default();
        let reply = match (department, lang) {
            (Some(d), Language::En) => format!(
                "I'll invite {name}{}; approvals for {}'s work will go to {name}.",
                as_role(&role, lang),
                d.name
            ),
            (Some(d), Language::ZhCn) => format!(
                "我来邀请{name}{}，以后{}的审批交给{name}。",
                as_role(&role, lang),
                d.name
            ),
            (None, _) => lang.pick(
                format!("I'll invite {name}{}.", as_role(&role, lang)),
                format!("我来邀请{name}{}。", as_role(&role, lang)),
            ),
        };
        Outcome::Propose(
            vec![Proposal::InvitePerson {
                name: name.to_owned(),
                role,
                department_id: department.map(|d| d.id),
                department_name: department.map(|d| d.name.clone()),
                policy: s.level,
            }],
            reply,
        )
    }

    /// Invites the person on the card; Undo removes them.
    pub(super) async fn apply_invite(&self, p: &Proposal) -> Result<Applied, OrgError> {
        let Proposal::InvitePerson {
            name,
            role,
            department_id,
            department_name,
            policy,
        } = p
        else {
            return Err(OrgError::InvalidInput("not an invitation".into()));
        };
        let person = self
            .people
            .invite(NewPerson {
                name: name.clone(),
                role: role.clone(),
                language: None,
                approval_policy: *policy,
                departments: department_id.iter().copied().collect(),
                employees: vec![],
            })
            .await?;
        let lang = match self.org.company().await {
            Ok(Some(c)) => c.language,
            _ => Language::En,
        };
        let diff = match lang {
            Language::En => {
                let duty = department_name
                    .as_deref()
                    .map(|d| format!(", answers for {d}"))
                    .unwrap_or_default();
                format!(
                    "+ {} ({}){duty}, approval policy {}",
                    person.name,
                    if person.role.is_empty() {
                        "no role given"
                    } else {
                        &person.role
                    },
                    person.approval_policy
                )
            }
            Language::ZhCn => {
                let duty = department_name
                    .as_deref()
                    .map(|d| format!("，负责{d}"))
                    .unwrap_or_default();
                let policy = match person.approval_policy {
                    ApprovalPolicy::Auto => "自动",
                    ApprovalPolicy::KeySteps => "关键步骤",
                    ApprovalPolicy::Manual => "手动",
                };
                format!(
                    "+ {}（{}）{duty}，审批策略：{policy}",
                    person.name,
                    if person.role.is_empty() {
                        "未说明角色"
                    } else {
                        &person.role
                    },
                )
            }
        };
        Ok((
            Some(Undo::RemovePerson {
                person_id: person.id,
            }),
            diff,
        ))
    }
}

/// ", as head of Product" / "担任产品部负责人", or nothing when no role was given.
fn as_role(role: &str, lang: Language) -> String {
    match (role.is_empty(), lang) {
        (true, _) => String::new(),
        (false, Language::En) => format!(" as {role}"),
        (false, Language::ZhCn) => format!("担任{role}"),
    }
}
