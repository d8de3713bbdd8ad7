// Dev only (`npm run dev`, then open /mock.html): the real UI over the in-memory test backend,
// for working on the UI in a plain browser without the Rust side. Never part of the build.
//   /mock.html          a company with people
//   /mock.html?empty    a company without departments
//   /mock.html?new      no company yet: the first-run wizard
//   /mock.html          opens on the secretary (an empty conversation); ?chat = a conversation with every kind of card
//   /mock.html#org      the org chart
//   /mock.html#chats    the chats (#chats/1: Engineering, with unread messages and inner thoughts)
//   /mock.html#chats/<id> of "Load testing" (an open meeting: its panel with an escalated and a ruled
//                       decision) or "Launch taglines" (a closed one, with minutes); ?nowork: no meetings
//   /mock.html#mailbox  the mailbox: reports, an escalation, a budget stop (add ?nomail for an empty one)
//   /mock.html#approvals  the approval queue: 3 waiting, a history of each kind of decision (?noapprovals: empty)
//   /mock.html#work     the requirements board (?nowork: empty); #traces the instructions, e.g. the
//                       REST-vs-GraphQL story at #traces/tr-a1b2c3d4e501
//   /mock.html#relationships  the relationship graph; #employee/12 Alan Turing's profile (a CLI
//                       employee on Manual: his "Tools & approvals" card)
//   /mock.html#settings the settings page (add ?nospend for no spend, ?nomodel for a missing built-in model,
//                       ?custommodel for a model file chosen in Settings); #settings/people: the boss, Lin and Sam
//   add &lang=zh-CN for Chinese; &click=<data-testid> (repeatable) clicks elements once rendered,
//   e.g. ?click=employee-card-12 to open the side panel (handy for headless screenshots)
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "@xyflow/react/dist/style.css";
import "../index.css";
import { App } from "../App";
import { AppProviders, createQueryClient } from "../providers";
import { FakeBackend } from "./memory/fakeBackend";
import { company, fixedOrg, provider, sampleSpend } from "../test/fakeFixtures";
import { seedDemoApprovals } from "./demoApprovals";
import { seedDemoMail } from "./demoMail";
import { seedDemoMeetings } from "./demoMeetings";
import { seedDemoMinds } from "./demoMinds";
import { seedDemoTools } from "./demoTools";
import { seedDemoWork } from "./demoWork";

const params = new URLSearchParams(window.location.search);
const language = params.get("lang") === "zh-CN" ? "zh-CN" : "en";
const seed = params.has("new")
  ? {}
  : params.has("empty")
    ? { company: company({ language }), departments: [], employees: [] }
    : { ...fixedOrg(), company: company({ language }) };
const backend = new FakeBackend(seed);
backend.providers.push(
  provider("openai", { hasKey: true, keySource: "keychain", models: ["gpt-4.1-mini", "gpt-4.1"] }),
  provider("deepseek"),
  provider("ollama", { enabled: false }),
);
backend.routes = backend.routes.map((r) => (r.purpose === "thought" ? { ...r, providerId: "openai", model: "gpt-4.1-mini" } : r));
if (!params.has("nospend")) backend.spend = sampleSpend();
if (params.has("nomodel")) backend.builtin = { ...backend.builtin, installed: false, sizeBytes: null };
if (params.has("custommodel")) {
  backend.builtin = { ...backend.builtin, path: "/home/ada/models/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", sizeBytes: 397_808_192, custom: true };
}
if (!params.has("new") && !params.has("empty")) {
  seedDemoMinds(backend);
  seedDemoTools(backend);
  // Settings → People: Lin answers for Marketing, Sam for Engineering (Frontend too) and for Nikola Tesla.
  backend.handle("invite_person", { input: { name: "Lin", role: "Head of Marketing", language: "zh-CN", approvalPolicy: "manual", departments: [3], employees: [] } });
  backend.handle("invite_person", { input: { name: "Sam", role: "Head of Engineering", language: null, approvalPolicy: null, departments: [1], employees: [41] } });
  if (!params.has("nomail")) seedDemoMail(backend);
  // After the mail: the REST-vs-GraphQL report is the newest item. ?nowork: an empty board and no traces.
  if (!params.has("nowork")) {
    seedDemoWork(backend, { mail: !params.has("nomail") });
    seedDemoMeetings(backend, { mail: !params.has("nomail") });
  }
  // After the work: its traces keep their ids (#traces/tr-a1b2c3d4e501 is the REST-vs-GraphQL story).
  if (!params.has("noapprovals")) seedDemoApprovals(backend);
}
if (params.has("chat") && backend.company) {
  // A conversation with a status answer, an applied hire (Undo running), a cancelled card and pending proposals.
  const say = (text: string) => backend.handle("secretary_say", { input: { text } });
  const lastAction = () => backend.secretaryMessages.at(-1)?.actions[0]?.id;
  const zh = language === "zh-CN";
  say(zh ? "公司现在怎么样？" : "How is the company doing?");
  say(zh ? "招一个前端工程师，叫Bob，进Engineering" : "Hire a frontend engineer named Bob into Engineering");
  backend.handle("secretary_confirm", { input: { actionId: lastAction(), edits: null } });
  say(zh ? "新建一个叫Research的部门" : "Create a department called Research");
  backend.handle("secretary_cancel", { input: { actionId: lastAction() } });
  say(zh ? "把Alan调到Marketing" : "Move Alan Turing to Marketing");
  say(zh ? "开除Peggy Olson" : "Fire Peggy Olson");
  say(zh ? "帮我给Marketing招一个设计师" : "Hire a designer for Marketing");
}
backend.install();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProviders client={createQueryClient()}>
        <App />
      </AppProviders>
    </StrictMode>,
  );
}

// Scripted clicks for screenshots: each target is clicked once it appears, in order.
const clicks = params.getAll("click");
async function runClicks() {
  for (const testId of clicks) {
    for (let i = 0; i < 50; i++) {
      const el = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
      if (el) {
        el.click();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
void runClicks();
