use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::clock::SharedClock;
use cubicle_core::events::DomainEvent;
use cubicle_core::org::{
    DepartmentDto, EmployeeDto, NewDepartment, NewEmployee, SetBudget, SetDepartmentLead,
    SetupCompany, UpdateCompany,
};
use cubicle_core::providers::{SaveProvider, SetRoute};
use cubicle_core::types::*;
use tempfile::TempDir;
use tokio::sync::broadcast::Receiver;

/// A company on a fresh database: a SQLite file in a temp dir, or (see [`on_postgres`])
/// a PostgreSQL database of its own; both live as long as the value.
pub struct TestCompany {
    pub core: AppCore,
    pub events: Receiver<DomainEvent>,
    url: String,
    // Dropped after `core`: the database goes once nothing uses it.
    _db: Option<crate::pg::PgDatabase>,
    _dir: TempDir,
}

impl TestCompany {
    pub async fn new() -> Self {
        Self::with_options(CoreOptions::default()).await
    }

    /// A company whose engine runs on this clock (a manual one for simulated days).
    pub async fn with_clock(clock: SharedClock) -> Self {
        Self::with_options(CoreOptions {
            clock,
            ..CoreOptions::default()
        })
        .await
    }

    /// A company whose webhooks may reach the test's loopback servers (every other
    /// fence stays: the allowlist, private and link-local addresses, redirects).
    pub async fn with_options(mut options: CoreOptions) -> Self {
        options.approvals.tools.webhook_loopback_for_tests = true;
        Self::fenced(options).await
    }

    /// A company exactly as `options` say: with the default tools configuration its
    /// webhooks reach public addresses only, as in production.
    pub async fn fenced(mut options: CoreOptions) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let (url, pg) = match crate::pg::PgDatabase::for_this_test().await {
            Some(pg) => {
                // No SQLite file to sit beside: keep tools' files in the temp dir too.
                options
                    .workspace
                    .get_or_insert_with(|| dir.path().join("workspace"));
                (pg.url.clone(), Some(pg))
            }
            None => (
                format!(
                    "sqlite://{}?mode=rwc",
                    dir.path().join("cubicle.db").display()
                ),
                None,
            ),
        };
        // Downloads go to the test's own folder, never the user's models.
        options
            .local_models
            .dir
            .get_or_insert_with(|| dir.path().join("models"));
        let core = AppCore::open_with(&url, options).await.expect("open db");
        core.org
            .setup_company(SetupCompany {
                name: "Acme Robotics".into(),
                boss_name: "Ada".into(),
                language: Language::En,
                mission: Some("Build helpful robots".into()),
            })
            .await
            .expect("setup company");
        let events = core.bus.subscribe();
        Self {
            core,
            events,
            url,
            _db: pg,
            _dir: dir,
        }
    }

    /// A connection of the test's own to the company's database, to look at (or break)
    /// what the app stored: the app keeps its connection to itself.
    pub async fn db(&self) -> cubicle_store::Db {
        cubicle_store::db::connect(&self.url)
            .await
            .expect("a second connection to the test database")
    }

    /// Puts the host of `url` on the boss's webhook allowlist.
    pub async fn allow_webhooks_to(&self, url: &str) {
        let mut list = self.core.approvals.webhook_destinations().await.unwrap();
        list.push(url.to_owned());
        self.core
            .approvals
            .set_webhook_destinations(list)
            .await
            .unwrap();
    }

    /// Switches the company to `language` (a company starts in English).
    pub async fn speak(&self, language: Language) {
        self.core
            .org
            .update_company(UpdateCompany {
                language: Some(language),
                ..UpdateCompany::default()
            })
            .await
            .expect("change the company's language");
    }

    pub async fn dept(&self, name: &str, parent: Option<i32>) -> DepartmentDto {
        self.core
            .org
            .create_department(NewDepartment {
                name: name.into(),
                parent_id: parent,
                mission: None,
            })
            .await
            .expect("create department")
    }

    pub async fn hire(&self, name: &str, title: &str, dept: Option<i32>) -> EmployeeDto {
        self.core
            .org
            .hire(NewEmployee {
                name: name.into(),
                title: title.into(),
                department_id: dept,
                manager_id: None,
                archetype: None,
            })
            .await
            .expect("hire")
    }

    /// Routes `purpose` to an OpenAI-compatible server at `uri` (a scripted model in
    /// tests); returns the provider's id.
    pub async fn route_to(&self, uri: &str, purpose: cubicle_core::gateway::Purpose) -> String {
        let p = self
            .core
            .providers
            .save(SaveProvider {
                id: None,
                name: "Scripted".into(),
                preset: "vllm".into(),
                base_url: format!("{uri}/v1"),
                default_model: "m".into(),
                models: vec![],
                enabled: true,
            })
            .await
            .expect("save provider");
        self.core
            .providers
            .set_route(SetRoute {
                purpose,
                provider_id: p.id.clone(),
                model: "m".into(),
            })
            .await
            .expect("set route");
        p.id
    }

    /// Makes `employee_id` the lead of `department_id`.
    pub async fn make_lead(&self, department_id: i32, employee_id: i32) {
        self.core
            .org
            .set_department_lead(SetDepartmentLead {
                department_id,
                employee_id: Some(employee_id),
            })
            .await
            .expect("set lead");
    }

    /// The same company opened again, as another process would (a desktop pointed at
    /// the server, or `cubicle-cli`): same database and clock, a bus of its own.
    pub async fn another_process(&self) -> AppCore {
        let url = self.url.clone();
        self.open_at(&url).await
    }

    /// This company opened at `url` (another login to its server), as another process
    /// would: same clock and tools, a bus of its own.
    pub async fn open_at(&self, url: &str) -> AppCore {
        AppCore::open_with(
            url,
            CoreOptions {
                clock: self.core.clock.clone(),
                approvals: cubicle_core::approvals::ApprovalsConfig {
                    tools: self.core.approvals.runtime().config.clone(),
                    ..Default::default()
                },
                ..CoreOptions::default()
            },
        )
        .await
        .expect("open the database again")
    }

    /// The database URL the company was opened with (the server role's, on PostgreSQL).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A desktop attached to this company's server: it records approval decisions and
    /// leaves running them to the server's engine.
    pub async fn attached_desktop(&self) -> AppCore {
        AppCore::open_with(
            &self.url,
            CoreOptions {
                clock: self.core.clock.clone(),
                approvals: cubicle_core::approvals::ApprovalsConfig {
                    run_here: false,
                    tools: self.core.approvals.runtime().config.clone(),
                    ..Default::default()
                },
                ..CoreOptions::default()
            },
        )
        .await
        .expect("open the database again")
    }

    /// Every event published since the last drain.
    pub fn drain_events(&mut self) -> Vec<DomainEvent> {
        let mut out = Vec::new();
        while let Ok(e) = self.events.try_recv() {
            out.push(e);
        }
        out
    }
}

