// Dev only: requirements, task trees and traces for the fixed company of test/fixtures (fixedOrg), so
// /mock.html#work and #traces look lived in. Seed it after seedDemoMinds (it reuses the boss chat
// with Alan) and before or after seedDemoMail (its report is filed here, under its trace).
//
// The story of the main trace: the boss asks Grace whether the public API should be REST or
// GraphQL; Grace takes it on as a task, asks Alan in #API design, Alan answers, Grace asks Linus
// for numbers in a DM, Linus's numbers come in, Grace resolves the task and reports back (a copy in
// the mailbox). Thoughts and model calls (one of them failed) sit in between.
import type { FakeBackend } from "./memory/fakeBackend";

/** `mail: false` files nothing in the mailbox (for `/mock.html?nomail`). */
export function seedDemoWork(backend: FakeBackend, { mail = true }: { mail?: boolean } = {}): void {
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const zh = backend.company?.language === "zh-CN";
  const GRACE = 11;
  const ALAN = 12;
  const LINUS = 13;

  // ---- The REST-vs-GraphQL trace ----
  const bossGrace = backend.addChat("boss", "Grace Hopper", [GRACE], { createdAt: ago(60 * 40) });
  const apiDesign = backend.addChat("requirement", "API design", [GRACE, ALAN, LINUS], { createdAt: ago(60 * 30), topic: "Public API" });
  const dm = backend.addChat("dm", "Grace Hopper · Linus Torvalds", [GRACE, LINUS], { createdAt: ago(60 * 30) });

  const instruction = zh
    ? "公开 API 用 REST 还是 GraphQL？今晚前给我一个建议。"
    : "Should our public API be REST or GraphQL? Give me a recommendation by tonight.";
  const trace = backend.addTrace(instruction, { origin: "chat", chatId: bossGrace.id, createdAt: ago(58) });
  const t = trace.id;
  backend.addTracedMessage(t, bossGrace.id, "boss", instruction, ago(58));
  const call = (employeeId: number, minutes: number, costUsd: number, tokens: number, outcome = "ok", purpose = "thought") =>
    backend.addTraceEvent(t, {
      kind: "model_call",
      at: ago(minutes),
      employeeId,
      text: `${purpose} · openai/gpt-4.1-mini`,
      costUsd,
      tokens,
      outcome,
    });
  const thought = (employeeId: number, minutes: number, chatId: number, text: string, outcome: string | null = null) =>
    backend.addTraceEvent(t, { kind: "thought", at: ago(minutes), employeeId, chatId, text, outcome });

  call(GRACE, 57, 0.0031, 2140);
  thought(GRACE, 57, bossGrace.id, "REST or GraphQL. I need Alan's view on the schema and Linus's load numbers before I answer.");
  const task = backend.addWorkTask(GRACE, "Recommend REST or GraphQL for the public API", {
    createdBy: "boss",
    createdAt: ago(57),
    traceId: t,
    status: "resolved",
    resolvedAt: ago(9),
    result: "REST with two aggregated endpoints for the dashboard; revisit GraphQL if the dashboard outgrows them.",
  });
  backend.addTracedMessage(t, bossGrace.id, GRACE, "On it — I'll get Alan's and Linus's take and come back to you tonight.", ago(57));

  call(GRACE, 55, 0.0028, 1980);
  backend.addTracedMessage(
    t,
    apiDesign.id,
    GRACE,
    "@Alan Turing the boss wants a call on REST vs GraphQL for the public API. What would the schema look like for our clients?",
    ago(55),
  );
  call(LINUS, 54, 0, 0, "error");
  thought(LINUS, 54, apiDesign.id, "Alan's question, not mine. I'll wait until someone asks for numbers.", "cooldown");
  call(ALAN, 52, 0.0042, 2960);
  thought(ALAN, 52, apiDesign.id, "Nested reads favour GraphQL, but caching and third-party clients favour REST. Say both, lean REST.");
  backend.addTracedMessage(
    t,
    apiDesign.id,
    ALAN,
    "GraphQL fits the dashboard's nested reads; REST is far simpler to cache and to document for third parties. I'd lean REST, with a couple of aggregated endpoints.",
    ago(52),
  );

  call(GRACE, 48, 0.0025, 1760);
  backend.addTracedMessage(t, dm.id, GRACE, "Linus, can you run both against staging? I need p95 latency and a cost estimate at our traffic.", ago(48));
  call(LINUS, 21, 0.0039, 2710);
  thought(LINUS, 21, dm.id, "Numbers are clear enough. GraphQL without a cache layer is three times the cost.");
  backend.addTracedMessage(
    t,
    dm.id,
    LINUS,
    "Staging numbers: REST p95 42 ms with CDN caching, GraphQL p95 118 ms uncached. At our traffic GraphQL costs about 3× more to serve.",
    ago(21),
  );

  call(GRACE, 9, 0.0034, 2380);
  call(GRACE, 9, 0.0019, 1310, "ok", "report");
  const report = zh
    ? "建议用 REST。Alan 认为 REST 更容易缓存、也更方便第三方接入；Linus 在预发环境实测：REST p95 42 毫秒，GraphQL 118 毫秒，服务成本约高 3 倍。仪表盘的嵌套查询用两个聚合接口解决，以后不够用再考虑 GraphQL。"
    : "My recommendation: REST. Alan points out it is far easier to cache and to document for third parties, and Linus measured it on staging: p95 42 ms for REST against 118 ms for GraphQL, which would also cost about 3× more to serve. Two aggregated endpoints cover the dashboard's nested reads; we can revisit GraphQL if it outgrows them.";
  backend.addTracedMessage(t, bossGrace.id, GRACE, report, ago(9));
  if (mail) backend.addReport(GRACE, zh ? "建议：公开 API 用 REST" : "Recommendation: REST for the public API", report, {
    chatId: bossGrace.id,
    taskId: task.id,
    traceId: t,
    createdAt: ago(9),
  });

  // ---- A secretary instruction ----
  const hire = backend.addTrace(zh ? "给前端部门招一个测试工程师" : "Hire a QA engineer for Frontend", { origin: "secretary", createdAt: ago(60 * 3) });
  backend.addTraceEvent(hire.id, { kind: "model_call", at: ago(60 * 3), text: "intent · openai/gpt-4.1-mini", costUsd: 0.0012, tokens: 890, outcome: "ok" });

  // ---- An instruction the loop guard stopped ----
  const offsite = backend.addTrace(zh ? "定一下团队团建的日期" : "Find a date for the team offsite", {
    origin: "chat",
    chatId: backend.departmentChat(1)?.id ?? null,
    createdAt: ago(60 * 6),
  });
  for (let i = 0; i < 6; i++) {
    backend.addTraceEvent(offsite.id, {
      kind: "model_call",
      at: ago(60 * 6 - 2 - i * 3),
      employeeId: [GRACE, ALAN, LINUS][i % 3]!,
      text: "thought · openai/gpt-4.1-mini",
      costUsd: 0.0027,
      tokens: 1900,
      outcome: i === 4 ? "budget_exceeded" : "ok",
    });
  }
  if (mail) backend.addMail("escalation", {
    employeeId: GRACE,
    title: zh ? "已暂停：定一下团队团建的日期" : "Stopped: Find a date for the team offsite",
    body: zh
      ? "这条指示已经走了 15 步（最后一步在“Engineering”，Grace Hopper），还没有结束，工作已暂停以免空转。在聊天里回复或给出新指示即可继续。"
      : 'This instruction has taken 15 steps (the last in "Engineering", by Grace Hopper) without finishing, so work on it has stopped rather than go round in circles. Reply in the chat or give a new instruction to carry on.',
    traceId: offsite.id,
    chatId: backend.departmentChat(1)?.id ?? null,
    createdAt: ago(60 * 5 - 10),
    status: "read",
  });

  // ---- The board ----
  const api = backend.addRequirement(zh ? "公开 API" : "Public API", {
    description: zh ? "给合作方的订单和发票接口，带文档和限流。" : "Orders and invoices for partners, documented and rate-limited.",
    departmentId: 1,
    status: "in_progress",
    chatId: apiDesign.id,
    reviewerId: GRACE,
    createdAt: ago(60 * 30),
  });
  task.requirementId = api.id;
  const draft = backend.addWorkTask(ALAN, "Draft the REST endpoints for orders and invoices", {
    requirementId: api.id,
    createdBy: "boss",
    createdAt: ago(60 * 29),
    status: "resolved",
    resolvedAt: ago(60 * 20),
    result: "Six endpoints drafted in the OpenAPI file: list, get and create for orders and invoices.",
  });
  backend.addWorkTask(GRACE, "Review: Draft the REST endpoints for orders and invoices", {
    requirementId: api.id,
    createdBy: "review",
    createdAt: ago(60 * 20),
    status: "resolved",
    resolvedAt: ago(60 * 19),
    reviewOf: draft.id,
    result: "Rejected: the list endpoints have no pagination.",
  });
  const rework1 = backend.addWorkTask(ALAN, "Draft the REST endpoints for orders and invoices", {
    requirementId: api.id,
    createdBy: "review",
    createdAt: ago(60 * 19),
    status: "resolved",
    resolvedAt: ago(60 * 8),
    parentTaskId: draft.id,
    attempt: 1,
    result: "Cursor pagination on both list endpoints.",
  });
  backend.addWorkTask(GRACE, "Review: Draft the REST endpoints for orders and invoices", {
    requirementId: api.id,
    createdBy: "review",
    createdAt: ago(60 * 8),
    status: "resolved",
    resolvedAt: ago(60 * 7),
    reviewOf: rework1.id,
    result: "Rejected: error codes differ between orders and invoices.",
  });
  backend.addWorkTask(ALAN, "Draft the REST endpoints for orders and invoices", {
    requirementId: api.id,
    createdBy: "review",
    createdAt: ago(60 * 7),
    parentTaskId: draft.id,
    attempt: 2,
  });
  backend.addWorkTask(LINUS, "Load test REST against GraphQL on staging", {
    requirementId: api.id,
    createdBy: "boss",
    createdAt: ago(48),
    status: "resolved",
    resolvedAt: ago(21),
    traceId: t,
    result: "REST p95 42 ms (CDN cached), GraphQL p95 118 ms uncached; GraphQL about 3× the serving cost.",
  });

  // SPEC §6 task types: one that never ends and one that waits for its condition; neither ages into urgency.
  backend.addWorkTask(LINUS, zh ? "盯着公开 API 的错误率和延迟" : "Watch the public API's error rate and latency", {
    requirementId: api.id,
    createdBy: "boss",
    createdAt: ago(60 * 6),
    kind: "long_running",
  });
  backend.addWorkTask(ALAN, zh ? "把订单接口切回旧网关" : "Switch the orders endpoints back to the old gateway", {
    requirementId: api.id,
    createdBy: "boss",
    createdAt: ago(60 * 6),
    kind: "conditional",
    condition: zh ? "p95 延迟连续 10 分钟超过 200 毫秒" : "p95 latency stays above 200 ms for 10 minutes",
  });

  const login = backend.addRequirement(zh ? "登录页改版" : "Login page redesign", {
    description: zh ? "两个方案，评审后上线转化更好的那个。" : "Two options; ship the one that converts better after review.",
    departmentId: 2,
    status: "in_progress",
    chatId: backend.departmentChat(2)?.id ?? null,
    reviewerId: 21,
    createdAt: ago(60 * 26),
  });
  const options = backend.addWorkTask(22, "登录页两个方案", {
    requirementId: login.id,
    createdBy: "boss",
    createdAt: ago(60 * 25),
    status: "resolved",
    resolvedAt: ago(80),
    result: "A 方案保留现有布局只改配色；B 方案把第三方登录挪到最上面。",
  });
  backend.addWorkTask(21, "Review: 登录页两个方案", {
    requirementId: login.id,
    createdBy: "review",
    createdAt: ago(80),
    reviewOf: options.id,
  });

  const taglines = backend.addRequirement(zh ? "发布会标语" : "Launch taglines", {
    description: zh ? "两条备选，老板拍板。" : "Two candidates for the boss to pick from.",
    departmentId: 3,
    status: "done",
    chatId: backend.departmentChat(3)?.id ?? null,
    reviewerId: 31,
    createdAt: ago(60 * 28),
  });
  const lines = backend.addWorkTask(32, "Write two taglines for the launch", {
    requirementId: taglines.id,
    createdBy: "boss",
    createdAt: ago(60 * 27),
    status: "resolved",
    resolvedAt: ago(60 * 24),
    result: '"Your company, minus the meetings." and "Hire in a sentence. Ship by Friday."',
  });
  backend.addWorkTask(31, "Review: Write two taglines for the launch", {
    requirementId: taglines.id,
    createdBy: "review",
    createdAt: ago(60 * 24),
    status: "resolved",
    resolvedAt: ago(60 * 24 - 20),
    reviewOf: lines.id,
    result: "Approved.",
  });

  backend.addRequirement(zh ? "企业客户单点登录" : "SSO for enterprise customers", {
    description: zh ? "SAML 和 OIDC，先做 Okta。" : "SAML and OIDC; Okta first.",
    departmentId: 1,
    createdAt: ago(60 * 2),
  });
  backend.addRequirement(zh ? "移动端原型" : "Mobile app prototype", {
    description: zh ? "等 API 定下来再说。" : "Parked until the API settles.",
    departmentId: 2,
    status: "cancelled",
    createdAt: ago(60 * 72),
  });
}
