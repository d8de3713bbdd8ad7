//! What a proxy shares from its person's private conversation is masked first (seed 001
//! §4.5): before anything the person said goes to another person, an employee or a chat,
//! the private entities in it — contact details, identity numbers, customer codes and
//! money figures — are replaced by what they are ("[customer code]"), and the person is
//! told what was masked. Their own line keeps the original: it is theirs.
//!
//! First by rules: a figure of work ("three days", "80 %", "v2.3", "#42") is not private;
//! a sum of money or a customer's code is. Then, when the boss routed
//! [`Purpose::Privacy`](crate::gateway::Purpose::Privacy) to a model on this computer, what
//! that model points out in the rest ([`mask_found`]): a diagnosis, a salary, a customer's
//! name — what no pattern knows.

use std::sync::LazyLock;

use regex::Regex;

use crate::types::Language;

/// A kind of private detail, in the order they are looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Private {
    Email,
    IdNumber,
    Phone,
    CustomerCode,
    Amount,
    /// What the local model pointed out.
    Found,
}

impl Private {
    /// What stands in the shared text where the detail was.
    fn placeholder(self, lang: Language) -> String {
        let (en, zh) = match self {
            Private::Email => ("email address", "邮箱"),
            Private::IdNumber => ("ID number", "证件号"),
            Private::Phone => ("phone number", "电话"),
            Private::CustomerCode => ("customer code", "客户编码"),
            Private::Amount => ("amount", "金额"),
            Private::Found => ("private", "私密信息"),
        };
        lang.pick(format!("[{en}]"), format!("[{zh}]"))
    }

    /// The detail's name in the note to the person.
    fn named(self, lang: Language) -> String {
        let (en, zh) = match self {
            Private::Email => ("an email address", "邮箱"),
            Private::IdNumber => ("an ID number", "证件号"),
            Private::Phone => ("a phone number", "电话号码"),
            Private::CustomerCode => ("a customer code", "客户编码"),
            Private::Amount => ("a sum of money", "金额"),
            Private::Found => (
                "what the local model found private",
                "本地模型认为私密的内容",
            ),
        };
        lang.pick(en, zh)
    }
}

/// One rule: what it finds, and which capture group is the private part (0: all of it).
struct Rule {
    kind: Private,
    pattern: Option<Regex>,
    group: usize,
}

fn rule(kind: Private, pattern: &str, group: usize) -> Rule {
    Rule {
        kind,
        pattern: Regex::new(pattern).ok(),
        group,
    }
}

// Word boundaries are ASCII ones (`(?-u:\b)`): a number right after Chinese text ("电话1381…")
// has no Unicode word boundary before it, as CJK characters are word characters.
static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
        rule(
            Private::Email,
            r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}",
            0,
        ),
        // A Chinese resident ID: 17 digits and a check digit or X.
        rule(Private::IdNumber, r"(?-u:\b)\d{17}[\dXx](?-u:\b)", 0),
        rule(
            Private::Phone,
            r"\+\d{1,3}[\s\-]?\d[\d\s\-]{6,}\d|(?-u:\b)1[3-9]\d{9}(?-u:\b)|(?-u:\b)\d{3}[\-\s]\d{3,4}[\-\s]\d{4}(?-u:\b)",
            0,
        ),
        // A code named as a customer's or an account's, in either language…
        rule(
            Private::CustomerCode,
            r"(?i)(?-u:\b)(?:customer|client|account)\s*(?:code|id|no\.?|number|#)?\s*[:#]?\s*([A-Za-z0-9\-]*\d[A-Za-z0-9\-]*)",
            1,
        ),
        rule(
            Private::CustomerCode,
            r"(?:客户(?:编号|编码|代码|号)?|账号)\s*[:：]?\s*([A-Za-z0-9\-]*\d[A-Za-z0-9\-]*)",
            1,
        ),
        // …or shaped like one: letters, a dash, digits ("ACME-20931").
        rule(
            Private::CustomerCode,
            r"(?-u:\b)[A-Z]{2,6}-\d{3,}(?-u:\b)",
            0,
        ),
        rule(
            Private::Amount,
            r"(?i)[$€£¥￥]\s?\d[\d,.]*(?:\s?(?:(?:k|m|bn|million|billion)(?-u:\b)|万|亿))?|(?-u:\b)\d[\d,.]*\s?(?:k|m|bn|million|billion)?\s?(?:usd|eur|gbp|rmb|cny|dollars|euros)(?-u:\b)|\d[\d,.]*\s?(?:万元|亿元|元|美元|块钱)",
            0,
        ),
    ]
});

/// A text as it may be shared, and what was masked in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Masked {
    pub text: String,
    /// Each kind masked, once, in the order of [`Private`].
    pub kinds: Vec<Private>,
}

/// `text` with every private detail replaced by its placeholder in `lang`.
pub fn mask(text: &str, lang: Language) -> Masked {
    let mut out = text.to_owned();
    let mut kinds = Vec::new();
    for rule in RULES.iter() {
        let Some(re) = &rule.pattern else { continue };
        let placeholder = rule.kind.placeholder(lang);
        let mut replaced = String::with_capacity(out.len());
        let mut last = 0;
        for caps in re.captures_iter(&out) {
            let Some(m) = caps.get(rule.group) else {
                continue;
            };
            replaced.push_str(&out[last..m.start()]);
            replaced.push_str(&placeholder);
            last = m.end();
            if !kinds.contains(&rule.kind) {
                kinds.push(rule.kind);
            }
        }
        replaced.push_str(&out[last..]);
        out = replaced;
    }
    kinds.sort();
    Masked { text: out, kinds }
}

