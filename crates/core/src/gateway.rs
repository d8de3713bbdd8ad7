//! The model gateway (SPEC §10): every model call in Cubicle goes through here.
//!
//! One actor owns the shared state — the budget reservations and a circuit breaker per
//! provider — and admits calls one at a time, so the budget check cannot race. Admitted
//! calls then run concurrently, at most `concurrency` at once, each attempt bounded by a
//! timeout and retried with backoff (honouring `Retry-After`). Every attempt, and every
//! call refused before it was made, leaves a row in the cost ledger.

pub mod breaker;
mod forms;
mod metered;
pub mod pricing;
mod streamed;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::{Local, Utc};
use cubicle_llm::structured::{self, StructuredError};
use cubicle_llm::{CompletionRequest, CompletionResponse, LlmClient, LlmError};
use cubicle_store::entity::cost_ledger;
use cubicle_store::{Db, DbErr, models as q};
use schemars::JsonSchema;
use sea_orm::ActiveValue::{NotSet, Set};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use self::breaker::Transition;
use self::breaker::{Admit, Breaker};
use self::forms::FormMemory;
use self::metered::Metered;
use self::pricing::Price;
use crate::clock::SharedClock;
use crate::events::{DomainEvent, EventBus};

/// Provider id of the built-in offline model, the fallback of last resort.
pub const BUILTIN: &str = "builtin";

/// The boss's daily model budget when nothing else is set (SPEC §10: finite by default).
pub const DEFAULT_DAILY_BUDGET_USD: f64 = 2.0;

/// The one place that raises the daily budget: where a budget stop's mail and refusal
/// send the boss.
pub const BUDGET_FIX: &str = "#settings/budget";

/// What a model call is for; each purpose can be routed to its own model (seed 001).
pub use cubicle_store::enums::{LedgerOutcome, Purpose, StructuredOutput};

/// The purposes a route may be set for.
pub const ROUTABLE: [Purpose; 5] = [
    Purpose::Intent,
    Purpose::Thought,
    Purpose::Summary,
    Purpose::Report,
    Purpose::Privacy,
];

/// Who is calling and why; carried into the ledger.
#[derive(Clone, Debug)]
pub struct CallContext {
    pub purpose: Purpose,
    pub trace_id: Option<String>,
    pub employee_id: Option<i32>,
    /// At most this many retries of a failed call (an employee's role card says how
    /// many); `None`: as many as the gateway's backoff allows.
    pub max_retries: Option<u32>,
}

impl CallContext {
    pub fn new(purpose: Purpose) -> Self {
        Self {
            purpose,
            trace_id: None,
            employee_id: None,
            max_retries: None,
        }
    }

    /// The backoff waits this call may use: the gateway's, cut to the card's retries.
    pub(crate) fn backoff<'a>(
        &self,
        backoff: &'a [std::time::Duration],
    ) -> std::iter::Take<std::slice::Iter<'a, std::time::Duration>> {
        let limit = self
            .max_retries
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        backoff.iter().take(limit)
    }
}

/// Which provider and model should serve a call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub provider_id: String,
    pub model: String,
}

/// A provider the gateway can call: its client, its price list and whether it is free.
#[derive(Clone)]
pub struct ResolvedProvider {
    pub client: Arc<dyn LlmClient>,
    pub preset: String,
}

/// Looks up live clients and prices; the app builds clients from settings + keychain,
/// tests hand in scripted ones.
#[async_trait::async_trait]
pub trait ProviderResolver: Send + Sync {
    async fn resolve(&self, provider_id: &str) -> Result<ResolvedProvider, LlmError>;
    /// The provider for a route: the same as [`ProviderResolver::resolve`] unless the
    /// provider serves several local models and the route names one.
    async fn resolve_model(
        &self,
        provider_id: &str,
        _model: &str,
    ) -> Result<ResolvedProvider, LlmError> {
        self.resolve(provider_id).await
    }
    async fn price(&self, provider_id: &str, preset: &str, model: &str) -> Price;
}

