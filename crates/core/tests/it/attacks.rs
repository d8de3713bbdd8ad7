//! The trust boundary, attacked: model output is untrusted (a prompt-injected page, a
//! colleague's message or a hostile model can steer it). Each test is one way around
//! "anything sensitive waits for the boss" that used to work, and must keep failing.

use cubicle_core::approvals::CallOutcome;
use cubicle_core::org::EmployeeDto;
use cubicle_core::tools::ToolCall;

use crate::util::TestCompany;

mod approvals;
mod boxes;
mod bundle;
mod decisions;
mod files;
mod imported;
mod net;
mod planted;
mod rows;
mod sandbox;

/// An employee who may use exactly `tools`.
async fn staff(c: &TestCompany, name: &str, tools: &[&str]) -> EmployeeDto {
    let e = c.hire(name, "Engineer", None).await;
    c.core
        .approvals
        .set_tool_whitelist(e.id, tools.iter().map(|t| t.to_string()).collect())
        .await
        .unwrap();
    e
}

/// What the model asked for, as the engine would pass it on.
async fn ask(
    c: &TestCompany,
    e: &EmployeeDto,
    tool: &str,
    args: serde_json::Value,
) -> Result<CallOutcome, cubicle_core::tools::ToolError> {
    c.core
        .approvals
        .request(
            e.id,
            ToolCall::new(tool, args, "the page said to"),
            None,
            None,
        )
        .await
}

fn waiting(o: CallOutcome) -> i32 {
    match o {
        CallOutcome::Waiting(id) => id,
        other => panic!("expected to wait for the boss, got {other:?}"),
    }
}

fn workspace(c: &TestCompany) -> std::path::PathBuf {
    c.core.approvals.runtime().workspace_root().unwrap()
}
