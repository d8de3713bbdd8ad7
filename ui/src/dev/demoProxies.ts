// Dev only: the people's side of the demo company (after Lin Chen and Sam Ortiz are invited): a few turns with
// their proxies, so /mock.html#proxy shows a conversation, a line written in Lin's name and one she
// corrected; and a company server the sign-in form of #settings/server reaches:
//   postgres://lin:lin-secret@cubicle.acme.internal:5432/cubicle   (Lin's login)
//   postgres://cubicle:owner-secret@cubicle.acme.internal:5432/cubicle   (the server's own role: the boss)
// Each turn goes through the backend's say_to_proxy, as the UI sends it.
import type { FakeBackend } from "./memory/fakeBackend";

export const DEMO_SERVER = "cubicle.acme.internal:5432/cubicle";

export function seedDemoProxies(backend: FakeBackend, language: "en" | "zh-CN"): void {
  const lin = backend.people.find((p) => p.name === "Lin Chen");
  const sam = backend.people.find((p) => p.name === "Sam Ortiz");
  if (backend.company) {
    backend.companyServers.push({
      server: DEMO_SERVER,
      company: backend.company.name,
      logins: [
        { user: "cubicle", password: "owner-secret", person: null },
        ...(lin ? [{ user: "lin", password: "lin-secret", person: lin.name }] : []),
      ],
    });
  }
  if (!lin || !sam) return;
  const say = (personId: number, text: string) => backend.call("say_to_proxy", { input: { personId, text } });
  // Lin writes Chinese (her language); Sam the company's.
  say(lin.id, "告诉Don Draper周五前把发布会的标语定下来");
  say(lin.id, "告诉Sam Ortiz发布会改到下周一");
  say(sam.id, language === "zh-CN" ? "问一下Lin Chen发布会的预算定了吗" : "ask Lin Chen whether the launch budget is settled");
  say(lin.id, "回复Sam Ortiz：预算还没定，周五前给你");
  const written = backend.call("proxy_written", { input: { personId: lin.id } });
  const toSam = Array.isArray(written) ? written.find((w) => w.message.text.startsWith("预算")) : undefined;
  if (toSam) backend.call("correct_proxy_line", { input: { personId: lin.id, messageId: toSam.message.id, text: "预算周四就能定，到时发你" } });
}
