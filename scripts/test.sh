#!/usr/bin/env bash
# Sets up everything (scripts/setup.sh --test) and runs every test suite:
# format + lints, the supply chain (cargo deny, npm audit), Rust tests (real SQLite, real
# PostgreSQL, a real keyring session), fuzzing, the UI tests, the desktop end-to-end test
# (the real app under Xvfb via WebDriver) and the Linux packages (.deb + AppImage, built
# and checked).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
step() { printf '\n[%s] == %s\n' "$(date -u +%H:%M:%S)" "$*"; }

setup_started=$(date +%s)
scripts/setup.sh --test || { echo "set-up failed" >&2; exit 1; }
setup_seconds=$(($(date +%s) - setup_started))

passed=0
failed=0
failures=()
timings=()
run_started=$(date +%s)
suite() { # suite NAME COMMAND...
  local name=$1; shift
  step "$name"
  local t0 verdict
  t0=$(date +%s)
  if "$@"; then
    passed=$((passed + 1)); verdict=ok
  else
    failed=$((failed + 1)); failures+=("$name"); verdict=FAILED
  fi
  timings+=("$(printf '%6d s  %-6s  %s' "$(($(date +%s) - t0))" "$verdict" "$name")")
}
# A suite that mostly keeps one core busy can run beside suites that mostly wait (the
# desktop end-to-end test waits on the app, WebKit and the WebDriver most of the time):
#   suite_bg NAME COMMAND...   starts it, at low priority, its output kept in a log;
#   suite_wait                 waits for it, prints its output, records verdict and time.
BG_SUITE_PID=""
suite_bg() {
  BG_SUITE_NAME=$1; shift
  step "$BG_SUITE_NAME (in the background; its output follows when it ends)"
  BG_SUITE_LOG=$(mktemp /tmp/cubicle-suite.XXXXXX)
  BG_SUITE_T0=$(date +%s)
  (renice -n 19 -p "$BASHPID" >/dev/null; "$@") >"$BG_SUITE_LOG" 2>&1 &
  BG_SUITE_PID=$!
}
suite_wait() {
  [[ -n "$BG_SUITE_PID" ]] || return 0
  step "$BG_SUITE_NAME (waiting for it)"
  local verdict
  if wait "$BG_SUITE_PID"; then
    passed=$((passed + 1)); verdict=ok
  else
    failed=$((failed + 1)); failures+=("$BG_SUITE_NAME"); verdict=FAILED
  fi
  BG_SUITE_PID=""
  cat "$BG_SUITE_LOG"
  rm -f "$BG_SUITE_LOG"
  timings+=("$(printf '%6d s  %-6s  %s (in the background)' "$(($(date +%s) - BG_SUITE_T0))" "$verdict" "$BG_SUITE_NAME")")
}

# ---- a throwaway PostgreSQL cluster on loopback, owned by this run ----
PG_DIR=""
start_postgres() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [[ -x "$bin/initdb" ]] || { echo "PostgreSQL server binaries not found" >&2; return 1; }
  PG_DIR=$(mktemp -d /tmp/cubicle-pg.XXXXXX)
  local port=$((20000 + RANDOM % 20000))
  local as=()
  if [[ $(id -u) -eq 0 ]]; then chown postgres "$PG_DIR"; as=(runuser -u postgres --); fi
  "${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null || return 1
  "${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1" start >/dev/null || return 1
  "${as[@]}" psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE cubicle_test" || return 1
  export CUBICLE_TEST_PG_URL="postgres://postgres@127.0.0.1:$port/cubicle_test"
  PG_BIN=$bin
  echo "PostgreSQL ready on 127.0.0.1:$port"
}
stop_postgres() {
  [[ -n "$PG_DIR" ]] || return 0
  local as=()
  [[ $(id -u) -eq 0 ]] && as=(runuser -u postgres --)
  "${as[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1
  rm -rf "$PG_DIR"
}
trap 'stop_postgres; [[ -z "$BG_SUITE_PID" ]] || kill "$BG_SUITE_PID" 2>/dev/null' EXIT

suite "rustfmt" cargo fmt --all -- --check
suite "clippy" cargo clippy --workspace --all-targets --features custom-protocol -- -D warnings

# The supply chain: licences, sources and bans of every Rust crate (deny.toml); known
# vulnerabilities in the Rust crates (RustSec) and in the UI's runtime npm packages, each
# against a reviewed ignore list. Without an advisory database the advisories steps say
# loudly that nothing was checked (docs/security.md#supply-chain).
suite "supply chain: cargo deny (licences, sources, bans)" scripts/supply-chain.sh policy
suite "supply chain: cargo deny (RustSec advisories)" scripts/supply-chain.sh advisories
suite "supply chain: npm audit --omit=dev (ui/ and the root package)" bash -c \
  "node --test scripts/npm-audit.test.mjs && node scripts/npm-audit.mjs ui ."

