//! Approval notifications (SPEC §8) against a real D-Bus notification server on the
//! test's session bus: the notifier under test is the app's own `DesktopNotifier`
//! (notify-rust), and the server's buttons are pressed with real `ActionInvoked` signals.
//!
//! Needs a session bus: scripts/test.sh runs the Rust tests in `dbus-run-session`; by
//! hand, `dbus-run-session -- cargo test -p cubicle-tests --test it notifications::`.
//! Without one these tests fail, unless `CUBICLE_SKIP_DBUS=1`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::sync::{Arc, Mutex};
use std::time::Duration;

use cubicle_core::approvals::{
    ApprovalDto, ApprovalStatus, DecideApproval, DecidedVia, Decider, Decision,
};
use cubicle_core::events::DomainEvent;
use cubicle_core::notify::{self, DesktopNotifier};
use cubicle_core::org::EmployeeDto;
use cubicle_core::people::NewPerson;
use cubicle_core::types::Language;
use cubicle_tests::company::TestCompany;
use cubicle_tests::notification_server::{self as ns, NotificationServer, wait_until};
use tokio::sync::{MutexGuard, watch};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Long enough for a wrongly sent notification or a second run to show up.
const SETTLE: Duration = Duration::from_millis(500);

/// A company whose approval notifications go to a test server, and a webhook that
/// counts what it receives.
struct Scene {
    server: NotificationServer,
    company: TestCompany,
    hook: MockServer,
    opened: Arc<Mutex<Vec<i32>>>,
    /// Who uses the desktop (the boss unless a test hands it over).
    desk: watch::Sender<Decider>,
    listener: tokio::task::JoinHandle<()>,
    _bus: MutexGuard<'static, ()>,
}

impl Drop for Scene {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl Scene {
    async fn start(test: &str, server_actions: bool, language: Language) -> Option<Self> {
        if !ns::session_bus_or_skip(test) {
            return None;
        }
        let bus = ns::exclusive_bus().await;
        let server = if server_actions {
            NotificationServer::with_actions().await
        } else {
            NotificationServer::without_actions().await
        }
        .expect("start the notification server on the session bus");
        let hook = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
            .mount(&hook)
            .await;
        let company = TestCompany::speaking(language).await;
        let opened = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&opened);
        let desk = watch::Sender::new(Decider::Boss);
        let listener = notify::spawn_approval_notifier(
            company.core.clone(),
            Arc::new(DesktopNotifier::new()),
            desk.subscribe(),
            move |id| sink.lock().unwrap().push(id),
        );
        Some(Self {
            server,
            company,
            hook,
            opened,
            desk,
            listener,
            _bus: bus,
        })
    }

    /// Olga asks to post "Release 1.2 is out" to the webhook; the approval's id.
    async fn olga_asks_to_post(&self) -> i32 {
        let olga = self.company.staff("Olga", &["post_webhook"]).await;
        self.company
            .ask_to_post(
                &olga,
                &format!("{}/hook", self.hook.uri()),
                "Release 1.2 is out",
            )
            .await
    }

    async fn posts(&self) -> usize {
        self.hook
            .received_requests()
            .await
            .unwrap_or_default()
            .len()
    }

    async fn approval(&self, id: i32) -> ApprovalDto {
        self.company.core.approvals.get(id).await.unwrap()
    }

    /// Decides `id` elsewhere (the queue, the CLI), as a boss looking at it now.
    async fn decide_elsewhere(&self, id: i32, decision: Decision, via: DecidedVia) {
        let input = DecideApproval {
            approval_id: id,
            decision,
            note: None,
            args_hash: self.approval(id).await.args_hash,
        };
        self.company
            .core
            .approvals
            .decide(input, via)
            .await
            .unwrap();
    }

