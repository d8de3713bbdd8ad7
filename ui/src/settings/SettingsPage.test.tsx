import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { TestResult } from "../bindings/TestResult";
import { Fake, ipcError } from "../test/fake";
import {
  PRESETS,
  builtinProvider,
  builtinModels,
  builtinStatus,
  defaultPrices,
  defaultRoutes,
  emptySpend,
  fixedOrg,
  provider,
  sampleSpend,
  world,
} from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/**
 * Settings as the backend holds them, and commands that store what the UI sent (the checks are
 * core's, tested in Rust; a refusal is scripted where a test needs one).
 */
function settingsServer() {
  const org = fixedOrg();
  const company = org.company!;
  const state = {
    providers: [builtinProvider()] as ProviderDto[],
    builtin: builtinStatus(),
    routes: defaultRoutes(),
    prices: defaultPrices(),
    spend: emptySpend(),
    /** Canned connection tests by provider id; otherwise it connects. */
    tests: new Map<string, TestResult>(),
  };
  const find = (id: string) => state.providers.find((p) => p.id === id) ?? ipcError("not_found", `provider ${id}`);
  const backend = new Fake(world(org), {
    listProviders: () => state.providers,
    saveProvider: (input) => {
      if (input.id !== null) return Object.assign(find(input.id), { ...input, id: input.id });
      const p = provider(input.preset, { ...input, id: input.name.toLowerCase().replace(/[^a-z0-9]+/g, "-") });
      state.providers.push(p);
      return p;
    },
    deleteProvider: ({ providerId }) => {
      state.providers = state.providers.filter((p) => p.id !== providerId);
      return null;
    },
    setProviderKey: ({ providerId }) => Object.assign(find(providerId), { hasKey: true, keySource: "keychain" as const }),
    deleteProviderKey: ({ providerId }) => Object.assign(find(providerId), { hasKey: false, keySource: "none" as const }),
    testProvider: ({ providerId, model }) =>
      state.tests.get(providerId) ?? { ok: true, latencyMs: 312, model: model ?? find(providerId).defaultModel, reply: "Hello! I am ready to work.", error: null },
    builtinStatus: () => state.builtin,
    setBuiltinModel: ({ path }) =>
      (state.builtin =
        path === null
          ? builtinStatus()
          : builtinStatus({ ...state.builtin, installed: true, path, sizeBytes: 1_117_320_736, custom: true, reason: "chosen", model: null })),
    getRoutes: () => state.routes,
    setRoute: (route) => {
      state.routes = state.routes.map((r) => (r.purpose === route.purpose ? route : r));
      return route;
    },
    listPrices: () => state.prices,
    setPrice: (price) => {
      const next = { ...price, custom: true };
      state.prices = state.prices.map((p) => (p.providerId === price.providerId && p.model === price.model ? next : p));
      return next;
    },
    getSpend: () => state.spend,
    setBudget: ({ dailyBudgetUsd }) => {
      state.spend = { ...state.spend, budgetUsd: dailyBudgetUsd };
      return Object.assign(company, { dailyBudgetUsd });
    },
    updateCompany: ({ language }) => Object.assign(company, language === null ? {} : { language }),
  });
  return { backend, state, company };
}

type Settings = ReturnType<typeof settingsServer>;

const withSettings = (configure?: (s: Settings["state"], b: Fake) => void) => {
  const server = settingsServer();
  configure?.(server.state, server.backend);
  server.backend.install();
  return server;
};

const NO_KEYCHAIN =
  "no OS keychain is available (org.freedesktop.secrets not provided). Start a Secret Service, or pass the key in the environment as CUBICLE_API_KEY_<PROVIDER_ID>";

async function openSettings() {
  const rendered = renderApp();
  await rendered.user.click(await screen.findByTestId("nav-settings"));
  await screen.findByTestId("settings-page");
  return rendered;
}

/** Everything the app keeps about its queries and mutations, as one string. */
function cacheText(client: ReturnType<typeof renderApp>["client"]): string {
  const queries = client.getQueryCache().getAll().map((q) => ({ key: q.queryKey, state: q.state }));
  const mutations = client.getMutationCache().getAll().map((m) => ({ options: m.options.mutationKey, state: m.state }));
  return JSON.stringify({ queries, mutations });
}

/** The rendered document, including what is typed into fields (not part of innerHTML). */
function domText(): string {
  const values = Array.from(document.querySelectorAll("input, textarea, select")).map(
    (el) => (el as HTMLInputElement).value,
  );
  return document.documentElement.outerHTML + "\n" + values.join("\n");
}