# The built-in models' installer, offline on wheels made by the test (a missing or corrupt
# part installs nothing).
suite "install-model.sh: a missing or corrupt part installs nothing" scripts/install-model.test.sh

step "start PostgreSQL"
start_postgres || { echo "could not start PostgreSQL" >&2; exit 1; }

# Rust tests run inside a private D-Bus session with an unlocked gnome-keyring, so
# keychain code talks to a real Secret Service and never to the user's own keyring.
rust_tests() {
  # The session below gets its own XDG_DATA_HOME; keep pointing at the installed model.
  export CUBICLE_BUILTIN_MODEL="${CUBICLE_BUILTIN_MODEL:-${XDG_DATA_HOME:-$HOME/.local/share}/app.cubicle.desktop/models/SmolLM2-135M-Instruct.Q4_1.gguf}"
  dbus-run-session -- bash -c '
    export XDG_DATA_HOME=$(mktemp -d)
    mkdir -p "$XDG_DATA_HOME/keyrings"
    echo -n cubicle-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    export CUBICLE_TEST_KEYRING=1
    cargo test --workspace --exclude cubicle-bare-window --no-fail-fast --features custom-protocol'
}
suite "Rust tests" rust_tests
# The offline company on the real built-in model: seed 000's story, one seed, 30 simulated
# minutes (cubicle-cli bench builtin; its --check holds the goals of SPEC §13).
offline_story() {
  # Each language on its own default built-in model, as a new user gets it (the Rust tests
  # above point CUBICLE_BUILTIN_MODEL at the lighter SmolLM2; not here).
  env -u CUBICLE_BUILTIN_MODEL target/debug/cubicle-cli bench builtin --seeds 1 --minutes 30 --check &&
    env -u CUBICLE_BUILTIN_MODEL target/debug/cubicle-cli bench builtin --seeds 1 --minutes 30 \
      --language zh-CN --check
}
suite "offline story on the default built-in model (bench builtin, 1 seed, en and zh-CN)" offline_story
# Every other bench at a small size, each held to its goals (crates/cli/src/bench/goals.rs).
bench_checks() {
  local cli=target/debug/cubicle-cli
  $cli bench gateway --calls 100 --check &&
    $cli bench chat --departments 2 --dept-size 4 --busy-minutes 10 --quiet-hours 0.5 --check &&
    $cli bench story --check &&
    $cli bench sandbox --iterations 20 --check &&
    $cli bench soak --days 1 --call-timeout-ms 800 --backoff-ms 10 --check
}
suite "benches with --check at a small size (gateway, chat, story, sandbox, soak)" bench_checks
# Bounded fuzzing of the parsers that read model and boss text (scripts/fuzz.sh; set-up
# built the targets): one core for ~2.5 min, beside the end-to-end test, which mostly
# waits, and the UI suites. Each target still runs its full time (libFuzzer's
# -max_total_time is wall time).
suite_bg "fuzz (cargo fuzz, ${CUBICLE_FUZZ_SECONDS:-35} s per target)" scripts/fuzz.sh "${CUBICLE_FUZZ_SECONDS:-35}"
# The desktop tests get their own D-Bus session with an unlocked gnome-keyring too, so
# keys set in the app land in a real (throwaway) keychain.
e2e_tests() {
  # The notification daemon the suite presses buttons on (cubicle-test-notifications) is a
  # binary of the tests crate: the Rust test build above makes it, so this is a no-op then.
  cargo test --workspace --exclude cubicle-bare-window --features custom-protocol --no-run --quiet || return 1
  dbus-run-session -- bash -c '
    export XDG_DATA_HOME=$(mktemp -d)
    mkdir -p "$XDG_DATA_HOME/keyrings"
    echo -n cubicle-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    xvfb-run -a -s "-screen 0 1280x800x24" node --test --test-concurrency=1 tests/e2e/'
}
suite "desktop end-to-end (tauri-driver + WebKitWebDriver under Xvfb)" e2e_tests
suite "UI typecheck" bash -c "cd ui && npx tsc -b"
suite "UI tests (Vitest)" bash -c "cd ui && npm test --silent"
suite_wait
# The Linux packages: `tauri build` makes a .deb and an AppImage from the debug build, then
# each is checked (contents, libraries, the packaged binary runs).
suite "packages (.deb + AppImage)" scripts/package.sh

step "summary"
printf '%s\n' "${timings[@]}"
echo "all suites: $(($(date +%s) - run_started)) s (set-up before them: ${setup_seconds} s)"
((failed)) && printf 'failed suite: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
((failed == 0))
