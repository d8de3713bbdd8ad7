//! What a decision is checked for before anything is written — who may make it, that it
//! is for what its decider was shown — and what its claim writes: the chain's last link,
//! the decision's seal, and the conditional update itself.

use chrono::{DateTime, Utc};
use cubicle_store::entity::approval;
use cubicle_store::{ConnectionTrait, DbErr, approval as q};
use sea_orm::ActiveEnum;

use super::{DecideApproval, Decider, Decision};
use crate::approvals::{
    ApprovalError, ApprovalStatus, Approvals, DecidedVia, DecisionRecord, KeySource, policy,
};
use crate::types::link::Link;

/// One decision checked and ready to claim: the approval as read while it waited and
/// everything its claim writes.
pub(super) struct Ready {
    pub(super) row: approval::Model,
    pub(super) decision: Decision,
    pub(super) via: DecidedVia,
    note: Option<String>,
    /// The chain with this decision's link, as stored.
    chain: serde_json::Value,
    /// The person deciding; `None` for the boss or a policy.
    pub(super) decided_by: Option<i32>,
    decision_seal: Option<String>,
    pub(super) now: DateTime<Utc>,
}

impl Approvals {
    /// Checks one decision and works out everything its claim writes (the chain's last
    /// link, the decision's seal) before anything is written, so that the claims of a
    /// batch can share one transaction. An approval whose time is up expires here, as
    /// the scheduler would have expired it: its claim then finds it decided.
    pub(super) async fn ready(
        &self,
        input: DecideApproval,
        via: DecidedVia,
        decider: Decider,
    ) -> Result<Ready, ApprovalError> {
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
        let mut chain: Vec<Link> =
            serde_json::from_value(row.authorization_chain.clone()).unwrap_or_default();
        let who = decided_by.as_ref().map(|(_, name)| name.as_str());
        let verb = decision.status().to_value();
        chain.push(decided_link(who, via, &verb, note.as_deref()));
        let person = decided_by.as_ref().map(|(person, _)| *person);
        let decision_seal = self.seal_of(&row, decision, person, via).await?;
        Ok(Ready {
            row,
            decision,
            via,
            note,
            chain: serde_json::to_value(&chain).unwrap_or_default(),
            decided_by: person,
            decision_seal,
            now,
        })
    }

    /// Claims `ready`'s decision in one conditional update on `conn` (the database, or a
    /// batch's transaction). True when this call decided it and so owns what follows:
    /// where it runs here, the run is claimed in the same update.
    pub(super) async fn claim(
        &self,
        conn: &impl ConnectionTrait,
        ready: &Ready,
    ) -> Result<bool, DbErr> {
        let claim = q::Claim {
            status: ready.decision.status(),
            decided_at: ready.now,
            decided_via: ready.via,
            note: ready.note.as_deref(),
            authorization_chain: ready.chain.clone(),
            unexpired_at: Some(ready.now),
            // Run here: claimed with the decision, so nobody else starts it.
            run_started_at: (ready.decision == Decision::Approve && self.run_here)
                .then_some(ready.now),
            decided_by: ready.decided_by,
            decision_seal: ready.decision_seal.clone(),
        };
        q::claim_decision(conn, ready.row.id, claim).await
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
    pub(super) async fn not_yours(&self, row: &approval::Model) -> ApprovalError {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_link_names_the_person_else_the_boss_and_a_policy_as_itself() {
        let by_ana = decided_link(Some("Ana"), DecidedVia::Ui, "approved", Some(" ok "));
        assert_eq!(
            (by_ana.who.as_str(), by_ana.rule.as_str()),
            ("Ana", "approved via ui: ok")
        );
        let by_boss = decided_link(None, DecidedVia::Notification, "rejected", Some("  "));
        assert_eq!(
            (by_boss.who.as_str(), by_boss.rule.as_str()),
            ("boss", "rejected via notification")
        );
        // A policy decides in its own name, whoever's queue the approval was in.
        let by_policy = decided_link(Some("Ana"), DecidedVia::Policy, "approved", None);
        assert_eq!(by_policy.who, "policy");
    }
}
