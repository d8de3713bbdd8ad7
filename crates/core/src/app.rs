//! `AppCore`: the one value the desktop shell and the CLI hold.

use std::path::PathBuf;
use std::sync::Arc;

use cubicle_store::{Db, DbErr, DbError};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::clock::{SharedClock, SystemClock};
use crate::events::EventBus;
use crate::gateway::{Gateway, GatewayConfig};
use crate::org::OrgService;
use crate::providers::{EnvProvider, Providers};
use crate::roles;
use crate::secrets::{self, SecretStore};

#[derive(Clone)]
pub struct AppCore {
    /// Services are the door to the store: nothing outside core holds the connection.
    pub(crate) db: Db,
    pub bus: EventBus,
    pub org: OrgService,
    /// The company's people besides the boss, and who answers for what (SPEC §12).
    pub people: crate::people::People,
    /// Each person's proxy, acting in their name.
    pub proxies: crate::proxy::Proxies,
    pub providers: Arc<Providers>,
    pub gateway: Gateway,
    pub secretary: crate::secretary::Secretary,
    pub chats: crate::chat::Chats,
    pub work: crate::work::Work,
    pub minds: crate::mind::minds::Minds,
    pub mailbox: crate::mailbox::Mailbox,
    pub traces: crate::trace::Traces,
    pub meetings: crate::meeting::Meetings,
    /// Tools and the approval queue (SPEC §8).
    pub approvals: crate::approvals::Approvals,
    /// The local model catalogue, downloads and detected local servers.
    pub models: crate::models::LocalModels,
    pub clock: SharedClock,
}

impl std::fmt::Debug for AppCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppCore").finish_non_exhaustive()
    }
}

/// Where this app's company lives. On a shared server the app runs no engine of its
/// own (the server's `cubicle-cli run` is the one engine) and shows the company as it
/// changes there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionDto {
    /// `host:port/database` of the server (never a user or password); `None` when the
    /// company is a file on this computer.
    pub server: Option<String>,
    /// What said which company to open: a sign-in the app can forget, or a setting it
    /// cannot change.
    pub source: ConnectionSource,
    /// The saved sign-in did not open its company at start (why, from the server or the
    /// network): this computer's own company is open instead, and the sign-in is kept.
    pub sign_in_failed: Option<String>,
}

/// What said which company the app opened, in the order the app asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionSource {
    /// `CUBICLE_DATABASE_URL`, set where the app was started.
    Environment,
    /// The company-server sign-in kept in this computer's keychain.
    SignIn,
    /// This computer's own company file.
    Local,
}

/// What differs between the app, the CLI and tests.
pub struct CoreOptions {
    pub secrets: Arc<dyn SecretStore>,
    /// Where the built-in GGUF is; default: the app data dir.
    pub builtin_model: Option<PathBuf>,
    /// Where the built-in models are installed and `$CUBICLE_BUILTIN_MODEL`; default: both
    /// read from the environment (tests give a folder of their own).
    pub builtin_files: Option<crate::providers::BuiltinFiles>,
    /// A provider given by `CUBICLE_PROVIDER`/… for this run.
    pub env_provider: Option<EnvProvider>,
    pub gateway: GatewayConfig,
    /// The system clock in the app; a manual one for simulated days and tests.
    pub clock: SharedClock,
    /// The company workspace folder tools work in; default: `workspace/` beside a
    /// SQLite database file (the app data dir), else in the app data dir.
    pub workspace: Option<PathBuf>,
    /// Approval expiry and tool time limits.
    pub approvals: crate::approvals::ApprovalsConfig,
    /// Where catalogue models download to, download timings, where local servers are.
    pub local_models: crate::models::LocalModelsConfig,
}

impl Default for CoreOptions {
    fn default() -> Self {
        Self {
            secrets: Arc::new(secrets::default_store()),
            builtin_model: None,
            builtin_files: None,
            env_provider: None,
            gateway: GatewayConfig::default(),
            clock: SystemClock::shared(),
            workspace: None,
            approvals: crate::approvals::ApprovalsConfig::default(),
            local_models: crate::models::LocalModelsConfig::default(),
        }
    }
}

