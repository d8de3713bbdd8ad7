//! One flow-of-thought (SPEC §4): the prompt an employee thinks with, and the JSON it
//! answers with.
//!
//! The prompt carries the persona and agent card, the scene, the last 20 messages with
//! what is new to the employee, the rolling chat summary, the memories most relevant to
//! the conversation, impressions of the colleagues present (and no one else), pending
//! tasks with their urgency, a de-duplication hint, one perspective seed and the stamina
//! note — under a token budget, so a thought sends less than a naive prompt with the
//! whole history and every memory, and the gap grows with the history (`cubicle-cli bench
//! chat` races the two).
//!
//! The answer is parsed leniently: every field has a default (SPEC: interest 7 /
//! saturation 3 in DMs, 5 / 0 in groups when omitted) and numbers out of range are
//! clamped by the engine, so a small model's near-miss still yields a usable thought.

use chrono::{DateTime, Utc};
use cubicle_llm::{AnswerNote, ChatMessage, CompletionRequest};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::archetypes::persona_block_in;
use super::memory_rules::MemoryItem;
use super::seeds::Seed;
use super::stamina::Stamina;
use crate::chat::ChatKind;
use crate::org::{CompanyDto, EmployeeDto};
use crate::types::Language;
use crate::work::urgency;

/// What a prompt may cost, in (estimated) tokens, the answer's contract included; past it,
/// older messages go first, then the lower ranked memories, then impressions.
pub const PROMPT_TOKEN_BUDGET: usize = 1300;
/// The newest messages a thought always sees, whatever the budget.
const MESSAGES_KEPT: usize = 8;
/// The best ranked memories, which go before impressions of those present.
const MEMORIES_FIRST: usize = 3;
/// The longest answer a thought may write.
pub const THOUGHT_MAX_TOKENS: u32 = 450;
/// A thought's sampling temperature when the employee's role card sets none: lively
/// enough for conversation.
pub const DEFAULT_THOUGHT_TEMPERATURE: f32 = 0.8;
/// Messages shown in full; longer ones are cut (the summary carries the gist).
const MESSAGE_PROMPT_CHARS: usize = 320;
const SUMMARY_PROMPT_CHARS: usize = 500;
/// A memory as the prompt shows it (memories hold up to 500 characters).
const MEMORY_PROMPT_CHARS: usize = 120;
/// An impression as the prompt shows it: its gist (impressions hold up to 200).
const IMPRESSION_PROMPT_CHARS: usize = 70;
/// What is new to the employee, said after the messages: a mark on each line would change
/// those lines in the next thought, and the cached prefix would end at the first of them.
fn new_note(n: usize) -> String {
    if n == 1 {
        "(The last message is new to you.)\n".to_owned()
    } else {
        format!("(The last {n} messages are new to you.)\n")
    }
}
/// At most this many messages per thought: a chat is a conversation, not a broadcast.
pub const MAX_MESSAGES_PER_THOUGHT: usize = 2;

