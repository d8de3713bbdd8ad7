//! One language per company (SPEC §17): in a zh-CN company every line the app writes
//! itself — the secretary's replies and change lines, system lines in chats, mail, a
//! refusal, an approval's outcome, a task that failed — is Chinese. A Latin word may
//! appear only as a name of the company's, code (a tool, a path, a URL, a host), a unit
//! or a product name; anything else is an English line the app wrote.
//!
//! The employees are played by a scripted model that writes Chinese, so what is checked
//! is what the app adds around their words.

use chrono::TimeDelta;
use cubicle_core::approvals::{ApprovalFilter, DecidedVia, Decision};
use cubicle_core::chat::SenderKind;
use cubicle_core::mailbox::MailFilter;
use cubicle_core::org::NewEmployee;
use cubicle_core::types::*;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::DecideShown;
use crate::work::Stage;
use crate::work::playbook::{Seen, silent, speak};

/// Words written the same in Chinese.
const ALLOWED: &[&str] = &[
    "AI",
    "API",
    "URL",
    "HTTP",
    "HTTPS",
    "JSON",
    "CLI",
    "MCP",
    "GGUF",
    "ID",
    "MB",
    "GB",
    "KB",
    "ms",
    "s",
    "min",
    "USD",
    "US",
    "UTC",
    "Cubicle",
    "Webhook",
    "webhook",
    "Shell",
    "OpenAI",
    "Anthropic",
    "DeepSeek",
    "Ollama",
    "SmolLM",
    "SmolLM2",
    "Qwen",
];

/// Latin words in `text` that are not a name of `names`, code or an allowed word.
fn english_words(text: &str, names: &[String]) -> Vec<String> {
    let mut t = text.to_owned();
    for n in names {
        t = t.replace(n.as_str(), " ");
    }
    t.split(|c: char| c.is_whitespace() || "，。；：！？、（）()「」“”\"'：,;!?".contains(c))
        .filter(|w| !w.is_empty())
        // Code: URLs, paths, hosts, tool names, ids and numbers with units.
        .filter(|w| {
            !(w.contains("://")
                || w.contains('/')
                || w.contains('_')
                || w.contains('.') && w.chars().filter(char::is_ascii_alphabetic).count() > 1
                || w.starts_with('#')
                || w.starts_with('`'))
        })
        .flat_map(|w| {
            w.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|p| p.chars().any(|c| c.is_ascii_alphabetic()))
                .filter(|p| !p.chars().any(|c| c.is_ascii_digit()))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|w| !ALLOWED.contains(&w.as_str()))
        .collect()
}

