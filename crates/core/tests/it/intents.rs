//! The secretary's rule tier against the labelled corpus in `tests/corpus/intents.jsonl`
//! (boss utterances in Chinese, English and both, written from the boss's side first).
//!
//! An utterance counts as right when the intent kinds come out in the labelled order and
//! every labelled slot has the labelled value (strings compared trimmed and
//! case-insensitively; slots the label leaves out are not checked).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use cubicle_core::secretary::{CONFIDENT, Intent, IntentKind, Parse, Tier, parse_rules};
use serde::Deserialize;
use serde_json::Value;

/// The rule tier must get at least this share of the corpus right: below it, too many plain
/// instructions would fall through to a model (or to a question) that the rules should answer.
const REQUIRED_ACCURACY: f64 = 0.95;

#[derive(Deserialize)]
struct Labelled {
    text: String,
    intents: Vec<LabelledIntent>,
}

#[derive(Deserialize)]
struct LabelledIntent {
    kind: String,
    #[serde(default)]
    slots: serde_json::Map<String, Value>,
}

/// The held-out set must get at least this share right. It was written without looking at
/// the rules and is never tuned on (no rule changes to pass one of its lines), so it says
/// what a new boss's own phrasings meet; below this bar the rules have got narrower. When
/// it was frozen (68 lines) the rules got 77.9 % of it right, against 97.4 % of the
/// corpus they were tuned on.
const REQUIRED_HELD_OUT_ACCURACY: f64 = 0.75;

fn corpus() -> Vec<Labelled> {
    read_corpus("intents.jsonl")
}

/// The held-out sets, each frozen when written: phrasings the rules were never tuned on.
/// v1 exposed the confirmations read as tasks; those were then fixed from new lines in the
/// tuning corpus, never from v1's — but v1 had shown where to look, so v2 was written after
/// that fix, and v2 is the figure that tells.
const HELD_OUT: [(&str, &str); 2] = [
    (
        "v1 (written at stop 29; showed the misses fixed at stop 30)",
        "intents_heldout.jsonl",
    ),
    (
        "v2 (written at stop 30, after that fix)",
        "intents_heldout_v2.jsonl",
    ),
];

fn read_corpus(file: &str) -> Vec<Labelled> {
    let path = format!("{}/../../tests/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("corpus file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("corpus line {}: {e}", n + 1))
        })
        .collect()
}

fn slot_matches(want: &Value, got: Option<&Value>) -> bool {
    let Some(got) = got else { return false };
    match (want, got) {
        (Value::String(w), Value::String(g)) => w.trim().to_lowercase() == g.trim().to_lowercase(),
        (Value::Number(w), Value::Number(g)) => {
            (w.as_f64().unwrap_or(f64::NAN) - g.as_f64().unwrap_or(f64::NAN)).abs() < 1e-9
        }
        (Value::Array(w), Value::Array(g)) => {
            w.len() == g.len() && w.iter().zip(g).all(|(w, g)| slot_matches(w, Some(g)))
        }
        _ => false,
    }
}

/// Why an utterance was wrong, or `None` when it was right.
fn judge(label: &Labelled, parse: &Parse) -> Option<String> {
    let want: Vec<String> = label.intents.iter().map(|i| i.kind.clone()).collect();
    let got: Vec<String> = parse.intents.iter().map(|i| i.kind.to_string()).collect();
    if want != got {
        return Some(format!("kinds {got:?}, want {want:?}"));
    }
    for (w, g) in label.intents.iter().zip(&parse.intents) {
        let slots = serde_json::to_value(&g.slots).expect("slots to json");
        for (name, value) in &w.slots {
            if !slot_matches(value, slots.get(name)) {
                return Some(format!(
                    "{}.{name} = {}, want {value}",
                    w.kind,
                    slots.get(name).map_or("—".to_owned(), Value::to_string)
                ));
            }
        }
    }
    None
}

/// How many lines mix Chinese with Latin letters.
fn mixed(set: &[Labelled]) -> usize {
    set.iter()
        .filter(|l| is_chinese(&l.text) && l.text.chars().any(|c| c.is_ascii_alphabetic()))
        .count()
}

fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c))
}

