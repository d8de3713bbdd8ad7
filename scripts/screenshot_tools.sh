#!/usr/bin/env bash
# Saves a picture of the real app's "Tools & approvals" card (a CLI employee on Manual) to
# docs/tools.png (or $1), in English or, with CUBICLE_SHOT_LANG=zh-CN, in Chinese.
# Needs a prior scripts/setup.sh (the app built with custom-protocol, tauri-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs/tools.png}
dbus-run-session -- bash -c '
  export XDG_DATA_HOME=$(mktemp -d)
  mkdir -p "$XDG_DATA_HOME/keyrings"
  echo -n cubicle-shot | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  xvfb-run -a -s "-screen 0 1280x800x24" node scripts/shots/tools.mjs "$0" "$1"' "$OUT" "${CUBICLE_SHOT_LANG:-en}"
