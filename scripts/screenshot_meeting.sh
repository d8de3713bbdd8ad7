#!/usr/bin/env bash
# Seeds a company where the boss convenes a meeting through the secretary about the API
# roadmap: Bob proposes GraphQL, Alice (who leads Engineering) objects, Carol agrees, and
# Alice's ruling goes into the minutes — played headless by a scripted model
# (scripts/shots/meeting_model.py) on a virtual clock. Then opens the real app under Xvfb
# on that instruction's trace and saves meeting-trace-en.png and meeting-trace-zh.png in $1
# (default docs/): the meeting's turns and the ruling; the -end.png beside each is the
# same trace scrolled to its end, where the minutes are.
# Needs the app built with the custom-protocol feature (scripts/setup.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs}
mkdir -p "$OUT"

shoot() { # <en|zh>
  local lang=$1 home db port model
  home=$(mktemp -d)
  db="sqlite://$home/cubicle.db?mode=rwc"
  cli() { target/debug/cubicle-cli --db "$db" "$@" >/dev/null; }
  if [ "$lang" = zh ]; then
    local alice=李娜 bob=王强 carol=张伟 language=zh-CN
    local ask="召集王强、李娜和张伟开会讨论API路线图"
  else
    local alice="Alice Chen" bob="Bob Martin" carol="Carol Diaz" language=en
    local ask="convene a meeting with Bob Martin, Alice Chen and Carol Diaz about the API roadmap"
  fi
  cli org init --name "Acme Robotics" --boss "Ada Lovelace" --mission "Helpful home robots" --language "$language"
  cli org add-department Engineering --mission "Build the robots' brains"
  cli org hire "$alice" --title "Backend Engineer" --department Engineering
  cli org hire "$bob" --title "API Engineer" --department Engineering
  cli org hire "$carol" --title "Frontend Engineer" --department Engineering
  # Neither the CLI nor the secretary names a department's lead yet: set it in the database.
  sqlite3 "$home/cubicle.db" "UPDATE department SET lead_id = (SELECT id FROM employee WHERE name = '$alice') WHERE name = 'Engineering';"
  cli say --yes "$ask"

  port=$((20000 + RANDOM % 20000))
  python3 scripts/shots/meeting_model.py "$port" "$lang" & model=$!
  sleep 1
  CUBICLE_PROVIDER=openai-compatible CUBICLE_BASE_URL="http://127.0.0.1:$port/v1" CUBICLE_MODEL=scripted \
    target/debug/cubicle-cli --db "$db" run --for 2h --virtual-clock --seed 3 >/dev/null
  kill $model 2>/dev/null || true

  CUBICLE_DATABASE_URL=$db XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config OUT="$OUT" LANG_TAG="$lang" \
    xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
      target/debug/cubicle & app=$!
      for _ in $(seq 1 60); do xdotool search --name "^Cubicle$" >/dev/null 2>&1 && break; sleep 0.5; done
      sleep "${CUBICLE_SHOT_DELAY:-6}"
      xdotool mousemove 80 "${CUBICLE_NAV_TRACES:-356}" click 1; sleep 3
      # The newest instruction, at the top of the list, is the meeting.
      xdotool mousemove "${CUBICLE_TRACE_X:-420}" "${CUBICLE_TRACE_Y:-170}" click 1; sleep 3
      import -window root "$OUT/meeting-trace-$LANG_TAG.png"
      # The end of the story: the last turns and the minutes.
      xdotool mousemove 940 600
      for _ in $(seq 1 15); do xdotool click 5; done
      sleep 1
      import -window root "$OUT/meeting-trace-$LANG_TAG-end.png"
      kill $app; wait $app 2>/dev/null || true'
  rm -rf "$home"
}

shoot en
shoot zh
echo "screenshots: $OUT/meeting-trace-en.png $OUT/meeting-trace-zh.png"
