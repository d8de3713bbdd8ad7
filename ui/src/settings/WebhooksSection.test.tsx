import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Fake } from "../test/fake";
import { world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";
import { destinationOf } from "./webhooks";

/** The stored list is what the last save sent (the Rust side normalises; the UI already sends hosts). */
async function openSettings(hosts: string[] = [], configure?: (b: Fake) => void) {
  const stored = { hosts };
  const backend = new Fake(world())
    .on("webhookDestinations", () => stored)
    .on("setWebhookDestinations", (input) => {
      stored.hosts = input.hosts;
      return stored;
    });
  configure?.(backend);
  backend.install();
  const rendered = renderApp();
  await rendered.user.click(await screen.findByTestId("nav-settings"));
  const section = await screen.findByTestId("settings-section-webhooks");
  return { ...rendered, backend, section, stored };
}

describe("webhook destinations", () => {
  it("reads a pasted URL as its host and port only, and refuses what is not a host", () => {
    expect(destinationOf("https://Hooks.Slack.com/services/T0/B0/secret?x=1")).toBe("hooks.slack.com");
    expect(destinationOf(" open.feishu.cn:8443 ")).toBe("open.feishu.cn:8443");
    expect(destinationOf("http://127.0.0.1:9/hook")).toBe("127.0.0.1:9");
    expect(destinationOf("ftp://files.example.com")).toBeNull();
    expect(destinationOf("")).toBeNull();
    expect(destinationOf("not a host")).toBeNull();
  });

  it("starts empty, saying every webhook is refused until a host is allowed", async () => {
    const { section } = await openSettings();
    expect(await within(section).findByTestId("webhooks-empty")).toHaveTextContent("every webhook is refused");
  });

  it("allows a pasted webhook URL by its host, keeps the secret out, and removes it again", async () => {
    const { user, backend, section, stored } = await openSettings(["open.feishu.cn"]);
    expect(await within(section).findByText("open.feishu.cn")).toBeInTheDocument();

    await user.type(within(section).getByTestId("webhook-host"), "https://hooks.slack.com/services/T0/B0/xoxb-hidden-token");
    await user.click(within(section).getByTestId("webhook-add"));
    await waitFor(() => expect(backend.inputsOf("setWebhookDestinations")).toEqual([{ hosts: ["open.feishu.cn", "hooks.slack.com"] }]));
    expect(await within(section).findByText("hooks.slack.com")).toBeInTheDocument();
    expect(within(section).getByTestId("webhook-host")).toHaveValue("");
    expect(JSON.stringify(backend.calls)).not.toContain("xoxb-hidden-token");

    await user.click(within(section).getByRole("button", { name: "Stop allowing open.feishu.cn" }));
    await waitFor(() => expect(backend.inputsOf("setWebhookDestinations").at(-1)).toEqual({ hosts: ["hooks.slack.com"] }));
    expect(stored.hosts).toEqual(["hooks.slack.com"]);
    await waitFor(() => expect(within(section).queryByText("open.feishu.cn")).not.toBeInTheDocument());
  });

  it("refuses input that is not a host, or one already allowed, without calling the backend", async () => {
    const { user, backend, section } = await openSettings(["hooks.slack.com"]);
    const input = await within(section).findByTestId("webhook-host");
    await user.type(input, "ftp://files.example.com");
    await user.click(within(section).getByTestId("webhook-add"));
    expect(within(section).getByRole("alert")).toHaveTextContent("“ftp://files.example.com” is not a host name");
    expect(input).toHaveAttribute("aria-invalid", "true");

    await user.clear(input);
    await user.type(input, "HOOKS.slack.com");
    await user.click(within(section).getByTestId("webhook-add"));
    expect(within(section).getByRole("alert")).toHaveTextContent("hooks.slack.com is already allowed.");
    expect(backend.callsOf("setWebhookDestinations")).toHaveLength(0);
  });

  it("shows the backend's refusal and keeps the list", async () => {
    const { user, backend, section, stored } = await openSettings(["hooks.slack.com"], (b) => b.failNext("setWebhookDestinations", "storage", "disk full"));
    await user.type(await within(section).findByTestId("webhook-host"), "oapi.dingtalk.com");
    await user.click(within(section).getByTestId("webhook-add"));
    expect(await within(section).findByRole("alert")).toBeInTheDocument();
    expect(backend.inputsOf("setWebhookDestinations")).toEqual([{ hosts: ["hooks.slack.com", "oapi.dingtalk.com"] }]);
    expect(stored.hosts).toEqual(["hooks.slack.com"]);
    expect(within(section).getByText("hooks.slack.com")).toBeInTheDocument();
    expect(within(section).getByTestId("webhook-host")).toHaveValue("oapi.dingtalk.com");
  });
});