#[derive(Clone, Debug)]
pub struct GatewayConfig {
    /// Model calls in flight at once (SPEC §10: 3).
    pub concurrency: usize,
    /// Per attempt (SPEC §10: 60 s).
    pub call_timeout: Duration,
    /// Waits before each retry (SPEC §10: 1, 2, 4 s).
    pub backoff: Vec<Duration>,
    /// Longest `Retry-After` we honour; a longer one fails the attempt.
    pub max_retry_after: Duration,
    pub breaker_failures: u32,
    pub breaker_open_for: Duration,
    /// Share of the daily budget after which paid calls go to the built-in model.
    pub fallback_at: f64,
}

impl Default for GatewayConfig {
    fn default() -> Self {
        Self {
            concurrency: 3,
            call_timeout: Duration::from_secs(60),
            backoff: vec![
                Duration::from_secs(1),
                Duration::from_secs(2),
                Duration::from_secs(4),
            ],
            max_retry_after: Duration::from_secs(60),
            breaker_failures: breaker::FAILURES_TO_OPEN,
            breaker_open_for: breaker::OPEN_FOR,
            fallback_at: 0.9,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    #[error(
        "today's model budget is spent (${spent:.4} of ${budget:.2}); raise it in Settings to continue"
    )]
    BudgetExceeded { spent: f64, budget: f64 },
    #[error("{provider} failed repeatedly and is paused; it will be retried shortly")]
    BreakerOpen { provider: String },
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("the model's answer could not be used: {0}")]
    Structured(String),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
    #[error("the gateway has shut down")]
    Closed,
}

impl GatewayError {
    pub fn code(&self) -> &'static str {
        match self {
            GatewayError::BudgetExceeded { .. } => "budget_exceeded",
            GatewayError::BreakerOpen { .. } => "breaker_open",
            GatewayError::Llm(e) => e.code(),
            GatewayError::Structured(_) => "invalid_output",
            GatewayError::Storage(_) => "storage",
            GatewayError::Closed => "closed",
        }
    }
}

/// The answer of a call, with the route that actually served it.
#[derive(Debug)]
pub struct GatewayReply<T> {
    pub value: T,
    pub route: Route,
    pub fallback: bool,
}

/// A call admitted by the actor: where it goes and what it reserved.
struct Ticket {
    route: Route,
    resolved: ResolvedProvider,
    price: Price,
    fallback: bool,
    reserved: f64,
}

enum Msg {
    Admit {
        ctx: CallContext,
        route: Route,
        estimate_tokens: (u32, u32),
        reply: oneshot::Sender<Result<Ticket, GatewayError>>,
    },
    Done {
        ctx: CallContext,
        route: Route,
        success: bool,
        reserved: f64,
        /// When the call ended (the actor may read the message a little later).
        at: chrono::DateTime<Utc>,
    },
}

/// Cheap to clone; all clones talk to the same actor.
#[derive(Clone)]
pub struct Gateway {
    tx: mpsc::Sender<Msg>,
    permits: Arc<Semaphore>,
    shared: Arc<Shared>,
    _stop: Arc<StopOnDrop>,
}

struct Shared {
    db: Db,
    bus: EventBus,
    resolver: Arc<dyn ProviderResolver>,
    config: GatewayConfig,
    /// Ledger times and "today" follow the company's clock (a manual one in simulated
    /// runs, so a simulated week spends per simulated day).
    clock: SharedClock,
    forms: FormMemory,
    /// Nanoseconds spent waiting on providers' HTTP answers, every attempt summed: what
    /// `cubicle-cli bench chat` subtracts to leave only our own work.
    waited_ns: std::sync::atomic::AtomicU64,
}

struct StopOnDrop(CancellationToken);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Gateway {
    pub fn spawn(
        db: Db,
        bus: EventBus,
        resolver: Arc<dyn ProviderResolver>,
        config: GatewayConfig,
        clock: SharedClock,
    ) -> Self {
        let (tx, rx) = mpsc::channel(256);
        let cancel = CancellationToken::new();
        let actor = Actor {
            db: db.clone(),
            bus: bus.clone(),
            clock: clock.clone(),
            resolver: resolver.clone(),
            config: config.clone(),
            breakers: HashMap::new(),
            reserved: 0.0,
        };
        tokio::spawn(actor.run(rx, cancel.clone()));
        Self {
            tx,
            permits: Arc::new(Semaphore::new(config.concurrency.max(1))),
            shared: Arc::new(Shared {
                forms: FormMemory::new(db.clone()),
                db,
                bus,
                resolver,
                config,
                clock,
                waited_ns: std::sync::atomic::AtomicU64::new(0),
            }),
            _stop: Arc::new(StopOnDrop(cancel)),
        }
    }