/// The corpus is big enough, at least 40% Chinese with some mixed-language lines, and
/// labels every intent kind and every slot at least once.
fn the_corpus_covers_languages_kinds_and_slots(corpus: &[Labelled], zh: usize, mixed: usize) {
    assert!(
        corpus.len() >= 220,
        "corpus has only {} utterances",
        corpus.len()
    );
    assert!(
        zh * 10 >= corpus.len() * 4,
        "only {zh} of {} are Chinese",
        corpus.len()
    );
    assert!(mixed >= 10, "only {mixed} mixed-language utterances");
    for kind in IntentKind::ALL {
        assert!(
            corpus
                .iter()
                .any(|l| l.intents.iter().any(|i| i.kind == kind.to_string())),
            "no utterance labelled {kind}"
        );
    }
    for slot in [
        "role",
        "department",
        "name",
        "count",
        "target_department",
        "new_name",
        "description",
        "assignee",
        "topic",
        "participants",
        "level",
        "amount",
        "reviewer",
        "requirement",
    ] {
        assert!(
            corpus
                .iter()
                .any(|l| l.intents.iter().any(|i| i.slots.contains_key(slot))),
            "no utterance labels the slot {slot}"
        );
    }
}

/// How the rule tier did on the corpus.
#[derive(Default)]
struct Score<'a> {
    /// Per intent kind: (right, labelled); an utterance counts for every kind in its label.
    table: BTreeMap<&'a str, (u32, u32)>,
    misses: Vec<String>,
    right: usize,
    parsing: Duration,
}

/// Every utterance parsed by the rule tier (and timed) and judged against its label.
fn score_the_rule_tier(corpus: &[Labelled]) -> Score<'_> {
    let mut score = Score::default();
    for label in corpus {
        let t = Instant::now();
        let parse = parse_rules(&label.text);
        score.parsing += t.elapsed();
        assert_eq!(parse.tier, Tier::Rules);
        let verdict = judge(label, &parse);
        let mut kinds: Vec<&str> = label.intents.iter().map(|i| i.kind.as_str()).collect();
        kinds.dedup();
        for k in kinds {
            let e = score.table.entry(k).or_default();
            e.1 += 1;
            if verdict.is_none() {
                e.0 += 1;
            }
        }
        match verdict {
            None => score.right += 1,
            Some(why) => score.misses.push(format!("  {:?}: {why}", label.text)),
        }
    }
    score
}

/// The accuracy table per intent and overall, the mean parse time and the misses.
fn print_the_score(score: &Score, total: usize, (zh, mixed): (usize, usize)) {
    let overall = score.right as f64 / total as f64;
    println!(
        "\nrule tier on {total} utterances ({zh} with Chinese, {mixed} mixed, {} English only)",
        total - zh
    );
    println!("{:<20} {:>7} {:>9}", "intent", "right", "accuracy");
    for (kind, (ok, n)) in &score.table {
        println!(
            "{kind:<20} {:>7} {:>8.1}%",
            format!("{ok}/{n}"),
            100.0 * *ok as f64 / *n as f64
        );
    }
    println!(
        "{:<20} {:>7} {:>8.1}%",
        "OVERALL",
        format!("{}/{total}", score.right),
        100.0 * overall
    );
    println!(
        "mean parse time {:?} per utterance (this build's profile)",
        score.parsing / total as u32
    );
    if !score.misses.is_empty() {
        println!("misses:\n{}", score.misses.join("\n"));
    }
}

#[test]
fn rule_tier_meets_the_corpus_accuracy_bar() {
    let corpus = corpus();
    let zh = corpus.iter().filter(|l| is_chinese(&l.text)).count();
    let mixed = mixed(&corpus);
    the_corpus_covers_languages_kinds_and_slots(&corpus, zh, mixed);

    let score = score_the_rule_tier(&corpus);
    let overall = score.right as f64 / corpus.len() as f64;
    print_the_score(&score, corpus.len(), (zh, mixed));
    assert!(
        overall >= REQUIRED_ACCURACY,
        "rule tier accuracy {:.1}% is below {:.0}%",
        100.0 * overall,
        100.0 * REQUIRED_ACCURACY
    );
}

fn kinds(text: &str) -> Vec<IntentKind> {
    parse_rules(text).intents.iter().map(|i| i.kind).collect()
}

fn only(text: &str) -> Intent {
    let p = parse_rules(text);
    assert_eq!(p.intents.len(), 1, "{text:?} → {:?}", p.intents);
    p.intents.into_iter().next().expect("one intent")
}

