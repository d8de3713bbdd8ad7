#!/usr/bin/env bash
# Opens the real app on a fresh data dir under Xvfb, fills the first step of the first-run
# wizard (in English, then again choosing Chinese with the keyboard) and saves the
# second step — how the employees will think — as wizard-en.png and wizard-zh.png in $1
# (default docs/), with the first step beside them (wizard-en-step1.png, wizard-zh-step1.png)
# and where the app goes once the company is created (wizard-en-after.png, wizard-zh-after.png).
# Needs the app built with the custom-protocol feature (scripts/setup.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs}
BIN=${CUBICLE_BIN:-target/debug/cubicle}
mkdir -p "$OUT"

shoot() { # <suffix> <presses of Down on the language select: 0 English, 1 Chinese>
  local suffix=$1 downs=$2 data config
  data=$(mktemp -d) config=$(mktemp -d)
  XDG_DATA_HOME=$data XDG_CONFIG_HOME=$config OUT="$OUT" SUFFIX="$suffix" BIN="$BIN" DOWNS="$downs" \
    xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
      "$BIN" & app=$!
      for _ in $(seq 1 60); do xdotool search --name "^Cubicle$" >/dev/null 2>&1 && break; sleep 0.5; done
      sleep "${CUBICLE_SHOT_DELAY:-6}"
      win=$(xdotool search --name "^Cubicle$" | head -1)
      xdotool windowfocus "$win" 2>/dev/null || true
      # The company name field has the focus; ASCII names type reliably under Xvfb.
      xdotool type --delay 40 "Acme Robotics"
      xdotool key Tab
      xdotool type --delay 40 "Ada Lovelace"
      # On the language select, Down changes the choice in place (Return would open its menu);
      # then back to the name field, where Return submits the step.
      xdotool key Tab
      for _ in $(seq 1 "$DOWNS"); do xdotool key Down; done
      xdotool key shift+Tab
      sleep 1
      import -window root "$OUT/wizard-$SUFFIX-step1.png"
      xdotool key Return
      sleep 2
      import -window root "$OUT/wizard-$SUFFIX.png"
      # Create the company on the path the wizard chose for this language, and show where it lands:
      # the dashboard with the built-in model notice (English), Settings on local models (Chinese).
      xdotool mousemove "${CUBICLE_CREATE_X:-676}" "${CUBICLE_CREATE_Y:-$([ "$DOWNS" = 0 ] && echo 653 || echo 697)}" click 1
      sleep 3
      [ "$DOWNS" = 0 ] && { xdotool mousemove 80 "${CUBICLE_NAV_DASHBOARD:-128}" click 1; sleep 3; }
      import -window root "$OUT/wizard-$SUFFIX-after.png"
      kill $app; wait $app 2>/dev/null || true'
  rm -rf "$data" "$config"
}

shoot en 0
shoot zh 1
echo "screenshots: $OUT/wizard-en.png $OUT/wizard-zh.png"