impl AppCore {
    /// What came in with an imported company and waits for the boss's confirmation.
    pub fn imported(&self) -> crate::imported::Imported {
        crate::imported::Imported::new(self.db.clone(), self.bus.clone())
    }

    /// Gives an employee their own model backend (or back to the company's routes).
    pub async fn set_employee_backend(
        &self,
        input: crate::org::SetEmployeeBackend,
    ) -> Result<crate::org::EmployeeDto, crate::error::IpcError> {
        let provider = input.provider.unwrap_or_default().trim().to_owned();
        if !provider.is_empty() && !self.providers.exists(&provider).await? {
            return Err(crate::error::IpcError::new(
                crate::error::ErrorCode::NotFound,
                format!("no provider {provider:?} is configured"),
            ));
        }
        Ok(self
            .org
            .set_backend(
                input.employee_id,
                crate::org::BackendRef {
                    provider,
                    model: input.model.unwrap_or_default(),
                },
            )
            .await?)
    }

    /// Pending work by urgency and the latest activity (SPEC §11).
    pub async fn dashboard(
        &self,
    ) -> Result<crate::dashboard::DashboardDto, crate::error::IpcError> {
        crate::dashboard::dashboard(&self.db, &self.clock)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "storage error");
                crate::error::IpcError::new(crate::error::ErrorCode::Storage, e.to_string())
            })
    }

    /// Closes the database connection (every clone of this core shares it), so the file
    /// or the server session is released before the process goes on.
    pub async fn close(self) -> Result<(), DbErr> {
        self.db.close().await
    }

    /// Opens the database at `url` (migrating it) with the OS keychain for secrets.
    pub async fn open(url: &str) -> Result<Self, DbError> {
        Self::open_with(url, CoreOptions::default()).await
    }

    /// Opens the database and starts the engine's long-lived parts (the gateway actor).
    /// Must run inside a tokio runtime.
    pub async fn open_with(url: &str, mut options: CoreOptions) -> Result<Self, DbError> {
        let db = cubicle_store::connect(url).await?;
        // Signed in to a company server as a person's own role: this process decides in
        // their name, never seeds or runs actions (the server's role does).
        let signed_in = match cubicle_store::login::session(&db).await? {
            cubicle_store::login::Session::Person { person_id } => Some(person_id),
            _ => None,
        };
        if signed_in.is_some() {
            options.approvals.run_here = false;
        } else {
            roles::seed(&db).await?;
        }
        let bus = EventBus::new();
        let secrets = options.secrets.clone();
        let (providers, models) = open_providers(&db, &bus, &options).await?;
        let clock = options.clock;
        let gateway = Gateway::spawn(
            db.clone(),
            bus.clone(),
            providers.clone(),
            options.gateway,
            clock.clone(),
        );
        let base = Base::new(db, bus, clock);
        let workspace = options.workspace.unwrap_or_else(|| default_workspace(url));
        let approvals = base
            .approvals(options.approvals, workspace, secrets)
            .signed_in_as(signed_in);
        let meetings = base.meetings(&gateway, &providers);
        let people = crate::people::People::new(base.db.clone(), base.bus.clone());
        let secretary = crate::secretary::Secretary::new(crate::secretary::SecretaryServices {
            db: base.db.clone(),
            org: base.org.clone(),
            chats: base.chats.clone(),
            meetings: meetings.clone(),
            approvals: approvals.clone(),
            people: people.clone(),
            gateway: gateway.clone(),
            providers: providers.clone(),
            work: base.work.clone(),
            bus: base.bus.clone(),
        });
        let proxies = crate::proxy::Proxies::new(
            base.db.clone(),
            base.bus.clone(),
            base.clock.clone(),
            people.clone(),
            base.work.clone(),
            approvals.clone(),
            crate::proxy::PrivacyModel {
                gateway: gateway.clone(),
                providers: providers.clone(),
            },
        );
        Ok(Self {
            traces: crate::trace::Traces::new(base.db.clone()),
            people,
            proxies,
            db: base.db,
            bus: base.bus,
            org: base.org,
            providers,
            gateway,
            secretary,
            chats: base.chats,
            work: base.work,
            minds: base.minds,
            mailbox: base.mailbox,
            meetings,
            approvals,
            models,
            clock: base.clock,
        })
    }
}