/// The model's answer for one wake-up (one JSON object, always, even when silent).
/// An answer without `shouldSpeak` is not a thought (garbage "repaired" into `{}` must not
/// pass as a silent one). The schema also requires `innerThoughts` and `messages`, in
/// the order think, draft, decide: a grammar-constrained small model that decides first
/// mostly says it will speak and then closes the object without a word. Everything else
/// may be left out (SPEC §4: defaults for interest and saturation); the gates decide
/// what a draft that should be sent actually becomes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = think_decide_write)]
pub struct Thought {
    /// Private: stored and shown to the boss, never posted.
    #[serde(default)]
    pub inner_thoughts: String,
    /// 1–10: how exhausted the topic is (10 = nothing new to say).
    #[serde(default)]
    pub topic_saturation: Option<f64>,
    /// 1–10: how much this conversation interests the employee.
    #[serde(default)]
    pub interest_level: Option<f64>,
    pub should_speak: bool,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub messages: Vec<OutMessage>,
    /// A one-line rolling summary of the chat so far.
    #[serde(default)]
    pub memory_summary: Option<String>,
    #[serde(default)]
    pub memory_ops: Vec<MemoryOp>,
    #[serde(default)]
    pub relationship_ops: Vec<RelationshipOp>,
    #[serde(default)]
    pub task_ops: Vec<TaskOp>,
    /// Tools the employee wants to use (SPEC §8). Whatever the thought says, it
    /// cannot approve them: each goes through the approval policy.
    #[serde(default)]
    pub tool_calls: Vec<ToolCallOp>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ToolCallOp {
    pub tool: String,
    pub args: serde_json::Map<String, serde_json::Value>,
    #[schemars(length(max = 300))]
    pub reason: String,
}

/// The keys every thought carries, in the order it should write them (see [`Thought`]).
fn think_decide_write(schema: &mut schemars::Schema) {
    schema.insert(
        "required".into(),
        serde_json::json!(["innerThoughts", "messages", "shouldSpeak"]),
    );
    // Generous bounds that a grammar-constrained model cannot run past (a small model
    // would otherwise think until the token limit cuts the answer off).
    if let Some(p) = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut("innerThoughts"))
        .and_then(serde_json::Value::as_object_mut)
    {
        p.insert("maxLength".into(), serde_json::json!(INNER_MAX_CHARS));
    }
}

/// The longest inner thought a schema-following model may write.
pub const INNER_MAX_CHARS: usize = 600;
/// The longest chat message a schema-following model may write.
pub const MESSAGE_MAX_CHARS: usize = 600;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct OutMessage {
    #[schemars(length(max = 600))]
    pub content: String,
    /// A colleague's name: the message goes to a private chat with them instead; or
    /// `#name` of one of the employee's group chats: it goes there.
    pub to: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct MemoryOp {
    /// `add` or `delete`.
    #[schemars(with = "String")]
    pub op: MemoryVerb,
    /// `long_term` or `short_term`.
    #[serde(rename = "type")]
    pub kind: String,
    pub content: Option<String>,
    pub importance: Option<f64>,
    /// Short-term lifetime in hours.
    pub ttl: Option<f64>,
    /// The memory to delete.
    pub id: Option<i64>,
    /// `private` (default), `team` or `public`.
    pub visibility: Option<String>,
}

/// What a memory op does. Any other word the model writes is kept as `Unknown` (the
/// schema asks only for a string), so that op alone is dropped and the thought stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryVerb {
    Add,
    Delete,
    #[serde(untagged)]
    Unknown(String),
}

impl Default for MemoryVerb {
    /// No op named: nothing to do.
    fn default() -> Self {
        MemoryVerb::Unknown(String::new())
    }
}

/// What a task op does; any other word is `Unknown` and that op alone is dropped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskVerb {
    Create,
    Resolve,
    Fail,
    #[serde(untagged)]
    Unknown(String),
}