/// A company on a manual clock starting at `at`, whose thoughts go to `model` (a
/// scripted OpenAI-compatible server on loopback), with a budget no test run reaches.
/// Returns the company, its clock, the server (keep it alive) and the provider's id.
/// An OpenAI-compatible server on this machine whose every completion is `content`.
pub async fn model_answering(content: &str) -> wiremock::MockServer {
    use wiremock::{Mock, MockServer, ResponseTemplate, matchers::method};
    let model = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 300, "completion_tokens": 40}
        })))
        .mount(&model)
        .await;
    model
}

pub async fn scripted_company(
    at: chrono::DateTime<chrono::Utc>,
    model: impl wiremock::Respond + 'static,
) -> (
    TestCompany,
    cubicle_core::clock::ManualClock,
    wiremock::MockServer,
    String,
) {
    scripted_company_with(at, model, CoreOptions::default()).await
}

/// [`scripted_company`] opened with `options` (its clock is the manual one).
pub async fn scripted_company_with(
    at: chrono::DateTime<chrono::Utc>,
    model: impl wiremock::Respond + 'static,
    options: CoreOptions,
) -> (
    TestCompany,
    cubicle_core::clock::ManualClock,
    wiremock::MockServer,
    String,
) {
    let clock = cubicle_core::clock::ManualClock::new(at);
    let co = TestCompany::with_options(CoreOptions {
        clock: clock.shared(),
        ..options
    })
    .await;
    co.core
        .org
        .set_budget(SetBudget {
            daily_budget_usd: 1_000.0,
        })
        .await
        .expect("set budget");
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(model)
        .mount(&server)
        .await;
    let provider_id = co
        .route_to(&server.uri(), cubicle_core::gateway::Purpose::Thought)
        .await;
    (co, clock, server, provider_id)
}

/// The mailbox's items (of one kind, when given), newest first.
pub async fn mail_of(
    core: &AppCore,
    kind: Option<cubicle_core::mailbox::MailKind>,
) -> Vec<cubicle_core::mailbox::MailDto> {
    core.mailbox
        .list(cubicle_core::mailbox::MailFilter {
            kind,
            ..Default::default()
        })
        .await
        .expect("list mail")
        .items
}

/// Deciding as a boss who is looking at the approval right now: with the seal the queue
/// shows for it.
#[allow(async_fn_in_trait)]
pub trait DecideShown {
    async fn decide_shown(
        &self,
        id: i32,
        decision: cubicle_core::approvals::Decision,
        via: cubicle_core::approvals::DecidedVia,
        note: Option<String>,
    ) -> Result<cubicle_core::approvals::ApprovalDto, cubicle_core::approvals::ApprovalError>;
}

impl DecideShown for cubicle_core::approvals::Approvals {
    async fn decide_shown(
        &self,
        id: i32,
        decision: cubicle_core::approvals::Decision,
        via: cubicle_core::approvals::DecidedVia,
        note: Option<String>,
    ) -> Result<cubicle_core::approvals::ApprovalDto, cubicle_core::approvals::ApprovalError> {
        let shown = self.get(id).await?.args_hash;
        let input = cubicle_core::approvals::DecideApproval {
            approval_id: id,
            decision,
            note,
            args_hash: shown,
        };
        self.decide(input, via).await
    }
}

/// Whether the keychain tests run: under scripts/test.sh's throwaway keyring, or skipped
/// knowingly with `CUBICLE_SKIP_KEYRING=1`; anything else is a loud failure.
pub fn require_keyring() -> bool {
    if std::env::var("CUBICLE_TEST_KEYRING").is_ok_and(|v| v == "1") {
        return true;
    }
    if std::env::var("CUBICLE_SKIP_KEYRING").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED: keychain test (CUBICLE_SKIP_KEYRING=1)");
        return false;
    }
    panic!(
        "no test keychain: run scripts/test.sh, or set CUBICLE_SKIP_KEYRING=1 to skip knowingly"
    );
}
