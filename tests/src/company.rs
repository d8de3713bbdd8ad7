//! A company on a fresh SQLite file, and the few steps scenarios need from it.

use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::approvals::CallOutcome;
use cubicle_core::org::{EmployeeDto, NewEmployee, SetupCompany};
use cubicle_core::tools::ToolCall;
use cubicle_core::types::Language;
use tempfile::TempDir;

/// The company and its folder; the folder lives as long as the value.
pub struct TestCompany {
    pub core: AppCore,
    /// The database's URL: other processes (the app, the CLI) can open it too.
    pub url: String,
    _dir: TempDir,
}

impl TestCompany {
    /// An English-speaking company under the default approval policy (`key_steps`).
    pub async fn new() -> Self {
        Self::speaking(Language::En).await
    }

    pub async fn speaking(language: Language) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("cubicle.db").display()
        );
        let mut options = CoreOptions::default();
        // The scenarios' webhooks are loopback test servers; every other fence stays.
        options.approvals.tools.webhook_loopback_for_tests = true;
        let core = AppCore::open_with(&url, options).await.expect("open db");
        core.org
            .setup_company(SetupCompany {
                name: "Acme Robotics".into(),
                boss_name: "Ada".into(),
                language,
                mission: Some("Build helpful robots".into()),
            })
            .await
            .expect("setup company");
        Self {
            core,
            url,
            _dir: dir,
        }
    }

    /// Hires `name`, who may use exactly `tools`.
    pub async fn staff(&self, name: &str, tools: &[&str]) -> EmployeeDto {
        let e = self
            .core
            .org
            .hire(NewEmployee {
                name: name.into(),
                title: "Engineer".into(),
                department_id: None,
                manager_id: None,
                archetype: None,
            })
            .await
            .expect("hire");
        self.core
            .approvals
            .set_tool_whitelist(e.id, tools.iter().map(|t| t.to_string()).collect())
            .await
            .expect("whitelist");
        e
    }

    /// `employee` asks to post `text` to the webhook at `url` (the boss allowed its
    /// host); under `key_steps` it waits for the boss. Returns the approval's id.
    pub async fn ask_to_post(&self, employee: &EmployeeDto, url: &str, text: &str) -> i32 {
        let mut hosts = self
            .core
            .approvals
            .webhook_destinations()
            .await
            .expect("destinations");
        hosts.push(url.to_owned());
        self.core
            .approvals
            .set_webhook_destinations(hosts)
            .await
            .expect("allow the webhook's host");
        let outcome = self
            .core
            .approvals
            .request(
                employee.id,
                ToolCall::new(
                    "post_webhook",
                    serde_json::json!({"url": url, "text": text}),
                    "to announce the release",
                ),
                None,
                None,
            )
            .await
            .expect("request");
        match outcome {
            CallOutcome::Waiting(id) => id,
            other => panic!("expected the post to wait for approval, got {other:?}"),
        }
    }
}
