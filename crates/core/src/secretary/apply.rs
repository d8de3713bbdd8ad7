//! Applying, cancelling and undoing the secretary's action cards — always through the
//! org service and the work service, and never twice: each transition claims the card.

use crate::work::TaskOrigin;
use chrono::{Duration as ChronoDuration, Utc};
use cubicle_store::entity::secretary_action;
use cubicle_store::{DbErr, secretary as q};
use sea_orm::ActiveEnum;
use sea_orm::ActiveValue::Set;
use sea_orm::IntoActiveModel;

use super::actions::*;
use super::service::{Secretary, SecretaryError, SecretaryResult, action_dto};
use crate::org::OrgError;
use crate::org::{
    DeleteDepartment, FireEmployee, MoveEmployee, NewDepartment, NewEmployee, RenameDepartment,
    SetBudget,
};
use crate::types::*;

/// What applying a card left: how to undo it (when it can be) and the diff it shows.
pub(super) type Applied = (Option<Undo>, String);

impl Secretary {
    pub async fn confirm(
        &self,
        action_id: i32,
        edits: Option<HireEdits>,
    ) -> SecretaryResult<ActionDto> {
        let row = self.require(action_id, ActionStatus::Proposed).await?;
        // Claim it first: of two clicks racing on Confirm, exactly one applies it.
        self.claim(action_id, ActionStatus::Proposed, ActionStatus::InProgress)
            .await?;
        let mut proposal: Proposal = serde_json::from_value(row.proposal.clone())
            .map_err(|e| SecretaryError::Storage(DbErr::Custom(format!("bad proposal: {e}"))))?;
        if let (
            Some(ed),
            Proposal::Hire {
                name,
                title,
                department_id,
                department_name,
                manager_id,
                manager_name,
                archetype,
                ..
            },
        ) = (edits, &mut proposal)
        {
            let snap = self.org.snapshot().await?;
            if let Some(v) = ed.name {
                *name = v;
            }
            if let Some(v) = ed.title {
                *title = v;
            }
            // The card keeps names for display: they follow the edited ids.
            if let Some(id) = ed.department_id {
                *department_id = Some(id);
                *department_name = snap
                    .departments
                    .iter()
                    .find(|d| d.id == id)
                    .map(|d| d.name.clone());
            }
            if let Some(id) = ed.manager_id {
                *manager_id = Some(id);
                *manager_name = snap
                    .employees
                    .iter()
                    .find(|e| e.id == id)
                    .map(|e| e.name.clone());
            }
            if let Some(v) = ed.archetype {
                *archetype = v;
            }
        }
        let trace = q::find_message(&self.db, row.message_id)
            .await?
            .and_then(|m| m.trace_id);
        let applied = self.apply(&proposal, trace).await;
        let mut am = row.into_active_model();
        am.proposal = Set(serde_json::to_value(&proposal).unwrap_or_default());
        match applied {
            Ok((undo, diff)) => {
                am.status = Set(ActionStatus::Applied);
                am.diff = Set(Some(diff));
                am.undo_until = Set(undo
                    .as_ref()
                    .map(|_| Utc::now() + ChronoDuration::minutes(UNDO_WINDOW_MINUTES)));
                am.undo = Set(undo.map(|u| serde_json::to_value(u).unwrap_or_default()));
                am.error = Set(None);
            }
            Err(e) => {
                am.status = Set(ActionStatus::Failed);
                am.error = Set(Some(e.to_string()));
            }
        }
        let row = q::update_action(&self.db, am).await?;
        Ok(action_dto(&row))
    }

    pub async fn cancel(&self, action_id: i32) -> SecretaryResult<ActionDto> {
        self.require(action_id, ActionStatus::Proposed).await?;
        self.claim(action_id, ActionStatus::Proposed, ActionStatus::Cancelled)
            .await?;
        let row = self.require(action_id, ActionStatus::Cancelled).await?;
        Ok(action_dto(&row))
    }

