"""A scripted OpenAI-compatible model for the documentation screenshots: it plays the
people of seed 000 (who asks whom, who answers what) from what each prompt shows, the
way a real model would answer. Beside the story: Priya hands in an off-topic note (it
waits for the boss's review) and Mia posts the release note (waits for the boss) and a
launch teaser to a channel that is not allowed (refused). Not used by any test.

CUBICLE_SHOT_LANG=zh-CN plays the same people in a Chinese company (the names, the
instructions and every line in Chinese)."""
import json
import os
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

ZH = os.environ.get("CUBICLE_SHOT_LANG", "en") == "zh-CN"
state = {"asked_bob": False, "asked_charlie": False}

# Who is who, by the name each prompt gives.
PEOPLE = {"Alice": "alice", "陈丽": "alice", "Bob": "bob", "马博": "bob",
          "Charlie": "charlie", "吴超": "charlie", "Priya": "priya", "白雅": "priya",
          "Mia": "mia", "王敏": "mia"}

# Every line the people write, and the words others recognise it by.
EN = {
    "bob_name": "Bob Martin", "charlie_name": "Charlie Wu",
    "ask_bob": "@Bob Martin quick one for the new API: REST or GraphQL, what would you pick and why?",
    "ask_bob_key": "REST or GraphQL",
    "bob_answer": "GraphQL: one endpoint and clients fetch exactly what they need. REST is simpler to cache.",
    "bob_answer_key": "GraphQL",
    "bob_tasks": ["Draft the GraphQL schema for the dashboard", "Watch the API latency dashboards"],
    "bob_plan": "Schema first (mine), then latency watch (mine); Alice researches REST vs GraphQL",
    "ask_charlie": "Charlie, do you have performance data on REST vs GraphQL from the load tests?",
    "ask_charlie_key": "performance data",
    "charlie_answer": "From our load test: REST p99 80 ms, GraphQL p99 95 ms with batching on.",
    "charlie_answer_key": "p99",
    "thanks": "Thanks Charlie, that's what I needed.",
    "result": "REST for the public API (p99 80 ms vs 95 ms), GraphQL for the dashboard",
    "report": ("Ada, my recommendation: REST for the public API, GraphQL for the dashboard. "
               "Bob likes GraphQL's flexible queries; Charlie's load test puts REST at p99 80 ms "
               "vs 95 ms for GraphQL."),
    "research": "REST vs GraphQL", "release": "release note", "teaser": "launch teaser",
    "note": "onboarding", "plan": "API design",
    "mia_release": "Ada, the release note is ready — it goes to the team channel once you approve.",
    "release_text": "Release 2.3 is out: offline mode and a faster API.",
    "mia_teaser": "Ada, I'll put the teaser on the launch channel.",
    "teaser_text": "Something new is coming to Acme robots next week.",
    "priya_note": "Team lunch\nWe could order pizza for everyone on Friday afternoon.",
    "priya_says": "Ada, the note is done.",
    "why_release": "the boss asked me to announce the release to the team",
    "why_teaser": "the boss asked for a teaser on the launch channel",
    "alice_on_bob": "Knows APIs inside out; a little GraphQL-happy.",
    "alice_on_charlie": "Brings numbers, not opinions. Ask him first next time.",
    "bob_on_alice": "Asks good questions early.",
    "charlie_on_alice": "Listens to the data.",
}
CN = {
    "bob_name": "马博", "charlie_name": "吴超",
    "ask_bob": "@马博 新 API 想请教一下：REST 还是 GraphQL，你会选哪个，为什么？",
    "ask_bob_key": "REST 还是 GraphQL",
    "bob_answer": "我选 GraphQL：一个入口，客户端要什么取什么。REST 的好处是缓存简单。",
    "bob_answer_key": "GraphQL",
    "bob_tasks": ["为仪表盘起草 GraphQL schema", "盯住 API 延迟看板"],
    "bob_plan": "先出 schema（我来），再盯延迟（我来）；陈丽调研 REST 与 GraphQL",
    "ask_charlie": "吴超，压测里有 REST 和 GraphQL 的性能数据吗？",
    "ask_charlie_key": "性能数据",
    "charlie_answer": "上次压测：REST 的 p99 是 80 ms，GraphQL 开了批处理是 95 ms。",
    "charlie_answer_key": "p99",
    "thanks": "谢谢吴超，这正是我要的。",
    "result": "对外 API 用 REST（p99 80 ms 对 95 ms），仪表盘用 GraphQL",
    "report": ("林达，我的建议：对外 API 用 REST，仪表盘用 GraphQL。马博看重 GraphQL 查询灵活；"
               "吴超的压测里 REST 的 p99 是 80 ms，GraphQL 是 95 ms。"),
    "research": "GraphQL", "release": "发布说明", "teaser": "上线预告",
    "note": "新用户引导", "plan": "API 设计",
    "mia_release": "林达，发布说明准备好了——你批准后就发到团队群。",
    "release_text": "2.3 版发布：离线模式上线，API 更快了。",
    "mia_teaser": "林达，我把预告发到发布频道。",
    "teaser_text": "下周，极客机器人有新东西要来。",
    "priya_note": "团队午餐\n周五下午可以给大家订披萨。",
    "priya_says": "林达，说明写好了。",
    "why_release": "老板让我在团队群里宣布这次发布",
    "why_teaser": "老板要在发布频道发一条预告",
    "alice_on_bob": "对 API 了如指掌，就是有点偏爱 GraphQL。",
    "alice_on_charlie": "拿数据说话，下次先问他。",
    "bob_on_alice": "问题问得早、问得准。",
    "charlie_on_alice": "肯听数据的人。",
}
T = CN if ZH else EN


