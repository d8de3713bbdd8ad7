//! The conversation engine (SPEC §4): message driven, no central turn-taking.
//!
//! One [`Scheduler`] holds every employee's wake-ups — nudges after a message, adaptive
//! polls, task escalations, memory expiry — on the engine's [`Clock`]; there is no timer
//! per employee. A posted message (announced on the bus) nudges the other members after
//! the SPEC's random delays; a woken employee thinks once about everything that arrived
//! meanwhile; what it posts nudges again (the chain reaction). An employee with nothing
//! unread and no pending task is never polled: idling costs nothing.
//!
//! The same engine runs in real time in the app ([`Engine::spawn`]) and on a manual clock
//! for simulated days in tests, the CLI and benchmarks ([`Engine::run_simulated`]).
//!
//! [`Clock`]: crate::clock::Clock

mod answer_first;
mod guided;
pub mod lease;
mod moderated;
mod ops;
mod pending;
pub mod plan;
mod report;
mod resync;
mod review;
mod stop;
mod think;
mod upkeep;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_store::{chat as cq, org as oq};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tokio::sync::{Notify, broadcast};
use tokio_util::sync::CancellationToken;

use crate::app::AppCore;
use crate::chat::SenderKind;
use crate::chat::polling::{self, NudgeConfig};
use crate::clock::{Clock, ManualClock};
use crate::events::DomainEvent;
use crate::mailbox::{MailKind, NewMail};
use crate::scheduler::{Scheduler, WakeReason, WakeUp};
use crate::work::urgency;

pub use resync::RESYNC_EVERY;
pub use think::ThinkOutcome;

/// What a wake-up is about beyond the chat's new messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Focus {
    /// New messages (or pending tasks) in the chat.
    Messages,
    /// A pending task crossed an urgency threshold: think even with nothing new.
    Escalation,
    /// A task was resolved: report the result in the owner's own voice (onResolve).
    Report { task_id: i32 },
    /// A tool it called has run: look at the result and go on.
    ToolResult,
}

/// How the engine runs; the defaults are SPEC §4's.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub nudge: NudgeConfig,
    /// Seeds the delays, jitter and perspective seeds so a simulated day repeats exactly.
    pub seed: Option<u64>,
    /// Thoughts in flight at once in real time (one per employee at most).
    pub max_parallel: usize,
    /// Memories recalled into one prompt.
    pub memory_recall: usize,
    /// Keep (whole thought, model call) durations for `cubicle-cli bench chat`.
    pub record_timings: bool,
    /// Thoughts that speak under one boss instruction before it is stopped and handed
    /// to the boss (SPEC §10 loop protection).
    pub max_trace_steps: u32,
    /// What a thought's prompt holds. The app always builds [`PromptMode::Budgeted`];
    /// the other modes exist so `cubicle-cli bench chat` can race ours against them.
    pub prompt: PromptMode,
    /// What wakes an employee.
    pub wake: WakeMode,
    /// Whether the SPEC §4 layer-3 gates (cooldown, anti-spam, saturation) hold
    /// messages back, before the model call and after it.
    pub gates: bool,
}

/// What a thought's prompt holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PromptMode {
    /// Ours: the newest messages, ranked memories and impressions of those present,
    /// under [`crate::mind::thought::PROMPT_TOKEN_BUDGET`].
    #[default]
    Budgeted,
    /// The naive prompt: the chat's whole history, every memory the employee can see
    /// and every relationship it has, with no budget.
    WholeHistory,
}

/// What wakes an employee.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WakeMode {
    /// Ours (SPEC §4): messages nudge the members, polls adapt to the mood, and nobody
    /// with nothing unread and no pending task is woken at all.
    #[default]
    EventDriven,
    /// A fixed-interval poller: every employee wakes every `every` and thinks in its
    /// chat with something new, else its first chat, whether or not anything changed;
    /// messages nudge nobody.
    FixedInterval { every: TimeDelta },
}

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            nudge: NudgeConfig::default(),
            seed: None,
            max_parallel: 3,
            memory_recall: 6,
            record_timings: false,
            max_trace_steps: crate::guard::MAX_TRACE_STEPS,
            prompt: PromptMode::Budgeted,
            wake: WakeMode::EventDriven,
            gates: true,
        }
    }
}

