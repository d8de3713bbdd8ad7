//! The closed sets of values that text columns hold, each one Rust enum.
//!
//! One macro, `stored_enum!`, gives each enum its stored spelling (`DeriveActiveEnum`:
//! the entities carry the enum, so a row is typed from the database to the UI), its JSON
//! spelling (serde, also what a company bundle holds) and its TypeScript type (ts-rs). The columns stay
//! plain text, so the schema and the strings in existing databases and bundles are
//! unchanged; `tests/it/enums.rs` reads rows written with the literal strings back through
//! every enum and checks that serde and the store spell each variant alike.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Declares one stored enum: the derives and attributes every stored enum shares (stored
/// and JSON spellings in snake_case unless a variant names its own, an `EnumIter`, a
/// TypeScript type) and a `Display` that prints the stored spelling, so logs, prompts and
/// the terminal show the same word the database holds. Attributes written on the enum
/// (docs, an extra derive, `#[ts(rename)]`) and on its variants are kept.
macro_rules! stored_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident),* $(,)? }
    ) => {
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, EnumIter, DeriveActiveEnum,
            Serialize, Deserialize, TS,
        )]
        $(#[$meta])*
        #[sea_orm(
            rs_type = "String",
            db_type = "String(StringLen::None)",
            rename_all = "snake_case"
        )]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($(#[$vmeta])* $variant),* }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.to_value())
            }
        }
    };
}

stored_enum! {
    /// Where an approval stands.
    pub enum ApprovalStatus {
        /// The only status a decision may be claimed from.
        Waiting,
        /// Approved: run, running, or queued for the engine that runs it.
        Approved,
        Rejected,
        Expired,
    }
}

stored_enum! {
    /// Where a decision came from. There is deliberately no variant for a model.
    pub enum DecidedVia {
        /// The approval queue in the app.
        Ui,
        /// A desktop notification's Approve / Reject button.
        Notification,
        Cli,
        /// A rule decided (the `auto` policy, or expiry).
        Policy,
    }
}

stored_enum! {
    /// SPEC §8: read-only tools never need confirmation, write tools are logged, high-risk
    /// tools wait for the boss under the default policy.
    pub enum Risk {
        ReadOnly,
        Write,
        High,
    }
}

stored_enum! {
    /// What became of one logged tool call.
    pub enum CallLogOutcome {
        Ok,
        Error,
        Refused,
        /// Filed as an approval.
        WaitingApproval,
    }
}

stored_enum! {
    /// Where a task stands (SPEC §6 pending | resolved | failed, and escalated: done by its
    /// owner but stopped on its way — a rework that repeats itself, a third rejection —
    /// and waiting for the boss's decision, so it is not shown as finished).
    #[derive(Default)]
    pub enum TaskStatus {
        #[default]
        Pending,
        Resolved,
        Failed,
        Escalated,
    }
}

stored_enum! {
    /// Why a resolved task's deliverable waits for the boss's review instead of counting
    /// as done: it does not address its task.
    pub enum ReviewReason {
        /// Much shorter than what the task asks for (a document of a line or two).
        TooShort,
        /// It repeats a chat message instead of doing the work.
        CopiesMessage,
        /// None of the words of the task's subject are in it.
        OffTopic,
        /// Not readable in the company's language: another language, replacement
        /// characters, or the prompt's own scaffolding ("第一行：标题") echoed back.
        Unreadable,
    }
}

stored_enum! {
    /// SPEC §6 task types.
    #[derive(Default)]
    pub enum TaskKind {
        /// Done once; ages into urgency (5 / 15 / 30 min) until it is.
        #[default]
        Oneshot,
        /// Ongoing work (watch the build, keep the docs current): no urgency.
        LongRunning,
        /// Waits for its condition; no urgency until then.
        Conditional,
    }
}

stored_enum! {
    /// What a mailbox item is.
    pub enum MailKind {
        /// An employee reports a finished task, in its own words.
        Report,
        /// A task is overdue, or something needs the boss.
        Escalation,
        /// Today's budget is spent: work has stopped.
        Budget,
        Digest,
        /// A meeting's minutes (SPEC §9).
        Minutes,
    }
}

stored_enum! {
    /// Whether the boss has seen a mailbox item.
    pub enum MailStatus {
        Unread,
        Read,
        Archived,
    }
}

stored_enum! {
    /// Which memory an entry belongs to. A model may also write the camelCase form.
    pub enum MemoryKind {
        #[serde(alias = "longTerm")]
        LongTerm,
        #[serde(alias = "shortTerm")]
        ShortTerm,
    }
}

stored_enum! {
    /// Who may read a memory entry (seed 001).
    #[derive(Default)]
    pub enum Visibility {
        /// The owner only; the default, so nothing leaks unless someone chose to share it.
        #[default]
        Private,
        /// The owner's department, or the requirement the entry is about.
        Team,
        /// The whole company.
        Public,
    }
}

stored_enum! {
    /// SPEC §8: how much the boss must approve.
    pub enum ApprovalPolicy {
        Auto,
        KeySteps,
        Manual,
    }
}

