"""A scripted OpenAI-compatible model for the documentation screenshots: it plays the
people of seed 000 (who asks whom, who answers what) from what each prompt shows, the
way a real model would answer. Not used by any test."""
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

state = {"asked_bob": False, "asked_charlie": False}


def speak(inner, messages, ops=()):
    return {
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


def play(system, user):
    name = (re.search(r"You are ([^,]+),", system) or [None, "?"])[1]
    chat = (re.search(r'chat "([^"]*)"', system) or [None, ""])[1]
    private = "the private chat" in system
    unread = [l for l in user.splitlines() if l.startswith("*[")]
    task = re.search(r"min\] #(\d+) ([^\n]*)", user)

    def new_from(sender, text):
        return any(f"] {sender}" in l and text.lower() in l.lower() for l in unread)

    if name.startswith("Alice"):
        if "Write the report yourself" in user:
            return speak(
                "Bob's view and Charlie's numbers agree; tell Ada plainly.",
                [("Ada, my recommendation: REST for the public API, GraphQL for the dashboard. "
                  "Bob likes GraphQL's flexible queries; Charlie's load test puts REST at p99 80 ms "
                  "vs 95 ms for GraphQL.", None)],
            )
        if private and new_from("Charlie", "p99") and task:
            return speak("That settles it.", [("Thanks Charlie, that's what I needed.", None)],
                         [{"op": "resolve", "id": int(task[1]),
                           "result": "REST for the public API (p99 80 ms vs 95 ms), GraphQL for the dashboard"}])
        if chat == "API design" and new_from("Bob", "GraphQL") and not state["asked_charlie"]:
            state["asked_charlie"] = True
            return speak("Bob argues flexibility; I need numbers before I recommend anything.",
                         [("Charlie, do you have performance data on REST vs GraphQL from the load tests?",
                           "Charlie Wu")])
        if task and "REST vs GraphQL" in task[2] and not state["asked_bob"]:
            state["asked_bob"] = True
            return speak("Bob built our last API; I'll ask him in the project group first.",
                         [("@Bob Martin quick one for the new API: REST or GraphQL, what would you pick and why?",
                           "#API design")])
    if name.startswith("Mia") and task and "release note" in task[2] and not state.get("asked_hook"):
        state["asked_hook"] = True
        answer = speak("Posting needs the boss's OK; I'll ask.",
                       [("Ada, the release note is ready — it goes to the team channel once you approve.", None)])
        answer["toolCalls"] = [{
            "tool": "post_webhook",
            "args": {"url": "https://open.feishu.cn/open-apis/bot/v2/hook/acme-team",
                     "text": "Release 2.3 is out: offline mode and a faster API.", "style": "feishu"},
            "reason": "the boss asked me to announce the release to the team",
        }]
        return answer
    if name.startswith("Bob") and new_from("Alice", "REST or GraphQL"):
        return speak("I've shipped both. Whatever Alice picks, the schema needs drafting.", [(
            "GraphQL: one endpoint and clients fetch exactly what they need. REST is simpler to cache.", None)],
            [{"op": "create", "description": "Draft the GraphQL schema for the dashboard"},
             {"op": "create", "type": "long_running", "description": "Watch the API latency dashboards"}])
    if name.startswith("Charlie") and private and new_from("Alice", "performance data"):
        return speak("I have last month's numbers.", [(
            "From our load test: REST p99 80 ms, GraphQL p99 95 ms with batching on.", None)])
    return silent(name)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        msgs = body.get("messages", [])
        system = msgs[0]["content"] if msgs else ""
        user = msgs[1]["content"] if len(msgs) > 1 else ""
        answer = play(system, user)
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
