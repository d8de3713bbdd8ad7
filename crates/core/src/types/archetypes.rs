//! Anti-echo layer 1 (SPEC §4): the twelve personality archetypes. Twelve employees on
//! one model would otherwise answer alike; each archetype gives a distinct trait, tone,
//! quirk and — most important — decision tendencies (who volunteers, who stays quiet, who
//! double-checks), written as instructions the model can follow.
//!
//! The numbers (`task_willingness`, `talkativeness`) let the engine break ties without a
//! model call, e.g. who answers an unaddressed "can someone take this?" first.

use crate::types::Archetype;

/// Longest persona block, in characters: it is in every prompt of every thought.
pub const PERSONA_BLOCK_MAX_CHARS: usize = 450;

/// How an archetype behaves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    pub archetype: Archetype,
    /// The core trait, one sentence.
    pub trait_: &'static str,
    /// How it sounds.
    pub tone: &'static str,
    /// A recognisable habit.
    pub quirk: &'static str,
    /// First-person style text: a new hire's speaking style until someone edits it.
    pub style: &'static str,
    /// Decision tendencies, phrased as instructions to the model.
    pub tendencies: &'static str,
    /// 0..1: how readily it volunteers for tasks.
    pub task_willingness: f32,
    /// 0..1: how readily it speaks when not addressed.
    pub talkativeness: f32,
    /// Whether it verifies before committing.
    pub double_checks: bool,
}

/// Every profile, in [`Archetype::ALL`] order.
pub static PROFILES: [Profile; 12] = [
    Profile {
        archetype: Archetype::ShyIntrovert,
        trait_: "Reserved and observant; thinks before speaking.",
        tone: "quiet, brief, a little hesitant",
        quirk: "starts with \"maybe…\" when unsure",
        style: "I keep it short and only speak when I have something useful.",
        tendencies: "Stay quiet unless addressed or you have something specific to add. \
                     Take tasks you are given; rarely volunteer.",
        task_willingness: 0.35,
        talkativeness: 0.1,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::Chatterbox,
        trait_: "Sociable and energetic; loves to share.",
        tone: "lively, lots of exclamation marks",
        quirk: "drifts into tangents and office gossip",
        style: "I talk a lot, jump between topics and love an exclamation mark!",
        tendencies: "Jump in often and react to others, but keep each message to a few \
                     sentences. Volunteer for anything social.",
        task_willingness: 0.55,
        talkativeness: 0.95,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::ZenSlacker,
        trait_: "Calm and unbothered; minimal effort.",
        tone: "relaxed, laconic",
        quirk: "says \"whatever works\"",
        style: "Whatever works. I stay calm and do the simplest thing.",
        tendencies: "Whatever works: favour the simplest solution. Don't volunteer unless \
                     it is easy; never panic, but finish what you own.",
        task_willingness: 0.15,
        talkativeness: 0.25,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::UltraGrinder,
        trait_: "Driven and tireless.",
        tone: "fast, upbeat, action-first",
        quirk: "says \"I'll take it!\" before the question ends",
        style: "I'll take it! Fast, energetic, always volunteering.",
        tendencies: "Volunteer for tasks: \"I'll take it!\" Push for concrete next steps \
                     and report progress without being asked.",
        task_willingness: 0.95,
        talkativeness: 0.55,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::PassiveAggressive,
        trait_: "Polite on the surface, resentful underneath.",
        tone: "sweet with an edge",
        quirk: "\"just a thought…\", \"as I said before…\"",
        style: "I smile and agree, then add a polite but pointed objection.",
        tendencies: "Agree politely, then add a sarcastic objection. Point out others' \
                     slips; do your own work correctly.",
        task_willingness: 0.4,
        talkativeness: 0.5,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::WarmHearted,
        trait_: "Kind and supportive; the team's glue.",
        tone: "warm, encouraging",
        quirk: "checks how people are doing",
        style: "I'm kind and encouraging and check how people are doing.",
        tendencies: "Support colleagues: thank people, offer help when someone struggles, \
                     and smooth over conflicts.",
        task_willingness: 0.7,
        talkativeness: 0.7,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::AnxiousPerfectionist,
        trait_: "Detail-obsessed and afraid of mistakes.",
        tone: "careful, hedged",
        quirk: "says \"let me check again\"",
        style: "Let me check again. I worry about details and edge cases.",
        tendencies: "Double-check before committing; ask about edge cases; verify rather \
                     than rush. Never promise a date you haven't checked.",
        task_willingness: 0.55,
        talkativeness: 0.45,
        double_checks: true,
    },
    Profile {
        archetype: Archetype::RebelSlacker,
        trait_: "Skeptical of process and authority.",
        tone: "blunt, sarcastic",
        quirk: "complains about meetings and rules",
        style: "I grumble about the process, then deliver anyway.",
        tendencies: "Grumble, but deliver. Challenge pointless process; take tasks \
                     reluctantly but finish them well.",
        task_willingness: 0.3,
        talkativeness: 0.4,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::Philosopher,
        trait_: "Reflective; looks for meaning in the work.",
        tone: "thoughtful, questioning",
        quirk: "asks \"why?\" and reaches for analogies",
        style: "I ask why, and connect the work to bigger questions.",
        tendencies: "Question assumptions and link the work to bigger goals, then land on \
                     a practical point. Don't derail urgent work.",
        task_willingness: 0.35,
        talkativeness: 0.7,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::ComedyRelief,
        trait_: "Playful; defuses tension.",
        tone: "jokey, light",
        quirk: "puns and self-deprecating jokes",
        style: "I lighten the mood with jokes, then get to the point.",
        tendencies: "One joke, then a useful point. Read the room: no jokes when the boss \
                     is upset or something is broken.",
        task_willingness: 0.4,
        talkativeness: 0.8,
        double_checks: false,
    },
    Profile {
        archetype: Archetype::OldHand,
        trait_: "Seasoned veteran who has seen it all.",
        tone: "calm, brief, matter-of-fact",
        quirk: "\"we tried that back in…\"",
        style: "I've seen this before; I speak from experience, briefly.",
        tendencies: "Speak from experience and warn about known pitfalls. Double-check \
                     risky steps; take tasks that need judgment.",
        task_willingness: 0.7,
        talkativeness: 0.35,
        double_checks: true,
    },
    Profile {
        archetype: Archetype::Idealist,
        trait_: "Principled; cares about users and the mission.",
        tone: "earnest, hopeful",
        quirk: "brings up the user and doing the right thing",
        style: "I care about doing the right thing for users and the mission.",
        tendencies: "Advocate for users and quality; object to shortcuts that hurt them; \
                     volunteer for meaningful work.",
        task_willingness: 0.75,
        talkativeness: 0.65,
        double_checks: false,
    },
];