impl Default for TaskVerb {
    /// No op named: nothing to do.
    fn default() -> Self {
        TaskVerb::Unknown(String::new())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct RelationshipOp {
    /// Read when a model sends it; never asked for (the prompt names colleagues, not ids).
    #[schemars(skip)]
    pub employee_id: Option<i64>,
    pub name: Option<String>,
    pub impression: Option<String>,
    pub affinity: Option<f64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct TaskOp {
    /// `create`, `resolve` or `fail`.
    #[schemars(with = "String")]
    pub op: TaskVerb,
    pub id: Option<i64>,
    pub description: Option<String>,
    pub result: Option<String>,
    /// `oneshot` (default), `long_running` or `conditional` (SPEC §6).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// For a conditional task: what it waits for.
    pub condition: Option<String>,
    /// Where to report when done: `#chat` or a colleague's name; the boss by default.
    pub report_to: Option<String>,
    /// Who does a created task: a colleague's name. Only a requirement's owner gives out
    /// work this way, in its group; anyone else's task is their own.
    pub assignee: Option<String>,
}

/// One message as the prompt shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneMessage {
    pub id: i32,
    pub sender: String,
    pub is_boss: bool,
    pub is_me: bool,
    pub text: String,
    pub unread: bool,
    pub at: DateTime<Utc>,
}

/// Everything one thought is about. The engine gathers it; this module only writes.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    pub me: &'a EmployeeDto,
    pub company: &'a CompanyDto,
    pub department: Option<&'a str>,
    pub department_mission: Option<&'a str>,
    pub chat_name: &'a str,
    /// `department`, `requirement`, `meeting`, `boss`, `dm` or `group`.
    pub chat_kind: ChatKind,
    pub chat_topic: Option<&'a str>,
    /// (name, title) of the other members present.
    pub others: Vec<(String, String)>,
    pub messages: Vec<SceneMessage>,
    pub summary: Option<&'a str>,
    pub memories: Vec<MemoryItem>,
    /// (name, impression, affinity) of colleagues present only.
    pub impressions: Vec<(String, String, i32)>,
    /// (id, description, age) of pending tasks.
    pub tasks: Vec<(i32, String, chrono::TimeDelta)>,
    /// Who already answered the newest message the employee has not answered.
    pub already_replied: Vec<String>,
    pub seed: &'static Seed,
    pub stamina: Stamina,
    /// The boss spoke to this employee by name or @mention in what is new to them.
    pub addressed: bool,
    /// A task just resolved, to report (onResolve).
    pub report: Option<Report>,
    /// Names of the other group chats the employee is in (it may post there).
    pub other_chats: Vec<String>,
    /// What the employee's recent tool calls came to, newest first (one line each).
    pub tool_results: Vec<String>,
}

/// A resolved task the employee reports on (SPEC §6 onResolve).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub description: String,
    pub result: Option<String>,
    /// The task's own instruction for the report, if it has one.
    pub hint: Option<String>,
}

/// The request for one thought, and its estimated prompt size.
#[derive(Clone, Debug)]
pub struct Prompt {
    pub request: CompletionRequest,
    pub tokens: usize,
}

/// Tokens of a text, estimated: a token per four Latin characters and one per CJK
/// character (SmolLM2's tokenizer lands within ~20 % of this on our prompts).
pub fn approx_tokens(text: &str) -> usize {
    let (ascii, other) = text.chars().fold((0usize, 0usize), |(a, o), c| {
        if c.is_ascii() { (a + 1, o) } else { (a, o + 1) }
    });
    ascii.div_ceil(4) + other
}

/// The prompt of one thought, under [`PROMPT_TOKEN_BUDGET`].
pub fn build(scene: &Scene<'_>) -> Prompt {
    build_within(scene, PROMPT_TOKEN_BUDGET)
}

/// The naive prompt a benchmark races ours against: the same parts with no budget, so
/// every message, memory and impression of the scene goes in (each line cut at the
/// same length as ours).
pub fn build_unbudgeted(scene: &Scene<'_>) -> Prompt {
    build_within(scene, usize::MAX)
}