#[test]
fn several_requests_in_one_message_are_split_in_order() {
    use IntentKind::*;
    assert_eq!(
        kinds("hire a designer and move Bob to Sales"),
        [HireEmployee, TransferEmployee]
    );
    assert_eq!(
        kinds("招一个测试，然后把张伟调到销售部"),
        [HireEmployee, TransferEmployee]
    );
    assert_eq!(kinds("approve #4 and reject #5"), [Approve, Reject]);
    assert_eq!(
        kinds("开除赵磊。另外，市场部现在在忙什么？"),
        [FireEmployee, AskStatus]
    );
    // "and" inside one request does not split it
    let m = only("set up a meeting with Alice and Bob about pricing");
    assert_eq!(m.slots.participants, ["Alice", "Bob"]);
    // one hire naming two roles is two hires, each with its own count
    let p = parse_rules("招两个前端和一个后端");
    let got: Vec<_> = p
        .intents
        .iter()
        .map(|i| (i.slots.role.as_deref(), i.slots.count))
        .collect();
    assert_eq!(
        got,
        [
            (Some("Frontend Engineer"), Some(2)),
            (Some("Backend Engineer"), Some(1))
        ]
    );
}

#[test]
fn counts_in_words_and_digits() {
    for (text, n) in [
        ("we need two QA engineers", Some(2)),
        ("招两个前端", Some(2)),
        ("招3个后端", Some(3)),
        ("hire 12 designers", Some(12)),
        ("招聘十名客服", Some(10)),
        ("hire a designer", Some(1)),
    ] {
        let i = only(text);
        if n.is_some() {
            assert_eq!(i.slots.count, n, "{text}");
        }
    }
}

#[test]
fn budget_amounts_in_any_currency_wording() {
    for (text, amount) in [
        ("set the daily budget to $5", 5.0),
        ("budget 5美元", 5.0),
        ("预算调到10刀", 10.0),
        ("cap spending at $3.50 per day", 3.5),
        ("把每日预算设置成二十美元", 20.0),
    ] {
        let i = only(text);
        assert_eq!(i.kind, IntentKind::SetPolicy, "{text}");
        assert_eq!(i.slots.amount, Some(amount), "{text}");
        assert!(i.is_confident(), "{text}");
    }
}

#[test]
fn missing_required_slots_lower_the_confidence() {
    for (text, kind) in [
        ("hire someone", IntentKind::HireEmployee),
        ("招个人", IntentKind::HireEmployee),
        ("fire someone", IntentKind::FireEmployee),
        ("辞退", IntentKind::FireEmployee),
        ("create a department", IntentKind::CreateDepartment),
        ("move someone to Sales", IntentKind::TransferEmployee),
        ("start a new project", IntentKind::CreateRequirement),
        ("把预算改一下", IntentKind::SetPolicy),
    ] {
        let i = only(text);
        assert_eq!(i.kind, kind, "{text}");
        assert!(i.confidence < CONFIDENT, "{text}: {}", i.confidence);
    }
    let clear = only("hire a frontend engineer for Product");
    assert!(clear.confidence >= CONFIDENT);
}

#[test]
fn gibberish_is_unknown_with_low_confidence() {
    for text in [
        "asdfgh",
        "purple monkey dishwasher",
        "",
        "   ",
        "蓝色的大象在飞",
        "🙂🙂🙂",
    ] {
        let i = only(text);
        assert_eq!(i.kind, IntentKind::Unknown, "{text:?}");
        assert!(i.confidence < 0.5);
    }
}

#[test]
fn destructive_intents_are_flagged() {
    assert!(only("fire Bob").kind.is_destructive());
    assert!(only("删除法务部").kind.is_destructive());
    assert!(!only("move Bob to Sales").kind.is_destructive());
}

#[test]
fn json_shape_is_the_cli_contract() {
    let p = parse_rules("we need two QA engineers in Engineering");
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v["tier"], "rules");
    let i = &v["intents"][0];
    assert_eq!(i["kind"], "hire_employee");
    assert!(i["confidence"].as_f64().unwrap() > 0.0);
    assert_eq!(i["slots"]["role"], "QA Engineer");
    assert_eq!(i["slots"]["count"], 2);
    assert_eq!(i["slots"]["department"], "Engineering");
    assert!(
        i["slots"].get("participants").is_none(),
        "empty slots are left out"
    );
    let obj = i.as_object().unwrap();
    assert_eq!(obj.len(), 3, "kind, confidence, slots only");
    let back: Parse = serde_json::from_value(v).unwrap();
    assert_eq!(back, p);
    let level = serde_json::to_value(parse_rules("switch approvals to manual")).unwrap();
    assert_eq!(level["intents"][0]["slots"]["level"], "manual");
}