/// Longest a span the model points out may be: a detail, not the message.
pub const FOUND_MAX_CHARS: usize = 120;

/// `masked` with every occurrence of each `found` span (what the local model pointed out,
/// copied from the text) replaced too. A span that is not in the text, is shorter than
/// three characters, is longer than [`FOUND_MAX_CHARS`] or touches a placeholder already
/// there is ignored: the model only ever adds masking, never moves or removes it.
pub fn mask_found(mut masked: Masked, found: &[String], lang: Language) -> Masked {
    let placeholder = Private::Found.placeholder(lang);
    let mut spans: Vec<&str> = found
        .iter()
        .map(|s| s.trim())
        .filter(|s| {
            (3..=FOUND_MAX_CHARS).contains(&s.chars().count())
                && !s.contains('[')
                && !s.contains(']')
        })
        .collect();
    // The longest first: a span inside a longer one is masked with it.
    spans.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for span in spans {
        if masked.text.contains(span) {
            masked.text = masked.text.replace(span, &placeholder);
            if !masked.kinds.contains(&Private::Found) {
                masked.kinds.push(Private::Found);
            }
        }
    }
    masked.kinds.sort();
    masked
}

/// The note to the person about what was masked before sharing; `None` when nothing was.
pub fn note(kinds: &[Private], lang: Language) -> Option<String> {
    if kinds.is_empty() {
        return None;
    }
    let names: Vec<String> = kinds.iter().map(|k| k.named(lang)).collect();
    Some(lang.pick(
        format!(
            "Before sharing it I masked what is private: {}. If they need it, tell them yourself.",
            names.join(", ")
        ),
        format!(
            "分享前我遮盖了私密信息：{}。如需告诉对方，请你亲自说明。",
            names.join("、")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(text: &str) -> Masked {
        mask(text, Language::En)
    }

    #[test]
    fn every_rule_compiles() {
        assert!(RULES.iter().all(|r| r.pattern.is_some()));
    }

    #[test]
    fn contact_details_and_identity_numbers_are_masked() {
        let m = en("mail lin.wu@example.com or call +44 20 7946 0958, ID 11010519491231002X");
        assert_eq!(
            m.text,
            "mail [email address] or call [phone number], ID [ID number]"
        );
        assert_eq!(m.kinds, [Private::Email, Private::IdNumber, Private::Phone]);
        let zh = mask("电话13812345678", Language::ZhCn);
        assert_eq!(zh.text, "电话[电话]");
    }

    #[test]
    fn customer_codes_and_sums_of_money_are_masked() {
        let m =
            en("the pilot with ACME-20931 closes at $48,000; customer code 7731-B pays 12k USD");
        assert_eq!(
            m.text,
            "the pilot with [customer code] closes at [amount]; customer code [customer code] pays [amount]"
        );
        assert_eq!(m.kinds, [Private::CustomerCode, Private::Amount]);
        let zh = mask("客户编号A77812的报价是12万元，定金¥3万", Language::ZhCn);
        assert_eq!(zh.text, "客户编号[客户编码]的报价是[金额]，定金[金额]");
    }

    #[test]
    fn figures_of_work_stay() {
        for plain in [
            "about three days, 80% of it testing",
            "ship v2.3 on the 20th, see task #42",
            "大概三天，含测试",
            "we need 2 more engineers for Q3",
        ] {
            let m = en(plain);
            assert_eq!(m.text, plain);
            assert!(m.kinds.is_empty());
        }
        assert_eq!(note(&[], Language::En), None);
    }

    #[test]
    fn what_the_model_found_is_masked_too_but_it_cannot_unmask_or_mask_nothing() {
        let ruled = en("Dan's knee surgery is on Friday; the pilot closes at $48,000");
        let found = [
            "knee surgery".to_owned(),
            "[amount]".to_owned(),
            "a".to_owned(),
            "not in the text".to_owned(),
            "x".repeat(FOUND_MAX_CHARS + 1),
        ];
        let m = mask_found(ruled, &found, Language::En);
        assert_eq!(
            m.text,
            "Dan's [private] is on Friday; the pilot closes at [amount]"
        );
        assert_eq!(m.kinds, [Private::Amount, Private::Found]);
        let zh = mask_found(
            mask("王总的年薪是多少还没公布", Language::ZhCn),
            &["王总的年薪".to_owned()],
            Language::ZhCn,
        );
        assert_eq!(zh.text, "[私密信息]是多少还没公布");
        let none = mask_found(en("about three days"), &[], Language::En);
        assert!(none.kinds.is_empty());
    }

    #[test]
    fn the_person_is_told_what_was_masked_in_their_language() {
        let kinds = [Private::CustomerCode, Private::Amount];
        assert!(
            note(&kinds, Language::En)
                .unwrap()
                .contains("a customer code, a sum of money")
        );
        assert!(
            note(&kinds, Language::ZhCn)
                .unwrap()
                .contains("客户编码、金额")
        );
    }
}