fn build_within(scene: &Scene<'_>, budget: usize) -> Prompt {
    let system = system_prompt(scene);
    let note = answer_note(scene);
    let head = context_head(scene);
    let tail = context_tail(scene);
    let fixed = approx_tokens(&system)
        + contract_tokens(&note)
        + approx_tokens(&head)
        + approx_tokens(&tail)
        + approx_tokens(&new_note(MESSAGES_KEPT));
    let mut left = budget.saturating_sub(fixed);
    // What the budget holds, most needed first: the newest messages, the best ranked
    // memories, impressions, the other memories, and older messages.
    let lines: Vec<String> = scene.messages.iter().map(message_line).collect();
    let newest = lines.len().saturating_sub(MESSAGES_KEPT);
    left = left.saturating_sub(lines[newest..].iter().map(|l| approx_tokens(l)).sum());
    let (best, rest) = scene
        .memories
        .split_at(scene.memories.len().min(MEMORIES_FIRST));
    let mut memories = fitting(best.iter().map(memory_line), &mut left);
    let impressions = fitting(scene.impressions.iter().map(impression_line), &mut left);
    if memories.len() == best.len() {
        memories.extend(fitting(rest.iter().map(memory_line), &mut left));
    }
    let older = fitting(lines[..newest].iter().rev().cloned(), &mut left).len();
    let start = newest - older;
    // The conversation first, right after the system prompt: between two thoughts it
    // only grows at its end, so everything up to the previous thought's newest message is
    // a prefix the provider's prompt cache serves again. What changes from thought to
    // thought (what is new, the summary, memories, impressions, tasks) comes after it.
    let mut user = String::new();
    if lines.is_empty() {
        user.push_str("No messages yet.\n");
    } else {
        user.push_str("Recent messages:\n");
        for l in &lines[start..] {
            user.push_str(l);
            user.push('\n');
        }
        // What arrived since the employee last looked: from the first unread message on.
        let new = scene.messages[start..]
            .iter()
            .position(|m| m.unread)
            .map_or(0, |i| lines.len() - start - i);
        if new > 0 {
            user.push_str(&new_note(new));
        }
    }
    user.push_str(&head);
    if !memories.is_empty() {
        user.push_str("You remember:\n");
        user.push_str(&memories.concat());
    }
    if !impressions.is_empty() {
        user.push_str("Your view of those present:\n");
        user.push_str(&impressions.concat());
    }
    user.push_str(&tail);
    let tokens = approx_tokens(&system) + approx_tokens(&note.full) + approx_tokens(&user);
    Prompt {
        request: CompletionRequest {
            messages: vec![ChatMessage::system(system), ChatMessage::user(user)],
            temperature: Some(
                scene
                    .me
                    .temperature
                    .map_or(DEFAULT_THOUGHT_TEMPERATURE, |t| t as f32),
            ),
            max_tokens: Some(THOUGHT_MAX_TOKENS),
            answer_note: Some(note),
            ..Default::default()
        },
        tokens,
    }
}

fn system_prompt(s: &Scene<'_>) -> String {
    let boss = &s.company.boss_name;
    let language = match s.company.language {
        Language::ZhCn => "Simplified Chinese",
        Language::En => "English",
    };
    let mut out = super::agent_card(s.me, s.company, s.department);
    out.push('\n');
    out.push_str(&persona_block_in(s.me.archetype, &s.me.speaking_style));
    out.push('\n');
    let members: Vec<String> = s.others.iter().map(|(n, t)| format!("{n} ({t})")).collect();
    out.push_str(&format!(
        "Scene: the {kind} chat \"{chat}\"{topic}{mission}. Present: {members}; {boss}, the boss, \
         may post anytime: treat it as an instruction.\n",
        kind = kind_label(s.chat_kind),
        chat = s.chat_name,
        topic = s
            .chat_topic
            .map(|t| format!(" about \"{}\"", cut(t, 160)))
            .unwrap_or_default(),
        mission = s
            .department_mission
            .filter(|m| !m.is_empty())
            .map(|m| format!(" (mission: {})", cut(m, 160)))
            .unwrap_or_default(),
        members = if members.is_empty() {
            "nobody else".into()
        } else {
            members.join(", ")
        },
    ));
    if !s.other_chats.is_empty() {
        let chats: Vec<String> = s
            .other_chats
            .iter()
            .take(8)
            .map(|c| format!("#{c}"))
            .collect();
        out.push_str(&format!("Your other chats: {}.\n", chats.join(", ")));
    }
    out.push_str(&format!(
        "Write chat messages in {language}, short and in your own voice. Speak only when you add \
         something new; silence is fine.\n"
    ));
    out.truncate(out.trim_end().len());
    out
}

