import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Fake } from "../test/fake";
import { world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";
import { SERVER_REFRESH_MS } from "./ServerBadge";

describe("attached to a company server", () => {
  beforeEach(() => window.history.replaceState(null, "", "#dashboard"));
  afterEach(() => vi.useRealTimers());

  it("shows no badge for a company on this computer", async () => {
    new Fake(world()).install();
    renderApp();
    await screen.findByTestId("company-name");
    await waitFor(() => expect(screen.queryByTestId("server-badge")).toBeNull());
  });

  it("says so in the header, names the server (never credentials) and refetches what others change", async () => {
    const backend = new Fake(world()).answer("connection", { server: "db.example.com:5432/acme", source: "environment", signInFailed: null }).install();
    renderApp();
    const badge = await screen.findByTestId("server-badge");
    expect(badge).toHaveTextContent("Connected to server");
    expect(badge).toHaveAttribute("title", expect.stringContaining("db.example.com:5432/acme"));

    // The server's engine posts a message: no event reaches this app, the refresh finds it.
    await screen.findByTestId("company-name");
    const before = backend.callsOf("getDashboard").length;
    await waitFor(
      () => expect(backend.callsOf("getDashboard").length).toBeGreaterThan(before),
      { timeout: SERVER_REFRESH_MS + 2_000 },
    );
  }, 15_000);
});
