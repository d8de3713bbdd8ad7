//! The pure rules of SPEC §8: which policy applies, what must wait, and how an
//! authorization chain reads.

use crate::tools::Risk;
use crate::types::ApprovalPolicy;
use crate::types::link::{Link, Role};
use sea_orm::ActiveEnum;

/// An employee's own policy wins over the company's.
pub fn effective(company: ApprovalPolicy, employee: Option<ApprovalPolicy>) -> ApprovalPolicy {
    employee.unwrap_or(company)
}

/// Whether a call of this risk waits for the boss under `policy`:
/// `auto` — nothing waits (everything is still logged); `key_steps` — high-risk tools
/// wait (webhooks leave the company, budget, hiring and firing, shell, CLI runs,
/// deletions); `manual` — everything that is not read-only waits.
pub fn needs_approval(policy: ApprovalPolicy, risk: Risk) -> bool {
    match policy {
        ApprovalPolicy::Auto => false,
        ApprovalPolicy::KeySteps => risk == Risk::High,
        ApprovalPolicy::Manual => risk != Risk::ReadOnly,
    }
}

/// Whose approval policy applies to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyOwner<'a> {
    /// The employee has a policy of their own.
    Employee,
    /// The person who answers for the employee (named).
    Person(&'a str),
    /// Nobody else answers for the employee: the company's (the boss's).
    Company,
}

/// The policy that applies, as the authorization chain states it.
pub fn rule_text(policy: ApprovalPolicy, owner: PolicyOwner<'_>) -> String {
    let whose = match owner {
        PolicyOwner::Employee => "the employee's".to_owned(),
        PolicyOwner::Person(name) => format!("{name}'s"),
        PolicyOwner::Company => "the company's".to_owned(),
    };
    format!("{whose} approval policy: {}", policy.to_value())
}

pub fn proposed(name: &str, employee_id: i32, reason: &str) -> Link {
    Link {
        who: name.to_owned(),
        employee_id: Some(employee_id),
        role: Role::Proposed,
        rule: reason.to_owned(),
        weight: None,
    }
}

pub fn supported(name: &str, employee_id: i32) -> Link {
    Link {
        who: name.to_owned(),
        employee_id: Some(employee_id),
        role: Role::Supported,
        rule: "backed the request".into(),
        weight: None,
    }
}

/// The deciding link: the boss (through a UI, a notification or the CLI) or a policy.
pub fn decided(who: &str, rule: String) -> Link {
    Link {
        who: who.to_owned(),
        employee_id: None,
        role: Role::Decided,
        rule,
        weight: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_policy_level_says_what_waits() {
        use ApprovalPolicy::*;
        use Risk::*;
        let table = [
            (Auto, [false, false, false]),
            (KeySteps, [false, false, true]),
            (Manual, [false, true, true]),
        ];
        for (policy, expect) in table {
            for (risk, want) in [ReadOnly, Write, High].into_iter().zip(expect) {
                assert_eq!(needs_approval(policy, risk), want, "{policy:?} {risk:?}");
            }
        }
    }

    #[test]
    fn the_employees_policy_overrides_the_companys() {
        assert_eq!(
            effective(ApprovalPolicy::KeySteps, Some(ApprovalPolicy::Manual)),
            ApprovalPolicy::Manual
        );
        assert_eq!(effective(ApprovalPolicy::Auto, None), ApprovalPolicy::Auto);
    }
}
