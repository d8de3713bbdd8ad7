//! Arbitration of conflicting opinions (SPEC §9), pure: what kind of decision a question
//! is, who has jurisdiction over it, how a weighted vote comes out, and which questions
//! only the boss may decide (money, resources, external commitments). Every ruling
//! carries its authorization chain — who proposed, supported, opposed, decided or
//! escalated, and under which rule — so the boss can see why it came out as it did.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::moderator::mentions_keyword;
use crate::types::Language;
/// The authorization chain's links: shared with the approvals, which carry one too.
pub use crate::types::link::{Link, Role};

/// What kind of decision a question is.
pub use cubicle_store::enums::DecisionType;

/// How a ruling came out.
pub use cubicle_store::enums::RulingOutcome as Outcome;

/// Who ruled ([`DecidedBy`] without its details), and whether the ruling stands or
/// waits for the boss: as a decision record stores them.
pub use cubicle_store::enums::{DecidedByKind, DecisionStatus};

/// The type in words for the boss, in the company's language (the stored name is
/// an identifier, never shown in Chinese text).
pub fn type_label(t: DecisionType, lang: Language) -> &'static str {
    match (t, lang) {
        (DecisionType::Tech, Language::En) => "technical",
        (DecisionType::Ux, Language::En) => "design",
        (DecisionType::Compliance, Language::En) => "compliance",
        (DecisionType::Money, Language::En) => "money",
        (DecisionType::Resources, Language::En) => "resources",
        (DecisionType::ExternalCommitment, Language::En) => "external commitment",
        (DecisionType::Other, Language::En) => "general",
        (DecisionType::Tech, Language::ZhCn) => "技术",
        (DecisionType::Ux, Language::ZhCn) => "设计",
        (DecisionType::Compliance, Language::ZhCn) => "合规",
        (DecisionType::Money, Language::ZhCn) => "资金",
        (DecisionType::Resources, Language::ZhCn) => "资源",
        (DecisionType::ExternalCommitment, Language::ZhCn) => "对外承诺",
        (DecisionType::Other, Language::ZhCn) => "一般",
    }
}

/// SPEC §9: money, resources and external commitments are the boss's alone.
pub fn goes_to_boss(t: DecisionType) -> bool {
    matches!(
        t,
        DecisionType::Money | DecisionType::Resources | DecisionType::ExternalCommitment
    )
}

/// Words of a question of type `t` (en + zh). Checked in [`classify`]'s order.
fn keywords(t: DecisionType) -> &'static [&'static str] {
    match t {
        DecisionType::Money => MONEY_WORDS,
        DecisionType::ExternalCommitment => EXTERNAL_COMMITMENT_WORDS,
        DecisionType::Resources => RESOURCES_WORDS,
        DecisionType::Compliance => COMPLIANCE_WORDS,
        DecisionType::Ux => UX_WORDS,
        DecisionType::Tech => TECH_WORDS,
        DecisionType::Other => &[],
    }
}

/// The department a lead with jurisdiction over `t` heads (by name or title words).
fn jurisdiction_words(t: DecisionType) -> &'static [&'static str] {
    match t {
        DecisionType::Tech => &[
            "engineering",
            "tech",
            "technology",
            "development",
            "r&d",
            "研发",
            "技术",
            "工程",
        ],
        DecisionType::Ux => &["design", "ux", "ui", "设计", "体验"],
        DecisionType::Compliance => &["legal", "compliance", "法务", "合规"],
        _ => &[],
    }
}

/// What kind of decision a question is. Boss-only types are checked first: a tech
/// question that also spends money is a money question.
pub fn classify(question: &str) -> DecisionType {
    const ORDER: [DecisionType; 6] = [
        DecisionType::Money,
        DecisionType::ExternalCommitment,
        DecisionType::Resources,
        DecisionType::Compliance,
        DecisionType::Ux,
        DecisionType::Tech,
    ];
    ORDER
        .into_iter()
        .find(|t| keywords(*t).iter().any(|k| hit(question, k)))
        .unwrap_or(DecisionType::Other)
}

