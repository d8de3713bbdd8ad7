//! Confirming a card (SPEC §3): the boss's yes to what the secretary proposed. The card is
//! claimed first, so of two clicks racing on Confirm exactly one applies it; a hire's
//! edits are taken into the proposal; the proposal is applied through the org and work
//! services, never around them; and the card records what came of it (the diff it
//! shows, how to undo it while the window lasts, or the error).
//!
//! The use case's parts: the entry and the dispatch over what was proposed (here), the
//! org changes (`org`: hire, fire, transfer, departments, the policy) and the work a card
//! starts (`work`: a task, a requirement, its reviewer, a meeting).

mod org;
mod work;

use chrono::{Duration as ChronoDuration, Utc};
use cubicle_store::{DbErr, secretary as q};
use sea_orm::ActiveValue::Set;
use sea_orm::IntoActiveModel;

use super::actions::*;
use super::service::{Secretary, SecretaryError, SecretaryResult, action_dto};
use crate::org::OrgError;
use crate::types::*;

/// What applying a card left: how to undo it (when it can be) and the diff it shows.
pub(super) type Applied = (Option<Undo>, String);

impl Secretary {
    /// Confirms card `action_id` (a hire with the boss's `edits`): `applied` with its diff
    /// (and undo window), or `failed` with the error; a card not waiting is refused.
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
        if let Some(edits) = edits {
            self.take_edits(&mut proposal, edits).await?;
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

    /// The boss's edits to a hire card, taken into its proposal before it is applied; the
    /// card keeps names for display, so they follow the edited ids.
    async fn take_edits(&self, proposal: &mut Proposal, edits: HireEdits) -> SecretaryResult<()> {
        let Proposal::Hire {
            name,
            title,
            department_id,
            department_name,
            manager_id,
            manager_name,
            archetype,
            ..
        } = proposal
        else {
            return Ok(());
        };
        let snap = self.org.snapshot().await?;
        if let Some(v) = edits.name {
            *name = v;
        }
        if let Some(v) = edits.title {
            *title = v;
        }
        if let Some(id) = edits.department_id {
            *department_id = Some(id);
            *department_name = snap
                .departments
                .iter()
                .find(|d| d.id == id)
                .map(|d| d.name.clone());
        }
        if let Some(id) = edits.manager_id {
            *manager_id = Some(id);
            *manager_name = snap
                .employees
                .iter()
                .find(|e| e.id == id)
                .map(|e| e.name.clone());
        }
        if let Some(v) = edits.archetype {
            *archetype = v;
        }
        Ok(())
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
}
