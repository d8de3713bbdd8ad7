#!/usr/bin/env bash
# Seeds the company of the work screenshots into $HOME_DIR/cubicle.db and plays seed 000
# (plus Priya's note and Mia's two posts) with the scripted model (model.py, which must
# already listen on $PORT) on a virtual clock. CUBICLE_SHOT_LANG=zh-CN seeds a Chinese
# company (Chinese names, departments and instructions). Sourced by the screenshot
# scripts; needs target/debug/cubicle-cli.
DB="sqlite://$HOME_DIR/cubicle.db?mode=rwc"
# One approval key for the headless run and the app: an approval sealed by one process is
# only decided by another that holds the same key (no keychain under Xvfb).
export CUBICLE_APPROVAL_KEY=${CUBICLE_APPROVAL_KEY:-screenshots-only-approval-key-0123456789abcdef}
cli() { target/debug/cubicle-cli --db "$DB" "$@" >/dev/null; }

# Where the traces list shows Alice's research and Mia's release note (newest first: the
# teaser, the note, the release note, the research); Chinese titles take one line.
if [ "${CUBICLE_SHOT_LANG:-en}" = zh-CN ]; then
  export SHOT_TRACE_RESEARCH_Y=356 SHOT_TRACE_RELEASE_Y=294
else
  export SHOT_TRACE_RESEARCH_Y=416 SHOT_TRACE_RELEASE_Y=334
fi

if [ "${CUBICLE_SHOT_LANG:-en}" = zh-CN ]; then
  cli org init --name "极客机器人" --boss "林达" --mission "做有用的家用机器人" --language zh-CN
  cli org add-department 工程部 --mission "打造机器人的大脑"
  cli org add-department 产品部 --mission "决定做什么"
  cli org hire "陈丽" --title "后端工程师" --department 工程部
  cli org hire "马博" --title "API 工程师" --department 工程部
  cli org hire "吴超" --title "性能工程师" --department 工程部
  cli org hire "白雅" --title "产品经理" --department 产品部
  cli org add-department 市场部 --mission "让世界知道我们"
  cli org hire "王敏" --title "市场经理" --department 市场部
  cli say --yes "在工程部开一个新需求：API 设计"
  cli say --yes "在产品部开一个新需求：新用户引导"
  cli say --yes "在工程部开一个新需求：离线模式"
  cli say --yes "让陈丽调研一下新 API 用 REST 还是 GraphQL"
  # The team's Feishu host is allowed, so Mia's post waits for the boss; the launch
  # channel's host is not, so her teaser is refused.
  cli webhooks allow open.feishu.cn
  cli say --yes "让王敏把发布说明发到团队 webhook"
  cli say --yes "让白雅写一份新用户引导流程的说明"
  cli say --yes "让王敏把上线预告发到发布频道"
else
  cli org init --name "Acme Robotics" --boss "Ada Lovelace" --mission "Helpful home robots" --language en
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
  cli webhooks allow open.feishu.cn
  cli say --yes "ask Mia Wong to post the release note to the team webhook"
  cli say --yes "ask Priya Patel to write a short note on the onboarding flow"
  cli say --yes "ask Mia Wong to post the launch teaser to the launch channel"
fi

# Five simulated minutes: the story takes three. The simulated clock runs ahead of the
# real one, so wait until the real clock has caught up with the last thing said: the app
# then shows "2 minutes ago", not "in 2 minutes".
CUBICLE_PROVIDER=openai-compatible CUBICLE_BASE_URL="http://127.0.0.1:$PORT/v1" CUBICLE_MODEL=scripted \
  target/debug/cubicle-cli --db "$DB" run --for 5m --virtual-clock --seed 3 >/dev/null
python3 - "$HOME_DIR/cubicle.db" <<'PY'
import datetime, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
last = max(db.execute(f"select max(created_at) from {t}").fetchone()[0] or ""
           for t in ("chat_message", "mail", "task"))
at = datetime.datetime.fromisoformat(last[:26].rstrip("Z")).replace(tzinfo=datetime.timezone.utc)
wait = (at - datetime.datetime.now(datetime.timezone.utc)).total_seconds() + 5
if wait > 0:
    print(f"waiting {wait:.0f} s for the real clock to catch up with the story", file=sys.stderr)
    time.sleep(wait)
PY