/// 王芳 takes the post as a task and asks for two: one to a host nobody allowed, one to
/// the team's hook (which answers 502 once approved); when she hears it failed she fails
/// the task. Everyone speaks Chinese.
fn poster(allowed_hook: String) -> impl Fn(&Seen) -> Value + Send + Sync + 'static {
    move |s: &Seen| match s.name.as_str() {
        "王芳" if s.prompt.contains("post_webhook → failed") => match s.task("发布说明") {
            Some(id) => speak(
                "没发出去。",
                &[("老板，发布说明没发出去，对方服务器报错了。", None)],
                json!([{"op": "fail", "id": id, "result": "团队 webhook 返回 502"}]),
            ),
            None => silent("王芳"),
        },
        "王芳" if s.new_from("老板", "发布说明") || s.new_from("Ada", "发布说明") => {
            let mut v = speak(
                "我来申请发送。",
                &[("好的，批准后我就发。", None)],
                json!([{"op": "create", "description": "把发布说明发到团队 webhook"}]),
            );
            v["toolCalls"] = json!([
                {
                    "tool": "post_webhook",
                    "args": {"url": "https://hooks.example.com/team", "text": "2.3 版已发布", "style": "feishu"},
                    "reason": "老板要发发布说明"
                },
                {
                    "tool": "post_webhook",
                    "args": {"url": allowed_hook, "text": "2.3 版已发布", "style": "feishu"},
                    "reason": "老板要发发布说明"
                }
            ]);
            v
        }
        name => silent(name),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_company_reads_no_english_line_the_app_wrote() {
    let hook = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(502))
        .mount(&hook)
        .await;
    let stage = Stage::new(poster(format!("{}/hook", hook.uri()))).await;
    let co = &stage.co;
    let core = &co.core;
    co.speak(Language::ZhCn).await;
    staff_engineering(co, &hook.uri()).await;

    // The secretary: a hire typed in Chinese, confirmed by a typed 确认, then a status question.
    let said = [
        core.secretary
            .say("给工程部招一个测试工程师", false)
            .await
            .unwrap(),
        core.secretary.say("确认", false).await.unwrap(),
        core.secretary.say("公司现在怎么样？", false).await.unwrap(),
    ];

    // The boss asks 王芳 in her department's chat; the refused call and the approved one
    // that fails both happen.
    let group = core
        .chats
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.name.contains("工程部"))
        .expect("the department's group chat")
        .id;
    stage
        .boss_says(group, "王芳，请把发布说明发到团队 webhook。")
        .await;
    stage.run_for(TimeDelta::minutes(5)).await;
    let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
    assert_eq!(waiting.len(), 1, "the allowed post waits: {waiting:?}");
    core.approvals
        .decide_shown(waiting[0].id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    stage.run_for(TimeDelta::minutes(15)).await;

    let names = names_of(core).await;
    let mut lines: Vec<(String, String)> = Vec::new();
    for t in &said {
        lines.push(("secretary reply".into(), t.reply.text.clone()));
    }
    for m in core.secretary.history().await.unwrap() {
        for a in m.actions {
            lines.extend(a.diff.map(|d| ("change line".into(), d)));
            lines.extend(a.error.map(|e| ("card error".into(), e)));
        }
    }
    lines.extend(chat_and_mail_lines(core).await);
    assert!(
        lines.iter().any(|(w, _)| w.starts_with("system line")),
        "the refusal and the outcome are told in the chat: {lines:#?}"
    );
    let english: Vec<_> = lines
        .iter()
        .filter_map(|(what, text)| {
            let words = english_words(text, &names);
            (!words.is_empty()).then(|| format!("{what}: {text:?} → {words:?}"))
        })
        .collect();
    assert!(
        english.is_empty(),
        "English in a Chinese company:\n{}",
        english.join("\n")
    );
}

/// 工程部 with 王芳 (who may post webhooks, to the team's hook only) and 李雷.
async fn staff_engineering(co: &crate::util::TestCompany, hook: &str) {
    let core = &co.core;
    let eng = co.dept("工程部", None).await;
    let mut ids = Vec::new();
    for (name, title) in [("王芳", "市场专员"), ("李雷", "后端工程师")] {
        let e = core
            .org
            .hire(NewEmployee {
                name: name.into(),
                title: title.into(),
                department_id: Some(eng.id),
                manager_id: None,
                archetype: None,
            })
            .await
            .unwrap();
        ids.push(e.id);
    }
    let wang = ids[0];
    core.approvals
        .set_tool_whitelist(wang, vec!["post_webhook".into()])
        .await
        .unwrap();
    co.allow_webhooks_to(hook).await;
}

/// Every name the company has, which may stand in any line, longest first.
async fn names_of(core: &cubicle_core::AppCore) -> Vec<String> {
    let snap = core.org.snapshot().await.unwrap();
    let mut names: Vec<String> = snap.employees.iter().map(|e| e.name.clone()).collect();
    names.extend(snap.departments.iter().map(|d| d.name.clone()));
    if let Some(c) = &snap.company {
        names.push(c.name.clone());
        names.push(c.boss_name.clone());
    }
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));

    names
}

