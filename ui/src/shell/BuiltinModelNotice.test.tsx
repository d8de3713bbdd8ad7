import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../ipc/queries";
import type { ThoughtModelDto } from "../bindings/ThoughtModelDto";
import type { ThoughtModelKind } from "../bindings/ThoughtModelKind";
import { Fake } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { BUILTIN_MODEL, builtinProvider, company, fixedOrg, provider, builtinStatus, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const ENGLISH_NOTICE = "Employees think with the built-in offline model (SmolLM2-135M-Instruct): short, simple work only.";

/** Waits until the answer about who thinks is in (or failed), then for React to render with it. */
async function settled(client: QueryClient) {
  await waitFor(() => expect(client.getQueryState(queryKeys.thoughtModel)?.status).not.toBe("pending"));
  await screen.findByTestId("dashboard-figures");
}

/**
 * The fixed company with an OpenAI provider configured. Which model thinks is the backend's answer
 * (thought_model): here the bundled model on the company route, for everyone, unless told otherwise.
 */
function withOpenAi(org = fixedOrg()) {
  const everyone = org.employees.map((e) => e.id);
  const chats = new ChatSeed(org);
  const backend = new Fake(world(org), chats.handlers())
    .answer("listProviders", [builtinProvider(), provider("openai")])
    .answer("thoughtModel", thinking("bundled", everyone));
  return { backend, chats, everyone };
}

/** Thoughts routed to OpenAI, or on the bundled model, and who of the staff thinks with the bundled one. */
function thinking(kind: ThoughtModelKind, bundledEmployeeIds: number[], model = BUILTIN_MODEL, writesChinese = false): ThoughtModelDto {
  const providerId = kind === "provider" ? "openai" : "builtin";
  const bundledModel = kind === "bundled" ? model : BUILTIN_MODEL;
  return { company: { providerId, model: kind === "provider" ? "gpt-4.1-mini" : model, kind }, bundledModel, bundledWritesChinese: writesChinese, bundledEmployeeIds };
}

describe("the built-in model's notice", () => {
  it("tells the boss on the dashboard when the bundled model does the thinking, with the way to a better one", async () => {
    withOpenAi().backend.install();
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
    const { backend } = withOpenAi();
    backend.answer("thoughtModel", thinking("provider", []));
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { client } = renderApp();
    await settled(client);
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();

    // Alan gets the built-in model as his own backend again: the notice counts him, and only him.
    backend.answer("thoughtModel", thinking("provider", [12]));
    backend.emit({ type: "employee_updated", employeeId: 12 });
    expect(await screen.findByTestId("builtin-model-notice")).toHaveTextContent(
      "1 employee thinks with the built-in offline model (SmolLM2-135M-Instruct): short, simple work only.",
    );
  });

  it("goes away when the boss routes thoughts to a provider in Settings", async () => {
    const { backend } = withOpenAi();
    backend.on("setRoute", (route) => {
      backend.answer("thoughtModel", thinking("provider", []));
      return route;
    });
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { user } = renderApp();
    expect(await screen.findByTestId("builtin-model-notice")).toHaveTextContent(ENGLISH_NOTICE);

    window.location.hash = "#settings";
    await user.selectOptions(await screen.findByTestId("route-provider-thought"), "openai");
    await waitFor(() => expect(backend.inputsOf("setRoute")).toEqual([{ purpose: "thought", providerId: "openai", model: "gpt-4.1-mini" }]));
    window.location.hash = "#dashboard";
    await screen.findByTestId("dashboard-figures");
    await waitFor(() => expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument());
  });

  it("is not shown for a better GGUF the boss chose for the built-in runtime", async () => {
    const { backend } = withOpenAi();
    backend.answer("builtinStatus", builtinStatus({ path: "/models/qwen2.5-1.5b-instruct.Q4_K_M.gguf", custom: true }));
    backend.answer("thoughtModel", thinking("local_file", [], "qwen2.5-1.5b-instruct"));
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { client } = renderApp();
    await settled(client);
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();
  });

  it("says in a chat's header who in it thinks with the bundled model", async () => {
    const { backend, chats } = withOpenAi();
    // Alan (Engineering) and Peggy (Marketing) keep the built-in model of their own.
    backend.answer("thoughtModel", thinking("provider", [12, 32]));
    const engineering = chats.department(1);
    const frontend = chats.department(2);
    const peggy = chats.add("boss", "Peggy Olson", [32]);
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
    const { backend, chats } = withOpenAi(seed);
    const engineering = chats.department(1);
    backend.install();
    window.history.replaceState(null, "", `#chats/${engineering.id}`);
    renderApp();
    const notice = await screen.findByTestId("builtin-model-notice");
    expect(notice).toHaveTextContent(
      "这里的每个人都在使用内置离线模型（SmolLM2-135M-Instruct）思考：只适合简短、简单的工作。 它写不好中文。",
    );
    expect(within(notice).getByRole("link", { name: "换一个更好的模型 →" })).toHaveAttribute("href", "#settings/local-models");
  });

  it("does not call the Chinese poor when the built-in model serving writes it (Qwen2.5-Coder)", async () => {
    const seed = fixedOrg();
    seed.company = company({ language: "zh-CN" });
    const { backend, chats, everyone } = withOpenAi(seed);
    backend.answer("thoughtModel", thinking("bundled", everyone, "Qwen2.5-Coder-0.5B-Instruct", true));
    const engineering = chats.department(1);
    backend.install();
    window.history.replaceState(null, "", `#chats/${engineering.id}`);
    renderApp();
    const notice = await screen.findByTestId("builtin-model-notice");
    expect(notice).toHaveTextContent("这里的每个人都在使用内置离线模型（Qwen2.5-Coder-0.5B-Instruct）思考：只适合简短、简单的工作。");
    expect(notice).not.toHaveTextContent("它写不好中文");
  });

  it("stays out of the way when the backend cannot say which model thinks", async () => {
    const { backend } = withOpenAi();
    backend.failNext("thoughtModel", "storage", "disk I/O error");
    backend.install();
    window.history.replaceState(null, "", "#dashboard");
    const { client } = renderApp();
    await settled(client);
    expect(client.getQueryState(queryKeys.thoughtModel)?.status).toBe("error");
    expect(screen.queryByTestId("builtin-model-notice")).not.toBeInTheDocument();
  });
});
