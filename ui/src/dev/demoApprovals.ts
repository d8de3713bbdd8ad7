// Dev only: an approval queue for the fixed company of test/fixtures (fixedOrg), so /mock.html#approvals
// shows three actions waiting (a Feishu webhook post, a shell command, a budget raise) and a history
// with each way a decision is taken (the app, a notification, the approval policy, a rejection with a
// note, one left to expire). Seed it after seedDemoMinds: the approvals point at the chats it makes.
import type { FakeBackend } from "./memory/fakeBackend";

const FEISHU_HOOK = "https://open.feishu.cn/open-apis/bot/v2/hook/4f2c9a7e-team-release";

export function seedDemoApprovals(backend: FakeBackend): void {
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const zh = backend.company?.language === "zh-CN";
  const GRACE = 11;
  const ALAN = 12;
  const LINUS = 13;
  const MARGARET = 21;
  const DON = 31;
  const engineering = backend.departmentChat(1)?.id ?? null;
  const marketing = backend.departmentChat(3)?.id ?? null;

  const release = backend.addTrace(zh ? "2.3 版发布后通知全队" : "Tell the team when 2.3 ships", { origin: "chat", chatId: engineering, createdAt: ago(40) });
  const decided = (minutes: number) => ({ decidedAt: ago(minutes), expiresAt: ago(minutes - 60 * 24) });

  // ---- Waiting, oldest first ----
  backend.addApproval(LINUS, "post_webhook", {
    args: { url: FEISHU_HOOK, style: "feishu", text: "Release 2.3 is out 🎉" },
    summary: `POST to ${FEISHU_HOOK} (Feishu): "Release 2.3 is out 🎉"`,
    reason: zh ? "2.3 版的构建已经全部通过，老板让我发布后通知团队群。" : "The 2.3 build is green everywhere, and you asked me to tell the team channel once it ships.",
    traceId: release.id,
    chatId: engineering,
    createdAt: ago(32),
  });
  backend.addApproval(GRACE, "run_shell", {
    args: { command: "cargo test --release", cwd: "workspace/employees/2", timeoutSecs: 600 },
    summary: "cargo test --release   (in workspace/employees/2, at most 10 min)",
    reason: zh ? "发布前要在 release 模式下把整套测试再跑一遍。" : "Before we tag 2.3 I want the full suite run once in release mode, not just debug.",
    traceId: release.id,
    chatId: engineering,
    createdAt: ago(25),
  });
  backend.addApproval(DON, "raise_budget", {
    args: { dailyBudgetUsd: 5, previousUsd: 3 },
    summary: zh ? "把每日预算从 $3.00 提高到 $5.00" : "Raise the daily budget from $3.00 to $5.00",
    reason: zh ? "发布周营销文案要多跑几轮，现有预算中午就会用完。" : "Launch week: the copy needs a few more drafts than usual, and we run out of budget by noon.",
    costEstimateUsd: 2,
    chatId: marketing,
    createdAt: ago(12),
    expiresAt: ago(-90),
  });

  // ---- Decided ----
  const proposed = (name: string, employeeId: number, reason: string) => ({ who: name, employeeId, role: "proposed" as const, rule: reason, weight: null });
  const notifReason = zh ? "把新的 README 写进共享仓库。" : "Put the new README into the shared repo.";
  backend.addApproval(MARGARET, "write_file", {
    args: { path: "workspace/shared/README.md", bytes: 2048 },
    summary: "write workspace/shared/README.md (2 KB)",
    reason: notifReason,
    status: "approved",
    decidedVia: "notification",
    result: { written: "workspace/shared/README.md", bytes: 2048 },
    runStartedAt: ago(60 * 3),
    executedAt: ago(60 * 3),
    createdAt: ago(60 * 3 + 5),
    ...decided(60 * 3),
    authorizationChain: [proposed("Margaret Hamilton", MARGARET, notifReason), { who: "boss", employeeId: null, role: "decided", rule: "approved via notification", weight: null }],
  });
  const policyReason = zh ? "每晚的冒烟测试。" : "The nightly smoke test.";
  backend.addApproval(ALAN, "run_cli", {
    args: { prompt: "Run the smoke tests and summarise failures", cwd: "workspace/employees/12" },
    summary: "codex exec \"Run the smoke tests and summarise failures\"   (in workspace/employees/12)",
    reason: policyReason,
    status: "approved",
    decidedVia: "policy",
    result: "14 passed, 0 failed",
    runStartedAt: ago(60 * 9),
    executedAt: ago(60 * 9),
    createdAt: ago(60 * 9),
    ...decided(60 * 9),
    authorizationChain: [proposed("Alan Turing", ALAN, policyReason), { who: "policy", employeeId: null, role: "decided", rule: "approved via policy: auto for run_cli", weight: null }],
  });
  const rejectReason = zh ? "旧的日志占了 3 GB。" : "Old logs take 3 GB.";
  const rejectNote = zh ? "先归档，别直接删。" : "Archive them first, don't delete.";
  backend.addApproval(LINUS, "delete_file", {
    args: { path: "workspace/shared/logs/" },
    summary: "delete workspace/shared/logs/ (412 files)",
    reason: rejectReason,
    status: "rejected",
    decidedVia: "ui",
    note: rejectNote,
    createdAt: ago(60 * 20),
    ...decided(60 * 19),
    authorizationChain: [proposed("Linus Torvalds", LINUS, rejectReason), { who: "boss", employeeId: null, role: "decided", rule: `rejected via ui: ${rejectNote}`, weight: null }],
  });
  const expiredReason = zh ? "把周报发给合作方。" : "Send the weekly update to our partner.";
  backend.addApproval(DON, "post_webhook", {
    args: { url: "https://hooks.slack.com/services/T000/B000/partner", style: "slack", text: "Weekly update: launch on track" },
    summary: 'POST to https://hooks.slack.com/services/T000/B000/partner (Slack): "Weekly update: launch on track"',
    reason: expiredReason,
    status: "expired",
    createdAt: ago(60 * 50),
    decidedAt: ago(60 * 26),
    expiresAt: ago(60 * 26),
    authorizationChain: [proposed("Don Draper", DON, expiredReason)],
  });
}