    /// `schema`: a structured call's, counted as sent (compacted, in the request body or
    /// the prompt), so the budget reserves what goes over the wire.
    async fn admit(
        &self,
        ctx: &CallContext,
        route: Route,
        req: &CompletionRequest,
        schema: Option<&serde_json::Value>,
    ) -> Result<Ticket, GatewayError> {
        let input: u32 = req
            .messages
            .iter()
            .map(|m| pricing::estimate_tokens(&m.content))
            .sum::<u32>()
            + schema.map_or(0, |s| {
                pricing::estimate_tokens(&cubicle_llm::shape::wire_schema(s).to_string())
            });
        let output = req.max_tokens.unwrap_or(1024);
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Msg::Admit {
                ctx: ctx.clone(),
                route,
                estimate_tokens: (input, output),
                reply,
            })
            .await
            .map_err(|_| GatewayError::Closed)?;
        rx.await.map_err(|_| GatewayError::Closed)?
    }

    async fn finish(&self, ticket: &Ticket, ctx: &CallContext, success: bool) {
        let _ = self
            .tx
            .send(Msg::Done {
                ctx: ctx.clone(),
                route: ticket.route.clone(),
                success,
                reserved: ticket.reserved,
                at: self.shared.clock.now(),
            })
            .await;
    }

    /// What the model behind `route` can handle (its context, whether it is small), so
    /// the caller sizes the work to it. Asks the provider's client, never the model.
    pub async fn profile(&self, route: &Route) -> Result<cubicle_llm::ModelProfile, GatewayError> {
        let resolved = self
            .shared
            .resolver
            .resolve_model(&route.provider_id, &route.model)
            .await?;
        Ok(resolved.client.profile(&route.model))
    }

    /// One completion, routed, budgeted, retried and recorded.
    pub async fn complete(
        &self,
        ctx: &CallContext,
        route: Route,
        req: CompletionRequest,
    ) -> Result<GatewayReply<CompletionResponse>, GatewayError> {
        let ticket = self.admit(ctx, route, &req, None).await?;
        let metered = Metered::new(self, &ticket, ctx);
        let result = metered.call(req).await;
        self.finish(&ticket, ctx, result.is_ok()).await;
        Ok(GatewayReply {
            value: result?,
            route: ticket.route.clone(),
            fallback: ticket.fallback,
        })
    }

    /// A typed answer through the structured-output pipeline (schema → native mode or
    /// instructions → repair → validation → one retry with the error).
    pub async fn complete_json<T: DeserializeOwned + JsonSchema>(
        &self,
        ctx: &CallContext,
        route: Route,
        req: CompletionRequest,
    ) -> Result<GatewayReply<T>, GatewayError> {
        let schema = schemars::schema_for!(T).to_value();
        let ticket = self.admit(ctx, route, &req, Some(&schema)).await?;
        let metered = Metered::new(self, &ticket, ctx);
        let req = self.with_known_form(&ticket, req).await;
        let result = structured::complete_json::<T>(&metered, req).await;
        self.finish_structured(&ticket, &metered, result).await
    }

    /// Like [`Gateway::complete_json`] for a schema known only at run time.
    pub async fn complete_json_value(
        &self,
        ctx: &CallContext,
        route: Route,
        req: CompletionRequest,
        schema: serde_json::Value,
    ) -> Result<GatewayReply<serde_json::Value>, GatewayError> {
        let ticket = self.admit(ctx, route, &req, Some(&schema)).await?;
        let metered = Metered::new(self, &ticket, ctx);
        let req = self.with_known_form(&ticket, req).await;
        let result = structured::complete_json_value(&metered, req, schema).await;
        self.finish_structured(&ticket, &metered, result).await
    }

    /// Starts a structured call at the form this provider is known to accept, unless the
    /// caller chose one.
    async fn with_known_form(
        &self,
        ticket: &Ticket,
        mut req: CompletionRequest,
    ) -> CompletionRequest {
        if req.json_form.is_none() {
            req.json_form = self.shared.forms.get(&ticket.route.provider_id).await;
        }
        req
    }

    async fn finish_structured<T>(
        &self,
        ticket: &Ticket,
        metered: &Metered<'_>,
        result: Result<structured::Structured<T>, StructuredError>,
    ) -> Result<GatewayReply<T>, GatewayError> {
        let ctx = metered.ctx();
        if let Ok(s) = &result {
            let best = ticket.resolved.client.json_forms().first().copied();
            self.shared
                .forms
                .worked(&ticket.route.provider_id, s.form, best)
                .await;
        }
        // An unusable answer is still an answer: it says nothing about the provider's health.
        let provider_ok = matches!(result, Ok(_) | Err(StructuredError::Invalid { .. }));
        metered.mark_outputs(&result).await;
        self.finish(ticket, ctx, provider_ok).await;
        match result {
            Ok(s) => Ok(GatewayReply {
                value: s.value,
                route: ticket.route.clone(),
                fallback: ticket.fallback,
            }),
            Err(StructuredError::Llm(e)) => Err(GatewayError::Llm(e)),
            Err(e) => {
                tracing::warn!(error = %e, purpose = %ctx.purpose, "model output dropped");
                Err(GatewayError::Structured(e.to_string()))
            }
        }
    }

    /// Time spent waiting on providers' HTTP answers since the gateway started, every
    /// attempt summed (the client's call itself: sending the request, waiting, reading
    /// the answer). With one call at a time, the difference across a piece of work is
    /// the part of it that was not our own.
    pub fn time_on_the_wire(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(
            self.shared
                .waited_ns
                .load(std::sync::atomic::Ordering::Relaxed),
        )
    }

    /// Money spent on model calls since local midnight.
    pub async fn spent_today(&self) -> Result<f64, DbErr> {
        q::spent_since(&self.shared.db, start_of_day(self.shared.clock.now())).await
    }
}