/// The providers (their keys settled) and the local models they can run.
async fn open_providers(
    db: &Db,
    bus: &EventBus,
    options: &CoreOptions,
) -> Result<(Arc<Providers>, crate::models::LocalModels), DbError> {
    let mut providers = Providers::new(db.clone(), bus.clone(), options.secrets.clone())
        .with_env_provider(options.env_provider.clone());
    if let Some(path) = options.builtin_model.clone() {
        providers = providers.with_builtin_path(path);
    }
    if let Some(files) = options.builtin_files.clone() {
        providers = providers.with_builtin_files(files);
    }
    let providers = Arc::new(providers);
    providers.settle_keys().await;
    let models = crate::models::LocalModels::new(
        bus.clone(),
        providers.clone(),
        options.local_models.clone(),
    )
    .map_err(|e| DbError::Db(sea_orm::DbErr::Custom(format!("model downloads: {e}"))))?;
    providers.set_local_files(models.local_files());
    Ok((providers, models))
}

/// The services the others are built on, over one connection, bus and clock.
struct Base {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
    org: OrgService,
    chats: crate::chat::Chats,
    work: crate::work::Work,
    minds: crate::mind::minds::Minds,
    mailbox: crate::mailbox::Mailbox,
}

impl Base {
    fn new(db: Db, bus: EventBus, clock: SharedClock) -> Self {
        Self {
            org: OrgService::new(db.clone(), bus.clone()),
            chats: crate::chat::Chats::new(db.clone(), bus.clone(), clock.clone()),
            work: crate::work::Work::new(db.clone(), bus.clone(), clock.clone()),
            minds: crate::mind::minds::Minds::new(db.clone(), bus.clone(), clock.clone()),
            mailbox: crate::mailbox::Mailbox::new(db.clone(), bus.clone(), clock.clone()),
            db,
            bus,
            clock,
        }
    }

    /// The approval queue and the tools it runs, boxed to `workspace`.
    fn approvals(
        &self,
        config: crate::approvals::ApprovalsConfig,
        workspace: PathBuf,
        secrets: Arc<dyn SecretStore>,
    ) -> crate::approvals::Approvals {
        let mut tools = config.tools.clone();
        // The folder holding the workspace holds the database and every employee's
        // folder too: a box sees only the one folder it is given.
        tools
            .sandbox
            .hidden
            .extend(workspace.parent().map(PathBuf::from));
        let runtime = crate::tools::ToolRuntime {
            db: self.db.clone(),
            org: self.org.clone(),
            chats: self.chats.clone(),
            minds: self.minds.clone(),
            clock: self.clock.clone(),
            workspace,
            config: tools,
        };
        crate::approvals::Approvals::new(
            self.db.clone(),
            self.bus.clone(),
            self.clock.clone(),
            self.chats.clone(),
            self.mailbox.clone(),
            runtime,
            config.ttl,
        )
        .running_here(config.run_here)
        .sealed_with(secrets)
    }

    fn meetings(&self, gateway: &Gateway, providers: &Arc<Providers>) -> crate::meeting::Meetings {
        crate::meeting::Meetings::new(crate::meeting::MeetingServices {
            db: self.db.clone(),
            bus: self.bus.clone(),
            clock: self.clock.clone(),
            chats: self.chats.clone(),
            minds: self.minds.clone(),
            mailbox: self.mailbox.clone(),
            gateway: gateway.clone(),
            providers: providers.clone(),
        })
    }
}

/// `workspace/` beside a SQLite file, so the app keeps it in its data dir and a test's
/// temporary database gets a temporary workspace; for a server database, the app data dir.
fn default_workspace(url: &str) -> PathBuf {
    let file = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .map(|rest| rest.split('?').next().unwrap_or(rest))
        .filter(|p| !p.is_empty() && !p.contains(":memory:"));
    if let Some(parent) = file.and_then(|f| std::path::Path::new(f).parent())
        && !parent.as_os_str().is_empty()
    {
        return parent.join("workspace");
    }
    cubicle_store::db::app_data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("workspace")
}
