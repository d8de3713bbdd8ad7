//! One admitted call on the wire: concurrency permit, timeout, retries with backoff, and
//! a cost-ledger row per attempt.

use std::time::Duration;

use cubicle_llm::{
    Capabilities, CompletionRequest, CompletionResponse, CompletionStream, LlmClient, LlmError,
    Usage,
};
use cubicle_store::entity::cost_ledger;
use cubicle_store::models as q;
use sea_orm::ActiveValue::{NotSet, Set};
use tokio::time::Instant;

use super::{CallContext, Gateway, GatewayConfig, Shared, Ticket};
use crate::events::DomainEvent;

/// An admitted call's client: each `complete` takes a concurrency permit, is bounded
/// by the timeout, retried with backoff, and writes one ledger row per attempt.
pub(super) struct Metered<'a> {
    gateway: &'a Gateway,
    ticket: &'a Ticket,
    ctx: &'a CallContext,
    attempt_base: std::sync::atomic::AtomicI32,
}

impl<'a> Metered<'a> {
    pub(super) fn new(gateway: &'a Gateway, ticket: &'a Ticket, ctx: &'a CallContext) -> Self {
        Self {
            gateway,
            ticket,
            ctx,
            attempt_base: std::sync::atomic::AtomicI32::new(0),
        }
    }

    pub(super) async fn call(
        &self,
        mut req: CompletionRequest,
    ) -> Result<CompletionResponse, LlmError> {
        if req.model.is_empty() {
            req.model = self.ticket.route.model.clone();
        }
        let config = &self.gateway.shared.config;
        let mut retries = config.backoff.iter();
        loop {
            let attempt = self
                .attempt_base
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                + 1;
            let started = Instant::now();
            let result = {
                let _permit = self
                    .gateway
                    .permits
                    .acquire()
                    .await
                    .map_err(|_| LlmError::Transport("gateway closed".into()))?;
                match tokio::time::timeout(
                    config.call_timeout,
                    self.ticket.resolved.client.complete(req.clone()),
                )
                .await
                {
                    Ok(r) => r,
                    Err(_) => Err(LlmError::Timeout),
                }
            };
            let latency = started.elapsed();
            self.record(attempt, &result, latency).await;
            let err = match result {
                Ok(resp) => return Ok(resp),
                Err(e) => e,
            };
            let Some(wait) = retry_wait(&err, retries.next(), config) else {
                return Err(err);
            };
            tracing::info!(
                provider = %self.ticket.route.provider_id,
                attempt,
                error = %err,
                wait_ms = wait.as_millis() as u64,
                "model call failed; retrying"
            );
            tokio::time::sleep(wait).await;
        }
    }

    async fn record(
        &self,
        attempt: i32,
        result: &Result<CompletionResponse, LlmError>,
        latency: Duration,
    ) {
        let (usage, outcome, error) = match result {
            Ok(r) => (r.usage, "ok", None),
            Err(e) => (Usage::default(), "error", Some(e)),
        };
        record_attempt(
            &self.gateway.shared,
            self.ticket,
            self.ctx,
            attempt,
            usage,
            outcome,
            error,
            latency,
        )
        .await;
    }
}

/// How long to wait before retrying after `err`, or `None` to give up: only transient
/// errors are retried, while backoff steps remain, waiting at least what the provider's
/// `Retry-After` asks unless that is unreasonably long.
pub(super) fn retry_wait(
    err: &LlmError,
    next: Option<&Duration>,
    config: &GatewayConfig,
) -> Option<Duration> {
    if !err.is_retryable() {
        return None;
    }
    let wait = *next?;
    match err {
        LlmError::RateLimited {
            retry_after: Some(after),
        } if *after > config.max_retry_after => None,
        LlmError::RateLimited {
            retry_after: Some(after),
        } => Some(wait.max(*after)),
        _ => Some(wait),
    }
}

/// `LlmError` is not `Clone` (it may carry sources); keep what the ledger needs.
pub(super) fn clone_err(e: &LlmError) -> LlmError {
    match e {
        LlmError::RateLimited { retry_after } => LlmError::RateLimited {
            retry_after: *retry_after,
        },
        LlmError::Timeout => LlmError::Timeout,
        LlmError::StreamCut => LlmError::StreamCut,
        LlmError::Http { status, body } => LlmError::Http {
            status: *status,
            body: body.clone(),
        },
        other => LlmError::Provider(other.to_string()),
    }
}

/// One ledger row for one attempt, then a `SpendRecorded` event.
#[allow(clippy::too_many_arguments)]
pub(super) async fn record_attempt(
    shared: &Shared,
    ticket: &Ticket,
    ctx: &CallContext,
    attempt: i32,
    usage: Usage,
    outcome: &str,
    error: Option<&LlmError>,
    latency: Duration,
) {
    let row = cost_ledger::ActiveModel {
        id: NotSet,
        at: Set(shared.clock.now()),
        trace_id: Set(ctx.trace_id.clone()),
        employee_id: Set(ctx.employee_id),
        purpose: Set(ctx.purpose.as_str().to_owned()),
        provider_id: Set(ticket.route.provider_id.clone()),
        model: Set(ticket.route.model.clone()),
        attempt: Set(attempt),
        input_tokens: Set(i32::try_from(usage.input_tokens).unwrap_or(i32::MAX)),
        output_tokens: Set(i32::try_from(usage.output_tokens).unwrap_or(i32::MAX)),
        cost_usd: Set(ticket.price.cost(usage)),
        latency_ms: Set(i32::try_from(latency.as_millis()).unwrap_or(i32::MAX)),
        outcome: Set(outcome.to_owned()),
        fallback: Set(ticket.fallback),
        error: Set(error.map(|e| format!("{}: {e}", e.code()))),
    };
    match q::insert_ledger(&shared.db, row).await {
        Ok(_) => shared.bus.publish(DomainEvent::SpendRecorded),
        Err(e) => tracing::error!(error = %e, "could not write the cost ledger"),
    }
}

#[async_trait::async_trait]
impl LlmClient for Metered<'_> {
    fn provider_id(&self) -> &str {
        &self.ticket.route.provider_id
    }
    fn capabilities(&self) -> Capabilities {
        self.ticket.resolved.client.capabilities()
    }
    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError> {
        self.call(req).await
    }
    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError> {
        self.ticket.resolved.client.stream(req).await
    }
}