/// How long to wait before polling again after `n` failed thoughts in a row.
pub fn failure_backoff(n: u32) -> TimeDelta {
    let secs = (polling::POLL_MAX_SECS as i64)
        .saturating_mul(1_i64 << n.saturating_sub(1).min(10))
        .min(FAILURE_BACKOFF_MAX_SECS);
    TimeDelta::seconds(secs)
}

/// The longest pause between tries of a broken model.
const FAILURE_BACKOFF_MAX_SECS: i64 = 3600;

/// What the engine did so far: for `cubicle-cli run`, the benchmark and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    pub wakeups: u64,
    /// Wake-ups that ended without a model call (nothing new, nothing pending).
    pub idle_wakeups: u64,
    pub thoughts: u64,
    pub model_calls: u64,
    pub messages_posted: u64,
    pub silenced: u64,
    pub malformed: u64,
    /// Wake-ups put off, without a model call, until the chat's gates let the employee
    /// speak again.
    pub deferred: u64,
    /// Thoughts interrupted by a stop and written to the end at start (SPEC §10).
    pub replayed: u64,
    /// Approved actions found at start with no record of having run (not run again).
    pub interrupted: u64,
}

#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

struct Inner {
    core: AppCore,
    config: EngineConfig,
    sched: Mutex<Scheduler>,
    rng: Mutex<StdRng>,
    busy: Mutex<HashSet<i32>>,
    events: tokio::sync::Mutex<broadcast::Receiver<DomainEvent>>,
    wake: Notify,
    stats: Mutex<EngineStats>,
    timings: Mutex<Vec<ThoughtTiming>>,
    /// Consecutive failed thoughts per employee: their polls back off.
    failures: Mutex<std::collections::HashMap<i32, u32>>,
    /// Pending tasks the engine already knows about (their owners were told once).
    known_tasks: Mutex<HashSet<i32>>,
    /// Messages already reacted to, so a resync only nudges for other processes' posts.
    seen: Mutex<resync::Seen>,
    /// Whether what a stop interrupted was taken up (once, at the first bootstrap).
    recovered: std::sync::atomic::AtomicBool,
    /// Whether approvals decided elsewhere are being run (one runner at a time).
    running_queued: std::sync::atomic::AtomicBool,
    /// Colleagues waiting for the answer of the one the boss spoke to.
    holds: Mutex<Vec<answer_first::Hold>>,
}

/// How long one thought took, how much of it was the model call through the gateway,
/// and how much of that was spent waiting on the provider's HTTP answer. Everything but
/// `wire` is our own work: queries, prompt, admission, budget, ledger, parsing, ops,
/// gates, posts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThoughtTiming {
    pub total: std::time::Duration,
    pub model: std::time::Duration,
    /// Read from the gateway's wire clock around the thought: exact when thoughts run
    /// one at a time (`run_simulated`).
    pub wire: std::time::Duration,
    pub prompt_tokens: usize,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").finish_non_exhaustive()
    }
}

