#!/usr/bin/env bash
# Seeds a company that lived through seed 000 — the boss asks Alice (through the
# secretary) to research REST vs GraphQL; she asks Bob in the project group and Charlie
# privately, resolves the task and reports; beside it Priya hands in an off-topic note
# (it waits for review) and Mia posts the release note to the team's Feishu webhook
# (waits for the boss) and a teaser to a channel not on the allowlist (refused) — played
# headless by a scripted model (scripts/shots/seed_work.sh, scripts/shots/model.py) on a
# virtual clock; then opens the real app under Xvfb on the trace view, the requirements
# board and the approval queue and saves docs/trace.png, docs/board.png and
# docs/approvals.png; then the secretary's conversation, the project group's chat, the
# refusal in the mailbox and the relationship graph (docs/secretary.png, chats.png,
# mailbox.png, relationships.png).
# CUBICLE_SHOT_LANG=zh-CN plays it in a Chinese company; CUBICLE_SHOT_DIR puts the
# pictures elsewhere. Needs a prior scripts/setup.sh (the app built with custom-protocol).
set -euo pipefail
cd "$(dirname "$0")/.."
export HOME_DIR=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
python3 scripts/shots/model.py "$PORT" & model=$!
trap 'kill $model 2>/dev/null || true; rm -rf "$HOME_DIR"' EXIT
sleep 1
source scripts/shots/seed_work.sh
# The app thinks on while the pictures are taken; everyone has had their say (a fresh
# model would not remember who answered what), so it keeps quiet.
kill $model; wait $model 2>/dev/null || true
CUBICLE_SHOT_QUIET=1 python3 scripts/shots/model.py "$PORT" & model=$!
sleep 1

export CUBICLE_PROVIDER=openai-compatible CUBICLE_BASE_URL="http://127.0.0.1:$PORT/v1" CUBICLE_MODEL=scripted
export CUBICLE_DATABASE_URL=$DB XDG_DATA_HOME=$HOME_DIR/data XDG_CONFIG_HOME=$HOME_DIR/config
export SHOTS=${CUBICLE_SHOT_DIR:-docs}
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  target/debug/cubicle & app=$!
  for _ in $(seq 1 60); do xdotool search --name "^Cubicle$" >/dev/null 2>&1 && break; sleep 0.5; done
  sleep "${CUBICLE_SHOT_DELAY:-6}"
  nav() { xdotool mousemove 80 "$1" click 1; sleep 3; }
  # The left nav: secretary 90, dashboard 128, org chart 166, chats 204, mailbox 242,
  # approvals 280, work 318, traces 356, relationships 394.
  nav "${CUBICLE_NAV_TRACES:-356}"
  # The instructions, newest first: the teaser, the note, the release note, then seed 000.
  xdotool mousemove "${CUBICLE_TRACE_X:-420}" "${CUBICLE_TRACE_Y:-$SHOT_TRACE_RESEARCH_Y}" click 1
  sleep 3
  import -window root "$SHOTS/trace.png"
  nav "${CUBICLE_NAV_WORK:-318}"
  # Open the task tree of the API design requirement (in progress, second column).
  xdotool mousemove "${CUBICLE_TREE_X:-575}" "${CUBICLE_TREE_Y:-423}" click 1
  sleep 2
  import -window root "$SHOTS/board.png"
  nav "${CUBICLE_NAV_APPROVALS:-280}"
  import -window root "$SHOTS/approvals.png"
  nav "${CUBICLE_NAV_SECRETARY:-90}"
  import -window root "$SHOTS/secretary.png"
  nav "${CUBICLE_NAV_CHATS:-204}"
  # The project group (API design) in the list of chats.
  xdotool mousemove "${CUBICLE_CHAT_X:-410}" "${CUBICLE_CHAT_Y:-415}" click 1
  sleep 3
  import -window root "$SHOTS/chats.png"
  nav "${CUBICLE_NAV_MAILBOX:-242}"
  # The refusal: second in the list, under the newest (Alice'"'"'s report).
  xdotool mousemove "${CUBICLE_MAIL_X:-350}" "${CUBICLE_MAIL_Y:-370}" click 1
  sleep 3
  import -window root "$SHOTS/mailbox.png"
  nav "${CUBICLE_NAV_RELATIONSHIPS:-394}"
  sleep 2
  import -window root "$SHOTS/relationships.png"
  kill $app; wait $app 2>/dev/null || true'
echo "screenshots: $SHOTS/{trace,board,approvals,secretary,chats,mailbox,relationships}.png"
