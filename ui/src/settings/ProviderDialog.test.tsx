import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { Purpose } from "../bindings/Purpose";
import { Fake, ipcError } from "../test/fake";
import { builtinProvider, builtinStatus, company, defaultPrices, defaultRoutes, emptySpend, fixedOrg, provider, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const KEY = "sk-deepseek-0123456789abcdef";

/**
 * Providers and routes as the backend holds them. `listBuiltinPurposes` and
 * `useProviderForBuiltinPurposes` answer by the core's rule (tested in Rust): the purposes
 * whose route is the built-in model, privacy only for a provider on this computer.
 */
function providersServer(zh = false) {
  const org = zh ? { ...fixedOrg(), company: company({ language: "zh-CN" }) } : fixedOrg();
  const state = {
    providers: [builtinProvider()] as ProviderDto[],
    routes: defaultRoutes(),
  };
  const find = (id: string) => state.providers.find((p) => p.id === id) ?? ipcError("not_found", `provider ${id}`);
  const onBuiltin = (p: ProviderDto): Purpose[] =>
    state.routes.filter((r) => r.providerId === "builtin" && (r.purpose !== "privacy" || p.onThisComputer)).map((r) => r.purpose);
  const backend = new Fake(world(org), {
    listProviders: () => state.providers,
    saveProvider: (input) => {
      const p = provider(input.preset, { ...input, id: input.preset });
      state.providers.push(p);
      return p;
    },
    setProviderKey: ({ providerId }) => Object.assign(find(providerId), { hasKey: true, keySource: "keychain" as const }),
    builtinStatus: () => builtinStatus(),
    getRoutes: () => state.routes,
    setRoute: (route) => {
      state.routes = state.routes.map((r) => (r.purpose === route.purpose ? route : r));
      return route;
    },
    listBuiltinPurposes: ({ providerId }) => onBuiltin(find(providerId)),
    useProviderForBuiltinPurposes: ({ providerId }) => {
      const p = find(providerId);
      const purposes = onBuiltin(p);
      state.routes = state.routes.map((r) => (purposes.includes(r.purpose) ? { purpose: r.purpose, providerId: p.id, model: p.defaultModel } : r));
      backend.emit({ type: "providers_changed" });
      return state.routes.filter((r) => purposes.includes(r.purpose));
    },
    listPrices: () => defaultPrices(),
    getSpend: () => emptySpend(),
  });
  backend.install();
  return { backend, state };
}

async function openAddDialog() {
  window.history.replaceState(null, "", "#settings");
  const rendered = renderApp();
  await rendered.user.click(await screen.findByTestId("add-provider-button"));
  const dialog = await screen.findByTestId("provider-dialog");
  await within(dialog).findByTestId("provider-preset-select");
  return { ...rendered, dialog };
}

/** Everything the app keeps: the DOM with field values, and the query and mutation caches. */
function everything(client: ReturnType<typeof renderApp>["client"]): string {
  const values = Array.from(document.querySelectorAll("input, textarea, select")).map((el) => (el as HTMLInputElement).value);
  const queries = client.getQueryCache().getAll().map((q) => ({ key: q.queryKey, state: q.state }));
  const mutations = client.getMutationCache().getAll().map((m) => ({ vars: m.state.variables, data: m.state.data }));
  return document.documentElement.outerHTML + values.join("\n") + JSON.stringify({ queries, mutations });
}

describe("adding a provider makes it ready", () => {
  it("takes the key in the same dialog, then switches every built-in purpose in one click", async () => {
    const { backend, state } = providersServer();
    const { user, dialog, client } = await openAddDialog();

    await user.selectOptions(within(dialog).getByTestId("provider-preset-select"), "deepseek");
    const keyField = within(dialog).getByTestId("provider-key-field");
    expect(keyField).toHaveAttribute("type", "password");
    expect(within(dialog).getByText("API key")).toBeInTheDocument();
    await user.type(keyField, KEY);
    await user.click(within(dialog).getByTestId("provider-submit"));

    // The provider is saved without the key; the key goes to the keychain in its own call.
    await waitFor(() => expect(backend.inputsOf("setProviderKey")).toEqual([{ providerId: "deepseek", key: KEY }]));
    expect(JSON.stringify(backend.inputsOf("saveProvider"))).not.toContain(KEY);

    const offer = await screen.findByTestId("provider-offer");
    expect(screen.getByTestId("provider-dialog")).toHaveTextContent("DeepSeek is added");
    expect(screen.getByTestId("provider-added-key-saved")).toHaveTextContent("The key is saved in this computer's keychain.");
    expect(offer).toHaveTextContent("Use DeepSeek for the work now on the built-in model?");
    const offered = within(offer)
      .getAllByRole("listitem")
      .map((li) => li.getAttribute("data-purpose"));
    // Privacy stays: DeepSeek is not on this computer (and privacy had no model).
    expect(offered).toEqual(["intent", "thought", "summary", "report"]);
    expect(offer).toHaveTextContent("Intent parsing");
    expect(offer).toHaveTextContent("Employee thought");
    expect(offer).toHaveTextContent("deepseek-chat");
    expect(everything(client)).not.toContain(KEY);

    await user.click(screen.getByTestId("provider-offer-accept"));
    await waitFor(() => expect(screen.queryByTestId("provider-dialog")).not.toBeInTheDocument());
    expect(backend.inputsOf("useProviderForBuiltinPurposes")).toEqual([{ providerId: "deepseek" }]);
    expect(backend.callsOf("setRoute")).toHaveLength(0);
    for (const purpose of ["intent", "thought", "summary", "report"]) {
      await waitFor(() => expect(screen.getByTestId(`route-provider-${purpose}`)).toHaveValue("deepseek"));
      expect(screen.getByTestId(`route-model-${purpose}`)).toHaveValue("deepseek-chat");
    }
    expect(state.routes.find((r) => r.purpose === "privacy")).toEqual({ purpose: "privacy", providerId: "", model: "" });
    expect(everything(client)).not.toContain(KEY);
  });

  it("says “not now” and changes nothing", async () => {
    const { backend } = providersServer();
    const { user, dialog } = await openAddDialog();
    await user.selectOptions(within(dialog).getByTestId("provider-preset-select"), "deepseek");
    await user.click(within(dialog).getByTestId("provider-submit"));
    await screen.findByTestId("provider-offer");
    // No key typed: no keychain call, and no claim that one was saved.
    expect(backend.callsOf("setProviderKey")).toHaveLength(0);
    expect(screen.queryByTestId("provider-added-key-saved")).not.toBeInTheDocument();
    await user.click(screen.getByTestId("provider-offer-skip"));
    await waitFor(() => expect(screen.queryByTestId("provider-dialog")).not.toBeInTheDocument());
    expect(backend.callsOf("useProviderForBuiltinPurposes")).toHaveLength(0);
    expect(screen.getByTestId("route-provider-intent")).toHaveValue("builtin");
  });

  it("closes by itself when nothing is on the built-in model", async () => {
    const { backend } = providersServer();
    const before = defaultRoutes().map((r) => (r.purpose === "privacy" ? r : { ...r, providerId: "openai", model: "gpt-4.1-mini" }));
    backend.on("getRoutes", () => before).on("listBuiltinPurposes", () => []);
    const { user, dialog } = await openAddDialog();
    await user.selectOptions(within(dialog).getByTestId("provider-preset-select"), "deepseek");
    await user.click(within(dialog).getByTestId("provider-submit"));
    await waitFor(() => expect(screen.queryByTestId("provider-dialog")).not.toBeInTheDocument());
    expect(backend.callsOf("listBuiltinPurposes")).toHaveLength(1);
  });

  it("keeps the provider and says what to do when the keychain refuses the key", async () => {
    const { backend } = providersServer();
    backend.failNext("setProviderKey", "secret_unavailable", `no OS keychain is available; rejected ${KEY}`);
    const { user, dialog, client } = await openAddDialog();
    await user.selectOptions(within(dialog).getByTestId("provider-preset-select"), "deepseek");
    await user.type(within(dialog).getByTestId("provider-key-field"), KEY);
    await user.click(within(dialog).getByTestId("provider-submit"));

    const keyError = await screen.findByTestId("provider-added-key-error");
    expect(keyError).toHaveTextContent("CUBICLE_API_KEY_DEEPSEEK");
    expect(screen.getByTestId("provider-offer")).toBeInTheDocument();
    expect(everything(client)).not.toContain(KEY);
  });

  it("offers the same in Chinese (zh-CN)", async () => {
    providersServer(true);
    await i18n.changeLanguage("zh-CN");
    try {
      const { user, dialog } = await openAddDialog();
      await user.selectOptions(within(dialog).getByTestId("provider-preset-select"), "deepseek");
      expect(within(dialog).getByText("API 密钥")).toBeInTheDocument();
      await user.type(within(dialog).getByTestId("provider-key-field"), KEY);
      await user.click(within(dialog).getByTestId("provider-submit"));
      const offer = await screen.findByTestId("provider-offer");
      expect(screen.getByTestId("provider-dialog")).toHaveTextContent("已添加 DeepSeek");
      expect(offer).toHaveTextContent("让 DeepSeek 接手目前由内置模型负责的工作？");
      expect(screen.getByTestId("provider-offer-accept")).toHaveTextContent("全部改用 DeepSeek");
    } finally {
      await i18n.changeLanguage("en");
    }
  });
});

describe("default models", () => {
  it("never cuts a provider's label: the column takes the longest label, and the select says it whole", async () => {
    providersServer();
    window.history.replaceState(null, "", "#settings");
    renderApp();
    const select = await screen.findByTestId("route-provider-thought");
    // A select cannot wrap: it sizes to its widest option (max-content) and carries the label as its title.
    expect(select.className).toContain("min-w-max");
    expect(select).toHaveAttribute("title", "Built-in (offline) · free");
    expect(screen.getByTestId("route-row-thought").className).toContain("_auto_");
  });
});
