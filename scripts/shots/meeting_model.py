"""A scripted OpenAI-compatible model for the meeting screenshots: in the meeting the
boss convenes about the API roadmap, Bob proposes GraphQL, Alice (the engineering lead)
objects, Carol agrees with Bob; then each says a few plain lines until the moderator
closes. Lines in English, or in Chinese with `zh` as the second argument. Not used by any
test."""
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

ZH = len(sys.argv) > 2 and sys.argv[2] == "zh"

LINES = {
    "Bob": [
        "我们这个季度把API迁到GraphQL吧" if ZH else "Let's move the API to GraphQL this quarter.",
        "那我先把现有接口的调用量整理出来" if ZH else "I'll pull the call volumes of the current endpoints first.",
        "文档我来补" if ZH else "I can update the API docs either way.",
    ],
    "Alice": [
        "这个方案不可以，REST对我们两个客户端就够了" if ZH else "I disagree, REST is enough for our two clients.",
        "缓存层可以先加上，收益最大" if ZH else "A cache layer in front of the API gives us the most for now.",
        "下个季度再评估GraphQL" if ZH else "We can look at GraphQL again next quarter.",
    ],
    "Carol": [
        "同意，就按这个来" if ZH else "Agree with Bob, GraphQL would save the frontend a lot.",
        "前端这边两周能适配完" if ZH else "The frontend can adapt within two weeks.",
        "我会跟设计确认页面的数据需求" if ZH else "I'll check the screens' data needs with design.",
    ],
}
# The same three people in the Chinese company.
ROLE = {"王强": "Bob", "李娜": "Alice", "张伟": "Carol"}
spoken = {}


def thought(name):
    n = spoken.get(name, 0)
    spoken[name] = n + 1
    lines = LINES.get(name, [])
    if n >= len(lines):
        return {
            "innerThoughts": f"{name}: I've said my piece.",
            "shouldSpeak": False,
            "reason": "nothing new to add",
            "messages": [],
            "interestLevel": 3,
            "topicSaturation": 8,
        }
    return {
        "innerThoughts": f"{name} weighs the API roadmap (turn {n + 1}).",
        "shouldSpeak": True,
        "reason": "my turn",
        "messages": [{"content": lines[n]}],
        "interestLevel": 8,
        "topicSaturation": 2,
    }


def answer(system, user):
    if system.startswith("Write the minutes"):
        text = ("会议讨论了API路线图：GraphQL迁移被否决，先加缓存层。" if ZH
                else "The team discussed the API roadmap: the GraphQL move was rejected; a cache layer comes first.")
        return {"minutes": text}
    first = (re.search(r"You are ([^,]+),", system) or [None, "?"])[1].split()[0]
    return thought(ROLE.get(first, first))


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        msgs = body.get("messages", [])
        system = msgs[0]["content"] if msgs else ""
        user = msgs[1]["content"] if len(msgs) > 1 else ""
        out = json.dumps({
            "id": "s", "object": "chat.completion", "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": json.dumps(answer(system, user))}}],
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