/// The system lines of every chat and every mail's title and body, each with where it was.
async fn chat_and_mail_lines(core: &cubicle_core::AppCore) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    for chat in core.chats.list().await.unwrap() {
        for m in core.chats.messages(chat.id).await.unwrap() {
            if m.sender_kind == SenderKind::System {
                lines.push((format!("system line in {}", chat.name), m.text));
            }
        }
    }
    let mail = core
        .mailbox
        .list(MailFilter {
            status: None,
            kind: None,
            employee_id: None,
        })
        .await
        .unwrap();
    for m in mail.items {
        lines.push(("mail title".into(), m.title.clone()));
        lines.push(("mail body".into(), m.body.clone()));
    }
    lines
}

#[test]
fn the_check_finds_english_and_lets_names_code_and_units_be() {
    let names = vec!["王芳".to_owned(), "Engineering".to_owned()];
    assert!(
        english_words(
            "王芳把 post_webhook 发到了 https://hooks.example.com/team，用时 3 s。",
            &names
        )
        .is_empty()
    );
    assert!(english_words("+1 测试工程师 → Engineering", &names).is_empty());
    assert_eq!(
        english_words("approved via ui", &names),
        ["approved", "via", "ui"]
    );
    assert_eq!(english_words("+ department 市场部", &names), ["department"]);
}

/// A budget stop as the app tells it in a Chinese company: the line in the chat, the
/// note to the employee, and the desktop notification's button.
#[test]
fn a_budget_stop_and_a_refusals_notification_are_chinese() {
    let names = vec!["王芳".to_owned()];
    let line = cubicle_core::approvals::budget_line("王芳", 1.02, 0.5, Language::ZhCn);
    let note = cubicle_core::approvals::budget_note(Language::ZhCn);
    let mail = cubicle_core::mailbox::MailDto {
        id: 3,
        kind: cubicle_core::mailbox::MailKind::Budget,
        employee_id: None,
        employee_name: String::new(),
        chat_id: None,
        task_id: None,
        title: "今日预算已用完".into(),
        body: "已花费 $1.02（预算 $0.50）".into(),
        status: cubicle_core::mailbox::MailStatus::Unread,
        created_at: String::new(),
        trace_id: None,
        fix_href: Some("#settings/budget".into()),
    };
    let notice = cubicle_core::notify::FixNotice::new(&mail, Language::ZhCn);
    assert_eq!(notice.href, "#settings/budget");
    for text in [&line, &note, &notice.open_label, &notice.title] {
        assert!(
            english_words(text, &names).is_empty(),
            "{text:?} → {:?}",
            english_words(text, &names)
        );
    }
    assert!(
        line.contains("王芳") && line.contains("设置 → 每日预算"),
        "{line}"
    );
}

/// A hire's skills come from the role card in the company's language: a QA engineer
/// hired in a Chinese company (by hand or through the secretary's card) lists
/// 测试计划…, one hired in an English company "test plans"….
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hire_lists_the_role_cards_skills_in_the_companys_language() {
    let en = crate::util::TestCompany::new().await;
    let qa = en.hire("Bob", "QA Engineer", None).await;
    assert_eq!(qa.skills, ["test plans", "automation", "bug triage"]);

    let zh = crate::util::TestCompany::new().await;
    zh.speak(Language::ZhCn).await;
    zh.dept("工程部", None).await;
    let qa = zh.hire("李雷", "测试工程师", None).await;
    assert_eq!(qa.skills, ["测试计划", "自动化测试", "缺陷分级"]);
    // The secretary's hire card shows the same, and the hire it makes has them.
    let said = zh
        .core
        .secretary
        .say("给工程部招一个测试工程师", true)
        .await
        .unwrap();
    zh.core.secretary.settle().await;
    let shown = serde_json::to_string(&said).unwrap();
    assert!(shown.contains("测试计划"), "{shown}");
    assert!(!shown.contains("test plans"), "{shown}");
    let hired: Vec<_> = zh
        .core
        .org
        .all_employees()
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.name != "李雷")
        .collect();
    assert_eq!(hired.len(), 1, "{hired:#?}");
    assert_eq!(hired[0].skills, ["测试计划", "自动化测试", "缺陷分级"]);
}
