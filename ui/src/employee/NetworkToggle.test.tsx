import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import { Fake } from "../test/fake";
import { company, fixedOrg, people, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** Alan Turing (12) may run shell commands; his sandbox has no network until the boss allows it. */
function alansProfile(allowed = false) {
  const org = fixedOrg();
  const alan = org.employees.find((e) => e.id === 12)!;
  alan.toolWhitelist = ["read_file", "run_shell"];
  window.location.hash = "#employee/12";
  const network = { allowed };
  const backend = new Fake(world(org), people(org))
    .on("employeeNetworkAccess", () => network.allowed)
    .on("setEmployeeNetworkAccess", (input) => {
      network.allowed = input.allowed;
      return null;
    });
  return { backend, org, alan, network };
}

const toggle = () => screen.getByRole("switch", { name: "Let Alan Turing's commands use the network" });

describe("an employee's sandbox network", () => {
  it("is off by default, says what switching it on allows, and saves the switch at once", async () => {
    const { backend, network } = alansProfile();
    backend.install();
    let release = () => {};
    backend.hold("setEmployeeNetworkAccess", new Promise<void>((r) => (release = r)));
    const { user } = renderApp();
    const section = await screen.findByTestId("network-access");
    expect(toggle()).toHaveAttribute("aria-checked", "false");
    expect(within(section).getByTestId("network-state")).toHaveTextContent("Off");
    expect(toggle()).toHaveAccessibleDescription(/Off by default.*a prompt-injected command could send your files anywhere/);

    await user.click(toggle());
    // While it is being saved the switch is locked: a second click cannot race the first.
    expect(toggle()).toBeDisabled();
    release();
    await waitFor(() => expect(toggle()).toHaveAttribute("aria-checked", "true"));
    expect(screen.getByTestId("network-state")).toHaveTextContent("On");
    expect(backend.inputsOf("setEmployeeNetworkAccess")).toEqual([{ employeeId: 12, allowed: true }]);
    expect(network.allowed).toBe(true);

    await waitFor(() => expect(toggle()).toBeEnabled());
    await user.click(toggle());
    await waitFor(() => expect(toggle()).toHaveAttribute("aria-checked", "false"));
    expect(backend.inputsOf("setEmployeeNetworkAccess")).toEqual([
      { employeeId: 12, allowed: true },
      { employeeId: 12, allowed: false },
    ]);
    expect(network.allowed).toBe(false);
    // The rest of the card is not touched by the switch.
    expect(backend.inputsOf("setEmployeeTools")).toEqual([]);
  });

  it("keeps the old setting and says why when switching fails", async () => {
    const { backend, network } = alansProfile();
    backend.install().failNext("setEmployeeNetworkAccess", "storage", "database is locked");
    const { user } = renderApp();
    await screen.findByTestId("network-access");
    await user.click(toggle());
    expect(await screen.findByTestId("network-save-error")).toHaveTextContent("The company data could not be read or saved.");
    expect(toggle()).toHaveAttribute("aria-checked", "false");
    expect(network.allowed).toBe(false);
  });

  it("shows a load failure with a retry, and a switch that cannot be used for someone who left", async () => {
    const { backend, alan } = alansProfile(true);
    backend.failNext("employeeNetworkAccess", "storage", "locked");
    alan.status = "fired";
    alan.firedAt = "2026-11-30T10:00:00Z";
    backend.install();
    const { user } = renderApp();
    const failed = await screen.findByTestId("network-load-error");
    expect(failed).toHaveTextContent("The company data could not be read or saved.");
    await user.click(within(failed).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(toggle()).toHaveAttribute("aria-checked", "true"));
    expect(toggle()).toBeDisabled();
  });

  it("reads in Chinese", async () => {
    const { backend, org } = alansProfile();
    org.company = company({ language: "zh-CN" });
    backend.install();
    await i18n.changeLanguage("zh-CN");
    renderApp();
    const section = await screen.findByTestId("network-access");
    expect(screen.getByRole("switch", { name: "允许Alan Turing的命令访问网络" })).toHaveAttribute("aria-checked", "false");
    expect(within(section).getByTestId("network-state")).toHaveTextContent("关");
    expect(within(section).getByTestId("network-hint")).toHaveTextContent("被提示注入的命令可能把你的文件发送到任何地方");
  });
});