stored_enum! {
    /// SPEC §8 employee state machine, plus `fired` for former staff.
    pub enum EmployeeStatus {
        Idle,
        Receiving,
        Planning,
        Acting,
        Reporting,
        WaitingApproval,
        Fired,
    }
}

stored_enum! {
    /// Where a secretary's action card stands.
    pub enum ActionStatus {
        Proposed,
        /// Claimed by the one caller applying or undoing it; no other caller can.
        InProgress,
        Applied,
        Cancelled,
        Undone,
        Failed,
    }
}

stored_enum! {
    /// What a secretary's action card does: its proposal's kind.
    pub enum ActionKind {
        Hire,
        Fire,
        Transfer,
        CreateDepartment,
        RenameDepartment,
        SetPolicy,
        AssignTask,
        CreateRequirement,
        DeleteDepartment,
        ConveneMeeting,
        SetReviewer,
        InvitePerson,
    }
}

stored_enum! {
    /// How a meeting's moderator picks the next speaker.
    #[derive(Default)]
    pub enum Strategy {
        /// A fixed order; everyone speaks once per round; closes after the rounds.
        RoundRobin,
        /// Addressed people first, then expertise, invitations and a consensus close.
        #[default]
        RuleBased,
        /// A model picks; an invalid pick falls back to the rules.
        ModelPicked,
    }
}

stored_enum! {
    /// Where a boss instruction (a trace) came from.
    #[ts(rename = "Origin")]
    pub enum TraceOrigin {
        /// The boss wrote in a chat.
        Chat,
        /// The boss confirmed a secretary's action card.
        Secretary,
        /// A person's proxy acted in their name.
        Proxy,
    }
}

stored_enum! {
    /// Why a thought that wanted to speak stayed silent, or why there was no thought at all
    /// (stored as the thought's `silenced_by`; the UI translates each).
    pub enum SilenceReason {
        /// A chat gate: the model rated the topic saturated.
        Saturation,
        /// A chat gate: the employee spoke in this chat too recently.
        Cooldown,
        /// A chat gate: the employee has used up its messages for the window.
        AntiSpam,
        /// Held back: every line spoke as someone else, even after one regeneration.
        Identity,
        /// Held back: every line repeated what the speaker had just said.
        Repetition,
        /// No thought: the model's answer was unreadable.
        Malformed,
        /// No thought: today's budget is spent.
        Budget,
        /// No thought: the model could not be reached (the thought's `reason` holds the error).
        ModelError,
    }
}

stored_enum! {
    /// The UI and secretary language of a company.
    pub enum Language {
        #[sea_orm(string_value = "en")]
        #[serde(rename = "en")]
        En,
        #[sea_orm(string_value = "zh-CN")]
        #[serde(rename = "zh-CN")]
        ZhCn,
    }
}

impl Language {
    /// Of one text's English and Chinese wordings, the one in this language.
    pub fn pick(self, en: impl Into<String>, zh: impl Into<String>) -> String {
        match self {
            Language::En => en.into(),
            Language::ZhCn => zh.into(),
        }
    }

    /// Every language, in declaration order (the derive's list, so a new variant is
    /// offered everywhere the languages are listed, e.g. the CLI's `--language`).
    pub fn all() -> impl Iterator<Item = Language> {
        <Language as sea_orm::Iterable>::iter()
    }
}

stored_enum! {
    /// SPEC §4 anti-echo layer 1: the twelve personality archetypes (what each one
    /// means to a prompt lives in core's `mind::archetypes`).
    pub enum Archetype {
        ShyIntrovert,
        Chatterbox,
        ZenSlacker,
        UltraGrinder,
        PassiveAggressive,
        WarmHearted,
        AnxiousPerfectionist,
        RebelSlacker,
        Philosopher,
        ComedyRelief,
        OldHand,
        Idealist,
    }
}

impl Archetype {
    /// Every archetype, in declaration order.
    pub const ALL: [Archetype; 12] = [
        Archetype::ShyIntrovert,
        Archetype::Chatterbox,
        Archetype::ZenSlacker,
        Archetype::UltraGrinder,
        Archetype::PassiveAggressive,
        Archetype::WarmHearted,
        Archetype::AnxiousPerfectionist,
        Archetype::RebelSlacker,
        Archetype::Philosopher,
        Archetype::ComedyRelief,
        Archetype::OldHand,
        Archetype::Idealist,
    ];
}

stored_enum! {
    /// Where a requirement stands on the board.
    pub enum RequirementStatus {
        /// Nobody owns it yet (its department was empty when it was opened).
        Open,
        InProgress,
        /// Its work is done and only reviews are pending.
        InReview,
        /// Something in it went to the boss (a failed task, a third rejection, a rework
        /// that repeats itself) and waits for their decision.
        WaitingForBoss,
        Done,
        Cancelled,
    }
}

