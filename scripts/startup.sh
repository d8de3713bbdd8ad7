#!/usr/bin/env bash
# Start-up figures for the desktop app — a measurement, not a test (nothing is asserted):
#   - first paint, cold (page cache dropped first, when root) and warm, RUNS launches each:
#     the UI reports its first painted frame (ui_first_paint) and the app prints
#     "first paint after N ms" counted from the start of main; the launch-to-paint time
#     seen from outside (including exec and dynamic linking) is shown too;
#   - memory after IDLE seconds of idling, on the first-run screen and with a seeded company
#     (5 people in 3 departments, made with cubicle-cli): VmRSS of the app process, and the
#     total of the app and its WebKit children (WebKitWebProcess, WebKitNetworkProcess);
#     RSS counts shared pages in each process, so the total's PSS is shown beside it.
# Every launch gets a fresh data dir (XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME), so no
# built-in model is installed there: the app starts as a package would on a new machine.
# The floor: a bare Tauri 2 window on the same WebKitGTK (crates/bare-window, built here in
# the same profile as each binary measured) is launched the same way, and Cubicle's warm
# first paint and idle PSS are printed as ratios of it (goals: paint ≤ 1.5×, PSS ≤ 1.3×).
# On a machine without a GPU Cubicle paints on the CPU without compositing
# (src-tauri/src/rendering.rs) while the bare window keeps WebKit's default; the floor drawing
# the way Cubicle does is then measured as well (warm first paint and idle PSS), and Cubicle's
# figures are shown as ratios of both.
# Runs under Xvfb in a private D-Bus session with an unlocked gnome-keyring.
#   scripts/startup.sh [BINARY_OR_APPIMAGE...]
# Default: target/debug/cubicle (built with --features custom-protocol, as set-up does), plus
# target/release/cubicle (scripts/run.sh's build) and the AppImages in
# target/{debug,release}/bundle/appimage/ when they exist (an AppImage runs with
# --appimage-extract-and-run: no FUSE needed, extraction counted).
# Env: CUBICLE_STARTUP_RUNS (default 5), CUBICLE_STARTUP_IDLE (seconds, default 60).
# Takes a few minutes per binary. Needs a prior scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# Where cargo (and so the Tauri CLI) builds: honours CARGO_TARGET_DIR and cargo config.
TARGET=$(cargo metadata --no-deps --format-version 1 | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
export RUNS=${CUBICLE_STARTUP_RUNS:-5}
export IDLE=${CUBICLE_STARTUP_IDLE:-60}
export CLI=$TARGET/debug/cubicle-cli

if [[ "${1:-}" != "--inner" ]]; then
  bins=("$@")
  if ((${#bins[@]} == 0)); then
    bins=("$TARGET/debug/cubicle")
    [[ -x $TARGET/release/cubicle ]] && bins+=("$TARGET/release/cubicle")
    for a in "$TARGET"/{debug,release}/bundle/appimage/*.AppImage; do [[ -x $a ]] && bins+=("$a"); done
  fi
  for b in "${bins[@]}"; do [[ -x $b ]] || { echo "not an executable: $b (run scripts/setup.sh)" >&2; exit 1; }; done
  [[ -x $CLI ]] || { echo "$CLI is missing (run scripts/setup.sh)" >&2; exit 1; }
  # The floor, in each profile measured.
  floors=()
  for b in "${bins[@]}"; do
    profile=debug
    [[ $b == "$TARGET"/release/* ]] && profile=release
    [[ " ${floors[*]} " == *" $TARGET/$profile/cubicle-bare-window "* ]] && continue
    flags=(--features custom-protocol --quiet -p cubicle-bare-window)
    [[ $profile == release ]] && flags+=(--release)
    printf '[%s] building the floor (bare Tauri window, %s)\n' "$(date -u +%H:%M:%S)" "$profile" >&2
    cargo build "${flags[@]}" || { echo "could not build the bare Tauri window" >&2; exit 1; }
    floors+=("$TARGET/$profile/cubicle-bare-window")
  done
  export FLOORS="${floors[*]}"
  # Same recipe as the e2e suite in scripts/test.sh: a throwaway session bus and keyring.
  exec dbus-run-session -- bash -c '
    export XDG_DATA_HOME=$(mktemp -d)
    mkdir -p "$XDG_DATA_HOME/keyrings"
    echo -n cubicle-startup | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" --inner "$@"' "$ROOT/scripts/startup.sh" "${bins[@]}"
fi
shift

WORK=$(mktemp -d /tmp/cubicle-startup.XXXXXX)
PID=""
cleanup() {
  [[ -n $PID ]] && stop_app "$PID"
  rm -rf "$WORK"
}
trap cleanup EXIT
note() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# Every process below PID (WebKit's helpers may sit under a sandbox process).
descendants() {
  local c
  for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    echo "$c"
    descendants "$c"
  done
}
stop_app() { # stop_app PID: the app and what it started, by id
  local pid=$1 kids
  kids=$(descendants "$pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for k in $kids; do kill "$k" 2>/dev/null || true; done
}

# launch BIN DIR: start the app on data dir DIR; sets PID and T0 (unix ms).
launch() {
  local bin=$1 dir=$2
  mkdir -p "$dir/data" "$dir/config" "$dir/cache"
  T0=$(date +%s%3N)
  if [[ $bin == *.AppImage ]]; then
    XDG_DATA_HOME=$dir/data XDG_CONFIG_HOME=$dir/config XDG_CACHE_HOME=$dir/cache \
      "$bin" --appimage-extract-and-run >"$dir/out" 2>&1 &
  else
    XDG_DATA_HOME=$dir/data XDG_CONFIG_HOME=$dir/config XDG_CACHE_HOME=$dir/cache \
      "$bin" >"$dir/out" 2>&1 &
  fi
  PID=$!
}

# wait_paint DIR: prints "INNER_MS OUTER_MS" once the app reported its first paint.
wait_paint() {
  local dir=$1 line
  for _ in $(seq 1 600); do
    line=$(grep -m1 -o 'first paint after [0-9]* ms (unix_ms [0-9]*)' "$dir/out" 2>/dev/null || true)
    if [[ -n $line ]]; then
      read -r inner unix <<<"$(sed 's/first paint after \([0-9]*\) ms (unix_ms \([0-9]*\))/\1 \2/' <<<"$line")"
      echo "$inner $((unix - T0))"
      return 0
    fi
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.05
  done
  note "no first paint reported; the app said:"
  tail -n 20 "$dir/out" >&2
  return 1
}

# paint_once BIN: one launch on a fresh data dir; prints "INNER_MS OUTER_MS" of its first paint.
paint_once() {
  local dir ok=1
  dir=$(mktemp -d "$WORK/run.XXXX")
  launch "$1" "$dir"
  wait_paint "$dir" && ok=0
  stop_app "$PID"
  rm -rf "$dir"
  return $ok
}

drop_caches() {
  sync
  if [[ -w /proc/sys/vm/drop_caches ]] && echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then
    return 0
  fi
  return 1
}

# stats "v1 v2 ...": "median max"
stats() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:int((a[NR/2]+a[NR/2+1])/2); print m, a[NR]}'; }

# memory PID: "MAIN_RSS_MB TOTAL_RSS_MB TOTAL_PSS_MB NAMES"
memory() {
  local pid=$1 main="" total=0 pss=0 names="" p r s
  for p in "$pid" $(descendants "$pid"); do
    # The app itself: under an AppImage, the runtime's child that is the cubicle binary.
    [[ -z $main && $(cat /proc/"$p"/comm 2>/dev/null) == cubicle ]] && main=$(awk '/^VmRSS/ {print $2}' /proc/"$p"/status)
  done
  main=${main:-$(awk '/^VmRSS/ {print $2}' /proc/"$pid"/status)}
  for p in "$pid" $(descendants "$pid"); do
    r=$(awk '/^VmRSS/ {print $2}' /proc/"$p"/status 2>/dev/null || echo 0)
    s=$(awk '/^Pss:/ {print $2}' /proc/"$p"/smaps_rollup 2>/dev/null || echo 0)
    total=$((total + ${r:-0}))
    pss=$((pss + ${s:-0}))
    [[ $p != "$pid" ]] && names+="$(cat /proc/"$p"/comm 2>/dev/null),"
  done
  echo "$((main / 1024)) $((total / 1024)) $((pss / 1024)) ${names%,}"
}

seed_company() { # seed_company DIR: a company in the app's default database place
  local db="sqlite://$1/data/app.cubicle.desktop/cubicle.db?mode=rwc"
  mkdir -p "$1/data/app.cubicle.desktop"
  local c=("$CLI" --db "$db")
  "${c[@]}" org init --name "Acme Robotics" --boss "Ada Lovelace" --mission "Helpful home robots" --language en
  "${c[@]}" org add-department Engineering --mission "Build the robots' brains"
  "${c[@]}" org add-department Product --mission "Decide what to build"
  "${c[@]}" org add-department Marketing --mission "Tell the world"
  "${c[@]}" org hire "Alice Chen" --title "Backend Engineer" --department Engineering
  "${c[@]}" org hire "Bob Martin" --title "API Engineer" --department Engineering
  "${c[@]}" org hire "Charlie Wu" --title "Performance Engineer" --department Engineering
  "${c[@]}" org hire "Priya Patel" --title "Product Manager" --department Product
  "${c[@]}" org hire "Mia Wong" --title "Marketing Manager" --department Marketing
}

# idle_memory BIN SEED(0|1): launch, wait IDLE s from the launch, print memory.
idle_memory() {
  local bin=$1 seed=$2 dir
  dir=$(mktemp -d "$WORK/idle.XXXX")
  ((seed)) && seed_company "$dir" >/dev/null
  launch "$bin" "$dir"
  wait_paint "$dir" >/dev/null || { stop_app "$PID"; echo "- - - -"; return; }
  sleep "$(awk -v t0="$T0" -v now="$(date +%s%3N)" -v idle="$IDLE" 'BEGIN {s = idle - (now - t0) / 1000; print (s > 0 ? s : 0)}')"
  local m
  m=$(memory "$PID")
  stop_app "$PID"
  echo "$m"
}

COLD_OK=1
drop_caches || COLD_OK=0
((COLD_OK)) || note "cannot drop the page cache (not root?): 'cold' runs are warm too"

rows=()
declare -A FLOOR_PAINT FLOOR_PSS FLOOR_CPU_PAINT FLOOR_CPU_PSS PAINT PSS
for bin in $FLOORS "$@"; do
  name=${bin#"$ROOT"/}
  [[ $bin == "$TARGET"/* ]] && name=target/${bin#"$TARGET"/}
  note "== $name: $RUNS cold and $RUNS warm launches"
  cold_in="" cold_out="" warm_in="" warm_out=""
  for mode in cold warm; do
    for i in $(seq 1 "$RUNS"); do
      [[ $mode == cold ]] && ((COLD_OK)) && drop_caches
      if r=$(paint_once "$bin"); then
        read -r in out <<<"$r"
        note "$mode #$i: first paint after $in ms from main, $out ms from launch"
        if [[ $mode == cold ]]; then cold_in+="$in " cold_out+="$out "; else warm_in+="$in " warm_out+="$out "; fi
      fi
    done
  done
  read -r m1 t1 p1 n1 <<<"$(idle_memory "$bin" 0)"
  if [[ $bin == */cubicle-bare-window ]]; then
    note "== $name: idle ${IDLE} s"
    m2=- t2=- p2=-
    FLOOR_PAINT[$(dirname "$bin")]=$(stats "$warm_in" | cut -d' ' -f1)
    FLOOR_PSS[$(dirname "$bin")]=$p1
    name="$name (floor)"
    if ! compgen -G '/dev/dri/renderD*' >/dev/null; then
      # No GPU: Cubicle paints on the CPU without compositing (src-tauri/src/rendering.rs),
      # the bare window with WebKit's default (compositing and painting with OpenGL, on
      # Mesa's software rasterizer). The floor drawing as Cubicle does too, so that the
      # choice is not counted as our gain.
      export WEBKIT_DISABLE_COMPOSITING_MODE=1 WEBKIT_SKIA_ENABLE_CPU_RENDERING=1
      as_we_in=""
      for _ in $(seq 1 "$RUNS"); do
        if r=$(paint_once "$bin"); then
          read -r in _ <<<"$r"
          as_we_in+="$in "
        fi
      done
      read -r _ _ pc _ <<<"$(idle_memory "$bin" 0)"
      unset WEBKIT_DISABLE_COMPOSITING_MODE WEBKIT_SKIA_ENABLE_CPU_RENDERING
      FLOOR_CPU_PSS[$(dirname "$bin")]=$pc
      FLOOR_CPU_PAINT[$(dirname "$bin")]=$(stats "$as_we_in" | cut -d' ' -f1)
      note "no GPU render node: Cubicle paints on the CPU without compositing here; the floor doing so too paints after ${FLOOR_CPU_PAINT[$(dirname "$bin")]} ms (warm, median) and idles at $pc MB PSS"
    fi
  else
    note "== $name: idle ${IDLE} s on the first-run screen, then with a seeded company"
    read -r m2 t2 p2 n2 <<<"$(idle_memory "$bin" 1)"
    PAINT[$bin]=$(stats "$warm_in" | cut -d' ' -f1)
    PSS[$bin]=$p1
  fi
  note "processes counted beside the app: ${n1:-none}"
  rows+=("$name|$(stats "$cold_in")|$(stats "$cold_out")|$(stats "$warm_in")|$(stats "$warm_out")|$m1 / $t1 ($p1)|$m2 / $t2 ($p2)")
done

echo
echo "Start-up figures ($RUNS launches each; ms: median max; memory after ${IDLE} s idle, MB)"
((COLD_OK)) || echo "(page cache could not be dropped: cold = warm)"
printf '%-44s | %-13s | %-13s | %-13s | %-13s | %-20s | %-20s\n' build \
  "cold (main)" "cold (launch)" "warm (main)" "warm (launch)" "RSS first-run" "RSS company"
printf '%-44s | %-13s | %-13s | %-13s | %-13s | %-20s | %-20s\n' "" "" "" "" "" "app / total (PSS)" "app / total (PSS)"
for r in "${rows[@]}"; do
  IFS='|' read -r a b c d e f g <<<"$r"
  printf '%-44s | %-13s | %-13s | %-13s | %-13s | %-20s | %-20s\n' "$a" "$b" "$c" "$d" "$e" "$f" "$g"
done

# Each Cubicle build against the floor in its own profile (an AppImage: its build's).
echo
echo "Against the floor (a bare Tauri 2 window, same WebKitGTK, same profile): warm first paint"
echo "from main, median; PSS of the app and its WebKit processes after ${IDLE} s on the first screen"
printf '%-44s | %-22s | %-22s | %-22s | %-22s\n' build "first paint (goal ≤ 1.5×)" "idle PSS (goal ≤ 1.3×)" \
  "paint, floor drawing as we do" "PSS, floor drawing as we do"
ratio() { awk -v a="$1" -v b="$2" -v g="$3" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b == 0) { print "-"; exit } r = a / b; printf "%.2f× %s", r, (r <= g ? "met" : "MISSED") }'; }
for bin in "$@"; do
  dir=$TARGET/debug
  [[ $bin == "$TARGET"/release/* ]] && dir=$TARGET/release
  name=${bin#"$ROOT"/}
  [[ $bin == "$TARGET"/* ]] && name=target/${bin#"$TARGET"/}
  printf '%-44s | %-22s | %-22s | %-22s | %-22s\n' "$name" \
    "${PAINT[$bin]:--} / ${FLOOR_PAINT[$dir]:--} ms $(ratio "${PAINT[$bin]:-}" "${FLOOR_PAINT[$dir]:-}" 1.5)" \
    "${PSS[$bin]:--} / ${FLOOR_PSS[$dir]:--} MB $(ratio "${PSS[$bin]:-}" "${FLOOR_PSS[$dir]:-}" 1.3)" \
    "${PAINT[$bin]:--} / ${FLOOR_CPU_PAINT[$dir]:--} ms $(ratio "${PAINT[$bin]:-}" "${FLOOR_CPU_PAINT[$dir]:-}" 1.5)" \
    "${PSS[$bin]:--} / ${FLOOR_CPU_PSS[$dir]:--} MB $(ratio "${PSS[$bin]:-}" "${FLOOR_CPU_PSS[$dir]:-}" 1.3)"
done
