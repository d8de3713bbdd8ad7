//! The race: the same company, the same boss and the same scripted model, run once by
//! our engine and once by each baseline — a configuration of the same engine that
//! builds the naive whole-history prompt, wakes everyone every 10 s, or lets every
//! message through without the gates. What each sent is counted at the server.

use std::time::{Duration, Instant};

use anyhow::Result;
use chrono::TimeDelta;
use cubicle_core::engine::{EngineConfig, EngineStats, PromptMode, ThoughtTiming, WakeMode};

use super::company::{busy_phase, project_chats, quiet_phase, staff_departments};
use super::script::Wire;
use super::{BUSY_MODEL, BUSY_PRESET, Sizes, start, world};

/// The fixed-interval poller's interval.
pub(super) const POLL_EVERY_SECS: i64 = 10;

/// Who runs the company.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Contender {
    /// Our engine as the app runs it.
    Ours,
    /// The same engine building the whole-history prompt: every message of the chat,
    /// every memory, every relationship, no budget.
    NaivePrompt,
    /// The same engine woken by a fixed 10-s poll of everyone instead of by messages;
    /// every poll is a thought.
    Polling,
    /// The same event-driven engine without the cooldown, anti-spam and saturation gates.
    NoGates,
}

impl Contender {
    pub(super) const ALL: [Contender; 4] = [
        Contender::Ours,
        Contender::NaivePrompt,
        Contender::Polling,
        Contender::NoGates,
    ];

    pub(super) fn key(self) -> &'static str {
        match self {
            Contender::Ours => "ours",
            Contender::NaivePrompt => "naive_prompt",
            Contender::Polling => "polling_10s",
            Contender::NoGates => "no_gates",
        }
    }

    pub(super) fn describe(self) -> &'static str {
        match self {
            Contender::Ours => "our engine: budgeted prompt, event-driven wake-ups, gates",
            Contender::NaivePrompt => {
                "whole-history prompt (every message, memory and relationship; no budget)"
            }
            Contender::Polling => "everyone woken every 10 s, a thought at every poll",
            Contender::NoGates => "event-driven, without cooldown, anti-spam and saturation gates",
        }
    }

    /// The engine switch that makes this contender.
    pub(super) fn configure(self, c: &mut EngineConfig) {
        match self {
            Contender::Ours => {}
            Contender::NaivePrompt => c.prompt = PromptMode::WholeHistory,
            Contender::Polling => {
                c.wake = WakeMode::FixedInterval {
                    every: TimeDelta::seconds(POLL_EVERY_SECS),
                }
            }
            Contender::NoGates => c.gates = false,
        }
    }
}

/// What one contender did with the company.
pub(super) struct Run {
    pub(super) contender: Contender,
    pub(super) employees: usize,
    pub(super) chats: usize,
    pub(super) busy: EngineStats,
    pub(super) busy_wall: Duration,
    pub(super) quiet: EngineStats,
    /// What arrived at the server over both phases.
    pub(super) wire: Wire,
    pub(super) timings: Vec<ThoughtTiming>,
    /// Wall-clock time of both phases, and how much of it was spent on the wire.
    pub(super) wall: Duration,
    pub(super) wire_time: Duration,
}

impl Run {
    pub(super) fn thoughts(&self) -> u64 {
        self.busy.thoughts + self.quiet.thoughts
    }

    pub(super) fn tokens_per_thought(&self) -> f64 {
        self.wire.tokens as f64 / self.thoughts().max(1) as f64
    }
}

/// The company from scratch, run through the busy and the quiet phase by `contender`.
pub(super) async fn run(contender: Contender, sizes: Sizes) -> Result<Run> {
    let w = world(BUSY_PRESET, BUSY_MODEL, false).await?;
    let (people, mut chats) = staff_departments(&w, sizes).await?;
    chats.extend(project_chats(&w, sizes, &people).await?);
    let engine = w.engine(contender);
    engine.start_fixed_polls().await?;
    let busy_end = start() + TimeDelta::minutes(i64::from(sizes.busy_minutes));
    let on_the_wire = w.core.gateway.time_on_the_wire();
    let t = Instant::now();
    let (busy, busy_wall) = busy_phase(&w, &engine, &chats, busy_end).await?;
    let quiet = quiet_phase(&w, &engine, &chats, busy_end, sizes.quiet_hours).await?;
    let wall = t.elapsed();
    Ok(Run {
        contender,
        employees: people.len(),
        chats: chats.len(),
        busy,
        busy_wall,
        quiet,
        wire: w.script.wire(),
        timings: engine.take_timings(),
        wall,
        wire_time: w
            .core
            .gateway
            .time_on_the_wire()
            .saturating_sub(on_the_wire),
    })
}