    pub async fn undo(&self, action_id: i32) -> SecretaryResult<ActionDto> {
        let row = self.require(action_id, ActionStatus::Applied).await?;
        let (Some(undo), Some(until)) = (row.undo.clone(), row.undo_until) else {
            return Err(SecretaryError::NotUndoable);
        };
        if Utc::now() > until {
            return Err(SecretaryError::UndoExpired);
        }
        let undo: Undo = serde_json::from_value(undo)
            .map_err(|e| SecretaryError::Storage(DbErr::Custom(format!("bad undo: {e}"))))?;
        self.claim(action_id, ActionStatus::Applied, ActionStatus::InProgress)
            .await?;
        if let Err(e) = self.reverse(undo).await {
            // Nothing was reversed: the action stays applied (and undoable while time lasts).
            q::transition_action(
                &self.db,
                action_id,
                ActionStatus::InProgress,
                ActionStatus::Applied,
            )
            .await?;
            return Err(e.into());
        }
        let mut am = row.into_active_model();
        am.status = Set(ActionStatus::Undone);
        Ok(action_dto(&q::update_action(&self.db, am).await?))
    }

    async fn claim(&self, id: i32, from: ActionStatus, to: ActionStatus) -> SecretaryResult<()> {
        if q::transition_action(&self.db, id, from, to).await? {
            Ok(())
        } else {
            // Another caller moved it first: it is being handled.
            Err(SecretaryError::WrongStatus {
                id,
                status: ActionStatus::InProgress,
                expected: from,
            })
        }
    }

    async fn require(
        &self,
        id: i32,
        expected: ActionStatus,
    ) -> SecretaryResult<secretary_action::Model> {
        let row = q::find_action(&self.db, id)
            .await?
            .ok_or(SecretaryError::NoAction(id))?;
        if row.status != expected {
            return Err(SecretaryError::WrongStatus {
                id,
                status: row.status,
                expected,
            });
        }
        Ok(row)
    }

    /// The company's language: the change lines a card shows are written in it.
    async fn diff_language(&self) -> Language {
        match self.org.company().await {
            Ok(Some(c)) => c.language,
            _ => Language::En,
        }
    }

    /// A role title as the company's language says it: the role card's Chinese name in a
    /// Chinese company when the card has one, else the title as it is.
    async fn title_in(&self, title: &str, lang: Language) -> String {
        if lang == Language::En {
            return title.to_owned();
        }
        let cards = crate::roles::library(&self.db).await.unwrap_or_default();
        cards
            .iter()
            .find(|c| c.card.name.eq_ignore_ascii_case(title.trim()))
            .and_then(|c| c.card.name_zh.clone())
            .unwrap_or_else(|| title.to_owned())
    }

    /// Applies a proposal through the org and work services: how to undo it (when it
    /// can be) and the diff its card shows.
    async fn apply(&self, p: &Proposal, trace: Option<String>) -> Result<Applied, OrgError> {
        match p {
            Proposal::Hire { .. } => self.apply_hire(p).await,
            Proposal::Fire { employee_id, name } => self.apply_fire(*employee_id, name).await,
            Proposal::Transfer {
                employee_id,
                name,
                department_id,
                department_name,
            } => {
                self.apply_transfer(*employee_id, name, *department_id, department_name)
                    .await
            }
            Proposal::CreateDepartment {
                name,
                parent_id,
                parent_name,
            } => {
                self.apply_create_department(name, *parent_id, parent_name.as_deref())
                    .await
            }
            Proposal::RenameDepartment {
                department_id,
                old_name,
                new_name,
            } => {
                self.apply_rename_department(*department_id, old_name, new_name)
                    .await
            }
            Proposal::AssignTask { .. } => self.apply_task(p, trace).await,
            Proposal::SetReviewer {
                requirement_id,
                requirement_name,
                employee_id,
                name,
            } => {
                let reviewer = (*employee_id, name.as_str());
                self.apply_set_reviewer(*requirement_id, requirement_name, reviewer)
                    .await
            }
            Proposal::CreateRequirement { .. } => self.apply_create_requirement(p).await,
            Proposal::InvitePerson { .. } => self.apply_invite(p).await,
            Proposal::DeleteDepartment {
                department_id,
                name,
                destination_id,
                destination_name,
                headcount,
            } => {
                let to = destination_id.zip(destination_name.as_deref());
                self.apply_delete_department(*department_id, name, to, *headcount)
                    .await
            }
            Proposal::ConveneMeeting {
                topic,
                participant_ids,
                participant_names,
            } => {
                self.apply_convene(topic, participant_ids, participant_names, trace)
                    .await
            }
            Proposal::SetPolicy {
                level,
                daily_budget_usd,
            } => self.apply_set_policy(*level, *daily_budget_usd).await,
        }
    }

