//! One admitted call on the wire: concurrency permit, timeout, retries with backoff, and
//! a cost-ledger row per attempt.

use std::time::Duration;

use cubicle_llm::structured::{Structured, StructuredError};
use cubicle_llm::{
    Capabilities, CompletionRequest, CompletionResponse, CompletionStream, FinishReason, JsonForm,
    LlmClient, LlmError, Usage,
};
use cubicle_store::entity::cost_ledger;

use cubicle_store::models as q;
use sea_orm::ActiveValue::{NotSet, Set};
use tokio::time::Instant;

use super::{CallContext, Gateway, GatewayConfig, LedgerOutcome, Shared, StructuredOutput, Ticket};
use crate::events::DomainEvent;

/// An admitted call's client: each `complete` takes a concurrency permit, is bounded
/// by the timeout, retried with backoff, and writes one ledger row per attempt.
pub(super) struct Metered<'a> {
    gateway: &'a Gateway,
    ticket: &'a Ticket,
    ctx: &'a CallContext,
    attempt_base: std::sync::atomic::AtomicI32,
    /// Ledger rows of the attempts that returned an answer, in order: one per answer
    /// the structured pipeline judged.
    answered: std::sync::Mutex<Vec<i32>>,
    /// Of those, the answers stopped at the token cap: their rows keep `cut_off`.
    cut_off: std::sync::Mutex<Vec<i32>>,
}

impl<'a> Metered<'a> {
    pub(super) fn new(gateway: &'a Gateway, ticket: &'a Ticket, ctx: &'a CallContext) -> Self {
        Self {
            gateway,
            ticket,
            ctx,
            attempt_base: std::sync::atomic::AtomicI32::new(0),
            answered: std::sync::Mutex::new(Vec::new()),
            cut_off: std::sync::Mutex::new(Vec::new()),
        }
    }

    pub(super) fn ctx(&self) -> &CallContext {
        self.ctx
    }