/// A keyword in text: symbols and Chinese as substrings, Latin words as whole words.
fn hit(text: &str, keyword: &str) -> bool {
    if keyword
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
    {
        mentions_keyword(text, keyword)
    } else {
        text.to_lowercase().contains(keyword)
    }
}

// The words that mark a question's type, in English and Chinese.
const MONEY_WORDS: &[&str] = &[
    "$",
    "¥",
    "usd",
    "dollar",
    "budget",
    "spend",
    "cost",
    "price",
    "pay",
    "purchase",
    "buy",
    "invoice",
    "subscription",
    "money",
    "预算",
    "花钱",
    "花费",
    "钱",
    "千块",
    "万块",
    "百块",
    "千元",
    "万元",
    "百元",
    "费用",
    "成本",
    "购买",
    "买",
    "付费",
    "采购",
    "报价",
];
const EXTERNAL_COMMITMENT_WORDS: &[&str] = &[
    "contract",
    "sign",
    "promise the customer",
    "commit to the customer",
    "partner",
    "deadline to the client",
    "sla",
    "vendor agreement",
    "合同",
    "签约",
    "承诺",
    "客户",
    "合作方",
    "对外",
];
const RESOURCES_WORDS: &[&str] = &[
    "headcount",
    "hire",
    "hiring",
    "another engineer",
    "more people",
    "server",
    "servers",
    "gpu",
    "reassign",
    "staffing",
    "招人",
    "招聘",
    "人手",
    "服务器",
    "资源",
    "编制",
    "调人",
];
const COMPLIANCE_WORDS: &[&str] = &[
    "legal",
    "law",
    "gdpr",
    "privacy",
    "compliance",
    "compliant",
    "license",
    "licence",
    "regulation",
    "audit",
    "合规",
    "法务",
    "隐私",
    "法律",
    "许可证",
    "审计",
];
const UX_WORDS: &[&str] = &[
    "ux",
    "ui",
    "design",
    "layout",
    "screen",
    "button",
    "color",
    "colour",
    "font",
    "onboarding",
    "usability",
    "交互",
    "设计",
    "界面",
    "按钮",
    "体验",
    "布局",
];
const TECH_WORDS: &[&str] = &[
    "api",
    "database",
    "schema",
    "architecture",
    "rust",
    "framework",
    "library",
    "refactor",
    "cache",
    "deploy",
    "server-side",
    "rest",
    "graphql",
    "migration",
    "test",
    "bug",
    "performance",
    "数据库",
    "架构",
    "接口",
    "框架",
    "重构",
    "缓存",
    "部署",
    "技术",
    "性能",
    "测试",
];

/// Someone whose voice counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Person {
    pub id: i32,
    pub name: String,
    pub title: String,
    /// The department's name, when in one.
    pub department: Option<String>,
    /// Leads their department.
    pub is_lead: bool,
    /// Lower-case skill keywords.
    pub expertise: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    Support,
    Oppose,
}

/// One person's position on the question; the proposer supports it by definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub employee_id: i32,
    pub stance: Stance,
    pub proposer: bool,
}

