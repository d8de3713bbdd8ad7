//! Deciding (SPEC §8): what the boss's UI, a notification's buttons, the CLI or a policy
//! call — never anything a model writes. A decision holds only for what its decider was
//! shown, and the first decision wins.

use chrono::{DateTime, Utc};
use cubicle_store::entity::approval;
use cubicle_store::{BeginWrite as _, ConnectionTrait, DbErr, approval as q};
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
        let ready = self.ready(input, via, decider).await?;
        let claimed = self.claim(&self.db, &ready).await?;
        self.follow_up(&ready, claimed).await
    }

    /// Checks one decision and works out everything its claim writes (the chain's last
    /// link, the decision's seal) before anything is written, so that the claims of a
    /// batch can share one transaction. An approval whose time is up expires here, as
    /// the scheduler would have expired it: its claim then finds it decided.
    async fn ready(
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
    async fn claim(&self, conn: &impl ConnectionTrait, ready: &Ready) -> Result<bool, DbErr> {
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

    /// What follows a claim once it is written: for the decider who won it, the approved
    /// action runs (or is queued for the server's engine) and the requester is told; one
    /// who lost it hears how the approval stands now.
    async fn follow_up(&self, ready: &Ready, claimed: bool) -> Result<ApprovalDto, ApprovalError> {
        let (id, decision, via) = (ready.row.id, ready.decision, ready.via);
        if !claimed {
            return self
                .settled_elsewhere(id, decision, ready.decided_by.is_some(), ready.now)
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

    /// Decides `batch` as [`Approvals::decide`] decides one, with every claim in one
    /// transaction: the decisions that hold are made together or, on a storage error,
    /// none is. One refused (changed since it was shown, not the decider's, gone) or
    /// settled elsewhere (decided first by someone else, expired) is reported as such and
    /// stops nothing else. The approved actions run after the commit, each once, in the
    /// batch's order.
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
        let mut checked = Vec::with_capacity(batch.decisions.len());
        for input in batch.decisions {
            let id = input.approval_id;
            match self.ready(input, via, decider).await {
                Err(ApprovalError::Storage(e)) => return Err(ApprovalError::Storage(e)),
                ready => checked.push((id, ready)),
            }
        }
        let claims = self.claim_together(&checked).await?;
        // Committed: each claim won owns its action's run, so every one of them is run
        // (or queued) even when an earlier one's follow-up fails to record.
        let mut out = Vec::with_capacity(checked.len());
        let mut failure = None;
        for ((id, ready), claimed) in checked.into_iter().zip(claims) {
            let outcome = match ready {
                Ok(ready) => self.follow_up(&ready, claimed).await,
                Err(e) => Err(e),
            };
            match self.result_of(id, outcome).await {
                Ok(result) => out.push(result),
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// Claims every decision of a batch that passed its checks in one transaction; says
    /// for each whether its claim won. The rows are claimed in the order of their ids, so
    /// two batches naming the same approvals in other orders wait for each other on
    /// PostgreSQL instead of deadlocking.
    async fn claim_together(
        &self,
        checked: &[(i32, Result<Ready, ApprovalError>)],
    ) -> Result<Vec<bool>, ApprovalError> {
        let mut order: Vec<usize> = (0..checked.len()).collect();
        order.sort_by_key(|&i| checked[i].0);
        let mut claims = vec![false; checked.len()];
        let txn = self.db.begin_write().await?;
        for i in order {
            if let (_, Ok(ready)) = &checked[i] {
                claims[i] = self.claim(&txn, ready).await?;
            }
        }
        txn.commit().await?;
        Ok(claims)
    }

    /// What one decision of a batch came to, as the batch reports it; a storage error
    /// is the batch's.
    async fn result_of(
        &self,
        id: i32,
        outcome: Result<ApprovalDto, ApprovalError>,
    ) -> Result<DecisionResult, ApprovalError> {
        Ok(match outcome {
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
        })
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

/// One decision checked and ready to claim: the approval as read while it waited and
/// everything its claim writes.
struct Ready {
    row: approval::Model,
    decision: Decision,
    via: DecidedVia,
    note: Option<String>,
    /// The chain with this decision's link, as stored.
    chain: serde_json::Value,
    /// The person deciding; `None` for the boss or a policy.
    decided_by: Option<i32>,
    decision_seal: Option<String>,
    now: DateTime<Utc>,
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
