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
//                       ?custommodel for a model file chosen in Settings); #settings/people: the boss, Lin Chen and Sam Ortiz;
//                       #proxy: their proxies; #settings/server signs in to the demo server (see demoProxies.ts)
//   add &lang=zh-CN for Chinese; &click=<data-testid> (repeatable) clicks elements once rendered,
//   e.g. ?click=employee-card-12 to open the side panel (handy for headless screenshots)
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "@xyflow/react/dist/style.css";
import "../index.css";
import { App } from "../App";
import { AppProviders, createQueryClient } from "../providers";
import { demoBackend } from "./demoCompany";

const params = new URLSearchParams(window.location.search);
demoBackend({ language: params.get("lang") === "zh-CN" ? "zh-CN" : "en", has: (flag) => params.has(flag) });

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