stored_enum! {
    /// What kind of decision a ruled question is (SPEC §9): the type decides who has
    /// jurisdiction, and money, resources and external commitments are the boss's alone.
    pub enum DecisionType {
        Tech,
        Ux,
        Compliance,
        Money,
        Resources,
        ExternalCommitment,
        Other,
    }
}

stored_enum! {
    /// How a ruling came out.
    pub enum RulingOutcome {
        Approved,
        Rejected,
        /// Taken to the boss; the meeting goes on meanwhile.
        Escalated,
    }
}

stored_enum! {
    /// What a model call is for; each purpose can be routed to its own model (seed 001).
    pub enum Purpose {
        Intent,
        Thought,
        Summary,
        Report,
        /// "Test connection" in settings and `cubicle-cli provider test`.
        Test,
        /// A one-off question (`cubicle-cli ask`).
        Ask,
        /// Finding the private details in what a proxy is about to share for its person
        /// (seed 001 §4.5): routed only to a model on this computer.
        Privacy,
    }
}

stored_enum! {
    /// What a chat is for; its gate table follows from it (see [`ChatMode`]).
    pub enum ChatKind {
        /// A department's group chat.
        Department,
        /// A requirement's (project's) group chat.
        Requirement,
        Meeting,
        /// The boss and one employee.
        Boss,
        /// Two employees.
        Dm,
        /// A group the boss put together.
        Group,
        /// People of the company, through their proxies.
        People,
    }
}

stored_enum! {
    /// Which gate table a chat follows (SPEC §4).
    pub enum ChatMode {
        /// Requirement (project) groups, meetings, and DMs by default: few, focused messages.
        Work,
        /// Department and social groups: more room for banter.
        Casual,
    }
}

stored_enum! {
    /// Who wrote a chat message.
    pub enum SenderKind {
        Boss,
        Employee,
        /// A person of the company (not the boss), writing themself.
        Person,
        /// A person's proxy, writing in their name.
        Proxy,
        /// A note the app posts itself (a task is done, an approval expired); no sender.
        System,
    }
}

stored_enum! {
    /// Whether a meeting still runs.
    pub enum MeetingStatus {
        Open,
        /// Its minutes are taken; nobody has the floor.
        Closed,
    }
}

stored_enum! {
    /// What a meeting's moderator did, as its note records it.
    pub enum MoveKind {
        /// Gave someone the floor.
        Speak,
        /// Asked someone to join.
        Invite,
        /// Ended the meeting.
        Close,
        /// The chosen speaker stayed silent: their turn counts as a pass.
        Pass,
    }
}

stored_enum! {
    /// Who ruled on a question (SPEC §9).
    pub enum DecidedByKind {
        /// The lead of the department with jurisdiction.
        Lead,
        /// A weighted vote of everyone who took a position.
        Vote,
        Boss,
    }
}

stored_enum! {
    /// Whether a ruling stands or waits for the boss.
    pub enum DecisionStatus {
        Decided,
        /// Taken to the boss, who has not ruled on it yet.
        Escalated,
    }
}

stored_enum! {
    /// What a cost-ledger row records: how one attempt ended, why a call was refused
    /// before it was made, or a provider's circuit breaker changing state (attempt 0, no
    /// cost).
    pub enum LedgerOutcome {
        /// The attempt was answered.
        Ok,
        Error,
        /// The caller stopped listening to a stream.
        Cancelled,
        /// Refused: today's budget is spent.
        BudgetExceeded,
        /// Refused: the provider's breaker is open and there is no fallback.
        BreakerOpen,
        /// The provider failed repeatedly and is paused.
        BreakerOpened,
        /// The provider answered again after a pause.
        BreakerClosed,
    }
}

stored_enum! {
    /// Who said a line of the boss ↔ secretary conversation.
    pub enum Speaker {
        Boss,
        Secretary,
    }
}

stored_enum! {
    /// Who gave a task to its owner.
    pub enum TaskOrigin {
        Boss,
        Secretary,
        /// The employee gave it to itself in a thought. (Stored as `self` before the
        /// column was typed; a migration renamed those rows, since `self` cannot name a
        /// variant of the derive.)
        Own,
        /// A review of a colleague's deliverable, or the rework a review asked for.
        Review,
        /// A requirement's first task, for its owner: plan the work.
        Plan,
        /// Given to a colleague by the owner of a requirement or of a task.
        Owner,
        /// Given by a person of the company, through their proxy.
        Person,
    }
}

stored_enum! {
    /// What became of a structured answer, on the ledger row of the attempt that got it.
    pub enum StructuredOutput {
        /// It matched its schema as sent.
        Valid,
        /// It matched after a repair (a fence, a trailing comma, a missing brace).
        Repaired,
        /// An earlier attempt whose answer did not match, so the call was retried.
        Rejected,
        /// The last attempt's answer did not match either: nothing was used.
        Dropped,
        /// The answer stopped at the output limit.
        CutOff,
    }
}

stored_enum! {
    /// Who said a line of a person's conversation with their proxy.
    pub enum ProxySpeaker {
        Person,
        Proxy,
    }
}
