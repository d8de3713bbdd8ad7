// A thin IPC double behind mockIPC. It knows no rule of the app: each command answers what the
// test scripted (typed by ../ipc/api, so a command whose types change breaks the test build),
// every call is recorded, a command can be made to fail once or held, and domain events are
// sent the way the Rust side sends them. Reads answer empty until a test seeds them.
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import type { DomainEvent } from "../bindings/DomainEvent";
import type { ErrorCode } from "../bindings/ErrorCode";
import type { IpcError } from "../bindings/IpcError";
import type { Api } from "../ipc/api";

export type Command = keyof Api;
export type Input<K extends Command> = Parameters<Api[K]>[0];
export type Output<K extends Command> = Awaited<ReturnType<Api[K]>>;
export type Handler<K extends Command> = (...args: Parameters<Api[K]>) => Output<K> | Promise<Output<K>>;
export type Handlers = { [K in Command]?: Handler<K> };

export interface Call {
  cmd: Command;
  input: unknown;
}

/** `get_org` → `getOrg`: the api's functions are named after their commands. */
const toCommand = (cmd: string) => cmd.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as Command;

/** What a command received: its one `input` (or its one named argument: `fileName`, `json`). */
function argsOf(args: Record<string, unknown> | undefined): unknown[] {
  if (args === undefined) return [];
  if ("input" in args) return [args.input];
  return Object.values(args);
}

export class Fake {
  readonly calls: Call[] = [];
  private readonly handlers: Handlers = {};
  private readonly failures = new Map<Command, IpcError>();
  private readonly holds = new Map<Command, Promise<unknown>>();

  constructor(...seeds: Handlers[]) {
    for (const seed of seeds) Object.assign(this.handlers, seed);
  }

  /** Script a command's answer; it replaces any earlier one. */
  on<K extends Command>(cmd: K, handler: Handler<K>): this {
    (this.handlers as Record<K, Handler<K>>)[cmd] = handler;
    return this;
  }

  /** Answer a command with this value (a fresh copy each call). */
  answer<K extends Command>(cmd: K, value: Output<K>): this {
    return this.on(cmd, (() => structuredClone(value)) as Handler<K>);
  }

  /** The next call of this command fails with this error (once). */
  failNext(cmd: Command, code: ErrorCode, message: string = code): this {
    this.failures.set(cmd, { code, message });
    return this;
  }

  /** The next call of this command waits for `until` (to see loading states). */
  hold(cmd: Command, until: Promise<unknown>): this {
    this.holds.set(cmd, until);
    return this;
  }

  callsOf(cmd: Command): Call[] {
    return this.calls.filter((c) => c.cmd === cmd);
  }

  inputsOf<K extends Command>(cmd: K): Input<K>[] {
    return this.callsOf(cmd).map((c) => c.input as Input<K>);
  }

  /** Send a domain event to the UI, as the Rust side does after each change. */
  emit(event: DomainEvent): void {
    void emit("domain-event", event);
  }

  install(): this {
    mockIPC((cmd, args) => this.handle(cmd, args as Record<string, unknown> | undefined), { shouldMockEvents: true });
    return this;
  }

  private async handle(name: string, raw: Record<string, unknown> | undefined): Promise<unknown> {
    const cmd = toCommand(name);
    const args = argsOf(raw);
    this.calls.push({ cmd, input: structuredClone(args[0]) });
    const held = this.holds.get(cmd);
    if (held) {
      this.holds.delete(cmd);
      await held;
    }
    const failure = this.failures.get(cmd);
    if (failure) {
      this.failures.delete(cmd);
      throw failure;
    }
    const handler = this.handlers[cmd] as ((...a: unknown[]) => unknown) | undefined;
    if (!handler) throw { code: "internal", message: `the test scripted no answer for ${name}` } satisfies IpcError;
    return structuredClone(await handler(...args));
  }
}

/** Throw an IpcError from a scripted handler. */
export function ipcError(code: ErrorCode, message: string = code): never {
  throw { code, message } satisfies IpcError;
}
