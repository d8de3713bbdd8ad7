#!/usr/bin/env bash
# Seeds a company that lived through seed 000 — the boss asks Alice (through the
# secretary) to research REST vs GraphQL; she asks Bob in the project group and Charlie
# privately, resolves the task and reports — played headless by a scripted model
# (scripts/shots/model.py) on a virtual clock; then opens the real app under Xvfb on the
# trace view, the requirements board and the approval queue (Mia wants to post the
# release note to the team's Feishu webhook) and saves docs/trace.png, docs/board.png and
# docs/approvals.png; then the secretary's conversation, the project group's chat, the
# report in the mailbox and the relationship graph (docs/secretary.png, chats.png,
# mailbox.png, relationships.png).
# Needs a prior scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
HOME_DIR=$(mktemp -d)
DB="sqlite://$HOME_DIR/cubicle.db?mode=rwc"
cli() { target/debug/cubicle-cli --db "$DB" "$@" >/dev/null; }

cli org init --name "Acme Robotics" --boss "Ada Lovelace" --mission "Helpful home robots" \
  --language "${CUBICLE_SHOT_LANG:-en}"
cli org add-department Engineering --mission "Build the robots' brains"
cli org add-department Product --mission "Decide what to build"
cli org hire "Alice Chen" --title "Backend Engineer" --department Engineering
cli org hire "Bob Martin" --title "API Engineer" --department Engineering
cli org hire "Charlie Wu" --title "Performance Engineer" --department Engineering
cli org hire "Priya Patel" --title "Product Manager" --department Product
cli org add-department Marketing --mission "Tell the world"
cli org hire "Mia Wong" --title "Marketing Manager" --department Marketing
cli say --yes "open a new requirement for API design in Engineering"
cli say --yes "open a new requirement for the onboarding flow in Product"
cli say --yes "open a new requirement for offline mode in Engineering"
cli say --yes "ask Alice Chen to research REST vs GraphQL for our new API"
# The team's Feishu host is allowed, so Mia's post waits for the boss instead of being refused.
cli webhooks allow open.feishu.cn
cli say --yes "ask Mia Wong to post the release note to the team webhook"

PORT=$((20000 + RANDOM % 20000))
python3 scripts/shots/model.py "$PORT" & model=$!
trap 'kill $model 2>/dev/null || true; rm -rf "$HOME_DIR"' EXIT
sleep 1
CUBICLE_PROVIDER=openai-compatible CUBICLE_BASE_URL="http://127.0.0.1:$PORT/v1" CUBICLE_MODEL=scripted \
  target/debug/cubicle-cli --db "$DB" run --for 30m --virtual-clock --seed 3 >/dev/null

# The app keeps thinking with the same scripted model while the pictures are taken.
export CUBICLE_PROVIDER=openai-compatible CUBICLE_BASE_URL="http://127.0.0.1:$PORT/v1" CUBICLE_MODEL=scripted
export CUBICLE_DATABASE_URL=$DB XDG_DATA_HOME=$HOME_DIR/data XDG_CONFIG_HOME=$HOME_DIR/config
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  target/debug/cubicle & app=$!
  for _ in $(seq 1 60); do xdotool search --name "^Cubicle$" >/dev/null 2>&1 && break; sleep 0.5; done
  sleep "${CUBICLE_SHOT_DELAY:-6}"
  nav() { xdotool mousemove 80 "$1" click 1; sleep 3; }
  # The left nav: secretary, dashboard, org chart, chats, mailbox, approvals, work, traces, …
  nav "${CUBICLE_NAV_TRACES:-356}"
  # The second instruction from the top is seed 000 (the newest is the release note).
  xdotool mousemove "${CUBICLE_TRACE_X:-420}" "${CUBICLE_TRACE_Y:-262}" click 1
  sleep 3
  import -window root "${CUBICLE_SHOT_DIR:-docs}/trace.png"
  nav "${CUBICLE_NAV_WORK:-318}"
  # Open the task tree of the one requirement in progress (second column).
  xdotool mousemove "${CUBICLE_TREE_X:-580}" "${CUBICLE_TREE_Y:-400}" click 1
  sleep 2
  import -window root "${CUBICLE_SHOT_DIR:-docs}/board.png"
  nav "${CUBICLE_NAV_APPROVALS:-280}"
  import -window root "${CUBICLE_SHOT_DIR:-docs}/approvals.png"
  nav "${CUBICLE_NAV_SECRETARY:-90}"
  import -window root "${CUBICLE_SHOT_DIR:-docs}/secretary.png"
  nav "${CUBICLE_NAV_CHATS:-204}"
  # The project group (API design) in the list of chats.
  xdotool mousemove "${CUBICLE_CHAT_X:-410}" "${CUBICLE_CHAT_Y:-${CUBICLE_API_CHAT_Y:-415}}" click 1
  sleep 3
  import -window root "${CUBICLE_SHOT_DIR:-docs}/chats.png"
  nav "${CUBICLE_NAV_MAILBOX:-242}"
  # Open the newest mail.
  xdotool mousemove "${CUBICLE_MAIL_X:-410}" "${CUBICLE_MAIL_Y:-290}" click 1
  sleep 3
  import -window root "${CUBICLE_SHOT_DIR:-docs}/mailbox.png"
  nav "${CUBICLE_NAV_RELATIONSHIPS:-394}"
  sleep 2
  import -window root "${CUBICLE_SHOT_DIR:-docs}/relationships.png"
  kill $app; wait $app 2>/dev/null || true'
echo "screenshots: ${CUBICLE_SHOT_DIR:-docs}/{trace,board,approvals,secretary,chats,mailbox,relationships}.png"
