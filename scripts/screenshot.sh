#!/usr/bin/env bash
# Seeds a demo company (3 departments, 8 people) in a temp dir, opens the real app on
# it under Xvfb and saves a screenshot of the whole screen to docs/screenshot.png
# (or $1). Needs a prior scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs/screenshot.png}
HOME_DIR=$(mktemp -d)
DB="sqlite://$HOME_DIR/cubicle.db?mode=rwc"
cli() { target/debug/cubicle-cli --db "$DB" "$@" >/dev/null; }

cli org init --name "Acme Robotics" --boss "Ada Lovelace" --mission "Helpful home robots" \
  --language "${CUBICLE_SHOT_LANG:-en}"
cli org add-department Engineering --mission "Build the robots' brains"
cli org add-department Product --mission "Decide what to build"
cli org add-department Frontend --parent Engineering --mission "The companion app"
cli org hire "Grace Hopper" --title "Backend Engineer" --department Engineering
cli org hire "Linus Park" --title "DevOps Engineer" --department Engineering --manager "Grace Hopper"
cli org hire "Alice Chen" --title "Frontend Engineer" --department Frontend --manager "Grace Hopper"
cli org hire "Bob Martin" --title "QA Engineer" --department Frontend --manager "Alice Chen"
cli org hire "Chen Jing" --title "UI/UX Designer" --department Product
cli org hire "Priya Patel" --title "Product Manager" --department Product
cli org hire "Omar Haddad" --title "Researcher" --department Product --manager "Priya Patel"
cli org hire "Sofia Rossi" --title "Technical Writer" --department Engineering

export CUBICLE_DATABASE_URL=$DB XDG_DATA_HOME=$HOME_DIR/data XDG_CONFIG_HOME=$HOME_DIR/config
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  target/debug/cubicle & app=$!
  # wait for the window, then give the webview time to render the chart
  for _ in $(seq 1 60); do xdotool search --name "^Cubicle$" >/dev/null 2>&1 && break; sleep 0.5; done
  sleep "${CUBICLE_SHOT_DELAY:-6}"
  # The app opens on the secretary; the org chart is the third item of the left nav.
  xdotool mousemove 80 166 click 1
  sleep 3
  import -window root "'"$OUT"'"
  kill $app; wait $app 2>/dev/null || true'
rm -rf "$HOME_DIR"
echo "screenshot: $OUT"