/// The outcome in words for the boss, in the company's language.
pub fn outcome_label(o: Outcome, lang: Language) -> &'static str {
    match (o, lang) {
        (Outcome::Approved, Language::En) => "approved",
        (Outcome::Rejected, Language::En) => "rejected",
        (Outcome::Escalated, Language::En) => "taken to the boss",
        (Outcome::Approved, Language::ZhCn) => "通过",
        (Outcome::Rejected, Language::ZhCn) => "不通过",
        (Outcome::Escalated, Language::ZhCn) => "已转交老板",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    pub support: f64,
    pub oppose: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DecidedBy {
    Lead {
        #[serde(rename = "employeeId")]
        employee_id: i32,
    },
    Vote {
        tally: Tally,
    },
    Boss,
}

impl DecidedBy {
    /// Who ruled as a decision record stores it: the kind, and the lead when it was one.
    pub fn stored(&self) -> (DecidedByKind, Option<i32>) {
        match self {
            DecidedBy::Lead { employee_id } => (DecidedByKind::Lead, Some(*employee_id)),
            DecidedBy::Vote { .. } => (DecidedByKind::Vote, None),
            DecidedBy::Boss => (DecidedByKind::Boss, None),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Ruling {
    pub decision_type: DecisionType,
    pub decided_by: DecidedBy,
    pub outcome: Outcome,
    pub authorization_chain: Vec<Link>,
}

impl Ruling {
    /// An escalated ruling waits for the boss; any other stands.
    pub fn status(&self) -> DecisionStatus {
        match self.outcome {
            Outcome::Escalated => DecisionStatus::Escalated,
            Outcome::Approved | Outcome::Rejected => DecisionStatus::Decided,
        }
    }
}

/// Title words that make someone senior; leads weigh more still.
const SENIOR: [&str; 8] = [
    "senior",
    "staff",
    "principal",
    "architect",
    "资深",
    "高级",
    "专家",
    "架构师",
];
const LEADING: [&str; 10] = [
    "lead",
    "head",
    "manager",
    "director",
    "chief",
    "vp",
    "主管",
    "经理",
    "总监",
    "负责人",
];

/// A voter's weight on a question of type `t`: 1, +0.5 for a senior title, +1 for a
/// lead (by the org chart or the title), +1 when their expertise covers the question.
pub fn weight(p: &Person, t: DecisionType, question: &str) -> f64 {
    let mut w = 1.0;
    if SENIOR.iter().any(|k| hit(&p.title, k)) {
        w += 0.5;
    }
    if p.is_lead || LEADING.iter().any(|k| hit(&p.title, k)) {
        w += 1.0;
    }
    let domain = keywords(t);
    if p.expertise
        .iter()
        .any(|k| hit(question, k) || domain.contains(&k.as_str()))
    {
        w += 1.0;
    }
    w
}

/// The lead with jurisdiction over `t`: the lead of a department named for it, else
/// someone whose title leads it ("Engineering Lead", "设计主管").
pub fn jurisdiction(t: DecisionType, people: &[Person]) -> Option<&Person> {
    let words = jurisdiction_words(t);
    if words.is_empty() {
        return None;
    }
    let about = |s: &str| words.iter().any(|k| hit(s, k));
    people
        .iter()
        .find(|p| p.is_lead && p.department.as_deref().is_some_and(about))
        .or_else(|| {
            people
                .iter()
                .find(|p| about(&p.title) && LEADING.iter().any(|k| hit(&p.title, k)))
        })
}

/// Rules on `question`: the boss's types are escalated; a lead with jurisdiction who
/// took a position decides; otherwise the weighted vote of everyone who did (a tie
/// keeps the status quo: rejected).
pub fn arbitrate(question: &str, positions: &[Position], people: &[Person]) -> Ruling {
    let t = classify(question);
    let mut chain = stated_positions(positions, people);
    if goes_to_boss(t) {
        return escalate_to_boss(t, chain);
    }
    if let Some(ruling) = lead_decides(t, positions, people, &mut chain) {
        return ruling;
    }
    weighted_vote(t, question, positions, people, chain)
}

/// One link per position, as it was stated in the meeting.
fn stated_positions(positions: &[Position], people: &[Person]) -> Vec<Link> {
    positions
        .iter()
        .map(|pos| Link {
            who: people
                .iter()
                .find(|p| p.id == pos.employee_id)
                .map_or_else(|| format!("#{}", pos.employee_id), |p| p.name.clone()),
            employee_id: Some(pos.employee_id),
            role: match (pos.proposer, pos.stance) {
                (true, _) => Role::Proposed,
                (false, Stance::Support) => Role::Supported,
                (false, Stance::Oppose) => Role::Opposed,
            },
            rule: "stated in the meeting".into(),
            weight: None,
        })
        .collect()
}

/// The boss's types go to the boss, whatever the room thinks.
fn escalate_to_boss(t: DecisionType, mut chain: Vec<Link>) -> Ruling {
    chain.push(Link {
        who: "secretary".into(),
        employee_id: None,
        role: Role::Escalated,
        rule: format!("{t} decisions belong to the boss"),
        weight: None,
    });
    Ruling {
        decision_type: t,
        decided_by: DecidedBy::Boss,
        outcome: Outcome::Escalated,
        authorization_chain: chain,
    }
}

/// The lead with jurisdiction decides, when they took a position; `chain` is taken
/// into the ruling only then.
fn lead_decides(
    t: DecisionType,
    positions: &[Position],
    people: &[Person],
    chain: &mut Vec<Link>,
) -> Option<Ruling> {
    let lead = jurisdiction(t, people)?;
    let pos = positions.iter().find(|p| p.employee_id == lead.id)?;
    let outcome = match pos.stance {
        Stance::Support => Outcome::Approved,
        Stance::Oppose => Outcome::Rejected,
    };
    chain.push(Link {
        who: lead.name.clone(),
        employee_id: Some(lead.id),
        role: Role::Decided,
        rule: format!("jurisdiction: {} questions go to {}", t, lead_of(t)),
        weight: None,
    });
    Some(Ruling {
        decision_type: t,
        decided_by: DecidedBy::Lead {
            employee_id: lead.id,
        },
        outcome,
        authorization_chain: std::mem::take(chain),
    })
}

/// The weighted vote of everyone who took a position; a tie keeps the status quo.
fn weighted_vote(
    t: DecisionType,
    question: &str,
    positions: &[Position],
    people: &[Person],
    mut chain: Vec<Link>,
) -> Ruling {
    let mut tally = Tally {
        support: 0.0,
        oppose: 0.0,
    };
    for (pos, link) in positions.iter().zip(chain.iter_mut()) {
        let w = people
            .iter()
            .find(|p| p.id == pos.employee_id)
            .map_or(1.0, |p| weight(p, t, question));
        link.weight = Some(w);
        link.rule = "weighted vote (seniority, lead, expertise)".into();
        match pos.stance {
            Stance::Support => tally.support += w,
            Stance::Oppose => tally.oppose += w,
        }
    }
    let outcome = if tally.support > tally.oppose {
        Outcome::Approved
    } else {
        Outcome::Rejected
    };
    chain.push(Link {
        who: "vote".into(),
        employee_id: None,
        role: Role::Decided,
        rule: format!(
            "weighted vote within {}: {:.1} for, {:.1} against{}",
            t,
            tally.support,
            tally.oppose,
            if tally.support == tally.oppose {
                " (a tie keeps the status quo)"
            } else {
                ""
            }
        ),
        weight: None,
    });
    Ruling {
        decision_type: t,
        decided_by: DecidedBy::Vote { tally },
        outcome,
        authorization_chain: chain,
    }
}

fn lead_of(t: DecisionType) -> &'static str {
    match t {
        DecisionType::Tech => "the engineering lead",
        DecisionType::Ux => "the design lead",
        DecisionType::Compliance => "the legal lead",
        _ => "the lead",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(id: i32, name: &str, title: &str, dept: &str, lead: bool, skills: &[&str]) -> Person {
        Person {
            id,
            name: name.into(),
            title: title.into(),
            department: Some(dept.into()),
            is_lead: lead,
            expertise: skills.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    fn people() -> Vec<Person> {
        vec![
            p(
                1,
                "Alice",
                "Engineering Manager",
                "Engineering",
                true,
                &["backend"],
            ),
            p(
                2,
                "Bob",
                "Backend Engineer",
                "Engineering",
                false,
                &["database"],
            ),
            p(3, "Frank", "Designer", "Design", true, &["ux"]),
            p(4, "Grace", "Counsel", "Legal", true, &["gdpr"]),
            p(5, "Erin", "Senior Analyst", "Product", false, &[]),
        ]
    }

    fn pos(id: i32, stance: Stance, proposer: bool) -> Position {
        Position {
            employee_id: id,
            stance,
            proposer,
        }
    }

    #[test]
    fn questions_are_classified_in_english_and_chinese() {
        for (q, t) in [
            (
                "Should we spend $5,000 on a load-testing service?",
                DecisionType::Money,
            ),
            ("要不要花五千块买压测服务", DecisionType::Money),
            (
                "Can we promise the customer a March launch in the contract?",
                DecisionType::ExternalCommitment,
            ),
            (
                "We need another engineer and two more GPU servers",
                DecisionType::Resources,
            ),
            (
                "Is storing emails compliant with GDPR?",
                DecisionType::Compliance,
            ),
            ("这个方案合规吗", DecisionType::Compliance),
            (
                "Should the button be on the left of the screen?",
                DecisionType::Ux,
            ),
            ("Should we move the API to GraphQL?", DecisionType::Tech),
            ("数据库要不要分库", DecisionType::Tech),
            ("Pizza or tacos on Friday?", DecisionType::Other),
        ] {
            assert_eq!(classify(q), t, "{q}");
        }
    }

    #[test]
    fn a_budget_question_goes_to_the_boss_with_the_secretary_escalating() {
        let r = arbitrate(
            "should we spend $5,000 on a load-testing service?",
            &[pos(2, Stance::Support, true), pos(1, Stance::Oppose, false)],
            &people(),
        );
        assert_eq!(r.decision_type, DecisionType::Money);
        assert_eq!(r.decided_by, DecidedBy::Boss);
        assert_eq!(r.outcome, Outcome::Escalated);
        let roles: Vec<Role> = r.authorization_chain.iter().map(|l| l.role).collect();
        assert_eq!(roles, [Role::Proposed, Role::Opposed, Role::Escalated]);
        assert_eq!(r.authorization_chain[2].who, "secretary");
    }

    #[test]
    fn a_tech_question_is_ruled_by_the_engineering_lead_even_against_the_majority() {
        let r = arbitrate(
            "Should we move the API to GraphQL?",
            &[
                pos(2, Stance::Support, true),
                pos(5, Stance::Support, false),
                pos(3, Stance::Support, false),
                pos(1, Stance::Oppose, false),
            ],
            &people(),
        );
        assert_eq!(r.decided_by, DecidedBy::Lead { employee_id: 1 });
        assert_eq!(r.outcome, Outcome::Rejected);
        let last = r.authorization_chain.last().unwrap();
        assert_eq!((last.who.as_str(), last.role), ("Alice", Role::Decided));
        assert!(last.rule.contains("engineering lead"));
    }

    #[test]
    fn without_the_lead_in_the_room_a_weighted_vote_decides() {
        // Bob (expertise: database, +1) proposes: 2.0; Erin (senior, +0.5) opposes:
        // 1.5 — one against one, and expertise carries it. Frank (a lead, +1) joining
        // Erin turns it: 2.0 against 3.5.
        let q = "Should we shard the database?";
        let r = arbitrate(
            q,
            &[pos(2, Stance::Support, true), pos(5, Stance::Oppose, false)],
            &people(),
        );
        match &r.decided_by {
            DecidedBy::Vote { tally } => {
                assert_eq!(tally.support, 2.0);
                assert_eq!(tally.oppose, 1.5);
            }
            other => panic!("expected a vote, got {other:?}"),
        }
        assert_eq!(
            r.outcome,
            Outcome::Approved,
            "expertise outweighs seniority"
        );
        let r = arbitrate(
            q,
            &[
                pos(2, Stance::Support, true),
                pos(5, Stance::Oppose, false),
                pos(3, Stance::Oppose, false),
            ],
            &people(),
        );
        assert_eq!(r.outcome, Outcome::Rejected);
        assert_eq!(r.authorization_chain.len(), 4);
        assert!(
            r.authorization_chain
                .iter()
                .take(3)
                .all(|l| l.weight.is_some())
        );
    }

    #[test]
    fn ux_and_compliance_have_their_own_leads() {
        let ppl = people();
        assert_eq!(jurisdiction(DecisionType::Ux, &ppl).map(|p| p.id), Some(3));
        assert_eq!(
            jurisdiction(DecisionType::Compliance, &ppl).map(|p| p.id),
            Some(4)
        );
        assert_eq!(
            jurisdiction(DecisionType::Tech, &ppl).map(|p| p.id),
            Some(1)
        );
        assert!(jurisdiction(DecisionType::Other, &ppl).is_none());
    }
}