def speak(inner, messages, ops=(), feel=()):
    return {
        "relationshipOps": [{"name": n, "impression": T[k], "affinity": a} for n, k, a in feel],
        "innerThoughts": inner,
        "shouldSpeak": True,
        "reason": "I have something to add",
        "messages": [{"content": c, "to": t} for c, t in messages],
        "interestLevel": 8,
        "topicSaturation": 3,
        "taskOps": list(ops),
    }


def silent(name):
    return {
        "innerThoughts": f"{name}: nothing for me to add right now.",
        "shouldSpeak": False,
        "reason": "nothing new to add",
        "messages": [],
        "interestLevel": 3,
        "topicSaturation": 6,
    }


def webhook(answer, url, text, why):
    answer["toolCalls"] = [{"tool": "post_webhook",
                            "args": {"url": url, "text": text, "style": "feishu"},
                            "reason": why}]
    return answer


def play(system, user):
    name = (re.search(r"You are ([^,]+),", system) or [None, "?"])[1]
    if os.environ.get("CUBICLE_SHOT_QUIET"):
        return silent(name)
    who = next((v for k, v in PEOPLE.items() if name.startswith(k)), "?")
    chat = (re.search(r'chat "([^"]*)"', system) or [None, ""])[1]
    private = "the private chat" in system
    # The lines the prompt shows, new ("*[") or already seen ("["): a question asked
    # while one was busy planning shows as seen. Each person answers each thing once.
    shown = [l for l in user.splitlines() if l.startswith("*[") or l.startswith("[")]
    # Every pending task ("[new, 2 min] #4 research …"); a planning task is listed too,
    # so each is picked by what it says.
    tasks = re.findall(r"min\] #(\d+) ([^\n]*)", user)

    def task(word):
        return next((int(i) for i, d in tasks if word in d and not d.startswith("Plan")
                     and "规划需求" not in d), None)

    def plan(word):
        return next((int(i) for i, d in tasks
                     if word in d and (d.startswith("Plan") or "规划需求" in d)), None)

    def new_from(sender, text):
        return any(f"] {sender}" in l and text.lower() in l.lower() for l in shown)

    def once(what):
        if state.get(what):
            return False
        state[what] = True
        return True

    if who == "alice":
        if "Write the report yourself" in user and once("reported"):
            return speak("Bob's view and Charlie's numbers agree; tell Ada plainly.",
                         [(T["report"], None)])
        research = task(T["research"])
        if (private and new_from(T["charlie_name"].split()[0], T["charlie_answer_key"]) and research
                and once("resolved")):
            return speak("That settles it.", [(T["thanks"], None)],
                         [{"op": "resolve", "id": research, "result": T["result"]}],
                         [(T["charlie_name"], "alice_on_charlie", 66), (T["bob_name"], "alice_on_bob", 58)])
        if new_from(T["bob_name"].split()[0], T["bob_answer_key"]) and not state["asked_charlie"]:
            state["asked_charlie"] = True
            return speak("Bob argues flexibility; I need numbers before I recommend anything.",
                         [(T["ask_charlie"], T["charlie_name"])])
        if research and not state["asked_bob"]:
            state["asked_bob"] = True
            return speak("Bob built our last API; I'll ask him in the project group first.",
                         [(T["ask_bob"], "#" + T["plan"])])
    if who == "mia":
        release, teaser = task(T["release"]), task(T["teaser"])
        if release and not state.get("asked_hook"):
            state["asked_hook"] = True
            return webhook(speak("Posting needs the boss's OK; I'll ask.", [(T["mia_release"], None)]),
                           "https://open.feishu.cn/open-apis/bot/v2/hook/acme-team",
                           T["release_text"], T["why_release"])
        if teaser and not state.get("teaser"):
            state["teaser"] = True
            return webhook(speak("The launch channel takes teasers.", [(T["mia_teaser"], None)]),
                           "https://hooks.slack.com/services/T0/B0/launch",
                           T["teaser_text"], T["why_teaser"])
    if who == "priya":
        note = task(T["note"])
        if note and once("note"):
            return speak("Done, send it.", [(T["priya_says"], None)],
                         [{"op": "resolve", "id": note, "result": T["priya_note"]}])
    alice = "陈丽" if ZH else "Alice"
    alice_name = "陈丽" if ZH else "Alice Chen"
    if who == "bob" and new_from(alice, T["ask_bob_key"]) and once("bob_answered"):
        ops = [{"op": "create", "description": T["bob_tasks"][0]},
               {"op": "create", "type": "long_running", "description": T["bob_tasks"][1]}]
        mine = plan(T["plan"])
        if mine:
            ops.append({"op": "resolve", "id": mine, "result": T["bob_plan"]})
        return speak("I've shipped both. Whatever Alice picks, the schema needs drafting.",
                     [(T["bob_answer"], None)], ops, [(alice_name, "bob_on_alice", 62)])
    if (who == "charlie" and private and new_from(alice, T["ask_charlie_key"])
            and once("charlie_answered")):
        return speak("I have last month's numbers.", [(T["charlie_answer"], None)], (),
                     [(alice_name, "charlie_on_alice", 64)])
    return silent(name)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        msgs = body.get("messages", [])
        system = msgs[0]["content"] if msgs else ""
        user = msgs[1]["content"] if len(msgs) > 1 else ""
        answer = play(system, user)
        if os.environ.get("CUBICLE_SHOT_LOG"):
            with open(os.environ["CUBICLE_SHOT_LOG"], "a") as log:
                log.write(json.dumps({"system": system[:300], "user": user, "answer": answer},
                                     ensure_ascii=False) + "\n")
        out = json.dumps({
            "id": "s", "object": "chat.completion", "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": json.dumps(answer)}}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 110},
        }).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