/// Local midnight of the day `now` falls in, as UTC: "today" is the boss's day.
pub fn start_of_day(now: chrono::DateTime<Utc>) -> chrono::DateTime<Utc> {
    let local = now.with_timezone(&Local);
    local
        .date_naive()
        .and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_local_timezone(Local).earliest())
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or(now)
}

struct Actor {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
    resolver: Arc<dyn ProviderResolver>,
    config: GatewayConfig,
    breakers: HashMap<String, Breaker>,
    /// Estimated cost of admitted calls that have not finished yet.
    reserved: f64,
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Msg>, cancel: CancellationToken) {
        loop {
            let msg = tokio::select! {
                () = cancel.cancelled() => break,
                msg = rx.recv() => match msg { Some(m) => m, None => break },
            };
            match msg {
                Msg::Admit {
                    ctx,
                    route,
                    estimate_tokens,
                    reply,
                } => {
                    let result = self.admit(&ctx, route, estimate_tokens).await;
                    let _ = reply.send(result);
                }
                Msg::Done {
                    ctx,
                    route,
                    success,
                    reserved,
                    at,
                } => {
                    self.reserved = (self.reserved - reserved).max(0.0);
                    let change = self.breaker(&route.provider_id).record(success, at);
                    // Breaker changes are rows of their own, so the boss (and the soak
                    // report) sees when a provider was paused and when it came back. They
                    // are about the provider, not about one instruction or employee.
                    let ctx = CallContext::new(ctx.purpose);
                    match change {
                        Some(Transition::Opened) => {
                            tracing::warn!(provider = %route.provider_id, "circuit breaker opened");
                            self.refuse(&ctx, &route, LedgerOutcome::BreakerOpened)
                                .await;
                        }
                        Some(Transition::Closed) => {
                            tracing::info!(provider = %route.provider_id, "circuit breaker closed");
                            self.refuse(&ctx, &route, LedgerOutcome::BreakerClosed)
                                .await;
                        }
                        None => {}
                    }
                }
            }
        }
    }

    fn breaker(&mut self, provider: &str) -> &mut Breaker {
        let (n, open_for) = (self.config.breaker_failures, self.config.breaker_open_for);
        self.breakers
            .entry(provider.to_owned())
            .or_insert_with(|| Breaker::new(n, open_for))
    }

    async fn admit(
        &mut self,
        ctx: &CallContext,
        route: Route,
        (input, output): (u32, u32),
    ) -> Result<Ticket, GatewayError> {
        let budget = cubicle_store::org::find_company(&self.db)
            .await?
            .map(|c| c.daily_budget_usd)
            .unwrap_or(DEFAULT_DAILY_BUDGET_USD);
        let spent = q::spent_since(&self.db, start_of_day(self.clock.now())).await? + self.reserved;
        if spent >= budget {
            self.refuse(ctx, &route, LedgerOutcome::BudgetExceeded)
                .await;
            self.bus.publish(DomainEvent::BudgetExceeded {
                spent_usd: spent,
                budget_usd: budget,
            });
            return Err(GatewayError::BudgetExceeded { spent, budget });
        }

        let mut route = route;
        let mut fallback = false;
        let near_budget = spent >= budget * self.config.fallback_at;
        let now = self.clock.now();
        let open = route.provider_id != BUILTIN
            && self.breaker(&route.provider_id).admit(now) == Admit::No;
        if route.provider_id != BUILTIN && (open || near_budget) {
            let why = if open { "breaker_open" } else { "near_budget" };
            match self.resolver.resolve(BUILTIN).await {
                Ok(_) => {
                    tracing::info!(from = %route.provider_id, why, "routing to the built-in model");
                    route = Route {
                        provider_id: BUILTIN.into(),
                        model: String::new(),
                    };
                    fallback = true;
                }
                Err(e) if open => {
                    tracing::warn!(error = %e, "no built-in model to fall back to");
                    self.refuse(ctx, &route, LedgerOutcome::BreakerOpen).await;
                    return Err(GatewayError::BreakerOpen {
                        provider: route.provider_id,
                    });
                }
                // Near the budget but no fallback: the call still fits, let it go.
                Err(_) => {}
            }
        }

        let resolved = match self
            .resolver
            .resolve_model(&route.provider_id, &route.model)
            .await
        {
            Ok(r) => r,
            Err(e) => {
                self.refuse(ctx, &route, LedgerOutcome::Error).await;
                return Err(e.into());
            }
        };
        let price = self
            .resolver
            .price(&route.provider_id, &resolved.preset, &route.model)
            .await;
        let reserved = price.cost(cubicle_llm::Usage {
            input_tokens: input,
            output_tokens: output,
            ..cubicle_llm::Usage::default()
        });
        self.reserved += reserved;
        Ok(Ticket {
            route,
            resolved,
            price,
            fallback,
            reserved,
        })
    }

    /// A ledger row for a call that was never made (or a breaker change), so the boss
    /// sees why.
    async fn refuse(&self, ctx: &CallContext, route: &Route, outcome: LedgerOutcome) {
        let row = cost_ledger::ActiveModel {
            id: NotSet,
            at: Set(self.clock.now()),
            trace_id: Set(ctx.trace_id.clone()),
            employee_id: Set(ctx.employee_id),
            purpose: Set(ctx.purpose),
            provider_id: Set(route.provider_id.clone()),
            model: Set(route.model.clone()),
            attempt: Set(0),
            input_tokens: Set(0),
            output_tokens: Set(0),
            cached_tokens: Set(0),
            cost_usd: Set(0.0),
            latency_ms: Set(0),
            outcome: Set(outcome),
            fallback: Set(false),
            error: Set(None),
            backoff_ms: Set(None),
            output: Set(None),
        };
        if let Err(e) = q::insert_ledger(&self.db, row).await {
            tracing::error!(error = %e, "could not write the cost ledger");
        }
    }
}
