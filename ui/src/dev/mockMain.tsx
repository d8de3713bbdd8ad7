// Dev only (`npm run dev`, then open /mock.html): the real UI over the in-memory test backend,
// for working on the UI in a plain browser without the Rust side. Never part of the build.
//   /mock.html          a company with people
//   /mock.html?empty    a company without departments
//   /mock.html?new      no company yet: the first-run wizard
//   add &lang=zh-CN for Chinese; &click=<data-testid> (repeatable) clicks elements once rendered,
//   e.g. ?click=employee-card-12 to open the side panel (handy for headless screenshots)
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "@xyflow/react/dist/style.css";
import "../index.css";
import { App } from "../App";
import { AppProviders, createQueryClient } from "../providers";
import { FakeBackend } from "../test/fakeBackend";
import { company, fixedOrg } from "../test/fixtures";

const params = new URLSearchParams(window.location.search);
const language = params.get("lang") === "zh-CN" ? "zh-CN" : "en";
const seed = params.has("new")
  ? {}
  : params.has("empty")
    ? { company: company({ language }), departments: [], employees: [] }
    : { ...fixedOrg(), company: company({ language }) };
new FakeBackend(seed).install();

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
