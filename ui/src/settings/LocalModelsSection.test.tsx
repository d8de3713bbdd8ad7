import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import type { DownloadFailureKind } from "../bindings/DownloadFailureKind";
import type { DownloadRetry } from "../bindings/DownloadRetry";
import type { LocalModelState } from "../bindings/LocalModelState";
import type { LocalServerDto } from "../bindings/LocalServerDto";
import type { ProviderDto } from "../bindings/ProviderDto";
import { Fake, type Handlers } from "../test/fake";
import { MODELS_DIR, builtinProvider, builtinStatus, catalogue, company, defaultRoutes, fixedOrg, provider, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const QWEN = "qwen2.5-1.5b-instruct-q4_k_m";
const LLAMA = "llama-3.2-1b-instruct-q4_k_m";

/**
 * Settings with the local-model catalogue. The backend's answers are scripted: each command puts the
 * model in the state the Rust side would, and the download's own progress is played by `setState`
 * with the event the downloader sends.
 */
function withModels(configure?: (b: Fake, m: ReturnType<typeof modelsWorld>) => void, zh = false) {
  const org = zh ? { ...fixedOrg(), company: company({ language: "zh-CN" }) } : fixedOrg();
  const m = modelsWorld();
  const backend = new Fake(world(org), m.handlers);
  m.attach(backend);
  configure?.(backend, m);
  backend.install();
  return Object.assign(backend, { models: m });
}

function modelsWorld() {
  const models = catalogue();
  const providers: ProviderDto[] = [builtinProvider()];
  let routes = defaultRoutes();
  let builtin = builtinStatus();
  let servers: LocalServerDto[] = [];
  let fake: Fake | null = null;
  const find = (id: string) => models.find((x) => x.id === id)!;
  const setState = (id: string, state: LocalModelState) => {
    find(id).state = state;
    fake?.emit({ type: "local_model_changed", modelId: id });
  };
  const handlers: Handlers = {
    listLocalModels: () => models,
    listProviders: () => providers,
    getRoutes: () => routes,
    builtinStatus: () => builtin,
    detectLocalServers: () => servers.map((s) => ({ ...s, added: providers.some((p) => p.baseUrl === s.baseUrl) })),
    startModelDownload: ({ modelId }) => {
      setState(modelId, { status: "downloading", received: 0, total: find(modelId).sizeBytes, bytesPerSec: 0, reconnecting: false, retry: null });
      return find(modelId);
    },
    pauseModelDownload: ({ modelId }) => {
      const s = find(modelId).state;
      setState(modelId, { status: "paused", received: s.status === "downloading" ? s.received : 0, total: find(modelId).sizeBytes });
      return find(modelId);
    },
    cancelModelDownload: ({ modelId }) => {
      setState(modelId, { status: "not_installed" });
      return find(modelId);
    },
    useLocalModel: ({ modelId }) => {
      const path = `${MODELS_DIR}/${find(modelId).fileName}`;
      setState(modelId, { status: "installed", path, inUse: true });
      builtin = { ...builtin, path, custom: true };
      fake?.emit({ type: "providers_changed" });
      return builtin;
    },
    useLocalModelFor: ({ modelId, purpose }) => {
      const route = { purpose, providerId: "builtin", model: modelId };
      routes = [...routes.filter((r) => r.purpose !== purpose), route];
      fake?.emit({ type: "providers_changed" });
      return route;
    },
    addLocalServer: ({ baseUrl, model }) => {
      const p = provider("ollama", { baseUrl, defaultModel: model ?? "qwen2.5:1.5b" });
      providers.push(p);
      fake?.emit({ type: "providers_changed" });
      return p;
    },
  };
  return {
    handlers,
    models,
    setState,
    routes: () => routes,
    builtin: () => builtin,
    providers,
    setServers: (s: LocalServerDto[]) => (servers = s),
    attach: (b: Fake) => (fake = b),
    progress: (id: string, received: number, bytesPerSec: number, reconnecting = false) =>
      setState(id, { status: "downloading", received, total: find(id).sizeBytes, bytesPerSec, reconnecting, retry: null }),
    retrying: (id: string, retry: DownloadRetry) =>
      setState(id, { status: "downloading", received: 0, total: find(id).sizeBytes, bytesPerSec: 0, reconnecting: true, retry }),
    finish: (id: string) => setState(id, { status: "installed", path: `${MODELS_DIR}/${find(id).fileName}`, inUse: false }),
  };
}

function retryOf(kind: DownloadFailureKind, extra: Partial<DownloadRetry> = {}): DownloadRetry {
  return {
    kind,
    host: "huggingface.co",
    status: null,
    detail: "error sending request: client error (Connect): dns error: failed to lookup address information",
    nextAttempt: 2,
    maxAttempts: 5,
    nextTryAtMs: Date.now() + 8_000,
    ...extra,
  };
}

function gaveUpState(kind: DownloadFailureKind): LocalModelState {
  return {
    status: "failed",
    error: { code: "download_failed", message: "gave up after 5 attempts in 31 s: could not resolve huggingface.co; the download can be resumed" },
    received: 0,
    gaveUp: { kind, host: "huggingface.co", status: null, detail: "dns error: failed to lookup address information", attempts: 5, seconds: 31 },
  };
}

async function openSection() {
  window.history.replaceState(null, "", "#settings/local-models");
  const rendered = renderApp();
  await screen.findByTestId("settings-section-local-models");
  await screen.findByTestId("local-model-list");
  return rendered;
}

afterEach(() => window.history.replaceState(null, "", "#"));

describe("local models in settings", () => {
  it("lists the catalogue with size, memory, languages and licence, and says when no server runs", async () => {
    withModels();
    await openSection();

    const qwen = screen.getByTestId(`local-model-${QWEN}`);
    expect(qwen).toHaveTextContent("Qwen2.5 1.5B Instruct");
    expect(qwen).toHaveTextContent("1.5B · Q4_K_M");
    expect(qwen).toHaveTextContent("1.1 GB");
    expect(qwen).toHaveTextContent("about 2 GB free RAM");
    expect(qwen).toHaveTextContent("zh, en, fr");
    expect(within(qwen).getByRole("link", { name: "Apache-2.0" })).toHaveAttribute("href", "https://example.invalid/licence");
    expect(qwen).toHaveTextContent("Writes Chinese well");
    expect(within(qwen).getByTestId("local-model-recommended-zh")).toHaveTextContent("Recommended for Chinese");

    const llama = screen.getByTestId(`local-model-${LLAMA}`);
    expect(llama).toHaveTextContent("808 MB");
    expect(llama).not.toHaveTextContent("Writes Chinese well");
    expect(within(llama).getByTestId(`local-model-download-${LLAMA}`)).toBeEnabled();

    expect(await screen.findByTestId("local-servers-empty")).toHaveTextContent("No Ollama, LM Studio or llama.cpp server is running");
  });

  it("downloads with a progress bar, pauses, resumes and cancels", async () => {
    const backend = withModels();
    const { user } = await openSection();

    await user.click(screen.getByTestId(`local-model-download-${QWEN}`));
    await waitFor(() => expect(backend.inputsOf("startModelDownload")).toEqual([{ modelId: QWEN }]));
    backend.models.progress(QWEN, 558_660_368, 12_400_000);
    const bar = await screen.findByTestId(`local-model-progress-${QWEN}`);
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "50"));
    const row = screen.getByTestId(`local-model-${QWEN}`);
    expect(row).toHaveTextContent("559 MB of 1.1 GB (50 %) · 12.4 MB/s");

    backend.models.progress(QWEN, 600_000_000, 0, true);
    await waitFor(() => expect(row).toHaveTextContent("connection lost, reconnecting"));

    await user.click(screen.getByTestId(`local-model-pause-${QWEN}`));
    await waitFor(() => expect(row).toHaveTextContent("Paused at 600 MB of 1.1 GB (53 %)"));
    expect(backend.inputsOf("pauseModelDownload")).toEqual([{ modelId: QWEN }]);

    await user.click(screen.getByTestId(`local-model-resume-${QWEN}`));
    await waitFor(() => expect(screen.getByTestId(`local-model-pause-${QWEN}`)).toBeInTheDocument());
    expect(backend.inputsOf("startModelDownload")).toHaveLength(2);

    await user.click(screen.getByTestId(`local-model-cancel-${QWEN}`));
    await waitFor(() => expect(screen.getByTestId(`local-model-download-${QWEN}`)).toBeInTheDocument());
    expect(screen.queryByTestId(`local-model-progress-${QWEN}`)).not.toBeInTheDocument();
    expect(backend.inputsOf("cancelModelDownload")).toEqual([{ modelId: QWEN }]);
  });

  it("uses an installed model as the built-in model", async () => {
    const backend = withModels();
    const { user } = await openSection();
    await user.click(screen.getByTestId(`local-model-download-${QWEN}`));
    await waitFor(() => expect(backend.callsOf("startModelDownload")).toHaveLength(1));

    backend.models.finish(QWEN);
    const use = await screen.findByTestId(`local-model-use-${QWEN}`);
    expect(screen.getByTestId(`local-model-${QWEN}`)).toHaveTextContent("Installed");
    await user.click(use);

    await waitFor(() => expect(screen.getByTestId(`local-model-in-use-${QWEN}`)).toHaveTextContent("Built-in model"));
    expect(backend.inputsOf("useLocalModel")).toEqual([{ modelId: QWEN }]);
    expect(backend.models.builtin().path).toBe(`${MODELS_DIR}/${QWEN}.gguf`);
    expect(backend.models.builtin().custom).toBe(true);
  });

  it("sends employees' thoughts to an installed model while the built-in model keeps the rest", async () => {
    const backend = withModels();
    const { user } = await openSection();
    await user.click(screen.getByTestId(`local-model-download-${QWEN}`));
    await waitFor(() => expect(backend.callsOf("startModelDownload")).toHaveLength(1));
    backend.models.finish(QWEN);

    const button = await screen.findByTestId(`local-model-use-for-thoughts-${QWEN}`);
    expect(button).toHaveTextContent("Use for employees' thoughts");
    await user.click(button);

    await waitFor(() => expect(screen.getByTestId(`local-model-thinks-${QWEN}`)).toHaveTextContent("Thinks for employees"));
    expect(backend.inputsOf("useLocalModelFor")).toEqual([{ modelId: QWEN, purpose: "thought" }]);
    expect(backend.models.routes().find((r) => r.purpose === "thought")).toEqual({ purpose: "thought", providerId: "builtin", model: QWEN });
    // Still not the built-in model: the secretary and the rest keep theirs.
    expect(screen.getByTestId(`local-model-use-${QWEN}`)).toBeInTheDocument();
    expect(backend.callsOf("useLocalModel")).toHaveLength(0);
  });

  it("shows a failed download's reason clearly and offers to resume what arrived", async () => {
    const backend = withModels();
    await openSection();

    backend.models.setState(QWEN, {
      status: "failed",
      error: { code: "checksum_mismatch", message: "the file's SHA-256 is 00ff…, expected 6a1a…; the download was deleted" },
      received: 0,
      gaveUp: null,
    });
    const error = await screen.findByTestId(`local-model-error-${QWEN}`);
    expect(error).toHaveTextContent("The downloaded file is not the published one");
    expect(error).toHaveTextContent("expected 6a1a…");
    expect(screen.getByTestId(`local-model-resume-${QWEN}`)).toHaveTextContent("Try again");
    expect(screen.queryByTestId(`local-model-cancel-${QWEN}`)).not.toBeInTheDocument();

    backend.models.setState(LLAMA, {
      status: "failed",
      error: { code: "disk_full", message: "not enough disk space in /data: 808 MB needed, 12 MB available" },
      received: 400_000_000,
      gaveUp: null,
    });
    const full = await screen.findByTestId(`local-model-error-${LLAMA}`);
    expect(full).toHaveTextContent("Not enough free disk space for this model");
    expect(full).toHaveTextContent("808 MB needed, 12 MB available");
    expect(screen.getByTestId(`local-model-resume-${LLAMA}`)).toHaveTextContent("Resume");
    expect(screen.getByTestId(`local-model-cancel-${LLAMA}`)).toBeInTheDocument();
  });

  it("says why a download waits, which attempt comes and when, counting down (en)", async () => {
    const backend = withModels();
    await openSection();
    backend.models.retrying(QWEN, retryOf("dns", { nextTryAtMs: Date.now() + 8_000 }));
    const status = await screen.findByTestId(`local-model-status-${QWEN}`);
    await waitFor(() => expect(status).toHaveTextContent("attempt 2 of 5 · next try in 8 s · could not resolve huggingface.co"));
    expect(status).toHaveTextContent("0 MB of 1.1 GB (0 %)");
    expect(status).not.toHaveTextContent("reconnecting");
    expect(status).toHaveAttribute("title", expect.stringContaining("dns error"));
    expect(status).toHaveAttribute("data-kind", "dns");
    // The countdown moves on its own, then says it is trying.
    await waitFor(() => expect(status).toHaveTextContent(/next try in [67] s/), { timeout: 3000 });
    backend.models.retrying(QWEN, retryOf("dns", { nextAttempt: 3, nextTryAtMs: Date.now() - 1 }));
    await waitFor(() => expect(status).toHaveTextContent("attempt 3 of 5 · trying now · could not resolve huggingface.co"));
  });

  it("names each kind of failure: no network, refused, stalled, server error (en)", async () => {
    const backend = withModels();
    await openSection();
    const status = () => screen.getByTestId(`local-model-status-${QWEN}`);
    const cases: [DownloadFailureKind, Partial<DownloadRetry>, string][] = [
      ["no_network", {}, "this computer is not connected to a network"],
      ["refused", { host: "127.0.0.1" }, "127.0.0.1 refused the connection"],
      ["stalled", {}, "no data arrived from huggingface.co"],
      ["server_error", { status: 500 }, "huggingface.co answered with error 500"],
      ["timeout", {}, "huggingface.co did not answer in time"],
    ];
    for (const [kind, extra, text] of cases) {
      backend.models.retrying(QWEN, retryOf(kind, extra));
      await waitFor(() => expect(status()).toHaveTextContent(text));
    }
  });

  it("says why it gave up, after how many attempts, and what to do (en)", async () => {
    const backend = withModels();
    await openSection();
    backend.models.setState(QWEN, gaveUpState("dns"));
    const error = await screen.findByTestId(`local-model-error-${QWEN}`);
    expect(error).toHaveTextContent("Gave up after 5 attempts in 31 s: could not resolve huggingface.co. Nothing was downloaded.");
    expect(error).not.toHaveTextContent("What arrived is kept");
    expect(error).toHaveTextContent("Check the internet connection");
    expect(error).not.toHaveTextContent("dns error");
    expect(screen.getByTestId(`local-model-resume-${QWEN}`)).toHaveTextContent("Try again");
  });

  it("says what arrived is kept when it gives up mid-file", async () => {
    const backend = withModels();
    await openSection();
    backend.models.setState(QWEN, { ...gaveUpState("stalled"), received: 300_000_000 } as LocalModelState);
    const error = await screen.findByTestId(`local-model-error-${QWEN}`);
    expect(error).toHaveTextContent("no data arrived from huggingface.co. What arrived is kept; resume when this is fixed.");
    expect(screen.getByTestId(`local-model-resume-${QWEN}`)).toHaveTextContent("Resume");
  });

  it("says the same in Chinese, with no English written by the app (zh-CN)", async () => {
    const backend = withModels(undefined, true);
    await i18n.changeLanguage("zh-CN");
    try {
      await openSection();
      backend.models.retrying(QWEN, retryOf("dns", { nextTryAtMs: Date.now() + 8_000 }));
      const status = await screen.findByTestId(`local-model-status-${QWEN}`);
      await waitFor(() => expect(status).toHaveTextContent("第 2 次尝试（共 5 次）· 8 秒后重试 · 无法解析 huggingface.co"));
      backend.models.retrying(QWEN, retryOf("server_error", { status: 503 }));
      await waitFor(() => expect(status).toHaveTextContent("huggingface.co 返回错误 503"));
      backend.models.retrying(QWEN, retryOf("no_network"));
      await waitFor(() => expect(status).toHaveTextContent("这台电脑没有连接网络"));

      backend.models.setState(QWEN, gaveUpState("refused"));
      const error = await screen.findByTestId(`local-model-error-${QWEN}`);
      expect(error).toHaveTextContent("尝试 5 次（31 秒）后已放弃：huggingface.co 拒绝了连接。尚未下载任何内容。");
      expect(error).toHaveTextContent("服务器没有接受连接");
      // Only the host name is Latin script: no English sentence leaks from the network stack.
      expect(error.textContent!.replace("huggingface.co", "")).not.toMatch(/[A-Za-z]{3,}/);
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("shows a refused command's error under the model", async () => {
    const backend = withModels((b) => b.failNext("startModelDownload", "disk_full", "1.2 GB needed, 3 MB available"));
    const { user } = await openSection();
    await user.click(screen.getByTestId(`local-model-download-${QWEN}`));
    expect(await within(screen.getByTestId(`local-model-${QWEN}`)).findByRole("alert")).toHaveTextContent("There is not enough free disk space.");
    expect(backend.models.models[0]!.state).toEqual({ status: "not_installed" });
  });

  it("finds model servers on this computer and adds one as a provider", async () => {
    const backend = withModels((_, m) => {
      m.setServers([
        { kind: "ollama", name: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", models: ["qwen2.5:1.5b", "llama3.2:1b"], added: false },
        { kind: "llama_cpp", name: "llama.cpp server", baseUrl: "http://127.0.0.1:8080/v1", models: [], added: false },
      ]);
    });
    const { user } = await openSection();

    const ollama = await screen.findByTestId("local-server-ollama");
    expect(ollama).toHaveTextContent("http://127.0.0.1:11434/v1");
    expect(ollama).toHaveTextContent("Models: qwen2.5:1.5b, llama3.2:1b");
    expect(screen.getByTestId("local-server-llama_cpp")).toHaveTextContent("No model listed");

    await user.click(within(ollama).getByTestId("local-server-add-ollama"));
    await waitFor(() => expect(within(screen.getByTestId("local-server-ollama")).getByText("Added")).toBeInTheDocument());
    expect(backend.inputsOf("addLocalServer")).toEqual([{ kind: "ollama", baseUrl: "http://127.0.0.1:11434/v1", model: null }]);
    expect(backend.models.providers.map((p) => p.preset)).toContain("ollama");
    await waitFor(() => expect(screen.getAllByTestId(/^provider-row-/)).toHaveLength(2));
  });

  it("shows a loading state while the catalogue loads", async () => {
    let release!: () => void;
    withModels((b) => b.hold("listLocalModels", new Promise<void>((r) => (release = r))));
    window.history.replaceState(null, "", "#settings/local-models");
    renderApp();
    const section = await screen.findByTestId("settings-section-local-models");
    expect(within(section).getByRole("status")).toBeInTheDocument();
    release();
    expect(await within(section).findByTestId("local-model-list")).toBeInTheDocument();
  });

  it("reads in Chinese", async () => {
    const backend = withModels(undefined, true);
    await openSection();
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    const section = screen.getByTestId("settings-section-local-models");
    expect(section).toHaveTextContent("本地模型");
    expect(screen.getByTestId(`local-model-${QWEN}`)).toHaveTextContent("中文推荐");
    expect(screen.getByTestId(`local-model-download-${QWEN}`)).toHaveTextContent("下载");
    backend.models.progress(QWEN, 100_000_000, 2_000_000);
    await waitFor(() => expect(screen.getByTestId(`local-model-${QWEN}`)).toHaveTextContent("100 MB / 1.1 GB（8%）· 2 MB/s"));
    await i18n.changeLanguage("en");
  });
});
