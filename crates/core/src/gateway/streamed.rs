//! Streamed completions: the stream is opened with the same admission, budget, breaker and
//! retries as a plain call, then a relay task forwards its events to the caller and writes
//! the ledger row when the stream ends — completed, failed, or dropped by the caller.

use cubicle_llm::{CompletionRequest, CompletionStream, LlmError, StreamEvent, Usage};
use futures::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use tokio::time::Instant;

use super::metered::{Attempt, clone_err, record_attempt, retry_wait};
use super::{CallContext, Gateway, GatewayError, GatewayReply, LedgerOutcome, Route, Ticket};

/// A stream the provider opened, with the permit it holds and when its attempt began.
struct Opened {
    inner: CompletionStream,
    permit: OwnedSemaphorePermit,
    started: Instant,
    attempt: i32,
}

impl Gateway {
    /// A streamed completion. Admission, the budget and the breaker work as for
    /// [`Gateway::complete`]; the concurrency permit is held until the stream ends; opening
    /// the stream is retried with backoff (a stream that broke after text arrived is not,
    /// since the caller already showed that text). The ledger row is written when the
    /// stream ends — completed, failed, or dropped by the caller (`cancelled`).
    pub async fn stream(
        &self,
        ctx: &CallContext,
        route: Route,
        mut req: CompletionRequest,
    ) -> Result<GatewayReply<CompletionStream>, GatewayError> {
        let ticket = self.admit(ctx, route, &req, None).await?;
        if req.model.is_empty() {
            req.model = ticket.route.model.clone();
        }
        let opened = self.open_stream(&ticket, ctx, &req).await?;
        let (tx, rx) = mpsc::channel::<Result<StreamEvent, LlmError>>(64);
        let route = ticket.route.clone();
        let fallback = ticket.fallback;
        tokio::spawn(self.clone().relay(ticket, ctx.clone(), opened, tx));
        let stream = futures::stream::unfold(rx, |mut rx| async move {
            rx.recv().await.map(|item| (item, rx))
        })
        .boxed();
        Ok(GatewayReply {
            value: stream,
            route,
            fallback,
        })
    }

    /// Opens the provider's stream under a concurrency permit, each failed attempt in the
    /// ledger and retried with backoff while the error allows it.
    async fn open_stream(
        &self,
        ticket: &Ticket,
        ctx: &CallContext,
        req: &CompletionRequest,
    ) -> Result<Opened, GatewayError> {
        let config = &self.shared.config;
        let mut retries = ctx.backoff(&config.backoff);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let Ok(permit) = self.permits.clone().acquire_owned().await else {
                self.finish(ticket, ctx, false).await;
                return Err(GatewayError::Closed);
            };
            let started = Instant::now();
            let opened = match tokio::time::timeout(
                config.call_timeout,
                ticket.resolved.client.stream(req.clone()),
            )
            .await
            {
                Ok(r) => r,
                Err(_) => Err(LlmError::Timeout),
            };
            let err = match opened {
                Ok(inner) => {
                    return Ok(Opened {
                        inner,
                        permit,
                        started,
                        attempt,
                    });
                }
                Err(e) => e,
            };
            drop(permit);
            let wait = retry_wait(&err, retries.next(), config);
            let failed = Attempt {
                n: attempt,
                usage: Usage::default(),
                outcome: LedgerOutcome::Error,
                error: Some(&err),
                latency: started.elapsed(),
                backoff: wait,
                cut_off: false,
            };
            record_attempt(&self.shared, ticket, ctx, failed).await;
            match wait {
                Some(wait) => tokio::time::sleep(wait).await,
                None => {
                    self.finish(ticket, ctx, false).await;
                    return Err(err.into());
                }
            }
        }
    }

    /// Forwards the stream's events to the caller until it is done, breaks, or the caller
    /// stops listening; then records how it ended and releases the call.
    async fn relay(
        self,
        ticket: Ticket,
        ctx: CallContext,
        opened: Opened,
        tx: mpsc::Sender<Result<StreamEvent, LlmError>>,
    ) {
        let Opened {
            mut inner,
            permit: _permit,
            started,
            attempt,
        } = opened;
        let mut outcome: (Usage, LedgerOutcome, Option<LlmError>) = (
            Usage::default(),
            LedgerOutcome::Error,
            Some(LlmError::StreamCut),
        );
        while let Some(item) = inner.next().await {
            let done = match &item {
                Ok(StreamEvent::Done { usage, .. }) => {
                    outcome = (*usage, LedgerOutcome::Ok, None);
                    true
                }
                Ok(StreamEvent::Delta(_)) => false,
                Err(e) => {
                    outcome = (Usage::default(), LedgerOutcome::Error, Some(clone_err(e)));
                    true
                }
            };
            if tx.send(item).await.is_err() {
                outcome = (Usage::default(), LedgerOutcome::Cancelled, None);
                break;
            }
            if done {
                break;
            }
        }
        let (usage, kind, err) = outcome;
        let ended = Attempt {
            n: attempt,
            usage,
            outcome: kind,
            error: err.as_ref(),
            latency: started.elapsed(),
            backoff: None,
            cut_off: false,
        };
        record_attempt(&self.shared, &ticket, &ctx, ended).await;
        self.finish(&ticket, &ctx, kind != LedgerOutcome::Error)
            .await;
    }
}
