//! Prompts for a small local model, one short step at a time (SPEC §13).
//!
//! A 135M–1B model cannot be trusted with a whole flow-of-thought as one JSON object: it
//! runs past its output budget or fills the fields with noise. The engine therefore
//! decides which step comes next from what it knows (a task, who was asked, who answered)
//! and asks the model only for what a small model can write: one plain-text piece with a
//! bounded [`TextShape`] — a message, a reply, a short document, a report — or one word
//! out of two. Each prompt is a few hundred tokens, in the company's language.

use cubicle_llm::{ChatMessage, CompletionRequest, SHAPE_MAX_CHAR_BYTES, TextShape};

use crate::types::{Language, name_of, read_name};

use crate::org::{CompanyDto, EmployeeDto};

/// A question to a colleague.
pub const ASK_MAX_CHARS: u32 = 240;
/// A reply in a chat.
pub const REPLY_MAX_CHARS: u32 = 300;
/// The report to whoever gave the task.
pub const REPORT_MAX_CHARS: u32 = 280;
/// A deliverable: a short document, saved as a file. Like every step's answer it is
/// further bounded by the model's output budget (see [`Writer::request`]).
pub const DOCUMENT_MAX_CHARS: u32 = 900;
/// Lines of the chat shown to a step.
const CHAT_LINES: usize = 6;
/// How much of one chat line, task or colleague's input a prompt shows.
const LINE_CHARS: u32 = 220;
/// How many Chinese characters say what this many English ones do: a text translated
/// from English into Chinese has about a third as many characters. A Chinese step is
/// sized by what it says, not by its letters: a small model spends one to three tokens
/// on each Chinese character, so a Chinese line as long as an English one took five
/// times as long to write and to read in (`bench builtin --language zh-CN`).
const ZH_CHARS_PER_EN_CHAR: (u32, u32) = (1, 3);
/// Temperature of a small model's writing when the role card sets none: low, so it
/// stays on the point.
const TEMPERATURE: f32 = 0.5;

/// Who is writing, for every step's system message.
#[derive(Clone, Copy, Debug)]
pub struct Writer<'a> {
    pub me: &'a EmployeeDto,
    pub company: &'a CompanyDto,
    /// The model's output budget in tokens ([`cubicle_llm::ModelProfile::output_budget`]).
    pub output_budget: u32,
}

