//! Each person's proxy (SPEC §12): it asks, tells and answers other people in its
//! person's name in a chat the boss sees, relays what comes in without answering for its
//! person, gives tasks only to employees its person answers for, declines what only the
//! boss may do, and lets its person correct what it wrote.

use cubicle_core::ErrorCode;
use cubicle_core::approvals::CallOutcome;
use cubicle_core::chat::{ChatKind, SenderKind};
use cubicle_core::error::IpcError;
use cubicle_core::events::DomainEvent;
use cubicle_core::org::EmployeeDto;
use cubicle_core::people::{NewPerson, PersonDto, UpdatePerson};
use cubicle_core::proxy::{CorrectProxyLine, ProxySpeaker, ProxyTurn, SayToProxy};
use cubicle_core::tools::ToolCall;
use cubicle_core::types::*;
use cubicle_core::work::TaskOrigin;
use serde_json::json;

use crate::util::TestCompany;

mod privacy;

async fn invite(
    co: &TestCompany,
    name: &str,
    language: Language,
    departments: Vec<i32>,
) -> PersonDto {
    co.core
        .people
        .invite(NewPerson {
            name: name.into(),
            role: format!("head of {name}'s area"),
            language: Some(language),
            approval_policy: None,
            departments,
            employees: vec![],
        })
        .await
        .unwrap()
}

async fn say(co: &TestCompany, person: &PersonDto, text: &str) -> ProxyTurn {
    co.core
        .proxies
        .say(SayToProxy {
            person_id: person.id,
            text: text.into(),
        })
        .await
        .unwrap()
}

async fn last_line(co: &TestCompany, person: &PersonDto) -> String {
    let lines = co.core.proxies.conversation(person.id).await.unwrap();
    lines.last().map(|l| l.text.clone()).unwrap_or_default()
}

/// Lin (Product) and Sam (Engineering, who reads Chinese), with Mia in Product and Bob in
/// Engineering.
async fn lin_and_sam(co: &TestCompany) -> (PersonDto, PersonDto, EmployeeDto, EmployeeDto) {
    let product = co.dept("Product", None).await;
    let eng = co.dept("Engineering", None).await;
    let mia = co.hire("Mia", "Product Manager", Some(product.id)).await;
    let bob = co.hire("Bob", "Backend Engineer", Some(eng.id)).await;
    let lin = invite(co, "Lin", Language::En, vec![product.id]).await;
    let sam = invite(co, "Sam", Language::ZhCn, vec![eng.id]).await;
    (lin, sam, mia, bob)
}

/// Lin's proxy asks Sam for an estimate in a chat between the two; Sam's proxy tells Sam
/// (in Chinese) and does not answer for him; Sam answers through it; Lin hears back.
async fn lin_asks_sam_for_an_estimate_and_hears_back(
    co: &mut TestCompany,
    lin: &PersonDto,
    sam: &PersonDto,
) -> i32 {
    co.drain_events();
    let turn = say(co, lin, "ask Sam for an estimate of the onboarding work").await;
    let asked = turn.posted.clone().expect("the proxy wrote in Lin's name");
    assert_eq!(asked.sender_kind, SenderKind::Proxy, "marked proxy-written");
    assert_eq!(
        (asked.sender_person_id, asked.sender_name.as_str()),
        (Some(lin.id), "Lin")
    );
    assert_eq!(
        asked.text,
        "Lin asks for an estimate of the onboarding work"
    );
    assert_eq!(turn.said.speaker, ProxySpeaker::Person);
    assert!(
        turn.reply.text.contains("I asked Sam in your name"),
        "{}",
        turn.reply.text
    );
    let events = co.drain_events();
    for person_id in [lin.id, sam.id] {
        assert!(
            events.contains(&DomainEvent::ProxyConversation { person_id }),
            "{events:?}"
        );
    }

    // The chat between them is a chat the boss sees, never a side channel.
    let chats = co.core.chats.list().await.unwrap();
    let people_chat = chats
        .iter()
        .find(|c| c.kind == ChatKind::People)
        .expect("a people chat");
    assert_eq!(people_chat.id, asked.chat_id);
    assert_eq!(people_chat.name, "Lin · Sam");
    // Sam hears of it in his language, and his proxy has not answered for him.
    let heard = last_line(co, sam).await;
    assert!(
        heard.contains("Lin（通过代理）问") && heard.contains("回复Lin"),
        "{heard}"
    );
    assert_eq!(
        co.core.chats.messages(people_chat.id).await.unwrap().len(),
        1
    );

    let answer = say(co, sam, "回复Lin：大概三天，含测试").await;
    let answered = answer.posted.expect("Sam's proxy wrote his answer");
    assert_eq!(answered.chat_id, people_chat.id, "the same chat");
    assert_eq!(answered.text, "大概三天，含测试");
    assert!(
        answer.reply.text.contains("我已替你回复Lin"),
        "{}",
        answer.reply.text
    );
    let back = last_line(co, lin).await;
    assert!(
        back.contains("Sam answered, through their proxy") && back.contains("大概三天"),
        "{back}"
    );
    asked.id
}

