// Dev only: a lived-in mailbox for the fixed company of test/fixtures (fixedOrg), so /mock.html#mailbox
// shows reports in the employees' own words, an escalation, a budget stop and a digest. Seed it after
// seedDemoMinds: the reports point at the chats it makes.
import type { FakeBackend } from "./memory/fakeBackend";

export function seedDemoMail(backend: FakeBackend): void {
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const bossChat = (employeeId: number) => backend.chats.find((c) => c.kind === "boss" && c.memberIds.includes(employeeId))?.id ?? null;
  const engineering = backend.departmentChat(1)?.id ?? null;
  const frontend = backend.departmentChat(2)?.id ?? null;
  const marketing = backend.departmentChat(3)?.id ?? null;

  backend.addReport(
    12,
    "Rate limiter is in",
    "The limiter is merged: a token bucket per user, 120 requests a minute with bursts of 20. " +
      "I checked the case that worried me, a burst straddling two windows, and it holds.\n\n" +
      "Linus still thinks this belongs in the proxy. He may be right in the long run; for the demo, the gateway is the simpler place. " +
      "Load test numbers are in the Engineering chat.",
    { chatId: bossChat(12), createdAt: ago(4) },
  );
  backend.addEscalation(
    13,
    "Overdue: load test for the login service",
    "Linus Torvalds took \"Run the load test against the login service\" 47 minutes ago and has not reported back. " +
      "The task is past its 30-minute mark.",
    { chatId: engineering, createdAt: ago(17) },
  );
  backend.addReport(
    22,
    "登录页两个方案已完成",
    "两个登录页方案都做完了：A 方案保留现有布局，只改了配色；B 方案把第三方登录挪到了最上面。\n" +
      "下午的设计评审我会都带上，个人更推荐 B，转化应该会更好。",
    { chatId: frontend, createdAt: ago(80) },
  );
  backend.addReport(
    32,
    "Two taglines for the launch",
    "Here they are:\n\n1. \"Your company, minus the meetings.\"\n2. \"Hire in a sentence. Ship by Friday.\"\n\n" +
      "I like the second; Don likes the first. I'd rather you decide than the two of us arguing about commas again.",
    { chatId: marketing, createdAt: ago(60 * 24), status: "read" },
  );
  backend.addBudgetStop({ createdAt: ago(60 * 27), status: "read" });
  backend.addMail("digest", {
    title: "Yesterday at Northwind Labs",
    body: "5 tasks finished, 1 ran late. 142 model calls for $18.40 of a $20.00 budget. Busiest chat: Engineering (38 messages).",
    createdAt: ago(60 * 30),
    status: "read",
  });
  backend.addReport(11, "Hiring plan for Q2", "Two more backend engineers and one SRE. Job descriptions are drafted; I'd like your go-ahead before they go out.", {
    chatId: bossChat(11),
    createdAt: ago(60 * 50),
    status: "archived",
  });
}
