#!/usr/bin/env bash
# Sets up a fresh machine (scripts/setup.sh --app) and launches Cubicle, optimised (a release
# build; the tests use the debug one).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --app
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "No display found: starting Cubicle under Xvfb (headless)." >&2
  exec xvfb-run -a -s "-screen 0 1280x800x24" target/release/cubicle "$@"
fi
exec target/release/cubicle "$@"