/// A task for an employee Lin answers for is given in her name; one for Sam's engineer is
/// declined with who answers instead; a hire is the boss's.
async fn lin_gives_tasks_only_within_her_rights(
    co: &TestCompany,
    lin: &PersonDto,
    mia: &EmployeeDto,
    bob: &EmployeeDto,
) {
    let turn = say(co, lin, "ask Mia to draft the onboarding FAQ").await;
    assert!(
        turn.reply.text.contains("I gave Mia a task"),
        "{}",
        turn.reply.text
    );
    let tasks = co.core.work.all().await.unwrap();
    let task = tasks
        .iter()
        .find(|t| t.owner_id == mia.id && t.description == "draft the onboarding FAQ")
        .expect("Mia's task");
    assert_eq!(task.created_by, TaskOrigin::Person);
    assert!(task.trace_id.is_some(), "the request has a trace");

    let refused = say(co, lin, "ask Bob to rewrite the billing service").await;
    assert!(
        refused.reply.text.contains("Sam does"),
        "{}",
        refused.reply.text
    );
    assert!(refused.posted.is_none());
    let all = co.core.work.all().await.unwrap();
    assert!(
        all.iter().all(|t| t.owner_id != bob.id),
        "nothing given to Bob"
    );

    let boss = co.core.org.company().await.unwrap().unwrap().boss_name;
    let hire = say(co, lin, "hire a frontend engineer for Product").await;
    assert!(
        hire.reply.text.contains(&format!("Only the boss ({boss})")),
        "{}",
        hire.reply.text
    );
    assert_eq!(
        co.core.org.snapshot().await.unwrap().employees.len(),
        2,
        "nobody hired"
    );
    let unclear = say(co, lin, "nice weather today").await;
    assert!(
        unclear.reply.text.contains("I act in your name"),
        "{}",
        unclear.reply.text
    );
}

