import { screen, waitFor } from "@testing-library/react";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { FakeBackend } from "./memory/fakeBackend";

/**
 * /mock.html as a browser opens it: its entry renders the real app over the demo company. Every page
 * it links to loads without an error state, and the in-memory backend answers every command the
 * pages send (none is refused as unknown).
 */
describe("the mock page", () => {
  it("renders every page of the demo company without an error", { timeout: 60_000 }, async () => {
    const refused: unknown[] = [];
    const handle = FakeBackend.prototype.handle;
    FakeBackend.prototype.handle = function (cmd, args) {
      try {
        const answer = handle.call(this, cmd, args);
        if (answer instanceof Promise) return answer.catch((e: unknown) => (refused.push({ cmd, e }), Promise.reject(e)));
        return answer;
      } catch (e) {
        refused.push({ cmd, e });
        throw e;
      }
    };
    document.body.innerHTML = '<div id="root"></div>';
    await act(async () => {
      await import("./mockMain");
    });
    const pages = ["secretary", "dashboard", "org", "chats", "chats/1", "mailbox", "approvals", "work", "traces", "relationships", "proxy", "employee/12"];
    const settings = ["settings", "settings/providers", "settings/local-models", "settings/people", "settings/server", "settings/bundle"];
    const failed: Record<string, string> = {};
    for (const page of [...pages, ...settings]) {
      await act(async () => {
        window.location.hash = page;
      });
      await waitFor(() => expect(screen.queryAllByRole("status").filter((s) => s.textContent?.includes("Loading"))).toHaveLength(0), { timeout: 3000 });
      await act(() => new Promise((r) => setTimeout(r, 30)));
      const errors = screen.queryAllByTestId("error-state");
      if (errors.length > 0) failed[page] = errors.map((e) => e.textContent).join(" | ");
    }
    FakeBackend.prototype.handle = handle;
    expect(failed).toEqual({});
    expect(refused).toEqual([]);
  });
});
