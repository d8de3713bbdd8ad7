#!/usr/bin/env bash
# What the boss is told when things do not go as said, as pictures: the company of
# screenshot_work.sh (in Chinese unless CUBICLE_SHOT_LANG says otherwise) opened in the
# real app under Xvfb: (a) the refused teaser in the mailbox with its fix link,
# (b) Mia's release-note post approved and its outcome on the card, (c) Priya's
# off-topic note waiting for review with why (mailbox and dashboard), (d) the trace of
# the release note with the tool call and its outcome. Into CUBICLE_SHOT_DIR
# (default /tmp/cubicle-outcomes). Needs a prior scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export CUBICLE_SHOT_LANG=${CUBICLE_SHOT_LANG:-zh-CN}
export HOME_DIR=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
python3 scripts/shots/model.py "$PORT" & model=$!
trap 'kill $model 2>/dev/null || true; rm -rf "$HOME_DIR"' EXIT
sleep 1
source scripts/shots/seed_work.sh
kill $model; wait $model 2>/dev/null || true
CUBICLE_SHOT_QUIET=1 python3 scripts/shots/model.py "$PORT" & model=$!
sleep 1

export CUBICLE_PROVIDER=openai-compatible CUBICLE_BASE_URL="http://127.0.0.1:$PORT/v1" CUBICLE_MODEL=scripted
export CUBICLE_DATABASE_URL=$DB XDG_DATA_HOME=$HOME_DIR/data XDG_CONFIG_HOME=$HOME_DIR/config
export SHOTS=${CUBICLE_SHOT_DIR:-/tmp/cubicle-outcomes}
mkdir -p "$SHOTS"
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  target/debug/cubicle & app=$!
  for _ in $(seq 1 60); do xdotool search --name "^Cubicle$" >/dev/null 2>&1 && break; sleep 0.5; done
  sleep "${CUBICLE_SHOT_DELAY:-6}"
  nav() { xdotool mousemove 80 "$1" click 1; sleep 3; }
  click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-3}"; }
  # Mail, newest first: Alice'"'"'s report, the refused teaser, Priya'"'"'s note.
  nav 242
  click 350 370
  import -window root "$SHOTS/a-refusal.png"
  click 350 472
  import -window root "$SHOTS/c-needs-review-mail.png"
  nav 128
  # The activity feed: Priya'"'"'s note with its "needs review" chip, further down.
  xdotool mousemove 1000 600; for _ in $(seq 1 "${CUBICLE_FEED_SCROLL:-8}"); do xdotool click 5; done
  sleep 1
  import -window root "$SHOTS/c-needs-review-dashboard.png"
  nav 280
  import -window root "$SHOTS/b-approval-before.png"
  # Approve, then the card shows the post running and how it ended.
  click "${CUBICLE_APPROVE_X:-1043}" "${CUBICLE_APPROVE_Y:-425}" "${CUBICLE_OUTCOME_WAIT:-10}"
  import -window root "$SHOTS/b-approval.png"
  # The instructions, newest first: the teaser, the note, the release note.
  nav 356
  click 420 "$SHOT_TRACE_RELEASE_Y"
  import -window root "$SHOTS/d-trace.png"
  # Further down: the approved call'"'"'s outcome.
  xdotool mousemove 940 600; for _ in $(seq 1 "${CUBICLE_TRACE_SCROLL:-6}"); do xdotool click 5; done
  sleep 1
  import -window root "$SHOTS/d-trace-outcome.png"
  kill $app; wait $app 2>/dev/null || true'
echo "screenshots: $SHOTS/{a-refusal,b-approval-before,b-approval,c-needs-review-mail,c-needs-review-dashboard,d-trace,d-trace-outcome}.png"
