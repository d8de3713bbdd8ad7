//! Confirmed work: a task for an employee (with its helpers), a requirement, its
//! reviewer and a meeting — through the work and meeting services, each with the diff its
//! card shows and how to undo it.

use crate::work::TaskOrigin;

use crate::org::OrgError;
use crate::secretary::actions::*;
use crate::secretary::service::Secretary;
use crate::types::*;

use super::Applied;

impl Secretary {
    pub(super) async fn apply_set_reviewer(
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
    pub(super) async fn apply_create_requirement(&self, p: &Proposal) -> Result<Applied, OrgError> {
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

    /// A moderated meeting (SPEC §9), rule-based unless the boss says otherwise.
    pub(super) async fn apply_convene(
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

    /// A task for the assignee, in its requirement when one was named; each participant
    /// gets a helping task under it, so they are woken, see whose work it is and report
    /// to the assignee (and, in a requirement, sit in its group chat).
    pub(super) async fn apply_task(
        &self,
        p: &Proposal,
        trace: Option<String>,
    ) -> Result<Applied, OrgError> {
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
