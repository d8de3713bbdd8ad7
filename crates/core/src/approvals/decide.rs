//! Deciding (SPEC §8): what the boss's UI, a notification's buttons, the CLI or a policy
//! call — never anything a model writes. A decision holds only for what its decider was
//! shown, and the first decision wins.

use chrono::{DateTime, Utc};
use cubicle_store::approval as q;
use cubicle_store::entity::approval;
use sea_orm::ActiveEnum;

use super::{
    ApprovalDto, ApprovalError, ApprovalStatus, Approvals, DecideApproval, DecideApprovals,
    DecidedVia, Decider, Decision, DecisionRecord, DecisionResult, KeySource, policy,
};
use crate::events::DomainEvent;
use crate::types::link::Link;

impl Approvals {
    /// The boss (or a policy) decides. The first decision wins and, when it approves,
    /// runs the action once; deciding again the same way returns the approval
    /// unchanged, the other way is [`ApprovalError::AlreadyDecided`]; an expired
    /// approval is [`ApprovalError::Expired`]. A failing action is recorded in the
    /// approval's `error`, not returned as an error: the decision itself stood.
    pub async fn decide(
        &self,
        input: DecideApproval,
        via: DecidedVia,
    ) -> Result<ApprovalDto, ApprovalError> {
        self.decide_as(input, via, Decider::Boss).await
    }

    /// [`Approvals::decide`] by `decider`: a person decides only an approval routed to
    /// them ([`ApprovalError::NotYours`] otherwise, checked again in the very update that
    /// claims the decision), and the chain names them as the human who decided.
    pub async fn decide_as(
        &self,
        input: DecideApproval,
        via: DecidedVia,
        decider: Decider,
    ) -> Result<ApprovalDto, ApprovalError> {
        let DecideApproval {
            approval_id: id,
            decision,
            note,
            args_hash: shown,
        } = input;
        let row = self.reload(id).await?;
        let decider = self.signed_in_decider(&row, decider).await?;
        let decided_by = self.check_decider(&row, decider).await?;
        if decision == Decision::Approve && row.status == ApprovalStatus::Waiting {
            self.check_seal(&row, &shown).await?;
        }
        let now = self.clock.now();
        if row.status == ApprovalStatus::Waiting && row.expires_at <= now {
            self.expire_one(&row, now).await?;
        }
        let claimed = self
            .claim(
                &row,
                decision,
                via,
                note.as_deref(),
                decided_by.as_ref(),
                now,
            )
            .await?;
        if !claimed {
            return self
                .settled_elsewhere(id, decision, decided_by.is_some(), now)
                .await;
        }
        let verb = decision.status().to_value();
        tracing::info!(
            approval_id = id,
            decision = %verb,
            via = %via.to_value(),
            "approval decided"
        );
        self.bus
            .publish(DomainEvent::ApprovalDecided { approval_id: id });
        let row = self.reload(id).await?;
        if decision == Decision::Approve && !self.run_here {
            // Queued: the server's engine runs it and tells the requester how it went.
            self.settle_requester(row.employee_id).await?;
            return self.dto(&row).await;
        }
        self.conclude(&row, decision, via).await?;
        self.dto(&self.reload(id).await?).await
    }

    /// Claims `decision` on `row` (as read while it waited) in one conditional update,
    /// with its chain's last link and, where this process holds the key, its seal. True
    /// when this call decided it.
    async fn claim(
        &self,
        row: &approval::Model,
        decision: Decision,
        via: DecidedVia,
        note: Option<&str>,
        decided_by: Option<&(i32, String)>,
        now: DateTime<Utc>,
    ) -> Result<bool, ApprovalError> {
        let mut chain: Vec<Link> =
            serde_json::from_value(row.authorization_chain.clone()).unwrap_or_default();
        let who = decided_by.map(|(_, name)| name.as_str());
        chain.push(decided_link(who, via, &decision.status().to_value(), note));
        let person = decided_by.map(|(person, _)| *person);
        let decision_seal = self.seal_of(row, decision, person, via).await?;
        let claim = q::Claim {
            status: decision.status(),
            decided_at: now,
            decided_via: via,
            note,
            authorization_chain: serde_json::to_value(&chain).unwrap_or_default(),
            unexpired_at: Some(now),
            // Run here: claimed with the decision, so nobody else starts it.
            run_started_at: (decision == Decision::Approve && self.run_here).then_some(now),
            decided_by: person,
            decision_seal,
        };
        Ok(q::claim_decision(&self.db, row.id, claim).await?)
    }

