// The demo company of the dev mock (/mock.html) and of the zh-CN walkthrough test: the fixed
// org with providers, spend, minds, tools, people, mail, work, meetings, approvals and (on
// request) a secretary conversation with every kind of card. Dev and tests only.
import { FakeBackend } from "./memory/fakeBackend";
import { company, fixedOrg, provider, sampleSpend } from "../test/fakeFixtures";
import { seedDemoApprovals } from "./demoApprovals";
import { seedDemoMail } from "./demoMail";
import { seedDemoMeetings } from "./demoMeetings";
import { seedDemoMinds } from "./demoMinds";
import { seedDemoProxies } from "./demoProxies";
import { seedDemoTools } from "./demoTools";
import { seedDemoWork } from "./demoWork";

/** What the mock's address asks for (`?lang=zh-CN&chat&nomail…`): see mockMain.tsx. */
export interface DemoOptions {
  language: "en" | "zh-CN";
  /** Flags from the address: new, empty, nospend, nomodel, custommodel, nomail, nowork, noapprovals, chat. */
  has: (flag: string) => boolean;
}

/** The demo company, installed as the IPC backend. */
export function demoBackend({ language, has }: DemoOptions): FakeBackend {
  const seed = has("new")
    ? {}
    : has("empty")
      ? { company: company({ language }), departments: [], employees: [] }
      : { ...fixedOrg(), company: company({ language }) };
  // Installed before seeding: what the seeding emits goes through the IPC mock like any event.
  const backend = new FakeBackend(seed).install();
  backend.providers.push(
    provider("openai", { hasKey: true, keySource: "keychain", models: ["gpt-4.1-mini", "gpt-4.1"] }),
    provider("deepseek"),
    provider("ollama", { enabled: false }),
  );
  backend.routes = backend.routes.map((r) => (r.purpose === "thought" ? { ...r, providerId: "openai", model: "gpt-4.1-mini" } : r));
  if (!has("nospend")) backend.spend = sampleSpend();
  if (has("nomodel")) backend.builtin = { ...backend.builtin, installed: false, sizeBytes: null };
  if (has("custommodel")) {
    backend.builtin = { ...backend.builtin, path: "/home/ada/models/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", sizeBytes: 397_808_192, custom: true };
  }
  if (!has("new") && !has("empty")) {
    seedDemoMinds(backend);
    seedDemoTools(backend);
    // Settings → People: Lin Chen answers for Marketing, Sam Ortiz for Engineering (Frontend too) and for Nikola Tesla.
    backend.call("invite_person", { input: { name: "Lin Chen", role: "Head of Marketing", language: "zh-CN", approvalPolicy: "manual", departments: [3], employees: [] } });
    backend.call("invite_person", { input: { name: "Sam Ortiz", role: "Head of Engineering", language: null, approvalPolicy: null, departments: [1], employees: [41] } });
    if (!has("nomail")) seedDemoMail(backend);
    // After the mail: the REST-vs-GraphQL report is the newest item. ?nowork: an empty board and no traces.
    if (!has("nowork")) {
      seedDemoWork(backend, { mail: !has("nomail") });
      seedDemoMeetings(backend, { mail: !has("nomail") });
    }
    // After the work: its traces keep their ids (#traces/tr-a1b2c3d4e501 is the REST-vs-GraphQL story).
    if (!has("noapprovals")) seedDemoApprovals(backend);
    // Last, so the ids of everything above stay as they were: Lin's and Sam's proxies, the company server.
    seedDemoProxies(backend, language);
  }
  if (has("chat") && backend.company) {
    // A conversation with a status answer, an applied hire (Undo running), a cancelled card and pending proposals.
    const say = (text: string) => backend.call("secretary_say", { input: { text } });
    // Confirmed or cancelled right after a turn that proposed one.
    const lastAction = () => backend.secretaryMessages.at(-1)?.actions[0]?.id ?? -1;
    const zh = language === "zh-CN";
    say(zh ? "公司现在怎么样？" : "How is the company doing?");
    say(zh ? "招一个前端工程师，叫Bob，进Engineering" : "Hire a frontend engineer named Bob into Engineering");
    backend.call("secretary_confirm", { input: { actionId: lastAction(), edits: null } });
    say(zh ? "新建一个叫Research的部门" : "Create a department called Research");
    backend.call("secretary_cancel", { input: { actionId: lastAction() } });
    say(zh ? "把Alan调到Marketing" : "Move Alan Turing to Marketing");
    say(zh ? "开除Peggy Olson" : "Fire Peggy Olson");
    say(zh ? "帮我给Marketing招一个设计师" : "Hire a designer for Marketing");
  }
  return backend;
}
