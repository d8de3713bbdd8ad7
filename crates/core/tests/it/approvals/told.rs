//! Never silent (SPEC §17), through the engine with a scripted model: a webhook the
//! boss's allowlist refuses is told to the employee (its tool result), in the chat where
//! it was asked and in the boss's mailbox with the one place that fixes it; an approved
//! action that fails has its outcome recorded and its requester told — in the company's
//! language, with one full stop.

use std::sync::{Arc, Mutex};

use chrono::TimeDelta;
use cubicle_core::approvals::{
    ApprovalFilter, ApprovalStatus, CallLogOutcome, DecidedVia, Decision,
};
use cubicle_core::chat::SenderKind;
use cubicle_core::mailbox::MailKind;
use cubicle_core::types::Language;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::{DecideShown, mail_of};
use crate::work::playbook::{Seen, silent, speak};
use crate::work::{Stage, engineering};

/// Alice posts the release note to `hook` when the boss asks for it (in either
/// language), promising it goes out once approved; every prompt she sees is kept.
fn poster(hook: String, seen: Arc<Mutex<Vec<String>>>) -> impl Fn(&Seen) -> Value + Send + Sync {
    move |s: &Seen| {
        if s.name != "Alice" {
            return silent(&s.name);
        }
        seen.lock().unwrap().push(s.prompt.clone());
        if s.new_from("Ada", "release note") || s.new_from("Ada", "发布说明") {
            let mut v = speak(
                "I'll ask to post it.",
                &[("It goes to the team channel once you approve.", None)],
                json!([]),
            );
            v["toolCalls"] = json!([{
                "tool": "post_webhook",
                "args": {"url": hook, "text": "Release 2.3 is out.", "style": "slack"},
                "reason": "the boss asked for the release note."
            }]);
            v
        } else {
            silent("Alice")
        }
    }
}

struct Scene {
    stage: Stage,
    hook: MockServer,
    alice: i32,
    group: i32,
    prompts: Arc<Mutex<Vec<String>>>,
}

