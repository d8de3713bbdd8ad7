//! Crash safety (SPEC §10) with real processes: `cubicle-cli run` is killed
//! with SIGKILL at random points of a busy scripted company, 20 times, and restarted;
//! after each kill nothing that was committed is gone, nothing is there twice, every
//! interrupted thought is replayed at the next start, and no approved action runs twice.
//!
//! The run uses the virtual clock: it jumps from wake-up to wake-up, so the company is
//! busy from the first second (in real time the SPEC's nudge delays of 1–60 s would
//! leave most 0.2–2 s runs idle) while model calls and webhook posts still take real
//! time — the scripted model answers after 20–250 ms and the webhook after 0.3–1.2 s,
//! so kills land in calls, in tool runs and between a thought's writes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::time::{Duration, Instant};

#[path = "support/busy.rs"]
#[allow(dead_code)] // shared with the hand-over test, which uses more of it
mod busy;
use busy::{Busy, Rng, Tally, boss_approves_one};

const KILLS: usize = 20;

#[test]
fn the_engine_survives_twenty_kills_without_losing_or_doubling_anything() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let busy = Busy::new(url, Some(dir), None);
    let mut rng = Rng(0x5eed_c0de);
    let mut before = busy.snapshot();
    let mut tally = Tally::default();
    let mut decided = 0;
    let started = Instant::now();
    // At least KILLS kills, and more (up to twice as many) until one has fallen between a
    // thought's writes or in a tool run: on a loaded machine the engine's pace shifts
    // against the seeded schedule, and a run whose kills all fell between thoughts proves
    // too little.
    let mut kill = 0;
    while kill < KILLS || (kill < 2 * KILLS && tally.replays + tally.interrupted_seen == 0) {
        let mut child = busy.company.start();
        // Whatever the last kill interrupted is taken up first: its pending thoughts
        // are replayed and its interrupted approvals noted, within moments.
        busy.wait_taken_up(&before, &format!("restart {kill}"), Duration::from_secs(15));
        std::thread::sleep(Duration::from_millis(rng.range(200, 2000)));
        let _ = child.kill(); // SIGKILL (it may have ended on its own)
        child.wait().expect("reaped");
        tally.after_kill(&busy, &before);
        // The boss approves one waiting request now and then, from the terminal.
        if kill % 3 == 1 && boss_approves_one(&busy) {
            decided += 1;
        }
        before = busy.snapshot();
        kill += 1;
    }
    tally.finish(
        &busy,
        &before,
        &format!("crash test ({:.1?})", started.elapsed()),
        (decided, false),
    );
}