    /// Hires them, and their department's chat hears them introduce themselves.
    async fn apply_hire(&self, p: &Proposal) -> Result<Applied, OrgError> {
        let Proposal::Hire {
            name,
            title,
            department_id,
            department_name,
            manager_id,
            manager_name,
            archetype,
            role_key,
            ..
        } = p
        else {
            return Err(OrgError::InvalidInput("not a hire".into()));
        };
        let e = self
            .org
            .hire_as(
                NewEmployee {
                    name: name.clone(),
                    title: title.clone(),
                    department_id: *department_id,
                    manager_id: *manager_id,
                    archetype: Some(*archetype),
                },
                role_key.as_deref(),
            )
            .await?;
        if let Err(err) = self.welcome(&e).await {
            tracing::warn!(error = %err, employee = e.id, "could not greet the new hire in their department chat");
        }
        let lang = self.diff_language().await;
        let title = self.title_in(&e.title, lang).await;
        let mut diff = lang.pick(
            format!("+1 {title} ({})", e.name),
            format!("+1 {title}（{}）", e.name),
        );
        if let Some(d) = department_name {
            diff.push_str(&format!(" → {d}"));
        }
        if let (Some(_), Some(m)) = (manager_id, manager_name) {
            diff.push_str(&lang.pick(format!(", reports to {m}"), format!("，汇报给{m}")));
        }
        Ok((Some(Undo::RemoveHire { employee_id: e.id }), diff))
    }