    /// Writes what became of each answer of a structured call into its ledger row:
    /// every answer but the last was `rejected` (reported back to the model); the last
    /// is `valid`, `repaired` or `dropped`. When the call ended in a provider error, the
    /// answers before it were all rejected.
    pub(super) async fn mark_outputs<T>(&self, result: &Result<Structured<T>, StructuredError>) {
        let rows = std::mem::take(
            &mut *self
                .answered
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        let last = match result {
            Ok(s) if s.repaired => Some(StructuredOutput::Repaired),
            Ok(_) => Some(StructuredOutput::Valid),
            Err(StructuredError::Invalid { .. }) => Some(StructuredOutput::Dropped),
            Err(_) => None,
        };
        let (earlier, final_row) = match (last, rows.split_last()) {
            (Some(last), Some((row, earlier))) => (earlier, Some((*row, last))),
            _ => (rows.as_slice(), None),
        };
        let db = &self.gateway.shared.db;
        let mut marks = vec![(earlier.to_vec(), StructuredOutput::Rejected)];
        if let Some((row, last)) = final_row {
            marks.push((vec![row], last));
        }
        let cut_off = std::mem::take(
            &mut *self
                .cut_off
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        for (mut ids, output) in marks {
            // A cut-off answer was unusable whatever became of the call: it keeps saying so.
            ids.retain(|id| !cut_off.contains(id));
            if ids.is_empty() {
                continue;
            }
            if let Err(e) = q::set_ledger_output(db, &ids, output).await {
                tracing::error!(error = %e, "could not mark the ledger");
            }
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
        let mut retries = self.ctx.backoff(&config.backoff);
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
                let on_the_wire = Instant::now();
                let r = match tokio::time::timeout(
                    config.call_timeout,
                    self.ticket.resolved.client.complete(req.clone()),
                )
                .await
                {
                    Ok(r) => r,
                    Err(_) => Err(LlmError::Timeout),
                };
                let waited = u64::try_from(on_the_wire.elapsed().as_nanos()).unwrap_or(u64::MAX);
                self.gateway
                    .shared
                    .waited_ns
                    .fetch_add(waited, std::sync::atomic::Ordering::Relaxed);
                r
            };
            let latency = started.elapsed();
            let wait = match &result {
                Ok(_) => None,
                Err(e) => retry_wait(e, retries.next(), config),
            };
            self.record(attempt, &result, latency, wait).await;
            let err = match result {
                Ok(resp) => return Ok(resp),
                Err(e) => e,
            };
            let Some(wait) = wait else {
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
        backoff: Option<Duration>,
    ) {
        let (usage, outcome, error) = match result {
            Ok(r) => (r.usage, LedgerOutcome::Ok, None),
            Err(e) => (Usage::default(), LedgerOutcome::Error, Some(e)),
        };
        let cut_off = matches!(result, Ok(r) if r.finish_reason == FinishReason::Length);
        let row = record_attempt(
            &self.gateway.shared,
            self.ticket,
            self.ctx,
            Attempt {
                n: attempt,
                usage,
                outcome,
                error,
                latency,
                backoff,
                cut_off,
            },
        )
        .await;
        if let (Ok(_), Some(id)) = (result, row) {
            self.answered
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(id);
            if cut_off {
                self.cut_off
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(id);
            }
        }
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

/// One attempt on the wire, as the ledger records it.
pub(super) struct Attempt<'e> {
    pub(super) n: i32,
    pub(super) usage: Usage,
    pub(super) outcome: LedgerOutcome,
    pub(super) error: Option<&'e LlmError>,
    pub(super) latency: Duration,
    /// The wait before the next attempt, when this failed one is retried.
    pub(super) backoff: Option<Duration>,
    /// The answer stopped at the token cap.
    pub(super) cut_off: bool,
}

fn millis(d: Duration) -> i32 {
    i32::try_from(d.as_millis()).unwrap_or(i32::MAX)
}

/// One ledger row for one attempt, then a `SpendRecorded` event; the row's id.
pub(super) async fn record_attempt(
    shared: &Shared,
    ticket: &Ticket,
    ctx: &CallContext,
    attempt: Attempt<'_>,
) -> Option<i32> {
    let row = cost_ledger::ActiveModel {
        id: NotSet,
        at: Set(shared.clock.now()),
        trace_id: Set(ctx.trace_id.clone()),
        employee_id: Set(ctx.employee_id),
        purpose: Set(ctx.purpose),
        provider_id: Set(ticket.route.provider_id.clone()),
        model: Set(ticket.route.model.clone()),
        attempt: Set(attempt.n),
        input_tokens: Set(i32::try_from(attempt.usage.input_tokens).unwrap_or(i32::MAX)),
        output_tokens: Set(i32::try_from(attempt.usage.output_tokens).unwrap_or(i32::MAX)),
        cached_tokens: Set(i32::try_from(attempt.usage.cached_input_tokens).unwrap_or(i32::MAX)),
        cost_usd: Set(ticket.price.cost(attempt.usage)),
        latency_ms: Set(millis(attempt.latency)),
        outcome: Set(attempt.outcome),
        fallback: Set(ticket.fallback),
        error: Set(attempt.error.map(|e| format!("{}: {e}", e.code()))),
        backoff_ms: Set(attempt.backoff.map(millis)),
        output: Set(attempt.cut_off.then_some(StructuredOutput::CutOff)),
    };
    match q::insert_ledger(&shared.db, row).await {
        Ok(row) => {
            shared.bus.publish(DomainEvent::SpendRecorded);
            Some(row.id)
        }
        Err(e) => {
            tracing::error!(error = %e, "could not write the cost ledger");
            None
        }
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
    fn json_forms(&self) -> Vec<JsonForm> {
        self.ticket.resolved.client.json_forms()
    }
    fn wire_body(&self, req: &CompletionRequest) -> Option<serde_json::Value> {
        self.ticket.resolved.client.wire_body(req)
    }
    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError> {
        self.call(req).await
    }
    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError> {
        self.ticket.resolved.client.stream(req).await
    }
}
