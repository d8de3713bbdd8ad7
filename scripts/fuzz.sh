#!/usr/bin/env bash
# Builds the cargo-fuzz targets (fuzz/) and runs each for a bounded time, seeded with
# the committed hostile corpus (tests/corpus/hostile). Prints executions and crashes per
# target and fails when any target crashes, times out or runs out of memory.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     default 60
#   scripts/fuzz.sh --build                  only build the targets (scripts/setup.sh --test
#                                            does, in the background)
# Needs cargo-fuzz (scripts/setup.sh --test installs it). Without a sanitizer cargo-fuzz
# passes rustc no unstable flag, so the stable toolchain builds the targets (the same
# libFuzzer and coverage instrumentation as nightly); CUBICLE_FUZZ_TOOLCHAIN=nightly uses
# another installed toolchain. A crash leaves its input in fuzz/artifacts/TARGET/;
# reproduce it with
#   cargo fuzz run --sanitizer none TARGET fuzz/artifacts/TARGET/crash-…
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_ONLY=0
if [[ "${1:-}" == --build ]]; then BUILD_ONLY=1; shift; fi
SECONDS_PER_TARGET=${1:-60}
TOOLCHAIN=()
[[ -n "${CUBICLE_FUZZ_TOOLCHAIN:-}" ]] && TOOLCHAIN=("+$CUBICLE_FUZZ_TOOLCHAIN")
TARGETS=(intent_rules structured thought_ops thought_ops_structured)
# Its own target dir: the coverage flags would otherwise rebuild the main build's crates.
TARGET_DIR=${CUBICLE_FUZZ_TARGET_DIR:-$ROOT/fuzz/target}
# What the targets check is panics, hangs and memory blow-ups in safe Rust: the
# address sanitizer finds nothing there that Rust does not already rule out, and it
# made the cold build of every dependency the slowest step of the test command (about
# 20 of 45 minutes). libFuzzer still stops on a panic (abort), a timeout and its own RSS
# limit. Sixteen codegen units build in about two thirds of the time of cargo-fuzz's
# default of one, at a small cost in executions per second. `run` takes the same flags,
# or it would rebuild with its defaults.
BUILD_FLAGS=(--sanitizer none --codegen-units 16 --target-dir "$TARGET_DIR")
# Inputs past this are cut (the 1 MB corpus file would otherwise make libFuzzer try
# 1 MB inputs everywhere); big inputs are covered by the regression test instead.
MAX_LEN=${CUBICLE_FUZZ_MAX_LEN:-16384}

command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is missing: scripts/setup.sh --test" >&2; exit 1; }

started=$(date +%s)
echo "building ${#TARGETS[@]} fuzz targets ($(cargo "${TOOLCHAIN[@]}" --version), libFuzzer coverage, no sanitizer) in $TARGET_DIR"
if ! cargo "${TOOLCHAIN[@]}" fuzz build "${BUILD_FLAGS[@]}"; then
  echo "fuzz build failed" >&2
  exit 1
fi
echo "fuzz build: $(($(date +%s) - started)) s"
((BUILD_ONLY)) && exit 0

failed=()
for t in "${TARGETS[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  log=$(mktemp "/tmp/cubicle-fuzz-$t.XXXXXX")
  # What this run writes to fuzz/artifacts is newer than this marker (the log is not:
  # it is written until the end).
  marker=$(mktemp "/tmp/cubicle-fuzz-start.XXXXXX")
  t0=$(date +%s)
  # The first corpus dir collects what the run finds; the hostile corpus only seeds.
  cargo "${TOOLCHAIN[@]}" fuzz run "${BUILD_FLAGS[@]}" "$t" "fuzz/corpus/$t" tests/corpus/hostile -- \
    -max_total_time="$SECONDS_PER_TARGET" -max_len="$MAX_LEN" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [[ -n "$execs" ]] || execs=$(sed -n 's/^#\([0-9]*\)[[:space:]]*DONE.*/\1/p' "$log" | tail -1)
  crashes=$(find "fuzz/artifacts/$t" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) -newer "$marker" | wc -l)
  rm -f "$marker"
  printf '%-24s %10s executions in %3d s, %d crash(es), exit %d\n' \
    "$t" "${execs:-?}" "$(($(date +%s) - t0))" "$crashes" "$rc"
  if ((rc != 0 || crashes > 0)); then
    failed+=("$t")
    grep -E 'panicked|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | head -20 >&2
    echo "full log: $log" >&2
  else
    rm -f "$log"
  fi
done
echo "fuzzing took $(($(date +%s) - started)) s in all"
if ((${#failed[@]})); then
  echo "crashed: ${failed[*]}" >&2
  exit 1
fi