/// The thought's answer in words: in full where the server does not enforce the schema,
/// and beside an enforced schema only what the schema cannot say.
fn answer_note(s: &Scene<'_>) -> AnswerNote {
    let mut full = String::from(
        "Answer with one JSON object; leave out what you don't need: {\"innerThoughts\":private,\
         \"interestLevel\":1-10,\"topicSaturation\":1-10 (10 = nothing new),\"shouldSpeak\":bool,\
         \"reason\",\"messages\":[{\"content\",\"to\":a colleague (private) or \"#chat\"}] 0-2 if \
         speaking,\"memorySummary\":one line,\"memoryOps\":[{\"op\":add|delete,\
         \"type\":long_term|short_term,\"content\",\"importance\":1-10,\"ttl\":hours,\
         \"visibility\":private|team|public,\"id\"}],\"relationshipOps\":[{\"name\",\
         \"impression\":≤200 chars,\"affinity\":1-100}],\"taskOps\":[{\"op\":create|resolve|fail,\
         \"id\",\"description\",\"type\":oneshot|long_running|conditional,\"condition\",\
         \"reportTo\":a colleague or \"#chat\" (default: the boss),\"assignee\":a colleague if you \
         own the requirement,\"result\"}]",
    );
    // Tool calls only for someone who has tools.
    if !s.me.tool_whitelist.is_empty() {
        full.push_str(",\"toolCalls\":[{\"tool\",\"args\":{},\"reason\"}]");
    }
    full.push('}');
    // Beside an enforced schema, only what the schema cannot say.
    let meanings = "JSON values: interestLevel, topicSaturation (10 = nothing new), importance \
                    1-10; affinity 1-100; ttl hours; messages 0-2, only if speaking, \"to\" a \
                    colleague (private) or \"#chat\"; memoryOps op add|delete, type \
                    long_term|short_term, visibility private|team|public; taskOps op \
                    create|resolve|fail, type oneshot|long_running|conditional, reportTo a \
                    colleague or \"#chat\" (default: the boss), \"assignee\" a colleague only if you \
                    own the requirement."
        .to_owned();
    AnswerNote { full, meanings }
}

/// What the answer's contract costs at most, in estimated tokens: the full note, or the
/// meanings beside the compacted schema, whichever is larger.
fn contract_tokens(note: &AnswerNote) -> usize {
    static SCHEMA_TOKENS: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| {
        serde_json::to_value(schemars::schema_for!(Thought))
            .map(|v| approx_tokens(&cubicle_llm::shape::wire_schema(&v).to_string()))
            .unwrap_or(0)
    });
    approx_tokens(&note.full).max(approx_tokens(&note.meanings) + *SCHEMA_TOKENS)
}

fn context_head(s: &Scene<'_>) -> String {
    let mut out = String::new();
    // After the conversation: it changes from thought to thought, and what comes before it
    // is a prefix the provider's prompt cache can serve again.
    if let Some(note) = s.stamina.prompt_note() {
        out.push_str(note);
        out.push('\n');
    }
    if let Some(summary) = s.summary.filter(|x| !x.trim().is_empty()) {
        out.push_str(&format!(
            "Earlier in this chat: {}\n",
            cut(summary, SUMMARY_PROMPT_CHARS)
        ));
    }
    out
}

fn context_tail(s: &Scene<'_>) -> String {
    let mut out = String::new();
    let tasks: Vec<(String, chrono::TimeDelta)> = s
        .tasks
        .iter()
        .map(|(id, d, age)| (format!("#{id} {d}"), *age))
        .collect();
    out.push_str(&urgency::task_section(&tasks));
    out.push('\n');
    if !s.tool_results.is_empty() {
        out.push_str("Your recent tool calls:\n");
        for line in &s.tool_results {
            out.push_str(&format!("- {}\n", cut(line, 300)));
        }
    }
    if let Some(r) = &s.report {
        out.push_str(&format!(
            "Your task \"{}\" is done{}. {} Write the report yourself, in your own voice (shouldSpeak true).\n",
            cut(&r.description, 200),
            r.result
                .as_deref()
                .map(|x| format!(" (result: {})", cut(x, 400)))
                .unwrap_or_default(),
            r.hint
                .as_deref()
                .map_or_else(|| format!("Report the result to {}.", s.company.boss_name), |h| cut(h, 200)),
        ));
    }
    if s.addressed {
        out.push_str(&format!(
            "{} spoke to you directly: answer them (shouldSpeak true).\n",
            s.company.boss_name
        ));
    }
    if !s.already_replied.is_empty() {
        out.push_str(&format!(
            "{} already replied to the latest message; don't repeat them.\n",
            s.already_replied.join(", ")
        ));
    }
    out.push_str(&format!("This time: {}\n", s.seed.instruction));
    out.push_str("Think, then answer with the JSON object only.");
    out
}