    /// The seal of `decision` on `row`, made where the action will run (`run_here`: the
    /// app with its engine, the CLI), and by a process that only decides when it holds a
    /// lasting key (the keychain's or the environment's, which the engine beside it on the
    /// same machine shares). A key for this process only would make a seal no engine
    /// can check: none is written, nor by a person's own login (their role may not write
    /// it); on a company server the database's rights vouch for who decided (see
    /// `run_approved`).
    async fn seal_of(
        &self,
        row: &approval::Model,
        decision: Decision,
        decided_by: Option<i32>,
        via: DecidedVia,
    ) -> Result<Option<String>, ApprovalError> {
        if self.signed_in.is_some() {
            return Ok(None);
        }
        if !self.run_here
            && !matches!(
                self.seal.source().await,
                Ok(KeySource::Keychain | KeySource::Environment)
            )
        {
            return Ok(None);
        }
        let record = DecisionRecord::deciding(row, decision.status(), decided_by, Some(via));
        match self.seal.seal_decision(&record).await {
            Ok(seal) => Ok(Some(seal)),
            // Refusing runs nothing, so it needs no seal to stand.
            Err(e) if decision == Decision::Reject => {
                tracing::warn!(error = %e, approval_id = row.id, "rejection recorded without a seal");
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// What a decider who lost the claim on approval `id` is told: how it stands now.
    async fn settled_elsewhere(
        &self,
        id: i32,
        decision: Decision,
        by_a_person: bool,
        now: DateTime<Utc>,
    ) -> Result<ApprovalDto, ApprovalError> {
        let row = self.reload(id).await?;
        match row.status {
            // Routed elsewhere between our read and our write.
            ApprovalStatus::Waiting if row.expires_at > now && by_a_person => {
                Err(self.not_yours(&row).await)
            }
            s if s == decision.status() => self.dto(&row).await,
            ApprovalStatus::Expired => Err(ApprovalError::Expired(id)),
            // Still waiting means it expired between our read and our write.
            ApprovalStatus::Waiting => Err(ApprovalError::Expired(id)),
            s => Err(ApprovalError::AlreadyDecided { id, status: s }),
        }
    }

    /// Decides each of `batch` in turn, as [`Approvals::decide`] would one by one, and
    /// says what came of each: one refused or settled elsewhere does not stop the rest.
    pub async fn decide_all(
        &self,
        batch: DecideApprovals,
        via: DecidedVia,
    ) -> Result<Vec<DecisionResult>, ApprovalError> {
        self.decide_all_as(batch, via, Decider::Boss).await
    }

    /// [`Approvals::decide_all`] in `decider`'s name: each is checked as
    /// [`Approvals::decide_as`] checks one.
    pub async fn decide_all_as(
        &self,
        batch: DecideApprovals,
        via: DecidedVia,
        decider: Decider,
    ) -> Result<Vec<DecisionResult>, ApprovalError> {
        let mut out = Vec::with_capacity(batch.decisions.len());
        for input in batch.decisions {
            let id = input.approval_id;
            out.push(match self.decide_as(input, via, decider).await {
                Ok(approval) => DecisionResult::Decided { approval },
                Err(ApprovalError::AlreadyDecided { .. } | ApprovalError::Expired(_)) => {
                    DecisionResult::SettledElsewhere {
                        approval: self.get(id).await?,
                    }
                }
                Err(ApprovalError::Storage(e)) => return Err(ApprovalError::Storage(e)),
                Err(e) => DecisionResult::Failed {
                    approval_id: id,
                    error: e.into(),
                },
            });
        }
        Ok(out)
    }

    /// The person deciding and their name, `None` for the boss; refused when the
    /// approval is routed to someone else.
    async fn check_decider(
        &self,
        row: &approval::Model,
        decider: Decider,
    ) -> Result<Option<(i32, String)>, ApprovalError> {
        let Decider::Person { person_id } = decider else {
            return Ok(None);
        };
        if row.approver_id != Some(person_id) {
            return Err(self.not_yours(row).await);
        }
        let name = cubicle_store::people::find_person(&self.db, person_id)
            .await?
            .map(|p| p.name)
            .ok_or(ApprovalError::NotYours {
                id: row.id,
                approver: "someone else".into(),
            })?;
        Ok(Some((person_id, name)))
    }

    /// Signed in as a person, the decider is that person: "the boss" on their desktop is
    /// them, and naming anyone else is refused.
    async fn signed_in_decider(
        &self,
        row: &approval::Model,
        decider: Decider,
    ) -> Result<Decider, ApprovalError> {
        match (self.signed_in, decider) {
            (None, d) => Ok(d),
            (Some(me), Decider::Boss) => Ok(Decider::Person { person_id: me }),
            (Some(me), Decider::Person { person_id }) if person_id == me => Ok(decider),
            (Some(_), Decider::Person { .. }) => Err(self.not_yours(row).await),
        }
    }

    /// The refusal for a decider the approval is not routed to, naming whose it is.
    async fn not_yours(&self, row: &approval::Model) -> ApprovalError {
        let approver = match row.approver_id {
            Some(id) => cubicle_store::people::find_person(&self.db, id)
                .await
                .ok()
                .flatten()
                .map_or_else(|| format!("person {id}"), |p| p.name),
            None => "the boss".to_owned(),
        };
        ApprovalError::NotYours {
            id: row.id,
            approver,
        }
    }

    /// An approval goes ahead only for what the decider showed (`shown`, the seal it
    /// displayed) and only while the row still matches its seal. The key is checked
    /// where the action will run: a desktop attached to a server has no copy of the
    /// server's key, and the server checks again before running.
    async fn check_seal(&self, row: &approval::Model, shown: &str) -> Result<(), ApprovalError> {
        if shown != row.args_hash {
            tracing::warn!(approval_id = row.id, "approval refused: not what was shown");
            return Err(ApprovalError::NotWhatWasShown(row.id));
        }
        if self.run_here
            && !self
                .seal
                .verify(&row.tool, &row.args, &row.args_hash)
                .await?
        {
            tracing::warn!(
                approval_id = row.id,
                "approval refused: arguments do not match the seal"
            );
            return Err(ApprovalError::Unverified(row.id));
        }
        Ok(())
    }
}

/// The chain's last link: who decided (the person, else the boss, or the policy), how,
/// and the note.
fn decided_link(person: Option<&str>, via: DecidedVia, verb: &str, note: Option<&str>) -> Link {
    let who = match (person, via) {
        (_, DecidedVia::Policy) => "policy",
        (Some(name), _) => name,
        (None, _) => "boss",
    };
    let mut rule = format!("{verb} via {}", via.to_value());
    if let Some(n) = note.filter(|n| !n.trim().is_empty()) {
        rule.push_str(&format!(": {}", n.trim()));
    }
    policy::decided(who, rule)
}
