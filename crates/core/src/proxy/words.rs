//! What a proxy writes, in English and Chinese: the lines it posts in its person's name
//! and the lines of its conversation with its person.

use crate::types::Language;

/// How a proxy-written request reads in the chat: "Lin asks for an estimate of …".
pub fn asked(lang: Language, person: &str, what: &str) -> String {
    let joined = ["for ", "about ", "whether ", "if ", "to "]
        .iter()
        .any(|w| what.to_lowercase().starts_with(w));
    match (lang, joined) {
        (Language::En, true) => format!("{person} asks {what}"),
        (Language::En, false) => format!("{person} asks: {what}"),
        (Language::ZhCn, _) => format!("{person}想问：{what}"),
    }
}

/// A message or an answer as it reads in the chat: the person's words, first letter up.
pub fn said(what: &str) -> String {
    let mut c = what.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// To the person: what their proxy did in their name.
pub fn done_ask(lang: Language, to: &str, posted: &str) -> String {
    lang.pick(
        format!("I asked {to} in your name: “{posted}”. I'll tell you when they answer."),
        format!("我已替你问了{to}：“{posted}”。有回复我会告诉你。"),
    )
}

pub fn done_tell(lang: Language, to: &str, posted: &str) -> String {
    lang.pick(
        format!("I told {to} in your name: “{posted}”."),
        format!("我已替你告诉{to}：“{posted}”。"),
    )
}

pub fn done_answer(lang: Language, to: &str, posted: &str) -> String {
    lang.pick(
        format!("I answered {to} in your name: “{posted}”."),
        format!("我已替你回复{to}：“{posted}”。"),
    )
}

pub fn done_task(lang: Language, to: &str, what: &str, task: i32) -> String {
    lang.pick(
        format!("I gave {to} a task in your name (#{task}): {what}."),
        format!("我已替你给{to}安排了任务（#{task}）：{what}。"),
    )
}

/// To the other person: what came in for them, and how to answer.
pub fn came_in_ask(lang: Language, from: &str, posted: &str) -> String {
    lang.pick(
        format!("{from} asks, through their proxy: “{posted}”. To answer, say “answer {from}: …”."),
        format!("{from}（通过代理）问：“{posted}”。回复请说“回复{from}：……”。"),
    )
}

pub fn came_in_tell(lang: Language, from: &str, posted: &str) -> String {
    lang.pick(
        format!("{from} tells you, through their proxy: “{posted}”."),
        format!("{from}（通过代理）告诉你：“{posted}”。"),
    )
}

pub fn came_in_answer(lang: Language, from: &str, posted: &str) -> String {
    lang.pick(
        format!("{from} answered, through their proxy: “{posted}”."),
        format!("{from}（通过代理）回复：“{posted}”。"),
    )
}

pub fn came_in_correction(lang: Language, from: &str, text: &str) -> String {
    lang.pick(
        format!("{from} corrected what their proxy wrote: “{text}”."),
        format!("{from}更正了代理替其写的话：“{text}”。"),
    )
}

pub fn not_yours(lang: Language, employee: &str, approver: &str) -> String {
    lang.pick(
        format!(
            "{employee} is not someone you answer for ({approver} does), so I can't give them a task in your name. I can ask {approver} for you."
        ),
        format!("{employee}不归你负责（由{approver}负责），我不能以你的名义给其安排任务。我可以替你去问{approver}。"),
    )
}

pub fn boss_only(lang: Language, boss: &str) -> String {
    lang.pick(
        format!(
            "Only the boss ({boss}) can change the company: hires, departments, policies, people and meetings. I can pass your request on to {boss} if you tell me “tell {boss} …”."
        ),
        format!("只有老板（{boss}）能调整公司：招聘、部门、策略、人员和会议。你可以说“告诉{boss}……”，我替你转达。"),
    )
}

pub fn unknown_name(lang: Language, name: &str) -> String {
    lang.pick(
        format!("I don't know anyone called {name} here."),
        format!("公司里没有叫{name}的人。"),
    )
}

pub fn no_chat(lang: Language, name: &str) -> String {
    lang.pick(
        format!("{name} is in no department, so there is no chat where I can tell them."),
        format!("{name}不属于任何部门，没有可以转告的群。"),
    )
}

pub fn nothing_waiting(lang: Language) -> String {
    lang.pick("Nothing waits for you.", "没有等你处理的事。")
}

pub fn waiting(lang: Language, items: &[String]) -> String {
    lang.pick(
        format!("Waiting for your decision: {}.", items.join("; ")),
        format!("等你决定：{}。", items.join("；")),
    )
}

pub fn help(lang: Language) -> String {
    lang.pick(
        "I act in your name. Try “ask Sam for an estimate of …”, “answer Lin: …”, “tell Mia …”, “ask Mia to …” (for people you answer for) or “what's waiting for me?”.",
        "我以你的名义行事。可以说“问一下Sam……”、“回复林：……”、“告诉Mia……”、“让Mia……”（限你负责的人）或“有什么要我审批的吗”。",
    )
}
