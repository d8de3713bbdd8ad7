// Local models in the in-memory Cubicle (see fakeBackend.ts), with the Rust side's rules
// (crates/core/src/models.rs): one download at a time per model, pause keeps the bytes, cancel
// deletes them, only a verified (installed) file can become the built-in model, and detected servers
// are added as providers with their preset. Bytes never flow by themselves here: tests move a
// download on with `progressDownload`, `finishDownload` and `failDownload`, as the events would.
import type { AddLocalServer } from "../../bindings/AddLocalServer";
import type { BuiltinStatus } from "../../bindings/BuiltinStatus";
import type { DomainEvent } from "../../bindings/DomainEvent";
import type { DownloadGaveUp } from "../../bindings/DownloadGaveUp";
import type { DownloadRetry } from "../../bindings/DownloadRetry";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { LocalModelDto } from "../../bindings/LocalModelDto";
import type { LocalModelRef } from "../../bindings/LocalModelRef";
import type { LocalServerDto } from "../../bindings/LocalServerDto";
import type { ProviderDto } from "../../bindings/ProviderDto";
import type { RouteDto } from "../../bindings/RouteDto";
import type { UseLocalModelFor } from "../../bindings/UseLocalModelFor";
import type { CommandPart } from "./commandTable";

export const FAKE_MODELS_DIR = "/home/ada/.local/share/app.cubicle.desktop/models";