    /// Waits until approval `id` satisfies `done`; panics after the server's patience.
    async fn wait_for_approval(&self, id: i32, done: impl Fn(&ApprovalDto) -> bool) -> ApprovalDto {
        let deadline = tokio::time::Instant::now() + ns::PATIENCE;
        loop {
            let a = self.approval(id).await;
            if done(&a) {
                return a;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "approval {id} never got there: {a:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_approval_raises_exactly_one_notification_with_approve_and_reject() {
    let Some(s) = Scene::start("notification per approval", true, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;

    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.app_name, "Cubicle");
    assert_eq!(n.summary, "Olga wants to post to a webhook");
    assert!(
        n.body.contains("Release 1.2 is out") && n.body.contains(&s.hook.uri()),
        "the body says exactly what would be sent where: {}",
        n.body
    );
    assert!(
        n.body.contains("to announce the release"),
        "and why: {}",
        n.body
    );
    assert_eq!(n.action_keys(), ["default", "approve", "reject"]);
    assert_eq!(n.label_of("approve"), Some("Approve"));
    assert_eq!(n.label_of("reject"), Some("Reject"));
    assert!(n.hints.contains(&"category".to_owned()), "{:?}", n.hints);

    // The bus repeating itself does not raise a second one.
    s.company
        .core
        .bus
        .publish(DomainEvent::ApprovalRequested { approval_id: id });
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.server.notifications().len(), 1);
    assert_eq!(s.posts().await, 0, "nothing is sent before approval");
    assert_eq!(s.approval(id).await.status, ApprovalStatus::Waiting);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approve_from_the_notification_posts_the_webhook_exactly_once() {
    let Some(s) = Scene::start("approve from a notification", true, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(s.posts().await, 0);

    s.server.invoke_action(&n, "approve").await.unwrap();
    let a = s.wait_for_approval(id, |a| a.executed_at.is_some()).await;
    assert_eq!(a.status, ApprovalStatus::Approved);
    assert_eq!(a.decided_via, Some(DecidedVia::Notification));
    assert!(a.error.is_none(), "{a:?}");
    assert_eq!(s.posts().await, 1);

    // The follow-up says what came of it, with no buttons (SPEC §17).
    let follow_up = s.server.wait_for_notifications(2).await.remove(1);
    assert_eq!(follow_up.summary, "Done: Olga's request");
    assert!(
        follow_up.body.contains("Release 1.2 is out"),
        "{follow_up:?}"
    );
    assert!(follow_up.actions.is_empty(), "{follow_up:?}");

    // A second press of the same button (a flaky server, a double click) runs nothing.
    s.server.emit_action(n.id, "approve").await.unwrap();
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.posts().await, 1);
    assert_eq!(s.server.notifications().len(), 2, "nothing more");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_approved_from_the_notification_that_fails_is_followed_by_a_notification_saying_why()
 {
    let Some(s) = Scene::start("a failed action's follow-up", true, Language::ZhCn).await else {
        return;
    };
    s.hook.reset().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&s.hook)
        .await;
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    s.server.invoke_action(&n, "approve").await.unwrap();
    let a = s.wait_for_approval(id, |a| a.executed_at.is_some()).await;
    assert!(
        a.error.as_deref().unwrap_or_default().contains("500"),
        "{a:?}"
    );
    let follow_up = s.server.wait_for_notifications(2).await.remove(1);
    assert_eq!(follow_up.summary, "执行失败：Olga 的请求");
    assert!(
        follow_up.body.contains("执行失败：对方服务器返回 500"),
        "{follow_up:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reject_from_the_notification_runs_nothing() {
    let Some(s) = Scene::start("reject from a notification", true, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);

    s.server.invoke_action(&n, "reject").await.unwrap();
    let a = s
        .wait_for_approval(id, |a| a.status != ApprovalStatus::Waiting)
        .await;
    assert_eq!(a.status, ApprovalStatus::Rejected);
    assert_eq!(a.decided_via, Some(DecidedVia::Notification));
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.posts().await, 0);
    assert!(s.approval(id).await.executed_at.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_on_the_body_opens_the_app_on_that_approval() {
    let Some(s) = Scene::start("click on a notification", true, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);

    s.server.invoke_action(&n, "default").await.unwrap();
    let opened = wait_until(|| {
        let o = s.opened.lock().unwrap().clone();
        (!o.is_empty()).then_some(o)
    })
    .await;
    assert_eq!(opened, Some(vec![id]));
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.approval(id).await.status, ApprovalStatus::Waiting);
    assert_eq!(s.posts().await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_buttons_gets_a_plain_notification_and_nothing_is_decided() {
    let Some(s) = Scene::start("notification without actions", false, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert!(n.actions.is_empty(), "{:?}", n.actions);
    assert_eq!(n.summary, "Olga wants to post to a webhook");

    // Buttons it never offered cannot decide anything, even if a server says so.
    s.server.invoke_action(&n, "approve").await.unwrap();
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.approval(id).await.status, ApprovalStatus::Waiting);
    assert_eq!(s.posts().await, 0);
    assert!(s.opened.lock().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_decided_in_the_app_closes_its_notification() {
    let Some(s) = Scene::start("decided elsewhere", true, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);

    s.decide_elsewhere(id, Decision::Reject, DecidedVia::Ui)
        .await;
    s.server.wait_for_close(n.id).await;

    // A late press on the closed notification changes nothing.
    s.server.emit_action(n.id, "approve").await.unwrap();
    tokio::time::sleep(SETTLE).await;
    let a = s.approval(id).await;
    assert_eq!(
        (a.status, a.decided_via),
        (ApprovalStatus::Rejected, Some(DecidedVia::Ui))
    );
    assert_eq!(s.posts().await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dismissed_notification_leaves_the_approval_waiting_in_the_queue() {
    let Some(s) = Scene::start("dismissed notification", true, Language::En).await else {
        return;
    };
    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);

    s.server.dismiss(&n).await.unwrap();
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.approval(id).await.status, ApprovalStatus::Waiting);
    assert_eq!(s.server.notifications().len(), 1, "not raised again");

    // The queue in the app still decides it.
    s.decide_elsewhere(id, Decision::Approve, DecidedVia::Ui)
        .await;
    assert_eq!(s.posts().await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_company_is_notified_in_chinese() {
    let Some(s) = Scene::start("notification in Chinese", true, Language::ZhCn).await else {
        return;
    };
    s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.summary, "Olga 想要向 Webhook 发送消息");
    assert!(n.body.contains("理由："), "{}", n.body);
    assert_eq!(n.label_of("approve"), Some("批准"));
    assert_eq!(n.label_of("reject"), Some("拒绝"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_notification_daemon_the_queue_still_has_the_approval() {
    let Some(s) = Scene::start("no notification daemon", true, Language::En).await else {
        return;
    };
    s.server.release_name().await.unwrap();
    let first = s.olga_asks_to_post().await;
    tokio::time::sleep(SETTLE).await;
    assert!(s.server.notifications().is_empty());
    assert_eq!(s.approval(first).await.status, ApprovalStatus::Waiting);

    // The listener lives on: once a daemon appears, the next approval is notified.
    s.server.claim_name().await.unwrap();
    let olga = s.company.staff("Olga Two", &["post_webhook"]).await;
    s.company
        .ask_to_post(&olga, &format!("{}/hook", s.hook.uri()), "Release 1.3")
        .await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.summary, "Olga Two wants to post to a webhook");
}

/// A desktop attached to a company server (docs/server.md): the server's engine raises
/// the approval, the desktop's watch of the shared queue notifies the boss, the answer
/// from the notification is only recorded there, and the server runs the action once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attached_desktop_is_notified_of_the_servers_approvals_and_the_server_runs_them() {
    let Some(s) = Scene::start("attached desktop", true, Language::En).await else {
        return;
    };
    // The scene's company is the server; the desktop opens the same database and only
    // decides, and it hears of approvals through its watch, not through the bus.
    s.listener.abort();
    let desktop = cubicle_core::AppCore::open_with(
        &s.company.url,
        cubicle_core::app::CoreOptions {
            approvals: cubicle_core::approvals::ApprovalsConfig {
                run_here: false,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let notifier = notify::spawn_approval_notifier(
        desktop.clone(),
        Arc::new(DesktopNotifier::new()),
        notify::boss_desk(),
        |_| {},
    );
    let watch =
        cubicle_core::approvals::watch::spawn_watch(desktop.clone(), Duration::from_millis(100));
    tokio::time::sleep(Duration::from_millis(300)).await;

    let id = s.olga_asks_to_post().await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.summary, "Olga wants to post to a webhook");
    s.server.invoke_action(&n, "approve").await.unwrap();
    let a = s
        .wait_for_approval(id, |a| a.status != ApprovalStatus::Waiting)
        .await;
    assert_eq!(
        (a.status, a.decided_via),
        (ApprovalStatus::Approved, Some(DecidedVia::Notification))
    );
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.posts().await, 0, "the desktop does not run it");
    assert!(s.approval(id).await.executed_at.is_none());

    // The server's engine runs it (what its resync does), once.
    let ran = s.company.core.approvals.run_queued().await.unwrap();
    assert_eq!(ran, [id]);
    assert_eq!(s.posts().await, 1);
    assert!(s.approval(id).await.executed_at.is_some());

    // Decided on the server: the desktop's notification goes away.
    let olga = s.company.core.org.all_employees().await.unwrap();
    let olga = olga.iter().find(|e| e.name == "Olga").unwrap();
    let second = s
        .company
        .ask_to_post(
            olga,
            &format!("{}/hook", s.hook.uri()),
            "Release 1.3 is out",
        )
        .await;
    let n2 = s.server.wait_for_notifications(2).await.remove(1);
    s.decide_elsewhere(second, Decision::Reject, DecidedVia::Cli)
        .await;
    s.server.wait_for_close(n2.id).await;
    assert_eq!(s.server.notifications().len(), 2, "one per approval");
    watch.abort();
    notifier.abort();
}

/// Olga and Pete, who may post to webhooks; Lin answers for Olga and Sam for Pete (their
/// ids).
async fn lin_and_sam_answer_for_olga_and_pete(s: &Scene) -> [(EmployeeDto, i32); 2] {
    let mut out = Vec::new();
    for (employee, person) in [("Olga", "Lin"), ("Pete", "Sam")] {
        let e = s.company.staff(employee, &["post_webhook"]).await;
        let p = s
            .company
            .core
            .people
            .invite(NewPerson {
                name: person.into(),
                role: "Lead".into(),
                language: None,
                approval_policy: None,
                departments: vec![],
                employees: vec![e.id],
            })
            .await
            .unwrap();
        out.push((e, p.id));
    }
    out.try_into().unwrap()
}

/// A desktop the people share (a company in one SQLite file): only the approvals of
/// whoever says they are at it are notified, a button decides in their name, and when
/// someone else takes the desk what was on screen goes and their own queue comes up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_desktop_notifies_only_its_user_who_decides_in_their_own_name() {
    let Some(s) = Scene::start("shared desktop", true, Language::En).await else {
        return;
    };
    let [(olga, lin), (pete, sam)] = lin_and_sam_answer_for_olga_and_pete(&s).await;
    let (lin_desk, sam_desk) = (Decider::of(Some(lin)), Decider::of(Some(sam)));
    let hook = format!("{}/hook", s.hook.uri());
    s.desk.send_replace(sam_desk);

    // Sam is at the desk: Lin's approval raises nothing here.
    let first = s.company.ask_to_post(&olga, &hook, "Release 1.2").await;
    tokio::time::sleep(SETTLE).await;
    assert!(s.server.notifications().is_empty());

    // Lin says it is her: her waiting approval comes up; Sam's new one does not.
    s.desk.send_replace(lin_desk);
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.summary, "Olga wants to post to a webhook");
    let petes = s.company.ask_to_post(&pete, &hook, "Release 1.3").await;
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.server.notifications().len(), 1);
    let approvals = &s.company.core.approvals;
    assert_eq!(approvals.pending_count_for(lin_desk).await.unwrap(), 1);
    assert_eq!(approvals.pending_count_for(sam_desk).await.unwrap(), 1);

    // Her button decides in her name.
    s.server.invoke_action(&n, "approve").await.unwrap();
    let a = s
        .wait_for_approval(first, |a| a.executed_at.is_some())
        .await;
    assert_eq!(
        (a.status, a.decided_via, a.decided_by),
        (
            ApprovalStatus::Approved,
            Some(DecidedVia::Notification),
            Some(lin)
        )
    );

    // Her follow-up says it was done.
    let done = s.server.wait_for_notifications(2).await.remove(1);
    assert_eq!(done.summary, "Done: Olga's request");

    // Sam takes the desk: Lin's next one goes from the screen, his comes up.
    let second = s.company.ask_to_post(&olga, &hook, "Release 1.4").await;
    let n2 = s.server.wait_for_notifications(3).await.remove(2);
    s.desk.send_replace(sam_desk);
    s.server.wait_for_close(n2.id).await;
    let n3 = s.server.wait_for_notifications(4).await.remove(3);
    assert_eq!(n3.summary, "Pete wants to post to a webhook");
    s.server.emit_action(n2.id, "approve").await.unwrap();
    tokio::time::sleep(SETTLE).await;
    assert_eq!(
        s.approval(second).await.status,
        ApprovalStatus::Waiting,
        "Lin's withdrawn notification decides nothing once Sam has the desk"
    );

    // The boss sees every waiting one.
    s.desk.send_replace(Decider::Boss);
    let shown = s.server.wait_for_notifications(6).await;
    let mut summaries: Vec<&str> = shown[4..].iter().map(|n| n.summary.as_str()).collect();
    summaries.sort_unstable();
    assert_eq!(
        summaries,
        [
            "Olga wants to post to a webhook",
            "Pete wants to post to a webhook"
        ]
    );
    assert_eq!(approvals.pending_count_for(Decider::Boss).await.unwrap(), 2);
    assert_eq!(s.approval(petes).await.status, ApprovalStatus::Waiting);
    assert_eq!(s.posts().await, 1);
}

/// A company whose refusals and budget stops are notified to a test server, and where
/// each click asked the app to go.
struct FixScene {
    server: NotificationServer,
    company: TestCompany,
    opened: Arc<Mutex<Vec<notify::Open>>>,
    listener: tokio::task::JoinHandle<()>,
    _bus: MutexGuard<'static, ()>,
}

impl Drop for FixScene {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl FixScene {
    async fn start(test: &str, language: Language) -> Option<Self> {
        if !ns::session_bus_or_skip(test) {
            return None;
        }
        let bus = ns::exclusive_bus().await;
        let server = NotificationServer::with_actions()
            .await
            .expect("start the notification server on the session bus");
        let company = TestCompany::speaking(language).await;
        let opened = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&opened);
        let listener = notify::spawn_notifier(
            company.core.clone(),
            Arc::new(DesktopNotifier::new()),
            notify::boss_desk(),
            move |open| sink.lock().unwrap().push(open),
        );
        Some(Self {
            server,
            company,
            opened,
            listener,
            _bus: bus,
        })
    }

    /// `employee` asks for `tool` with `args`; it is refused.
    async fn refused(&self, employee: &EmployeeDto, tool: &str, args: serde_json::Value) {
        let outcome = self
            .company
            .core
            .approvals
            .request(
                employee.id,
                cubicle_core::tools::ToolCall::new(tool, args, "the boss asked"),
                None,
                None,
            )
            .await
            .unwrap();
        assert!(
            matches!(outcome, cubicle_core::approvals::CallOutcome::Refused(_)),
            "{outcome:?}"
        );
    }

    async fn clicked(&self) -> Vec<notify::Open> {
        wait_until(|| {
            let o = self.opened.lock().unwrap().clone();
            (!o.is_empty()).then_some(o)
        })
        .await
        .unwrap_or_default()
    }
}

/// A refusal reaches the desktop (SPEC §17): one notification a day per employee and
/// cause, like the mail, with the reason; a click opens the one place that fixes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_webhook_raises_one_notification_a_day_and_its_click_opens_the_fix() {
    let Some(s) = FixScene::start("refusal notification", Language::En).await else {
        return;
    };
    let olga = s.company.staff("Olga", &["post_webhook"]).await;
    let post = serde_json::json!({"url": "https://hooks.nowhere.example/x", "text": "Release 1.2"});
    s.refused(&olga, "post_webhook", post.clone()).await;

    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.app_name, "Cubicle");
    assert_eq!(
        n.summary,
        "Not sent: hooks.nowhere.example is not an allowed webhook destination"
    );
    assert!(
        n.body.contains("Settings → Webhooks") && !n.body.contains("#settings"),
        "{}",
        n.body
    );
    assert_eq!(n.action_keys(), ["default"]);
    assert_eq!(n.label_of("default"), Some("Fix it"));

    // The same refusal again today: the mail is not filed again, nor the notification.
    s.refused(&olga, "post_webhook", post).await;
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.server.notifications().len(), 1);

    s.server.invoke_action(&n, "default").await.unwrap();
    assert_eq!(
        s.clicked().await,
        [notify::Open::Route(
            "#settings/webhooks/hooks.nowhere.example".into()
        )]
    );

    // Another cause is another notification: a tool off her list opens her tools.
    s.refused(&olga, "run_shell", serde_json::json!({"command": "ls"}))
        .await;
    let n = s.server.wait_for_notifications(2).await.remove(1);
    assert_eq!(n.summary, "Refused: Olga may not use run_shell");
    s.server.invoke_action(&n, "default").await.unwrap();
    let opened = wait_until(|| {
        let o = s.opened.lock().unwrap().clone();
        (o.len() == 2).then_some(o)
    })
    .await
    .unwrap();
    assert_eq!(
        opened[1],
        notify::Open::Route(format!("#employee/{}", olga.id))
    );
}

/// A budget stop reaches the desktop too, once a day, in the company's language, and its
/// click opens the budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_stop_raises_one_notification_in_chinese_that_opens_the_budget() {
    let Some(s) = FixScene::start("budget notification", Language::ZhCn).await else {
        return;
    };
    let engine = cubicle_core::engine::Engine::new(
        &s.company.core,
        cubicle_core::engine::EngineConfig::default(),
    );
    let stop = DomainEvent::BudgetExceeded {
        spent_usd: 2.1,
        budget_usd: 2.0,
    };
    engine.handle_event(&stop).await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(n.summary, "今日预算已用完");
    assert!(n.body.contains("$2.10"), "{}", n.body);
    assert_eq!(n.label_of("default"), Some("去处理"));

    // Every other blocked call today: nothing more.
    engine.handle_event(&stop).await;
    tokio::time::sleep(SETTLE).await;
    assert_eq!(s.server.notifications().len(), 1);

    s.server.invoke_action(&n, "default").await.unwrap();
    assert_eq!(
        s.clicked().await,
        [notify::Open::Route("#settings/budget".into())]
    );
}

/// A refusal in a Chinese company is notified in Chinese.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_in_a_chinese_company_is_notified_in_chinese() {
    let Some(s) = FixScene::start("refusal notification in Chinese", Language::ZhCn).await else {
        return;
    };
    let olga = s.company.staff("Olga", &["post_webhook"]).await;
    s.refused(
        &olga,
        "post_webhook",
        serde_json::json!({"url": "https://hooks.nowhere.example/x", "text": "2.3 版"}),
    )
    .await;
    let n = s.server.wait_for_notifications(1).await.remove(0);
    assert_eq!(
        n.summary,
        "未发送：hooks.nowhere.example 不是允许的 webhook 目标"
    );
    assert!(n.body.contains("设置 → Webhook"), "{}", n.body);
    assert_eq!(n.label_of("default"), Some("去处理"));
}