/// The team's hook answering `status`; Alice may post webhooks; the allowlist holds
/// only `allowed` (`None`: the hook's own host); the company speaks `lang`; then the
/// boss asks Alice in the group for the release note and ten minutes pass.
async fn the_boss_asks_for_the_release_note(
    status: u16,
    allowed: Option<&str>,
    lang: Language,
) -> Scene {
    let hook = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(ResponseTemplate::new(status))
        .mount(&hook)
        .await;
    let prompts = Arc::new(Mutex::new(Vec::new()));
    let stage = Stage::new(poster(format!("{}/hook", hook.uri()), prompts.clone())).await;
    let (alice, _bob, _charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    core.approvals
        .set_tool_whitelist(alice, vec!["post_webhook".into()])
        .await
        .unwrap();
    stage
        .co
        .allow_webhooks_to(allowed.unwrap_or(&hook.uri()))
        .await;
    stage.co.speak(lang).await;
    let ask = match lang {
        Language::En => "Alice, please post the release note to the team webhook.",
        Language::ZhCn => "Alice，请把发布说明（release note）发到团队 webhook。",
    };
    stage.boss_says(group, ask).await;
    stage.run_for(TimeDelta::minutes(10)).await;
    Scene {
        stage,
        hook,
        alice,
        group,
        prompts,
    }
}

/// What the allowlist's refusal looks like in `lang`: the system line's and the mail
/// title's opening words.
async fn a_refused_webhook_is_told_everywhere(lang: Language, line: &str, title: &str) {
    // The place that fixes it, named as the app's Settings page names it in `lang`.
    let settings = match lang {
        Language::En => "Settings → Webhooks",
        Language::ZhCn => "设置 → Webhook",
    };
    let s = the_boss_asks_for_the_release_note(200, Some("hooks.slack.com"), lang).await;
    let core = &s.stage.co.core;
    let host = s.hook.uri().trim_start_matches("http://").to_owned();
    assert!(s.hook.received_requests().await.unwrap().is_empty());
    assert!(
        core.approvals
            .list(ApprovalFilter::Pending)
            .await
            .unwrap()
            .is_empty(),
        "nothing waits for an approval that could never run"
    );

    // (a) The employee: her tool result says it was refused and why, and her next
    // thought sees it.
    let calls = core.approvals.tool_calls(Some(s.alice)).await.unwrap();
    let refused = calls
        .iter()
        .find(|c| c.outcome == CallLogOutcome::Refused)
        .unwrap_or_else(|| panic!("refused, not failed: {calls:?}"));
    let why = refused.output.clone().unwrap_or_default();
    assert!(why.contains(&host), "{why}");
    assert!(
        s.prompts
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.contains("post_webhook → refused") && p.contains(&host)),
        "her next thought is told"
    );

    // (b) The chat where it was asked: a system line in the company's language.
    let said = core.chats.messages(s.group).await.unwrap();
    let system: Vec<&str> = said
        .iter()
        .filter(|m| m.sender_kind == SenderKind::System)
        .map(|m| m.text.as_str())
        .collect();
    assert!(
        system
            .iter()
            .any(|t| t.starts_with(line) && t.contains(&host) && t.contains(settings)),
        "{system:?}"
    );

    // (c) The boss: a mail with the reason and the one place that fixes it.
    let mail = mail_of(core, Some(MailKind::Escalation)).await;
    let m = mail
        .iter()
        .find(|m| m.title.starts_with(title))
        .unwrap_or_else(|| panic!("{mail:?}"));
    assert!(m.title.contains(&host) && m.body.contains(&host), "{m:?}");
    assert_eq!(
        m.fix_href.as_deref(),
        Some(format!("#settings/webhooks/{host}").as_str())
    );
    assert!(!m.body.contains("#settings"), "the link is not in the text");
    assert_eq!(m.employee_id, Some(s.alice));
    assert_eq!(
        mail.iter().filter(|m| m.title.starts_with(title)).count(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_the_allowlist_refuses_is_told_to_her_in_the_chat_and_to_the_boss_with_the_fix() {
    a_refused_webhook_is_told_everywhere(Language::En, "Refused:", "Not sent:").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_webhook_is_told_in_chinese_in_a_chinese_company() {
    a_refused_webhook_is_told_everywhere(Language::ZhCn, "已拒绝：", "未发送：").await;
}

/// Once the host is allowed, the fix works: her request waits for the boss.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_post_that_fails_is_recorded_as_failed_and_she_is_told() {
    for (lang, told, failed) in [
        (
            Language::En,
            "The boss approved your request to post to",
            "It failed: webhook: the server answered 500.",
        ),
        (
            Language::ZhCn,
            "老板批准了你的请求（",
            "执行失败：对方服务器返回 500。",
        ),
    ] {
        let s = the_boss_asks_for_the_release_note(500, None, lang).await;
        let core = &s.stage.co.core;
        let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
        assert_eq!(waiting.len(), 1, "{waiting:?}");
        let a = core
            .approvals
            .decide_shown(waiting[0].id, Decision::Approve, DecidedVia::Ui, None)
            .await
            .unwrap();
        // The decision and the outcome are two things: approved, and it failed.
        assert_eq!(a.status, ApprovalStatus::Approved);
        assert!(a.executed_at.is_some() && a.result.is_none(), "{a:?}");
        assert!(
            a.error.as_deref().unwrap_or_default().contains("500"),
            "{a:?}"
        );
        assert_eq!(s.hook.received_requests().await.unwrap().len(), 1);

        let chat = core.chats.boss_chat(s.alice).await.unwrap();
        let said = core.chats.messages(chat.id).await.unwrap();
        let line = said
            .iter()
            .rev()
            .find(|m| m.sender_kind == SenderKind::System && m.text.starts_with(told))
            .unwrap_or_else(|| panic!("{said:?}"));
        assert!(line.text.ends_with(failed), "{}", line.text);
        assert!(
            !line.text.contains("..") && !line.text.contains("。。") && !line.text.contains(".。"),
            "{}",
            line.text
        );
        if lang == Language::ZhCn {
            assert!(
                !line.text.contains("The boss") && !line.text.contains("approved"),
                "{}",
                line.text
            );
        }
    }
}

/// A confused Alice: asked for the release note, she promises it goes out once the
/// boss approves, calls the webhook and notes it down, all in one thought; once her
/// thought shows the call was refused, she says so.
fn promiser(hook: String, seen: Arc<Mutex<Vec<String>>>) -> impl Fn(&Seen) -> Value + Send + Sync {
    move |s: &Seen| {
        if s.name != "Alice" {
            return silent(&s.name);
        }
        seen.lock().unwrap().push(s.prompt.clone());
        if s.new_from("Ada", "release note") {
            let mut v = speak(
                "I'll ask to post it and say it's on its way.",
                &[
                    ("Sure! It goes to the team channel once you approve.", None),
                    ("I'll post the release note right away.", None),
                ],
                json!([]),
            );
            v["toolCalls"] = json!([{
                "tool": "post_webhook",
                "args": {"url": hook, "text": "Release 2.3 is out.", "style": "slack"},
                "reason": "the boss asked for the release note."
            }]);
            v["memoryOps"] = json!([{
                "op": "add", "type": "long_term", "importance": 7,
                "content": "Ada wants release notes on the team webhook"
            }]);
            v
        } else if s.prompt.contains("post_webhook → refused") {
            speak(
                "The post was refused; say so plainly.",
                &[(
                    "I could not post it: our webhook host is not allowed yet.",
                    None,
                )],
                json!([]),
            )
        } else {
            silent("Alice")
        }
    }
}

/// No promise beside a refused call (SPEC §17): the thought's calls are checked
/// before its messages are posted; a call refused outright holds back what she wrote
/// in that chat, the refusal line is posted, and she is woken with the refusal, so
/// her next word is the truth. What the thought remembered is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_beside_a_refused_call_is_never_posted_and_her_next_word_is_the_truth() {
    let hook = MockServer::start().await;
    let prompts = Arc::new(Mutex::new(Vec::new()));
    let stage = Stage::new(promiser(format!("{}/hook", hook.uri()), prompts.clone())).await;
    let (alice, _bob, _charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    core.approvals
        .set_tool_whitelist(alice, vec!["post_webhook".into()])
        .await
        .unwrap();
    stage.co.allow_webhooks_to("hooks.slack.com").await;
    stage
        .boss_says(
            group,
            "Alice, please post the release note to the team webhook.",
        )
        .await;
    stage.run_for(TimeDelta::minutes(10)).await;

    let said = core.chats.messages(group).await.unwrap();
    let texts: Vec<&str> = said.iter().map(|m| m.text.as_str()).collect();
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("once you approve") || t.contains("right away")),
        "the promise never reaches the chat: {texts:#?}"
    );
    let refusal = said
        .iter()
        .position(|m| m.sender_kind == SenderKind::System && m.text.starts_with("Refused:"))
        .unwrap_or_else(|| panic!("the refusal line: {texts:#?}"));
    let truth = said
        .iter()
        .position(|m| m.sender_employee_id == Some(alice) && m.text.contains("could not post it"))
        .unwrap_or_else(|| panic!("she says it could not be posted: {texts:#?}"));
    assert!(refusal < truth, "{texts:#?}");
    assert!(
        prompts
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.contains("post_webhook → refused")),
        "her next thought sees the refusal"
    );
    assert!(hook.received_requests().await.unwrap().is_empty());
    // The rest of the thought stands.
    let memories = core.minds.profile(alice).await.unwrap().memories;
    assert!(
        memories
            .iter()
            .any(|m| m.content.contains("release notes on the team webhook")),
        "{memories:?}"
    );
}

/// A call that waits for the boss's approval is a true promise: it is posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_beside_a_call_that_waits_for_approval_is_posted() {
    let s = the_boss_asks_for_the_release_note(200, None, Language::En).await;
    let core = &s.stage.co.core;
    assert_eq!(
        core.approvals
            .list(ApprovalFilter::Pending)
            .await
            .unwrap()
            .len(),
        1
    );
    let said = core.chats.messages(s.group).await.unwrap();
    assert!(
        said.iter().any(|m| m.sender_employee_id == Some(s.alice)
            && m.text == "It goes to the team channel once you approve."),
        "{said:#?}"
    );
}