/** What of the fake backend the local-model commands read and write. */
export interface ModelsHost {
  localModels: LocalModelDto[];
  localServers: LocalServerDto[];
  providers: ProviderDto[];
  builtin: BuiltinStatus;
  routes: RouteDto[];
  emit(event: DomainEvent): void;
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

function model(host: ModelsHost, id: string): LocalModelDto {
  return host.localModels.find((m) => m.id === id) ?? fail("not_found", `no catalogue model "${id}"`);
}

function changed(host: ModelsHost, id: string) {
  host.emit({ type: "local_model_changed", modelId: id });
}

function start(host: ModelsHost, { modelId }: LocalModelRef): LocalModelDto {
  const m = model(host, modelId);
  const s = m.state;
  if (s.status === "installed" || s.status === "downloading" || s.status === "verifying") return structuredClone(m);
  const received = s.status === "paused" || s.status === "failed" ? s.received : 0;
  m.state = { status: "downloading", received, total: m.sizeBytes, bytesPerSec: 0, reconnecting: false, retry: null };
  changed(host, modelId);
  return structuredClone(m);
}

function pause(host: ModelsHost, { modelId }: LocalModelRef): LocalModelDto {
  const m = model(host, modelId);
  if (m.state.status !== "downloading") return fail("invalid_input", `${m.name} is not downloading`);
  m.state = { status: "paused", received: m.state.received, total: m.sizeBytes };
  changed(host, modelId);
  return structuredClone(m);
}

function cancel(host: ModelsHost, { modelId }: LocalModelRef): LocalModelDto {
  const m = model(host, modelId);
  if (m.state.status !== "installed") m.state = { status: "not_installed" };
  changed(host, modelId);
  return structuredClone(m);
}

function useModel(host: ModelsHost, { modelId }: LocalModelRef): BuiltinStatus {
  const m = model(host, modelId);
  if (m.state.status !== "installed") return fail("invalid_input", `${m.name} is not installed yet; download it first`);
  const path = m.state.path;
  for (const other of host.localModels) {
    if (other.state.status === "installed") other.state = { ...other.state, inUse: other.id === modelId };
  }
  host.builtin = { ...host.builtin, installed: true, path, sizeBytes: m.sizeBytes, custom: true };
  host.emit({ type: "providers_changed" });
  changed(host, modelId);
  return structuredClone(host.builtin);
}

/** As core's `use_for`: the route of one purpose goes to the built-in provider with this model. */
function useModelFor(host: ModelsHost, { modelId, purpose }: UseLocalModelFor): RouteDto {
  const m = model(host, modelId);
  if (m.state.status !== "installed") return fail("invalid_input", `${m.name} is not installed yet; download it first`);
  const route: RouteDto = { purpose, providerId: "builtin", model: m.id };
  host.routes = [...host.routes.filter((r) => r.purpose !== purpose), route];
  host.emit({ type: "providers_changed" });
  return structuredClone(route);
}

const PRESET_OF = { ollama: "ollama", lm_studio: "lmstudio", llama_cpp: "custom" } as const;

function detect(host: ModelsHost): LocalServerDto[] {
  return host.localServers.map((s) => ({ ...s, added: host.providers.some((p) => p.baseUrl === s.baseUrl) }));
}

function addServer(host: ModelsHost, input: AddLocalServer): ProviderDto {
  const s = host.localServers.find((x) => x.kind === input.kind && x.baseUrl === input.baseUrl);
  if (!s) return fail("invalid_input", `no server answers at ${input.baseUrl} any more`);
  const p: ProviderDto = {
    id: `${PRESET_OF[s.kind]}-${host.providers.length}`,
    name: s.name,
    preset: PRESET_OF[s.kind],
    dialect: "openai_compatible",
    baseUrl: s.baseUrl,
    defaultModel: input.model ?? s.models[0] ?? "default",
    models: s.models,
    enabled: true,
    keyRequired: false,
    hasKey: false,
    keySource: "none",
    builtin: false,
    importedUnconfirmed: false,
    // Every server found is on this machine.
    onThisComputer: true,
  };
  host.providers.push(p);
  host.emit({ type: "providers_changed" });
  return structuredClone(p);
}

/** The local model and local server commands. */
export function modelsCommands(host: ModelsHost) {
  return {
    list_local_models: () => structuredClone(host.localModels),
    start_model_download: ({ input }) => start(host, input),
    pause_model_download: ({ input }) => pause(host, input),
    cancel_model_download: ({ input }) => cancel(host, input),
    use_local_model: ({ input }) => useModel(host, input),
    use_local_model_for: ({ input }) => useModelFor(host, input),
    detect_local_servers: () => detect(host),
    add_local_server: ({ input }) => addServer(host, input),
  } satisfies CommandPart;
}

// ---- What the download itself would report (tests drive these) ----

export function progressDownload(host: ModelsHost, id: string, received: number, bytesPerSec: number, retry: DownloadRetry | null = null) {
  const m = model(host, id);
  m.state = { status: "downloading", received, total: m.sizeBytes, bytesPerSec, reconnecting: retry !== null, retry };
  changed(host, id);
}

export function finishDownload(host: ModelsHost, id: string) {
  const m = model(host, id);
  m.state = { status: "installed", path: `${FAKE_MODELS_DIR}/${m.fileName}`, inUse: false };
  changed(host, id);
}

export function failDownload(host: ModelsHost, id: string, error: IpcError, received = 0, gaveUp: DownloadGaveUp | null = null) {
  const m = model(host, id);
  m.state = { status: "failed", error, received, gaveUp };
  changed(host, id);
}

/** A small catalogue in the real one's shape (crates/llm/src/catalogue.json). */
export function fakeCatalogue(): LocalModelDto[] {
  const entry = (id: string, name: string, params: string, sizeBytes: number, ramBytes: number, zh: boolean, licence: string): LocalModelDto => ({
    id,
    name,
    params,
    quantization: "Q4_K_M",
    fileName: `${id}.gguf`,
    sizeBytes,
    ramBytes,
    languages: zh ? ["zh", "en", "fr"] : ["en", "de", "fr"],
    writesChinese: zh,
    recommendedForZh: id === "qwen2.5-1.5b-instruct-q4_k_m",
    licence,
    licenceUrl: "https://example.invalid/licence",
    state: { status: "not_installed" },
  });
  return [
    entry("qwen2.5-1.5b-instruct-q4_k_m", "Qwen2.5 1.5B Instruct", "1.5B", 1_117_320_736, 2_000_000_000, true, "Apache-2.0"),
    entry("llama-3.2-1b-instruct-q4_k_m", "Llama 3.2 1B Instruct", "1B", 807_690_656, 2_000_000_000, false, "Llama 3.2 Community License"),
  ];
}
