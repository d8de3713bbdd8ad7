//! Whether a meeting turn objects to what was said, agrees with it, or neither — in
//! English and Chinese. Pure. Arbitration rules on objections and the moderator closes
//! on agreement, so a negation read as agreement ("不可以" holds "可以") would close a
//! meeting as consensus over an open objection: objections are looked for first, and an
//! agreement word counts only when no objection is in the turn.
//!
//! The labelled set in `tests/corpus/stances.jsonl` holds both languages and is checked
//! by the integration tests.

use serde::{Deserialize, Serialize};

/// What a turn says about the proposal on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnStance {
    Objects,
    Agrees,
    Neither,
}

/// Chinese objections: negated approval, opposition, and "too risky"-style verdicts.
const ZH_OBJECT: &[&str] = &[
    "不同意",
    "不太同意",
    "反对",
    "不赞成",
    "不赞同",
    "不认同",
    "不支持",
    "不行",
    "不可以",
    "不可行",
    "行不通",
    "不妥",
    "不合适",
    "不太好",
    "不靠谱",
    "不能接受",
    "不接受",
    "不建议",
    "不应该",
    "不该这么",
    "不能这样",
    "不要这样",
    "别这样",
    "有异议",
    "我有顾虑",
    "风险太大",
    "风险太高",
    "太冒险",
    "太激进",
    "否决",
    "没必要",
    "不现实",
];

/// English objections, matched on the lower-cased turn.
const EN_OBJECT: &[&str] = &[
    "disagree",
    "don't agree",
    "do not agree",
    "not convinced",
    "i object",
    "object to",
    "i'm against",
    "i am against",
    "against this",
    "against it",
    "too risky",
    "too much risk",
    "bad idea",
    "not a good idea",
    "won't work",
    "will not work",
    "doesn't work for me",
    "don't think we should",
    "do not think we should",
    "we shouldn't",
    "we should not",
    "push back",
    "can't accept",
    "cannot accept",
    "not acceptable",
    "unacceptable",
    "not on board",
    "veto",
    "i'm not ok with",
    "not okay with",
];

/// A bare "no" opening the turn ("No, too risky", "no. we can't").
const EN_NO: &[&str] = &["no,", "no.", "no!", "no -", "no —", "nope", "nah"];

const AGREE: &[&str] = &[
    "agree",
    "sounds good",
    "+1",
    "lgtm",
    "makes sense",
    "same here",
    "let's do it",
    "fine by me",
    "works for me",
    "i support",
    "on board",
    "同意",
    "赞成",
    "赞同",
    "认同",
    "没问题",
    "附议",
    "支持",
    "可以",
    "好的",
    "可行",
    "就这么办",
    "就这么定",
];

/// How a turn stands toward the proposal.
pub fn stance(text: &str) -> TurnStance {
    let t = text.trim().to_lowercase();
    let objects = ZH_OBJECT.iter().any(|w| t.contains(w))
        || EN_OBJECT.iter().any(|w| t.contains(w))
        || EN_NO.iter().any(|w| t.starts_with(w))
        || t == "no";
    if objects {
        TurnStance::Objects
    } else if AGREE.iter().any(|w| t.contains(w)) {
        TurnStance::Agrees
    } else {
        TurnStance::Neither
    }
}

/// Whether a turn objects to what was said.
pub fn disagrees(text: &str) -> bool {
    stance(text) == TurnStance::Objects
}

/// Whether a turn agrees (and does not object).
pub fn agrees(text: &str) -> bool {
    stance(text) == TurnStance::Agrees
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negated_approval_is_an_objection_not_an_agreement() {
        assert_eq!(stance("这个方案不可以，Q3风险太大"), TurnStance::Objects);
        assert_eq!(stance("我不同意"), TurnStance::Objects);
        assert_eq!(stance("No, too risky"), TurnStance::Objects);
        assert_eq!(stance("I disagree"), TurnStance::Objects);
        assert_eq!(stance("可以，就这么办"), TurnStance::Agrees);
        assert_eq!(stance("No problem, I agree"), TurnStance::Agrees);
        assert_eq!(stance("we need a rollback plan"), TurnStance::Neither);
    }
}