/// The lines of `items`, in order, while each fits in what is `left` of the budget.
fn fitting(items: impl Iterator<Item = String>, left: &mut usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in items {
        let cost = approx_tokens(&line);
        if cost > *left {
            break;
        }
        *left -= cost;
        out.push(line);
    }
    out
}

fn memory_line(m: &MemoryItem) -> String {
    format!(
        "- #{} ({}) {}\n",
        m.id,
        m.importance,
        cut(&m.content, MEMORY_PROMPT_CHARS)
    )
}

fn impression_line((name, impression, affinity): &(String, String, i32)) -> String {
    format!(
        "- {name} (affinity {affinity}): {}\n",
        cut(impression, IMPRESSION_PROMPT_CHARS)
    )
}

fn message_line(m: &SceneMessage) -> String {
    let who = if m.is_me {
        format!("{} (you)", m.sender)
    } else if m.is_boss {
        format!("{} (boss)", m.sender)
    } else {
        m.sender.clone()
    };
    format!(
        "[{}] {who}: {}",
        m.at.format("%H:%M"),
        cut(&m.text, MESSAGE_PROMPT_CHARS)
    )
}

fn kind_label(kind: ChatKind) -> &'static str {
    match kind {
        ChatKind::Department => "department group",
        ChatKind::Requirement => "project group",
        ChatKind::Meeting => "meeting",
        ChatKind::Boss => "private (you and the boss)",
        ChatKind::Dm => "private",
        ChatKind::Group => "group",
        // No employee is a member of a chat between people; a thought never sees one.
        ChatKind::People => "people's chat",
    }
}