describe("settings page", () => {
  it("is reached from the navigation and lists providers, the built-in model first", async () => {
    withSettings((s) => s.providers.push(provider("openai", { hasKey: true, keySource: "keychain" }), provider("ollama")));
    await openSettings();
    expect(screen.getByTestId("nav-settings")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("nav-org-chart")).not.toHaveAttribute("aria-current");
    expect(screen.getByRole("heading", { name: "Settings" })).toBeInTheDocument();

    const rows = await screen.findAllByTestId(/^provider-row-/);
    expect(rows.map((r) => r.dataset.testid)).toEqual(["provider-row-builtin", "provider-row-openai", "provider-row-ollama"]);

    const builtin = screen.getByTestId("provider-row-builtin");
    expect(builtin).toHaveTextContent("Built-in · offline · free");
    expect(builtin).toHaveTextContent("SmolLM2-135M-Instruct");
    expect(await within(builtin).findByTestId("builtin-status")).toHaveTextContent("Installed");
    expect(within(builtin).queryByTestId("provider-delete-builtin")).not.toBeInTheDocument();
    expect(within(builtin).queryByTestId("provider-key-input-builtin")).not.toBeInTheDocument();

    const openai = screen.getByTestId("provider-row-openai");
    expect(openai).toHaveTextContent("OpenAI");
    expect(openai).toHaveTextContent("https://api.openai.com/v1");
    expect(openai).toHaveTextContent("gpt-4.1-mini");
    expect(screen.getByTestId("provider-key-status-openai")).toHaveTextContent("Key set");
    expect(screen.getByTestId("provider-key-submit-openai")).toHaveTextContent("Replace key");
    expect(screen.getByTestId("provider-key-status-ollama")).toHaveTextContent("No key needed");
  });

  it("tells how to install the built-in model when it is missing", async () => {
    const bundled = "/data/models/SmolLM2-135M-Instruct.Q4_1.gguf";
    withSettings((s) => {
      s.builtin = builtinStatus({ installed: false, path: bundled, sizeBytes: null, defaultPath: bundled, models: builtinModels({}) });
    });
    await openSettings();
    const status = await screen.findByTestId("builtin-status");
    expect(status).toHaveAttribute("data-installed", "false");
    expect(status).toHaveTextContent("not installed");
    expect(status).toHaveTextContent("scripts/install-model.sh");
    expect(status).toHaveTextContent(bundled);
    expect(screen.getByTestId("builtin-model-path")).toHaveTextContent(bundled);
    expect(screen.queryByTestId("builtin-model-custom")).not.toBeInTheDocument();
    expect(screen.queryByTestId("builtin-model-reset")).not.toBeInTheDocument();
  });

  it("points the built-in model at another GGUF file", async () => {
    const file = "/home/ada/models/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf";
    const { backend, state } = withSettings();
    const { user } = await openSettings();
    const path = await screen.findByTestId("builtin-model-path");
    expect(path).toHaveTextContent(state.builtin.defaultPath);
    expect(path).toHaveAttribute("title", state.builtin.defaultPath);
    expect(path).toHaveClass("font-mono", "truncate");
    expect(screen.queryByTestId("builtin-model-custom")).not.toBeInTheDocument();
    expect(screen.queryByTestId("builtin-model-input")).not.toBeInTheDocument();

    // Cancel hides the field again without a call.
    await user.click(screen.getByTestId("builtin-model-change"));
    await user.type(screen.getByTestId("builtin-model-input"), "/tmp/x.gguf");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByTestId("builtin-model-input")).not.toBeInTheDocument();

    await user.click(screen.getByTestId("builtin-model-change"));
    const input = screen.getByTestId("builtin-model-input");
    expect(input).toHaveValue("");
    expect(screen.getByTestId("builtin-model-submit")).toBeDisabled();
    await user.type(input, `  ${file} `);
    await user.click(screen.getByTestId("builtin-model-submit"));

    await waitFor(() => expect(backend.inputsOf("setBuiltinModel")).toEqual([{ path: file }]));
    expect(await screen.findByTestId("builtin-model-custom")).toHaveTextContent("Custom file");
    expect(screen.getByTestId("builtin-model-path")).toHaveTextContent(file);
    expect(screen.getByTestId("builtin-model-path")).toHaveAttribute("title", file);
    expect(screen.queryByTestId("builtin-model-input")).not.toBeInTheDocument();
    expect(screen.queryByTestId("builtin-model-error")).not.toBeInTheDocument();
    expect(screen.getByTestId("builtin-model-reset")).toHaveTextContent("Back to this language's default");
    expect(screen.getByTestId("builtin-status")).toHaveAttribute("data-installed", "true");
  });

  it("shows why a model file is refused, and refuses a relative path itself", async () => {
    const { backend, state } = withSettings();
    const { user } = await openSettings();
    await user.click(await screen.findByTestId("builtin-model-change"));
    const input = screen.getByTestId("builtin-model-input");

    await user.type(input, "models/qwen.gguf");
    await user.click(screen.getByTestId("builtin-model-submit"));
    expect(screen.getByText(/Enter the full path/)).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(backend.callsOf("setBuiltinModel")).toHaveLength(0);

    await user.clear(input);
    backend.failNext("setBuiltinModel", "invalid_input", "/home/ada/notes.txt is not a GGUF model file");
    await user.type(input, "/home/ada/notes.txt{Enter}");
    const error = await screen.findByTestId("builtin-model-error");
    expect(error).toHaveTextContent("Some of the details are not valid");
    expect(error).toHaveTextContent("/home/ada/notes.txt is not a GGUF model file");
    expect(backend.inputsOf("setBuiltinModel")).toEqual([{ path: "/home/ada/notes.txt" }]);
    // The field stays open with what was typed, and nothing changed.
    expect(screen.getByTestId("builtin-model-input")).toHaveValue("/home/ada/notes.txt");
    expect(screen.queryByTestId("builtin-model-custom")).not.toBeInTheDocument();
    expect(state.builtin.custom).toBe(false);

    // Cancelling closes the field and clears the error.
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByTestId("builtin-model-error")).not.toBeInTheDocument();
  });

  it("goes back to the bundled model, and says so when a chosen file is missing", async () => {
    const file = "/mnt/usb/qwen.gguf";
    const { backend, state } = withSettings((s) => {
      s.builtin = { ...s.builtin, installed: false, path: file, sizeBytes: null, custom: true };
    });
    const { user } = await openSettings();
    const status = await screen.findByTestId("builtin-status");
    expect(status).toHaveAttribute("data-installed", "false");
    expect(status).toHaveTextContent("The chosen model file cannot be found");
    expect(status).toHaveTextContent("scripts/install-model.sh");
    // The script installs the bundled model, so that is where it says it goes.
    expect(status).toHaveTextContent(state.builtin.defaultPath);
    expect(status).not.toHaveTextContent(file);
    expect(screen.getByTestId("builtin-model-path")).toHaveTextContent(file);
    expect(screen.getByTestId("builtin-model-custom")).toBeInTheDocument();

    await user.click(screen.getByTestId("builtin-model-reset"));
    await waitFor(() => expect(backend.inputsOf("setBuiltinModel")).toEqual([{ path: null }]));
    await waitFor(() => expect(screen.queryByTestId("builtin-model-custom")).not.toBeInTheDocument());
    expect(screen.getByTestId("builtin-model-path")).toHaveTextContent(state.builtin.defaultPath);
    expect(screen.queryByTestId("builtin-model-reset")).not.toBeInTheDocument();
    expect(screen.getByTestId("builtin-status")).toHaveAttribute("data-installed", "true");
  });

  it("adds a DeepSeek provider from its preset", async () => {
    const { backend } = withSettings();
    const { user } = await openSettings();
    await user.click(screen.getByTestId("add-provider-button"));
    const dialog = await screen.findByRole("dialog", { name: "Add a model provider" });
    const presetSelect = await within(dialog).findByTestId("provider-preset-select");
    // Every preset but the built-in one is offered.
    expect(within(presetSelect).getAllByRole("option")).toHaveLength(PRESETS.length - 1);

    await user.selectOptions(presetSelect, "deepseek");
    expect(within(dialog).getByTestId("provider-name-input")).toHaveValue("DeepSeek");
    expect(within(dialog).getByTestId("provider-base-url-input")).toHaveValue("https://api.deepseek.com/v1");
    expect(within(dialog).getByTestId("provider-model-input")).toHaveValue("deepseek-chat");

    await user.type(within(dialog).getByTestId("provider-models-input"), "deepseek-reasoner{Enter}");
    expect(within(dialog).getAllByTestId("provider-model-chip").map((c) => c.textContent)).toEqual(["deepseek-reasoner"]);
    await user.click(within(dialog).getByTestId("provider-submit"));

    await waitFor(() => expect(backend.callsOf("saveProvider")).toHaveLength(1));
    expect(backend.inputsOf("saveProvider")[0]).toEqual({
      id: null,
      name: "DeepSeek",
      preset: "deepseek",
      baseUrl: "https://api.deepseek.com/v1",
      defaultModel: "deepseek-chat",
      models: ["deepseek-chat", "deepseek-reasoner"],
      enabled: true,
    });
    const row = await screen.findByTestId("provider-row-deepseek");
    expect(row).toHaveTextContent("DeepSeek");
    expect(screen.getByTestId("provider-key-status-deepseek")).toHaveTextContent("No key");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("validates the provider form and shows duplicate_name translated", async () => {
    const { backend } = withSettings((s) => s.providers.push(provider("deepseek")));
    const { user } = await openSettings();
    await user.click(screen.getByTestId("add-provider-button"));
    const dialog = await screen.findByRole("dialog");
    await user.selectOptions(await within(dialog).findByTestId("provider-preset-select"), "deepseek");
    // The preset's name is taken: a free one is suggested.
    expect(within(dialog).getByTestId("provider-name-input")).toHaveValue("DeepSeek 2");

    await user.clear(within(dialog).getByTestId("provider-base-url-input"));
    await user.type(within(dialog).getByTestId("provider-base-url-input"), "api.deepseek.com");
    await user.click(within(dialog).getByTestId("provider-submit"));
    expect(within(dialog).getByText("Enter a full address starting with http:// or https://.")).toBeInTheDocument();
    expect(backend.callsOf("saveProvider")).toHaveLength(0);

    await user.clear(within(dialog).getByTestId("provider-base-url-input"));
    await user.type(within(dialog).getByTestId("provider-base-url-input"), "https://api.deepseek.com/v1");
    await user.clear(within(dialog).getByTestId("provider-name-input"));
    await user.type(within(dialog).getByTestId("provider-name-input"), "deepseek");
    backend.failNext("saveProvider", "duplicate_name", "deepseek");
    await user.click(within(dialog).getByTestId("provider-submit"));
    expect(await within(dialog).findByText("That name is already taken. Choose another one.")).toBeInTheDocument();
  });

  it("edits a provider and deletes one only after confirmation", async () => {
    const { backend } = withSettings((s) => s.providers.push(provider("ollama")));
    const { user } = await openSettings();
    await user.click(await screen.findByTestId("provider-edit-ollama"));
    const dialog = await screen.findByRole("dialog", { name: "Edit Ollama" });
    const presetSelect = await within(dialog).findByTestId("provider-preset-select");
    expect(presetSelect).toBeDisabled();
    await user.clear(within(dialog).getByTestId("provider-model-input"));
    await user.type(within(dialog).getByTestId("provider-model-input"), "qwen3:8b");
    await user.type(within(dialog).getByTestId("provider-models-input"), "llama3.2, phi4");
    await user.click(within(dialog).getByTestId("provider-submit"));
    await waitFor(() =>
      expect(backend.inputsOf("saveProvider")).toEqual([
        {
          id: "ollama",
          name: "Ollama",
          preset: "ollama",
          baseUrl: "http://localhost:11434/v1",
          defaultModel: "qwen3:8b",
          models: ["qwen3:8b", "llama3.2", "phi4"],
          enabled: true,
        },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId("provider-row-ollama")).toHaveTextContent("qwen3:8b"));

    await user.click(screen.getByTestId("provider-delete-ollama"));
    const confirm = screen.getByRole("dialog", { name: "Delete “Ollama”?" });
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(backend.callsOf("deleteProvider")).toHaveLength(0);

    await user.click(screen.getByTestId("provider-delete-ollama"));
    await user.click(screen.getByTestId("delete-provider-confirm"));
    await waitFor(() => expect(backend.inputsOf("deleteProvider")).toEqual([{ providerId: "ollama" }]));
    await waitFor(() => expect(screen.queryByTestId("provider-row-ollama")).not.toBeInTheDocument());
  });

  it("sends a key once, clears the field at once, and shows the key as set", async () => {
    const { backend } = withSettings((s) => s.providers.push(provider("deepseek")));
    const { user } = await openSettings();
    const input = await screen.findByTestId("provider-key-input-deepseek");
    expect(input).toHaveAttribute("type", "password");
    expect(screen.getByTestId("provider-key-submit-deepseek")).toHaveTextContent("Set key");
    expect(screen.getByTestId("provider-key-submit-deepseek")).toBeDisabled();

    await user.type(input, "sk-deepseek-123");
    await user.click(screen.getByTestId("provider-key-submit-deepseek"));
    expect(input).toHaveValue("");
    await waitFor(() =>
      expect(backend.inputsOf("setProviderKey")).toEqual([{ providerId: "deepseek", key: "sk-deepseek-123" }]),
    );
    await waitFor(() => expect(screen.getByTestId("provider-key-status-deepseek")).toHaveTextContent("Key set"));
    expect(screen.getByTestId("provider-key-submit-deepseek")).toHaveTextContent("Replace key");

    await user.click(screen.getByTestId("provider-key-remove-deepseek"));
    await waitFor(() => expect(backend.inputsOf("deleteProviderKey")).toEqual([{ providerId: "deepseek" }]));
    await waitFor(() => expect(screen.getByTestId("provider-key-status-deepseek")).toHaveTextContent("No key"));
  });

  it("explains secret_unavailable in the user's language and what to do", async () => {
    const { backend } = withSettings((s, b) => {
      s.providers.push(provider("deepseek"));
      b.failNext("setProviderKey", "secret_unavailable", NO_KEYCHAIN);
    });
    const { user } = await openSettings();
    const input = await screen.findByTestId("provider-key-input-deepseek");
    await user.type(input, "sk-nowhere-to-go");
    await user.click(screen.getByTestId("provider-key-submit-deepseek"));
    expect(input).toHaveValue("");

    const error = await screen.findByTestId("provider-key-error-deepseek");
    expect(error).toHaveTextContent("No system keychain is available");
    expect(error).toHaveTextContent("CUBICLE_API_KEY_DEEPSEEK");
    expect(screen.getByTestId("provider-key-status-deepseek")).toHaveTextContent("No key");
    expect(backend.callsOf("setProviderKey")).toHaveLength(1);
  });

  it("never keeps a key in the DOM or the query cache, even when the backend echoes it", async () => {
    const keys = ["sk-live-SECRET-one-1f2e3d", "sk-live-SECRET-two-9a8b7c", "sk-live-SECRET-three-4d5e6f"];
    const { backend, state } = withSettings((s) => s.providers.push(provider("deepseek"), provider("openai")));
    const { user, client } = await openSettings();

    // 1. Accepted.
    await user.type(await screen.findByTestId("provider-key-input-deepseek"), keys[0]!);
    await user.click(screen.getByTestId("provider-key-submit-deepseek"));
    await waitFor(() => expect(screen.getByTestId("provider-key-status-deepseek")).toHaveTextContent("Key set"));

    // 2. Refused, with the key (wrongly) inside the backend's message: it is not shown.
    backend.failNext("setProviderKey", "provider_error", `rejected key ${keys[1]!} by upstream`);
    await user.type(screen.getByTestId("provider-key-input-openai"), keys[1]!);
    await user.click(screen.getByTestId("provider-key-submit-openai"));
    expect(await screen.findByTestId("provider-key-error-openai")).toHaveTextContent("did not answer properly");

    // 3. No keychain.
    backend.failNext("setProviderKey", "secret_unavailable", NO_KEYCHAIN);
    await user.type(screen.getByTestId("provider-key-input-openai"), keys[2]!);
    await user.click(screen.getByTestId("provider-key-submit-openai"));
    await waitFor(() => expect(screen.getByTestId("provider-key-error-openai")).toHaveTextContent("No system keychain"));

    // Every key really went to the backend…
    expect(backend.inputsOf("setProviderKey")).toEqual([
      { providerId: "deepseek", key: keys[0] },
      { providerId: "openai", key: keys[1] },
      { providerId: "openai", key: keys[2] },
    ]);
    // …and none of them, nor a recognisable part, stayed anywhere the UI keeps things.
    await waitFor(() => expect(client.isFetching()).toBe(0));
    const dom = domText();
    const cache = cacheText(client);
    for (const key of keys) {
      expect(dom).not.toContain(key);
      expect(cache).not.toContain(key);
      expect(dom).not.toContain(key.slice(-6));
      expect(cache).not.toContain(key.slice(-6));
    }
    expect(cache).toContain("deepseek"); // the cache was really looked at
    // Nothing the backend returned carries a key either.
    expect(JSON.stringify(state.providers)).not.toMatch(/SECRET/);
  });

  it("tests a connection: loading, then latency and the model's reply", async () => {
    const { backend } = withSettings((s) => s.providers.push(provider("deepseek", { hasKey: true, keySource: "keychain" })));
    let release: () => void = () => {};
    backend.hold("testProvider", new Promise<void>((r) => (release = r)));
    const { user } = await openSettings();
    await user.click(await screen.findByTestId("provider-test-deepseek"));

    expect(screen.getByTestId("provider-test-deepseek")).toBeDisabled();
    expect(screen.getByTestId("provider-test-result-deepseek")).toHaveTextContent("Sending a short test request");
    release();

    const result = screen.getByTestId("provider-test-result-deepseek");
    await waitFor(() => expect(result).toHaveTextContent("Connected in 312 ms · deepseek-chat"));
    expect(result).toHaveTextContent("Hello! I am ready to work.");
    expect(backend.inputsOf("testProvider")).toEqual([{ providerId: "deepseek", model: null }]);
    expect(screen.getByTestId("provider-test-deepseek")).toBeEnabled();
  });

  it("shows a failed connection test with its translated error and detail", async () => {
    const { backend, state } = withSettings((s) => s.providers.push(provider("deepseek", { hasKey: true, keySource: "keychain" }), provider("openai")));
    state.tests.set("openai", { ok: false, latencyMs: 0, model: "gpt-4.1-mini", reply: null, error: { code: "missing_key", message: "no API key for openai" } });
    state.tests.set("deepseek", {
      ok: false,
      latencyMs: 30_000,
      model: "deepseek-chat",
      reply: null,
      error: { code: "provider_error", message: "HTTP 401: invalid api key" },
    });
    const { user } = await openSettings();
    await user.click(await screen.findByTestId("provider-test-deepseek"));
    const result = await screen.findByTestId("provider-test-result-deepseek");
    await waitFor(() => expect(result).toHaveTextContent("The model provider did not answer properly"));
    expect(result).toHaveTextContent("provider_error");
    expect(result).toHaveTextContent("HTTP 401: invalid api key");

    // No key at all: missing_key, translated.
    await user.click(screen.getByTestId("provider-test-openai"));
    await waitFor(() => expect(screen.getByTestId("provider-test-result-openai")).toHaveTextContent("This provider needs an API key"));

    // The command itself failing (not a provider answer) is shown the same way.
    backend.failNext("testProvider", "breaker_open", "3 failures in a row");
    await user.click(screen.getByTestId("provider-test-deepseek"));
    await waitFor(() => expect(screen.getByTestId("provider-test-result-deepseek")).toHaveTextContent("paused for a moment"));
  });

  it("routes a purpose to another provider and model", async () => {
    const { backend, state } = withSettings((s) =>
      s.providers.push(provider("deepseek", { hasKey: true, keySource: "keychain", models: ["deepseek-chat", "deepseek-reasoner"] })),
    );
    const { user } = await openSettings();
    const providerSelect = await screen.findByTestId("route-provider-thought");
    expect(providerSelect).toHaveValue("builtin");
    expect(screen.getByTestId("route-model-thought")).toHaveValue("SmolLM2-135M-Instruct");
    for (const purpose of ["intent", "thought", "summary", "report"]) {
      expect(screen.getByTestId(`route-provider-${purpose}`)).toBeInTheDocument();
    }
    expect(screen.getByTestId("settings-section-routes")).toHaveTextContent("Employee thought");

    await user.selectOptions(providerSelect, "deepseek");
    await waitFor(() =>
      expect(backend.inputsOf("setRoute")).toEqual([{ purpose: "thought", providerId: "deepseek", model: "deepseek-chat" }]),
    );
    await waitFor(() => expect(screen.getByTestId("route-model-thought")).toHaveValue("deepseek-chat"));

    const model = screen.getByTestId("route-model-thought");
    await waitFor(() => expect(model).toBeEnabled());
    await user.clear(model);
    await user.type(model, "deepseek-reasoner{Enter}");
    await waitFor(() =>
      expect(backend.inputsOf("setRoute")).toEqual([
        { purpose: "thought", providerId: "deepseek", model: "deepseek-chat" },
        { purpose: "thought", providerId: "deepseek", model: "deepseek-reasoner" },
      ]),
    );
    expect(state.routes.find((r) => r.purpose === "thought")).toEqual({ purpose: "thought", providerId: "deepseek", model: "deepseek-reasoner" });
    expect(state.routes.find((r) => r.purpose === "intent")?.providerId).toBe("builtin");
  });

  it("lets only a model on this computer look for private details, or none", async () => {
    const { backend, state } = withSettings((s) => {
      s.providers.push(provider("deepseek", { hasKey: true, keySource: "keychain" }));
      s.providers.push(provider("ollama", { models: ["qwen2.5:3b"], defaultModel: "qwen2.5:3b" }));
    });
    const { user } = await openSettings();
    const select = await screen.findByTestId("route-provider-privacy");
    expect(select).toHaveValue("");
    expect(screen.getByTestId("route-row-privacy")).toHaveTextContent("Private details");
    const offered = within(select)
      .getAllByRole("option")
      .map((o) => (o as HTMLOptionElement).value);
    expect(offered).toEqual(["", "builtin", "ollama"]);
    expect(screen.getByTestId("route-model-privacy")).toBeDisabled();

    await user.selectOptions(select, "ollama");
    await waitFor(() => expect(backend.inputsOf("setRoute")).toEqual([{ purpose: "privacy", providerId: "ollama", model: "qwen2.5:3b" }]));
    await user.selectOptions(select, "");
    await waitFor(() => expect(backend.inputsOf("setRoute").at(-1)).toEqual({ purpose: "privacy", providerId: "", model: "" }));
    expect(state.routes.find((r) => r.purpose === "privacy")?.providerId).toBe("");
  });

  it("refuses a budget of 0, below 0 or not a number, and saves a valid one", async () => {
    const { backend, company } = withSettings((s) => {
      s.spend = { ...sampleSpend(), todayUsd: 3 };
    });
    const { user } = await openSettings();
    const input = screen.getByTestId("budget-input");
    expect(input).toHaveValue("20");

    for (const [text, message] of [
      ["0", "The budget must be more than 0."],
      ["-5", "The budget must be more than 0."],
      ["abc", "Enter an amount, such as 10 or 2.50."],
      ["NaN", "Enter an amount, such as 10 or 2.50."],
      ["Infinity", "Enter an amount, such as 10 or 2.50."],
    ] as const) {
      await user.clear(input);
      await user.type(input, text);
      await user.click(screen.getByTestId("budget-submit"));
      expect(screen.getByText(message)).toBeInTheDocument();
      expect(input).toHaveAttribute("aria-invalid", "true");
    }
    expect(backend.callsOf("setBudget")).toHaveLength(0);

    await user.clear(input);
    await user.type(input, "12.5");
    await user.click(screen.getByTestId("budget-submit"));
    await waitFor(() => expect(backend.inputsOf("setBudget")).toEqual([{ dailyBudgetUsd: 12.5 }]));
    await waitFor(() => expect(screen.getByTestId("budget-today")).toHaveTextContent("$3.00 of $12.50"));
    expect(company.dailyBudgetUsd).toBe(12.5);
    expect(screen.getByTestId("spend-today")).toHaveTextContent("of $12.50");
  });

  it("colours the budget bar amber from 90 % and red when spent", async () => {
    const { backend, state } = withSettings((s) => {
      s.spend = { ...sampleSpend(), todayUsd: 5 };
    });
    await openSettings();
    await waitFor(() => expect(screen.getByTestId("budget-progress")).toHaveAttribute("data-level", "ok"));
    expect(screen.getByTestId("budget-note")).toHaveTextContent("budget exceeded");

    state.spend = { ...state.spend, todayUsd: 18 };
    backend.emit({ type: "spend_recorded" });
    await waitFor(() => expect(screen.getByTestId("budget-progress")).toHaveAttribute("data-level", "fallback"));
    expect(screen.getByTestId("budget-progress")).toHaveAttribute("aria-valuenow", "90");
    expect(screen.getByTestId("budget-note")).toHaveTextContent("going to the built-in model");

    state.spend = { ...state.spend, todayUsd: 20.4 };
    backend.emit({ type: "budget_exceeded", spentUsd: 20.4, budgetUsd: 20 });
    await waitFor(() => expect(screen.getByTestId("budget-progress")).toHaveAttribute("data-level", "spent"));
    expect(screen.getByTestId("budget-note")).toHaveTextContent("Today's budget is spent");
  });

  it("shows a week of spend: totals, 7 bars and both tables", async () => {
    withSettings((s) => {
      s.spend = sampleSpend();
    });
    await openSettings();
    const chart = await screen.findByTestId("spend-chart");
    expect(within(chart).getAllByTestId("spend-bar")).toHaveLength(7);
    expect(within(chart).getAllByRole("listitem")).toHaveLength(7);
    expect(screen.getByTestId("spend-today")).toHaveTextContent("$3.25");
    expect(screen.getByTestId("spend-today")).toHaveTextContent("of $20.00");
    expect(screen.getByTestId("spend-calls")).toHaveTextContent("42");
    expect(screen.getByTestId("spend-refused")).toHaveTextContent("2");
    // The highest day is the tallest bar; a day without spend has no bar.
    const heights = within(chart).getAllByTestId("spend-bar").map((b) => Number.parseFloat(b.style.height));
    expect(Math.max(...heights)).toBe(heights[4]);
    expect(heights[1]).toBe(0);

    const byEmployee = screen.getByTestId("spend-by-employee");
    const employeeRows = (within(byEmployee).getAllByRole("row") as HTMLTableRowElement[]).slice(1);
    expect(employeeRows.map((r) => r.cells[0]?.textContent)).toEqual(["Alan Turing", "Margaret Hamilton", "The company (secretary, tests)"]);
    expect(employeeRows[0]).toHaveTextContent("$9.80");
    expect(employeeRows[0]).toHaveTextContent("120");

    const byModel = screen.getByTestId("spend-by-model");
    const modelRows = (within(byModel).getAllByRole("row") as HTMLTableRowElement[]).slice(1);
    expect(modelRows).toHaveLength(3);
    expect(modelRows[0]).toHaveTextContent("gpt-4.1-mini");
    expect(modelRows[0]).toHaveTextContent("$14.60");
    expect(modelRows[0]).toHaveTextContent("1.8M / 412K");
    expect(modelRows[0]!.cells[3]).toHaveAttribute("title", "1,840,000 / 412,000");
    expect(modelRows[2]).toHaveTextContent("SmolLM2-135M-Instruct");
    expect(modelRows[2]!.cells[4]).toHaveTextContent("9");
    expect(screen.queryByTestId("spend-empty")).not.toBeInTheDocument();
  });

  it("shows an empty state when nothing has been spent", async () => {
    withSettings();
    await openSettings();
    expect(await screen.findByTestId("spend-empty")).toHaveTextContent("No spend yet");
    expect(screen.queryByTestId("spend-chart")).not.toBeInTheDocument();
    expect(screen.getByTestId("spend-today")).toHaveTextContent("$0.00");
  });

  it("shows a translated error with a retry when spend cannot be loaded", async () => {
    const { backend } = withSettings();
    backend.failNext("getSpend", "storage", "database is locked");
    const { user } = await openSettings();
    const section = screen.getByTestId("settings-section-spend");
    expect(await within(section).findByTestId("error-state")).toHaveTextContent("The company data could not be read or saved.");
    await user.click(within(section).getByTestId("retry-button"));
    expect(await within(section).findByTestId("spend-empty")).toBeInTheDocument();
  });

  it("edits a price inline and refuses negative prices", async () => {
    const { backend } = withSettings();
    const { user } = await openSettings();
    const rowId = "openai/gpt-4.1-mini";
    const row = await screen.findByTestId(`price-row-${rowId}`);
    expect(row).toHaveTextContent("$0.40");
    expect(row).toHaveTextContent("$1.60");
    expect(row).toHaveTextContent("Default");

    await user.click(within(row).getByTestId(`price-edit-${rowId}`));
    const inputPrice = screen.getByTestId(`price-input-${rowId}`);
    const outputPrice = screen.getByTestId(`price-output-${rowId}`);
    await user.clear(inputPrice);
    await user.type(inputPrice, "-1");
    await user.click(screen.getByTestId(`price-save-${rowId}`));
    expect(screen.getByText("Prices must be numbers of 0 or more.")).toBeInTheDocument();
    expect(backend.callsOf("setPrice")).toHaveLength(0);

    await user.clear(inputPrice);
    await user.type(inputPrice, "0.5");
    await user.clear(outputPrice);
    await user.type(outputPrice, "2");
    await user.click(screen.getByTestId(`price-save-${rowId}`));
    await waitFor(() =>
      expect(backend.inputsOf("setPrice")).toEqual([
        { providerId: "openai", model: "gpt-4.1-mini", inputPerMtok: 0.5, outputPerMtok: 2 },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId(`price-row-${rowId}`)).toHaveTextContent("Custom"));
    expect(screen.getByTestId(`price-row-${rowId}`)).toHaveTextContent("$0.50");
    expect(screen.queryByTestId(`price-input-${rowId}`)).not.toBeInTheDocument();
  });

  it("refreshes the provider list when the backend reports providers_changed", async () => {
    const { backend, state } = withSettings();
    await openSettings();
    await screen.findByTestId("provider-row-builtin");
    const before = backend.callsOf("listProviders").length;
    state.providers.push(provider("qwen", { hasKey: true, keySource: "environment" }));
    backend.emit({ type: "providers_changed" });
    expect(await screen.findByTestId("provider-row-qwen")).toHaveTextContent("Qwen (DashScope)");
    expect(screen.getByTestId("provider-key-status-qwen")).toHaveTextContent("Key from environment");
    expect(screen.getByTestId("provider-row-qwen")).toHaveTextContent("CUBICLE_API_KEY_QWEN");
    expect(backend.callsOf("listProviders").length).toBeGreaterThan(before);
  });

  it("switches the language from the settings page too", async () => {
    const { backend } = withSettings();
    const { user } = await openSettings();
    await user.selectOptions(screen.getByTestId("settings-language-switch"), "zh-CN");
    await waitFor(() => expect(backend.inputsOf("updateCompany")).toEqual([{ name: null, mission: null, bossName: null, language: "zh-CN" }]));
    expect(await screen.findByRole("heading", { name: "设置" })).toBeInTheDocument();
    expect(screen.getByTestId("provider-row-builtin")).toHaveTextContent("内置 · 离线 · 免费");
    expect(screen.getByTestId("settings-section-routes")).toHaveTextContent("员工思考");
  });

  it("goes back to the org chart from the navigation", async () => {
    withSettings();
    const { user } = await openSettings();
    await user.click(screen.getByTestId("nav-org-chart"));
    expect(await screen.findByTestId("org-chart")).toBeInTheDocument();
    expect(screen.queryByTestId("settings-page")).not.toBeInTheDocument();
  });
});