impl Writer<'_> {
    fn system(&self) -> String {
        let e = self.me;
        let style = e.speaking_style.trim();
        match self.company.language {
            // A style written in another language would pull a small model out of
            // Chinese: only a Chinese one is kept.
            Language::ZhCn => format!(
                "你是{}，{}的{}，为老板{}工作。{}请只用简体中文回答。",
                e.name,
                self.company.name,
                e.title,
                self.company.boss_name,
                if is_chinese(style) { style } else { "" }
            ),
            Language::En => format!(
                "You are {}, {} at {}. You work for {} (the boss). {}",
                e.name, e.title, self.company.name, self.company.boss_name, style
            ),
        }
    }

    /// `en_chars` English characters' worth of text in the company's language.
    fn chars(&self, en_chars: u32) -> u32 {
        match self.company.language {
            Language::En => en_chars,
            Language::ZhCn => (en_chars * ZH_CHARS_PER_EN_CHAR.0 / ZH_CHARS_PER_EN_CHAR.1).max(1),
        }
    }

    /// `text` cut to what a prompt shows of one line, task or input.
    fn shown(&self, text: &str) -> String {
        cut(text, self.chars(LINE_CHARS) as usize)
    }

    /// A one-line answer of `en_chars` English characters' worth.
    fn line(&self, en_chars: u32) -> TextShape {
        TextShape::Text {
            max_chars: self.chars(en_chars),
            single_line: true,
        }
    }

    /// The newest lines of a chat as a prompt shows them.
    fn chat_lines(&self, lines: &[(String, String)]) -> String {
        let start = lines.len().saturating_sub(CHAT_LINES);
        lines[start..]
            .iter()
            .map(|(who, text)| match self.company.language {
                // Quoted speech, not a transcript: shown "李娜: …", the 135M model went on
                // writing the transcript as 李娜 (3 of 23 Chinese steps dropped).
                Language::ZhCn => format!("{who}说：“{}”", self.shown(text)),
                Language::En => format!("{who}: {}", self.shown(text)),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A step's request. Its shape is narrowed until even its worst case (every character
    /// 3 bytes, every byte a token) fits the output budget: a Chinese document of 900
    /// characters could take 2,700 tokens, over a minute on two cores, and the call would
    /// time out instead of ending by itself.
    fn request(&self, user: String, shape: TextShape) -> CompletionRequest {
        let shape = fit_budget(shape, self.output_budget);
        CompletionRequest {
            messages: vec![
                ChatMessage::system(self.system().trim().to_owned()),
                ChatMessage::user(user),
            ],
            temperature: Some(self.me.temperature.map_or(TEMPERATURE, |t| t as f32)),
            max_tokens: Some(shape.max_tokens()),
            shape: Some(shape),
            ..Default::default()
        }
    }

    /// A question to `colleague` about the task.
    pub fn ask(&self, task: &str, colleague: &str) -> CompletionRequest {
        let task = self.shown(task);
        let user = match self.company.language {
            Language::ZhCn => format!(
                "你的任务：{task}\n给{colleague}写一条简短的消息，请对方就这个任务给出意见。\
                 一到两句话，用简体中文。只写消息本身。"
            ),
            Language::En => format!(
                "Your task: {task}\nWrite a short message to {colleague} asking for their \
                 input on it. One or two sentences. Write only the message."
            ),
        };
        self.request(user, self.line(ASK_MAX_CHARS))
    }

    /// A reply to the newest message of `lines` (`(sender, text)`, oldest first).
    pub fn reply(&self, chat: &str, lines: &[(String, String)]) -> CompletionRequest {
        let to = lines.last().map_or("", |(who, _)| who.as_str());
        let shown = self.chat_lines(lines);
        let user = match self.company.language {
            Language::ZhCn => format!(
                "“{chat}”里的最新消息：\n{shown}\n以{}的身份回复{to}，一到三句话，用简体中文。只写回复本身。",
                self.me.name
            ),
            Language::En => format!(
                "The latest messages in \"{chat}\":\n{shown}\nReply to {to} as {}, in one to \
                 three sentences. Write only your reply.",
                self.me.name
            ),
        };
        self.request(user, self.line(REPLY_MAX_CHARS))
    }

    /// The deliverable of a task, with what colleagues said about it (`(name, text)`).
    pub fn document(&self, task: &str, inputs: &[(String, String)]) -> CompletionRequest {
        let task = self.shown(task);
        let mut said = String::new();
        for (who, text) in inputs {
            let text = self.shown(text);
            said.push_str(&self.company.language.pick(
                format!("{who} said: {text}\n"),
                format!("{who}说：{text}\n"),
            ));
        }
        // A small model given a colleague's words tends to hand them back as its note.
        let own = match (inputs.is_empty(), self.company.language) {
            (true, _) => "",
            (false, Language::ZhCn) => "同事的意见要用自己的话写，不要照抄。",
            (false, Language::En) => "Put what others said in your own words; do not copy it. ",
        };
        let user = match self.company.language {
            Language::ZhCn => format!(
                "你的任务：{task}\n{said}现在把它写出来：第一行写标题，然后写三到六条要点，\
                 每条要点一到两句完整的话。{own}用简体中文。只写文档本身。"
            ),
            Language::En => format!(
                "Your task: {task}\n{said}Write it now: a title on the first line, then three \
                 to six points, each one or two full sentences on its own line. {own}Write only \
                 the document."
            ),
        };
        self.request(
            user,
            TextShape::Text {
                max_chars: self.chars(DOCUMENT_MAX_CHARS),
                single_line: false,
            },
        )
    }

    /// The report of a finished task to `to` (the boss, or whoever it goes to).
    pub fn report(&self, task: &str, outcome: &str, to: &str) -> CompletionRequest {
        let task = self.shown(task);
        let outcome = self.shown(outcome);
        let user = match self.company.language {
            Language::ZhCn => format!(
                "你完成了任务：{task}\n结果的开头是：{outcome}\n告诉{to}任务已经完成，以及结果说了什么。\
                 一到两句话，用简体中文。只写消息本身。"
            ),
            Language::En => format!(
                "You finished your task: {task}\nThe result begins: {outcome}\nTell {to} in one \
                 or two sentences that it is done and what it says. Write only the message."
            ),
        };
        self.request(user, self.line(REPORT_MAX_CHARS))
    }

    /// The plan of a requirement its owner posts in the requirement's group: who does
    /// what (`assignments`: name, task), decided by the engine; the model says it.
    pub fn plan(&self, requirement: &str, assignments: &[(String, String)]) -> CompletionRequest {
        let requirement = self.shown(requirement);
        let who: Vec<String> = assignments
            .iter()
            .map(|(name, task)| format!("- {name}: {}", self.shown(task)))
            .collect();
        let who = who.join("\n");
        let user = match self.company.language {
            Language::ZhCn => format!(
                "你负责需求：{requirement}\n你的计划：\n{who}\n在需求群里告诉大家这个计划：谁做什么。\
                 一到两句话，用简体中文。只写消息本身。"
            ),
            Language::En => format!(
                "You own the requirement: {requirement}\nYour plan:\n{who}\nTell the group the \
                 plan: who does what. One or two sentences. Write only the message."
            ),
        };
        self.request(user, self.line(REPLY_MAX_CHARS))
    }

    /// Whether to add something to a group conversation: [`Choice::Reply`] or
    /// [`Choice::Silent`].
    pub fn speak_or_not(&self, chat: &str, lines: &[(String, String)]) -> CompletionRequest {
        let shown = self.chat_lines(lines);
        let user = match self.company.language {
            Language::ZhCn => format!(
                "“{chat}”里的最新消息：\n{shown}\n你有值得补充的内容吗？回答 reply（回复）或 silent（不说话）。"
            ),
            Language::En => format!(
                "The latest messages in \"{chat}\":\n{shown}\nDo you have something useful to \
                 add? Answer reply or silent."
            ),
        };
        self.request(user, Choice::shape(&[Choice::Reply, Choice::Silent]))
    }

    /// Whether what the boss wrote is work to do ([`Choice::Task`]) or only something to
    /// answer ([`Choice::Reply`]).
    pub fn task_or_reply(&self, text: &str) -> CompletionRequest {
        let boss = &self.company.boss_name;
        let text = self.shown(text);
        let user = match self.company.language {
            Language::ZhCn => format!(
                "{boss}对你说：“{text}”\n这是需要你去完成的工作，还是只需要回答？回答 task（工作）或 reply（回答）。"
            ),
            Language::En => format!(
                "{boss} wrote to you: \"{text}\"\nIs this work for you to do, or only something \
                 to answer? Answer task or reply."
            ),
        };
        self.request(user, Choice::shape(&[Choice::Task, Choice::Reply]))
    }
}

/// One word a small model picks between: its serde name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    Reply,
    Silent,
    Task,
}

impl Choice {
    /// The word the model writes.
    pub fn word(self) -> String {
        name_of(&self)
    }

    fn shape(options: &[Choice]) -> TextShape {
        TextShape::OneOf {
            options: options.iter().map(|c| c.word()).collect(),
        }
    }

    /// The choice a model's answer names; a backend without a grammar may wrap the word
    /// in punctuation or capitals.
    pub fn read(answer: &str) -> Option<Self> {
        let word = answer
            .trim()
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        read_name(&word)
    }
}

/// `shape`, with no more characters than `budget` tokens can hold in the worst case.
fn fit_budget(shape: TextShape, budget: u32) -> TextShape {
    match shape {
        TextShape::Text {
            max_chars,
            single_line,
        } => TextShape::Text {
            max_chars: max_chars
                .min(budget.saturating_sub(1) / SHAPE_MAX_CHAR_BYTES)
                .max(1),
            single_line,
        },
        one_of @ TextShape::OneOf { .. } => one_of,
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

/// A small model's line, ready to post: surrounding quotes gone, and when it filled its
/// shape of `max_chars` (so it was stopped mid-sentence), ended at its last full sentence
/// (kept whole when it has none).
pub fn tidy_line(text: &str, max_chars: u32) -> String {
    let t = text
        .trim()
        .trim_matches(|c| matches!(c, '"' | '“' | '”' | '\''))
        .trim();
    let filled = t.chars().count() + 2 >= max_chars as usize;
    if !filled || t.ends_with(['.', '!', '?', '。', '！', '？', '…']) {
        return t.to_owned();
    }
    match t.rfind(['.', '!', '?', '。', '！', '？']) {
        Some(at) => {
            let end = at + t[at..].chars().next().map_or(1, char::len_utf8);
            t[..end].to_owned()
        }
        None => t.to_owned(),
    }
}

/// A small model's document, ready to save: the prompt's layout words it wrote back are
/// gone ([`strip_scaffolding`]); when it filled its shape of `max_chars`, its unfinished
/// last line is dropped — or, when that would leave no more than the title, ended at its
/// last full sentence (a document of one line ends at its last sentence).
pub fn tidy_document(text: &str, max_chars: u32) -> String {
    let t = text.trim();
    let filled = t.chars().count() + 2 >= max_chars as usize;
    let t = match t.rfind('\n') {
        Some(at) if filled => {
            let kept = t[..at].trim_end();
            let last = t[at..].trim();
            if kept.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
                kept.to_owned()
            } else {
                match sentence_end(last) {
                    Some(end) => format!("{kept}\n{}", &last[..end]),
                    None => kept.to_owned(),
                }
            }
        }
        _ => tidy_line(t, max_chars),
    };
    strip_scaffolding(&t)
}

/// Where the last full sentence of `text` ends (a byte index), if it has one.
fn sentence_end(text: &str) -> Option<usize> {
    let at = text.rfind(['.', '!', '?', '。', '！', '？'])?;
    Some(at + text[at..].chars().next().map_or(1, char::len_utf8))
}

/// Labels of the document prompt's layout a model may write before its own words
/// ("标题：…", "Title: …", "第二行：…"): the label goes, the words stay.
const LAYOUT_LABELS: &[&str] = &[
    "标题",
    "题目",
    "要点",
    "正文",
    "内容",
    "第一行",
    "第二行",
    "第三行",
    "第四行",
    "第五行",
    "第六行",
    "第七行",
    "title",
    "points",
    "key points",
    "first line",
    "second line",
    "third line",
    "next lines",
    "line 1",
    "line 2",
    "line 3",
];

/// The document without the prompt's layout written back: a line that is only a label
/// ("三到六个要点：", "Points:") is dropped, a label before words ("标题：夹爪…",
/// "First line: Gripper…") is cut off. What [`crate::work::check::readable`] would
/// otherwise flag as scaffolding echoed.
pub fn strip_scaffolding(document: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in document.lines() {
        let t = line.trim();
        // Markdown around a label ("**Title:** …", "## 要点").
        let bare = t
            .trim_start_matches(['#', '*', ' '])
            .trim_end_matches(['*', ' ']);
        // A line that is only a label, or only the prompt's words ("三到六条要点",
        // "每条要点一到两句完整的话").
        if is_layout_label(bare)
            || (crate::work::check::is_scaffolding(bare) && !bare.contains([':', '：']))
        {
            continue;
        }
        match split_label(bare) {
            Some((label, rest)) if is_layout_label(label) => {
                let rest = rest.trim().trim_start_matches('*').trim();
                if !rest.is_empty() {
                    out.push(rest.to_owned());
                }
            }
            _ => out.push(line.trim_end().to_owned()),
        }
    }
    let joined = out.join("\n");
    // No run of blank lines where a label line was.
    let mut tidy = String::new();
    for l in joined.trim().lines() {
        if l.trim().is_empty() && tidy.ends_with("\n\n") {
            continue;
        }
        tidy.push_str(l);
        tidy.push('\n');
    }
    tidy.trim_end().to_owned()
}

/// Whether `label` is one of the prompt's layout words, a count before it or not
/// ("三到六个要点", "Three to six points", "3-6 points").
fn is_layout_label(label: &str) -> bool {
    let mut l = label.trim_end_matches('*').trim().to_lowercase();
    for count in ["three to six", "3 to 6", "three", "four", "five", "six"] {
        if let Some(rest) = l.strip_prefix(count) {
            l = rest.to_owned();
        }
    }
    let l = l.trim_start_matches(|c: char| {
        c.is_ascii_digit() || c.is_whitespace() || "三四五六到个条至-–~".contains(c)
    });
    !l.is_empty() && LAYOUT_LABELS.contains(&l.trim())
}

/// `label: rest` at the start of a line (ASCII or full-width colon), the label short.
fn split_label(line: &str) -> Option<(&str, &str)> {
    let at = line.find([':', '：'])?;
    let label = &line[..at];
    if label.chars().count() > 24 {
        return None;
    }
    let colon = line[at..].chars().next().map_or(1, char::len_utf8);
    Some((label, &line[at + colon..]))
}

/// A line written to `to` without the name the model put before it as an address
/// ("Bob: I would like…", "To Bob: …", "王强：…"): the line is said to them already.
/// Anyone else's name before a colon stays, for the identity check to catch.
pub fn strip_address(text: &str, to: &str) -> String {
    let t = text
        .trim()
        .trim_matches(|c| matches!(c, '"' | '“' | '”'))
        .trim();
    let to = to.trim();
    if to.is_empty() {
        return t.to_owned();
    }
    for prefix in [
        format!("{to}:"),
        format!("{to}："),
        format!("To {to}:"),
        format!("to {to}:"),
        format!("@{to}:"),
        format!("致{to}："),
        format!("给{to}："),
    ] {
        if let Some(rest) = t.strip_prefix(&prefix) {
            return rest.trim().to_owned();
        }
    }
    t.to_owned()
}

/// Whether `text` is written in Chinese: most of its letters are CJK characters.
pub fn is_chinese(text: &str) -> bool {
    let (cjk, latin) = text.chars().fold((0usize, 0usize), |(c, l), ch| {
        if ('\u{4E00}'..='\u{9FFF}').contains(&ch) || ('\u{3400}'..='\u{4DBF}').contains(&ch) {
            (c + 1, l)
        } else if ch.is_ascii_alphabetic() {
            (c, l + 1)
        } else {
            (c, l)
        }
    });
    // A Chinese character carries about as much as a short English word (~4 letters).
    cjk > 0 && cjk * 4 >= latin
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ApprovalPolicy, Archetype};

    fn company(language: Language) -> CompanyDto {
        CompanyDto {
            id: 1,
            name: "Acme".into(),
            mission: String::new(),
            boss_name: "Ada".into(),
            language,
            approval_policy: ApprovalPolicy::KeySteps,
            daily_budget_usd: 2.0,
            created_at: String::new(),
        }
    }

    /// The built-in model's output budget (a quarter of its 4,096-token context).
    const BUDGET: u32 = 1024;

    fn alice() -> EmployeeDto {
        EmployeeDto {
            title: "Robotics Engineer".into(),
            archetype: Archetype::OldHand,
            speaking_style: "Dry, precise.".into(),
            ..crate::mind::tests::alice()
        }
    }

    #[test]
    fn every_step_is_small_and_bounded() {
        let (me, co) = (alice(), company(Language::En));
        let w = Writer {
            me: &me,
            company: &co,
            output_budget: BUDGET,
        };
        let lines = vec![
            ("Ada".to_owned(), "How is the gripper?".to_owned()),
            ("Bob".to_owned(), "x".repeat(2000)),
        ];
        let inputs = vec![("Bob".to_owned(), "y".repeat(2000))];
        for req in [
            w.ask(&"z".repeat(3000), "Bob"),
            w.reply("Robotics", &lines),
            w.document("write a design note on the gripper timeout", &inputs),
            w.report("the note", &"r".repeat(3000), "Ada"),
            w.plan(&"p".repeat(3000), &[("Bob".to_owned(), "q".repeat(2000))]),
            w.speak_or_not("Robotics", &lines),
            w.task_or_reply("Please write the note"),
        ] {
            let shape = req.shape.clone().expect("every step has a shape");
            assert_eq!(
                req.max_tokens,
                Some(shape.max_tokens()),
                "cap = shape bound"
            );
            let prompt: usize = req.messages.iter().map(|m| m.content.len()).sum();
            assert!(prompt < 1200, "a compact prompt: {prompt} bytes");
            // The bound of the longest step plus its prompt fits a 4,096-token context,
            // and no answer can run past the model's output budget.
            assert!(shape.max_tokens() as usize + prompt < 4096);
            assert!(shape.max_tokens() <= BUDGET, "{shape:?} over {BUDGET}");
        }
    }

    #[test]
    fn the_document_shrinks_to_a_small_budget_and_keeps_its_size_on_a_large_one() {
        let me = alice();
        let doc = |language, output_budget| {
            let co = company(language);
            let w = Writer {
                me: &me,
                company: &co,
                output_budget,
            };
            max_chars(w.document("write a design note", &[]).shape)
        };
        assert_eq!(
            doc(Language::En, 1024),
            341,
            "1,023 tokens hold 341 characters"
        );
        assert_eq!(doc(Language::En, 4096), DOCUMENT_MAX_CHARS);
        assert_eq!(doc(Language::En, 0), 1, "never an empty shape");
        assert_eq!(doc(Language::ZhCn, 4096), DOCUMENT_MAX_CHARS / 3);
        assert_eq!(doc(Language::ZhCn, 0), 1, "never an empty shape");
    }

    #[test]
    fn a_chinese_step_asks_for_as_much_said_in_a_third_of_the_characters() {
        let me = alice();
        let (en, zh) = (company(Language::En), company(Language::ZhCn));
        let writer = |company| Writer {
            me: &me,
            company,
            output_budget: BUDGET,
        };
        let long = "夹".repeat(400);
        let lines = vec![("王强".to_owned(), long.clone())];
        let (en_w, zh_w) = (writer(&en), writer(&zh));
        for (en_req, zh_req) in [
            (en_w.ask("t", "Bob"), zh_w.ask("t", "王强")),
            (en_w.reply("c", &lines), zh_w.reply("c", &lines)),
            (en_w.report("t", "o", "Ada"), zh_w.report("t", "o", "Ada")),
        ] {
            assert_eq!(max_chars(zh_req.shape), max_chars(en_req.shape) / 3);
        }
        let shown = zh_w.reply("c", &lines).messages[1].content.clone();
        let chars = shown.chars().filter(|c| *c == '夹').count();
        assert_eq!(
            chars,
            LINE_CHARS as usize / 3,
            "a chat line shown in a third"
        );
    }

    fn max_chars(shape: Option<TextShape>) -> u32 {
        match shape {
            Some(TextShape::Text { max_chars, .. }) => max_chars,
            other => panic!("a text shape, got {other:?}"),
        }
    }

    #[test]
    fn a_chinese_company_gets_chinese_prompts() {
        let (me, co) = (alice(), company(Language::ZhCn));
        let w = Writer {
            me: &me,
            company: &co,
            output_budget: BUDGET,
        };
        let req = w.ask("写一份关于夹爪校准超时的设计说明", "王强");
        assert!(req.messages[0].content.starts_with("你是Alice"));
        assert!(req.messages[1].content.contains("用简体中文"));
        assert!(is_chinese(&req.messages[1].content));
    }

    #[test]
    fn a_document_cut_by_its_shape_loses_its_unfinished_line() {
        let doc = "Gripper timeout\n- Raise it to 5 s.\n- Log every ret";
        assert_eq!(
            tidy_document(doc, 48),
            "Gripper timeout\n- Raise it to 5 s."
        );
        assert_eq!(
            tidy_document(doc, 900),
            doc,
            "ended by the model: kept whole"
        );
        assert_eq!(tidy_document("One line. And a half", 20), "One line.");
    }

    #[test]
    fn the_prompt_layout_written_back_is_taken_out_of_a_document() {
        let echoed = "标题：夹爪校准超时设计说明\n\n三到六个要点：\n\n- 回零约需 4 秒。\n\
                      第二行：把超时改为 5 秒。";
        assert_eq!(
            strip_scaffolding(echoed),
            "夹爪校准超时设计说明\n\n- 回零约需 4 秒。\n把超时改为 5 秒。"
        );
        let en = "**Title:** Gripper timeout\nPoints:\n- Raise it to 5 s.\nNote: Bob agrees.";
        assert_eq!(
            strip_scaffolding(en),
            "Gripper timeout\n- Raise it to 5 s.\nNote: Bob agrees.",
            "a label of the author's own stays"
        );
        assert!(
            !strip_scaffolding(echoed)
                .lines()
                .any(crate::work::check::is_scaffolding)
        );
        let qwen = "Gripper Calibration Timeout\n\nThree to six points:\n1. The timeout is 2 s.";
        assert_eq!(
            strip_scaffolding(qwen),
            "Gripper Calibration Timeout\n\n1. The timeout is 2 s."
        );
        let bare = "夹爪校准超时问题\n\n标题\n三到六条要点\n每条要点一到两句完整的话";
        assert_eq!(strip_scaffolding(bare), "夹爪校准超时问题");
    }

    #[test]
    fn a_document_cut_after_its_title_keeps_its_first_sentences() {
        let doc = "**Gripper Calibration Timeout**\n\n1. The gripper takes 4 s to home. \
                   The timeout is 2 s, so it fails; we sh";
        assert_eq!(
            tidy_document(doc, doc.chars().count() as u32),
            "**Gripper Calibration Timeout**\n1. The gripper takes 4 s to home."
        );
    }

    #[test]
    fn an_address_before_the_line_is_not_someone_else_speaking() {
        assert_eq!(
            strip_address("Bob: I would like your input.", "Bob"),
            "I would like your input."
        );
        assert_eq!(strip_address("王强：你怎么看？", "王强"), "你怎么看？");
        assert_eq!(
            strip_address("Carol: I'll do it.", "Bob"),
            "Carol: I'll do it.",
            "another name stays for the identity check"
        );
    }

    #[test]
    fn choices_read_what_a_model_writes() {
        assert_eq!(Choice::read("reply"), Some(Choice::Reply));
        assert_eq!(Choice::read(" Silent."), Some(Choice::Silent));
        assert_eq!(Choice::read("\"task\""), Some(Choice::Task));
        assert_eq!(Choice::read("maybe"), None);
    }

    #[test]
    fn lines_cut_by_the_shape_end_at_a_sentence() {
        assert_eq!(tidy_line("\"Done. All good.\"", 300), "Done. All good.");
        let cut = "The timeout is 2 s. We should raise it to 5 s because the";
        assert_eq!(tidy_line(cut, 58), "The timeout is 2 s.");
        assert_eq!(tidy_line(cut, 300), cut, "ended by the model: kept whole");
        assert_eq!(tidy_line("short fragment", 14), "short fragment");
        assert_eq!(tidy_line("好的。我来看看超时的问题，然后", 15), "好的。");
    }

    #[test]
    fn chinese_is_told_from_english() {
        assert!(is_chinese("夹爪校准超时的设计说明"));
        assert!(is_chinese("我们把timeout调到5秒"));
        assert!(!is_chinese("The gripper calibration times out."));
        assert!(!is_chinese("2. 2. [needs attention now]"));
        assert!(!is_chinese(""));
    }
}
