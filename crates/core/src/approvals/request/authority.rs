//! Whose decision a call is, under which policy, and the chain so far: the person who
//! answers for the employee (else the boss), the employee's own policy (else that
//! person's, else the company's), who proposed the call and who supported it.

use cubicle_store::entity::employee;
use cubicle_store::org as oq;

use crate::approvals::Approvals;
use crate::approvals::policy::{self, PolicyOwner};
use crate::people::Approver;
use crate::tools::{ToolCall, ToolError};
use crate::types::ApprovalPolicy;
use crate::types::link::Link;

/// What authorizes a call: whose decision it is, the effective policy, the rule as the
/// chain states it, and the chain so far (who proposed it, who supported it).
pub(super) struct Authority {
    pub(super) approver: Approver,
    pub(super) policy: ApprovalPolicy,
    pub(super) rule: String,
    pub(super) chain: Vec<Link>,
}

impl Approvals {
    /// Whose decision the call is (the person who answers for the employee, else the
    /// boss), the policy that applies (the employee's own, else that person's, else the
    /// company's) and the chain of who proposed and who supported the call.
    pub(super) async fn authority(
        &self,
        e: &employee::Model,
        call: &ToolCall,
    ) -> Result<Authority, ToolError> {
        let company = oq::find_company(&self.db)
            .await?
            .ok_or(crate::org::OrgError::CompanyMissing)?;
        let approver =
            crate::people::approver_for(&self.db, e.id)
                .await
                .map_err(|err| match err {
                    crate::org::OrgError::Storage(db) => ToolError::from(db),
                    _ => ToolError::EmployeeNotFound(e.id),
                })?;
        let (policy, owner) = match (e.approval_policy, &approver) {
            (Some(own), _) => (own, PolicyOwner::Employee),
            (None, Approver::Person { person }) => {
                (person.approval_policy, PolicyOwner::Person(&person.name))
            }
            (None, Approver::Boss { .. }) => (company.approval_policy, PolicyOwner::Company),
        };
        let rule = policy::rule_text(policy, owner);
        let mut chain = vec![policy::proposed(&e.name, e.id, &call.reason)];
        for id in &call.supported_by {
            if let Some(s) = oq::find_employee(&self.db, *id).await? {
                chain.push(policy::supported(&s.name, s.id));
            }
        }
        Ok(Authority {
            approver,
            policy,
            rule,
            chain,
        })
    }
}
