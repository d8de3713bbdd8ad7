import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../ipc/queries";
import { FakeBackend } from "../test/fakeBackend";
import { company, fixedOrg, provider } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const ENGLISH_NOTICE = "Employees think with the built-in offline model (SmolLM2-135M-Instruct): short, simple work only.";

/** Waits until the answer about who thinks is in (or failed), then for React to render with it. */
async function settled(client: QueryClient) {
  await waitFor(() => expect(client.getQueryState(queryKeys.thoughtModel)?.status).not.toBe("pending"));
  await screen.findByTestId("dashboard-figures");
}

/** The fixed company (Alan, 12, has the built-in model as his own backend) with an OpenAI provider configured. */
function withOpenAi(seed = fixedOrg()) {
  const backend = new FakeBackend(seed);
  backend.providers.push(provider("openai"));
  return backend;
}

/** Thoughts routed to OpenAI, and Alan back on the company's route: nobody thinks with the bundled model. */
function allOnOpenAi(backend: FakeBackend) {
  backend.routes = backend.routes.map((r) => (r.purpose === "thought" ? { ...r, providerId: "openai", model: "gpt-4.1-mini" } : r));
  backend.employees = backend.employees.map((e) => (e.id === 12 ? { ...e, backend: { provider: "", model: "" } } : e));
}

describe("the built-in model's notice", () => {
  it("tells the boss on the dashboard when the bundled model does the thinking, with the way to a better one", async () => {
    withOpenAi().install();
    window.history.replaceState(null, "", "#dashboard");
    const { user } = renderApp();
    const notice = await screen.findByTestId("builtin-model-notice");
    expect(notice).toHaveTextContent(ENGLISH_NOTICE);
    expect(within(notice).getByRole("link", { name: "Get a better model →" })).toHaveAttribute("href", "#settings/local-models");
    expect(within(notice).getByRole("link", { name: "Use a provider key" })).toHaveAttribute("href", "#settings/add-provider");

    await user.click(within(notice).getByRole("link", { name: "Use a provider key" }));
    expect(await screen.findByRole("dialog", { name: "Add a model provider" })).toBeInTheDocument();
    expect(screen.getByTestId("settings-page")).toBeInTheDocument();
  });

  it("is not shown once thoughts go to a provider, and comes back for those still on the bundled model", async () => {
    const backend = withOpenAi();
    allOnOpenAi(backend);
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { client } = renderApp();
    await settled(client);
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();

    // Alan gets the built-in model as his own backend again: the notice counts him, and only him.
    backend.employees = backend.employees.map((e) => (e.id === 12 ? { ...e, backend: { provider: "builtin", model: "" } } : e));
    backend.emit({ type: "employee_updated", employeeId: 12 });
    expect(await screen.findByTestId("builtin-model-notice")).toHaveTextContent(
      "1 employee thinks with the built-in offline model (SmolLM2-135M-Instruct): short, simple work only.",
    );
  });

  it("goes away when the boss routes thoughts to a provider in Settings", async () => {
    const backend = withOpenAi();
    backend.employees = backend.employees.map((e) => (e.id === 12 ? { ...e, backend: { provider: "", model: "" } } : e));
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { user } = renderApp();
    expect(await screen.findByTestId("builtin-model-notice")).toHaveTextContent(ENGLISH_NOTICE);

    window.location.hash = "#settings";
    await user.selectOptions(await screen.findByTestId("route-provider-thought"), "openai");
    await waitFor(() => expect(backend.callsOf("set_route")).toHaveLength(1));
    window.location.hash = "#dashboard";
    await screen.findByTestId("dashboard-figures");
    await waitFor(() => expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument());
  });

  it("is not shown for a better GGUF the boss chose for the built-in runtime", async () => {
    const backend = withOpenAi();
    backend.builtin = { ...backend.builtin, path: "/models/qwen2.5-1.5b-instruct.Q4_K_M.gguf", custom: true };
    backend.employees = backend.employees.map((e) => (e.id === 12 ? { ...e, backend: { provider: "", model: "" } } : e));
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { client } = renderApp();
    await settled(client);
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();
  });

  it("says in a chat's header who in it thinks with the bundled model", async () => {
    const backend = withOpenAi();
    allOnOpenAi(backend);
    // Alan (Engineering) and Peggy (Marketing) keep the built-in model of their own.
    backend.employees = backend.employees.map((e) => (e.id === 12 || e.id === 32 ? { ...e, backend: { provider: "builtin", model: "" } } : e));
    const engineering = backend.departmentChat(1)!;
    const frontend = backend.departmentChat(2)!;
    const peggy = backend.addChat("boss", "Peggy Olson", [32]);
    backend.install();

    window.history.replaceState(null, "", `#chats/${engineering.id}`);
    const { user } = renderApp();
    await screen.findByTestId("chat-view");
    expect(await screen.findByTestId("builtin-model-notice")).toHaveTextContent(
      "Alan Turing thinks with the built-in offline model (SmolLM2-135M-Instruct): short, simple work only.",
    );

    await user.click(await screen.findByTestId(`chat-item-${peggy.id}`));
    await waitFor(() => expect(screen.getByTestId("chat-title")).toHaveTextContent("Peggy Olson"));
    expect(screen.getByTestId("builtin-model-notice")).toHaveTextContent("Peggy Olson thinks with the built-in offline model");

    await user.click(await screen.findByTestId(`chat-item-${frontend.id}`));
    await waitFor(() => expect(screen.getByTestId("chat-title")).toHaveTextContent("Frontend"));
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();
  });

  it("speaks for everyone in a chat where all think with it, and in Chinese for a Chinese company", async () => {
    const seed = fixedOrg();
    seed.company = company({ language: "zh-CN" });
    const backend = new FakeBackend(seed);
    const engineering = backend.departmentChat(1)!;
    backend.install();
    window.history.replaceState(null, "", `#chats/${engineering.id}`);
    renderApp();
    const notice = await screen.findByTestId("builtin-model-notice");
    expect(notice).toHaveTextContent(
      "这里的每个人都在使用内置离线模型（SmolLM2-135M-Instruct）思考：只适合简短、简单的工作。 它写不好中文。",
    );
    expect(within(notice).getByRole("link", { name: "换一个更好的模型 →" })).toHaveAttribute("href", "#settings/local-models");
  });

  it("stays out of the way when the backend cannot say which model thinks", async () => {
    const backend = withOpenAi();
    backend.failures.set("thought_model", { code: "storage", message: "disk I/O error" });
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { client } = renderApp();
    await settled(client);
    expect(client.getQueryState(queryKeys.thoughtModel)?.status).toBe("error");
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();
  });
});
