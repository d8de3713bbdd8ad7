//! The boss's "Tools & approvals" edit: checked as a whole, applied in one go, and what
//! it changes is what the next tool call meets.

use crate::util::DecideShown;
use cubicle_core::approvals::{EmployeeToolsError, SetEmployeeTools};
use cubicle_core::error::ErrorCode;
use cubicle_core::events::DomainEvent;

use super::*;

fn edit(
    e: &EmployeeDto,
    policy: Option<ApprovalPolicy>,
    tools: &[&str],
    cli: Option<&str>,
) -> SetEmployeeTools {
    SetEmployeeTools {
        employee_id: e.id,
        policy,
        tools: tools.iter().map(|t| t.to_string()).collect(),
        cli_command: cli.map(str::to_owned),
    }
}

#[tokio::test]
async fn boss_sets_manual_and_removes_a_tool_and_the_next_calls_follow_it() {
    let mut c = company().await;
    let alice = staff(&c, "Alice", &["read_file", "write_file", "post_webhook"]).await;
    let before = c.core.approvals.employee_tools(alice.id).await.unwrap();
    assert_eq!(before.policy, None);
    assert_eq!(before.company_policy, ApprovalPolicy::KeySteps);
    assert_eq!(before.tools, ["read_file", "write_file", "post_webhook"]);
    assert_eq!(before.catalogue.len(), 10);
    assert!(
        before
            .working_dir
            .ends_with(&format!("employees/{}", alice.id)),
        "{}",
        before.working_dir
    );
    c.drain_events();

    let after = c
        .core
        .approvals
        .set_employee_tools(edit(
            &alice,
            Some(ApprovalPolicy::Manual),
            &["write_file", "read_file"],
            None,
        ))
        .await
        .unwrap();
    assert_eq!(after.policy, Some(ApprovalPolicy::Manual));
    assert_eq!(after.tools, ["read_file", "write_file"]);
    assert!(
        c.drain_events().iter().any(
            |e| matches!(e, DomainEvent::EmployeeUpdated { employee_id } if *employee_id == alice.id)
        ),
        "the org chart and profile hear of it"
    );
    let stored = c.core.org.all_employees().await.unwrap();
    assert_eq!(stored[0].approval_policy, Some(ApprovalPolicy::Manual));
    assert_eq!(stored[0].tool_whitelist, ["read_file", "write_file"]);

    // Manual: a write waits for the boss (under key_steps it would run at once).
    waiting(
        ask(
            &c,
            &alice,
            "write_file",
            json!({"path": "a.txt", "content": "x"}),
        )
        .await,
    );
    // The removed tool is refused.
    let hook = ask(
        &c,
        &alice,
        "post_webhook",
        json!({"url": "https://example.com/h", "text": "hi"}),
    )
    .await;
    assert!(matches!(hook, CallOutcome::Refused(_)), "{hook:?}");
}

#[tokio::test]
async fn a_bad_edit_changes_nothing_and_says_what_is_wrong() {
    let c = company().await;
    let bot = staff(&c, "Bot", &["read_file"]).await;
    let cases = [
        (
            edit(
                &bot,
                Some(ApprovalPolicy::Auto),
                &["read_file", "launch"],
                None,
            ),
            "no tool named \"launch\"",
        ),
        (
            edit(&bot, Some(ApprovalPolicy::Auto), &["run_cli"], Some("  ")),
            "the CLI command is empty",
        ),
        (
            edit(&bot, Some(ApprovalPolicy::Auto), &["run_cli"], None),
            "no CLI command",
        ),
    ];
    for (input, says) in cases {
        let err = c
            .core
            .approvals
            .set_employee_tools(input)
            .await
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidInput);
        assert!(err.to_string().contains(says), "{err}");
    }
    let err = c
        .core
        .approvals
        .set_employee_tools(SetEmployeeTools {
            employee_id: 9999,
            ..edit(&bot, None, &[], None)
        })
        .await
        .unwrap_err();
    assert!(matches!(err, EmployeeToolsError::NotFound(9999)));

    let now = c.core.approvals.employee_tools(bot.id).await.unwrap();
    assert_eq!(now.policy, None, "the policy was not half-applied");
    assert_eq!(now.tools, ["read_file"]);
    assert_eq!(now.cli_command, None);
}

#[tokio::test]
async fn a_cli_employee_gets_its_command_and_clearing_the_policy_follows_the_company() {
    let c = company().await;
    let bot = staff(&c, "Bot", &[]).await;
    let set = c
        .core
        .approvals
        .set_employee_tools(edit(
            &bot,
            Some(ApprovalPolicy::Manual),
            &["run_cli"],
            Some("  tr a-z A-Z  "),
        ))
        .await
        .unwrap();
    assert_eq!(set.cli_command.as_deref(), Some("tr a-z A-Z"));
    let id = waiting(ask(&c, &bot, "run_cli", json!({"input": "hello"})).await);
    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert_eq!(
        a.result.expect("ran")["stdout"].as_str().unwrap().trim(),
        "HELLO"
    );

    let back = c
        .core
        .approvals
        .set_employee_tools(edit(&bot, None, &[], None))
        .await
        .unwrap();
    assert_eq!((back.policy, back.cli_command), (None, None));
    assert!(back.tools.is_empty());
}
