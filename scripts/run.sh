#!/usr/bin/env bash
# Sets up a fresh machine (scripts/setup.sh) and launches Cubicle.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "No display found: starting Cubicle under Xvfb (headless)." >&2
  exec xvfb-run -a -s "-screen 0 1280x800x24" target/debug/cubicle "$@"
fi
exec target/debug/cubicle "$@"