/// A small deterministic generator so the hostile inputs are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// What hostile input is made of: intent words in both languages, punctuation,
/// control and direction characters, emoji sequences, brackets and look-alikes.
const HOSTILE_PIECES: &[&str] = &[
    "hire",
    "招",
    "fire",
    "开除",
    "把",
    "调到",
    "部",
    "and",
    ",",
    "，",
    "。",
    "!",
    "?",
    "$",
    "5",
    "两",
    "个",
    "😀",
    "👩‍💻",
    "\u{0}",
    "\u{7}",
    "\u{1b}[31m",
    "\u{202e}",
    "\u{200b}",
    "((((",
    "))))",
    "[[{{",
    "}}]]",
    "#",
    "#12",
    "to",
    "Sales",
    "张伟",
    " ",
    "\n",
    "\t",
    "ＡＢＣ",
    "　",
    "meeting with",
    "about",
    "讨论",
    "预算",
    "approve",
    "reject",
    "'",
    "\"",
    "\\",
    "é",
    "ß",
    "İ",
    "🏳️‍🌈",
    "ask",
    "让",
    "交给",
    ":",
    "：",
    "、",
    "1.5",
    "..",
    "…",
    "—",
];

/// Ten thousand strings of hostile pieces, the same on every run (one in a hundred far
/// past the rule tier's input cap, a few just under it), then a few long repetitions.
fn hostile_inputs() -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut inputs: Vec<String> = Vec::new();
    for n in 0..10_000 {
        let len = match n % 100 {
            0 => 5_000,   // far past the rule tier's input cap
            1..=4 => 900, // just under it
            _ => (rng.next() % 40) as usize,
        };
        let s: String = (0..len).map(|_| rng.pick(HOSTILE_PIECES)).collect();
        inputs.push(s);
    }
    inputs.push("(".repeat(100_000));
    inputs.push("招".repeat(999));
    inputs.push("hire and ".repeat(110));
    inputs.push(",".repeat(999));
    inputs
}

#[test]
fn ten_thousand_hostile_strings_never_panic() {
    let inputs = hostile_inputs();
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    for s in &inputs {
        let t = Instant::now();
        let p = parse_rules(s);
        slowest = slowest.max(t.elapsed());
        assert!(!p.intents.is_empty());
        for i in &p.intents {
            assert!((0.0..=1.0).contains(&i.confidence));
        }
        serde_json::to_string(&p).unwrap();
    }
    let total = started.elapsed();
    println!(
        "{} hostile inputs parsed in {total:?} (mean {:?}, slowest {slowest:?})",
        inputs.len(),
        total / inputs.len() as u32
    );
}

#[test]
fn rule_tier_meets_the_held_out_accuracy_bar() {
    let training: std::collections::HashSet<String> = corpus()
        .into_iter()
        .map(|l| l.text.to_lowercase())
        .collect();
    for (name, file) in HELD_OUT {
        let set = read_corpus(file);
        check_held_out_set(&set, &training);
        let zh = set.iter().filter(|l| is_chinese(&l.text)).count();
        let score = score_the_rule_tier(&set);
        let overall = score.right as f64 / set.len() as f64;
        println!("\nHELD-OUT SET {name} (never tuned on):");
        print_the_score(&score, set.len(), (zh, mixed(&set)));
        assert!(
            overall >= REQUIRED_HELD_OUT_ACCURACY,
            "held-out {name}: accuracy {:.1}% is below {:.0}%",
            100.0 * overall,
            100.0 * REQUIRED_HELD_OUT_ACCURACY
        );
    }
}

/// A held-out set big enough to tell, at least 40 % Chinese, and sharing no line with the
/// tuning corpus.
fn check_held_out_set(set: &[Labelled], training: &std::collections::HashSet<String>) {
    let zh = set.iter().filter(|l| is_chinese(&l.text)).count();
    assert!(set.len() >= 60, "held-out set has only {} lines", set.len());
    assert!(
        zh * 10 >= set.len() * 4,
        "only {zh} of {} are Chinese",
        set.len()
    );
    for l in set {
        assert!(
            !training.contains(&l.text.to_lowercase()),
            "{:?} is in the tuning corpus too",
            l.text
        );
    }
}
