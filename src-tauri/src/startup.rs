//! Start-up figures: when the process started and when the UI first painted
//! (`scripts/startup.sh` reads the line this prints).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

static STARTED: OnceLock<Instant> = OnceLock::new();
static PAINTED: AtomicBool = AtomicBool::new(false);

/// Call first thing in `main`: start-up times are measured from here.
pub fn mark_process_start() {
    STARTED.get_or_init(Instant::now);
}

/// The UI painted its first frame: returns the milliseconds since [`mark_process_start`],
/// prints `first paint after N ms` on stdout and logs it. Only the first call counts
/// (StrictMode and reloads may report again): later ones return `None`.
pub fn first_paint() -> Option<u128> {
    if PAINTED.swap(true, Ordering::SeqCst) {
        return None;
    }
    let ms = STARTED.get_or_init(Instant::now).elapsed().as_millis();
    // Wall-clock time too, so a launcher can measure from before the exec.
    let unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    println!("first paint after {ms} ms (unix_ms {unix_ms})");
    tracing::info!(ms, "first paint");
    Some(ms)
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_first_paint_counts_and_it_is_timed_from_the_start() {
        super::mark_process_start();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let first = super::first_paint().expect("the first report counts");
        assert!(first >= 20, "{first} ms");
        assert_eq!(super::first_paint(), None);
    }
}