/// A poisoned lock only means another thought panicked mid-update of plain data; the
/// queue itself stays consistent, so keep going rather than stop the company.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Engine {
    /// An engine over `core`; it hears every event published from now on.
    pub fn new(core: &AppCore, config: EngineConfig) -> Self {
        let rng = match config.seed {
            Some(s) => StdRng::seed_from_u64(s),
            None => StdRng::from_os_rng(),
        };
        let engine = Self {
            inner: Arc::new(Inner {
                events: tokio::sync::Mutex::new(core.bus.subscribe()),
                core: core.clone(),
                config,
                sched: Mutex::new(Scheduler::new()),
                rng: Mutex::new(rng),
                busy: Mutex::new(HashSet::new()),
                wake: Notify::new(),
                stats: Mutex::new(EngineStats::default()),
                timings: Mutex::new(Vec::new()),
                failures: Mutex::new(std::collections::HashMap::new()),
                known_tasks: Mutex::new(HashSet::new()),
                seen: Mutex::new(resync::Seen::default()),
                recovered: std::sync::atomic::AtomicBool::new(false),
                running_queued: std::sync::atomic::AtomicBool::new(false),
                holds: Mutex::new(Vec::new()),
            }),
        };
        // The evening digest is the company's own wake-up, every day.
        let at = crate::digest::next_digest_at(engine.now());
        engine.schedule(at, crate::scheduler::COMPANY, WakeReason::Digest);
        engine
    }

    pub fn stats(&self) -> EngineStats {
        *lock(&self.inner.stats)
    }

    /// The timings recorded so far (with `record_timings`), emptying the list.
    pub fn take_timings(&self) -> Vec<ThoughtTiming> {
        std::mem::take(&mut *lock(&self.inner.timings))
    }

    /// Pending wake-ups (for tests and `cubicle-cli run`).
    pub fn pending(&self) -> usize {
        lock(&self.inner.sched).len()
    }

    pub fn pending_for(&self, employee_id: i32) -> Vec<WakeUp> {
        lock(&self.inner.sched).pending_for(employee_id)
    }

    fn core(&self) -> &AppCore {
        &self.inner.core
    }

    fn now(&self) -> DateTime<Utc> {
        self.inner.core.clock.now()
    }

    fn schedule(&self, at: DateTime<Utc>, employee_id: i32, reason: WakeReason) {
        lock(&self.inner.sched).schedule(at, employee_id, reason);
        self.inner.wake.notify_one();
    }

    /// Picks up where a restart left off: whoever has unread messages or pending tasks
    /// is polled soon, task escalations and memory expiry are scheduled again. Nothing
    /// lives only in the queue that this cannot rebuild from the database. The first
    /// time, before anything else, it finishes what a stop interrupted
    /// ([`Engine::recover`]).
    pub async fn bootstrap(&self) -> Result<(), cubicle_store::DbErr> {
        if !self
            .inner
            .recovered
            .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            self.recover().await?;
        }
        let db = &self.core().db;
        // From here on, messages other processes post are the resync's to notice.
        self.mark_seen_up_to_now().await?;
        let Some(company) = oq::find_company(db).await? else {
            return Ok(());
        };
        self.schedule_approval_expiry().await?;
        self.take_up_requirements().await?;
        let now = self.now();
        self.start_fixed_polls().await?;
        for e in oq::list_employees(db, company.id, false).await? {
            let unread = !cq::chats_with_unread_for(db, e.id).await?.is_empty();
            let tasks = self.core().work.pending_of(e.id).await?;
            if unread || !tasks.is_empty() {
                let delay = {
                    let mut rng = lock(&self.inner.rng);
                    self.inner.config.nudge.absorb_wait(&mut *rng)
                };
                self.schedule(now + delay, e.id, WakeReason::Poll);
            }
            for t in tasks {
                lock(&self.inner.known_tasks).insert(t.id);
                if let Some(at) = urgency::next_escalation_of(&t, now) {
                    self.schedule(at, e.id, WakeReason::TaskEscalation { task_id: t.id });
                }
            }
            if let Some(at) = self.core().minds.expire(e.id).await? {
                self.schedule(at, e.id, WakeReason::MemoryExpiry);
            }
        }
        self.take_up_meetings().await?;
        self.take_up_owed_reports(None).await
    }

    /// Requirements opened while no engine ran and nobody could own them then (or
    /// before requirements started themselves) start now: an owner and a planning task,
    /// picked up below like any pending task. Those that already have their planning
    /// task need nothing more than that.
    async fn take_up_requirements(&self) -> Result<(), cubicle_store::DbErr> {
        let work = &self.core().work;
        for id in work.unstarted_requirements().await? {
            work.start_requirement(id).await?;
        }
        Ok(())
    }

    /// Reacts to one committed change.
    pub async fn handle_event(&self, event: &DomainEvent) {
        let result = match event {
            DomainEvent::ChatMessagePosted {
                chat_id,
                message_id,
            } => {
                self.heard(*message_id);
                self.nudge_members(*chat_id, *message_id).await
            }
            DomainEvent::EmployeeFired { employee_id } => {
                lock(&self.inner.sched).cancel_employee(*employee_id);
                Ok(())
            }
            // A task from the boss or the secretary: its owner gets to it soon, and its
            // escalations are scheduled.
            DomainEvent::WorkChanged => self.schedule_tasks().await,
            // Work stopped: the boss hears of it once a day, in the mailbox.
            // A new approval may run out of time before the ones already waiting.
            DomainEvent::ApprovalRequested { .. } => self.schedule_approval_expiry().await,
            DomainEvent::BudgetExceeded {
                spent_usd,
                budget_usd,
            } => self.budget_stop(*spent_usd, *budget_usd).await,
            _ => Ok(()),
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "engine could not react to an event");
        }
    }

    async fn nudge_members(
        &self,
        chat_id: i32,
        message_id: i32,
    ) -> Result<(), cubicle_store::DbErr> {
        // A fixed-interval poller hears of a message at its next poll.
        if matches!(self.inner.config.wake, WakeMode::FixedInterval { .. }) {
            return Ok(());
        }
        // A moderated meeting nudges only the speaker its moderator picks (SPEC §9).
        if self.moderate(chat_id, message_id).await? {
            return Ok(());
        }
        let db = &self.core().db;
        let Some(m) = cq::find_message(db, message_id).await? else {
            return Ok(());
        };
        let from_boss = m.sender_kind == SenderKind::Boss;
        let now = self.now();
        let members: Vec<i32> = cq::members(db, chat_id)
            .await?
            .into_iter()
            .map(|x| x.employee_id)
            .filter(|id| Some(*id) != m.sender_employee_id)
            .collect();
        // The boss spoke to someone: they answer first, the others after them.
        let named = self.addressed_members(&m, &members).await?;
        if !named.is_empty() {
            let others: Vec<i32> = members
                .into_iter()
                .filter(|id| !named.contains(id))
                .collect();
            self.nudge_named_first(chat_id, message_id, &named, &others);
            return Ok(());
        }
        for member in members {
            // The nudge arrives after the SPEC's delay; the woken employee then waits a
            // little to absorb what follows. Nudges coalesce to the earliest, so one
            // thought answers everything that arrived before it.
            let delay = {
                let mut rng = lock(&self.inner.rng);
                self.inner.config.nudge.nudge_delay(from_boss, &mut *rng)
                    + self.inner.config.nudge.absorb_wait(&mut *rng)
            };
            self.schedule(now + delay, member, WakeReason::Nudge { chat_id });
        }
        Ok(())
    }

    async fn budget_stop(&self, spent: f64, budget: f64) -> Result<(), cubicle_store::DbErr> {
        let mailbox = &self.core().mailbox;
        if mailbox.filed_today(MailKind::Budget, None).await? {
            return Ok(());
        }
        let lang = mailbox.language().await?;
        let mail = mailbox
            .file(NewMail {
                kind: MailKind::Budget,
                employee_id: None,
                chat_id: None,
                task_id: None,
                title: lang.pick("Today's budget is spent", "今日预算已用完"),
                body: lang.pick(
                    format!(
                        "${spent:.2} of ${budget:.2} is spent: model calls are refused and work has stopped until tomorrow, or until you raise the daily budget in Settings."
                    ),
                    format!("已花费 ${spent:.2}（预算 ${budget:.2}）：模型调用被拒绝，工作已暂停，直到明天或你在设置里提高每日预算。"),
                ),
                trace_id: None,
            })
            .await?;
        // The boss hears of it on the desktop too, once a day like the mail.
        self.core()
            .bus
            .publish(DomainEvent::FixNeeded { mail_id: mail.id });
        Ok(())
    }

    async fn schedule_tasks(&self) -> Result<(), cubicle_store::DbErr> {
        let now = self.now();
        for t in cubicle_store::work::pending_tasks(&self.core().db).await? {
            let reason = WakeReason::TaskEscalation { task_id: t.id };
            if !lock(&self.inner.known_tasks).insert(t.id) {
                continue;
            }
            // New to the engine: the owner hears of it at the pace of a boss message.
            let delay = {
                let mut rng = lock(&self.inner.rng);
                self.inner.config.nudge.nudge_delay(true, &mut *rng)
            };
            self.schedule(now + delay, t.owner_id, WakeReason::Poll);
            if let Some(at) = urgency::next_escalation_of(&t, now) {
                self.schedule(at, t.owner_id, reason);
            }
        }
        Ok(())
    }

    /// Handles every event published since the last call.
    pub async fn drain_events(&self) {
        loop {
            let next = self.inner.events.lock().await.try_recv();
            match next {
                Ok(event) => self.handle_event(&event).await,
                Err(broadcast::error::TryRecvError::Lagged(n)) => {
                    tracing::warn!(missed = n, "engine fell behind the event bus; resyncing");
                    if let Err(e) = self.bootstrap().await {
                        tracing::warn!(error = %e, "engine resync failed");
                    }
                }
                Err(_) => break,
            }
        }
    }

    /// Runs one due wake-up, if any is due at `now`.
    pub async fn step(&self, now: DateTime<Utc>) -> Option<WakeUp> {
        let w = lock(&self.inner.sched).pop_due(now)?;
        self.process(&w).await;
        Some(w)
    }

    /// Moves a simulated calendar on to the latest moment the company's record reaches,
    /// if it is behind: an earlier simulated run may have written ahead of the wall
    /// clock, and what this run writes must come after it (chats stay in order, owed
    /// reports fall due in turn). Call it before [`Engine::bootstrap`].
    pub async fn resume_calendar(&self, clock: &ManualClock) -> Result<(), cubicle_store::DbErr> {
        if let Some(latest) = cubicle_store::trace::latest_moment(&self.core().db).await?
            && latest > clock.now()
        {
            clock.set(latest);
        }
        Ok(())
    }

    /// A simulated stretch of time on a manual clock: jumps from wake-up to wake-up,
    /// handling each in order, until `until`. A simulated day runs in seconds.
    pub async fn run_simulated(&self, clock: &ManualClock, until: DateTime<Utc>) {
        loop {
            self.drain_events().await;
            let next = lock(&self.inner.sched).next_at();
            match next {
                Some(at) if at <= until => {
                    if at > clock.now() {
                        clock.set(at);
                    }
                    self.step(clock.now()).await;
                }
                _ => break,
            }
        }
        if until > clock.now() {
            clock.set(until);
        }
    }

    /// Runs the engine in real time until `cancel` fires: events are handled as they
    /// come, wake-ups when they fall due, up to `max_parallel` thoughts at once and never
    /// two for the same employee.
    pub fn spawn(&self, cancel: CancellationToken) -> tokio::task::JoinHandle<()> {
        let engine = self.clone();
        tokio::spawn(async move { engine.run(cancel).await })
    }

    /// The real-time loop behind [`Engine::spawn`], for callers with their own runtime
    /// handle (the desktop app).
    pub async fn run(&self, cancel: CancellationToken) {
        let engine = self;
        {
            if let Err(e) = engine.bootstrap().await {
                tracing::warn!(error = %e, "engine bootstrap failed");
            }
            let listener = {
                let engine = engine.clone();
                let cancel = cancel.clone();
                tokio::spawn(async move { engine.listen(cancel).await })
            };
            let permits = Arc::new(tokio::sync::Semaphore::new(
                engine.inner.config.max_parallel.max(1),
            ));
            let tasks = tokio_util::task::TaskTracker::new();
            let mut resynced = std::time::Instant::now();
            // What desktops attached to a server approved while no engine ran.
            engine.spawn_queued_approvals(&tasks);
            loop {
                // Desktops on a shared server and `cubicle-cli post` write without our bus.
                if resynced.elapsed() >= RESYNC_EVERY {
                    resynced = std::time::Instant::now();
                    if let Err(e) = engine.resync().await {
                        tracing::warn!(error = %e, "engine resync failed");
                    }
                    engine.spawn_queued_approvals(&tasks);
                }
                let now = engine.now();
                let due = lock(&engine.inner.sched).pop_due(now);
                if let Some(w) = due {
                    if !lock(&engine.inner.busy).insert(w.employee_id) {
                        // Already thinking: try again shortly rather than think twice at once.
                        engine.schedule(now + TimeDelta::seconds(1), w.employee_id, w.reason);
                        continue;
                    }
                    let Ok(permit) = permits.clone().acquire_owned().await else {
                        break;
                    };
                    let engine = engine.clone();
                    tasks.spawn(async move {
                        engine.process(&w).await;
                        lock(&engine.inner.busy).remove(&w.employee_id);
                        drop(permit);
                    });
                    continue;
                }
                let next = lock(&engine.inner.sched).next_at();
                let sleep = next
                    .map(|at| (at - now).to_std().unwrap_or_default())
                    .unwrap_or(RESYNC_EVERY)
                    .min(RESYNC_EVERY);
                tokio::select! {
                    () = cancel.cancelled() => break,
                    () = engine.inner.wake.notified() => {}
                    () = tokio::time::sleep(sleep) => {}
                }
            }
            tasks.close();
            tasks.wait().await;
            listener.abort();
        }
    }

    async fn listen(&self, cancel: CancellationToken) {
        loop {
            let next = tokio::select! {
                () = cancel.cancelled() => return,
                r = async { self.inner.events.lock().await.recv().await } => r,
            };
            match next {
                Ok(event) => self.handle_event(&event).await,
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(missed = n, "engine fell behind the event bus; resyncing");
                    if let Err(e) = self.bootstrap().await {
                        tracing::warn!(error = %e, "engine resync failed");
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }

    async fn process(&self, w: &WakeUp) {
        lock(&self.inner.stats).wakeups += 1;
        let result = match w.reason {
            WakeReason::Nudge { chat_id } => self.think_in_chat(w.employee_id, chat_id).await,
            WakeReason::Poll => self.poll(w.employee_id).await,
            WakeReason::TaskEscalation { task_id } => self.escalate(w.employee_id, task_id).await,
            WakeReason::MemoryExpiry => self.expire(w.employee_id).await,
            WakeReason::Report { task_id } => self.report(w.employee_id, task_id).await,
            WakeReason::Digest => self.digest().await,
            WakeReason::ToolResult { chat_id } => {
                self.think(w.employee_id, Some(chat_id), Focus::ToolResult)
                    .await
            }
            WakeReason::ApprovalExpiry => self.expire_approvals().await,
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, employee = w.employee_id, reason = ?w.reason, "wake-up failed");
        }
    }

    /// A poll: an owed report first (one a failed thought or the day's budget held
    /// back), then a look at what is new where the employee may speak.
    async fn poll(&self, employee_id: i32) -> Result<(), cubicle_store::DbErr> {
        self.take_up_owed_reports(Some(employee_id)).await?;
        match self.poll_target(employee_id).await? {
            moderated::PollTarget::Default => self.think(employee_id, None, Focus::Messages).await,
            moderated::PollTarget::Chat(id) => {
                self.think(employee_id, Some(id), Focus::Messages).await
            }
            moderated::PollTarget::Nothing => {
                self.poll_at_fixed_interval(employee_id);
                Ok(())
            }
        }
    }

    /// Keeps how long a thought took, for `cubicle-cli bench chat`.
    fn record_timing(
        &self,
        started: std::time::Instant,
        wire_before: std::time::Duration,
        outcome: &ThinkOutcome,
    ) {
        if self.inner.config.record_timings
            && let ThinkOutcome::Thought {
                model_time,
                prompt_tokens,
                ..
            }
            | ThinkOutcome::Failed {
                model_time,
                prompt_tokens,
                ..
            } = outcome
        {
            lock(&self.inner.timings).push(ThoughtTiming {
                total: started.elapsed(),
                model: *model_time,
                wire: self
                    .core()
                    .gateway
                    .time_on_the_wire()
                    .saturating_sub(wire_before),
                prompt_tokens: *prompt_tokens,
            });
        }
    }

    /// A fixed-interval poller wakes everyone again after its interval, whatever the
    /// wake-up came to; true when it did (the engine's own next poll is then not due).
    fn poll_at_fixed_interval(&self, employee_id: i32) -> bool {
        let WakeMode::FixedInterval { every } = self.inner.config.wake else {
            return false;
        };
        self.schedule(self.now() + every, employee_id, WakeReason::Poll);
        true
    }

    /// A fixed-interval poller's first round: everyone, spread over one interval (part
    /// of [`Engine::bootstrap`]; nothing for the event-driven engine).
    pub async fn start_fixed_polls(&self) -> Result<(), cubicle_store::DbErr> {
        let WakeMode::FixedInterval { every } = self.inner.config.wake else {
            return Ok(());
        };
        let db = &self.core().db;
        let Some(company) = oq::find_company(db).await? else {
            return Ok(());
        };
        let staff = oq::list_employees(db, company.id, false).await?;
        let now = self.now();
        let n = i32::try_from(staff.len().max(1)).unwrap_or(i32::MAX);
        for (i, e) in staff.iter().enumerate() {
            let k = i32::try_from(i).unwrap_or(0);
            self.schedule(now + every * k / n, e.id, WakeReason::Poll);
        }
        Ok(())
    }

    /// One thought (or none, when there is nothing to think about), then the next poll.
    async fn think(
        &self,
        employee_id: i32,
        chat_id: Option<i32>,
        focus: Focus,
    ) -> Result<(), cubicle_store::DbErr> {
        let started = std::time::Instant::now();
        let wire_before = self.core().gateway.time_on_the_wire();
        let outcome = think::think(self, employee_id, chat_id, focus).await?;
        if outcome != ThinkOutcome::Deferred {
            self.release_holds(employee_id).await?;
        }
        self.record_timing(started, wire_before, &outcome);
        {
            let mut s = lock(&self.inner.stats);
            match &outcome {
                ThinkOutcome::Idle => s.idle_wakeups += 1,
                ThinkOutcome::Deferred => s.deferred += 1,
                ThinkOutcome::Thought {
                    posted,
                    silenced,
                    calls,
                    ..
                } => {
                    s.thoughts += 1;
                    s.model_calls += u64::from(*calls);
                    s.messages_posted += *posted as u64;
                    s.silenced += u64::from(*silenced);
                }
                ThinkOutcome::Failed {
                    malformed, calls, ..
                } => {
                    s.thoughts += 1;
                    s.model_calls += u64::from(*calls);
                    s.malformed += u64::from(*malformed);
                }
            }
        }
        if self.poll_at_fixed_interval(employee_id) {
            return Ok(());
        }
        let delay = match outcome {
            ThinkOutcome::Idle | ThinkOutcome::Deferred => return Ok(()),
            ThinkOutcome::Thought { mood, .. } => {
                lock(&self.inner.failures).remove(&employee_id);
                let mut rng = lock(&self.inner.rng);
                polling::poll_delay(mood, &mut *rng)
            }
            ThinkOutcome::Failed { .. } => {
                // A broken model is not asked again every few seconds: 5 min, 10, 20 …
                // up to an hour between tries, until a thought succeeds.
                let n = {
                    let mut f = lock(&self.inner.failures);
                    let n = f.entry(employee_id).or_default();
                    *n = n.saturating_add(1);
                    *n
                };
                failure_backoff(n)
            }
        };
        self.schedule(self.now() + delay, employee_id, WakeReason::Poll);
        Ok(())
    }

    pub(crate) fn pick_seed(&self) -> &'static crate::mind::seeds::Seed {
        let mut rng = lock(&self.inner.rng);
        crate::mind::seeds::pick(&mut *rng)
    }

    /// A sampling seed for the next model call when the run is seeded (repeatable
    /// simulated days, tests); `None` otherwise.
    pub(crate) fn sampling_seed(&self) -> Option<u64> {
        self.inner.config.seed?;
        let mut rng = lock(&self.inner.rng);
        Some(rand::Rng::random(&mut *rng))
    }

    pub(crate) fn config(&self) -> &EngineConfig {
        &self.inner.config
    }

    /// Schedules a memory-expiry wake-up (after a short-term memory was added).
    /// Wakes the employee for `reason` once the chat's gates reopen at `open`, after the
    /// usual short wait to absorb what arrives.
    pub(crate) fn defer(&self, employee_id: i32, reason: WakeReason, open: DateTime<Utc>) {
        // A fixed-interval poller simply tries again at its next poll.
        if matches!(self.inner.config.wake, WakeMode::FixedInterval { .. }) {
            return;
        }
        let delay = {
            let mut rng = lock(&self.inner.rng);
            self.inner.config.nudge.absorb_wait(&mut *rng)
        };
        self.schedule(open.max(self.now()) + delay, employee_id, reason);
    }

    /// Work stopped by the day's budget (SPEC §10: `max_cost` per day) picks up when the
    /// budget renews: one poll just after local midnight, replacing any earlier one.
    pub(crate) fn resume_tomorrow(&self, employee_id: i32) {
        let delay = {
            let mut rng = lock(&self.inner.rng);
            self.inner.config.nudge.absorb_wait(&mut *rng)
        };
        let midnight = crate::gateway::start_of_day(self.now()) + TimeDelta::days(1);
        self.schedule(midnight + delay, employee_id, WakeReason::Poll);
    }

    pub(crate) fn schedule_expiry(&self, employee_id: i32, at: DateTime<Utc>) {
        self.schedule(at, employee_id, WakeReason::MemoryExpiry);
    }

    pub(crate) fn schedule_escalation(&self, employee_id: i32, task_id: i32, at: DateTime<Utc>) {
        self.schedule(at, employee_id, WakeReason::TaskEscalation { task_id });
    }

    pub(crate) fn cancel_escalation(&self, employee_id: i32, task_id: i32) {
        lock(&self.inner.sched).cancel(employee_id, WakeReason::TaskEscalation { task_id });
        lock(&self.inner.known_tasks).remove(&task_id);
    }

    /// A tool an employee called ran at once: it thinks again soon to see the result.
    pub(crate) fn see_tool_result(&self, employee_id: i32, chat_id: i32) {
        let delay = {
            let mut rng = lock(&self.inner.rng);
            self.inner.config.nudge.absorb_wait(&mut *rng)
        };
        self.schedule(
            self.now() + delay,
            employee_id,
            WakeReason::ToolResult { chat_id },
        );
    }

    /// A task its owner made in a thought: it already knows, no wake-up needed.
    pub(crate) fn know_task(&self, task_id: i32) {
        lock(&self.inner.known_tasks).insert(task_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_thoughts_back_off_from_five_minutes_to_an_hour() {
        assert_eq!(failure_backoff(1), TimeDelta::minutes(5));
        assert_eq!(failure_backoff(2), TimeDelta::minutes(10));
        assert_eq!(failure_backoff(3), TimeDelta::minutes(20));
        assert_eq!(failure_backoff(4), TimeDelta::minutes(40));
        assert_eq!(failure_backoff(5), TimeDelta::hours(1));
        assert_eq!(failure_backoff(60), TimeDelta::hours(1));
    }
}