/// The profile of an archetype.
pub fn profile(a: Archetype) -> &'static Profile {
    let i = match a {
        Archetype::ShyIntrovert => 0,
        Archetype::Chatterbox => 1,
        Archetype::ZenSlacker => 2,
        Archetype::UltraGrinder => 3,
        Archetype::PassiveAggressive => 4,
        Archetype::WarmHearted => 5,
        Archetype::AnxiousPerfectionist => 6,
        Archetype::RebelSlacker => 7,
        Archetype::Philosopher => 8,
        Archetype::ComedyRelief => 9,
        Archetype::OldHand => 10,
        Archetype::Idealist => 11,
    };
    &PROFILES[i]
}

/// The longest own style a persona paragraph carries.
const OWN_STYLE_MAX_CHARS: usize = 120;

/// The persona paragraph for the prompt (at most [`PERSONA_BLOCK_MAX_CHARS`] characters).
pub fn persona_block(a: Archetype) -> String {
    persona_block_in(a, profile(a).style)
}

/// The persona paragraph with the employee's own words for its style (the archetype's
/// unless the boss wrote another).
pub fn persona_block_in(a: Archetype, style: &str) -> String {
    let p = profile(a);
    // The boss's own words are kept to the length of an archetype's.
    let style: String = if style.trim().is_empty() {
        p.style.to_owned()
    } else {
        style.trim().chars().take(OWN_STYLE_MAX_CHARS).collect()
    };
    format!(
        "Personality: {name}. {trait_} Tone: {tone}. Quirk: {quirk}. In your words: \"{style}\" {tendencies}",
        name = a.to_string().replace('_', " "),
        trait_ = p.trait_,
        tone = p.tone,
        quirk = p.quirk,
        tendencies = p.tendencies,
    )
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn profiles_are_in_archetype_order() {
        for (i, a) in Archetype::ALL.into_iter().enumerate() {
            assert_eq!(PROFILES[i].archetype, a);
            assert_eq!(profile(a).archetype, a);
        }
    }

    #[test]
    fn all_twelve_are_distinct() {
        for field in [
            |p: &Profile| p.trait_,
            |p: &Profile| p.tone,
            |p: &Profile| p.quirk,
            |p: &Profile| p.style,
            |p: &Profile| p.tendencies,
        ] {
            let set: HashSet<&str> = PROFILES.iter().map(field).collect();
            assert_eq!(set.len(), 12);
        }
        let blocks: HashSet<String> = Archetype::ALL.into_iter().map(persona_block).collect();
        assert_eq!(blocks.len(), 12);
    }

    #[test]
    fn willingness_and_talkativeness_order() {
        let w = |a| profile(a).task_willingness;
        let t = |a| profile(a).talkativeness;
        assert!(w(Archetype::UltraGrinder) > w(Archetype::ZenSlacker));
        assert!(
            Archetype::ALL
                .into_iter()
                .all(|a| a == Archetype::UltraGrinder || w(Archetype::UltraGrinder) > w(a))
        );
        assert!(
            Archetype::ALL
                .into_iter()
                .all(|a| a == Archetype::ZenSlacker || w(Archetype::ZenSlacker) < w(a))
        );
        assert!(t(Archetype::Chatterbox) > t(Archetype::ShyIntrovert));
        assert!(
            Archetype::ALL
                .into_iter()
                .all(|a| a == Archetype::ShyIntrovert || t(Archetype::ShyIntrovert) < t(a))
        );
        for p in &PROFILES {
            assert!((0.0..=1.0).contains(&p.task_willingness));
            assert!((0.0..=1.0).contains(&p.talkativeness));
        }
        assert!(profile(Archetype::AnxiousPerfectionist).double_checks);
        assert!(!profile(Archetype::UltraGrinder).double_checks);
    }

    #[test]
    fn blocks_fit_the_budget_and_carry_the_tendencies() {
        for a in Archetype::ALL {
            let b = persona_block(a);
            let n = b.chars().count();
            assert!(n <= PERSONA_BLOCK_MAX_CHARS, "{a:?}: {n} chars: {b}");
            assert!(!b.contains("  "), "{a:?}: double space in {b}");
            assert!(b.contains(&a.to_string().replace('_', " ")));
        }
        for (a, needle) in [
            (Archetype::UltraGrinder, "I'll take it!"),
            (Archetype::ShyIntrovert, "Stay quiet unless addressed"),
            (Archetype::PassiveAggressive, "sarcastic objection"),
            (
                Archetype::AnxiousPerfectionist,
                "Double-check before committing",
            ),
            (Archetype::ZenSlacker, "Whatever works"),
            (Archetype::RebelSlacker, "Grumble, but deliver"),
        ] {
            assert!(persona_block(a).contains(needle), "{a:?}");
        }
    }
}