/// Lin sees what her proxy wrote and corrects it; Sam hears of the correction; Sam
/// cannot correct what Lin's proxy wrote, and a correction is made once.
async fn lin_corrects_what_her_proxy_wrote(
    co: &TestCompany,
    lin: &PersonDto,
    sam: &PersonDto,
    asked: i32,
) {
    let written = co.core.proxies.written_for(lin.id).await.unwrap();
    assert_eq!(
        written.iter().map(|m| m.id).collect::<Vec<_>>(),
        [asked],
        "only what it wrote for her"
    );
    let not_his = co
        .core
        .proxies
        .correct(CorrectProxyLine {
            person_id: sam.id,
            message_id: asked,
            text: "no".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(IpcError::from(not_his).code, ErrorCode::NotYourDecision);

    let fixed = "Sam, I need the estimate for onboarding *and* the invite flow.";
    let m = co
        .core
        .proxies
        .correct(CorrectProxyLine {
            person_id: lin.id,
            message_id: asked,
            text: fixed.into(),
        })
        .await
        .unwrap();
    assert_eq!(
        (m.sender_kind, m.corrects_id, m.text.as_str()),
        (SenderKind::Person, Some(asked), fixed)
    );
    assert!(
        last_line(co, sam).await.contains("Lin更正了代理替其写的话"),
        "Sam hears of it"
    );
    let again = co
        .core
        .proxies
        .correct(CorrectProxyLine {
            person_id: lin.id,
            message_id: asked,
            text: "again".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(IpcError::from(again).code, ErrorCode::InvalidInput);
}

#[tokio::test]
async fn proxies_speak_for_their_people_inside_their_rights() {
    let mut co = TestCompany::new().await;
    let (lin, sam, mia, bob) = lin_and_sam(&co).await;
    let asked = lin_asks_sam_for_an_estimate_and_hears_back(&mut co, &lin, &sam).await;
    lin_gives_tasks_only_within_her_rights(&co, &lin, &mia, &bob).await;
    lin_corrects_what_her_proxy_wrote(&co, &lin, &sam, asked).await;

    // Lin's conversation holds her requests and her proxy's replies, in order.
    let lines = co.core.proxies.conversation(lin.id).await.unwrap();
    assert_eq!(lines.first().map(|l| l.speaker), Some(ProxySpeaker::Person));
    assert!(lines.windows(2).all(|w| w[0].id < w[1].id));
}

#[tokio::test]
async fn a_proxy_card_says_whom_it_represents_and_what_it_may_not_do() {
    let co = TestCompany::new().await;
    let (lin, sam, _mia, _bob) = lin_and_sam(&co).await;
    let card = co.core.proxies.card(lin.id).await.unwrap();
    assert_eq!(card.name, "Lin's proxy");
    assert_eq!(card.answers_for, ["Product"]);
    assert!(
        card.may_not.iter().any(|m| m.contains("commit")),
        "{:?}",
        card.may_not
    );
    let zh = co.core.proxies.card(sam.id).await.unwrap();
    assert_eq!(zh.name, "Sam的代理");
    assert!(
        zh.may.iter().any(|m| m.contains("以本人名义")),
        "{:?}",
        zh.may
    );

    // Bad input: nothing to say, an unknown person, someone unknown to talk to.
    let empty = co
        .core
        .proxies
        .say(SayToProxy {
            person_id: lin.id,
            text: "  ".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(IpcError::from(empty).code, ErrorCode::InvalidInput);
    let nobody = co
        .core
        .proxies
        .say(SayToProxy {
            person_id: 999,
            text: "hi".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(IpcError::from(nobody).code, ErrorCode::NotFound);
    let turn = co
        .core
        .proxies
        .say(SayToProxy {
            person_id: lin.id,
            text: "tell Quentin the demo moved".into(),
        })
        .await
        .unwrap();
    assert!(turn.posted.is_none());
    assert!(
        turn.reply.text.contains("I act in your name") || turn.reply.text.contains("Quentin"),
        "{}",
        turn.reply.text
    );
}

#[tokio::test]
async fn a_proxy_tells_an_employee_in_their_department_chat_with_a_mention() {
    let co = TestCompany::new().await;
    let (lin, _sam, mia, _bob) = lin_and_sam(&co).await;
    let turn = say(&co, &lin, "tell Mia the demo moved to Friday").await;
    let posted = turn.posted.expect("posted");
    assert_eq!(posted.text, "@Mia The demo moved to Friday");
    assert_eq!(
        posted.mentions,
        [mia.id],
        "Mia is mentioned, so she hears it"
    );
    let chat = co
        .core
        .chats
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.id == posted.chat_id)
        .unwrap();
    assert_eq!(chat.kind, ChatKind::Department);
}

#[tokio::test]
async fn what_waits_for_a_person_is_listed_by_their_proxy() {
    let co = TestCompany::new().await;
    let (lin, _sam, mia, _bob) = lin_and_sam(&co).await;
    let turn = say(&co, &lin, "what's waiting for me?").await;
    assert_eq!(turn.reply.text, "Nothing waits for you.");
    // Under a manual policy, even a write in Mia's own folder waits for Lin.
    co.core
        .people
        .update(UpdatePerson {
            id: lin.id,
            approval_policy: Some(ApprovalPolicy::Manual),
            ..Default::default()
        })
        .await
        .unwrap();
    let write = ToolCall::new(
        "write_file",
        json!({"path": format!("employees/{}/draft.md", mia.id), "content": "draft"}),
        "save the draft",
    );
    let id = match co
        .core
        .approvals
        .request(mia.id, write, None, None)
        .await
        .unwrap()
    {
        CallOutcome::Waiting(id) => id,
        other => panic!("the write waits for Lin: {other:?}"),
    };
    let turn = say(&co, &lin, "what's waiting for me?").await;
    assert!(
        turn.reply.text.contains(&format!("#{id} Mia")),
        "{}",
        turn.reply.text
    );
}

/// What a proxy shares from its person's private conversation is masked first (seed 001
/// §4.5): the chat, the other person and the task see placeholders; the person keeps the
/// original in their own line and is told what was masked, in their language.
#[tokio::test]
async fn what_a_proxy_shares_is_masked_and_its_person_sees_what_was() {
    let co = TestCompany::new().await;
    let (lin, sam, mia, _) = lin_and_sam(&co).await;
    let said = "tell Sam the pilot with ACME-20931 closes at $48,000; mail lin.wu@example.com";
    let turn = say(&co, &lin, said).await;
    let posted = turn.posted.expect("told Sam");
    assert_eq!(
        posted.text,
        "The pilot with [customer code] closes at [amount]; mail [email address]"
    );
    assert_eq!(turn.said.text, said, "Lin's own line keeps it all");
    assert!(
        turn.reply.text.contains("[customer code]")
            && turn.reply.text.contains(
                "I masked what is private: an email address, a customer code, a sum of money"
            ),
        "{}",
        turn.reply.text
    );
    let heard = last_line(&co, &sam).await;
    assert!(
        heard.contains("[amount]") && !heard.contains("48,000"),
        "{heard}"
    );
    let stored = co.core.chats.messages(posted.chat_id).await.unwrap();
    assert!(stored.iter().all(|m| !m.text.contains("ACME-20931")));

    // A task's text too, in Chinese for Sam's reader; plain work figures stay.
    let task = say(
        &co,
        &lin,
        "ask Mia to call the client at 13812345678 about the 3-day pilot",
    )
    .await;
    assert!(
        task.reply.text.contains("a phone number"),
        "{}",
        task.reply.text
    );
    let tasks = co.core.work.all().await.unwrap();
    let given = tasks
        .iter()
        .find(|t| t.owner_id == mia.id)
        .expect("a task for Mia");
    assert!(
        given.description.contains("[phone number]") && given.description.contains("3-day pilot"),
        "{}",
        given.description
    );
    let zh = say(&co, &sam, "回复Lin：客户编号A77812的报价是12万元，三天内给").await;
    assert_eq!(
        zh.posted.expect("answered").text,
        "客户编号[客户编码]的报价是[金额]，三天内给"
    );
    assert!(
        zh.reply.text.contains("客户编码、金额"),
        "{}",
        zh.reply.text
    );

    // Nothing private: nothing masked, and no note.
    let plain = say(&co, &lin, "tell Sam the demo is at 3").await;
    assert!(!plain.reply.text.contains("mask"), "{}", plain.reply.text);
}
