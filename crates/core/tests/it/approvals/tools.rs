//! What each tool may touch: the shell stays in its folder and its time, memory reads
//! respect visibility, a CLI employee runs only its configured command.

use super::*;
use crate::util::DecideShown;

#[tokio::test]
async fn the_shell_runs_in_its_folder_and_cannot_write_outside_it() {
    let c = company().await;
    let dev = staff(&c, "Dev", &["run_shell"]).await;
    let root = workspace(&c);
    let outside = root.parent().unwrap().join("escape.txt");

    let id = waiting(
        ask(
            &c,
            &dev,
            "run_shell",
            json!({"command": "echo hi > inside.txt && pwd"}),
        )
        .await,
    );
    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    let out = a.result.expect("ran");
    assert_eq!(out["exitCode"], json!(0));
    assert_eq!(
        out["stdout"].as_str().unwrap().trim(),
        root.display().to_string()
    );
    assert_eq!(
        std::fs::read_to_string(root.join("inside.txt")).unwrap(),
        "hi\n"
    );

    // The box, not a check of the text, keeps it in: each of these is approved and
    // runs, and none writes outside.
    for command in [
        "echo x > ../escape.txt".to_owned(),
        format!("echo x > {}", outside.display()),
        "cd .. && echo x > escape.txt".to_owned(),
        "echo x > $HOME/../escape.txt".to_owned(),
    ] {
        let id = waiting(
            c.core
                .approvals
                .request(
                    dev.id,
                    ToolCall::new("run_shell", json!({"command": command}), "try"),
                    None,
                    None,
                )
                .await
                .unwrap(),
        );
        let a = c
            .core
            .approvals
            .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
            .await
            .unwrap();
        assert!(a.result.is_some(), "{command}: {a:?}");
        assert!(!outside.exists(), "{command} wrote outside");
    }
}

#[tokio::test]
async fn run_shell_is_killed_at_its_time_limit() {
    let c = company_with(
        &start(),
        ToolsConfig {
            shell_timeout: Duration::from_secs(1),
            ..ToolsConfig::default()
        },
    )
    .await;
    let dev = staff(&c, "Dev", &["run_shell"]).await;
    let id = waiting(
        ask(
            &c,
            &dev,
            "run_shell",
            json!({"command": "sleep 30; echo late > late.txt"}),
        )
        .await,
    );
    let t0 = std::time::Instant::now();
    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert!(t0.elapsed() < Duration::from_secs(15));
    assert!(
        a.error.as_deref().unwrap_or("").contains("timed out"),
        "{a:?}"
    );
    assert!(a.executed_at.is_some() && a.result.is_none());
    assert!(!workspace(&c).join("late.txt").exists());
}

/// `who` remembers `text` long-term in `dept` with `visibility`.
async fn remember(
    c: &TestCompany,
    who: &EmployeeDto,
    dept: i32,
    text: &str,
    visibility: Visibility,
) {
    c.core
        .minds
        .remember(
            who.id,
            Some(dept),
            NewMemory {
                kind: MemoryKind::LongTerm,
                content: text.to_owned(),
                importance: Some(5),
                ttl_hours: None,
                visibility,
                requirement_id: None,
                source_chat_id: None,
            },
        )
        .await
        .unwrap();
}

/// Bob (Engineering) and Carol (Operations) each remember a private or team note and a
/// team or public one about deploys; Alice (Engineering) a private one of her own.
async fn deploy_notes_of_every_visibility(
    c: &TestCompany,
    (alice, bob, carol): (&EmployeeDto, &EmployeeDto, &EmployeeDto),
    (eng, ops): (i32, i32),
) {
    remember(
        c,
        bob,
        eng,
        "the deploy key rotates on fridays",
        Visibility::Private,
    )
    .await;
    remember(
        c,
        bob,
        eng,
        "the deploy pipeline runs on staging first",
        Visibility::Team,
    )
    .await;
    remember(
        c,
        carol,
        ops,
        "the deploy window for ops is sunday",
        Visibility::Team,
    )
    .await;
    remember(
        c,
        carol,
        ops,
        "the deploy freeze starts in december",
        Visibility::Public,
    )
    .await;
    remember(
        c,
        alice,
        eng,
        "my own deploy checklist lives in notes",
        Visibility::Private,
    )
    .await;
}

#[tokio::test]
async fn read_memory_only_returns_what_the_employee_may_see() {
    let c = company().await;
    let eng = c.dept("Engineering", None).await;
    let ops = c.dept("Operations", None).await;
    let alice = c.hire("Alice", "Engineer", Some(eng.id)).await;
    let bob = c.hire("Bob", "Engineer", Some(eng.id)).await;
    let carol = c.hire("Carol", "Operator", Some(ops.id)).await;
    c.core
        .approvals
        .set_tool_whitelist(alice.id, vec!["read_memory".into()])
        .await
        .unwrap();
    deploy_notes_of_every_visibility(&c, (&alice, &bob, &carol), (eng.id, ops.id)).await;

    let out = ask(&c, &alice, "read_memory", json!({"query": "deploy"})).await;
    let CallOutcome::Done(items) = out else {
        panic!("{out:?}")
    };
    let mut seen: Vec<String> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            "my own deploy checklist lives in notes",
            "the deploy freeze starts in december",
            "the deploy pipeline runs on staging first",
        ]
    );
}

#[tokio::test]
async fn a_cli_employee_runs_its_configured_command_in_its_folder_after_approval() {
    let c = company().await;
    let bot = staff(&c, "Botty", &["run_cli"]).await;
    let none = c
        .core
        .approvals
        .request(
            bot.id,
            ToolCall::new("run_cli", json!({"input": "x"}), "try"),
            None,
            None,
        )
        .await
        .unwrap_err();
    assert!(matches!(none, ToolError::NotConfigured(_)));

    c.core
        .approvals
        .set_cli_command(bot.id, Some("tr a-z A-Z; pwd".into()))
        .await
        .unwrap();
    // Whatever command the caller names, the configured one is what waits.
    let id = waiting(
        ask(
            &c,
            &bot,
            "run_cli",
            json!({"input": "hello\n", "command": "rm -rf ."}),
        )
        .await,
    );
    let a = c.core.approvals.get(id).await.unwrap();
    let folder = workspace(&c).join("employees").join(bot.id.to_string());
    assert_eq!(a.args["command"], json!("tr a-z A-Z; pwd"));
    assert_eq!(a.args["folder"], json!(folder.display().to_string()));
    assert!(a.summary.contains("tr a-z A-Z") && a.summary.contains(&folder.display().to_string()));

    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    let out = a.result.expect("ran");
    assert_eq!(
        out["stdout"].as_str().unwrap(),
        format!("HELLO\n{}\n", folder.display())
    );

    // A run approved for one command does not run another configured later.
    let id = waiting(ask(&c, &bot, "run_cli", json!({"input": "again"})).await);
    c.core
        .approvals
        .set_cli_command(bot.id, Some("touch pwned".into()))
        .await
        .unwrap();
    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert!(a.error.is_some() && a.result.is_none(), "{a:?}");
    assert!(!folder.join("pwned").exists());
}