    /// Fires them, remembering whom they managed and what they led, for the undo.
    async fn apply_fire(&self, employee_id: i32, name: &str) -> Result<Applied, OrgError> {
        let snap = self.org.snapshot().await?;
        let reports = snap
            .employees
            .iter()
            .filter(|e| e.manager_id == Some(employee_id))
            .map(|e| e.id)
            .collect();
        let led_departments = snap
            .departments
            .iter()
            .filter(|d| d.lead_id == Some(employee_id))
            .map(|d| d.id)
            .collect();
        self.org.fire(FireEmployee { employee_id }).await?;
        let undo = Undo::Unfire {
            employee_id,
            reports,
            led_departments,
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("−1 {name} (record kept)"),
                format!("−1 {name}（保留记录）"),
            ),
        ))
    }

    async fn apply_transfer(
        &self,
        employee_id: i32,
        name: &str,
        department_id: i32,
        department_name: &str,
    ) -> Result<Applied, OrgError> {
        let snap = self.org.snapshot().await?;
        let from = snap
            .employees
            .iter()
            .find(|e| e.id == employee_id)
            .and_then(|e| e.department_id);
        self.org
            .move_employee(MoveEmployee {
                employee_id,
                department_id: Some(department_id),
            })
            .await?;
        let from_name = from
            .and_then(|id| snap.departments.iter().find(|d| d.id == id))
            .map_or("—", |d| d.name.as_str());
        let undo = Undo::MoveBack {
            employee_id,
            department_id: from,
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("{name}: {from_name} → {department_name}"),
                format!("{name}：{from_name} → {department_name}"),
            ),
        ))
    }

    async fn apply_create_department(
        &self,
        name: &str,
        parent_id: Option<i32>,
        parent_name: Option<&str>,
    ) -> Result<Applied, OrgError> {
        let d = self
            .org
            .create_department(NewDepartment {
                name: name.to_owned(),
                parent_id,
                mission: None,
            })
            .await?;
        let lang = self.diff_language().await;
        let diff = match (parent_name, lang) {
            (Some(p), Language::En) => format!("+ department {} (in {p})", d.name),
            (None, Language::En) => format!("+ department {}", d.name),
            (Some(p), Language::ZhCn) => format!("+ 部门 {}（隶属{p}）", d.name),
            (None, Language::ZhCn) => format!("+ 部门 {}", d.name),
        };
        let undo = Undo::DeleteDepartment {
            department_id: d.id,
        };
        Ok((Some(undo), diff))
    }

    async fn apply_rename_department(
        &self,
        department_id: i32,
        old_name: &str,
        new_name: &str,
    ) -> Result<Applied, OrgError> {
        self.org
            .rename_department(RenameDepartment {
                id: department_id,
                name: new_name.to_owned(),
            })
            .await?;
        let undo = Undo::RenameBack {
            department_id,
            name: old_name.to_owned(),
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("department {old_name} → {new_name}"),
                format!("部门 {old_name} → {new_name}"),
            ),
        ))
    }

    async fn apply_set_reviewer(
        &self,
        requirement_id: i32,
        requirement_name: &str,
        (employee_id, name): (i32, &str),
    ) -> Result<Applied, OrgError> {
        let before = cubicle_store::work::find_requirement(&self.db, requirement_id)
            .await?
            .ok_or_else(|| {
                OrgError::InvalidInput(format!("requirement {requirement_id} is gone"))
            })?;
        self.write_reviewer(requirement_id, Some(employee_id))
            .await?;
        let undo = Undo::RestoreReviewer {
            requirement_id,
            reviewer_id: before.reviewer_id,
        };
        let lang = self.diff_language().await;
        Ok((
            Some(undo),
            lang.pick(
                format!("reviewer of \"{requirement_name}\" → {name}"),
                format!("“{requirement_name}”的评审人 → {name}"),
            ),
        ))
    }

    /// Opens the requirement, which starts itself: an owner and a planning task, when
    /// anyone can own it.
    async fn apply_create_requirement(&self, p: &Proposal) -> Result<Applied, OrgError> {
        let Proposal::CreateRequirement {
            name,
            description,
            department_id,
            department_name,
            reviewer_id,
            reviewer_name,
        } = p
        else {
            return Err(OrgError::InvalidInput("not a requirement".into()));
        };
        let r = self
            .work
            .open_requirement(name, description, *department_id)
            .await?;
        if reviewer_id.is_some() {
            self.write_reviewer(r.id, *reviewer_id).await?;
        }
        let lang = self.diff_language().await;
        let mut diff = match (department_name, lang) {
            (Some(d), Language::En) => {
                format!("+ requirement \"{name}\" in {d}, with its group chat")
            }
            (None, Language::En) => format!("+ requirement \"{name}\", with its group chat"),
            (Some(d), Language::ZhCn) => format!("+ 需求“{name}”（{d}），附带群聊"),
            (None, Language::ZhCn) => format!("+ 需求“{name}”，附带群聊"),
        };
        if let Some(who) = reviewer_name {
            diff.push_str(&lang.pick(format!(", reviewed by {who}"), format!("，由{who}评审")));
        }
        if let Some(owner) = r.owner_id
            && let Some(e) = cubicle_store::org::find_employee(&self.db, owner).await?
        {
            diff.push_str(&lang.pick(
                format!("; {} plans it", e.name),
                format!("；{}负责规划", e.name),
            ));
        }
        let undo = Undo::RemoveRequirement {
            requirement_id: r.id,
            chat_id: r.chat_id,
        };
        Ok((Some(undo), diff))
    }

    /// Deletes it, keeping a record (its chat included) to restore it from.
    async fn apply_delete_department(
        &self,
        department_id: i32,
        name: &str,
        destination: Option<(i32, &str)>,
        headcount: u32,
    ) -> Result<Applied, OrgError> {
        let chat_id = self
            .chats
            .find_department_chat(department_id)
            .await?
            .map(|c| c.id);
        let record = self.org.deletion_record(department_id, chat_id).await?;
        self.org
            .delete_department(DeleteDepartment {
                id: department_id,
                reassign_to: destination.map(|(id, _)| id),
            })
            .await?;
        let lang = self.diff_language().await;
        let diff = match (destination, lang) {
            (Some((_, to)), Language::En) if headcount > 0 || !record.children.is_empty() => {
                format!("− department {name}; its {headcount} people → {to}")
            }
            (Some((_, to)), Language::ZhCn) if headcount > 0 || !record.children.is_empty() => {
                format!("− 部门 {name}；其{headcount}人 → {to}")
            }
            (_, Language::En) => format!("− department {name}"),
            (_, Language::ZhCn) => format!("− 部门 {name}"),
        };
        Ok((Some(Undo::RestoreDepartment { record }), diff))
    }

    /// A moderated meeting (SPEC §9), rule-based unless the boss says otherwise.
    async fn apply_convene(
        &self,
        topic: &str,
        participant_ids: &[i32],
        participant_names: &[String],
        trace: Option<String>,
    ) -> Result<Applied, OrgError> {
        let chat = self
            .meetings
            .open(crate::meeting::OpenMeeting {
                topic: topic.to_owned(),
                participant_ids: participant_ids.to_vec(),
                strategy: crate::meeting::moderator::Strategy::default(),
                max_turns: None,
                trace_id: trace,
            })
            .await
            .map_err(|e| match e {
                crate::meeting::MeetingError::Storage(e) => OrgError::Storage(e),
                other => OrgError::InvalidInput(other.to_string()),
            })?;
        let lang = self.diff_language().await;
        let diff = lang.pick(
            format!(
                "+ meeting \"{topic}\" with {}",
                participant_names.join(", ")
            ),
            format!("+ 会议“{topic}”，参会：{}", participant_names.join("、")),
        );
        Ok((Some(Undo::EndMeeting { chat_id: chat.id }), diff))
    }

    async fn apply_set_policy(
        &self,
        level: Option<ApprovalPolicy>,
        daily_budget_usd: Option<f64>,
    ) -> Result<Applied, OrgError> {
        let org = &self.org;
        let before = org.company().await?.ok_or(OrgError::CompanyMissing)?;
        let lang = before.language;
        let level_words = |l: ApprovalPolicy| match (lang, l) {
            (Language::En, l) => l.to_value(),
            (Language::ZhCn, ApprovalPolicy::Auto) => "自动".to_owned(),
            (Language::ZhCn, ApprovalPolicy::KeySteps) => "关键步骤".to_owned(),
            (Language::ZhCn, ApprovalPolicy::Manual) => "手动".to_owned(),
        };
        let mut diff = Vec::new();
        if let Some(b) = daily_budget_usd {
            org.set_budget(SetBudget {
                daily_budget_usd: b,
            })
            .await?;
            let was = before.daily_budget_usd;
            diff.push(lang.pick(
                format!("daily budget ${was:.2} → ${b:.2}"),
                format!("每日预算 ${was:.2} → ${b:.2}"),
            ));
        }
        if let Some(l) = level {
            org.set_approval_policy(l).await?;
            let (was, now) = (level_words(before.approval_policy), level_words(l));
            diff.push(lang.pick(
                format!("approvals {was} → {now}"),
                format!("审批 {was} → {now}"),
            ));
        }
        let undo = Undo::RestorePolicy {
            level: before.approval_policy,
            daily_budget_usd: before.daily_budget_usd,
        };
        Ok((Some(undo), diff.join(&lang.pick("; ", "；"))))
    }

    async fn reverse(&self, undo: Undo) -> Result<(), OrgError> {
        let org = &self.org;
        match undo {
            Undo::RemoveHire { employee_id } => org.undo_hire(employee_id).await,
            Undo::Unfire {
                employee_id,
                reports,
                led_departments,
            } => org
                .undo_fire(employee_id, &reports, &led_departments)
                .await
                .map(|_| ()),
            Undo::MoveBack {
                employee_id,
                department_id,
            } => org
                .move_employee(MoveEmployee {
                    employee_id,
                    department_id,
                })
                .await
                .map(|_| ()),
            Undo::DeleteDepartment { department_id } => {
                org.delete_department(DeleteDepartment {
                    id: department_id,
                    reassign_to: None,
                })
                .await
            }
            Undo::RenameBack {
                department_id,
                name,
            } => org
                .rename_department(RenameDepartment {
                    id: department_id,
                    name,
                })
                .await
                .map(|_| ()),
            Undo::WithdrawTask { task_id, helpers } => self.withdraw(task_id, helpers).await,
            Undo::RemovePerson { person_id } => self.people.remove(person_id).await,
            Undo::RestoreReviewer {
                requirement_id,
                reviewer_id,
            } => self.write_reviewer(requirement_id, reviewer_id).await,
            Undo::RemoveRequirement {
                requirement_id,
                chat_id,
            } => {
                let removed = self
                    .work
                    .remove_requirement(requirement_id, chat_id)
                    .await?;
                removed.then_some(()).ok_or_else(|| {
                    OrgError::InvalidInput("the requirement is already being worked on".into())
                })
            }
            Undo::RestorePolicy {
                level,
                daily_budget_usd,
            } => {
                org.set_budget(SetBudget { daily_budget_usd }).await?;
                org.set_approval_policy(level).await.map(|_| ())
            }
            Undo::RestoreDepartment { record } => org.restore_department(&record).await.map(|_| ()),
            Undo::EndMeeting { chat_id } => Ok(self.chats.end_meeting(chat_id).await?),
        }
    }
    /// Takes a task back (with its helpers' tasks) while nobody has worked on it.
    async fn withdraw(&self, task_id: i32, helpers: Vec<i32>) -> Result<(), OrgError> {
        if !self.work.withdraw_task(task_id).await? {
            return Err(OrgError::InvalidInput(
                "the task has already been worked on".into(),
            ));
        }
        for h in helpers {
            self.work.withdraw_task(h).await?;
        }
        Ok(())
    }

    async fn write_reviewer(
        &self,
        requirement_id: i32,
        reviewer_id: Option<i32>,
    ) -> Result<(), OrgError> {
        use crate::work::board::{BoardError, SetReviewer};
        self.work
            .set_reviewer(SetReviewer {
                requirement_id,
                reviewer_id,
            })
            .await
            .map(|_| ())
            .map_err(|e| match e {
                BoardError::Storage(e) => OrgError::Storage(e),
                other => OrgError::InvalidInput(other.to_string()),
            })
    }

    /// A task for the assignee, in its requirement when one was named; each participant
    /// gets a helping task under it, so they are woken, see whose work it is and report
    /// to the assignee (and, in a requirement, sit in its group chat).
    async fn apply_task(&self, p: &Proposal, trace: Option<String>) -> Result<Applied, OrgError> {
        let Proposal::AssignTask {
            employee_id,
            name,
            description,
            requirement_id,
            requirement_name,
            participant_ids,
            participant_names,
        } = p
        else {
            return Err(OrgError::InvalidInput("not a task".into()));
        };
        let lang = self
            .org
            .company()
            .await?
            .map_or(Language::En, |c| c.language);
        let lead_text = match (lang, participant_names.is_empty()) {
            (_, true) => description.clone(),
            (Language::ZhCn, false) => {
                format!("{description}（与{}一起）", participant_names.join("、"))
            }
            (Language::En, false) => {
                format!("{description} (with {})", participant_names.join(", "))
            }
        };
        let t = self
            .work
            .create(crate::work::NewTask {
                trace_id: trace.clone(),
                requirement_id: *requirement_id,
                ..crate::work::NewTask::new(*employee_id, &lead_text, TaskOrigin::Secretary)
            })
            .await?;
        let mut helpers = Vec::new();
        for id in participant_ids {
            let text = lang.pick(
                format!("Help {name} with: {description}"),
                format!("协助{name}：{description}"),
            );
            let h = self
                .work
                .create(crate::work::NewTask {
                    trace_id: trace.clone(),
                    requirement_id: *requirement_id,
                    parent_task_id: Some(t.id),
                    ..crate::work::NewTask::new(*id, &text, TaskOrigin::Secretary)
                })
                .await?;
            helpers.push(h.id);
        }
        let mut diff = lang.pick(
            format!("+ task for {name}: {description}"),
            format!("+ {name}的任务：{description}"),
        );
        if !participant_names.is_empty() {
            diff.push_str(&lang.pick(
                format!(", with {}", participant_names.join(", ")),
                format!("，协作：{}", participant_names.join("、")),
            ));
        }
        if let Some(r) = requirement_name {
            diff.push_str(&lang.pick(format!(" (requirement \"{r}\")"), format!("（需求“{r}”）")));
        }
        Ok((
            Some(Undo::WithdrawTask {
                task_id: t.id,
                helpers,
            }),
            diff,
        ))
    }
}