fn cut(text: &str, max: usize) -> String {
    let t = text.trim();
    if t.chars().count() <= max {
        return t.to_owned();
    }
    let mut s: String = t.chars().take(max).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mind::memory_rules::{MemoryKind, Visibility};
    use crate::types::*;

    fn company() -> CompanyDto {
        CompanyDto {
            id: 1,
            name: "Acme".into(),
            mission: String::new(),
            boss_name: "Ada".into(),
            language: Language::En,
            approval_policy: ApprovalPolicy::KeySteps,
            daily_budget_usd: 2.0,
            created_at: String::new(),
        }
    }

    fn alice() -> EmployeeDto {
        EmployeeDto {
            title: "Backend Engineer".into(),
            archetype: Archetype::OldHand,
            speaking_style: "Dry, precise.".into(),
            skills: vec!["rust".into()],
            ..crate::mind::tests::alice()
        }
    }

    fn msg(id: i32, sender: &str, text: &str, unread: bool) -> SceneMessage {
        SceneMessage {
            id,
            sender: sender.into(),
            is_boss: sender == "Ada",
            is_me: sender == "Alice",
            text: text.into(),
            unread,
            at: DateTime::from_timestamp(1_780_000_000 + i64::from(id) * 60, 0).unwrap_or_default(),
        }
    }

    fn scene<'a>(
        me: &'a EmployeeDto,
        co: &'a CompanyDto,
        messages: Vec<SceneMessage>,
    ) -> Scene<'a> {
        Scene {
            me,
            company: co,
            department: Some("Engineering"),
            department_mission: Some("Build the robots' brains"),
            chat_name: "Engineering",
            chat_kind: ChatKind::Department,
            chat_topic: None,
            others: vec![("Bob".into(), "QA Engineer".into())],
            messages,
            summary: Some("We agreed to ship on Friday."),
            memories: vec![MemoryItem {
                id: 9,
                owner_id: 1,
                kind: MemoryKind::LongTerm,
                content: "Bob prefers GraphQL".into(),
                importance: 7,
                visibility: Visibility::Private,
                department_id: None,
                requirement_id: None,
                created_at: Utc::now(),
                expires_at: None,
            }],
            impressions: vec![("Bob".into(), "careful tester".into(), 64)],
            tasks: vec![(
                3,
                "research REST vs GraphQL".into(),
                chrono::TimeDelta::minutes(20),
            )],
            already_replied: vec!["Bob".into()],
            seed: &crate::mind::seeds::SEEDS[3],
            stamina: Stamina::default(),
            addressed: true,
            report: None,
            other_chats: vec!["REST vs GraphQL".into()],
            tool_results: vec!["post_webhook → waiting for the boss's approval".into()],
        }
    }

    #[test]
    fn the_personality_is_said_once_and_tool_calls_only_to_who_has_tools() {
        let (me, co) = (alice(), company());
        assert!(me.tool_whitelist.is_empty());
        let p = build(&scene(&me, &co, vec![msg(1, "Ada", "Hi all.", true)]));
        let system = &p.request.messages[0].content;
        assert_eq!(system.matches("Personality:").count(), 1, "{system}");
        let note = p.request.answer_note.expect("the answer described");
        assert!(!note.full.contains("toolCalls"), "{}", note.full);
    }

    #[test]
    fn the_prompt_carries_every_part_of_the_context() {
        let mut me = alice();
        me.tool_whitelist = vec!["post_webhook".into()];
        let co = company();
        let p = build(&scene(
            &me,
            &co,
            vec![
                msg(1, "Ada", "Alice, please look at the API.", false),
                msg(2, "Bob", "I can help test it.", true),
            ],
        ));
        let system = &p.request.messages[0].content;
        let user = &p.request.messages[1].content;
        assert!(
            system.contains("You are Alice, Backend Engineer at Acme"),
            "agent card"
        );
        assert!(system.contains("Present: Bob (QA Engineer)"), "scene");
        assert!(system.contains("Build the robots' brains"), "mission");
        assert!(
            system.contains("Your other chats: #REST vs GraphQL."),
            "chats it may post in"
        );
        assert!(
            user.contains(
                "Your recent tool calls:\n- post_webhook → waiting for the boss's approval"
            ),
            "tool results"
        );
        let note = p
            .request
            .answer_note
            .as_ref()
            .expect("the answer described");
        assert!(
            note.full.contains("\"toolCalls\""),
            "tool calls in the output format"
        );
        assert!(note.full.contains("\"topicSaturation\""), "output format");
        assert!(
            note.meanings.contains("affinity 1-100"),
            "what a schema can't say"
        );
        assert!(
            !system.contains("\"topicSaturation\""),
            "said once, by the pipeline"
        );
        assert!(user.contains("Earlier in this chat: We agreed to ship on Friday."));
        assert!(user.contains("] Ada (boss): Alice, please look at the API."));
        assert!(
            user.contains("Bob: I can help test it.\n(The last message is new to you.)"),
            "what is new is said"
        );
        assert!(user.contains("#9 (7) Bob prefers GraphQL"), "memories");
        assert!(
            user.contains("Bob (affinity 64): careful tester"),
            "impressions"
        );
        assert!(
            user.contains("TOP PRIORITY") || user.contains("#3 research REST vs GraphQL"),
            "tasks"
        );
        assert!(
            user.contains("needs attention now"),
            "urgency of a 20-minute-old task"
        );
        assert!(user.contains("Bob already replied"), "de-dup hint");
        assert!(
            user.contains(crate::mind::seeds::SEEDS[3].instruction),
            "seed"
        );
    }

    #[test]
    fn the_next_thought_repeats_this_ones_prompt_up_to_its_newest_message() {
        let (me, co) = (alice(), company());
        let long = "word ".repeat(10);
        let talk = |n: i32, unread_from: i32| -> Vec<SceneMessage> {
            (1..=n)
                .map(|i| msg(i, "Bob", &format!("m{i} {long}"), i >= unread_from))
                .collect()
        };
        let first = build(&scene(&me, &co, talk(20, 19)));
        let second = build(&scene(&me, &co, talk(23, 21)));
        assert_eq!(first.request.messages[0], second.request.messages[0]);
        let (a, b) = (
            &first.request.messages[1].content,
            &second.request.messages[1].content,
        );
        let shared = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        let through = a.find("] Bob: m20 ").expect("m20 shown") + 10;
        assert!(
            shared > through,
            "the old lines read the same: {shared} ≤ {through}\n{a}\n---\n{b}"
        );
    }

    #[test]
    fn the_budget_drops_the_oldest_messages_first() {
        let (me, co) = (alice(), company());
        let long = "word ".repeat(60);
        let messages: Vec<SceneMessage> = (1..=40)
            .map(|i| msg(i, "Bob", &format!("m{i} {long}"), false))
            .collect();
        let p = build(&scene(&me, &co, messages));
        assert!(p.tokens <= PROMPT_TOKEN_BUDGET + 100, "{} tokens", p.tokens);
        let user = &p.request.messages[1].content;
        assert!(user.contains("m40 "), "the newest stays");
        assert!(!user.contains("m1 word"), "the oldest goes");
    }

    #[test]
    fn the_newest_messages_and_memories_come_before_older_messages() {
        let (me, co) = (alice(), company());
        let long = "word ".repeat(20);
        let messages: Vec<SceneMessage> = (1..=40)
            .map(|i| msg(i, "Bob", &format!("m{i} {long}"), false))
            .collect();
        let mut sc = scene(&me, &co, messages);
        let memory = sc.memories[0].clone();
        sc.memories = (0..6)
            .map(|i| MemoryItem {
                id: 100 + i,
                content: format!("fact number {i} about the release"),
                ..memory.clone()
            })
            .collect();
        let user = build(&sc).request.messages[1].content.clone();
        for i in 33..=40 {
            assert!(
                user.contains(&format!("] Bob: m{i} ")),
                "m{i}: the newest eight stay"
            );
        }
        assert!(
            user.contains("fact number 5"),
            "memories before older messages"
        );
        assert!(!user.contains("] Bob: m20 "), "older messages give way");
    }

    #[test]
    fn a_sparse_answer_parses_with_defaults_and_scores_clamp() {
        let t: Thought = serde_json::from_str(
            r#"{"shouldSpeak": true, "messages": [{"content": "hi"}], "interestLevel": 14}"#,
        )
        .expect("lenient");
        assert!(t.should_speak);
        let mood =
            crate::chat::polling::Mood::from_answer(t.interest_level, t.topic_saturation, true);
        assert_eq!((mood.interest(), mood.saturation()), (10, 3));
        assert!(t.memory_ops.is_empty());
        let silent: Thought =
            serde_json::from_str(r#"{"shouldSpeak": false}"#).expect("the one required field");
        assert!(!silent.should_speak);
        assert!(
            serde_json::from_str::<Thought>("{}").is_err(),
            "no shouldSpeak, no thought"
        );
        let schema = serde_json::to_value(schemars::schema_for!(Thought)).expect("schema");
        assert_eq!(
            schema["required"],
            serde_json::json!(["innerThoughts", "messages", "shouldSpeak"]),
            "think, draft, then decide"
        );
    }

    #[test]
    fn the_schema_asks_for_no_ids_and_the_answer_still_reads_them() {
        let schema = serde_json::to_value(schemars::schema_for!(Thought)).expect("schema");
        let text = schema.to_string();
        assert!(!text.contains("employeeId"), "ids are never asked for");
        let answer: Thought = serde_json::from_str(
            r#"{"shouldSpeak": true, "memorySummary": null, "interestLevel": null,
                "taskOps": [{"op": "resolve", "id": 3, "result": null}],
                "relationshipOps": [{"employeeId": 7, "affinity": 60}]}"#,
        )
        .expect("nulls and an id as before");
        assert_eq!(answer.memory_summary, None);
        assert_eq!(answer.task_ops[0].id, Some(3));
        assert_eq!(answer.relationship_ops[0].employee_id, Some(7));
    }

    #[test]
    fn token_estimate_counts_cjk_per_character() {
        assert_eq!(approx_tokens("abcd"), 1);
        assert_eq!(approx_tokens("你好"), 2);
        assert_eq!(approx_tokens("ab你"), 2);
    }
}
